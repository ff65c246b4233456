"""Every bench script runs, on a tiny size, and prints its figures: a bench that no longer runs
is found here, not when someone next needs its numbers. Nothing here is timed (what a bench
measures is read by hand, docs/benchmarks.md). The scripts run at once, each in a process of its
own (most of their time is waiting: log-in forms, a child process's board), and each test waits
for its own. The real-board benches start with every board's port closed: they must say so and
touch nothing.
"""
from __future__ import annotations

import socket
import subprocess
import sys
from pathlib import Path

import pytest

from forumgm.parsers.forums import ENGINES

BENCH = Path(__file__).resolve().parent.parent / "bench"


def closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


# bellum_map.py takes no size: its rounds are set before its main runs
BELLUM_MAP_ONCE = ("import runpy; found = runpy.run_path('bellum_map.py'); "
                   "found['main'].__globals__['ROUNDS'] = 1; found['main']()")
# parse_pages.py's saved pages and its pages grown to 6 posts, one round of one reading each
PARSE_PAGES_ONCE = ("import runpy; found = runpy.run_path('parse_pages.py'); "
                    "found['main'].__globals__['REPEAT'] = 1; found['main'](1); found['main'](1, 6)")
NO_BOARDS = ("import flood_burst, crash_send\n"
             f"closed = {closed_port()}\n"
             "for bench in (flood_burst, crash_send):\n"
             "    bench.PORTS = {engine: closed for engine in bench.PORTS}\n"
             "flood_burst.main([])\n"
             "crash_send.main([], crash_send.ADMIN)\n")

# what runs, and what its output must show
RUNS = {
    "parse_pages": (["-c", PARSE_PAGES_ONCE], ["vs lxml", "vs peer", "scrub", "(range of 1 rounds)\n",
                                               "pages grown to 6 posts", *sorted(ENGINES)]),
    "resolve": (["resolve.py", "1"], ["legends/game30.toml", "mafia/full_game.toml", "phases/s", "posts/s",
                                      "names/s"]),
    "bellum_turn": (["bellum_turn.py", "1"], ["first use", "turn phases", "Rules.resolve", "receipts"]),
    "bellum_map": (["-c", BELLUM_MAP_ONCE], ["370 map", "png", "svg"]),
    "long_thread": (["long_thread.py", "2"], ["first sync of 2 pages (40 posts)", "RSS", "SQLite file",
                                              "every post stored once"]),
    "idle_poll": (["idle_poll.py"], ["the local forum", "inbox at every poll", "inbox by the page count",
                                     "a PM arrives", "a PM opened in the host's browser first"]),
    "probe": (["probe.py", "6", "3", "3"], ["| 502 | 1 | 1 | 0 | 0 |", "| cut body | 1 | 1 | 0 | 0 |",
                                           "| mafia | 3 |", "| legends | 3 |", "| BBCode post | 3 | 0 | 0 |",
                                           "| raw post HTML | 3 | 0 | 0 |",
                                           "lost, doubled, unanswered or unread: 0"]),
    # a real `forumgm run` daemon stopped twice (seed 3: as its post and a PM reach the board) hosting the
    # Arena example, the smallest (its deal is one post), a day in 5 s, to its first step's resolution;
    # then the checks of the board and store
    "probe kills": (["probe.py", "kills", "2", "3", "5", "1", "arena"],
                    ["daemon stopped 2 times", "arena each", "| round | games over |",
                     "lost, doubled, resolved twice or unanswered: 0"]),
    # the late rush up to the first Legends deadline (7 game hours in), every order in its last 3 s
    # (what the plain mode prints is checked on test_timing_soak's week, which plays it)
    "soak, late rush": (["soak.py", "0.3", "rush", "3"], ["legends-soak", "mafia-soak", "player actions",
                                                        "deadline-to-drafts latency",
                                                        "in the last 3 s before its deadline",
                                                        "legends-soak/night-1"]),
    "flood_burst and crash_send, no boards": (["-c", NO_BOARDS], ["mybb: no board", "phpbb: no board",
                                                                  "smf: no board", "fluxbb: no board"]),
}


pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("bench")]     # the scripts are started once, on one worker


@pytest.fixture(scope="session")     # not module: see tests/test_timing_soak.py's soak
def started():
    running = {name: subprocess.Popen([sys.executable, *command], cwd=BENCH, text=True,
                                      stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
               for name, (command, _) in RUNS.items()}
    yield running
    for process in running.values():
        if process.poll() is None:
            process.kill()
            process.wait()


def test_every_bench_script_is_run():
    scripts = {path.name for path in BENCH.glob("*.py")} - {"measure.py", "kills.py"}    # (their helpers)
    named = {part for command, _ in RUNS.values() for part in command if part.endswith(".py")}
    assert scripts == named | {"flood_burst.py", "crash_send.py", "bellum_map.py", "parse_pages.py"}


@pytest.mark.parametrize("name", RUNS)
def test_the_bench_runs_and_prints_its_figures(started, name):
    out, _ = started[name].communicate(timeout=600)
    assert started[name].returncode == 0, out
    for shown in RUNS[name][1]:
        assert shown in out, out
    if name.startswith("flood_burst"):
        assert out.count("not run") == 7, out           # three boards for the burst, four for the crash
