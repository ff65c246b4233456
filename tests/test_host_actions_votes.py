"""The host corrects a player's vote in the thread of a Legends day (`forumgm correct`, and on the page):
his posts stay as they were, the tally counts the correction beside them, the lynch and a re-run use it."""
from __future__ import annotations

from playwright.sync_api import expect

from forumgm.daemon.cli import main
from legends_forum_support import GAME, msk, tick_at
from legends_host_support import PASSWORD, cli, counted, draft_body, hosts_page, not_counted
from browser_support import log_in, submit_correction


def test_a_corrected_vote_of_the_open_day_counts_beside_the_players_post(day_two, monkeypatch, capsys):
    server, clock, config, daemon, posts = day_two
    store = daemon.store
    clock.moment = msk(4, 14)
    assert cli(config, "correct", GAME, "day-2", "gosha100", stdin="Аскона\n", monkeypatch=monkeypatch) == 0
    out = capsys.readouterr().out
    assert "day-2: gosha100's thread vote is now the host's vote-1: Аскон (his posts stay as they were)" in out
    assert f"replaces post {posts['gosha100']}: «Кума» (counted for Кума)" in out
    # a name no vote can go to is refused, and changes nothing
    assert cli(config, "correct", GAME, "day-2", "Кума", stdin="Неизвестный", monkeypatch=monkeypatch) == 1
    assert "«Неизвестный» — не голос, который Кума может отдать в фазе «день 2»: ник не распознан" in capsys.readouterr().err

    expected_counted = {"Аскон": ("Кума", posts["Аскон"], None), "gosha100": ("Аскон", None, "ведущий"),
                        "Robozik": ("Аскон", posts["Robozik"], None)}
    expected_not_counted = [("Кума", "Неизвестного", "unknown_name", posts["Кума"], ""),
                            ("gosha100", "Кума", "corrected", posts["gosha100"], "Аскон")]
    assert counted(store) == expected_counted and not_counted(store) == expected_not_counted
    tick_at(daemon, clock, msk(4, 15))      # counted again from the thread: the correction stays
    assert counted(store) == expected_counted and not_counted(store) == expected_not_counted
    assert server.board.posts[int(posts["gosha100"])].bbcode == "[color=blue]Кума[/color]"   # the post as it was
    [(actor, detail)] = [(row["actor"], row["detail"]) for row in store.audit_log() if row["action"] == "vote.correct"]
    assert actor == "ведущий" and (detail["player"], detail["text"], detail["vote"]) == ("gosha100", "Аскона", "Аскон")
    assert detail["replaced"] == [{"post_id": posts["gosha100"], "text": "Кума", "counted": True, "target": "Кума"}]

    assert main(["votes", "--config", str(config), GAME]) == 0
    count = capsys.readouterr().out
    assert "Аскон — 2: " in count and "gosha100[/url] (исправлено ведущим)" not in count
    assert "gosha100 (исправлено ведущим)" in count
    assert "«Кума» — заменён исправлением ведущего (голос за Аскона)" in count

    assert tick_at(daemon, clock, msk(4, 21, 5)).resolved == [f"{GAME}/day-2"]
    lynch = draft_body(store, "lynch_report")
    assert "Аскон — 2: " in lynch and "gosha100 (исправлено ведущим)" in lynch
    assert "«Кума» — заменён исправлением ведущего (голос за Аскона)" in lynch
    assert "Линч: [b]Аскон[/b]." in lynch


