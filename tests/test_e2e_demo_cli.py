"""`forumgm demo`: what it tells the host to type next is a command the real CLI accepts; it serves the
host's page while it runs."""
from __future__ import annotations

import contextlib
import io
import logging
import re
import shlex
from datetime import timedelta
from types import SimpleNamespace

import requests

from forumgm.daemon.cli import build_parser, main
from forumgm.daemon.settings.installation import load_installation
from forumgm.daemon.settings.records import DEADLINE_GRACE
from forumgm.daemon.tick.clock import FastClock
from forumgm.daemon.offline.hosting import RealTime
from forumgm.daemon.offline.demo import (
    CLOCK_STARTS, GAME_ID, PASSWORD_ENV, _summary, demo_board, demo_clock, run_demo, speed_problem,
)
from forumgm.daemon.settings.secrets import read_password
from forumgm.daemon.store import Store
from localforum_support import FakeClock

PAGE = re.compile(r"host's page: (?P<url>http://127\.0\.0\.1:\d+/)  password: (?P<password>\S+)")
TOKEN = re.compile(r'name="csrf_token" value="([^"]+)"')


def test_the_commands_the_demo_prints_parse_with_the_real_cli(tmp_path):
    clock = demo_clock(speed=1)
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


class WatchedOutput(io.StringIO):
    """The demo's lines as the host reads them while it runs: once the page's line is out he logs in
    there with the printed password, and at every line of the game he asks `forumgm status` on its
    config. Both happen as the line is printed, while the demo's page and store are open."""

    def __init__(self, config):
        super().__init__()
        self.config = config
        self.login: int | None = None
        self.status: list[str] = []

    def write(self, text: str) -> int:
        written = super().write(text)
        found = PAGE.search(self.getvalue())
        if found and self.login is None:
            session = requests.Session()
            token = TOKEN.search(session.get(f"{found['url']}login", timeout=5).text).group(1)
            self.login = session.post(f"{found['url']}login", data={"password": found["password"], "csrf_token": token},
                                      allow_redirects=False, timeout=5).status_code
        if text.startswith("["):
            said = io.StringIO()
            with contextlib.redirect_stdout(said):
                assert main(["status", "--config", str(self.config)]) == 0
            self.status.append(said.getvalue().splitlines()[0])
        return written


# every act at its game time (Moscow), each phase resolved after its deadline and the daemon's grace
PLAYED = """\
[02.03 22:00] Зорро: pm Шпионаж Хан
[02.03 23:00] Хан: pm Защита 3
[03.03 00:00] Тор: pm Атака 5 Лиса
[03.03 10:01] resolved legends-demo/night-1
[03.03 13:00] Зорро: post Доброе утро! Первый Линч — только на второй день, присматрив
[03.03 21:01] resolved legends-demo/day-1
[03.03 22:00] Зорро: pm Атака магией Тор
[03.03 23:00] Хан: pm Атака 7 Зорро
[04.03 00:00] Тор: pm Защита 4
[04.03 10:01] resolved legends-demo/night-2
[04.03 13:00] Зорро: post Голосую за [color=blue]Лиса[/color]
[04.03 14:00] Лиса: post Почему я? Голосую за [color=blue]Зорро[/color]
[04.03 15:00] Тор: post Голосую за [color=blue]Хан[/color]
[04.03 16:00] Тор: edit-last Передумал. Голосую за [color=blue]Зорро[/color]
[04.03 17:00] Хан: post Согласен: [color=blue]Зорро[/color]
[04.03 21:01] resolved legends-demo/day-2
"""


