"""Every reason a game is not being run, from one place: `forumgm status`, the host's page and the
host's notifications all read `stops(store, game_id)`.

A game is not run when it is finished (by the host, or by the winner its engine declared), when its
forum pages or its engine fail (`Store.set_problem`, cleared by the daemon itself once they work),
while the host has paused it (`forumgm pause`: its inputs are still read, nothing resolves), or
while it is held for a cause kept in the store's `game_stops` table (`Store.hold_game`, the daemon
does not touch it): its [rules] changed after the start (`rules_changed`, until restored or
accepted), its seed changed after the deal (`seed_changed`, until restored). A new cause needs no new column: hold the game under a new cause name and give it a
title here.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from forumgm.daemon.store import Store

FINISHED, PROBLEM, RULES_CHANGED, PAUSED = "finished", "problem", "rules_changed", "paused"
SEED_CHANGED = "seed_changed"
ENGINE = "engine"     # `finished_by` of a game whose engine declared the winner

# What the host reads first, in Russian on the page and in notifications; a cause not listed shows
# the generic title.
TITLES = {
    FINISHED: "Игра окончена",
    PROBLEM: "Игра остановлена: форум или движок игры дали сбой",
    RULES_CHANGED: "Игра остановлена: правила ([rules]) изменены после начала игры",
    PAUSED: "Игра на паузе",
    SEED_CHANGED: "Игра остановлена: зерно (seed) изменено после раздачи",
}
GENERIC_TITLE = "Игра остановлена"


@dataclass(frozen=True)
class Stop:
    cause: str                 # finished, problem, rules_changed, paused, or another held cause
    since: datetime | None
    message: str               # what happened and what the host can do (English, as the CLI speaks)
    detail: str = ""           # the stored cause as it is: the failure's text, who paused, the hold's message

    @property
    def title(self) -> str:
        return TITLES.get(self.cause, GENERIC_TITLE)

    @property
    def finished(self) -> bool:
        return self.cause == FINISHED


def stops(store: Store, game_id: str) -> list[Stop]:
    """Why the game is not run now, the end of the game first; empty when it runs."""
    row = store.game(game_id)
    if row is None:
        return []
    found = []
    if row.get("finished_at"):
        found.append(Stop(FINISHED, row["finished_at"], finished_message(store, row), row["finished_by"]))
    if row.get("problem"):
        found.append(Stop(PROBLEM, row["problem_since"], f"{row['problem']} "
                                                         "(no phase resolves until this works again)", row["problem"]))
    if row.get("paused_at") and not row.get("finished_at"):
        found.append(Stop(PAUSED, row["paused_at"], f"paused by {row['paused_by']} "
                                                    "(no phase resolves until `forumgm resume`)", row["paused_by"]))
    found += [Stop(hold["cause"], hold["since"], hold["message"], hold["message"]) for hold in store.holds(game_id)]
    return found


def is_paused(store: Store, game_id: str) -> bool:
    """True from `forumgm pause` to `forumgm resume`: inputs are read, nothing resolves."""
    row = store.game(game_id)
    return bool(row and row.get("paused_at"))


def is_held(store: Store, game_id: str) -> bool:
    """True while a held cause (rules changed, paused, ...) keeps the daemon off the game."""
    return bool(store.holds(game_id))


def finished_message(store: Store, row: dict) -> str:
    if row["finished_by"] == ENGINE:
        last = last_resolved(store, row["id"])
        return f"the game's rules ended it{f' after {last}' if last else ''}; winner: {row['winner']}"
    return f"finished by {row['finished_by']}, winner: {row['winner']}"


def last_resolved(store: Store, game_id: str) -> str | None:
    """The key of the last resolved phase, None before the first."""
    resolved = store.phases(game_id, status="resolved")
    return resolved[-1]["key"] if resolved else None
