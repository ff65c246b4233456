"""Thread votes in the daemon: the stored post versions timed for the tally, the phase's counting
rules with the game config's overrides, the running tally kept in the store, and vote-count drafts.

`forumgm simulate` counts the same way from BBCode posts (one version each, timed in order), so
both give the same tally from the same posts.
"""
from __future__ import annotations

from datetime import datetime
from typing import Any

from forumgm.daemon.drafts.compose import draft
from forumgm.daemon.store import Store
from forumgm.daemon.store.orders import order_pms
from forumgm.daemon.store.posts import CLOCK_SKEW
from forumgm.daemon.tick.notices import KIND as NOTICE_KIND
from forumgm.daemon.tick.phase_play import vote_rules_for
from forumgm.engines.base import CountedVote, DiscardedVote, Phase, Tally
from forumgm.engines.tally import HostVote, VotePostVersion, VoteRules, count_votes
from forumgm.engines.votecount import vote_count_text
from forumgm.parsers.colors import normalize_color
from forumgm.parsers.forums.base import ColoredFragment
from forumgm.parsers.names import account_player

RUNNING_KIND = "vote_count"
BLUE = frozenset({"#0000ff"})      # "a nickname in blue", for a game that names no vote colours
THREAD_VOTE_TEMPLATE = "common/notice_thread_vote.j2"


def phase_vote_rules(game, state: Any, phase: Phase, phase_row: dict) -> VoteRules | None:
    """The engine's rules for the phase; the game config's colours and policy win over the rule table's."""
    return vote_rules_for(game.rules.vote_rules(state, phase), game.config.vote_colors, game.config.vote_policy,
                          phase_row["opens_at"])


def count_phase_votes(game, store: Store, state: Any, phase: Phase, phase_row: dict,
                      cutoff: datetime) -> Tally | None:
    """The phase's tally from every post version timed up to the cutoff (None: the phase takes no votes)."""
    rules = phase_vote_rules(game, state, phase, phase_row)
    if rules is None:
        return None
    since = _previous_deadline(store, game.id, phase_row)
    return count_votes(vote_versions(store, game.id, since, cutoff, game.account), game.roster(store, cutoff), rules, cutoff,
                       host_votes(store, game.id, phase.key))


def host_votes(store: Store, game_id: str, phase_key: str) -> list[HostVote]:
    """The host's corrections of the phase's thread votes in force (forumgm correct)."""
    return [HostVote(row["voter"], row["text"], row["cast_at"], row["entered_by"], bool(row["annulled"]))
            for row in store.vote_corrections(game_id, phase_key)]


def pm_vote_tally(game, store: Store, state: Any, phase: Phase) -> Tally | None:
    """The day votes of a game that takes them by PM (Mafia), from the phase's orders so far; None for
    a game whose votes are in the thread (Rules.pm_vote_tally's default)."""
    return game.rules.pm_vote_tally(state, phase, order_pms(store.orders(game.id, phase.key), game.seats(store)))


def stored_tally(store: Store, game_id: str, phase_key: str) -> Tally:
    """The phase's thread votes as the daemon last counted and kept them (record_votes)."""
    rows = store.votes(game_id, phase_key)
    return Tally(tuple(CountedVote(row["voter"], row["target"], row["post_id"], row["cast_at"], row["text"],
                                   row["entered_by"]) for row in rows if row["counted"]),
                 tuple(DiscardedVote(row["voter"], row["text"], row["reason"] or "", row["post_id"], row["detail"] or "")
                       for row in rows if not row["counted"]))


def note_thread_votes(game, store: Store, phase: Phase, phase_row: dict) -> list[int]:
    """A blue nickname in the thread of a game that votes by PM counts for nothing: the host gets one
    notice per player and day, to tell the player if he wishes. The ids of the notices drafted now."""
    colors = frozenset(filter(None, (normalize_color(c) for c in game.config.vote_colors))) or BLUE
    since = _previous_deadline(store, game.id, phase_row)
    roster = game.roster(store)
    made = []
    for version in vote_versions(store, game.id, since, phase_row["deadline"], game.account):
        voted = [f.text for f in version.colored if f.color in colors and not f.where]
        nick = account_player(version.author, roster, version.version_at) if voted else None
        if nick is None:
            continue
        zone = game.config.time_zone
        body = game.texts.render(THREAD_VOTE_TEMPLATE, nick=nick, text=voted[0], game=game.id, day=phase.number,
                                 time=f"{version.version_at.astimezone(zone):%d.%m.%Y %H:%M}",
                                 link=game.post_url(version.post_id))
        made.append(draft(store, game.id, NOTICE_KIND, game.account, body, phase.key, approval=game.config.approval,
                          ref=f"thread_vote:{phase.key}:{nick}", subject=f"Голос в теме: {nick}"))
    return made


