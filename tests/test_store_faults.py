"""The store fails: a full disk mid-run, a store in a folder that cannot be written.

A full disk once logged a traceback every tick (872 in one test); a read-only store gave a raw
traceback from every command, `status` included. Now: one clear line, and the daemon goes on
once the store can be written again, having lost nothing.
"""
from __future__ import annotations

import contextlib
import logging
import os
import re
import sqlite3
import subprocess
import sys

import pytest

from forumgm.daemon.offline.localforum import LocalForum
from forumgm.daemon.runtime.loop import StopFlag, run_loop
from legends_forum_support import GAME, PASSWORD_ENV, Player, legends_board, msk, start_daemon, write_installation
from localforum_support import FakeClock


@pytest.fixture
def game(tmp_path, monkeypatch):
    clock = FakeClock(msk(2, 20))
    monkeypatch.setenv(PASSWORD_ENV, "host-secret")
    with LocalForum(legends_board(clock)) as server:
        config = write_installation(tmp_path, server)
        daemon = start_daemon(config, server, clock)
        yield server, clock, config, daemon
        daemon.store.close()


def test_a_full_store_is_one_log_line_and_the_daemon_goes_on_when_it_has_room(game, caplog):
    server, clock, config, daemon = game
    caplog.set_level(logging.DEBUG, logger="forumgm")
    run_loop(daemon, StopFlag(), max_ticks=1, sleep=clock.sleep)
    pages = daemon.store.db.execute("PRAGMA page_count").fetchone()[0]
    daemon.store.db.execute(f"PRAGMA max_page_count = {pages}")      # SQLITE_FULL, as on a full disk
    clock.moment = msk(2, 21, 30)       # the night is open (a PM before it is no order)
    Player(server, clock, "Аскон").pm("Ночь 1", "Шпионаж Кума")
    Player(server, clock, "Кума").post("Голосую за [color=blue]Аскон[/color] " + "слово " * 3000)
    caplog.clear()
    run_loop(daemon, StopFlag(), max_ticks=3, sleep=clock.sleep)
    failures = [r for r in caplog.records if "cannot be written" in r.getMessage()]
    assert len(failures) == 3 and [r.levelname for r in failures] == ["ERROR", "DEBUG", "DEBUG"]
    assert "database or disk is full" in failures[0].getMessage()
    assert [r.getMessage() for r in caplog.records if r.exc_info] == []   # no traceback at all
    daemon.store.db.execute("PRAGMA max_page_count = 1073741823")
    clock.moment = msk(3, 10, 5)
    run_loop(daemon, StopFlag(), max_ticks=1, sleep=clock.sleep)
    assert [o["sender"] for o in daemon.store.orders(GAME, "night-1")] == ["Аскон"]
    assert daemon.store.phase(GAME, "night-1")["status"] == "resolved"


@pytest.mark.parametrize("command", [["status"], ["drafts", "list"], ["run", "--once"], ["web"]])
def test_a_store_that_cannot_be_written_is_one_clear_line_from_every_command(tmp_path, game, command):
    _, _, config, _ = game
    text = config.read_text(encoding="utf-8").replace('path = "forumgm.sqlite"', 'path = "/proc/forumgm/x.sqlite"')
    text += '\n[web]\npassword_env = "FORUMGM_TEST_WEB_PASSWORD"\n'
    config.write_text(text, encoding="utf-8")
    env = {"FORUMGM_TEST_WEB_PASSWORD": "a long enough web password", PASSWORD_ENV: "host-secret",
           "PATH": "/usr/bin:/bin"}
    done = subprocess.run([sys.executable, "-m", "forumgm.daemon.cli", command[0], "--config", str(config),
                           *command[1:]], capture_output=True, text=True, timeout=60, env=env)
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    assert "the store /proc/forumgm/x.sqlite cannot be used" in done.stderr or \
           "cannot make the daemon's lock file /proc/forumgm/x.sqlite.daemon.lock" in done.stderr, done.stderr


class FullDisk:
    """The disk fills up under the store: every statement that writes fails as SQLite fails on
    ENOSPC (a full disk fails a write of any size, also one that would not grow the file: the
    write-ahead log grows, which `PRAGMA max_page_count` does not limit)."""

    WRITES = re.compile(r"\s*(?:INSERT|UPDATE|DELETE|REPLACE|CREATE|DROP|ALTER)\b", re.IGNORECASE)

    def __init__(self, monkeypatch, store):
        self.full = False
        real = store.db.execute

        def execute(sql, parameters=()):
            if self.full and self.WRITES.match(sql):
                raise sqlite3.OperationalError("database or disk is full")
            return real(sql, parameters)
        monkeypatch.setattr(store.db, "execute", execute)


