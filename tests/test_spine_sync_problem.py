"""A game whose forum pages cannot be read stops visibly: in the store, `forumgm status` and the web page."""
from __future__ import annotations

import logging
import re
from dataclasses import replace

import pytest
from markupsafe import escape

from forumgm.daemon.cli import main
from forumgm.daemon.offline.localforum import LocalForum
from forumgm.daemon.tick.sync import InboxReport
from forumgm.daemon.web import create_app
from legends_forum_support import GAME, PASSWORD_ENV, ROLES, Player, legends_board, msk, start_daemon, write_installation
from localforum_support import FakeClock

WEB_PASSWORD = "host web password"
TOKEN = re.compile(r'name="csrf_token" value="([^"]+)"')
STOPPED_WEB = "Игра остановлена"
STOPPED_CLI = "GAME STOPPED since"


@pytest.fixture
def game(tmp_path, monkeypatch):
    clock = FakeClock(msk(2, 20))
    monkeypatch.setenv(PASSWORD_ENV, "host-secret")
    with LocalForum(legends_board(clock)) as server:
        config = write_installation(tmp_path, server)
        daemon = start_daemon(config, server, clock)
        yield server, clock, config, daemon
        daemon.store.close()


def tick_at(daemon, clock, moment):
    clock.moment = moment
    return daemon.tick()


def status(config, capsys) -> str:
    assert main(["status", "--config", str(config)]) == 0
    return capsys.readouterr().out


def host_pages(store) -> tuple[str, str]:
    """The games list and the game's page as the logged-in host sees them."""
    client = create_app(store, WEB_PASSWORD).test_client()
    token = TOKEN.search(client.get("/login").get_data(as_text=True)).group(1)
    assert client.post("/login", data={"password": WEB_PASSWORD, "csrf_token": token}).status_code == 302
    return client.get("/").get_data(as_text=True), client.get(f"/games/{GAME}").get_data(as_text=True)


def logged(caplog, words: str) -> int:
    return sum(words in record.getMessage() for record in caplog.records)


def test_an_unreadable_thread_page_stops_the_game_until_it_reads_again(game, capsys, caplog):
    server, clock, config, daemon = game
    caplog.set_level(logging.INFO, logger="forumgm.daemon")
    assert tick_at(daemon, clock, msk(2, 20)).errors == []
    clock.moment = msk(2, 21, 30)       # the night is open (a PM before it is no order)
    Player(server, clock, "Аскон").pm("Ночь 1", "Шпионаж Кума")
    server.board.broken_topics.add(2)

    # past night 1's deadline: the thread page is not understood, so nothing resolves on it
    first = tick_at(daemon, clock, msk(3, 10, 5))
    assert first.resolved == [] and len(first.errors) == 1
    assert [p["status"] for p in daemon.store.phases(GAME)] == ["pending"]
    row = daemon.store.game(GAME)
    assert row["problem"] == first.errors[0] and "does not look like a forum page" in row["problem"]
    assert row["problem_since"] == msk(3, 10, 5)
    assert tick_at(daemon, clock, msk(3, 10, 10)).resolved == []
    assert daemon.store.game(GAME)["problem_since"] == msk(3, 10, 5)      # since the first failed sync
    assert logged(caplog, f"game {GAME} stopped") == 1                      # once, not every tick

    shown = status(config, capsys)
    assert f"{STOPPED_CLI} 2026-03-03 10:05: {row['problem']}" in shown
    games_list, game_page = host_pages(daemon.store)
    for html in (games_list, game_page):
        assert STOPPED_WEB in html and "03.03.2026 10:05 (МСК)" in html
        assert str(escape(row["problem"])) in html

    # the page is fine again: the problem clears and the overdue phase resolves
    server.board.broken_topics.discard(2)
    assert tick_at(daemon, clock, msk(3, 10, 15)).resolved == [f"{GAME}/night-1"]
    row = daemon.store.game(GAME)
    assert row["problem"] is None and row["problem_since"] is None
    assert [o["sender"] for o in daemon.store.orders(GAME, "night-1")] == ["Аскон"]
    assert tick_at(daemon, clock, msk(3, 10, 20)).errors == []
    assert logged(caplog, f"game {GAME} runs again") == 1
    assert STOPPED_CLI not in status(config, capsys)
    assert all(STOPPED_WEB not in html for html in host_pages(daemon.store))
    actions = [(a["action"], a["detail"]["game"]) for a in daemon.store.audit_log() if a["action"].startswith("game.")]
    assert sorted(actions) == [("game.resumed", GAME), ("game.start", GAME), ("game.stopped", GAME)]


