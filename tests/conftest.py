"""What the test files share: the fake clock, the shipped texts, one Chromium per worker, the games
several files play on (the example Mafia game's two walked days, a Legends day on the local forum, a
Bellum table, the coin game registered), and the markers that let a developer run the fast part
alone (README, "Layout"):

    browser   drives the host's page in Debian's Chromium (a test using `page` or `phone`)
    e2e       a game played end to end through the daemon on the local forum (tests/test_e2e_*.py)
    slow      starts real processes or plays long stretches of game time (set by the file)

    python -m pytest -m "not browser and not e2e and not slow"
"""
from __future__ import annotations

import gc
import os
import sys
import tempfile
from dataclasses import replace

import pytest

from forumgm.config import load_texts
from forumgm.daemon.settings.games import GROUP, forget_games
from forumgm.daemon.store.lost import marker_path
from bellum_forum_support import Table as BellumTable
from browser_support import fresh_page
from coin_support import GAMES_FOLDER as COIN_FOLDER
from e2e_support import copy_store, hosted_copy
from legends_forum_support import GAME as LEGENDS_GAME, legends_forum, legends_hosted, msk, tick_at
from legends_host_support import draft_body, hosts_page
from localforum_support import FakeClock
from mafia_daemon_support import example_installation
from mafia_walk_support import walk
from test_e2e_mafia import ROUND_1, Table as MafiaTable, play_round

# Where the environment sets PYTHONDONTWRITEBYTECODE (this machine's does), pytest rewrites the
# asserts of every test file again in each worker at each run: some 6 s of CPU a worker. Written,
# the rewritten files are read from tests/__pycache__ (git ignores it) until a file changes.
sys.dont_write_bytecode = False

