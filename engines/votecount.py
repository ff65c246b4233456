"""Vote-count posts drafted from a tally: who votes for whom (with links), who has not voted, what was not counted and why."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Sequence

from forumgm.engines.base import DiscardedVote, Tally
from forumgm.engines.phrases import russian_key, russian_sorted
from forumgm.engines.texts import Account, Texts

RUNNING = "votes/running.j2"
NON_PLAYER = "non_player"
FINAL = "votes/final.j2"

PostUrl = Callable[[str], str]


@dataclass(frozen=True)
class VoterLink:
    voter: str
    url: str | None
    text: str
    corrected: bool = False        # the host's correction stands for the voter's posts


@dataclass(frozen=True)
class TallyRow:
    target: str
    voters: tuple[VoterLink, ...]     # in the order they voted

    @property
    def count(self) -> int:
        return len(self.voters)


@dataclass(frozen=True)
class DiscardLine:
    voter: str
    text: str
    reason: str
    detail: str
    url: str | None


def _url(post_id: str | None, post_url: PostUrl) -> str | None:
    return post_url(post_id) if post_id is not None else None


def tally_rows(tally: Tally, post_url: PostUrl) -> list[TallyRow]:
    """Candidates by vote count, most first, then by name in Russian alphabetical order."""
    rows = [TallyRow(target, tuple(VoterLink(v.voter, _url(v.post_id, post_url), v.text, v.entered_by is not None)
                                   for v in votes))
            for target, votes in tally.by_target().items()]
    return sorted(rows, key=lambda row: (-row.count, russian_key(row.target)))


def leaders(rows: Sequence[TallyRow]) -> list[TallyRow]:
    top = max((row.count for row in rows), default=0)
    return [row for row in rows if row.count == top] if top else []


def not_voted(tally: Tally, alive: Sequence[str]) -> list[str]:
    voted = {vote.voter for vote in tally.counted}
    return russian_sorted(nick for nick in alive if nick not in voted)


def discard_voter(vote: DiscardedVote) -> str:
    """Who cast a vote not counted: a non-player's is named by the account that posted it, never
    shown as the seat an account of that name once held (Texts.showing)."""
    return Account(vote.voter) if vote.reason == NON_PLAYER else vote.voter


def discard_lines(tally: Tally, post_url: PostUrl) -> list[DiscardLine]:
    return [DiscardLine(discard_voter(d), d.text, d.reason, d.detail, _url(d.post_id, post_url))
            for d in tally.discarded]


def vote_count_text(texts: Texts, tally: Tally, alive: Sequence[str], post_url: PostUrl, *,
                    final: bool = False, day: int | None = None, as_of: str = "") -> str:
    """The BBCode post: a running count (`as_of` is the time already formatted) or the day's final one."""
    rows = tally_rows(tally, post_url)
    return texts.render(
        FINAL if final else RUNNING,
        rows=rows,
        leaders=leaders(rows),
        not_voted=not_voted(tally, alive),
        discarded=discard_lines(tally, post_url),
        day=day,
        as_of=as_of,
    )
