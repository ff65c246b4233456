"""The machine's clock checked against the board's before a deadline resolves a phase.

A clock that jumps forward (a virtual machine resumed, an NTP step, a hand set wrong) would resolve
phases early and silently: votes posted before the real deadline never counted. Every answer of
the board carries its own `Date:` (on a board whose answers carry none, the posts it shows first
bound its clock: forum/board_time.py); when that clock says the deadline has not come while the
machine's says it has, nothing resolves and the game stops visibly until the clocks agree.
Checked only against the machine's wall clock (the demo's accelerated clock runs ahead on purpose).
"""
from __future__ import annotations

from datetime import datetime, timedelta
from typing import Callable

# boards' clocks drift by seconds, a proxy's Date by a few: more than this is a clock out of step
CLOCK_AGREES = timedelta(minutes=2)


class ClockAhead(Exception):
    """The machine's clock runs ahead of the board's past a deadline: the phase waits."""


def check_board_clock(board_now: Callable[[], datetime | None] | None, due_at: datetime, now: datetime,
                      phase_key: str) -> None:
    """ClockAhead when the board's clock (its latest answer's Date) says `due_at` has not come yet
    and lags the machine's `now` by more than CLOCK_AGREES; nothing when the board does not tell."""
    board = board_now() if board_now is not None else None
    if board is None or board >= due_at or now - board <= CLOCK_AGREES:
        return
    minutes = (now - board).total_seconds() / 60
    told = getattr(board, "why", None)    # a board that dates no answer: what its posts prove (forum/board_time.py)
    says = (f"the forum, whose answers carry no date, is at most at {board:%d.%m %H:%M:%S} UTC ({told})" if told else
            f"the forum's answers are dated {board:%d.%m %H:%M:%S} UTC")
    raise ClockAhead(f"this machine's clock says {now:%d.%m %H:%M:%S} UTC, but {says} ({minutes:.0f} min "
                     f"earlier): by the forum's clock phase {phase_key} is not due before {due_at:%d.%m %H:%M} UTC; nothing resolves until the clocks "
                     "agree (set this machine's clock right: timedatectl, NTP)")
