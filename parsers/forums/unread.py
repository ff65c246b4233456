"""The unread-PM count a board prints in the header of every page a member sees.

A poll reads it off the thread page it fetched anyway, and reads the PM inbox only when the
count says a PM waits (forumgm.daemon.forum.housekeeping.inbox_check): one request per thread when nothing is new.
The count is None — unknown, and the inbox is read as before — when the page has none of the
places the board shows it (a theme without them, a guest's page) or the place found holds no
number where the board always prints one.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from forumgm.parsers.forums.html import parse_html
from forumgm.parsers.forums.layout import Field
from forumgm.parsers.forums.reader import read_field


@dataclass(frozen=True)
class UnreadCount:
    """One place a board's header shows the unread PMs."""

    link: str                       # CSS of the header element holding the count, on every member's page
    count: Field                    # the number, inside `link`
    absent_is_zero: bool = False    # the board prints the number only when it is not 0 (SMF, IP.Board 3)


def unread_pms(html: str, shown: Sequence[UnreadCount]) -> int | None:
    """The count at the first of the places `shown` the page has (a board prints one or another:
    vBulletin 3 a line "Unread 0, Total 3" when nothing is new, a notifications menu when something is)."""
    tree = parse_html(html)
    for place in shown:
        link = tree.css_first(place.link)
        if link is not None:
            return _count(link, place)
    return None


def _count(link, place: UnreadCount) -> int | None:
    value = read_field(link, place.count)
    if value is None:
        return 0 if place.absent_is_zero else None
    return int(value) if value.isdigit() else None
