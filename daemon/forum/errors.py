"""Errors the forum edge raises; the message is meant for the host."""
from __future__ import annotations

from datetime import datetime


class ForumError(Exception):
    """The forum refused or failed: its own message (a validation error on the form, a login
    refusal) or what went wrong on the way (HTTP status after retries)."""


class ForumRefused(ForumError):
    """The forum answered and said no, with its own message (unknown recipient, message too long,
    a validation error). Sending the same text again would be refused again."""


class StaleForm(ForumRefused):
    """The board refused a form as expired (its token older than the board allows, or its session
    gone meanwhile): it took nothing, and the same form fetched again may go."""


class NoPrivateMessages(ForumError):
    """The forum engine has no private messages (FluxBB): orders cannot come by PM."""


class SessionLost(ForumError):
    """Still logged out after logging in again."""


class Unreachable(ForumError):
    """The board did not answer usably after every retry (5xx, timeouts, refused connections):
    nothing more is asked of it this tick."""


class MaybeSent(ForumError):
    """A POST that may have been carried out: the request went out and no usable answer came back
    (a 5xx, a lost connection, a timeout while reading). It is never repeated as it is: what the
    board shows is looked at first (publish.py reconciles)."""


class Unproven(ForumError):
    """Whether a text went cannot be told from what the board showed: a page that does not prove it
    is whole (another page than asked for, fewer pages than the thread had, a page list gone). A
    draft left `sending` is looked for again later, never sent again on such a read."""


class Accepted(ForumError):
    """The board took the post or PM but its answer does not name it (SMF sends to `topic=N.new`
    or to the board): it is found among the account's own texts, never sent again."""


class BoardSaid(ForumError):
    """An HTTP error page (4xx) with the board's own explanation in `reason`; `wait` is the pause
    in seconds the page asks for when it is a flood refusal (post again later), else None."""

    def __init__(self, message: str, status: int, reason: str | None = None, wait: float | None = None):
        super().__init__(message)
        self.status = status
        self.reason = reason
        self.wait = wait


class NoAttachments(ForumError):
    """The board takes no file with this post (the engine has no attachments for forumgm, the
    account may not attach, or the board refused the file: too large, a type it does not allow).
    Said before the post itself is sent: nothing was posted."""


class FloodPause(ForumError):
    """The board's flood rule asks for a pause longer than a tick should wait (MyBB: 60 s between
    two PMs of a member): the text was not sent (or the board refused it, having taken nothing).
    `wait`: seconds until it may go, `until`: that moment on the wall clock; `reason`: the board's
    words, when it said them."""

    def __init__(self, message: str, wait: float, until: datetime, reason: str | None = None):
        super().__init__(message)
        self.wait = wait
        self.until = until
        self.reason = reason
