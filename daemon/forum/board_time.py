"""The board's clock from the posts it shows first, for a board whose answers carry no `Date:`.

A post with a higher id than every post of the thread's last page read before was written after
that read was asked for, by the board's clock: the board's clock then was at most the post's date
(plus the minute boards round it down to), and it has run since on the client's own monotonic clock,
which a step of the machine's wall clock (NTP, a hand set wrong, a resumed virtual machine) does not
move. So the board's clock now is at most the tightest such bound: enough to prove a deadline has
not come by the board's clock while the machine's says it has (tick/board_clock.py).
"""
from __future__ import annotations

from datetime import datetime, timedelta, timezone
from typing import Callable, Sequence

from forumgm.parsers.forums.base import PageInfo, Post

DATE_STEP = timedelta(minutes=1)    # boards date posts to the minute, rounded down


class AtMost(datetime):
    """A moment the board's clock is no later than, and the post that shows it."""
    why: str = ""


class ShownPosts:
    def __init__(self, clock: Callable[[], float]):
        self.clock = clock
        self._last_read: dict[str, tuple[float, int]] = {}    # last page's URL -> (asked at, highest post id)
        self._bound: tuple[float, str] | None = None          # board time minus client clock, at most; why

    def saw(self, url: str, asked: float, info: PageInfo, posts: Sequence[Post]) -> None:
        """A page of a thread, asked for at `asked` on the client's clock, read."""
        ids = [int(post.id) for post in posts if post.id.isdigit()]
        before = self._last_read.get(url)
        if before is not None:
            then, highest = before
            first = [post for post in posts if post.id.isdigit() and int(post.id) > highest
                     and post.posted_at is not None and not post.hidden]
            if first:
                newest = max(first, key=lambda post: post.posted_at)
                bound = (newest.posted_at + DATE_STEP).timestamp() - then
                if self._bound is None or bound < self._bound[0]:
                    self._bound = (bound, f"post {newest.id}, dated {newest.posted_at:%d.%m %H:%M} UTC, "
                                          f"was not on the thread's last page read {self.clock() - then:.0f} s ago")
            ids.append(highest)
        if info.page == info.pages and ids:
            self._last_read[url] = (asked, max(ids))

    def board_at_most(self) -> AtMost | None:
        if self._bound is None:
            return None
        bound, why = self._bound
        moment = datetime.fromtimestamp(bound + self.clock(), timezone.utc)
        at_most = AtMost(*moment.timetuple()[:6], moment.microsecond, tzinfo=timezone.utc)
        at_most.why = why
        return at_most