def test_an_unreadable_inbox_stops_every_game_of_the_forum(game, capsys):
    server, clock, config, daemon = game
    edges = daemon.edges
    problem = "the PM inbox of local does not look like the forum's inbox any more (<ul> missing)"
    daemon.edges = replace(edges, sync_inbox=lambda forum_id, *rest: InboxReport(forum_id, error=problem))
    assert tick_at(daemon, clock, msk(3, 10, 5)).errors == [problem]
    assert [p["status"] for p in daemon.store.phases(GAME)] == ["pending"]
    assert daemon.store.game(GAME)["problem"] == problem
    assert f"{STOPPED_CLI} 2026-03-03 10:05: {problem}" in status(config, capsys)
    for html in host_pages(daemon.store):       # what the forum said is shown, never taken as markup
        assert "(&lt;ul&gt; missing)" in html and "(<ul> missing)" not in html
    daemon.edges = edges
    assert tick_at(daemon, clock, msk(3, 10, 10)).resolved == [f"{GAME}/night-1"]
    assert daemon.store.game(GAME)["problem"] is None


class _FailingResolve:
    """The game's engine with a bug in resolve: everything else as the real one."""

    def __init__(self, rules):
        self._rules = rules

    def resolve(self, *args, **kwargs):
        raise ValueError("an engine bug")

    def __getattr__(self, name):
        return getattr(self._rules, name)


def test_an_engine_that_fails_stops_the_game_visibly_until_it_resolves(game, capsys):
    server, clock, config, daemon = game
    assert tick_at(daemon, clock, msk(2, 20)).errors == []
    working = daemon.games
    daemon.games = [replace(g, rules=_FailingResolve(g.rules)) for g in working]
    assert tick_at(daemon, clock, msk(3, 10, 5)).resolved == []
    problem = daemon.store.game(GAME)["problem"]
    assert "resolving the game failed (ValueError: an engine bug)" in problem
    assert tick_at(daemon, clock, msk(3, 10, 10)).resolved == []
    assert daemon.store.game(GAME)["problem_since"] == msk(3, 10, 5)       # not cleared between failures
    assert f"{STOPPED_CLI} 2026-03-03 10:05: {problem}" in status(config, capsys)
    daemon.games = working
    assert tick_at(daemon, clock, msk(3, 10, 15)).resolved == [f"{GAME}/night-1"]
    assert daemon.store.game(GAME)["problem"] is None


def test_a_sync_step_that_raises_stops_the_games_but_never_the_tick(game, capsys):
    """An error the forum edge did not expect (a parser bug, a store hiccup) is a sync problem of
    the games it touches; the tick goes on to the other steps (publishing) instead of aborting."""
    server, clock, config, daemon = game
    edges = daemon.edges
    published = []

    def broken_inbox(forum_id, *rest):
        raise RuntimeError("inbox parser bug")

    daemon.edges = replace(edges, sync_inbox=broken_inbox, publish=lambda *args, **kw: published.append(args))
    report = tick_at(daemon, clock, msk(3, 10, 5))
    assert report.resolved == [] and published
    problem = daemon.store.game(GAME)["problem"]
    assert problem == "reading the forum failed (RuntimeError: inbox parser bug); see the log"
    assert f"{STOPPED_CLI} 2026-03-03 10:05: {problem}" in status(config, capsys)

    def broken_thread(*args):
        raise RuntimeError("thread parser bug")

    daemon.edges = replace(edges, sync_game=broken_thread, publish=lambda *args, **kw: published.append(args))
    assert tick_at(daemon, clock, msk(3, 10, 10)).resolved == [] and len(published) == 2
    assert "thread parser bug" in daemon.store.game(GAME)["problem"]
    daemon.edges = edges
    assert tick_at(daemon, clock, msk(3, 10, 15)).resolved == [f"{GAME}/night-1"]


def test_accept_thread_lets_the_next_sync_take_the_thread_as_it_is(game, capsys):
    server, clock, config, daemon = game
    assert tick_at(daemon, clock, msk(2, 20)).errors == []
    assert main(["accept-thread", "--config", str(config), GAME, "--by", "host"]) == 0
    assert "reads the thread from page 1" in capsys.readouterr().out
    assert daemon.store.thread_cursor(GAME)["pages"] == 0
    assert daemon.store.audit_log()[0]["action"] == "thread.accept"
    assert tick_at(daemon, clock, msk(2, 21)).errors == []
    assert daemon.store.thread_cursor(GAME)["pages"] >= 1
