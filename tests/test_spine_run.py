"""`forumgm run` as a real process: clean exit on SIGTERM, nothing duplicated after SIGKILL."""
from __future__ import annotations

import logging
import os
import signal
import sqlite3
import subprocess
import sys
from collections import Counter
from datetime import datetime, timezone
from types import SimpleNamespace

import pytest

from forumgm.config import data_path
from forumgm.daemon.runtime.loop import StopFlag, run_loop
from forumgm.daemon.store import Store

pytestmark = pytest.mark.slow        # the daemon as a process of its own

GAME = "mafia-example"
MOMENT = datetime(2026, 3, 3, 20, 0, tzinfo=timezone.utc)


@pytest.fixture
def config(tmp_path):
    games = tmp_path / "games"
    games.mkdir()
    game = data_path("games", "mafia.example.toml").read_text(encoding="utf-8")
    (games / "mafia.example.toml").write_text(game.replace("https://forum.example.org/", "http://127.0.0.1:9/"),
                                              encoding="utf-8")
    text = data_path("forumgm.example.toml").read_text(encoding="utf-8")
    text = text.replace('"games/mafia.example.toml", "games/legends.example.toml"', '"games/mafia.example.toml"')
    # a forum that refuses connections at once: every sync fails, so no phase may resolve (and the
    # polite second between two requests, kept for a board, would only make each tick wait it out)
    text = text.replace('base_url = "https://forum.example.org"',
                        'base_url = "http://127.0.0.1:9"\nretries = 0\nmin_interval = 0.1')
    text = text.replace("poll_interval = 600", "poll_interval = 1")
    path = tmp_path / "forumgm.toml"
    path.write_text(text, encoding="utf-8")
    return path


