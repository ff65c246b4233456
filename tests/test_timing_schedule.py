"""When the daemon ticks: at deadline + grace and reminder times, often near a deadline, seldom far from one."""
from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta, timezone
from zoneinfo import ZoneInfo

import pytest

from forumgm.daemon.cli import main
from forumgm.daemon.tick.clock import FastClock, FixedClock
from forumgm.daemon.cli.status import tick_line
from forumgm.daemon.runtime.loop import REPLAN, StopFlag, run_loop
from forumgm.daemon.store import to_text, utc_now
from forumgm.daemon.runtime.wakeups import OpenPhase, Polling, next_wake, polling_text
from spine_fakes import MemoryForum
from mafia_walk_support import GAME, PMS, msk, start

MOSCOW = ZoneInfo("Europe/Moscow")

T0 = datetime(2026, 3, 3, 12, 0, tzinfo=timezone.utc)
POLLING = Polling(far=timedelta(minutes=10), near=timedelta(seconds=30), window=timedelta(hours=1),
                  grace=timedelta(seconds=30))


def wake_after(last: datetime, *phases: OpenPhase):
    return next_wake(last, phases, POLLING)


# ---------------------------------------------------------------- the plan (pure)

def test_far_from_any_deadline_the_daemon_polls_seldom():
    wake = wake_after(T0, OpenPhase(T0 + timedelta(hours=5)))
    assert (wake.at, wake.why) == (T0 + timedelta(minutes=10), "poll")


def test_with_no_open_phase_it_polls_seldom():
    assert wake_after(T0).at == T0 + timedelta(minutes=10)


def test_near_a_deadline_it_polls_often():
    wake = wake_after(T0, OpenPhase(T0 + timedelta(minutes=59)))
    assert (wake.at, wake.why) == (T0 + timedelta(seconds=30), "poll")


def test_in_the_last_poll_interval_before_a_deadline_it_polls_twice_as_often():
    # a late rush is read as it comes: 30 PMs left for the deadline would cost 30 s of the grace
    assert wake_after(T0, OpenPhase(T0 + timedelta(seconds=20))).at == T0 + timedelta(seconds=15)
    assert wake_after(T0, OpenPhase(T0 + timedelta(seconds=31))).at == T0 + timedelta(seconds=30)
    assert wake_after(T0, OpenPhase(T0)).at == T0 + timedelta(seconds=30)    # past it: deadline + grace


def test_it_wakes_when_the_near_window_opens_instead_of_polling_past_it():
    wake = wake_after(T0, OpenPhase(T0 + timedelta(hours=1, minutes=4)))
    assert (wake.at, wake.why) == (T0 + timedelta(minutes=4), "near a deadline")


def test_it_wakes_at_deadline_plus_grace_whatever_the_poll_interval():
    slow = replace(POLLING, near=timedelta(minutes=10))
    wake = next_wake(T0, [OpenPhase(T0 + timedelta(minutes=3))], slow)
    assert (wake.at, wake.why) == (T0 + timedelta(minutes=3, seconds=30), "deadline")


def test_a_tie_between_the_poll_and_the_deadline_is_named_the_deadline():
    wake = wake_after(T0, OpenPhase(T0))
    assert (wake.at, wake.why) == (T0 + timedelta(seconds=30), "deadline")


def test_it_wakes_at_the_reminder_time_of_a_game():
    phase = OpenPhase(T0 + timedelta(hours=3), reminder_before=timedelta(hours=2, minutes=55))
    wake = wake_after(T0, phase)
    assert (wake.at, wake.why) == (T0 + timedelta(minutes=5), "reminder")


def test_the_earliest_moment_of_several_games_wins():
    wake = wake_after(T0, OpenPhase(T0 + timedelta(hours=4)), OpenPhase(T0 + timedelta(minutes=2)))
    assert (wake.at, wake.why) == (T0 + timedelta(seconds=30), "poll")


def test_a_deadline_passed_long_ago_does_not_make_it_tick_without_pause():
    # a stopped game's overdue phase: its moments are all behind the last tick
    wake = wake_after(T0, OpenPhase(T0 - timedelta(hours=2), reminder_before=timedelta(hours=1)))
    assert (wake.at, wake.why) == (T0 + timedelta(minutes=10), "poll")


def test_the_start_up_line_names_the_near_rate_only_where_it_is_faster():
    assert polling_text(POLLING) == "poll every 600s (every 30s within 3600s of a deadline)"
    # the demo's poll_interval of 2 with poll_near left at its 30: near a deadline it polls every 2 s as well
    assert polling_text(replace(POLLING, far=timedelta(seconds=2))) == "poll every 2s, near a deadline too"
    assert polling_text(replace(POLLING, far=timedelta(seconds=30))) == "poll every 30s, near a deadline too"
    assert polling_text(replace(POLLING, window=timedelta(0))) == "poll every 600s"
    assert polling_text(replace(POLLING, near=timedelta(seconds=0.5))) == \
        "poll every 600s (every 0.5s within 3600s of a deadline)"


