"""Errors the forum edge raises; the message is meant for the host."""


class ForumError(Exception):
    """The forum refused or failed: its own message (a validation error on the form, a login
    refusal) or what went wrong on the way (HTTP status after retries)."""


class ForumRefused(ForumError):
    """The forum answered and said no, with its own message (unknown recipient, message too long,
    a validation error). Sending the same text again would be refused again."""


class NoPrivateMessages(ForumError):
    """The forum engine has no private messages (FluxBB): orders cannot come by PM."""


class SessionLost(ForumError):
    """Still logged out after logging in again."""
