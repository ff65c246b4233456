"""The board's clock from the posts and PMs it shows first, for a board whose answers carry no `Date:`.

A post with a higher id than every post of the thread's last page read before (a PM with a higher
id than every PM the inbox's newest page showed before) was written after that read was asked for,
by the board's clock: the board's clock then was at most the post's date
(plus the minute boards round it down to), and it has run since on the client's own monotonic clock,
which a step of the machine's wall clock (NTP, a hand set wrong, a resumed virtual machine) does not
move. So the board's clock now is at most the latest such bound: enough to prove a deadline has
not come by the board's clock while the machine's says it has (tick/board_clock.py).
"""
from __future__ import annotations

from datetime import datetime, timedelta, timezone
from typing import Callable, Sequence

from forumgm.parsers.forums.base import PageInfo, PmHeader, Post

DATE_STEP = timedelta(minutes=1)    # boards date posts to the minute, rounded down


class AtMost(datetime):
    """A moment the board's clock is no later than, and the post that shows it."""
    why: str = ""


class ShownPosts:
    def __init__(self, clock: Callable[[], float]):
        self.clock = clock
        self._last_read: dict[str, tuple[float, int]] = {}    # newest page's URL -> (asked at, highest id)
        self._bound: tuple[float, str] | None = None          # board time minus client clock, at most; why

    def saw_thread(self, url: str, asked: float, info: PageInfo, posts: Sequence[Post]) -> None:
        """A page of a thread, asked for at `asked` on the client's clock, read."""
        shown = [(post.id, post.posted_at) for post in posts if not post.hidden]
        self._saw(url, asked, info.page == info.pages, shown, "post", "the thread's last page")

    def saw_inbox(self, url: str, asked: float, headers: Sequence[PmHeader]) -> None:
        """The inbox page holding its newest PMs, asked for at `asked`, read."""
        self._saw(url, asked, True, [(header.id, header.sent_at) for header in headers], "PM", "the inbox")

    def _saw(self, url: str, asked: float, newest: bool, items: Sequence[tuple[str, datetime | None]],
             what: str, where: str) -> None:
        ids = [int(item_id) for item_id, _ in items if item_id.isdigit()]
        before = self._last_read.get(url)
        if before is not None:
            then, highest = before
            first = [(item_id, at) for item_id, at in items if item_id.isdigit() and int(item_id) > highest
                     and at is not None]
            if first:
                item_id, at = max(first, key=lambda item: item[1])
                # the latest sighting, not the tightest: a monotonic clock stops while the machine
                # sleeps, and a bound kept from before a suspend would hold deadlines for good
                shown = f"{at.astimezone(timezone.utc):%d.%m %H:%M} UTC"
                self._bound = ((at + DATE_STEP).timestamp() - then,
                               f"{what} {item_id}, dated {shown}, was not in {where} read {self.clock() - then:.0f} s before")
            ids.append(highest)
        if newest and ids:
            self._last_read[url] = (asked, max(ids))

    def board_at_most(self) -> AtMost | None:
        if self._bound is None:
            return None
        bound, why = self._bound
        moment = datetime.fromtimestamp(bound + self.clock(), timezone.utc)
        at_most = AtMost(*moment.timetuple()[:6], moment.microsecond, tzinfo=timezone.utc)
        at_most.why = why
        return at_most