def test_near_polling_is_never_slower_than_far_polling():
    fast = replace(POLLING, far=timedelta(seconds=5))
    assert next_wake(T0, [OpenPhase(T0 + timedelta(minutes=20))], fast).at == T0 + timedelta(seconds=5)


# ---------------------------------------------------------------- the loop on a real daemon

class Recorder:
    """The sleep of the loop: moves the game clock instead of waiting; notes every tick's time."""

    def __init__(self, daemon, clock: FixedClock, stop: StopFlag, until, while_asleep=None):
        self.daemon, self.clock, self.stop, self.until = daemon, clock, stop, until
        self.while_asleep = while_asleep
        self.ticks: list[datetime] = []
        self.sleeps: list[float] = []
        self.reminded_at: datetime | None = None
        real_tick = daemon.tick

        def tick():
            self.ticks.append(clock.now())
            report = real_tick()
            if self.reminded_at is None and any(d["kind"] == "reminder" for d in daemon.store.drafts(game_id=GAME)):
                self.reminded_at = clock.now()
            if until(daemon.store):
                stop.set()
            return report
        daemon.tick = tick

    def sleep(self, seconds: float) -> None:
        if self.while_asleep is not None:
            self.while_asleep()
        self.sleeps.append(seconds)
        self.clock.advance(timedelta(seconds=seconds))


def resolved(phase_key: str):
    return lambda store: store.phase(GAME, phase_key) is not None and store.phase(GAME, phase_key)["status"] == "resolved"


def loop(installation, start_at: datetime, until, forum_pms=PMS, while_asleep=None):
    clock = FixedClock(start_at)
    daemon = start(installation, clock, MemoryForum(clock, pms=list(forum_pms)))
    stop = StopFlag()
    recorder = Recorder(daemon, clock, stop, until, while_asleep)
    assert run_loop(daemon, stop, sleep=recorder.sleep) == 0
    return daemon, recorder


def test_the_phase_resolves_at_the_tick_at_deadline_plus_grace(installation):
    deadline, grace = msk(3, 22, 45), timedelta(seconds=installation.deadline_grace)
    _daemon, recorder = loop(installation, msk(3, 20, 3), resolved("round-1"))
    ticks = recorder.ticks
    assert ticks[-1] == deadline + grace                       # the tick that resolved round-1
    assert deadline in ticks                                   # polled at the deadline, not resolved then (grace)
    far = [t for t in ticks if t < msk(3, 21, 45)]
    assert far == [msk(3, 20, 3) + timedelta(minutes=10 * n) for n in range(11)]
    near = [t for t in ticks if t >= msk(3, 21, 45)]
    last_call = deadline - timedelta(seconds=15)       # the last poll interval before it, twice as often
    polls = (timedelta(hours=1) + grace) // timedelta(seconds=30) + 1      # every 30 s till deadline + grace
    assert near == sorted([msk(3, 21, 45) + timedelta(seconds=30 * n) for n in range(polls)] + [last_call])
    assert recorder.reminded_at == msk(3, 21, 45)
    assert all(s <= REPLAN for s in recorder.sleeps)


def test_status_shows_the_next_tick_and_why_then_that_the_daemon_stopped(installation, capsys, tmp_path):
    said = []

    def status() -> None:
        assert main(["status", "--config", str(tmp_path / "forumgm.toml")]) == 0
        said.append(capsys.readouterr().out.splitlines()[0])

    loop(installation, msk(3, 22, 40), resolved("round-1"), while_asleep=status)
    resolving = f"{msk(3, 22, 45) + timedelta(seconds=installation.deadline_grace):%Y-%m-%d %H:%M:%S}"
    # while it sleeps: the plan made after the tick before the one that resolved round-1 (`status` reads the
    # real clock, which is past the test's clock: it adds that the tick is overdue)
    assert said[-1].startswith(
        f"daemon: last tick 2026-03-03 22:45:30, next tick {resolving} (Europe/Moscow, deadline)")
    # the test stops the loop after the tick that resolved round-1: no tick is planned any more
    status()
    assert said[-1] == (f"daemon: last tick {resolving} (Europe/Moscow), then it stopped; "
                        "no daemon reads the forum now")


def test_a_deadline_the_host_moves_while_the_daemon_sleeps_is_kept(installation):
    moved = msk(3, 1, 7)

    def move_deadline_once(store):
        if store.phase(GAME, "round-1") and store.phase(GAME, "round-1")["deadline"] != moved:
            # what `forumgm deadline` does to the store, from another process
            store.db.execute("UPDATE phases SET deadline = ? WHERE game_id = ? AND key = 'round-1'",
                             [to_text(moved), GAME])
        return resolved("round-1")(store)

    _daemon, recorder = loop(installation, msk(3, 0, 0), move_deadline_once)
    assert recorder.ticks[-1] == moved + timedelta(seconds=installation.deadline_grace)


