"""`forumgm votes --as-of POST` on a real phpBB thread (the saved pages, served over HTTP by the
fixture board): the tally after three chosen posts is the one a hand count gives, every vote
linked to its post, every coloured name that does not count listed with its reason."""
from __future__ import annotations

import threading
from datetime import datetime

import pytest
from playwright.sync_api import expect

from browser_support import log_in
from forum_http_board import BoardServer, FixtureBoard
from forum_http_sites import PHPBB
from forumgm.daemon.cli import main
from forumgm.daemon.forum import open_forum
from forumgm.daemon.runtime.loop import Daemon
from forumgm.daemon.settings.installation import load_installation
from forumgm.daemon.store import Store
from forumgm.daemon.tick.flow import Edges
from forumgm.daemon.offline.localforum.server import STOP_POLL
from forumgm.daemon.tick.sync import sync_game
from forumgm.daemon.web.server import web_server
from legends_forum_support import GAME, HOST_PASSWORD, MSK, PASSWORD_ENV, ROLES, tick_at, write_installation
from localforum_support import HOST, FakeClock

# The saved thread was written on 30 November between 07:42 and 07:44 Moscow time: a day phase
# around it, with a lynch. Гладиатор posts there but plays no part in this game.
CALENDAR = """[calendar.night]
opens = "21:00"
closes = "06:00"

[calendar.day]
opens = "07:00"
closes = "09:00"
"""


WEB_PASSWORD = "пароль страницы ведущего"
PLAYERS = {**ROLES, "Ильмаринен": "Ангел"}


def msk(hour: int, minute: int = 0) -> datetime:
    return datetime(2026, 11, 30, hour, minute, tzinfo=MSK)


@pytest.fixture
def synced(tmp_path, monkeypatch):
    clock = FakeClock(msk(7, 50))
    monkeypatch.setenv(PASSWORD_ENV, HOST_PASSWORD)
    board = FixtureBoard(PHPBB, password=HOST_PASSWORD, member=HOST, members=tuple(PLAYERS), clock=clock.monotonic)
    with BoardServer(board) as server:
        config = write_installation(tmp_path, server, engine="phpbb", thread="viewtopic.php?t=2", roles=PLAYERS,
                                    start="2026-11-29T21:00:00", calendar=CALENDAR,
                                    extra_game="[rules.calendar]\nfirst_lynch_day = 1\n")
        installation = load_installation(config)
        forum = open_forum({"engine": "phpbb", "base_url": server.url, "username": HOST, "posts_per_page": 5},
                           HOST_PASSWORD, clock=clock.monotonic, sleep=clock.sleep, now=clock.now)
        daemon = Daemon(installation, Store(installation.storage, now=clock.now), forum, clock,
                        Edges(sync_game=sync_game))      # the saved pages hold no inbox for this session
        for at in (msk(7, 50), msk(7, 51)):
            tick_at(daemon, clock, at)
        yield config, server.url, daemon
        daemon.store.close()


def as_of(config, post: str, capsys) -> str:
    capsys.readouterr()
    assert main(["votes", "--config", str(config), GAME, "--as-of", post]) == 0
    return capsys.readouterr().out


def link(base: str, post_id: str, nick: str) -> str:
    return f"[url={base.rstrip('/')}/viewtopic.php?p={post_id}#p{post_id}]{nick}[/url]"


