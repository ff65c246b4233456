"""A re-run of a game its rules had ended, whose new outcome no longer ends it: the game is reopened, paused,
with the phase the rules name now; the host sets its deadline and resumes it (`forumgm resolve --rerun`, and
on the page). One whose new outcome still ends it takes the winner the rules name now. A game the host
finished stays finished and takes no correction."""
from __future__ import annotations

from datetime import datetime

import pytest
from playwright.sync_api import expect

from forumgm.daemon.cli import main
from e2e_support import hosted_copy
from legends_forum_support import GAME, MSK, legends_hosted, msk, tick_at
from legends_host_support import PASSWORD, cli, hosts_page
from browser_support import log_in, submit_correction


@pytest.fixture
def ended(day_two, monkeypatch):
    """Day 2 resolved with the host's corrections of two votes: Аскон is lynched, and with him his clan's
    last warrior, so the game's rules end the game."""
    server, clock, config, daemon, posts = day_two
    clock.moment = msk(4, 14)
    for nick in ("gosha100", "Кума"):
        assert cli(config, "correct", GAME, "day-2", nick, stdin="Аскон", monkeypatch=monkeypatch) == 0
    assert tick_at(daemon, clock, msk(4, 21, 5)).resolved == [f"{GAME}/day-2"]
    row = daemon.store.game(GAME)
    assert row["finished_by"] == "engine" and row["winner"]
    assert daemon.store.phases(GAME, status="pending") == []
    clock.moment = msk(4, 22)
    return day_two


def test_a_re_run_that_no_longer_ends_the_game_reopens_it_paused(ended, monkeypatch, capsys):
    server, clock, config, daemon, posts = ended
    store = daemon.store
    winner = store.game(GAME)["winner"]
    # the host sees gosha100's vote was for Кума after all: two votes each, a tie, nobody lynched
    assert cli(config, "correct", GAME, "day-2", "gosha100", stdin="Кума", monkeypatch=monkeypatch) == 0
    assert "day-2 is resolved: the correction counts once it is re-run" in capsys.readouterr().out

    assert cli(config, "resolve", GAME, "day-2", "--rerun", "--dry-run", monkeypatch=monkeypatch) == 0
    diff = capsys.readouterr().out
    assert "eliminated: Аскон (lynch) -> nobody" in diff
    assert diff.rstrip().endswith("the game's rules no longer end it after day-2: night-3 follows; the game reopens, "
                                  "paused, for you to set that phase's deadline and resume it")
    assert store.game(GAME)["finished_by"] == "engine" and store.phases(GAME, status="pending") == []   # a preview

    assert cli(config, "resolve", GAME, "day-2", "--rerun", "--yes", monkeypatch=monkeypatch) == 0
    out = capsys.readouterr().out
    assert (f"{GAME} goes on with night-3, paused: set its deadline (forumgm deadline --config {config} {GAME} "
            f"--set \"ДД.ММ.ГГГГ ЧЧ:ММ\"), then forumgm resume --config {config} {GAME}") in out
    row = store.game(GAME)
    assert (row["finished_at"], row["winner"], row["finished_by"], row["paused_by"]) == (None, None, None, "ведущий")
    [night] = store.phases(GAME, status="pending")
    assert (night["key"], night["deadline"]) == ("night-3", msk(5, 10))      # from the calendar: passed already
    [(actor, detail)] = [(r["actor"], r["detail"]) for r in store.audit_log() if r["action"] == "game.reopen"]
    assert actor == "ведущий" and detail == {"game": GAME, "winner": winner, "paused": True}
    [lynch] = [d["body"] for d in store.drafts(game_id=GAME) if d["kind"] == "lynch_report"
               and d["phase_key"] == "day-2" and d["status"] == "pending"]
    assert "Голоса разделились поровну — Линч не состоялся." in lynch
    assert main(["status", "--config", str(config)]) == 0
    status = capsys.readouterr().out
    assert "PAUSED since" in status and "GAME FINISHED" not in status and "open phase night-3" in status

    # paused, the overdue night does not resolve; the host moves its deadline and resumes the game
    assert tick_at(daemon, clock, msk(5, 10, 5)).resolved == []
    assert main(["deadline", "--config", str(config), GAME, "--set", "2036-03-05 10:00", "--by", "ведущий"]) == 0
    assert main(["resume", "--config", str(config), GAME, "--by", "ведущий"]) == 0
    assert tick_at(daemon, clock, msk(5, 11)).resolved == []
    assert tick_at(daemon, clock, datetime(2036, 3, 5, 10, 5, tzinfo=MSK)).resolved == [f"{GAME}/night-3"]
    assert store.game(GAME)["finished_at"] is None and store.phases(GAME, status="pending")[0]["key"] == "day-3"


def test_a_re_run_that_still_ends_the_game_leaves_it_finished(ended, monkeypatch, capsys):
    server, clock, config, daemon, posts = ended
    store = daemon.store
    before = store.game(GAME)
    # Кума's own vote annulled: Аскон still has two votes to Кума's one
    assert cli(config, "correct", GAME, "day-2", "Кума", "--annul", monkeypatch=monkeypatch) == 0
    assert cli(config, "resolve", GAME, "day-2", "--rerun", "--yes", monkeypatch=monkeypatch) == 0
    assert "goes on with" not in capsys.readouterr().out
    assert store.game(GAME) == before and store.phases(GAME, status="pending") == []


def test_a_game_the_host_finished_takes_no_correction(day_two, monkeypatch, capsys):
    server, clock, config, daemon, posts = day_two
    assert main(["finish", "--config", str(config), GAME, "--winner", "Клан Хаоса", "--by", "ведущий"]) == 0
    assert cli(config, "correct", GAME, "day-2", "gosha100", stdin="Аскон", monkeypatch=monkeypatch) == 1
    assert f"игра {GAME} закончена ведущим: её приказы и голоса больше не меняются" in capsys.readouterr().err