def start(config) -> subprocess.Popen:
    env = {**os.environ, "FORUMGM_PASSWORD": "secret-password-value"}
    return subprocess.Popen([sys.executable, "-m", "forumgm.daemon.cli", "run", "--config", str(config),
                             "--start-at", "2026-03-03T23:00:00+03:00", "--log-level", "DEBUG"],
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def wait_for_log(process: subprocess.Popen, needle: str, lines: list[str]) -> None:
    for line in process.stderr:
        lines.append(line)
        if needle in line:
            return
    raise AssertionError(f"the daemon ended before logging {needle!r}:\n{''.join(lines)}")


def test_sigterm_finishes_the_tick_and_exits_zero(config):
    process = start(config)
    lines: list[str] = []
    wait_for_log(process, "forumgm running", lines)
    wait_for_log(process, "did not answer", lines)      # a tick has run (and failed to sync)
    process.send_signal(signal.SIGTERM)
    rest = process.communicate(timeout=60)[1]
    log = "".join(lines) + rest
    assert process.returncode == 0, log
    assert "stopping after the current tick" in log and "stopped after" in log
    assert "secret-password-value" not in log
    # poll_interval 1 with poll_near left at its 30: near a deadline it polls every second too
    assert "forumgm running: 1 game(s), poll every 1s, near a deadline too, resolving 60s after a deadline" in log
    status = subprocess.run([sys.executable, "-m", "forumgm.daemon.cli", "status", "--config", str(config)],
                            capture_output=True, text=True, timeout=60)
    assert status.returncode == 0 and "then it stopped; no daemon reads the forum now" in status.stdout
    assert "next tick" not in status.stdout


def test_sigkill_and_restart_duplicate_nothing(config, tmp_path):
    # killed at start-up, during the first tick (between syncing and dealing), and after two ticks;
    # every tick logs the failed inbox sync, so each wait ends
    kill_points = (["forumgm running"], ["did not answer"], ["did not answer", "did not answer"])
    for needles in kill_points:
        process = start(config)
        lines: list[str] = []
        for needle in needles:
            wait_for_log(process, needle, lines)
        process.kill()                                   # SIGKILL: no clean-up of any kind
        process.communicate(timeout=60)
    store = Store(tmp_path / "forumgm.sqlite")
    snapshots = store.db.execute("SELECT phase_key, COUNT(*) FROM snapshots WHERE game_id = ? GROUP BY phase_key",
                                 [GAME]).fetchall()
    assert snapshots == [("setup", 1)]
    roles = Counter(d["target"] for d in store.drafts(game_id=GAME) if d["kind"] == "role")
    assert len(roles) == 8 and set(roles.values()) == {1}
    assert [(p["key"], p["status"]) for p in store.phases(GAME)] == [("round-1", "pending")]


def test_run_refuses_a_game_its_engine_cannot_deal_naming_file_and_key(config, capsys, monkeypatch):
    from forumgm.daemon.cli import main

    game = config.parent / "games" / "mafia.example.toml"
    game.write_text(game.read_text(encoding="utf-8").replace('role = "Доктор"', 'role = "Доктр"'), encoding="utf-8")
    monkeypatch.setenv("FORUMGM_PASSWORD", "secret-password-value")
    assert main(["run", "--config", str(config), "--once"]) == 2
    err = capsys.readouterr().err
    assert f"{game}: players #2 (Хан).role: unknown role 'Доктр'" in err
    assert not (config.parent / "forumgm.sqlite").exists()


def test_sigterm_with_the_forum_down_ends_the_retries(config):
    """Four retries with a doubling backoff take 30 s per request; a SIGTERM must not wait them out."""
    config.write_text(config.read_text(encoding="utf-8").replace("retries = 0", "retries = 4"), encoding="utf-8")
    process = start(config)
    lines: list[str] = []
    wait_for_log(process, "retrying in 2 s", lines)
    process.send_signal(signal.SIGTERM)
    rest = process.communicate(timeout=20)[1]
    log = "".join(lines) + rest
    assert process.returncode == 0, log
    assert "not retried, forumgm is stopping" in log
    assert "retrying in 4 s" not in log


def test_a_second_daemon_on_the_same_store_is_refused_while_the_cli_keeps_writing(config, tmp_path):
    """Two daemons on one store published most drafts twice; the second must exit at once."""
    first = start(config)
    lines: list[str] = []
    try:
        wait_for_log(first, "forumgm running", lines)
        second = start(config)
        out, err = second.communicate(timeout=60)
        assert second.returncode == 2, err
        assert f"another forumgm run already uses the store {tmp_path / 'forumgm.sqlite'} (process {first.pid})" in err
        assert "forumgm running" not in err
        pending = Store(tmp_path / "forumgm.sqlite").drafts(status="pending")
        draft = pending[0]["id"]                # a host's CLI command writes beside the daemon
        approve = subprocess.run([sys.executable, "-m", "forumgm.daemon.cli", "drafts", "--config", str(config),
                                  "approve", str(draft)], capture_output=True, text=True, timeout=60)
        assert approve.returncode == 0, approve.stderr
        store = Store(tmp_path / "forumgm.sqlite")
        # the running daemon may already be publishing it: the approval itself is what the CLI wrote
        assert store.draft(draft)["status"] in ("approved", "sending", "sent")
        assert {"draft": draft} in [row["detail"] for row in store.audit_log() if row["action"] == "draft.approved"]
    finally:
        first.send_signal(signal.SIGTERM)
        first.communicate(timeout=60)
    assert first.returncode == 0
    again = start(config)                       # the lock ends with its daemon
    wait_for_log(again, "forumgm running", [])
    again.send_signal(signal.SIGTERM)
    again.communicate(timeout=60)
    assert again.returncode == 0


@pytest.mark.parametrize("link", ["symlink", "hard link"])
def test_a_second_daemon_on_the_same_store_under_another_name_is_refused(config, tmp_path, link):
    """The lock was `<configured path>.daemon.lock`: through a symlink or a hard link (another name,
    another folder) a second daemon took a lock of its own and both published every draft."""
    other = tmp_path / "elsewhere"
    other.mkdir()
    named = other / "same-store.sqlite"
    text = config.read_text(encoding="utf-8")
    assert 'path = "forumgm.sqlite"' in text
    second_config = tmp_path / "second.toml"
    second_config.write_text(text.replace('path = "forumgm.sqlite"', f'path = "{named}"'), encoding="utf-8")
    first = start(config)
    try:
        wait_for_log(first, "forumgm running", [])
        if link == "symlink":
            named.symlink_to(tmp_path / "forumgm.sqlite")
        else:
            os.link(tmp_path / "forumgm.sqlite", named)
        second = start(second_config)
        out, err = second.communicate(timeout=60)
        assert second.returncode == 2, err
        assert f"another forumgm run already uses the store {named} (process {first.pid})" in err
        assert "forumgm running" not in err
    finally:
        first.send_signal(signal.SIGTERM)
        first.communicate(timeout=60)
    assert first.returncode == 0
    again = start(second_config)                # by the other name too, once the first has ended
    wait_for_log(again, "forumgm running", [])
    again.send_signal(signal.SIGTERM)
    again.communicate(timeout=60)
    assert again.returncode == 0


def test_sigterm_while_the_daemon_starts_exits_zero(config, tmp_path):
    """A SIGTERM before the loop began killed the daemon by the signal (exit -15): a service
    manager counts that as a failure. Held in its start-up by the store (the host's command writing),
    the daemon is stopped there and exits 0 without a tick."""
    store = Store(tmp_path / "forumgm.sqlite")
    store.db.execute("BEGIN IMMEDIATE")                  # the daemon's migration waits for this write
    process = start(config)
    try:
        _wait_until_it_opened(process.pid, tmp_path / "forumgm.sqlite")
        process.send_signal(signal.SIGTERM)
    finally:
        store.db.execute("COMMIT")
        store.close()
    out, err = process.communicate(timeout=60)
    assert process.returncode == 0, err
    assert "stopped after 0 tick(s)" in err and "did not answer" not in err


def _wait_until_it_opened(pid: int, path) -> None:
    """Until the process has the file open (it is past its imports, inside its start-up)."""
    import time

    target = os.path.realpath(path)
    for _ in range(600):
        try:
            if any(os.path.realpath(entry.path) == target for entry in os.scandir(f"/proc/{pid}/fd")):
                return
        except OSError:
            pass
        time.sleep(0.05)
    raise AssertionError(f"process {pid} never opened {path}")


def test_a_store_that_cannot_be_written_is_logged_once_and_its_recovery_once(caplog):
    outcomes = [sqlite3.OperationalError("database or disk is full")] * 3 + [None, None]

    class Daemon:
        store = SimpleNamespace(path="forumgm.sqlite", vanished=lambda: None)
        clock = SimpleNamespace(now=lambda: MOMENT)

        def tick(self):
            failure = outcomes.pop(0)
            if failure is not None:
                raise failure

        def plan(self, last):
            return SimpleNamespace(at=MOMENT)      # always due: the loop ticks again at once

        def stopped(self, last):
            outcomes.append("stopped")

    caplog.set_level(logging.DEBUG, logger="forumgm.daemon.runtime.loop")
    run_loop(Daemon(), StopFlag(), max_ticks=5)
    said = [(r.levelname, r.getMessage().split(" (")[0].split(":")[0]) for r in caplog.records
            if "store" in r.getMessage()]
    assert said == [("ERROR", "the store forumgm.sqlite cannot be written"),
                    ("DEBUG", "the store still cannot be written"), ("DEBUG", "the store still cannot be written"),
                    ("INFO", "the store is written again")]
    assert not any(r.exc_info for r in caplog.records)
    assert outcomes == ["stopped"]


def test_a_tick_does_not_load_the_map_s_libraries(config):
    # the daemon runs for months and every command starts anew: what only the Bellum map draws
    # with (numpy, scipy, matplotlib: ~40 MB in memory, ~100 ms of a start) must not be loaded by
    # `forumgm run` and its ticks
    script = ("import sys\nfrom forumgm.daemon.cli import main\n"
              f"code = main(['run', '--config', {str(config)!r}, '--once', '--start-at', '2026-03-03T23:00:00+03:00'])\n"
              "print(code, sorted(m for m in sys.modules if m.split('.')[0] in ('numpy', 'scipy', 'matplotlib')))")
    env = {**os.environ, "FORUMGM_PASSWORD": "secret-password-value"}
    done = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=120)
    assert done.stdout.split("\n")[-2:] == ["0 []", ""], done.stdout + done.stderr
    assert "did not answer" in done.stderr             # a tick ran (and failed to sync)
