"""The host corrects, or adds, a player's vote in the thread for a day (open or resolved).

The text is the name as the player would have written it in colour; the tally reads it as his vote
with the day's own rules (names, who may vote, who may be voted for) and counts it instead of what
his posts cast. The posts stay as they were: the tally lists their votes as not counted, replaced by
the host's correction, and the counted vote says it is the host's. Correcting again replaces the
earlier correction. There is no receipt: the vote counts show the correction to everyone.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from forumgm.daemon.store import Store, StoreError
from forumgm.daemon.votes import phase_vote_rules, record_votes
from forumgm.engines.base import CountedVote
from forumgm.engines.tally import HostVote, judge_host_vote

if TYPE_CHECKING:
    from forumgm.daemon.host_actions.correct import Target


@dataclass(frozen=True)
class VoteCorrection:
    ref: str                       # its id among the game's vote corrections ("vote-1")
    player: str
    vote: CountedVote              # how the tally counts it
    replaced: tuple[dict, ...]     # what the tally had from him: his posts' votes, or an earlier correction
    phase_resolved: bool           # a re-run is needed for the correction to count


def correct_vote(game, store: Store, target: "Target", text: str, by: str) -> VoteCorrection:
    """Inside the caller's transaction: record the correction (refused when it is no vote the player
    could cast that day), count the open day again at once, audit what it replaced."""
    player, phase_key = target.player, target.row["key"]
    rules = phase_vote_rules(game, target.state, target.phase, target.row)
    judged = judge_host_vote(HostVote(player, text, target.at, by), game.roster(), rules)
    if not isinstance(judged, CountedVote):
        detail = f" ({judged.detail})" if judged.detail else ""
        raise StoreError(f"«{text}» is no vote {player} can cast in {phase_key}: {judged.reason}{detail}")
    replaced = [_vote_row(row) for row in store.votes(game.id, phase_key)
                if row["voter"] == player and not row["entered_by"]]
    row, earlier = store.record_vote_correction(game.id, phase_key, player, target.at, text, by)
    if earlier is not None:
        replaced.append({"correction": ref(earlier["id"]), "text": earlier["text"],
                         "entered_by": earlier["entered_by"]})
    if not target.resolved:     # the open day's tally shows it now; a resolved one keeps its count until re-run
        record_votes(game, store, target.state, target.phase, target.row)
    store.audit(by, "vote.correct", {"game": game.id, "phase": phase_key, "player": player, "text": text,
                                     "vote": judged.target, "correction": ref(row["id"]), "replaced": replaced})
    return VoteCorrection(ref(row["id"]), player, judged, tuple(replaced), target.resolved)


def ref(correction_id: int) -> str:
    """A vote correction's name for the host (the store's row id)."""
    return f"vote-{correction_id}"


def _vote_row(row: dict) -> dict:
    """A stored vote of the player's posts, as the audit log keeps what a correction replaced."""
    out = {"post_id": row["post_id"], "text": row["text"], "counted": bool(row["counted"])}
    out.update({"target": row["target"]} if row["counted"] else {"reason": row["reason"]})
    return out
