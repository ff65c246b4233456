"""Sign-up posts in a game thread → the player list the program proposes to the host.

A post joins its author («в игре», «записываюсь», «+», «я участвую» …) or withdraws him
(«выписываюсь», «не участвую», «я не в игре», «-» …); quotes do not count, the host's own posts are skipped, and
the host confirms the list. Every post read either way is listed so the host can check it.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime
from typing import Iterable

from forumgm.parsers.forums.base import Post

JOIN, LEAVE = "join", "leave"

# Withdrawals are tried first: «не участвую» contains «участвую».
_LEAVE = re.compile(r"\b(?:выписываюсь|выпишите|выписать\s+меня|не\s+участвую|не\s+играю|не\s+смогу\s+играть|"
                    r"не\s+в\s+игре|снимаюсь|отказываюсь|выбываю)\b|^\s*[-−]\s*$", re.I)
_JOIN = re.compile(r"\b(?:в\s+игре|записываюсь|запишите|запиши\s+меня|впишите|я\s+участвую|участвую|играю|"
                   r"я\s+в\s+деле|в\s+деле|хочу\s+играть|я\s+с\s+вами)\b|^\s*\+(?:\s|$|[!.1])", re.I)


@dataclass(frozen=True)
class SignupEntry:
    post_id: str
    author: str
    action: str              # join | leave
    at: datetime | None


@dataclass(frozen=True)
class SignupList:
    players: tuple[str, ...]             # proposed, in the order they joined
    entries: tuple[SignupEntry, ...]     # every post read as a join or a withdrawal


def post_action(text: str) -> str | None:
    """join, leave or None; a question («а кто в игре?») is neither."""
    lines = [line for line in text.splitlines() if not line.strip().endswith("?")]
    if any(_LEAVE.search(line) for line in lines):
        return LEAVE
    if any(_JOIN.search(line) for line in lines):
        return JOIN
    return None


def read_signup(posts: Iterable[Post], host: str | None = None, until: datetime | None = None) -> SignupList:
    """The proposed players from the thread's posts in page order, up to `until` (the close)."""
    players: list[str] = []
    entries: list[SignupEntry] = []
    for post in posts:
        if post.author == host or (until is not None and post.posted_at is not None and post.posted_at > until):
            continue
        action = post_action(post.text_unquoted or post.text)
        if action is None:
            continue
        entries.append(SignupEntry(post.id, post.author, action, post.posted_at))
        if action == JOIN and post.author not in players:
            players.append(post.author)
        elif action == LEAVE and post.author in players:
            players.remove(post.author)
    return SignupList(tuple(players), tuple(entries))
