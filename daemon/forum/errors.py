"""Errors the forum edge raises; the message is meant for the host."""


class ForumError(Exception):
    """The forum refused or failed: its own message (a validation error on the form, a login
    refusal) or what went wrong on the way (HTTP status after retries)."""


class SessionLost(ForumError):
    """Still logged out after logging in again."""
