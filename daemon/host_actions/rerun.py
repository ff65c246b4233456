"""Re-running a resolved phase: first what would change, then, only when the host confirms, the change.

The preview runs the very re-run the confirmation would (`tick.resolve_once` from the phase's
snapshot, with the orders in force now) inside a transaction that is rolled back, so the diff is
exactly what confirming does and nothing is superseded before the host says so. A draft of the old
outcome that was already sent is not sent again: when the new outcome words it the same, its new
twin is dropped; when it differs, or the pictures it carries (a turn report's map) differ, the new
text goes out as a correction post (or PM) with its pictures.
"""
from __future__ import annotations

from datetime import datetime

from forumgm.daemon.host_actions.outcome_diff import DraftText, OutcomeDiff, PhaseOutcome, outcome_diff, paired
from forumgm.daemon.phase_names import phase_label
from forumgm.daemon.store import Store, StoreError

CORRECTION_TEMPLATE = "common/correction_post.j2"


class _Undo(Exception):
    def __init__(self, diff: OutcomeDiff) -> None:
        super().__init__("preview")
        self.diff = diff


def preview_rerun(game, store: Store, phase_key: str, now: datetime) -> OutcomeDiff:
    """The diff of the old and the new outcome; the store is left as it was."""
    try:
        with store.transaction():
            raise _Undo(_rerun(game, store, phase_key, now, "preview"))
    except _Undo as undo:
        return undo.diff


def confirm_rerun(game, store: Store, phase_key: str, by: str, now: datetime,
                  expected: str | None = None) -> OutcomeDiff:
    """Re-run for good; with `expected` (the digest of the diff the host saw) only if the outcome is still that."""
    with store.transaction():
        diff = _rerun(game, store, phase_key, now, by)
        if expected is not None and diff.digest() != expected:
            raise StoreError(f"{game.id} {phase_key}: the outcome is no longer the one shown (an order or the "
                             "thread changed since); look at the new difference and confirm again")
        return diff


def _rerun(game, store: Store, phase_key: str, now: datetime, by: str) -> OutcomeDiff:
    from forumgm.daemon.tick import resolve_once    # tick imports the host actions it honours (pause)

    row = store.phase(game.id, phase_key)
    old = store.current_resolution(game.id, phase_key)
    if row is None or old is None:
        raise StoreError(f"{game.id}: phase {phase_key!r} is not resolved; nothing to re-run")
    before = phase_outcome(store, old["id"])
    resolve_once(game, store, phase_key, row["deadline"], now, rerun=True, by=by)
    new = store.current_resolution(game.id, phase_key)
    _answer_sent_drafts(game, store, new["id"], phase_key)
    return outcome_diff(before, phase_outcome(store, new["id"]))


def phase_outcome(store: Store, resolution_id: int) -> PhaseOutcome:
    snapshot, eliminations, drafts = store.resolution_outcome(resolution_id)
    return PhaseOutcome(
        eliminations=tuple((row["nick"], row["cause"]) for row in eliminations),
        state=snapshot["state"] if snapshot else None,
        drafts=tuple(DraftText(d["id"], d["kind"], d["target"], d["status"], d["body"], tuple(d["pictures"] or ()))
                     for d in drafts),
    )


def _answer_sent_drafts(game, store: Store, resolution_id: int, phase_key: str) -> None:
    """New drafts whose twin was sent by an earlier resolution of the phase: dropped when the text is
    the one sent, a correction when not."""
    sent: dict[tuple, DraftText] = {}
    for earlier in store.resolutions(game.id, phase_key):
        if earlier["id"] != resolution_id:
            for key, draft in paired(phase_outcome(store, earlier["id"]).drafts).items():
                if draft.status in ("sent", "sending"):
                    sent[key] = draft
    for key, draft in paired(phase_outcome(store, resolution_id).drafts).items():
        twin = sent.get(key)
        if twin is None:
            continue
        correction = game.texts.render(CORRECTION_TEMPLATE, phase=phase_label(phase_key), body=draft.body)
        if twin.body in (draft.body, correction) and twin.pictures == draft.pictures:
            store.supersede(draft.id)
        else:
            store.set_draft_body(draft.id, correction)
