"""Thread discipline for the host (flags only, never sanctions), over one game day's posts.

Living players must post at least once a day; dead Комиссар, Босс and Мафиози must not post
at all; other dead players and guests at most twice a day.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from datetime import datetime
from typing import Iterable

from forumgm.engines.base import OutgoingPm, Phase
from forumgm.engines.mafia.roles import BOSS, COMMISSAR, MAFIOSO
from forumgm.engines.mafia.state import MafiaState
from forumgm.engines.texts import Texts
from forumgm.parsers.forums.base import Post

SILENCED_ROLES = (COMMISSAR, BOSS, MAFIOSO)
DAILY_LIMIT = 2
DIGEST = "mafia/discipline.j2"
KIND = "discipline"


@dataclass(frozen=True)
class Flag:
    nick: str
    posts: int
    who: str          # silenced (a dead role that may not post) | dead | guest
    role: str = ""


@dataclass(frozen=True)
class Digest:
    silent: tuple[str, ...]           # living players without a post this day
    flags: tuple[Flag, ...]

    @property
    def clean(self) -> bool:
        return not self.silent and not self.flags


def digest(state: MafiaState, posts: Iterable[Post], start: datetime, end: datetime,
           host: str | None = None) -> Digest:
    """The day's digest from the thread's posts timed in [start, end)."""
    counts = Counter(p.author for p in posts
                     if p.author != host and p.posted_at is not None and start <= p.posted_at < end)
    silent = tuple(p.nick for p in state.living() if counts[p.nick] == 0)
    flags = []
    for author, count in counts.items():
        player = state.player(author)
        if player is not None and player.alive:
            continue
        if player is not None and player.role in SILENCED_ROLES:
            flags.append(Flag(author, count, "silenced", player.role))
        elif count > DAILY_LIMIT:
            flags.append(Flag(author, count, "guest" if player is None else "dead"))
    return Digest(silent, tuple(flags))


def digest_text(result: Digest, texts: Texts) -> str:
    return texts.render(DIGEST, silent=list(result.silent), flags=list(result.flags), limit=DAILY_LIMIT)


def host_digest(state: MafiaState, phase: Phase, posts: Iterable[Post], start: datetime, end: datetime,
                host: str, texts: Texts) -> OutgoingPm:
    """The digest of the game day [start, end) as a PM to the host (drafted, he reads it)."""
    return OutgoingPm(host, KIND, digest_text(digest(state, posts, start, end, host), texts),
                      subject=f"Дисциплина в теме, игровой день {phase.number}")
