"""What the test files share: the fake clock, the shipped texts, one Chromium per worker, and the
markers that let a developer run the fast part alone (README, "Layout"):

    browser   drives the host's page in Debian's Chromium (a test using `page` or `phone`)
    e2e       a game played end to end through the daemon on the local forum (tests/test_e2e_*.py)
    slow      starts real processes or plays long stretches of game time (set by the file)

    python -m pytest -m "not browser and not e2e and not slow"
"""
from __future__ import annotations

import sqlite3
import sys
from dataclasses import replace

import pytest

from forumgm.config import load_texts
from forumgm.daemon.store.lost import marker_path
from localforum_support import FakeClock
from mafia_daemon_support import example_installation
from mafia_walk_support import walk

# Where the environment sets PYTHONDONTWRITEBYTECODE (this machine's does), pytest rewrites the
# asserts of every test file again in each worker at each run: some 6 s of CPU a worker. Written,
# the rewritten files are read from tests/__pycache__ (git ignores it) until a file changes.
sys.dont_write_bytecode = False

CHROMIUM = "/usr/bin/chromium"      # Debian's (README's test command installs it); Playwright downloads none
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
BROWSER_FIXTURES = {"browser", "page", "phone"}


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
    source, copy = sqlite3.connect(walked), sqlite3.connect(installation.storage)
    source.backup(copy)
    source.close()
    copy.close()
    marker_path(installation.storage).write_bytes(marker_path(walked).read_bytes())
    return installation, installation.source


@pytest.fixture(scope="session")
def browser():
    """One Chromium for the worker's tests (its start is most of a browser test's time); each
    test gets a context of its own, so no cookie or page is shared."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        running = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield running
        running.close()


@pytest.fixture
def page(browser):
    """A desktop browser window of its own."""
    context = browser.new_context(viewport={"width": 1100, "height": 900})
    yield context.new_page()
    context.close()


@pytest.fixture
def phone(browser):
    """A phone's screen of its own: 390 px wide, touch."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    yield context.new_page()
    context.close()