def test_a_corrected_vote_of_a_resolved_day_counts_when_it_is_re_run(day_two_resolved, monkeypatch, capsys):
    server, clock, config, daemon, posts = day_two_resolved
    store = daemon.store
    assert cli(config, "correct", GAME, "day-2", "gosha100", stdin="Robozik", monkeypatch=monkeypatch) == 0
    assert cli(config, "correct", GAME, "day-2", "gosha100", stdin="Аскон", monkeypatch=monkeypatch) == 0
    out = capsys.readouterr().out
    assert "replaces the earlier correction vote-1: «Robozik»" in out
    assert "day-2 is resolved: the correction counts once it is re-run" in out
    assert cli(config, "correct", GAME, "day-2", "Кума", stdin="Аскон", monkeypatch=monkeypatch) == 0
    assert counted(store)["gosha100"] == ("Кума", posts["gosha100"], None)     # the resolved count stands till re-run
    rows = store.vote_corrections(GAME, superseded=True)
    assert [(row["voter"], row["text"], row["superseded_by"]) for row in rows] == [
        ("gosha100", "Robozik", 2), ("gosha100", "Аскон", None), ("Кума", "Аскон", None)]
    capsys.readouterr()

    assert cli(config, "resolve", GAME, "day-2", "--rerun", "--dry-run", monkeypatch=monkeypatch) == 0
    diff = capsys.readouterr().out
    assert "eliminated: Кума (lynch) -> Аскон (lynch)" in diff
    assert "+Аскон — 3: " in diff and "gosha100 (исправлено ведущим)" in diff
    # Аскон's clan loses its last warrior: the game ends with day 2, the open night 3 leaves the calendar
    assert diff.rstrip().endswith("open phase night-3: no longer follows day-2 (the game ends there)")
    assert cli(config, "resolve", GAME, "day-2", "--rerun", "--yes", monkeypatch=monkeypatch) == 0
    assert counted(store)["gosha100"] == ("Аскон", None, "ведущий")
    assert counted(store)["Кума"] == ("Аскон", None, "ведущий")
    # his post's vote was no vote already: it keeps its reason, beside the correction now counted
    assert not_counted(store) == [("Кума", "Неизвестного", "unknown_name", posts["Кума"], ""),
                                  ("gosha100", "Кума", "corrected", posts["gosha100"], "Аскон")]
    lynch = draft_body(store, "lynch_report")
    assert "Линч: [b]Аскон[/b]." in lynch and "Кума (исправлено ведущим)" in lynch

    # a night of the same game takes orders: there the correction is his orders, with a receipt
    assert cli(config, "correct", GAME, "night-2", "Аскон", stdin="Шпионаж Кума", monkeypatch=monkeypatch) == 0
    assert "Аскон's orders are now host-1 (replacing nothing: added)" in capsys.readouterr().out
    assert [o["raw_text"] for o in store.orders(GAME, "night-2")] == ["Шпионаж Кума"]
    assert store.phases(GAME, status="pending") == []
    tick_at(daemon, clock, msk(4, 23))
    assert store.game(GAME)["finished_by"] == "engine"


def test_the_host_corrects_a_thread_vote_on_his_page(day_two, page):
    server, clock, config, daemon, posts = day_two
    with hosts_page(daemon) as (store, base):
        clock.moment = msk(4, 14)
        log_in(page, base, PASSWORD)
        page.goto(f"{base}/games/{GAME}")
        submit_correction(page, "day-2", "gosha100", "Аскон")
        expect(page.locator(".flash.ok")).to_have_text("Голос игрока gosha100 (день 2) исправлен: за Аскон.")
        expect(page.locator("table.tally tr").nth(1).locator("td")).to_have_text(
            ["Аскон", "2", "Robozik, gosha100 (исправлено ведущим)"])
        expect(page.locator("table.discarded tr", has_text="gosha100").locator("td")).to_have_text(
            ["gosha100", "Кума", "заменён исправлением ведущего (голос за Аскона)"])
        expect(page.locator("table.vote-corrections tr").nth(1).locator("td")).to_have_text(
            ["день 2", "gosha100", "Аскон", "Ведущий, 04.03.2026 14:00 (МСК) (исправление №1)",
             "действует; сообщения игрока остаются как были"])
        assert server.board.posts[int(posts["gosha100"])].bbcode == "[color=blue]Кума[/color]"
        assert [row["actor"] for row in store.audit_log() if row["action"] == "vote.correct"] == ["host"]

        # a name nobody can be voted for is refused on the page too, and the tally stays
        submit_correction(page, "day-2", "Кума", "Незнакомец")
        expect(page.locator(".flash.error")).to_contain_text("«Незнакомец» — не голос, который Кума может отдать в фазе «день 2»")
        assert len(store.vote_corrections(GAME)) == 1


def test_a_re_run_that_would_change_the_course_of_played_phases_is_refused(day_two, monkeypatch, capsys):
    server, clock, config, daemon, posts = day_two
    store = daemon.store
    assert tick_at(daemon, clock, msk(4, 21, 5)).resolved == [f"{GAME}/day-2"]
    assert tick_at(daemon, clock, msk(5, 10, 5)).resolved == [f"{GAME}/night-3"]
    for nick in ("gosha100", "Кума"):
        assert cli(config, "correct", GAME, "day-2", nick, stdin="Аскон", monkeypatch=monkeypatch) == 0
    resolutions = store.resolutions(GAME)
    capsys.readouterr()

    assert cli(config, "resolve", GAME, "day-2", "--rerun", "--dry-run", monkeypatch=monkeypatch) == 1
    error = capsys.readouterr().err
    assert ("пересчёт фазы «день 2» меняет ход игры: по новым итогам игра кончается после фазы «день 2», "
            "а после неё уже сыграна фаза «ночь 3»") in error and "ничего не изменено" in error
    assert cli(config, "resolve", GAME, "day-2", "--rerun", "--yes", monkeypatch=monkeypatch) == 1
    assert store.resolutions(GAME) == resolutions
    assert [(p["key"], p["status"]) for p in store.phases(GAME)][-2:] == [("night-3", "resolved"), ("day-3", "pending")]
