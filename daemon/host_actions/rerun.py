"""Re-running a resolved phase: first what would change, then, only when the host confirms, the change.

A phase resolves again from the state the phase before it left, with the orders and votes in force
now. Every phase resolved after it went on from its old outcome, so each is resolved again in turn,
from the new outcome of the one before, and the host sees one difference for all of them. When the
new outcome changes the course of the game (the rules now end it, or another phase follows) where a
later phase was already played, the re-run is refused: played phases cannot be replayed on another
course. Only the open phase, where nothing was resolved yet, gives way: it leaves the calendar, and
the phase the rules now name (if any) takes its place. So does the end itself: a game its rules had
ended after the last resolved phase, whose new outcome goes on, is reopened with the phase the rules
name now, paused (its deadline, scheduled from the old one, has likely passed: the host sets it, then
resumes the game); one whose new outcome still ends it takes the winner the rules name now. A game
the host finished stays finished.

The preview runs the very re-run the confirmation would (`tick.resolve_once` for each phase) inside
a transaction that is rolled back, so the diff is exactly what confirming does and nothing is
superseded before the host says so. A draft of an old outcome that was already sent is not sent
again: when the new outcome words it the same, its new twin is dropped; when it differs, the new
text goes out as a correction post (or PM). A picture draft lists files, not words: a changed one
goes out as the new picture, as it is.

A draft the host edited and that was not sent yet keeps his work: when the re-run generates the
text he started from, his edit carries over to the new draft; when it generates another text, the
new draft holds his edit beside it (`earlier_edit`), and the diff lists it for his eye.
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import datetime

from forumgm.daemon.drafts.phase_names import phase_label
from forumgm.daemon.host_actions.outcome_diff import DraftText, OutcomeDiff, PhaseOutcome, outcome_diff, paired
from forumgm.daemon.record.final import draft_record
from forumgm.daemon.store import OPEN_DRAFT_STATUSES, Store, StoreError
from forumgm.daemon.tick.finish import engine_result
from forumgm.daemon.tick.flow import resolve_once
from forumgm.daemon.tick.stops import ENGINE
from forumgm.engines.base import Phase

CORRECTION_TEMPLATE = "common/correction_post.j2"


@dataclass(frozen=True)
class EditedDraft:
    """A draft the host had edited before the re-run, as the re-run left his edit."""

    kind: str
    target: str
    draft_id: int               # the new draft
    carried: bool               # True: his text carried over; False: a new text, his edit beside it


@dataclass(frozen=True)
class PhaseRerun:
    phase: str
    diff: OutcomeDiff
    edited: tuple[EditedDraft, ...] = ()

    @property
    def to_check(self) -> tuple[EditedDraft, ...]:
        """The edited drafts whose new text he has not seen: his edit waits beside it."""
        return tuple(e for e in self.edited if not e.carried)


@dataclass(frozen=True)
class RerunDiff:
    """One re-run's difference: the phase asked for, then each later resolved phase, in order."""

    phases: tuple[PhaseRerun, ...]
    dropped: str | None = None          # the open phase the new course no longer leads to
    scheduled: str | None = None        # the phase it leads to instead (None: the game ends there)
    reopened: str | None = None         # the game its rules had ended goes on with this phase, paused
    winner: tuple[str, str] | None = None   # (old, new): the rules end it still, with another winner

    @property
    def changed(self) -> bool:
        return (self.dropped is not None or self.reopened is not None or self.winner is not None
                or any(r.diff.changed for r in self.phases))

    def digest(self) -> str:
        """Names this exact outcome: a confirmation is for the outcome the host saw, not a later one."""
        material = "|".join([*(f"{r.phase}:{r.diff.digest()}" for r in self.phases), str(self.dropped),
                             str(self.scheduled), str(self.reopened), str(self.winner)])
        return hashlib.sha256(material.encode("utf-8")).hexdigest()[:16]


class _Undo(Exception):
    def __init__(self, diff: RerunDiff) -> None:
        super().__init__("preview")
        self.diff = diff


def preview_rerun(game, store: Store, phase_key: str, now: datetime) -> RerunDiff:
    """The diff of the old and the new outcome; the store is left as it was."""
    try:
        with store.transaction():
            raise _Undo(_rerun(game, store, phase_key, now, "preview"))
    except _Undo as undo:
        return undo.diff


def confirm_rerun(game, store: Store, phase_key: str, by: str, now: datetime,
                  expected: str | None = None) -> RerunDiff:
    """Re-run for good; with `expected` (the digest of the diff the host saw) only if the outcome is still that."""
    with store.transaction():
        diff = _rerun(game, store, phase_key, now, by)
        if expected is not None and diff.digest() != expected:
            raise StoreError(f"итоги фазы «{phase_label(game.rules, phase_key)}» уже не те, что были показаны "
                             "(с тех пор изменились приказы или тема): посмотрите новую разницу и подтвердите снова")
        return diff