def test_the_tally_after_three_posts_is_the_hand_count(synced, capsys):
    config, base, _daemon = synced
    # after post 5: Аскон (his edit at 07:43:00 stands) and gosha100 vote Robozik, Robozik votes
    # gosha100; the Robozik he quotes from post 4 is no vote
    out = as_of(config, "5", capsys)
    assert out.startswith("Как на момент сообщения 5 (Robozik, 30.11.2026 07:43:04)")
    assert f"Robozik — 2: {link(base, '3', 'Аскон')}, {link(base, '4', 'gosha100')}" in out
    assert f"gosha100 — 1: {link(base, '5', 'Robozik')}" in out
    assert "«Robozik» — в цитате" in out
    assert "Кума" not in out.split("Не проголосовали")[0]

    # after post 9: Кума names Ильмаринен in red (post 7), Гладиатор (no player) names Кума in blue
    # (post 8), and Ильмаринен votes Кума (post 9)
    out = as_of(config, f"{base}/viewtopic.php?p=9#p9", capsys)
    assert f"Robozik — 2: {link(base, '3', 'Аскон')}, {link(base, '4', 'gosha100')}" in out
    assert f"gosha100 — 1: {link(base, '5', 'Robozik')}" in out
    assert f"Кума — 1: {link(base, '9', 'Ильмаринен')}" in out
    assert f"{link(base, '7', 'Кума')}: «Ильмаринен» — выделено не цветом голосования (#ff0000)" in out
    assert f"{link(base, '8', 'Гладиатор')}: «Кума» — пишущий не игрок" in out

    # after post 12: Кума named Гладиатор, who is no player (post 10, quoting a blue Кума); Robozik
    # repeats his vote, which now stands with post 12
    out = as_of(config, "12", capsys)
    assert f"gosha100 — 1: {link(base, '12', 'Robozik')}" in out
    assert f"Кума — 1: {link(base, '9', 'Ильмаринен')}" in out
    assert f"{link(base, '10', 'Кума')}: «Гладиатор» — ник не распознан" in out
    assert f"{link(base, '10', 'Кума')}: «Кума» — в цитате" in out
    assert f"{link(base, '5', 'Robozik')}: «gosha100» — повтор голоса за gosha100" in out


def test_a_post_forumgm_never_read_is_refused_with_a_reason(synced, capsys):
    config, _base, _daemon = synced
    assert main(["votes", "--config", str(config), GAME, "--as-of", "99"]) == 1
    assert "no post 99 in the thread of legends-e2e as forumgm read it" in capsys.readouterr().err
    assert main(["votes", "--config", str(config), GAME, "--as-of", "вчера"]) == 2
    assert "--as-of: expected a post's id on the board or its link" in capsys.readouterr().err


def test_the_hosts_page_shows_the_tally_as_of_a_post(synced, tmp_path, page):
    """The game page's «как на момент сообщения» form, in Chromium: the same tally, linked."""
    _config, base, daemon = synced
    server = web_server(daemon.store, WEB_PASSWORD, "127.0.0.1", 0, games=lambda: {GAME: daemon.games[0]})
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": STOP_POLL}, daemon=True)
    thread.start()
    site = f"http://127.0.0.1:{server.server_port}"
    try:
        log_in(page, site, WEB_PASSWORD)
        page.goto(f"{site}/games/{GAME}")
        form = page.locator("form.as-of")
        form.locator("input[name=post]").fill(f"{base}viewtopic.php?p=9#p9")
        form.get_by_role("button", name="Показать").click()
        expect(page.locator("#as-of-moment")).to_contain_text("Сразу после сообщения 9 (Ильмаринен, 30.11.2026 07:43:16)")
        rows = page.locator("#as-of-tally tr")
        expect(rows.nth(1).locator("td")).to_have_text(["Robozik", "2", "Аскон, gosha100"])
        expect(rows.nth(1).locator("a").first).to_have_attribute("href", f"{base}viewtopic.php?p=3#p3")
        expect(page.locator("#as-of-discarded")).to_contain_text("выделено не цветом голосования (#ff0000)")
        page.locator("form.as-of input[name=post]").fill("999")
        page.locator("form.as-of").get_by_role("button", name="Показать").click()
        expect(page.locator("#as-of-problem")).to_have_text(
            "Сообщения 999 нет в теме игры, как её прочёл forumgm.")
    finally:
        server.shutdown()
        thread.join()
        server.server_close()
