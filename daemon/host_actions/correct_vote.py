"""The host corrects, adds or annuls a player's vote in the thread for a day (open or resolved).

The text is the name as the player would have written it in colour; the tally reads it as his vote
with the day's own rules (names, who may vote, who may be voted for) and counts it instead of what
his posts cast. An annulment has no text: no vote of his counts that day. The posts stay as they
were: the tally lists their votes as not counted, replaced by the host's correction or annulled by
him, and a corrected vote says it is the host's. Correcting (or annulling) again replaces the earlier
correction. There is no receipt: the vote counts show the correction to everyone.

The running vote counts of the open day drafted before the correction and not sent yet are drafted
again from the new tally; one the host edited is left as he wrote it (his words are not overwritten)
and he is shown how the new count differs, as a re-run shows a draft's change. A count already posted
stays as posted: the next count shows the change.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from forumgm.daemon.drafts.compose import draft
from forumgm.daemon.drafts.phase_names import phase_label
from forumgm.daemon.host_actions.outcome_diff import text_diff
from forumgm.daemon.store import OPEN_DRAFT_STATUSES, Store, StoreError
from forumgm.daemon.tick.votes import RUNNING_KIND, phase_vote_rules, record_votes, vote_count_body
from forumgm.engines.base import CountedVote, Tally
from forumgm.engines.tally import HostVote, judge_host_vote

if TYPE_CHECKING:
    from forumgm.daemon.host_actions.correct import Target

REASON_TEMPLATE = "votes/reason.j2"


@dataclass(frozen=True)
class KeptDraft:
    """A running count the host had edited: left as he wrote it, with how the new count differs."""

    id: int
    lines: tuple[str, ...]         # the unified diff of his text and the count drafted now


@dataclass(frozen=True)
class VoteCorrection:
    ref: str                       # its id among the game's vote corrections ("vote-1")
    player: str
    vote: CountedVote | None       # how the tally counts it; None: annulled, no vote of his counts
    replaced: tuple[dict, ...]     # what the tally had from him: his posts' votes, or an earlier correction
    phase_resolved: bool           # a re-run is needed for the correction to count
    redrafted: tuple[tuple[int, int], ...] = ()   # running counts drafted again: (old draft, new draft)
    kept: tuple[KeptDraft, ...] = ()              # running counts the host edited, left as he wrote them

    @property
    def annulled(self) -> bool:
        return self.vote is None


def correct_vote(game, store: Store, target: "Target", text: str, by: str) -> VoteCorrection:
    """Inside the caller's transaction: record the correction (refused when it is no vote the player
    could cast that day), count the open day again at once, audit what it replaced."""
    rules = phase_vote_rules(game, target.state, target.phase, target.row)
    judged = judge_host_vote(HostVote(target.player, text, target.at, by), game.roster(store, target.at), rules)
    if not isinstance(judged, CountedVote):
        why = game.texts.render(REASON_TEMPLATE, reason=judged.reason, detail=judged.detail or "")
        raise StoreError(f"«{text}» — не голос, который {target.player} может отдать в фазе "
                         f"«{phase_label(game.rules, target.row['key'])}»: {why}")
    return _record(game, store, target, text, by, judged)


def annul_vote(game, store: Store, target: "Target", by: str) -> VoteCorrection:
    """Inside the caller's transaction: no thread vote of the player counts in the phase (refused for a
    player who may not vote in it: there is nothing to annul), the open day counted again at once."""
    rules = phase_vote_rules(game, target.state, target.phase, target.row)
    if target.player not in rules.voters:
        raise StoreError(f"игрок {target.player} не голосует в фазе «{phase_label(game.rules, target.row['key'])}» "
                         "(вне игры или в этот день не среди голосующих): аннулировать нечего")
    return _record(game, store, target, "", by, None)


def _record(game, store: Store, target: "Target", text: str, by: str, vote: CountedVote | None) -> VoteCorrection:
    player, phase_key = target.player, target.row["key"]
    replaced = [_vote_row(row) for row in store.votes(game.id, phase_key)
                if row["voter"] == player and not row["entered_by"]]
    row, earlier = store.record_vote_correction(game.id, phase_key, player, target.at, text, by, annulled=vote is None)
    if earlier is not None:
        replaced.append({"correction": ref(earlier["id"]), "text": earlier["text"],
                         "annulled": bool(earlier["annulled"]), "entered_by": earlier["entered_by"]})
    redrafted: tuple[tuple[int, int], ...] = ()
    kept: tuple[KeptDraft, ...] = ()
    if not target.resolved:     # the open day's tally shows it now; a resolved one keeps its count until re-run
        tally = record_votes(game, store, target.state, target.phase, target.row)
        redrafted, kept = redraft_running_counts(game, store, target, tally)
    detail = {"game": game.id, "phase": phase_key, "player": player, "correction": ref(row["id"]),
              "replaced": replaced, "redrafted": [list(pair) for pair in redrafted],
              "kept_edited": [draft.id for draft in kept]}
    if vote is not None:
        detail.update(text=text, vote=vote.target)
    store.audit(by, "vote.annul" if vote is None else "vote.correct", detail)
    return VoteCorrection(ref(row["id"]), player, vote, tuple(replaced), target.resolved, redrafted, kept)


def redraft_running_counts(game, store: Store, target: "Target", tally: Tally
                           ) -> tuple[tuple[tuple[int, int], ...], tuple[KeptDraft, ...]]:
    """The open day's running counts not sent yet, drafted again from the corrected tally (the same
    interval, as of the correction), each superseding the old one; one the host edited is kept as he
    wrote it, beside how the new count differs. ((old, new) pairs, the kept ones)"""
    body = vote_count_body(game, target.state, target.phase, tally, as_of=target.at)
    redrafted, kept = [], []
    for old in store.drafts(game_id=game.id):
        if (old["kind"], old["phase_key"]) != (RUNNING_KIND, target.row["key"]) \
                or old["status"] not in OPEN_DRAFT_STATUSES:
            continue
        if store.draft_edits(old["id"]):
            kept.append(KeptDraft(old["id"], text_diff(old["body"], body)))
            continue
        store.supersede(old["id"])
        redrafted.append((old["id"], draft(store, game.id, RUNNING_KIND, old["target"], body, old["phase_key"],
                                           approval=game.config.approval, ref=old["ref"])))
    return tuple(redrafted), tuple(kept)


def ref(correction_id: int) -> str:
    """A vote correction's name for the host (the store's row id)."""
    return f"vote-{correction_id}"


def _vote_row(row: dict) -> dict:
    """A stored vote of the player's posts, as the audit log keeps what a correction replaced."""
    out = {"post_id": row["post_id"], "text": row["text"], "counted": bool(row["counted"])}
    out.update({"target": row["target"]} if row["counted"] else {"reason": row["reason"]})
    return out
