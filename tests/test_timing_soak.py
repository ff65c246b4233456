"""A short soak (bench/soak.py runs the month): the daemon loop on the local forum for a week of
game time, a Legends and a Mafia game with players posting, voting and sending orders. What an
idle poll costs the forum and the store, and what the process holds, must not grow with the game."""
from __future__ import annotations

import gc
import io
import mimetypes
import os
import re
import statistics
import sys
import threading
from datetime import timedelta
from pathlib import Path
from types import SimpleNamespace

import pytest

from forumgm.daemon.offline.localforum import LocalForum
from forumgm.parsers import names

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))
from soak import (  # noqa: E402
    OUTSIDERS, START, Pace, Soak, VirtualClock, apply, legends_script, mafia_script, report, soak_board,
)

DAYS = 6
# one-day phases and sparse polling: six game days in a few seconds, every kind of tick included
PACE = Pace(legends_night="1d", legends_day="1d", mafia_round="1d", poll_interval=3600, poll_near=600,
            inbox_full_read=4 * 3600, chatter=0.25)


# what the harness itself keeps (the in-process board's posts and PMs, a record of every tick)
HARNESS = frozenset({"BoardPost", "PrivateMessage", "TickRecord"})
LRU_CACHE = type(names.declensions)         # functools' cache wrapper

pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("soak")]      # the week is played once, on one worker


def bounded_caches() -> list:
    """forumgm's caches with a size limit (functools' lru_cache with a maxsize): a roster's name forms,
    a word's readings, compiled patterns. An unbounded one is counted with the rest."""
    return [cache for cache in gc.get_objects()
            if type(cache) is LRU_CACHE and cache.cache_parameters()["maxsize"] is not None
            and cache.__module__.startswith("forumgm.")]


def process_holds(ticks: int) -> dict:
    # caches bounded by design fill up over a game: emptied here, so that what is counted is what
    # nothing would ever let go
    for cache in bounded_caches():
        cache.cache_clear()
    re.purge()
    gc.collect()
    objects = sum(1 for o in gc.get_objects() if type(o).__name__ not in HARNESS) - ticks   # a tick's list of resolved
    return {"fds": len(os.listdir("/proc/self/fd")), "threads": threading.active_count(), "objects": objects}


# session, not module: a worker tears a module's fixture down whenever its next test is another
# file's (xdist sends the group's tests among others), and the week was played again
@pytest.fixture(scope="session")
def soak(tmp_path_factory):
    # a module's tables read once, at the first use: the types of files (the record post's attachment
    # at a game's end is the first file posted), read before the count starts
    mimetypes.init()
    clock = VirtualClock(SimpleNamespace(value=START.timestamp()))
    players = legends_script().players + mafia_script().players + list(OUTSIDERS)
    board = soak_board(clock.now, players)
    with LocalForum(board) as server:
        run = Soak(tmp_path_factory.mktemp("soak"), server.url, clock, lambda action: apply(board, action), DAYS, PACE)
        held = {}
        real_sample = run.sample

        def sample(day):
            held[day] = process_holds(len(run.ticks))
            return real_sample(day)
        run.sample = sample
        run.run()
        run.held = held
        yield run
        run.daemon.store.close()


def day_of(soak, record) -> int:
    return int((record.at - START) / timedelta(days=1)) + 1


def quiet_ticks(soak, day: int) -> list:
    return [t for t in soak.ticks if t.quiet and day_of(soak, t) == day]


def test_the_games_were_played_and_every_phase_resolved_on_time(soak):
    store = soak.daemon.store
    mafia, legends = (next(g for g in soak.daemon.games if g.id == name) for name in ("mafia-soak", "legends-soak"))
    state = mafia.rules.load(store.latest_snapshot(mafia.id)["state"])
    assert mafia.rules.winner(state) is not None                       # the Mafia scenario plays to its end
    assert len(store.phases(legends.id, status="resolved")) >= DAYS - 1
    assert soak.players.done > 200
    grace = timedelta(seconds=soak.installation.deadline_grace)
    for record in soak.ticks:
        for name in record.resolved:
            game_id, key = name.split("/", 1)
            assert record.at == store.phase(game_id, key)["deadline"] + grace, name


def test_a_quiet_poll_costs_one_request_per_thread_on_the_last_day_as_on_the_first(soak):
    """Two threads: two requests. The inbox's one more only at the periodic whole read (every
    fourth hourly poll here) or at a deadline."""
    for day in (2, DAYS):
        costs = [t.requests for t in quiet_ticks(soak, day)]
        assert len(costs) >= 10 and statistics.median(costs) == 2, (day, costs)
        assert 3 in costs and set(costs) <= {2, 3}, (day, costs)


def test_the_store_work_of_a_quiet_poll_does_not_grow_with_the_threads(soak):
    early, late = (statistics.median(t.sql_steps for t in quiet_ticks(soak, day)) for day in (2, DAYS))
    posts = [len(soak.daemon.store.posts(g.id)) for g in soak.daemon.games]
    assert min(posts) > 35           # the threads did grow meanwhile
    assert late <= early * 1.3 + 5, (early, late)


def test_the_process_holds_no_more_files_threads_or_objects_at_the_end_than_on_day_three(soak):
    first, last = soak.held[3], soak.held[DAYS]
    assert last["fds"] <= first["fds"] and last["threads"] <= first["threads"], (first, last)
    # several hundred ticks ran in between: a leak of even one object a tick would show
    assert last["objects"] - first["objects"] < 300, (first, last)


def test_the_bench_prints_its_figures_of_the_week(soak):
    """What `python bench/soak.py` prints of its month, here of the week (the bench smoke runs the
    script itself in its late-rush mode only)."""
    out = io.StringIO()
    report(soak, out)
    printed = out.getvalue()
    assert "day  ticks  requests  cpu_s" in printed and "late rush" not in printed
    for day in range(1, DAYS + 1):
        assert re.search(rf"^ {{2}}{day}  ", printed, re.M), printed
    assert re.search(r"^mafia-soak: \d+ phases resolved, winner: (?!none yet)", printed, re.M), printed
    assert re.search(r"^legends-soak: \d+ phases resolved", printed, re.M), printed
    assert f"player actions: {soak.players.done}" in printed
    assert re.search(r"^deadline-to-drafts latency \(s\), per phase:\n  legends-soak/night-1 +-?\d+\.\d", printed, re.M), printed


def test_the_count_empties_the_bounded_caches_and_only_those():
    found = bounded_caches()
    assert {names._index_of, names.declensions, names._readings} <= set(found)
    assert all(cache.cache_parameters()["maxsize"] is not None for cache in found)
