"""The host corrects, or adds, a player's input of a phase, open or resolved: his orders (or PM vote),
or his vote in the thread. Which of the two the text stands for is the game's word
(`Rules.correction_kind`); the daemon does not know the games.

Orders: the correction is read by the game's own grammar (`Rules.read_orders`) as if the player had
sent it alone, and it replaces everything he sent for that phase. His PMs stay as they were, marked
as replaced, so the page shows them beside the correction. The receipt is redone: the receipts not
sent yet are superseded and a new one answers the correction.

A thread vote: forumgm.daemon.host_actions.correct_vote; there the host may also annul the vote
(`annul`): no vote of the player counts that day.

A resolved phase takes the correction when the host re-runs it (`forumgm resolve GAME PHASE --rerun`).
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from forumgm.daemon.drafts.compose import draft
from forumgm.daemon.drafts.phase_names import phase_label
from forumgm.daemon.host_actions.correct_vote import VoteCorrection, annul_vote, correct_vote
from forumgm.daemon.store import OPEN_DRAFT_STATUSES, Store, StoreError
from forumgm.daemon.store.seats import not_a_player
from forumgm.daemon.tick.finish import may_change
from forumgm.engines.base import THREAD_VOTE, OrderPm, Phase, Verdict
from forumgm.engines.receipts import receipt_text

TEMPLATE = "common/receipt_corrected.j2"
SUBJECT = "Ведущий исправил ваши приказы"


@dataclass(frozen=True)
class Target:
    """What a correction is about: the player, the phase as the store and the engine know it."""

    player: str
    row: dict                      # the phase's row
    phase: Phase
    state: Any                     # the state the phase resolves from
    at: datetime                   # the correction's time: inside the phase

    @property
    def resolved(self) -> bool:
        return self.row["status"] == "resolved"


@dataclass(frozen=True)
class Correction:
    order: str                     # its id among the game's orders ("host-1", beside the players' PM ids)
    player: str
    verdicts: tuple[Verdict, ...]
    replaced: tuple[dict, ...]     # the order rows it replaced (the player's PMs, or an earlier correction)
    receipt: int                   # the new receipt draft
    phase_resolved: bool           # a re-run is needed for the correction to count


def correct(game, store: Store, phase_key: str, nick: str, text: str, by: str, now: datetime):
    """Record the host's text as `nick`'s input of the phase, in one transaction: a `Correction` of his
    orders, or a `VoteCorrection` of his thread vote, as the game's rules say the phase takes it."""
    text = text.replace("\r\n", "\n").strip()
    if not text:
        raise StoreError("исправление пустое: впишите приказы или голос так, как написал бы их игрок")
    game = game.seated(store, now)      # its receipts and counts show each seat by who holds it
    with store.transaction():
        target = _target(game, store, phase_key, nick, now)
        if game.rules.correction_kind(target.state, target.phase) == THREAD_VOTE:
            return correct_vote(game, store, target, text, by)
        return _correct_orders(game, store, target, text, by)


def annul(game, store: Store, phase_key: str, nick: str, by: str, now: datetime) -> VoteCorrection:
    """Record, in one transaction, that no thread vote of `nick` counts in the phase: for a day whose
    votes the game's rules take in the thread (orders are corrected with their text instead)."""
    game = game.seated(store, now)
    with store.transaction():
        target = _target(game, store, phase_key, nick, now)
        if game.rules.correction_kind(target.state, target.phase) != THREAD_VOTE:
            raise StoreError(f"в фазе «{phase_label(game.rules, phase_key)}» в теме не голосуют, аннулировать нечего: "
                             "исправьте приказы игрока, вписав то, что он должен был прислать")
        return annul_vote(game, store, target, by)


def _target(game, store: Store, phase_key: str, nick: str, now: datetime) -> Target:
    seats = game.seats(store)
    player = seats.named(nick)
    if player is None:
        raise StoreError(not_a_player(nick, game.id, seats))
    if not may_change(store, game.id):
        raise StoreError(f"игра {game.id} закончена ведущим: её приказы и голоса больше не меняются")
    row = store.phase(game.id, phase_key)
    if row is None:
        raise StoreError(f"в игре {game.id} нет фазы «{phase_label(game.rules, phase_key)}»")
    resolved = row["status"] == "resolved"
    snapshot = store.snapshot_before(game.id, phase_key) if resolved else store.latest_snapshot(game.id)
    # timed inside the phase, so that every rule reading times sees an input sent before the deadline
    at = min(now, row["deadline"] - timedelta(seconds=1))
    return Target(player, row, Phase(row["kind"], row["number"]), game.rules.load(snapshot["state"]), at)


def _correct_orders(game, store: Store, target: Target, text: str, by: str) -> Correction:
    player, phase_key = target.player, target.row["key"]
    verdicts = tuple(game.rules.read_orders(target.state, target.phase, OrderPm(player, text, None, target.at, game.seats(store).names(target.at)), []))
    order, replaced = store.record_correction(game.id, phase_key, player, target.at, text,
                                              [v.as_json() for v in verdicts], by)
    superseded = _supersede_open_receipts(store, game.id, replaced)
    body = receipt_text(game.config.type, player, verdicts, game.texts, template=TEMPLATE,
                        phase=phase_label(game.rules, phase_key))
    receipt = draft(store, game.id, "receipt", player, body, phase_key, approval=game.config.approval,
                    ref=f"receipt:{order['pm_id']}", subject=SUBJECT)
    store.audit(by, "order.correct", {
        "game": game.id, "phase": phase_key, "player": player, "text": text, "order": order["pm_id"],
        "replaced": [{"pm_id": r["pm_id"], "text": r["raw_text"], "entered_by": r["entered_by"]} for r in replaced],
        "receipt": receipt, "superseded_receipts": superseded,
    })
    return Correction(order["pm_id"], player, verdicts, tuple(replaced), receipt, target.resolved)


def _supersede_open_receipts(store: Store, game_id: str, replaced: list[dict]) -> list[int]:
    """Receipts of the replaced orders that were not sent: the new receipt says what counts instead."""
    refs = {f"receipt:{row['pm_id']}" for row in replaced}
    done = []
    for old in store.drafts(game_id=game_id):
        if old["ref"] in refs and old["status"] in OPEN_DRAFT_STATUSES:
            store.supersede(old["id"])
            done.append(old["id"])
    return done
