"""A machine clock jumping forward must not resolve a phase early and silently: the board's own
clock (the `Date:` of its answers) is asked first, and the game stops visibly until they agree."""
from datetime import timedelta

import pytest

from forumgm.daemon.offline.localforum import LocalForum
from forumgm.daemon.tick.stops import stops
from legends_forum_support import GAME, PASSWORD_ENV, Player, legends_board, msk, start_daemon, write_installation
from localforum_support import FakeClock


class JumpingClock:
    """The machine's wall clock (as SystemClock is), `jump` ahead of the board's."""
    wall = True

    def __init__(self, board_clock: FakeClock):
        self.board_clock = board_clock
        self.jump = timedelta(0)

    def now(self):
        return self.board_clock.now() + self.jump


@pytest.fixture
def legends(tmp_path, monkeypatch):
    clock = FakeClock(msk(2, 20))
    monkeypatch.setenv(PASSWORD_ENV, "host-secret")
    with LocalForum(legends_board(clock)) as server:
        yield server, clock, write_installation(tmp_path, server)


def test_a_clock_jumped_past_the_deadline_resolves_nothing_until_it_agrees_with_the_boards(legends):
    server, clock, config = legends
    daemon = start_daemon(config, server, clock)
    daemon.clock = JumpingClock(clock)
    assert daemon.tick().errors == []                               # dealt; night 1 closes at 10:00
    [night] = daemon.store.phases(GAME)
    assert night["deadline"] == msk(3, 10)
    clock.moment = msk(3, 8)
    daemon.clock.jump = timedelta(hours=3)                          # the machine says 11:00
    report = daemon.tick()
    assert report.resolved == []
    assert daemon.store.phase(GAME, night["key"])["status"] == "pending"
    [stop] = stops(daemon.store, GAME)
    assert "the forum's answers are dated" in stop.message and "180 min earlier" in stop.message
    assert f"phase {night['key']} is not due before" in stop.message
    clock.moment = msk(3, 9, 30)
    Player(server, clock, "Аскон").pm("Ночь 1", "Шпионаж Кума")      # before the real deadline
    daemon.clock.jump = timedelta(0)                                # the clock set right
    clock.moment = msk(3, 9, 40)
    assert daemon.tick().errors == [] and stops(daemon.store, GAME) == []
    clock.moment = msk(3, 10, 5)
    assert daemon.tick().resolved == [f"{GAME}/{night['key']}"]
    assert [o["sender"] for o in daemon.store.orders(GAME, night["key"])] == ["Аскон"]
    daemon.store.close()


def test_a_board_a_minute_behind_the_machine_holds_no_deadline(legends):
    """Clocks drift by seconds: a board a minute behind is no clock out of step."""
    server, clock, config = legends
    daemon = start_daemon(config, server, clock)
    daemon.clock = JumpingClock(clock)
    assert daemon.tick().errors == []
    [night] = daemon.store.phases(GAME)
    clock.moment = msk(3, 9, 59) + daemon.polling.grace
    daemon.clock.jump = timedelta(minutes=1)           # the machine: deadline + grace
    assert daemon.tick().resolved == [f"{GAME}/{night['key']}"]
    daemon.store.close()


def test_the_demos_fast_clock_is_never_checked_against_the_board(legends):
    """An accelerated or fixed clock runs ahead of the board on purpose (no `wall`)."""
    server, clock, config = legends
    daemon = start_daemon(config, server, clock)
    jumping = JumpingClock(clock)
    jumping.wall = False
    daemon.clock = jumping
    assert daemon.tick().errors == []
    [night] = daemon.store.phases(GAME)
    clock.moment = msk(3, 8)
    jumping.jump = timedelta(hours=3)
    assert daemon.tick().resolved == [f"{GAME}/{night['key']}"]
    daemon.store.close()


def post(server, clock, text):
    Player(server, clock, "Аскон").post(text)


def pm(server, clock, text):
    Player(server, clock, "Аскон").pm("Ночь 1", text)


@pytest.mark.parametrize("sends, shown", [(post, "post"), (pm, "PM")])
def test_a_clock_jumped_past_the_deadline_on_a_board_that_sends_no_date_resolves_nothing_while_its_posts_say_so(
        legends, sends, shown):
    """A board whose answers carry no `Date:`: the post (or PM) it shows first, with a higher id than
    the thread's last page (the inbox) showed when read before, was written after that read, so by
    its date the board's clock is at most so far on. A machine clock jumped past the deadline
    resolves nothing until the board's clock may have reached it; with nothing to tell by, the
    machine's clock is taken (as before)."""
    server, clock, config = legends
    server.board.dates_answers = False
    daemon = start_daemon(config, server, clock)
    daemon.clock = JumpingClock(clock)
    assert daemon.tick().errors == []                               # dealt; night 1 closes at 10:00
    [night] = daemon.store.phases(GAME)
    clock.moment = msk(3, 7, 58)
    sends(server, clock, "Шпионаж Кума")                            # the inbox is read for it at 07:59
    clock.moment = msk(3, 7, 59)
    assert daemon.tick().errors == []
    clock.moment = msk(3, 8)
    sends(server, clock, "Шпионаж Robozik")                         # the board dates it 08:00
    daemon.clock.jump = timedelta(hours=3)                          # the machine says 11:00
    report = daemon.tick()
    assert report.resolved == [] and daemon.forum.client.board_now() is None
    assert daemon.store.phase(GAME, night["key"])["status"] == "pending"
    [stop] = stops(daemon.store, GAME)
    assert "whose answers carry no date" in stop.message and f"({shown} " in stop.message
    assert f"phase {night['key']} is not due before" in stop.message
    clock.moment = msk(3, 9, 30)
    daemon.clock.jump = timedelta(hours=1)                          # still 30 min ahead of the deadline
    assert daemon.tick().resolved == []
    daemon.clock.jump = timedelta(0)                                # the clock set right
    clock.moment = msk(3, 10, 5)
    assert daemon.tick().resolved == [f"{GAME}/{night['key']}"] and stops(daemon.store, GAME) == []
    daemon.store.close()