def test_the_demo_plays_its_game_to_the_end_serves_the_hosts_page_and_says_what_stays(tmp_path, monkeypatch,
                                                                                       caplog):
    """The demo at ×40000 on counted seconds (its pauses and polls move them; the HTTP is real), where
    the forum pauses of one tick span half a game day: every scripted act still
    happens at its own game time and the game ends with day 2's lynch. Its page answers with the
    printed password while the game runs, without writing an access-log line per request among the
    demo's own lines; afterwards its config serves the page again (`forumgm web`), the last lines
    say so."""
    caplog.set_level(logging.INFO, logger="werkzeug")
    monkeypatch.setenv(PASSWORD_ENV, "set by the demo")      # restored after the test
    out = WatchedOutput(tmp_path / "forumgm.toml")
    seconds = FakeClock()       # its waits move these instead of taking real ones
    real = RealTime(monotonic=seconds.monotonic, sleep=seconds.sleep, epoch=seconds.monotonic)
    assert run_demo(120, 40000, False, tmp_path, 0, out, poll=0.1, real=real) == 0    # it stops once the game is over
    assert "".join(line + "\n" for line in out.getvalue().splitlines() if line.startswith("[")) == PLAYED
    assert "game over: yes" in out.getvalue().splitlines()
    store = Store(tmp_path / "forumgm.sqlite")
    finished = store.game(GAME_ID)
    store.close()
    assert (finished["winner"], finished["finished_by"]) == ("Клан Природы", "engine")
    assert out.login == 302
    # while it ran, `status` on its config told the demo's last tick and when it reads the forum next
    running = re.compile(r"daemon: last tick 2026-03-\d\d \d\d:\d\d:\d\d, next tick 2026-03-\d\d \d\d:\d\d:\d\d "
                         r"\(UTC, game time ×40000, the demo reads the forum every 0\.1 s, "
                         r"due \d\d:\d\d:\d\d real time\)$")
    assert any(running.match(line) for line in out.status), out.status
    assert not any("overdue" in line for line in out.status)
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


def test_a_speed_too_slow_for_the_duration_is_refused_before_the_game_starts(tmp_path, monkeypatch):
    monkeypatch.setenv(PASSWORD_ENV, "set by the demo")
    out = io.StringIO()
    assert run_demo(60, 1440, False, tmp_path, 0, out, poll=2.0) == 2
    assert out.getvalue().splitlines()[-1] == (
        "forumgm demo: at --speed 1440 the scripted game (48.5 game hours, and a tick at each of its 16 acts and "
        "deadlines) needs about 169 real seconds, more than --duration 60: use --speed 14555 or more, or a longer "
        "--duration")
    assert not (tmp_path / "forumgm.sqlite").exists()


def test_the_defaults_and_every_speed_fast_enough_up_to_the_highest_are_allowed_others_named():
    grace = timedelta(seconds=DEADLINE_GRACE)
    assert speed_problem(1440, 180, 2.0, grace) is None                  # `forumgm demo` as the README runs it
    assert speed_problem(1e9, 180, 2.0, grace) is None
    for refused in (0, -5, 2e9, float("inf"), float("nan")):
        assert speed_problem(refused, 180, 2.0, grace) == \
            f"--speed must be more than 0 and at most 1e+09 game seconds per real second, not {refused:g}"
    assert speed_problem(1e6, 10, 2.0, grace).endswith("more than --duration 10: use a longer --duration")


def test_the_clock_waits_at_a_hold_and_catches_up_after_it():
    real = [0.0]
    clock = FastClock(CLOCK_STARTS, speed=1e15, monotonic=lambda: real[0])
    clock.hold(CLOCK_STARTS + timedelta(hours=1))
    real[0] = 100.0                                     # far past any date a datetime holds, held anyway
    assert clock.now() == CLOCK_STARTS + timedelta(hours=1)
    slow = FastClock(CLOCK_STARTS, speed=60, monotonic=lambda: real[0])
    slow.hold(CLOCK_STARTS + timedelta(hours=2))
    real[0] += 60
    assert slow.now() == CLOCK_STARTS + timedelta(hours=1)
    slow.hold(None)
    real[0] += 120
    assert slow.now() == CLOCK_STARTS + timedelta(hours=3)
