"""The end of a game: the engine's own end (its rules allow no further phase) finishes the game by
itself; the host ends it with `forumgm finish`, naming the winner, which drafts a final announcement.
Either way no later phase resolves, and the game's record post is drafted: its seed and salt revealed,
its archive attached (daemon/record/final.py)."""
from __future__ import annotations

from datetime import datetime

from forumgm.daemon.drafts.compose import draft
from forumgm.daemon.drafts.phase_names import phase_label
from forumgm.daemon.record.final import draft_record
from forumgm.daemon.store import Store, StoreError
from forumgm.daemon.tick.stops import ENGINE, last_resolved
from forumgm.engines.base import Phase

KIND = "final_announcement"
TEMPLATE = "common/final_announcement.j2"
NOBODY = "никто (в живых не осталось никого)"


class EngineFinished(StoreError):
    """The host names a winner other than the one the game's rules found; he must insist (`force`),
    as each face of the daemon tells him its own way."""

    def __init__(self, message: str, found: str, winner: str) -> None:
        super().__init__(message)
        self.found, self.winner = found, winner


def finish_game(game, store: Store, winner: str, by: str, now: datetime, force: bool = False) -> int:
    """Record the end and draft the announcement in one transaction; the draft id. The host may
    replace the winner the engine found only with `force` (or by naming the same one)."""
    winner = winner.strip()
    if not winner:
        raise StoreError("назовите победителя так, как его объявят в теме (например, «Клан Хаоса»)")
    with store.transaction():
        found = engine_result(game, store)
        if found is not None and found != winner and not force:
            last = last_resolved(store, game.id)
            after = f" после фазы «{phase_label(game.rules, last)}»" if last else ""
            raise EngineFinished(f"правила игры уже закончили игру {game.id}{after} с победителем «{found}»; "
                                 f"«{winner}» станет победителем только вопреки правилам", found, winner)
        if not store.finish_game(game.id, winner, by, now, replacing=ENGINE if found is not None else None):
            raise StoreError(f"игра {game.id} уже закончена (победитель: {store.game(game.id)['winner']})")
        snapshot = store.latest_snapshot(game.id)
        alive = game.rules.alive(game.rules.load(snapshot["state"])) if snapshot else []
        body = game.texts.render(TEMPLATE, winner=winner, alive=alive)
        announced = draft(store, game.id, KIND, "thread", body, approval=game.config.approval, ref=KIND)
        draft_record(game, store)       # the seed and salt revealed, with the game's archive
        return announced


def engine_result(game, store: Store) -> str | None:
    """The winner's name once the game's rules allow no phase after the last resolved one
    (NOBODY when they found no winner); None while the game goes on."""
    resolved = store.phases(game.id, status="resolved")
    snapshot = store.latest_snapshot(game.id)
    if not resolved or snapshot is None:
        return None
    state = game.rules.load(snapshot["state"])
    last = resolved[-1]
    if game.rules.next_phase(state, Phase(last["kind"], last["number"])) is not None:
        return None
    name = game.rules.winner_name(state)
    return name or NOBODY


def finish_by_engine(game, store: Store, now: datetime) -> bool:
    """Finish the game by itself when its rules ended it; True when that happened now."""
    winner = engine_result(game, store)
    if winner is None:
        return False
    with store.transaction():
        if not store.finish_game(game.id, winner, ENGINE, now):
            return False
        draft_record(game, store)       # the seed and salt revealed, with the game's archive
    return True


def may_change(store: Store, game_id: str) -> bool:
    """True unless the host ended the game: a game its own rules ended may still have its inputs corrected
    and its phases re-run, and a re-run whose outcome no longer ends it reopens it (host_actions.rerun)."""
    row = store.game(game_id)
    return not (row and row.get("finished_at")) or row["finished_by"] == ENGINE


def is_finished(store: Store, game_id: str) -> bool:
    row = store.game(game_id)
    return bool(row and row.get("finished_at"))