def _rerun(game, store: Store, phase_key: str, now: datetime, by: str) -> RerunDiff:
    row = store.phase(game.id, phase_key)
    if row is None or store.current_resolution(game.id, phase_key) is None:
        raise StoreError(f"фаза «{phase_label(game.rules, phase_key)}» в игре {game.id} не подведена: "
                         "пересчитывать нечего")
    chain = [p for p in store.phases(game.id, status="resolved") if p["deadline"] >= row["deadline"]]
    done = []
    for index, phase in enumerate(chain):
        done.append(_rerun_one(game, store, phase["key"], now, by))
        if index + 1 < len(chain):
            _check_course(game, store, phase, chain[index + 1], phase_key)
    dropped, scheduled = _open_phase_course(game, store, chain[-1])
    return RerunDiff(tuple(done), dropped, scheduled, *_game_end(game, store, chain[-1], now, by))


def _rerun_one(game, store: Store, phase_key: str, now: datetime, by: str) -> PhaseRerun:
    row = store.phase(game.id, phase_key)
    before = phase_outcome(store, store.current_resolution(game.id, phase_key)["id"])
    resolve_once(game, store, phase_key, row["deadline"], now, rerun=True, by=by)
    new = store.current_resolution(game.id, phase_key)
    _answer_sent_drafts(game, store, new["id"], phase_key)
    edited = _keep_host_edits(store, before, phase_outcome(store, new["id"]))
    return PhaseRerun(phase_key, outcome_diff(before, phase_outcome(store, new["id"])), edited)


def _keep_host_edits(store: Store, before: PhaseOutcome, after: PhaseOutcome) -> tuple[EditedDraft, ...]:
    """The host's edits of the old resolution's unsent drafts, kept on their new twins (see above)."""
    news = paired(after.drafts)
    kept = []
    for key, old in paired(before.drafts).items():
        edits = store.draft_edits(old.id) if old.status in OPEN_DRAFT_STATUSES else []
        new = news.get(key)
        if not edits or new is None:
            continue
        started_from = edits[0]["body_before"]
        if new.body == started_from:
            store.edit_draft(new.id, old.body, edits[-1]["edited_by"])
        else:
            store.set_earlier_edit(new.id, old.body)
        kept.append(EditedDraft(new.kind, new.target, new.id, new.body == started_from))
    return tuple(kept)


def _following(game, store: Store, row: dict) -> Phase | None:
    """The phase the rules name after `row`'s current outcome."""
    state = game.rules.load(store.resolution_outcome(store.current_resolution(game.id, row["key"])["id"])[0]["state"])
    return game.rules.next_phase(state, Phase(row["kind"], row["number"]))


def _check_course(game, store: Store, row: dict, played: dict, asked: str) -> None:
    following = _following(game, store, row)
    if following is not None and following.key == played["key"]:
        return

    def named(key: str) -> str:
        return f"«{phase_label(game.rules, key)}»"

    now_leads = (f"игра кончается после фазы {named(row['key'])}" if following is None
                 else f"после фазы {named(row['key'])} идёт фаза {named(following.key)}")
    raise StoreError(f"пересчёт фазы {named(asked)} меняет ход игры: по новым итогам {now_leads}, а после неё уже "
                     f"сыграна фаза {named(played['key'])}. Сыгранные фазы не переиграть по-другому; ничего не "
                     "изменено. Чтобы игра кончилась, как говорят новые итоги, закончите её, назвав победителя; "
                     "или исправьте приказы так, чтобы игра шла как прежде.")


def _open_phase_course(game, store: Store, last: dict) -> tuple[str | None, str | None]:
    """The open phase after the last re-run one, when the new course no longer leads to it: it leaves
    the calendar (nothing of it was resolved) for the phase the rules name now. (dropped, scheduled)"""
    following = _following(game, store, last)
    pending = [p for p in store.phases(game.id, status="pending") if p["deadline"] > last["deadline"]]
    stale = [p for p in pending if following is None or p["key"] != following.key]
    for phase in stale:
        store.drop_pending_phase(game.id, phase["key"])
    if not stale:
        return None, None
    return ", ".join(p["key"] for p in stale), following.key if following is not None else None


def _game_end(game, store: Store, last: dict, now: datetime, by: str) -> tuple[str | None, tuple[str, str] | None]:
    """A game its rules had ended after `last`, as its new outcome has it: when it goes on, reopened, paused,
    with the phase the rules name now (the re-run put it in the calendar); when it ends with another
    winner, finished with him. (the reopened phase, (old winner, new winner))"""
    row = store.game(game.id)
    if not row.get("finished_at") or row["finished_by"] != ENGINE:
        return None, None
    winner = engine_result(game, store)
    if winner is None:
        store.reopen_game(game.id, by, now)
        return _following(game, store, last).key, None
    if winner != row["winner"]:
        store.finish_game(game.id, winner, ENGINE, now, replacing=ENGINE)
    draft_record(game, store)       # the re-run changed the archive: a record post of the new one
    return None, (row["winner"], winner) if winner != row["winner"] else None


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
        correction = game.texts.render(CORRECTION_TEMPLATE, phase=phase_label(game.rules, phase_key), body=draft.body)
        if twin.body in (draft.body, correction) and twin.pictures == draft.pictures:
            store.supersede(draft.id)
        else:
            store.set_draft_body(draft.id, correction)