def test_a_disk_full_when_the_tick_plan_is_kept_stops_nothing_and_the_daemon_goes_on(game, caplog, monkeypatch):
    server, clock, config, daemon = game
    caplog.set_level(logging.DEBUG, logger="forumgm")
    run_loop(daemon, StopFlag(), max_ticks=1, sleep=clock.sleep)
    disk = FullDisk(monkeypatch, daemon.store)
    disk.full = True
    clock.moment = msk(2, 21, 30)
    Player(server, clock, "Аскон").pm("Ночь 1", "Шпионаж Кума")
    caplog.clear()
    assert run_loop(daemon, StopFlag(), max_ticks=3, sleep=clock.sleep) == 0     # (it raised out of the loop)
    failures = [r for r in caplog.records if "cannot be written" in r.getMessage()]
    assert [r.levelname for r in failures][:1] == ["ERROR"] and len([r for r in failures if r.levelname == "ERROR"]) == 1
    assert "database or disk is full" in failures[0].getMessage()
    assert [r.getMessage() for r in caplog.records if r.exc_info] == []
    assert daemon.store.orders(GAME, "night-1") == []
    disk.full = False
    clock.moment = msk(3, 10, 5)
    run_loop(daemon, StopFlag(), max_ticks=1, sleep=clock.sleep)
    assert [o["sender"] for o in daemon.store.orders(GAME, "night-1")] == ["Аскон"]
    assert daemon.store.phase(GAME, "night-1")["status"] == "resolved"
    assert daemon.store.tick_plan()["last_tick_at"] == msk(3, 10, 5)


def cli(config, *argv: str) -> subprocess.CompletedProcess:
    env = {PASSWORD_ENV: "host-secret", "PATH": "/usr/bin:/bin", "PYTHONPATH": os.environ.get("PYTHONPATH", "")}
    return subprocess.run([sys.executable, "-m", "forumgm.daemon.cli", *argv], capture_output=True, text=True,
                          timeout=120, env=env)


@contextlib.contextmanager
def read_only(path):
    """The file as a read-only disk has it: root writes past a file's mode, not past the immutable flag."""
    if os.geteuid() == 0:
        subprocess.run(["chattr", "+i", str(path)], check=True)
        try:
            yield
        finally:
            subprocess.run(["chattr", "-i", str(path)], check=True)
    else:
        os.chmod(path, 0o444)
        try:
            yield
        finally:
            os.chmod(path, 0o644)


def test_status_and_check_config_say_the_store_is_read_only(game):
    """SQLite opens a file it cannot write read-only without a word: `status` printed the games as if
    all were well while no daemon could record anything."""
    _, _, config, daemon = game
    daemon.tick()
    daemon.store.close()
    storage = config.parent / "forumgm.sqlite"
    with read_only(storage):
        status = cli(config, "status", "--config", str(config))
        checked = cli(config, "check-config", str(config))
    for done in (status, checked):
        assert "Traceback" not in done.stderr
        assert (f"the store {storage} cannot be used: the file cannot be written (a read-only file, folder or "
                "disk): forumgm must be able to write there") in done.stderr, done.stderr
    assert (status.returncode, checked.returncode) == (2, 1)


def test_status_and_check_config_notice_a_damaged_store(game):
    """A damaged page is met only by the query that reads it: `status` and `check-config` said all
    was well on a store whose other pages were garbage."""
    server, clock, config, daemon = game
    clock.moment = msk(2, 21, 30)
    for n in range(40):
        Player(server, clock, "Кума").post(f"Пост {n} " + "слово " * 200)
    daemon.tick()
    daemon.store.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    daemon.store.close()
    storage = config.parent / "forumgm.sqlite"
    size = storage.stat().st_size
    with open(storage, "r+b") as handle:          # pages in the middle overwritten: a bad disk, a torn copy
        handle.seek(size // 2 // 4096 * 4096)
        handle.write(bytes(range(256)) * 64)
    status = cli(config, "status", "--config", str(config))
    checked = cli(config, "check-config", str(config))
    for done in (status, checked):
        assert "Traceback" not in done.stderr
        assert f"the store {storage} cannot be used: " in done.stderr, done.stderr
        assert "the file is damaged: stop the daemon and put back a copy from before the damage" in done.stderr
    assert (status.returncode, checked.returncode) == (2, 1)
