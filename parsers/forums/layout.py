"""What a forum engine's pages look like, as data: CSS selectors, attributes and patterns.

Every engine module (and the selector-driven `generic` engine) is one EngineLayout; the
reading itself lives once, in reader.py and body.py.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Mapping


@dataclass(frozen=True)
class Field:
    """One value inside a scope element (a post, an inbox row...).

    selector: CSS inside the scope (None: the scope itself); attr: the attribute to read
    (None: the element's text); pattern: a regex over that value, group 1 (or the whole
    match) is kept — no match means no value. joined: read every match of the selector and
    join the values with spaces (for a value the engine splits, e.g. vBulletin 3's PM list
    prints the date and the time in two separate spans).
    """
    selector: str | None = None
    attr: str | None = None
    pattern: str | None = None
    joined: bool = False

    regex: re.Pattern | None = field(init=False, repr=False, compare=False)

    def __post_init__(self):
        # compiled once, when the layout is built (so a broken pattern fails then), not per read
        object.__setattr__(self, "regex", re.compile(self.pattern) if self.pattern is not None else None)


Fields = tuple[Field, ...]   # tried in order; the first that yields a value wins


@dataclass(frozen=True)
class BodyMarkup:
    """Blocks inside a post body that change how coloured text counts."""
    quote: str = "blockquote"
    spoiler: str | None = None
    code: str | None = None
    ignore: str | None = None   # never text: buttons, "Click to expand", signatures inside bodies


@dataclass(frozen=True)
class EditMarker:
    marker: str                  # CSS of an element present only on edited posts
    time: Fields = ()            # inside the marker
    editor: Field | None = None  # inside the marker


@dataclass(frozen=True)
class Pagination:
    container: str | None          # first match is read; none (or no match) means a single page
    current: str | None = None     # inside the container: the current page number
    total: Field | None = None     # inside the container, when the page states the count
    always: bool = False           # the board shows it on a one-page listing too: a page without it
                                   # is a page that lost it (a theme, a proxy), not a listing of one page


@dataclass(frozen=True)
class ThreadLayout:
    post: str              # CSS of one post container
    post_id: Field         # inside the container; required
    author: Field          # required
    author_id: Field | None
    posted_at: Fields      # required
    body: str              # CSS of the body inside the container
    edit: EditMarker | None
    pagination: Pagination
    hidden: str | None = None   # CSS the post container itself matches when the board shows a moderator
                                # a post it hides from members (soft-deleted, awaiting approval)


@dataclass(frozen=True)
class InboxLayout:
    page: str                  # present on every inbox page, even an empty one
    row: str
    id: Field
    subject: Field
    sender: Field
    sender_id: Field | None
    sent_at: Fields
    unread: str                # CSS matching an unread row itself or an element inside it
    pagination: Pagination | None = None   # its page links (numbered links are followed page by page)
    total: Field | None = None     # how many PMs the folder holds, as the page states it
    fill: Field | None = None      # "N out of M" stored PMs when the board limits a folder (phpBB)
    used: Field | None = None      # the per cent of the account's PM space in use (MyBB's quota bar)


@dataclass(frozen=True)
class MessageLayout:
    container: str
    id: Field
    subject: Field
    sender: Field
    sender_id: Field | None
    sent_at: Fields
    body: str


@dataclass(frozen=True)
class EngineLayout:
    name: str
    thread: ThreadLayout
    body: BodyMarkup
    inbox: InboxLayout | None          # None: the engine has no private messages
    message: MessageLayout | None
    forms: Mapping[str, str] = field(default_factory=dict)   # "login"/"reply"/"pm" -> CSS of the form
    sent: InboxLayout | None = None    # the sent folders' rows, where they differ from the inbox's
    sent_message: MessageLayout | None = None   # the sender's copy of a PM, where it differs
