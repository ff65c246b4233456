"""The store deleted, emptied or replaced where a game was played: the running daemon stops at its
next tick with one line, and no command makes a new store there (every host command used to make
one silently, «the game has not started», and a restarted daemon dealt the game again)."""
from __future__ import annotations

import logging
import os
import sqlite3
import subprocess
import sys

import pytest

from forumgm.daemon.cli import main
from forumgm.daemon.offline.localforum import LocalForum
from forumgm.daemon.runtime.loop import StopFlag, run_loop
from forumgm.daemon.store import Store
from forumgm.daemon.store.lost import StoreGone, marker_path, played_games
from legends_forum_support import GAME, PASSWORD_ENV, legends_board, msk, start_daemon, write_installation
from localforum_support import FakeClock


@pytest.fixture
def played(tmp_path, monkeypatch):
    """A game dealt by the daemon: the store and the installation file it was played from."""
    clock = FakeClock(msk(2, 20))
    monkeypatch.setenv(PASSWORD_ENV, "host-secret")
    with LocalForum(legends_board(clock)) as server:
        config = write_installation(tmp_path, server)
        daemon = start_daemon(config, server, clock)
        run_loop(daemon, StopFlag(), max_ticks=1, sleep=clock.sleep)
        assert daemon.store.phases(GAME) and played_games(daemon.store.path) == [GAME]
        yield server, clock, config, daemon
        daemon.store.close()


@pytest.mark.parametrize("loss", ["deleted", "emptied", "replaced"])
def test_the_running_daemon_stops_when_its_store_is_lost(played, loss, caplog):
    server, clock, config, daemon = played
    path = daemon.store.path
    lose(path, loss)
    clock.moment = msk(2, 21, 30)
    caplog.set_level(logging.INFO, logger="forumgm")
    assert run_loop(daemon, StopFlag(), max_ticks=3, sleep=clock.sleep) == 2
    [line] = [r.getMessage() for r in caplog.records if r.levelname == "ERROR"]
    assert f"the store {path} was {'replaced by another file' if loss == 'replaced' else loss}" in line
    assert "stopping" in line
    assert [r.getMessage() for r in caplog.records if r.exc_info] == []


@pytest.mark.parametrize("loss", ["deleted", "emptied", "replaced"])
def test_no_command_makes_a_new_store_where_a_game_was_played(played, loss, capsys):
    """(The commands run in this process, as `forumgm` would run them: the file's one
    real-process run, test_a_lost_store_is_one_line_from_a_real_process, shows the same line.)"""
    server, clock, config, daemon = played
    daemon.store.close()
    path = daemon.store.path
    lose(path, loss)
    kept = path.read_bytes() if path.exists() else None
    for command, code in ((["status", "--config"], 2), (["drafts", "list", "--config"], 2), (["run", "--once", "--config"], 2),
                          (["check-config"], 1)):              # (check-config lists it among the problems)
        capsys.readouterr()
        returned = main([*command, str(config)])
        out, err = capsys.readouterr()
        assert returned == code, out + err
        line = err.splitlines()[0]
        assert code == 1 or err.splitlines() == [line]        # one line, no traceback
        assert f"the store {path}" in line and f"the games {GAME} were played on it" in line
        assert str(marker_path(path)) in line
        assert (path.read_bytes() if path.exists() else None) == kept       # nothing made or changed
    with pytest.raises(StoreGone):
        Store(path)


def test_a_lost_store_is_one_line_from_a_real_process(played):
    server, clock, config, daemon = played
    daemon.store.close()
    path = daemon.store.path
    lose(path, "deleted")
    done = subprocess.run([sys.executable, "-m", "forumgm.daemon.cli", "run", "--once", "--config", str(config)],
                          capture_output=True, text=True, timeout=60, env={**os.environ, PASSWORD_ENV: "host-secret"})
    assert done.returncode == 2, done.stdout + done.stderr
    [line] = done.stderr.splitlines()
    assert f"the store {path}" in line and f"the games {GAME} were played on it" in line
    assert not path.exists()


def test_a_store_put_back_opens_and_deleting_the_marker_starts_afresh(played):
    server, clock, config, daemon = played
    daemon.store.close()
    path = daemon.store.path
    backup = path.with_name("backup.sqlite")
    with sqlite3.connect(path) as source, sqlite3.connect(backup) as copy:
        source.backup(copy)
    lose(path, "deleted")
    os.replace(backup, path)                             # the host restores his backup
    assert Store(path).phases(GAME)
    lose(path, "deleted")
    marker_path(path).unlink()                           # and really starts afresh
    assert Store(path).phases(GAME) == []


def lose(path, loss: str) -> None:
    for companion in (path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")):
        if loss != "emptied" and companion.exists():
            companion.unlink()
    if loss == "emptied":
        path.write_bytes(b"")
    elif loss == "replaced":
        with sqlite3.connect(path) as other:             # another file under the store's name
            other.execute("CREATE TABLE notes (text TEXT)")
