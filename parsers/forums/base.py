"""Records every forum-engine parser returns. Pure data: HTML in, these out."""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime


class PageLayoutError(ValueError):
    """The page does not look like what this engine's parser knows.

    Raised instead of returning an empty list, so that a changed forum theme stops the game
    with a message to the host rather than counting zero votes.
    """


class PastLastPage(PageLayoutError):
    """A thread page past the thread's last: the board shows the thread's page list and no post
    (SMF 2.1 so answers a page number a deletion made too high; phpBB and MyBB show the last page,
    FluxBB the first)."""

    def __init__(self, message: str, page: int):
        super().__init__(message)
        self.page = page


@dataclass(frozen=True)
class ColoredFragment:
    color: str       # normalised lowercase #rrggbb
    text: str        # stripped text of the fragment
    where: str = ""  # "" for the post's own text; "quote", "spoiler" or "code" when flagged (not counted)

    def as_json(self) -> dict:
        return {"color": self.color, "text": self.text}


@dataclass(frozen=True)
class Post:
    id: str
    author: str
    author_id: str | None
    posted_at: datetime | None
    edited_at: datetime | None | bool = None   # True when the engine shows an edit without a time
    edited_by: str | None = None
    html: str = ""                               # the body as HTML
    text: str = ""                               # the body as text, quotes included
    text_unquoted: str = ""                      # the body as text, every quote removed
    colored: tuple[ColoredFragment, ...] = ()    # the author's own coloured text, in page order
    flagged: tuple[ColoredFragment, ...] = ()    # coloured text inside quotes, spoilers and code blocks
    page: int | None = None
    hidden: bool = False                         # shown to a moderator only: soft-deleted or unapproved


@dataclass(frozen=True)
class PageInfo:
    page: int
    pages: int


@dataclass(frozen=True)
class Listing:
    """A PM folder page: where it is among the folder's pages and what the page says of the folder."""
    page: int = 1
    pages: int = 1
    links: dict[int, str] = field(default_factory=dict)   # page number -> its link, as the page gives it
    total: int | None = None      # PMs in the folder, when the page says
    stored: int | None = None     # PMs held and the most the folder may hold (phpBB's "27 out of 50")
    limit: int | None = None
    used: float | None = None     # per cent of the account's PM space in use, when the board shows only
                                  # that (MyBB's bar counts every folder against the group's quota)
    own: tuple[str, ...] = ()     # ids of PMs on the page that the account sent itself (no orders)
    own_unread: tuple[str, ...] = ()   # those of them the board still shows unread
    list_missing: bool = False    # the page shows no page list where the board always shows one

    @property
    def fill(self) -> float | None:
        """The share of its limit the folder (or the account's PM space) holds; None: no limit shown."""
        if self.limit and self.stored is not None:
            return self.stored / self.limit
        return None if self.used is None else self.used / 100


@dataclass(frozen=True)
class PmHeader:
    id: str
    sender: str
    sender_id: str | None
    subject: str
    sent_at: datetime | None
    unread: bool


@dataclass(frozen=True)
class PmMessage:
    id: str
    sender: str
    sender_id: str | None
    subject: str
    sent_at: datetime | None
    html: str
    text: str
    # the sender's own words: a reply quoting the host's message must not re-send the quoted lines
    # (None where the source cannot tell quotes apart: then `text` is all there is)
    text_unquoted: str | None = None


@dataclass(frozen=True)
class Form:
    action: str                       # as written in the page (may be relative)
    method: str
    fields: dict[str, str] = field(default_factory=dict)   # hidden inputs and preset values
    enctype: str = "application/x-www-form-urlencoded"
    files: tuple[str, ...] = ()                             # names of its file inputs (attachments)
