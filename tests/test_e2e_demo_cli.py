"""`forumgm demo`: what it tells the host to type next is a command the real CLI accepts; it serves the
host's page while it runs."""
from __future__ import annotations

import contextlib
import io
import logging
import re
import shlex
import threading
import time
from types import SimpleNamespace

import requests

from forumgm.daemon.cli import build_parser, main
from forumgm.daemon.config import load_installation
from forumgm.daemon.demo import PASSWORD_ENV, DemoClock, _summary, demo_board, run_demo
from forumgm.daemon.secrets import read_password
from forumgm.daemon.store import Store

PAGE = re.compile(r"host's page: (?P<url>http://127\.0\.0\.1:\d+/)  password: (?P<password>\S+)")
TOKEN = re.compile(r'name="csrf_token" value="([^"]+)"')


def test_the_commands_the_demo_prints_parse_with_the_real_cli(tmp_path):
    clock = DemoClock(speed=1)
    store = Store(tmp_path / "forumgm.sqlite", now=clock.now)
    out = io.StringIO()
    _summary(store, SimpleNamespace(board=demo_board(clock, "pw")), tmp_path / "forumgm.toml", False, out,
             tmp_path / "web-password")
    commands = [line.split(":", 1)[1].split("(")[0].strip() for line in out.getvalue().splitlines()
                if ": " in line and "forumgm " in line]
    assert len(commands) == 5
    assert "forumgm demo --auto-approve" in commands
    assert f"forumgm web --config {tmp_path / 'forumgm.toml'}" in commands      # the page stays available        # approving after the demo would post nothing
    assert not any(" approve " in command for command in commands)
    parser = build_parser()
    for command in commands:
        argv = shlex.split(command.replace("ID", "7"))
        assert argv[0] == "forumgm"
        args = parser.parse_args(argv[1:])          # exits (fails the test) on a command the CLI refuses
        assert args.handler is not None


def watch_status(config, out: io.StringIO, seen: dict) -> None:
    """`forumgm status` on the demo's config, over and over from when it is written until the demo ends."""
    seen["status"] = []
    for _ in range(600):
        if PAGE.search(out.getvalue()):             # printed once the demo's store is open
            said = io.StringIO()
            with contextlib.redirect_stdout(said):
                assert main(["status", "--config", str(config)]) == 0
            seen["status"].append(said.getvalue().splitlines()[0])
            if "then it stopped" in seen["status"][-1]:
                return
        time.sleep(0.05)


def test_the_demo_serves_the_hosts_page_while_it_runs_and_says_what_stays(tmp_path, monkeypatch, caplog):
    """A short demo (a fast clock): its page answers with the printed password while the game runs,
    without writing an access-log line per request among the demo's own lines; afterwards its config
    serves the page again (`forumgm web`), the last lines say so."""
    caplog.set_level(logging.INFO, logger="werkzeug")
    monkeypatch.setenv(PASSWORD_ENV, "set by the demo")      # restored after the test
    out = io.StringIO()
    seen: dict = {}

    def visit_page() -> None:
        for _ in range(400):
            found = PAGE.search(out.getvalue())
            if found:
                session = requests.Session()
                login = session.get(f"{found['url']}login", timeout=5).text
                token = TOKEN.search(login).group(1)
                answer = session.post(f"{found['url']}login", data={"password": found["password"], "csrf_token": token},
                                      allow_redirects=False, timeout=5)
                seen["login"] = answer.status_code
                return
            time.sleep(0.05)

    visitor = threading.Thread(target=visit_page)
    visitor.start()
    watcher = threading.Thread(target=watch_status, args=(tmp_path / "forumgm.toml", out, seen))
    watcher.start()
    assert run_demo(3, 40000, True, tmp_path, 0, out, poll=0.1) == 0        # 3 s: the page is what matters
    visitor.join()
    watcher.join()
    assert seen["login"] == 302
    # while it ran, `status` on its config told the demo's last tick and when it reads the forum next
    running = re.compile(r"daemon: last tick 2026-03-\d\d \d\d:\d\d:\d\d, next tick 2026-03-\d\d \d\d:\d\d:\d\d "
                         r"\(UTC, game time ×40000, the demo reads the forum every 0\.1 s, "
                         r"due \d\d:\d\d:\d\d real time\)$")
    assert any(running.match(line) for line in seen["status"]), seen["status"]
    assert not any("overdue" in line for line in seen["status"])
    assert [r.getMessage() for r in caplog.records if r.name == "werkzeug"] == []
    last = out.getvalue().strip().splitlines()[-3:]
    assert last[0] == f"What stays after the demo: its config, database and drafts in {tmp_path}, and"
    assert f"forumgm web --config {tmp_path / 'forumgm.toml'}" in last[1]
    assert "The local forum is gone" in last[2]
    status = io.StringIO()
    with contextlib.redirect_stdout(status):
        assert main(["status", "--config", str(tmp_path / "forumgm.toml")]) == 0
    assert re.match(r"daemon: last tick 2026-03-\d\d \d\d:\d\d:\d\d \(UTC, game time ×40000\), then it stopped "
                    r"\(the demo is over\); "
                    r"no daemon reads the forum now$", status.getvalue().splitlines()[0])
    installation = load_installation(tmp_path / "forumgm.toml")
    assert read_password(installation.web_password_env, installation.web_password_file) == \
        PAGE.search(out.getvalue())["password"]