def test_the_host_reopens_a_game_its_rules_ended_on_his_page(ended, page):
    server, clock, config, daemon, posts = ended
    with hosts_page(daemon) as (store, base):
        log_in(page, base, PASSWORD)
        page.goto(f"{base}/games/{GAME}")
        expect(page.locator("form#deadline")).to_have_count(0)          # nothing to schedule in a finished game
        submit_correction(page, "day-2", "gosha100", "Кума")
        expect(page.locator("p.state")).to_contain_text("Игра окончена")
        expect(page.locator(".flash.ok", has_text="Голос игрока")).to_have_text(
            "Голос игрока gosha100 (день 2) исправлен: за Кума.")
        page.locator("#phase-day-2").get_by_role("link", name="Пересчитать день 2…").click()
        expect(page.locator("#reopened")).to_have_text(
            "Новый итог: после фазы «день 2» игра не заканчивается, дальше — ночь 3. Игра откроется снова, на паузе: "
            "назначьте дедлайн этой фазы и продолжите игру.")
        page.get_by_role("button", name="Подтвердить пересчёт").click()
        expect(page.locator(".flash.error", has_text="Игра продолжается")).to_have_text(
            "Игра продолжается: ночь 3. Она на паузе: назначьте дедлайн и продолжите игру.")
        expect(page.locator("#attention .fact.paused")).to_contain_text("Игра на паузе")
        expect(page.locator("form#deadline")).to_have_count(1)
        expect(page.locator("p.state")).not_to_contain_text("Игра окончена")
        row = store.game(GAME)
        assert (row["finished_at"], row["paused_by"]) == (None, "host")
        assert [p["key"] for p in store.phases(GAME, status="pending")] == ["night-3"]


@pytest.fixture(scope="session")
def duel_played(tmp_path_factory):
    """Two players of two clans, each voting in the thread on day 2: the lynch ends the game whoever
    falls (played once a worker: `duel` gives each test a copy of its own)."""
    with legends_hosted(tmp_path_factory.mktemp("duel"), roles={"Аскон": "Бес", "Кума": "Единорог"}) as (
            server, board, clock, config, players, daemon):
        for moment in (msk(2, 20), msk(3, 10, 5), msk(3, 21, 5), msk(4, 10, 5)):
            tick_at(daemon, clock, moment)
        clock.moment = msk(4, 12, 30)
        for nick in ("Аскон", "Кума"):
            players[nick].post("Голосую за [color=blue]Кума[/color]")
        yield server, board, daemon


@pytest.fixture
def duel(duel_played, tmp_path, monkeypatch):
    """That duel, a copy of its own (tests/e2e_support.py's hosted_copy): (clock, config, daemon)."""
    server, board, played = duel_played
    daemon, _board = hosted_copy(server, board, played, tmp_path, monkeypatch)
    yield daemon.clock, daemon.installation.source, daemon
    daemon.store.close()


def test_a_re_run_that_ends_the_game_with_another_winner_names_him(duel, monkeypatch, capsys):
    clock, config, daemon = duel
    store = daemon.store
    assert tick_at(daemon, clock, msk(4, 21, 5)).resolved == [f"{GAME}/day-2"]
    assert (store.game(GAME)["winner"], store.game(GAME)["finished_by"]) == ("Клан Хаоса", "engine")
    for nick in ("Аскон", "Кума"):       # both meant Аскон: Кума's clan wins
        assert cli(config, "correct", GAME, "day-2", nick, stdin="Аскон", monkeypatch=monkeypatch) == 0
    capsys.readouterr()
    assert cli(config, "resolve", GAME, "day-2", "--rerun", "--dry-run", monkeypatch=monkeypatch) == 0
    diff = capsys.readouterr().out
    assert "eliminated: Кума (lynch) -> Аскон (lynch)" in diff
    assert diff.rstrip().endswith("the game's rules still end it after day-2, now won by «Клан Природы» "
                                  "(was «Клан Хаоса»)")
    assert store.game(GAME)["winner"] == "Клан Хаоса"          # a preview
    assert cli(config, "resolve", GAME, "day-2", "--rerun", "--yes", monkeypatch=monkeypatch) == 0
    row = store.game(GAME)
    assert (row["winner"], row["finished_by"], row["paused_at"]) == ("Клан Природы", "engine", None)
    assert store.phases(GAME, status="pending") == []
    assert main(["status", "--config", str(config)]) == 0
    assert "the game's rules ended it after day-2; winner: Клан Природы" in capsys.readouterr().out


def test_the_page_shows_the_new_winner_before_the_host_confirms(duel, page):
    clock, config, daemon = duel
    assert tick_at(daemon, clock, msk(4, 21, 5)).resolved == [f"{GAME}/day-2"]
    with hosts_page(daemon) as (store, base):
        log_in(page, base, PASSWORD)
        page.goto(f"{base}/games/{GAME}")
        for nick in ("Аскон", "Кума"):
            submit_correction(page, "day-2", nick, "Аскон")
        page.locator("#phase-day-2").get_by_role("link", name="Пересчитать день 2…").click()
        expect(page.locator("#winner")).to_have_text(
            "Игра по-прежнему заканчивается после фазы «день 2», но побеждает Клан Природы (было: Клан Хаоса).")
        page.get_by_role("button", name="Подтвердить пересчёт").click()
        page.goto(f"{base}/games/{GAME}")
        expect(page.locator("p.state")).to_contain_text("победитель: Клан Природы")
        assert store.game(GAME)["winner"] == "Клан Природы"
