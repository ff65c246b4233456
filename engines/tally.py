"""Counting a day's thread votes: which coloured nicknames count, and why the others do not.

Pure: the daemon hands in every stored version of every post of the day; the deadline decides
which version of each post stands. A vote is timed at the version where it appeared (a post's
first version is timed when it was posted, an edit when it was made), so an edit can change a
vote before the deadline and never after it.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Iterable, Sequence

from forumgm.engines.base import CountedVote, DiscardedVote, Tally
from forumgm.parsers.forums.base import ColoredFragment, Post
from forumgm.parsers.names import Resolved, Roster, account_player, clean, fold_key, resolve_name

# Discard reasons (machine codes; the Russian labels live in config/templates/votes/reasons.j2).
REASONS = (
    "after_deadline", "before_open", "quoted", "spoiler", "code", "non_player", "dead_voter",
    "ambiguous", "ambiguous_name", "unknown_name", "dead_target", "superseded", "changed_not_allowed", "repeated",
    "hidden_post", "corrected", "annulled",
)
# Not a reason of the count itself: the as-of view (daemon/tick/as_of.py) sets aside with it a
# player's name written in a colour that is not a vote's, as a hand count would.
OTHER_COLOR = "other_color"
_WHERE_REASON = {"quote": "quoted", "spoiler": "spoiler", "code": "code"}


@dataclass(frozen=True)
class VotePostVersion:
    """One version of one post as the store kept it (the first version is the post itself)."""

    post_id: str
    author: str
    posted_at: datetime | None
    version_at: datetime        # posted_at for the first version, the edit (or first-seen) time after
    colored: tuple[ColoredFragment, ...] = ()
    flagged: tuple[ColoredFragment, ...] = ()
    hidden: bool = False        # the board hides the post from members (soft-deleted, unapproved): no vote

    @classmethod
    def of_post(cls, post: Post, version_at: datetime | None = None) -> "VotePostVersion":
        """A parsed post as one version, timed at its edit when the forum shows one."""
        if version_at is None:
            version_at = post.edited_at if isinstance(post.edited_at, datetime) else post.posted_at
        return cls(post.id, post.author, post.posted_at, version_at, post.colored, post.flagged, post.hidden)


@dataclass(frozen=True)
class HostVote:
    """The host's correction of one player's vote of the day: it stands for whatever his posts say."""

    voter: str                  # the player's canonical nickname
    text: str                   # the name as the player would have written it in colour ("" when annulled)
    at: datetime                # timed inside the day, so that it takes its place among the votes
    entered_by: str
    annulled: bool = False      # the host annulled his vote: none counts, whatever his posts say


@dataclass(frozen=True)
class VoteRules:
    colors: frozenset[str]                  # "#rrggbb", see forumgm.parsers.colors.normalize_color
    voters: frozenset[str]                  # who may vote: the living players
    candidates: frozenset[str]              # who may be voted for
    policy: str = "last"                    # "last": the last vote counts; "first": the first does
    allow_change: bool = True               # False counts the first vote whatever the policy
    abstain_token: str | None = None        # e.g. "не судить"
    opens: datetime | None = None           # votes before this are not for this day

    def __post_init__(self) -> None:
        if self.policy not in ("last", "first"):
            raise ValueError(f"vote policy must be 'last' or 'first', not {self.policy!r}")

    @property
    def first_counts(self) -> bool:
        return self.policy == "first" or not self.allow_change


@dataclass(frozen=True)
class _Ballot:
    """The vote one post shows in one run of its versions."""

    author: str
    post_id: str
    at: datetime
    texts: tuple[str, ...]


@dataclass(frozen=True)
class _NoTarget:
    reason: str
    detail: str = ""


@dataclass(frozen=True)
class _Valid:
    vote: CountedVote
    order: int


# ---------------------------------------------------------------- posts -> ballots

def _vote_texts(version: VotePostVersion, rules: VoteRules) -> tuple[str, ...]:
    return tuple(f.text for f in version.colored
                 if not f.where and f.color in rules.colors and clean(f.text))


def _vote_key(texts: Sequence[str]) -> tuple[str, ...]:
    return tuple(sorted({fold_key(clean(text)) for text in texts}))


def _runs(versions: Sequence[VotePostVersion], rules: VoteRules) -> list[_Ballot]:
    """Each distinct vote a post showed, in order, timed at the version where it appeared."""
    ballots: list[_Ballot] = []
    previous: tuple[str, ...] = ()
    for version in versions:
        texts = _vote_texts(version, rules)
        key = _vote_key(texts)
        if key and key != previous:
            ballots.append(_Ballot(version.author, version.post_id, version.version_at, texts))
        previous = key
    return ballots


def _not_counted_fragments(version: VotePostVersion, rules: VoteRules, voter: str) -> list[DiscardedVote]:
    """Vote-coloured text the parser found in a quote, spoiler or code block."""
    return [DiscardedVote(voter, f.text, _WHERE_REASON.get(f.where, "spoiler"), version.post_id)
            for f in version.colored + version.flagged
            if f.where and f.color in rules.colors and clean(f.text)]


def _post_ballots(versions: Sequence[VotePostVersion], deadline: datetime, rules: VoteRules,
                  roster: Roster) -> tuple[list[_Ballot], list[DiscardedVote]]:
    # the deadline is the first moment too late, as for an order PM; on a board that shows only the
    # minute (MyBB, SMF) a post shown at the deadline's minute was made within the minute after it
    before = [v for v in versions if v.version_at < deadline]
    after = [v for v in versions if v.version_at >= deadline]
    discarded: list[DiscardedVote] = []
    ballots = _runs(before, rules)
    if before:
        voter = _voter_name(before[-1], roster)
        discarded += _not_counted_fragments(before[-1], rules, voter)
        if not rules.first_counts:
            # Only the standing version's vote is a vote; edited-away ones were never cast.
            standing = _vote_key(_vote_texts(before[-1], rules))
            ballots = ballots[-1:] if ballots and _vote_key(ballots[-1].texts) == standing else []
    if after:
        late = _vote_texts(after[-1], rules)
        standing_key = _vote_key(_vote_texts(before[-1], rules)) if before else ()
        if late and _vote_key(late) != standing_key:
            discarded.append(DiscardedVote(_voter_name(after[-1], roster), ", ".join(late),
                                           "after_deadline", after[-1].post_id))
    return ballots, discarded


# ---------------------------------------------------------------- one ballot -> counted or discarded

def _voter_name(version: VotePostVersion, roster: Roster) -> str:
    return account_player(version.author, roster, version.version_at) or version.author


def _target(texts: Sequence[str], roster: Roster, rules: VoteRules) -> str | _NoTarget:
    """The one player (or the abstain token) a post votes for, or why there is none."""
    abstain = fold_key(rules.abstain_token) if rules.abstain_token else None
    named: dict[str, str] = {}
    unresolved = []
    for text in texts:
        if abstain is not None and fold_key(clean(text)) == abstain:
            named.setdefault(rules.abstain_token, text)
            continue
        found = resolve_name(text, roster)
        if isinstance(found, Resolved):
            named.setdefault(found.nick, text)
        else:
            unresolved.append(found)
    distinct = len(named) + len({fold_key(u.text) for u in unresolved})
    if distinct > 1:
        names = list(named) + [u.text for u in unresolved]
        return _NoTarget("ambiguous", ", ".join(names))
    if unresolved:
        found = unresolved[0]
        return _NoTarget("ambiguous_name" if found.reason == "ambiguous" else "unknown_name",
                         ", ".join(found.candidates))
    return next(iter(named))


def _judge(ballot: _Ballot, roster: Roster, rules: VoteRules,
           entered_by: str | None = None) -> CountedVote | DiscardedVote:
    text = ", ".join(ballot.texts)
    if entered_by is None:     # a post's author: the seat he held when he cast it
        voter = account_player(ballot.author, roster, ballot.at)
    else:                      # the host names the player himself
        voter = ballot.author if ballot.author in roster.players else account_player(ballot.author, roster)

    def discard(reason: str, detail: str = "") -> DiscardedVote:
        return DiscardedVote(voter or ballot.author, text, reason, ballot.post_id, detail)

    if entered_by is None and rules.opens is not None and ballot.at < rules.opens:
        return discard("before_open")
    if voter is None:
        return discard("non_player")
    if voter not in rules.voters:
        return discard("dead_voter")
    target = _target(ballot.texts, roster, rules)
    if isinstance(target, _NoTarget):
        return discard(target.reason, target.detail)
    if target != rules.abstain_token and target not in rules.candidates:
        return discard("dead_target", target)
    return CountedVote(voter, target, ballot.post_id, ballot.at, text, entered_by)


def judge_host_vote(vote: HostVote, roster: Roster, rules: VoteRules) -> CountedVote | DiscardedVote:
    """The host's correction read as the player's vote: the same names, voters and candidates."""
    return _judge(_Ballot(vote.voter, None, vote.at, (vote.text,)), roster, rules, vote.entered_by)


# ---------------------------------------------------------------- one vote per voter

def _apply_policy(valid: Sequence[_Valid], rules: VoteRules) -> tuple[list[CountedVote], list[DiscardedVote]]:
    by_voter: dict[str, list[CountedVote]] = {}
    for item in sorted(valid, key=lambda item: (item.vote.at, item.order)):
        by_voter.setdefault(item.vote.voter, []).append(item.vote)
    counted, discarded = [], []
    for votes in by_voter.values():
        if rules.first_counts:
            chosen, others = votes[0], votes[1:]
        else:
            chosen, others = votes[-1], votes[:-1]
        counted.append(chosen)
        for vote in others:
            discarded.append(DiscardedVote(vote.voter, vote.text, _reason_for_other(vote, chosen, rules),
                                           vote.post_id, chosen.target))
    return counted, discarded


def _reason_for_other(vote: CountedVote, chosen: CountedVote, rules: VoteRules) -> str:
    if vote.target == chosen.target:
        return "repeated"
    return "changed_not_allowed" if rules.first_counts else "superseded"


# ---------------------------------------------------------------- the tally

def _posts(versions: Iterable[VotePostVersion]) -> list[list[VotePostVersion]]:
    grouped: dict[str, list[VotePostVersion]] = {}
    for version in versions:
        grouped.setdefault(version.post_id, []).append(version)
    return [sorted(group, key=lambda v: v.version_at) for group in grouped.values()]


def count_votes(versions: Iterable[VotePostVersion], roster: Roster, rules: VoteRules,
                deadline: datetime, corrections: Sequence[HostVote] = ()) -> Tally:
    """Every vote-coloured fragment of the day, either counted or discarded with a reason. A player
    the host corrected votes as the correction says, one whose vote he annulled for nobody: what his
    posts cast is set aside ("corrected", "annulled")."""
    valid: list[_Valid] = []
    discarded: list[DiscardedVote] = []
    for post in _posts(versions):
        # hidden as the post stood at the deadline: what a moderator does after it changes nothing
        standing = ([v for v in post if v.version_at < deadline] or post)[-1]
        if standing.hidden:
            texts = _vote_texts(standing, rules)
            if texts:
                discarded.append(DiscardedVote(_voter_name(standing, roster), ", ".join(texts), "hidden_post",
                                               standing.post_id))
            continue
        ballots, not_counted = _post_ballots(post, deadline, rules, roster)
        discarded += not_counted
        for ballot in ballots:
            judged = _judge(ballot, roster, rules)
            if isinstance(judged, CountedVote):
                valid.append(_Valid(judged, len(valid)))
            else:
                discarded.append(judged)
    counted, replaced = _apply_policy(valid, rules)
    corrected = {vote.voter: None if vote.annulled else judge_host_vote(vote, roster, rules) for vote in corrections}
    for vote in [vote for vote in counted if vote.voter in corrected]:
        counted.remove(vote)
        discarded.append(_set_aside(vote, corrected[vote.voter]))
    for instead in filter(None, corrected.values()):
        (counted if isinstance(instead, CountedVote) else discarded).append(instead)
    return Tally(tuple(sorted(counted, key=lambda v: v.at)), tuple(discarded + replaced))


def _set_aside(vote: CountedVote, instead: CountedVote | DiscardedVote | None) -> DiscardedVote:
    """What the player's posts cast, set aside for the host's correction (None: he annulled the vote)."""
    if instead is None:
        return DiscardedVote(vote.voter, vote.text, "annulled", vote.post_id)
    return DiscardedVote(vote.voter, vote.text, "corrected", vote.post_id,
                         instead.target if isinstance(instead, CountedVote) else instead.text)
