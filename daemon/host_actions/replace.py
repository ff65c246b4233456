"""The host replaces a player: a new forum account takes over a seat, from this moment on.

A player is a seat (forumgm.daemon.store.seats): the engines keep their state, dice and every
stored input by the seat, so a replacement renames nothing. It records which account holds the
seat from now; a running daemon reads it at its next tick. A post or a PM counts as the seat of the
account that held it when it was written, so what the old account posted before stays his, and
what he sends after reaches the host as a notice (forumgm.daemon.tick.stray_pms). PMs drafted to the
seat go to whoever holds it when they are sent; texts show the seat by that account's nick and agree
with its player's gender (given with the replacement, else guessed from the nick, never the first
holder's).
"""
from __future__ import annotations

from datetime import datetime, timezone

from forumgm.daemon.drafts.phase_names import phase_label
from forumgm.daemon.store import Store, StoreError
from forumgm.daemon.store.seats import not_a_player
from forumgm.daemon.tick.finish import is_finished

GENDERS = (None, "m", "f")


def replace_player(game, store: Store, old: str, new: str, by: str, now: datetime, gender: str | None = None) -> dict:
    """Give `old`'s seat (its id or the account holding it now) to the account `new`, from `now`,
    its player's grammatical gender `gender` ("m", "f"; None: guessed from the nick); what was
    recorded, as audited."""
    new = new.strip()
    if gender not in GENDERS:
        raise StoreError(f"род игрока — мужской (m) или женский (f), а без него угадывается по нику; "
                         f"«{gender}» — не род")
    seats = game.seats(store)
    seat = seats.named(old)
    if seat is None:
        raise StoreError(not_a_player(old, game.id, seats))
    holder = seats.holder(seat)
    if not new or seats.named(new) not in (None, seat) or new == holder:
        playing = f": «{new}» уже играет" if new else ""
        raise StoreError(f"место игрока {holder} может занять только аккаунт форума, который ещё не играет "
                         f"в {game.id}{playing}")
    if is_finished(store, game.id):
        raise StoreError(f"игра {game.id} закончена: её игроков больше не заменить")
    out = _out_of_game(game, store, seat)
    if out:
        raise StoreError(f"{holder} уже вне игры {game.id} ({out}): место выбывшего игрока не передаётся")
    with store.transaction():
        store.add_replacement(game.id, seat, holder, new, by, now, gender)
        detail = {"game": game.id, "seat": seat, "old": holder, "new": new,
                  "at": f"{now.astimezone(timezone.utc):%Y-%m-%d %H:%M:%S} UTC", **({"gender": gender} if gender else {})}
        store.audit(by, "player.replace", detail)
    return detail


def _out_of_game(game, store: Store, seat: str) -> str:
    """Why the seat is out of the game already ("" while its player is in it, or before the deal)."""
    gone = [row for row in store.eliminations(game.id) if row["nick"] == seat]
    if gone:
        cause = game.rules.cause_labels.get(gone[-1]["cause"], gone[-1]["cause"])
        return f"{cause}, {phase_label(game.rules, gone[-1]['phase_key'])}"
    snapshot = store.latest_snapshot(game.id)
    if snapshot is not None and seat not in game.rules.alive(game.rules.load(snapshot["state"])):
        return "не среди живых"
    return ""
