"""The host's login and the CSRF token every form carries.

One password, no user table: the web page has exactly one user, the host. The password is
compared in constant time and never stored in the session, logged or rendered.

The session cookie is signed, so it cannot be forged, but a signed cookie alone would stay good
after logout (a copy of it, from a shared computer or a browser's profile, logged in again): each
login gets an id of its own that the page keeps while the session lives, and logout forgets it.
"""
from __future__ import annotations

import hmac
import secrets
from functools import wraps

from flask import abort, current_app, redirect, request, session, url_for

CSRF_FIELD = "csrf_token"
HOST_ACTOR = "host"


def same_secret(given: str, expected: str) -> bool:
    """Constant-time comparison, so response timing tells nothing about the secret."""
    return hmac.compare_digest(given.encode("utf-8"), expected.encode("utf-8"))


def _live() -> set[str]:
    """The ids of the sessions logged in and not logged out, for as long as the page runs."""
    return current_app.extensions["forumgm"].setdefault("sessions", set())


def log_in() -> None:
    # A fresh session on login: nothing chosen before authentication (a planted token) survives.
    session.clear()
    session["host"] = secrets.token_urlsafe(32)
    session[CSRF_FIELD] = secrets.token_urlsafe(32)
    _live().add(session["host"])


def log_out() -> None:
    _live().discard(session.get("host"))
    session.clear()


def logged_in() -> bool:
    return session.get("host") in _live()


def login_required(view):
    @wraps(view)
    def guarded(*args, **kwargs):
        if not logged_in():
            return redirect(url_for("web.login"))
        return view(*args, **kwargs)

    return guarded


def csrf_token() -> str:
    """The session's token, created on first use (the login form needs one before login)."""
    if CSRF_FIELD not in session:
        session[CSRF_FIELD] = secrets.token_urlsafe(32)
    return session[CSRF_FIELD]


def check_csrf() -> None:
    """Refuse (403) any POST whose form token is missing or not this session's."""
    if request.method != "POST":
        return
    expected = session.get(CSRF_FIELD)
    given = request.form.get(CSRF_FIELD, "")
    if not expected or not same_secret(given, expected):
        abort(403)