def test_an_accelerated_clock_sleeps_real_seconds_divided_by_its_speed(installation):
    real = [0.0]
    clock = FastClock(msk(3, 0, 0), speed=60.0, monotonic=lambda: real[0])
    daemon = start(installation, clock, MemoryForum(clock))
    stop = StopFlag()
    sleeps = []

    def sleep(seconds):
        sleeps.append(seconds)
        real[0] += seconds
        if len(sleeps) == 3:
            stop.set()

    run_loop(daemon, stop, sleep=sleep)
    assert sleeps == [pytest.approx(10.0)] * 3         # 600 game seconds at x60


def test_run_loop_stops_after_max_ticks(installation):
    clock = FixedClock(msk(3, 0, 0))
    daemon = start(installation, clock, MemoryForum(clock))
    slept = []
    assert run_loop(daemon, StopFlag(), max_ticks=1, sleep=slept.append) == 0
    assert slept == []


def test_polling_settings_are_read_and_bad_ones_named(tmp_path):
    from forumgm.config import data_path
    from forumgm.daemon.settings.installation import load_installation
    from forumgm.daemon.settings.records import ConfigError

    text = data_path("forumgm.example.toml").read_text(encoding="utf-8")
    text = text.replace('"games/mafia.example.toml", "games/legends.example.toml"', "")
    path = tmp_path / "forumgm.toml"
    path.write_text(text.replace("poll_near = 30", "poll_near = 15").replace("deadline_grace = 60", "deadline_grace = 0"),
                    encoding="utf-8")
    assert Polling.of(load_installation(path)) == Polling(far=timedelta(minutes=10), near=timedelta(seconds=15),
                                                          window=timedelta(hours=1), grace=timedelta(0))
    path.write_text(text.replace("poll_near = 30", "poll_near = 0").replace("deadline_grace = 60", "deadline_grace = -5"),
                    encoding="utf-8")
    with pytest.raises(ConfigError) as error:
        load_installation(path)
    assert f"{path}: daemon.poll_near: expected a positive integer (got 0)" in str(error.value)
    assert f"{path}: daemon.deadline_grace: expected an integer 0 or more (got -5)" in str(error.value)


def test_status_of_a_daemon_on_a_fast_clock_gives_its_next_tick_in_real_time_too(installation, capsys, tmp_path):
    """`forumgm run --speed` (and the demo) plan in game time; `status` reads the real clock."""
    real = [0.0]
    clock = FastClock(msk(3, 0, 0), speed=60.0, monotonic=lambda: real[0])
    daemon = start(installation, clock, MemoryForum(clock))
    stop = StopFlag()
    said, asked = [], []

    def sleep(seconds):
        asked.append(utc_now())
        assert main(["status", "--config", str(tmp_path / "forumgm.toml")]) == 0
        said.append(capsys.readouterr().out.splitlines()[0])
        real[0] += seconds
        stop.set()

    run_loop(daemon, stop, sleep=sleep)
    due = {f"{(asked[0] + timedelta(seconds=10 + lag)).astimezone(MOSCOW):%H:%M:%S}" for lag in (-1, 0, 1)}
    prefix = ("daemon: last tick 2026-03-03 00:00:00, next tick 2026-03-03 00:10:00 (Europe/Moscow, game time ×60, "
              "poll, due ")
    assert said[0].startswith(prefix) and said[0].endswith(" real time)")       # in 10 real seconds: not overdue
    assert said[0][len(prefix):-len(" real time)")] in due
    assert main(["status", "--config", str(tmp_path / "forumgm.toml")]) == 0
    assert capsys.readouterr().out.splitlines()[0] == (
        "daemon: last tick 2026-03-03 00:00:00 (Europe/Moscow, game time ×60), then it stopped; "
        "no daemon reads the forum now")


def test_a_fast_clocks_tick_is_overdue_by_the_real_clock_not_by_game_time():
    now = datetime(2026, 12, 1, 3, 0, tzinfo=timezone.utc)
    plan = {"last_tick_at": msk(3, 0, 0), "next_tick_at": msk(3, 0, 10), "next_reason": "poll", "clock_speed": 600.0,
            "due_at": now + timedelta(seconds=2)}
    line = tick_line(plan, MOSCOW, now)       # game time is months behind the real clock: that is no delay
    assert line == ("daemon: last tick 2026-03-03 00:00:00, next tick 2026-03-03 00:10:00 (Europe/Moscow, "
                    "game time ×600, poll, due 06:00:02 real time)")
    late = tick_line(plan, MOSCOW, now + timedelta(minutes=3))
    assert late == line + " — overdue: is the daemon running?"
