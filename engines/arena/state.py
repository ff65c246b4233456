"""The frozen state of a fight and its JSON form."""
from __future__ import annotations

from dataclasses import asdict, dataclass, replace
from typing import Any, Mapping

from forumgm.engines.arena.table import HANDS, ArenaTable, load_table

# Facings: 0 north, 1 east, 2 south, 3 west; (dx, dy) of a step forward.
FACING = ((0, 1), (1, 0), (0, -1), (-1, 0))


@dataclass(frozen=True)
class Card:
    code: str
    arg: str | None = None            # a zone (attack, defense) or a direction key (move, turn)
    seq: int = 1                      # the sequence this card belongs to
    first: bool = True                # opens an instance of its sequence
    ahead: tuple[str, ...] = ()       # codes still to come in that instance (empty: it closes it)
    added: str = ""                   # why the program put this rest here (pad, rating, wound, invalid, …)
    target: str | None = None         # the opponent an attack or defense is meant for (None: the only one)


@dataclass(frozen=True)
class Wound:
    zone: str
    level: int                        # 1 light … the last level: severing
    step: int


@dataclass(frozen=True)
class Fighter:
    nick: str
    weapon: str                       # right hand ("рука" once lost)
    left: str                         # left hand: a weapon, щит, or рука
    helmet: bool
    attack_dice: int
    defense_dice: int
    move_dice: int
    attack_rating: int
    defense_rating: int
    speed_rating: int
    x: int
    y: int
    facing: int
    aliases: tuple[str, ...] = ()
    stacks: tuple[tuple[Card, ...], ...] = ((), (), ())     # right, left, legs
    removed: tuple[str, ...] = ()     # hands whose stack is gone (heavy wound, severing)
    severed: tuple[str, ...] = ()     # zones cut off
    wounds: tuple[Wound, ...] = ()
    helmet_damage: int = 0
    shield_damage: int = 0
    sent: bool = False                # the opening stacks arrived
    played: int = 0                   # steps played since the last fill
    refill_due: int = 0               # cards each stack is waiting for
    acted: tuple[str, ...] = ()       # hands whose current sequence has executed more than rests
    riposte: tuple[tuple[str, str], ...] = ()   # (hand, the lunger) of a parry that stopped a lunge last step
    gender: str | None = None         # "m" or "f" as the host gave it; texts guess when None
    pending: tuple[tuple[str, str, int], ...] = ()   # (hand, opponent, damage) of a two-attack sequence
    out: str = ""                     # how he left the fight (сдача, нокаут, …); "" while he fights

    def stack(self, hand: str) -> tuple[Card, ...]:
        return self.stacks[HANDS.index(hand)]

    def with_stack(self, hand: str, cards) -> "Fighter":
        stacks = list(self.stacks)
        stacks[HANDS.index(hand)] = tuple(cards)
        return replace(self, stacks=tuple(stacks))

    def weapon_of(self, hand: str) -> str:
        return {"right": self.weapon, "left": self.left, "legs": "нога"}[hand]

    def with_weapon(self, hand: str, weapon: str) -> "Fighter":
        return replace(self, **{"weapon" if hand == "right" else "left": weapon})

    def active_hands(self) -> tuple[str, ...]:
        return tuple(hand for hand in HANDS if hand not in self.removed)


@dataclass(frozen=True)
class ArenaState:
    table: ArenaTable
    fighters: tuple[Fighter, ...]
    step: int = 0                                # the last resolved step
    result: Mapping[str, Any] | None = None      # {"winner": nick or None, "kind": …}
    dice: tuple[int, ...] = ()                   # scripted d6 results not used yet

    def fighter(self, nick: str) -> Fighter:
        return next(f for f in self.fighters if f.nick == nick)

    def in_fight(self) -> tuple[Fighter, ...]:
        return tuple(f for f in self.fighters if not f.out)

    def opponents(self, nick: str) -> tuple[Fighter, ...]:
        """Those still in the fight against this fighter."""
        return tuple(f for f in self.in_fight() if f.nick != nick)

    def put(self, fighter: Fighter) -> "ArenaState":
        return replace(self, fighters=tuple(fighter if f.nick == fighter.nick else f for f in self.fighters))


def dump_state(state: ArenaState) -> dict:
    return {"table": state.table.source, "fighters": [asdict(f) for f in state.fighters], "step": state.step,
            "result": dict(state.result) if state.result else None, "dice": list(state.dice)}


def _card(data: Mapping[str, Any]) -> Card:
    return Card(**{**data, "ahead": tuple(data.get("ahead", ()))})


def load_state(data: Mapping[str, Any]) -> ArenaState:
    fighters = []
    for f in data["fighters"]:
        fighters.append(Fighter(**{
            **f,
            "aliases": tuple(f.get("aliases", ())),
            "stacks": tuple(tuple(_card(c) for c in stack) for stack in f["stacks"]),
            "removed": tuple(f.get("removed", ())),
            "severed": tuple(f.get("severed", ())),
            "wounds": tuple(Wound(**w) for w in f.get("wounds", ())),
            "acted": tuple(f.get("acted", ())),
            # snapshots written before fights of more than two held the hand alone
            "riposte": tuple((r, None) if isinstance(r, str) else tuple(r) for r in f.get("riposte", ())),
            "pending": tuple(tuple(p) for p in f.get("pending", ())),
        }))
    return ArenaState(table=load_table(data["table"]), fighters=tuple(fighters), step=data.get("step", 0),
                      result=data.get("result"), dice=tuple(data.get("dice", ())))