# Debian's chromium-headless-shell (README's test command installs it; Playwright downloads none): the
# same Blink as the full browser without its windowing and services, which cost the full Chromium
# (in --headless) some 80 CPU-s over the browser tests against 30 here.
CHROMIUM = "/usr/bin/chromium-headless-shell"
# --process-per-site: one renderer for the one site the tests open, not one a tab (the browser tests
# alone, one worker: ~33 → ~30 CPU-s of Chromium, two runs each)
CHROMIUM_ARGS = ["--process-per-site", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
BROWSER_FIXTURES = {"browser", "page", "phone"}
MEMORY_DISK = "/dev/shm"


# A worker holds some 300,000 objects (the dictionaries, the engines, the played games it keeps):
# the collector's default of a pass every 700 allocations cost each worker ~4 CPU-s a run, under 3 at these.
COLLECTOR_THRESHOLDS = (20_000, 20, 20)


def pytest_configure(config) -> None:
    gc.set_threshold(*COLLECTOR_THRESHOLDS)
    in_memory(config)


def in_memory(config) -> None:
    """The tests' files (stores, logs, configs) go to memory where the machine has a tmpfs and the
    developer chose no other place: each SQLite commit of a test's store waits on the disk's flush
    otherwise (~1 ms here; test_spine_store.py alone took 4.8 s on the disk, 1.1 s here). No test needs
    the data to outlive the machine: a killed daemon's writes sit in the page cache either way."""
    if config.option.basetemp or "TMPDIR" in os.environ or not os.access(MEMORY_DISK, os.W_OK):
        return
    os.environ["TMPDIR"] = tempfile.tempdir = MEMORY_DISK       # the tests' subprocesses too


def pytest_collection_modifyitems(items) -> None:
    for item in items:
        if BROWSER_FIXTURES & set(item.fixturenames):
            item.add_marker(pytest.mark.browser)
        if item.path.name.startswith("test_e2e_"):
            item.add_marker(pytest.mark.e2e)


@pytest.fixture
def clock() -> FakeClock:
    """One time for the local forum, the HTTP client and the store: the client's sleeps move it."""
    return FakeClock()


@pytest.fixture(scope="session")
def texts():
    """The shipped templates (read once: nothing changes them)."""
    return load_texts()


def approving_nothing(config):
    return replace(config, games=(replace(config.games[0], approval={}),))


@pytest.fixture
def installation(tmp_path, monkeypatch):
    """The shipped example installation with its Mafia game alone, whose host approves nothing:
    every draft goes out (the walks of tests/mafia_walk_support.py exercise publishing so)."""
    return approving_nothing(example_installation(tmp_path, monkeypatch))


@pytest.fixture(scope="session")
def walked(tmp_path_factory):
    """The store the example game's two walked days leave (tests/mafia_walk_support.py), walked once a
    worker: `played` copies it for each test, which never sees this one."""
    folder = tmp_path_factory.mktemp("walked")
    with pytest.MonkeyPatch.context() as monkeypatch:
        installation = approving_nothing(example_installation(folder, monkeypatch))
        walk(installation)[0].close()
    return installation.storage


@pytest.fixture
def played(walked, installation):
    """Two days of the example game on the command line's store, a copy of its own:
    (installation, its config file)."""
    copy_store(walked, installation.storage)
    marker_path(installation.storage).write_bytes(marker_path(walked).read_bytes())
    return installation, installation.source


@pytest.fixture(scope="session")
def round_one(tmp_path_factory):
    """The eight players' Mafia game of tests/test_e2e_mafia.py with round 1 played and its report on
    the forum, played once a worker: `hosted` and the page tests go on with copies of it."""
    with pytest.MonkeyPatch.context() as monkeypatch:
        table = MafiaTable(tmp_path_factory.mktemp("round-one"), monkeypatch)
        table.tick(msk(2, 22))
        table.approve()
        table.tick(msk(2, 22, 10))
        play_round(table, 1, ROUND_1, 3)
        table.at(msk(4, 9))
    yield table
    table.close()


@pytest.fixture
def hosted(round_one, tmp_path, monkeypatch):
    """Round 1 played and its report on the forum (a copy of its own); the host's page served on the
    same store file: (table, the page's store, the page's address)."""
    table = round_one.copy(tmp_path, monkeypatch)
    with hosts_page(table.daemon) as (store, base):
        yield table, store, base
    table.close()


@pytest.fixture
def legends_game(tmp_path, monkeypatch):
    """A small Legends game's local forum over HTTP with its installation and its players' sessions:
    (server, clock, config, players)."""
    with legends_forum(tmp_path, monkeypatch) as (server, _board, clock, config, players):
        yield server, clock, config, players


@pytest.fixture(scope="session")
def day_two_played(tmp_path_factory):
    """Day 2 of that Legends game open, its votes posted in the thread over HTTP, played once a
    worker: `day_two` copies it for each test, which never sees this one."""
    with legends_hosted(tmp_path_factory.mktemp("day-two")) as (server, board, clock, config, players, daemon):
        for moment in (msk(2, 20), msk(3, 10, 5), msk(3, 21, 5), msk(4, 10, 5)):
            tick_at(daemon, clock, moment)
        clock.moment = msk(4, 12, 30)
        posts = {"Аскон": players["Аскон"].post("Голосую за [color=blue]Кума[/color]"),
                 "gosha100": players["gosha100"].post("[color=blue]Кума[/color]"),
                 "Robozik": players["Robozik"].post("[color=blue]Аскон[/color]"),
                 "Кума": players["Кума"].post("Я за [color=blue]Неизвестного[/color]")}
        tick_at(daemon, clock, msk(4, 13))
        yield server, board, daemon, posts


@pytest.fixture
def day_two(day_two_played, tmp_path, monkeypatch):
    """Day 2 of that Legends game open, its votes posted in the thread over HTTP (a copy of its own,
    tests/e2e_support.py's hosted_copy): (server, clock, config, daemon, posts)."""
    server, board, played, posts = day_two_played
    daemon, _board = hosted_copy(server, board, played, tmp_path, monkeypatch)
    yield server, daemon.clock, daemon.installation.source, daemon, posts
    daemon.store.close()


@pytest.fixture
def day_two_resolved(day_two):
    """Day 2 as the thread voted it resolved (Кума lynched), an hour later."""
    server, clock, config, daemon, posts = day_two
    assert tick_at(daemon, clock, msk(4, 21, 5)).resolved == [f"{LEGENDS_GAME}/day-2"]
    assert "Линч: [b]Кума[/b]." in draft_body(daemon.store, "lynch_report")
    clock.moment = msk(4, 22)
    return day_two


@pytest.fixture
def bellum_table(tmp_path, monkeypatch):
    """A Bellum game on the local forum, hosted by the daemon (tests/bellum_forum_support.py)."""
    table = BellumTable(tmp_path, monkeypatch)
    yield table
    table.close()


@pytest.fixture
def coin_registered(tmp_path_factory, monkeypatch):
    """The «Монетка» game registered as a third party registers a game: a distribution's entry point in
    the group forumgm.games, here a dist-info folder written for the test and put on sys.path with the
    game's package."""
    site = tmp_path_factory.mktemp("site")
    info = site / "coin_game-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: coin-game\nVersion: 1.0\n", encoding="utf-8")
    (info / "entry_points.txt").write_text(f"[{GROUP}]\ncoin = coin_game:GAME\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(COIN_FOLDER))
    monkeypatch.syspath_prepend(str(site))
    forget_games()
    yield
    monkeypatch.undo()
    forget_games()


@pytest.fixture(scope="session")
def browser():
    """One Chromium for the worker's tests (its start is most of a browser test's time)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        running = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield running
        running.close()


@pytest.fixture(scope="session")
def desktop(browser):
    """The worker's one desktop browser profile: a context costs Chromium half a second, a page in
    one a tenth (`fresh_page` gives each test its own page and an empty cookie jar)."""
    context = browser.new_context(viewport={"width": 1100, "height": 900})
    yield context
    context.close()


@pytest.fixture(scope="session")
def handset(browser):
    """The worker's one phone profile (touch, a mobile viewport), shared as `desktop` is."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    yield context
    context.close()


@pytest.fixture
def page(desktop):
    """A desktop browser window of its own."""
    with fresh_page(desktop) as opened:
        yield opened


@pytest.fixture
def phone(handset):
    """A phone's screen of its own: 390 px wide, touch."""
    with fresh_page(handset) as opened:
        yield opened
