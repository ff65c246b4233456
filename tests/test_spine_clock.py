"""The game clock: wall-clock deadlines in the game's zone, whatever the server's zone and DST."""
import time as systime
from datetime import datetime, time, timedelta, timezone
from zoneinfo import ZoneInfo

import pytest

from forumgm.config import data_path
from forumgm.daemon.tick.clock import FastClock, FixedClock, add_wall_time, due_phases, phase_window, schedule
from forumgm.daemon.settings.game import load_game
from forumgm.daemon.settings.records import PhaseTimes
from forumgm.daemon.store import Store

MOSCOW = ZoneInfo("Europe/Moscow")
BERLIN = ZoneInfo("Europe/Berlin")
DAY = PhaseTimes(opens=time(12), closes=time(21))
NIGHT = PhaseTimes(opens=time(21), closes=time(10))


@pytest.fixture
def server_in_new_york(monkeypatch):
    """The server's own zone observes DST (New York changes on 8 March 2026, Berlin on 29 March)."""
    monkeypatch.setenv("TZ", "America/New_York")
    systime.tzset()
    yield
    monkeypatch.undo()
    systime.tzset()


def utc(*args) -> datetime:
    return datetime(*args, tzinfo=timezone.utc)


def test_moscow_deadlines_ignore_the_servers_dst(server_in_new_york):
    after = utc(2026, 3, 7, 18, 0)          # 21:00 Moscow, the night before New York springs forward
    opens, deadline = phase_window(NIGHT, MOSCOW, after)
    assert (opens, deadline) == (utc(2026, 3, 7, 18, 0), utc(2026, 3, 8, 7, 0))
    opens, deadline = phase_window(DAY, MOSCOW, deadline)
    assert (opens, deadline) == (utc(2026, 3, 8, 9, 0), utc(2026, 3, 8, 18, 0))
    assert deadline.astimezone(MOSCOW).time() == time(21)


def test_a_dst_zone_keeps_wall_clock_deadlines_across_the_change(server_in_new_york):
    after = utc(2026, 3, 28, 8, 0)           # 09:00 CET on the last day before CEST
    deadlines = []
    for _ in range(3):
        _, after = phase_window(DAY, BERLIN, after)
        deadlines.append(after)
    assert [d.astimezone(BERLIN).time() for d in deadlines] == [time(21)] * 3
    assert [d.utcoffset() for d in (x.astimezone(BERLIN) for x in deadlines)] == \
           [timedelta(hours=1), timedelta(hours=2), timedelta(hours=2)]
    assert deadlines[1] - deadlines[0] == timedelta(hours=23)   # the short day of the change


def test_a_night_across_the_autumn_change_ends_at_ten_local():
    _, deadline = phase_window(NIGHT, BERLIN, utc(2026, 10, 24, 19, 0))   # 21:00 CEST
    assert deadline == utc(2026, 10, 25, 9, 0)                             # 10:00 CET
    assert deadline.astimezone(BERLIN).time() == time(10)


def test_a_time_skipped_by_dst_moves_forward():
    opens, _ = phase_window(PhaseTimes(opens=time(2, 30), closes=time(12)), BERLIN, utc(2026, 3, 28, 12, 0))
    assert opens == utc(2026, 3, 29, 1, 30)   # 03:30 CEST, the instant 02:30 CET would have been


def test_durations_are_wall_clock_days():
    end = add_wall_time(utc(2026, 3, 27, 11, 0), timedelta(days=3), BERLIN)   # 12:00 CET
    assert end.astimezone(BERLIN).replace(tzinfo=None) == datetime(2026, 3, 30, 12, 0)


def test_mafia_round_runs_from_23_00_to_22_45_next_evening():
    game = load_game(data_path("games", "mafia.example.toml"))
    opens, deadline = schedule(game, "round", game.start)
    assert opens == game.start
    assert deadline.astimezone(MOSCOW) == datetime(2026, 3, 3, 22, 45, tzinfo=MOSCOW)
    opens, _ = schedule(game, "round", deadline)
    assert opens.astimezone(MOSCOW) == datetime(2026, 3, 3, 23, 0, tzinfo=MOSCOW)


def test_due_phases_are_past_deadline_unresolved_and_oldest_first(tmp_path):
    game = load_game(data_path("games", "mafia.example.toml"))
    store = Store(tmp_path / "db.sqlite")
    store.register_game(game.id, game.type, None, game.thread_url, "Europe/Moscow", game.seed, {})
    start = utc(2026, 3, 2, 20, 0)
    for number in (2, 1, 3):
        store.ensure_phase(game.id, f"round-{number}", "round", number, None, start + timedelta(days=number))
    with store.transaction():
        store.begin_resolution(game.id, "round-1", start + timedelta(days=1))
    due = due_phases(game, start + timedelta(days=2, minutes=1), store)
    assert [p["key"] for p in due] == ["round-2"]
    assert [p["key"] for p in due_phases(game, start + timedelta(days=4), store)] == ["round-2", "round-3"]


def test_fixed_and_fast_clocks():
    clock = FixedClock(utc(2026, 1, 1))
    clock.advance(timedelta(hours=2))
    assert clock.now() == utc(2026, 1, 1, 2)
    with pytest.raises(ValueError):
        FixedClock(datetime(2026, 1, 1))
    ticks = iter([100.0, 101.5])
    fast = FastClock(utc(2026, 1, 1), speed=60, monotonic=lambda: next(ticks))
    assert fast.now() == utc(2026, 1, 1, 0, 1, 30)
