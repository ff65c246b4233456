"""The unread-PM count a board prints in the header of every page a member sees.

A poll reads it off the thread page it fetched anyway, and reads the PM inbox only when the
count says a PM waits (forumgm.daemon.inbox_check): one request per thread when nothing is new.
The count is None — unknown, and the inbox is read as before — when the page has no PM link
at all (a theme without it, a guest's page) or the link holds no number where the board
always prints one.
"""
from __future__ import annotations

from dataclasses import dataclass

from selectolax.lexbor import LexborHTMLParser

from forumgm.parsers.forums.layout import Field
from forumgm.parsers.forums.reader import read_field


@dataclass(frozen=True)
class UnreadCount:
    """Where a board's header shows the unread PMs."""

    link: str                       # CSS of the header element with the PM link, on every member's page
    count: Field                    # the number, inside `link`
    absent_is_zero: bool = False    # the board prints the number only when it is not 0 (SMF)


def unread_pms(html: str, shown: UnreadCount) -> int | None:
    link = LexborHTMLParser(html).css_first(shown.link)
    if link is None:
        return None
    value = read_field(link, shown.count)
    if value is None:
        return 0 if shown.absent_is_zero else None
    return int(value) if value.isdigit() else None
