"""The forum edge: one logged-in HTTP session per forum account behind one interface.

    forum = open_forum(forum_config, secrets)
    forum.thread_page(url, page) -> (PageInfo, [Post], html) ; forum.inbox_pages() -> ([PmHeader], Listing)...
    forum.message(id)
    forum.reply(thread_url, bbcode) -> post id ; forum.send_pm(nick, subject, bbcode) -> PM id
        (Accepted when the board took it without naming it; MaybeSent when the answer was lost)
    forum.newest_sent_pm() ; forum.find_own_post(thread_url, bbcode, after, since, claimed)
    forum.find_sent_pm(nick, subject, bbcode, after, claimed)
"""
from __future__ import annotations

import time
from datetime import datetime, timezone
from typing import Any, Callable

import requests

from forumgm.daemon.forum.adapter import ForumAdapter
from forumgm.daemon.forum.errors import ForumError, ForumRefused, NoPrivateMessages, SessionLost
from forumgm.daemon.forum.fluxbb import FluxbbForum
from forumgm.daemon.forum.generic import GenericForum
from forumgm.daemon.forum.http import HttpClient, HttpPolicy
from forumgm.daemon.forum.ipb3 import Ipb3Forum
from forumgm.daemon.forum.ipb4 import Ipb4Forum
from forumgm.daemon.forum.mybb import MybbForum
from forumgm.daemon.forum.phpbb import PhpbbForum
from forumgm.daemon.forum.settings import ForumSettings
from forumgm.daemon.forum.smf import SmfForum
from forumgm.daemon.forum.vbulletin import Vbulletin3Forum, Vbulletin4Forum
from forumgm.daemon.forum.xenforo import XenforoForum

Forum = ForumAdapter

ADAPTERS: dict[str, type[ForumAdapter]] = {
    "phpbb": PhpbbForum,
    "mybb": MybbForum,
    "smf": SmfForum,
    "fluxbb": FluxbbForum,
    "xenforo": XenforoForum,
    "ipb3": Ipb3Forum,
    "ipb4": Ipb4Forum,
    "vbulletin3": Vbulletin3Forum,
    "vbulletin4": Vbulletin4Forum,
    "generic": GenericForum,
}


def open_forum(forum_config: Any, secrets: Any, *, clock: Callable[[], float] = time.monotonic,
               sleep: Callable[[float], None] = time.sleep,
               session: requests.Session | None = None,
               now: Callable[[], datetime] = lambda: datetime.now(timezone.utc),
               stopping: Callable[[], bool] = lambda: False) -> ForumAdapter:
    """A not-yet-logged-in adapter (it logs in on first use). `secrets` has `.password` or is the password.
    `now` is the wall clock, for dates the board prints relative to the fetch ("Today at 04:35 AM");
    `stopping` tells the client that the daemon is shutting down (no more retries)."""
    settings = ForumSettings.read(forum_config)
    if settings.engine not in ADAPTERS:
        raise ForumError(f"no HTTP adapter for the forum engine {settings.engine!r}; "
                         f"known: {', '.join(sorted(ADAPTERS))}")
    policy = HttpPolicy(min_interval=settings.min_interval, timeout=settings.timeout, retries=settings.retries)
    client = HttpClient(policy, session=session, clock=clock, sleep=sleep, stopping=stopping)
    password = secrets if isinstance(secrets, str) else secrets.password
    return ADAPTERS[settings.engine](settings, password, client, now=now)


__all__ = ["ADAPTERS", "Forum", "ForumError", "ForumRefused", "ForumSettings", "NoPrivateMessages", "SessionLost",
           "open_forum"]
