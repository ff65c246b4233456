"""Every reason a game is not being run shows in `forumgm status` and on the host's page, from one
source (daemon/tick/stops.py); a game its rules ended finishes by itself, and `finish` must insist to
name another winner."""
from __future__ import annotations

import re

import pytest

from forumgm.daemon.cli import main
from forumgm.daemon.tick.clock import FixedClock
from forumgm.daemon.host_actions.pause import pause_game
from forumgm.daemon.tick.stops import PAUSED, RULES_CHANGED, stops
from forumgm.daemon.web import create_app
from mafia_daemon_support import GAME, daemon, example_installation, msk
from web_seed import without_labels
from spine_fakes import MemoryForum, ScriptedPm
from test_mafia_daemon_start import changed_rules

WEB_PASSWORD = "host web password"
TOKEN = re.compile(r'name="csrf_token" value="([^"]+)"')


def mafioso_dead(text: str) -> str:
    return text.replace("[setup]", '[setup]\ndead = ["Бук"]')


# round 1: the town jails the boss, the last of the mafia
JAIL_THE_BOSS = [ScriptedPm(nick, "голос: Лиса", msk(3, 11)) for nick in ("Аскон", "Хан", "Тора", "Эф", "Гор", "Ива")]


def status(tmp_path, capsys) -> str:
    capsys.readouterr()
    assert main(["status", "--config", str(tmp_path / "forumgm.toml")]) == 0
    return capsys.readouterr().out


def logged_in(store, games=None):
    """The host's page, logged in: its client and the session's CSRF token."""
    client = create_app(store, WEB_PASSWORD, games=games).test_client()
    token = TOKEN.search(client.get("/login").get_data(as_text=True)).group(1)
    assert client.post("/login", data={"password": WEB_PASSWORD, "csrf_token": token}).status_code == 302
    return client, TOKEN.search(client.get(f"/games/{GAME}").get_data(as_text=True)).group(1)


def game_page(store) -> tuple[str, str]:
    """The games list and the game's page as the logged-in host sees them."""
    client, _token = logged_in(store)
    return tuple(without_labels(client.get(path).get_data(as_text=True)) for path in ("/", f"/games/{GAME}"))


@pytest.fixture
def ended(tmp_path, monkeypatch):
    """A Mafia game whose last mafia member is jailed in round 1: the town wins."""
    clock = FixedClock(msk(3, 10))
    running = daemon(example_installation(tmp_path, monkeypatch, mafioso_dead), clock,
                     MemoryForum(clock, pms=JAIL_THE_BOSS))
    running.tick()
    clock.set(msk(3, 22, 50))
    assert running.tick().resolved == [f"{GAME}/round-1"]
    yield running
    running.store.close()


def test_a_game_its_rules_ended_finishes_by_itself_and_says_who_won(ended, tmp_path, capsys):
    row = ended.store.game(GAME)
    assert (row["finished_by"], row["winner"], row["finished_at"]) == ("engine", "мирные жители", msk(3, 22, 50))
    shown = status(tmp_path, capsys)
    assert ("GAME FINISHED 2026-03-03 22:50: the game's rules ended it after round-1; winner: мирные жители"
            in shown) and "open phase" not in shown and "no open phase" not in shown
    listing, page = game_page(ended.store)
    assert "Игра окончена" in page and "мирные жители" in page and "Фаза:" not in page
    assert "Мафия" in page and "(mafia)" not in page            # the game's name, not its code
    assert "окончена, победитель: мирные жители" in listing and "<td>Мафия</td>" in listing
    assert ended.tick().resolved == [] and ended.store.phases(GAME, status="pending") == []


def test_finish_against_the_engines_winner_needs_force(ended, tmp_path, capsys):
    config = str(tmp_path / "forumgm.toml")
    capsys.readouterr()
    assert main(["finish", "--config", config, GAME, "--winner", "Мафия", "--by", "host"]) == 1
    said = capsys.readouterr().err
    assert ("правила игры уже закончили игру mafia-example после фазы «круг 1» с победителем «мирные жители»; "
            "«Мафия» станет победителем только вопреки правилам; чтобы всё же назвать «Мафия», повторите с --force") in said
    assert ended.store.game(GAME)["finished_by"] == "engine"
    assert main(["finish", "--config", config, GAME, "--winner", "Мафия", "--by", "host", "--force"]) == 0
    assert (ended.store.game(GAME)["winner"], ended.store.game(GAME)["finished_by"]) == ("Мафия", "host")
    assert ": finished by host, winner: Мафия (nothing resolves any more)" in status(tmp_path, capsys)
    assert main(["finish", "--config", config, GAME, "--winner", "Мафия", "--force"]) == 1    # once only


def test_the_page_names_another_winner_only_against_the_rules(ended):
    client, token = logged_in(ended.store, games=lambda: {GAME: ended.games[0]})
    refused = client.post(f"/games/{GAME}/finish", data={"winner": "Мафия", "csrf_token": token}, follow_redirects=True)
    assert ("Не сделано: правила игры уже закончили игру mafia-example после фазы «круг 1» с победителем «мирные "
            "жители»; «Мафия» станет победителем только вопреки правилам: чтобы всё же назвать «Мафия», отметьте "
            "«вопреки правилам игры» и закончите игру снова") in refused.get_data(as_text=True)
    assert ended.store.game(GAME)["finished_by"] == "engine"
    client.post(f"/games/{GAME}/finish", data={"winner": "Мафия", "force": "1", "csrf_token": token})
    assert (ended.store.game(GAME)["winner"], ended.store.game(GAME)["finished_by"]) == ("Мафия", "host")


