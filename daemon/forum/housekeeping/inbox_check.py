"""Whether a tick reads the PM inbox, or the thread pages it has just read say that no PM waits.

phpBB, MyBB and SMF (and the local forum) count the account's unread PMs in the header of every
page, the thread page a poll fetches anyway included; forumgm opens every PM it reads, so a
count of 0 means nothing new and the inbox costs no request. A PM that someone else opened on
the board first (the host, logged in as the game's account in his browser) leaves no count
behind: a whole read of the inbox finds it, and one is made

    whenever a deadline of the forum's games has     no order is missed at a resolution (and a late
    passed and its phase is not resolved            rush is read while the deadline's grace runs)
    every `inbox_full_read` (30 min by default)       a receipt waits that long at most
    after a read that failed, and the first time     the game's problem stays until a read goes well
    whenever a page counts unread PMs, or no count    (a board whose pages show none: every tick)
"""
from __future__ import annotations

from datetime import datetime, timedelta
from typing import Sequence

DEFAULT_FULL_READ = timedelta(minutes=30)


def inbox_reason(counts: Sequence[int | None], read_at: datetime | None, now: datetime,
                 every: timedelta, due: bool) -> str | None:
    """Why the inbox is read at this tick; None when the thread pages' counts make it needless.

    `counts`: the unread PMs each thread page read at this tick shows (None: the page shows none);
    `read_at`: the last whole read that went well; `due`: a deadline of the forum has passed, its phase not resolved."""
    if not counts or any(count is None for count in counts):
        return "the pages read show no unread count"
    if any(counts):
        return f"{max(counts)} unread PM(s)"
    if due:
        return "a deadline has passed"
    if read_at is None:
        return "no read of the inbox that went well yet"
    if now - read_at >= every:
        return "the periodic whole read"
    return None