def record_votes(game, store: Store, state: Any, phase: Phase, phase_row: dict,
                 cutoff: datetime | None = None) -> Tally | None:
    """Count and keep the tally (counted and discarded votes, each with its post) in the store."""
    tally = count_phase_votes(game, store, state, phase, phase_row, cutoff or phase_row["deadline"])
    if tally is not None:
        store.replace_votes(game.id, phase.key, tally.counted, tally.discarded)
    return tally


def _previous_deadline(store: Store, game_id: str, phase_row: dict) -> datetime | None:
    """Votes of an earlier phase of the same kind are that phase's business, not this one's."""
    earlier = [p["deadline"] for p in store.phases(game_id)
               if p["kind"] == phase_row["kind"] and p["deadline"] < phase_row["deadline"]]
    return max(earlier, default=None)


# ---------------------------------------------------------------- post versions -> tally input

def vote_versions(store: Store, game_id: str, since: datetime | None, cutoff: datetime,
                  own_account: str = "") -> list[VotePostVersion]:
    """Every stored version of every player's post not deleted before the cutoff, timed as tally.py
    expects; versions timed before `since` belong to an earlier phase. The host's own posts (the
    daemon's account) are no votes."""
    deleted = store.deleted_post_ids(game_id, cutoff)
    # a version is seen after it was cast: posts last seen well before `since` cannot hold this
    # phase's votes, and a tick need not read the whole thread
    rows = store.post_versions(game_id) if since is None else store.recent_post_versions(game_id, since - CLOCK_SKEW)
    by_post: dict[str, list[dict]] = {}
    for row in rows:
        if row["post_id"] not in deleted and row["author"].casefold() != own_account.casefold():
            by_post.setdefault(row["post_id"], []).append(row)
    versions = []
    for rows in by_post.values():
        for row, at in zip(rows, version_times(rows)):
            if since is None or at > since:
                versions.append(VotePostVersion(
                    post_id=row["post_id"], author=row["author"], posted_at=row["posted_at"], version_at=at,
                    colored=tuple(ColoredFragment(**f) for f in row["colored"]),
                    flagged=tuple(ColoredFragment(**f) for f in row["flagged"]),
                    # soft-deleted or unapproved, shown to the host only: from the sighting that showed it so
                    hidden=bool(row["hidden"]),
                ))
    return versions


def version_times(rows: list[dict]) -> list[datetime]:
    """When each version's vote was cast (one post's versions, oldest first).

    The first version: its edit time when the forum shows one (the vote may come from that edit),
    else the post time, else when it was first seen. A later version: the same time as the one
    before when its coloured text did not change (a typo fixed after the deadline keeps the vote),
    else the edit time the forum shows, or the time it was seen when the forum shows no newer one.
    A version the board shows hidden (or no longer hidden) is timed when it was seen so: no board
    dates a soft delete or a restore.
    """
    times: list[datetime] = []
    previous: dict | None = None
    for row in rows:
        if previous is None:
            at = row["edited_at"] or row["posted_at"] or row["seen_at"]
        elif _colored(row) == _colored(previous) and row["hidden"] == previous["hidden"]:
            at = times[-1]
        elif row["edited_at"] and row["edited_at"] > previous["seen_at"]:
            at = row["edited_at"]
        else:
            at = row["seen_at"]
        times.append(at)
        previous = row
    return times


def _colored(row: dict) -> list[tuple[str, str]]:
    return [(f["color"], f["text"]) for f in row["colored"] if not f["where"]]


# ---------------------------------------------------------------- vote-count drafts

def post_urls(game, tally: Tally | None) -> dict[str, str]:
    """post id -> link, for every vote of the tally whose post the forum can link to."""
    ids = {v.post_id for v in (tally.counted + tally.discarded if tally else ()) if v.post_id}
    return {post_id: url for post_id in sorted(ids) if (url := game.post_url(post_id))}


def vote_count_body(game, state: Any, phase: Phase, tally: Tally, *, final: bool = False,
                    as_of: datetime | None = None) -> str:
    moment = as_of.astimezone(game.config.time_zone).strftime("%d.%m %H:%M") if as_of else ""
    return vote_count_text(game.texts, tally, game.rules.alive(state), game.post_url, final=final,
                           day=phase.number, as_of=moment)


def running_slot(game, phase_row: dict, now: datetime) -> int | None:
    """Which running count is due now (1 after the first interval, 2 after the second, ...), or None."""
    every = game.config.vote_count_every
    opens = phase_row["opens_at"] or phase_row["deadline"]
    if every is None or not opens + every <= now < phase_row["deadline"]:
        return None
    return int((now - opens) / every)


def draft_running_count(game, store: Store, state: Any, phase: Phase, phase_row: dict, tally: Tally,
                        now: datetime) -> int | None:
    """One running vote-count draft per interval of the open phase (never twice for an interval)."""
    slot = running_slot(game, phase_row, now)
    if slot is None:
        return None
    return draft(store, game.id, RUNNING_KIND, "thread", vote_count_body(game, state, phase, tally, as_of=now),
                 phase.key, approval=game.config.approval, ref=f"{RUNNING_KIND}:{phase.key}:{slot}")
