"""The d6 of a step: the scenario's scripted results first, then the game's seeded RNG.

Every roll is recorded with whose it is and what it was for, so the step log lets a reader
replay the step by hand (docs/simulate.md: a scenario may script the dice).
"""
from __future__ import annotations

from forumgm.engines.base import PhaseRng


class Dice:
    def __init__(self, scripted: tuple[int, ...], rng: PhaseRng, sides: int) -> None:
        self._scripted = list(scripted)
        self._rng = rng
        self._sides = sides
        self._count = 0
        self.rolls: list[dict] = []

    def roll(self, count: int, nick: str, purpose: str) -> list[int]:
        values = [self._one() for _ in range(max(count, 0))]
        if values:
            self.rolls.append({"nick": nick, "for": purpose, "values": values})
        return values

    def _one(self) -> int:
        self._count += 1
        if self._scripted:
            return self._scripted.pop(0)
        return self._rng.die(self._sides, "d", self._count)

    def left(self) -> tuple[int, ...]:
        return tuple(self._scripted)
