"""The thread votes as they stood right after one post (`forumgm votes --as-of`, the host's page).

The tally is the phase's own count, cut at that post: the posts before it in the thread and it,
each as it read then (an edit made later is not yet there, a post deleted later still is), the
host's corrections timed up to then. Every vote-coloured text that does not count carries its
reason, as in a vote-count post; so does a player's name written in another colour, which a
hand count would look at and set aside.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from forumgm.daemon.store import Store
from forumgm.daemon.tick.votes import host_votes, phase_vote_rules, previous_deadline, vote_count_body, vote_versions
from forumgm.engines.base import DiscardedVote, Phase, Tally
from forumgm.engines.tally import OTHER_COLOR, VotePostVersion, count_votes
from forumgm.parsers.names import Resolved, Roster, account_player, clean, resolve_name

# A version timed exactly at the post counts: the tally's deadline is the first moment too late.
_JUST_AFTER = timedelta(microseconds=1)


# Why there is no tally to show: the CLI and the host's page each say it in their own words.
NOT_A_POST, UNKNOWN_POST, AFTER_THE_END, NO_THREAD_VOTES = "not_a_post", "unknown_post", "after_the_end", "no_votes"


class NoTally(Exception):
    def __init__(self, why: str, post: str, phase: str = "") -> None:
        super().__init__(why)
        self.why, self.post, self.phase = why, post, phase


def post_id_of(text: str) -> str:
    """A post's id as the host gives it: the id itself, or the post's link (the id is its last number
    on every board: viewtopic.php?p=9#p9, showthread.php?pid=9#pid9, topic=2.msg9#msg9)."""
    numbers = re.findall(r"\d+", text)
    if not numbers:
        raise NoTally(NOT_A_POST, text)
    return numbers[-1]


@dataclass(frozen=True)
class AsOf:
    post_id: str
    author: str
    moment: datetime            # when the post was written (or first seen, on a board that does not say)
    phase: Phase
    tally: Tally
    body: str                   # the vote-count text of that moment (BBCode), links and reasons included


def tally_as_of(game, store: Store, post_id: str) -> AsOf:
    """The tally right after `post_id` of the game's thread; NoTally says why there is none."""
    posts = store.posts(game.id)
    order = {row["post_id"]: index for index, row in enumerate(posts)}
    if post_id not in order:
        raise NoTally(UNKNOWN_POST, post_id)
    post = posts[order[post_id]]
    moment = post["posted_at"] or post["first_seen_at"]
    phase_row = _phase_at(store, game.id, moment, post_id)
    phase = Phase(phase_row["kind"], phase_row["number"])
    state = game.rules.load(store.snapshot_before(game.id, phase.key)["state"])
    rules = phase_vote_rules(game, state, phase, phase_row)
    if rules is None:
        raise NoTally(NO_THREAD_VOTES, post_id, phase.key)
    since = previous_deadline(store, game.id, phase_row)
    versions = [v for v in vote_versions(store, game.id, since, moment + _JUST_AFTER, game.account)
                if order.get(v.post_id, len(order)) <= order[post_id] and v.version_at <= moment]
    roster = game.roster(store, moment)
    corrections = [vote for vote in host_votes(store, game.id, phase.key) if vote.at <= moment]
    tally = count_votes(versions, roster, rules, moment + _JUST_AFTER, corrections)
    tally = replace(tally, discarded=tally.discarded + _other_colors(versions, rules.colors, roster))
    return AsOf(post_id, post["author"], moment, phase, tally,
                vote_count_body(game, state, phase, tally, as_of=moment))


def _phase_at(store: Store, game_id: str, moment: datetime, post_id: str) -> dict:
    """The phase whose votes a post of that moment is: the first one whose deadline is after it."""
    later = [row for row in store.phases(game_id) if row["deadline"] > moment]
    if not later:
        raise NoTally(AFTER_THE_END, post_id)
    return min(later, key=lambda row: row["deadline"])


def _other_colors(versions: list[VotePostVersion], colors: frozenset[str], roster: Roster) -> tuple[DiscardedVote, ...]:
    """A player's name in a colour that is not a vote's, in each post as it stood: no vote, said so."""
    standing: dict[str, VotePostVersion] = {}
    for version in versions:
        if version.post_id not in standing or version.version_at >= standing[version.post_id].version_at:
            standing[version.post_id] = version
    found = []
    for version in standing.values():
        for fragment in version.colored:
            if fragment.where or fragment.color in colors or not clean(fragment.text):
                continue
            if isinstance(resolve_name(fragment.text, roster), Resolved):
                voter = account_player(version.author, roster, version.version_at) or version.author
                found.append(DiscardedVote(voter, fragment.text, OTHER_COLOR, version.post_id, fragment.color))
    return tuple(found)
