"""What waits for the host, read from the store: one set of facts for the attention box of his page
and for the notifications (forumgm.daemon.notify.events), so that both say the same thing.

Each game's engine is asked who is alive (`rules_of(game_row)`, None for a game without one: its
deadline then names nobody as missing).
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any, Callable

from forumgm.daemon.store import Store
from forumgm.daemon.tick.signup_choices import KIND as ASSIGNMENT
from forumgm.daemon.tick.stops import Stop, stops

# Drafts the host must read one by one: approving the sign-up's assignment writes the players into
# the game file, line by line, and may be refused.
ONE_BY_ONE = frozenset({ASSIGNMENT})


@dataclass(frozen=True)
class Waiting:
    """Pending drafts of one game, kind and phase, oldest first."""

    game_id: str
    kind: str
    phase_key: str | None
    ids: tuple[int, ...]
    targets: tuple[str, ...]         # each draft's: "thread" or a PM's addressee
    since: datetime                  # when the oldest of them was drafted
    all_at_once: bool                # «одобрить все» is safe: several, none refused, none to read alone


@dataclass(frozen=True)
class Refused:
    """An approved draft the forum did not take: it waits for the host's fix."""

    game_id: str
    id: int
    kind: str
    target: str
    error: str
    since: datetime


@dataclass(frozen=True)
class Deadline:
    """The open phase of a running game: when it closes and who has sent nothing for it yet."""

    game_id: str
    phase_key: str
    deadline: datetime
    missing: tuple[str, ...]


@dataclass(frozen=True)
class Stopped:
    game_id: str
    stop: Stop


@dataclass(frozen=True)
class Attention:
    stopped: tuple[Stopped, ...]     # every game not run now, and why (finished ones too)
    refused: tuple[Refused, ...]
    waiting: tuple[Waiting, ...]     # oldest group first
    deadlines: tuple[Deadline, ...]  # the nearest first

    @property
    def empty(self) -> bool:
        return not (self.refused or self.waiting or self.deadlines or any(not s.stop.finished for s in self.stopped))


def attention(store: Store, rules_of: Callable[[str], Any], game_ids: tuple[str, ...] | None = None) -> Attention:
    """The facts of every stored game (or of `game_ids`)."""
    games = [game for game in store.games() if game_ids is None or game["id"] in game_ids]
    shown = {game["id"] for game in games}
    stopped, deadlines = [], []
    for game in games:
        found = stops(store, game["id"])
        stopped += [Stopped(game["id"], stop) for stop in found]
        deadline = None if found else open_deadline(store, game, rules_of(game))
        if deadline is not None:
            deadlines.append(deadline)
    pending = [draft for draft in store.drafts(status="pending") if draft["game_id"] in shown]
    refused = tuple(Refused(d["game_id"], d["id"], d["kind"], d["target"], d["send_error"], d["updated_at"])
                    for d in pending if d["send_error"])
    return Attention(tuple(stopped), refused, waiting_groups([d for d in pending if not d["send_error"]]),
                     tuple(sorted(deadlines, key=lambda d: d.deadline)))


def waiting_groups(pending: list[dict]) -> tuple[Waiting, ...]:
    groups: dict[tuple, list[dict]] = {}
    for draft in pending:
        groups.setdefault((draft["game_id"], draft["kind"], draft["phase_key"]), []).append(draft)
    found = [Waiting(game_id, kind, phase_key, tuple(d["id"] for d in drafts), tuple(d["target"] for d in drafts),
                     min(d["created_at"] for d in drafts),
                     len(drafts) > 1 and kind not in ONE_BY_ONE)
             for (game_id, kind, phase_key), drafts in groups.items()]
    return tuple(sorted(found, key=lambda group: (group.since, group.ids)))


def open_deadline(store: Store, game: dict, rules: Any) -> Deadline | None:
    """The open phase's deadline, with the players still to send something (none named before the deal)."""
    pending = store.phases(game["id"], status="pending")
    if not pending:
        return None
    snapshot = store.latest_snapshot(game["id"])
    phase = pending[0]
    missing = () if rules is None or snapshot is None else tuple(
        missing_players(store, game["id"], rules, snapshot, phase["key"]))
    return Deadline(game["id"], phase["key"], phase["deadline"], missing)


def missing_players(store: Store, game_id: str, rules: Any, snapshot: dict, phase_key: str) -> list[str]:
    """Players in the game who have sent neither orders nor a counted thread vote for the phase."""
    sent = {order["sender"] for order in store.orders(game_id, phase_key)}
    sent |= {vote["voter"] for vote in store.votes(game_id, phase_key) if vote["counted"]}
    return [nick for nick in rules.alive(rules.load(snapshot["state"])) if nick not in sent]