def test_naming_the_winner_the_engine_found_needs_no_force(ended, tmp_path, capsys):
    config = str(tmp_path / "forumgm.toml")
    assert main(["finish", "--config", config, GAME, "--winner", "мирные жители", "--by", "host"]) == 0
    assert ended.store.game(GAME)["finished_by"] == "host"
    assert [d["kind"] for d in ended.store.drafts(game_id=GAME)].count("final_announcement") == 1


def test_changed_rules_show_as_a_stop_until_accepted(tmp_path, monkeypatch, capsys):
    clock = FixedClock(msk(3, 10))
    forum = MemoryForum(clock)
    daemon(example_installation(tmp_path, monkeypatch), clock, forum).tick()
    refused = daemon(example_installation(tmp_path, monkeypatch, changed_rules), clock, forum)
    shown = status(tmp_path, capsys)
    assert "GAME STOPPED since 2026-03-03 10:00: game mafia-example: the [rules] table" in shown
    assert "forumgm rules accept" in shown and "open phase round-1" in shown
    _, page = game_page(refused.store)
    assert "Игра остановлена: правила игры в её файле изменены после начала" in page
    assert main(["rules", "accept", "--config", str(tmp_path / "forumgm.toml"), GAME]) == 0
    assert "GAME STOPPED" not in status(tmp_path, capsys)
    assert stops(refused.store, GAME) == []


def test_a_held_game_is_not_run_and_shows_why(tmp_path, monkeypatch, capsys):
    """A cause kept in game_stops keeps the daemon off the game until it is released (a cause of the
    host's own: the daemon releases a rules_changed hold itself once the table is the frozen one)."""
    clock = FixedClock(msk(3, 10))
    forum = MemoryForum(clock, pms=[ScriptedPm("Аскон", "голос: Лиса", msk(3, 11))])
    running = daemon(example_installation(tmp_path, monkeypatch), clock, forum)
    running.tick()
    assert running.store.hold_game(GAME, "inquiry", "a complaint is looked into", msk(3, 10, 30))
    assert not running.store.hold_game(GAME, "inquiry", "a complaint is looked into still", msk(3, 12))
    clock.set(msk(3, 22, 50))
    assert running.tick().resolved == [] and running.store.orders(GAME) == []
    assert "GAME STOPPED since 2026-03-03 10:30: a complaint is looked into still" in status(tmp_path, capsys)
    assert running.store.release_game(GAME, "inquiry", by="host")
    assert running.tick().resolved == [f"{GAME}/round-1"]
    actions = [(a["actor"], a["action"]) for a in running.store.audit_log(limit=4)]
    assert ("host", "game.released") in actions


def test_a_paused_game_shows_on_the_page(tmp_path, monkeypatch):
    clock = FixedClock(msk(3, 10))
    running = daemon(example_installation(tmp_path, monkeypatch), clock, MemoryForum(clock))
    running.tick()
    pause_game(running.store, GAME, "ведущий", msk(3, 11))
    [stop] = stops(running.store, GAME)
    assert (stop.cause, stop.since, stop.title) == (PAUSED, msk(3, 11), "Игра на паузе")
    listing, page = game_page(running.store)
    assert "Игра на паузе" in page and "поставил Ведущий (в консоли: ведущий)" in re.sub("<[^>]+>", "", page) and "Игра на паузе" in listing


def test_votes_on_a_finished_game_says_it_is_over(ended, tmp_path, capsys):
    capsys.readouterr()
    assert main(["votes", "--config", str(tmp_path / "forumgm.toml"), GAME]) == 1
    said = capsys.readouterr().err
    assert "game mafia-example is over (the game's rules ended it after round-1; winner: мирные жители)" in said
    assert "(resolved: round-1; name one with --phase)" in said and "dealt" not in said


def test_votes_on_a_stopped_game_says_so_before_the_count(tmp_path, monkeypatch, capsys):
    """The daemon reads nothing of a stopped game: its count is what was read before it stopped."""
    clock = FixedClock(msk(3, 13))
    running = daemon(example_installation(tmp_path, monkeypatch), clock, MemoryForum(clock))
    running.tick()
    problem = "the forum did not answer for game mafia-example: read timed out"
    running.store.set_problem(GAME, problem, msk(3, 13, 30))
    capsys.readouterr()
    assert main(["votes", "--config", str(tmp_path / "forumgm.toml"), GAME]) == 0
    said = capsys.readouterr()
    assert said.out.strip()
    assert (f"forumgm votes: GAME STOPPED since 2026-03-03 13:30: {problem} (no phase resolves until this works "
            "again); this count is what was read before, not the forum as it is now") in said.err
    running.store.clear_problem(GAME)
    assert main(["votes", "--config", str(tmp_path / "forumgm.toml"), GAME]) == 0
    assert "GAME STOPPED" not in capsys.readouterr().err
