"""One step of a fight, as a step table in the rules' order («Ход боя»):

reveal → moves (half-applied) → shifted targets → attacks (defense matching, dice, action and
weapon multipliers, breakage, armour) → throws → wounds and their effects → end of the fight.

Everything that happens is an event; `rows` collect the `steps` output of `forumgm simulate`
(docs/simulate.md: actions, rolls, hits). Wound effects apply after every attack of the step:
the actions are simultaneous.

Any number of fighters may fight (a duel is two): each attack is aimed at one opponent, and
distances, approach and retreat, and sideways shifts are those of the attacker and his target.
A fighter who goes down leaves the fight; the fight ends when one or none is left.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Any

from forumgm.engines.arena.cards import REST, card_text, rest
from forumgm.parsers.orders.arena import arg_text
from forumgm.engines.arena.dice import Dice
from forumgm.engines.arena.state import FACING, ArenaState, Card, Fighter, Wound
from forumgm.engines.arena.table import ArenaTable
from forumgm.engines.base import Event, PhaseRng, Step

LIGHT, WOUND, HEAVY, SEVERING = 1, 2, 3, 4
# Directions of a move relative to the mover's facing: how many quarter turns clockwise.
TURNS = {"forward": 0, "right": 1, "back": 2, "left": 3}
ORDER = ("right", "left", "legs")        # attacks resolve right hand, left hand, legs
_ARG = {"attack": "zone", "defense": "zone", "move": "direction", "turn": "direction"}


@dataclass(frozen=True)
class Blow:
    """A wound dealt this step, applied in the wounds step."""

    attacker: str
    defender: str
    zone: str
    level: int
    code: str


@dataclass(frozen=True)
class StepState:
    game: ArenaState
    number: int
    dice: Dice
    cards: tuple[tuple[str, str, Card], ...] = ()        # (nick, hand, card) revealed
    start: tuple[tuple[str, int, int], ...] = ()         # (nick, x, y) before the moves
    sideways: tuple[tuple[str, str], ...] = ()           # (nick, left|right) of a sideways step
    blows: tuple[Blow, ...] = ()
    hits: tuple[dict, ...] = ()
    ripostes: tuple[tuple[str, str, str], ...] = ()      # (nick, hand, the lunger) of a parry that stopped a lunge
    riposting: tuple[tuple[str, str, str], ...] = ()     # (nick, hand, the lunger) of a riposte played now
    surrendered: tuple[str, ...] = ()
    forced_rest: tuple[str, ...] = ()                    # out, but resting on the sand (the playout after a surrender)

    @property
    def table(self) -> ArenaTable:
        return self.game.table

    def card(self, nick: str, hand: str) -> Card | None:
        return next((c for n, h, c in self.cards if n == nick and h == hand), None)

    def with_fighter(self, fighter: Fighter) -> "StepState":
        return replace(self, game=self.game.put(fighter))

    def present(self) -> tuple[Fighter, ...]:
        """The fighters on the sand this step: those in the fight, and a surrendered one resting
        while the winner plays out."""
        return tuple(f for f in self.game.fighters if not f.out or f.nick in self.forced_rest)

    def distance(self, a: str, b: str) -> int:
        return distance(self.game.fighter(a), self.game.fighter(b))

    def distance_before(self, a: str, b: str) -> int:
        """The distance before this step's moves."""
        where = {nick: (x, y) for nick, x, y in self.start}
        (ax, ay), (bx, by) = where[a], where[b]
        return max(abs(ax - bx), abs(ay - by))

    def movement(self, a: str, b: str) -> str:
        """approach, retreat or "" between two fighters in this step's moves."""
        before, after = self.distance_before(a, b), self.distance(a, b)
        return "approach" if after < before else "retreat" if after > before else ""


def distance(a: Fighter, b: Fighter) -> int:
    return max(abs(a.x - b.x), abs(a.y - b.y))


def pairs(fighters) -> list[tuple[Fighter, Fighter]]:
    """Every two fighters, in setup order."""
    fighters = list(fighters)
    return [(a, b) for index, a in enumerate(fighters) for b in fighters[index + 1:]]


# ---------------------------------------------------------------- reveal

def reveal(ss: StepState, orders: Any, rng: PhaseRng):
    table, cards, events, riposting = ss.table, [], [], []
    for fighter in ss.present():
        acted, surrendered = list(fighter.acted), False
        parried = dict(fighter.riposte)
        for hand in fighter.active_hands():
            stack = fighter.stack(hand)
            card = stack[0] if stack else rest("empty")
            if fighter.nick in ss.forced_rest:
                card = rest("surrendered")
            else:
                fighter = fighter.with_stack(hand, stack[1:])
            if card.code == table.riposte and hand not in parried:
                events.append(Event("riposte_void", {"nick": fighter.nick, "hand": hand}))
                card = replace(card, code=REST, arg=None, target=None)
            elif card.code == table.riposte and card.target is None:
                riposting.append((fighter.nick, hand, parried[hand]))
            if card.first and hand in acted:
                acted.remove(hand)
            if card.code != REST and hand not in acted:
                acted.append(hand)
            surrendered = surrendered or table.kind(card.code) == "surrender"
            cards.append((fighter.nick, hand, card))
        fighter = replace(fighter, acted=tuple(acted), played=fighter.played + 1, riposte=())
        ss = ss.with_fighter(fighter)
        if surrendered:
            ss = replace(ss, surrendered=ss.surrendered + (fighter.nick,))
    vocab = table.vocabulary
    rows = [{"nick": n, "hand": h, "card": card_text(c, table), "code": c.code,
             **({_ARG[table.kind(c.code)]: arg_text(c.arg, vocab)} if c.arg else {})} for n, h, c in cards]
    reveal_data = {"step": ss.number, "cards": rows, "playout": bool(ss.forced_rest)}
    return replace(ss, cards=tuple(cards), riposting=tuple(riposting)), events + [Event("reveal", reveal_data)]


# ---------------------------------------------------------------- moves

def _turned(facing: int, quarter_turns: int) -> int:
    return (facing + quarter_turns) % 4


def moves(ss: StepState, orders: Any, rng: PhaseRng):
    """Moves and turns, applied before any attack (the rules' "half" move already counts); then
    the distance of every two fighters, before and after."""
    table, events = ss.table, []
    ss = replace(ss, start=tuple((f.nick, f.x, f.y) for f in ss.present()))
    lateral = []
    for fighter in ss.present():
        card = ss.card(fighter.nick, "legs")
        if card is None or table.kind(card.code) not in ("move", "turn"):
            continue
        if table.kind(card.code) == "turn":
            facing = _turned(fighter.facing, TURNS[card.arg])
            ss = ss.with_fighter(replace(fighter, facing=facing))
            events.append(Event("turn", {"nick": fighter.nick, "direction": card.arg, "facing": facing}))
            continue
        dx, dy = FACING[_turned(fighter.facing, TURNS[card.arg])]
        x, y = fighter.x + dx, fighter.y + dy
        blocked = ("edge" if not (0 <= x < table.size and 0 <= y < table.size)
                   else "occupied" if any((f.x, f.y) == (x, y) for f in ss.present()) else "")
        events.append(Event("move", {"nick": fighter.nick, "code": card.code, "direction": card.arg,
                                     "from": [fighter.x, fighter.y], "to": [x, y] if not blocked else [fighter.x, fighter.y],
                                     "blocked": blocked}))
        if not blocked:
            ss = ss.with_fighter(replace(fighter, x=x, y=y))
            if card.arg in ("left", "right"):
                lateral.append((fighter.nick, card.arg))
    ss = replace(ss, sideways=tuple(lateral))
    for a, b in pairs(ss.present()):
        events.append(Event("distance", {"between": [a.nick, b.nick], "before": ss.distance_before(a.nick, b.nick),
                                         "after": ss.distance(a.nick, b.nick),
                                         "movement": ss.movement(a.nick, b.nick)}))
    return ss, events


# ---------------------------------------------------------------- attacks

def _defense(ss: StepState, defender: Fighter, zone: str, attacker: str):
    """The defender's card that meets an attack on `zone`: the same zone (full effect) before an
    adjacent one (half effect); among equals the first hand in right, left, legs order. A defense
    meant for another opponent does not meet this one's attacks."""
    table, found = ss.table, None
    for hand in ORDER:
        card = ss.card(defender.nick, hand)
        if card is None or table.kind(card.code) != "defense" or card.target not in (None, attacker):
            continue
        if card.arg == zone:
            return hand, card, False
        if found is None and table.is_adjacent(card.arg, zone):
            found = (hand, card, True)
    return found or (None, None, False)


def _level(table: ArenaTable, damage: int, defense_dice: int, severing: bool) -> int:
    if damage <= 0:
        return 0
    for level, bound in enumerate(table.wound_bounds, start=1):
        if damage <= bound * defense_dice:
            return level
    return SEVERING if severing else HEAVY


def _armour_hit(ss: StepState, nick: str, piece: str, level: int, events: list, hand: str | None = None) -> StepState:
    """A protected zone struck: the piece takes its share, then a d6 below its accumulated damage
    breaks it."""
    table = ss.table
    armour = table.helmet if piece == "helmet" else table.shield
    fighter = ss.game.fighter(nick)
    taken = max(0, min(level + armour.takes, len(table.armour_units)))
    damage = getattr(fighter, f"{piece}_damage") + (table.armour_units[taken - 1] if taken else 0)
    roll = ss.dice.roll(1, nick, f"износ: {armour.name}")[0]
    broken = roll < damage
    events.append(Event("armour", {"nick": nick, "piece": armour.name, "took": taken, "damage": damage,
                                   "roll": roll, "broken": broken}))
    fighter = replace(fighter, **{f"{piece}_damage": 0 if broken else damage})
    if broken:
        fighter = replace(fighter, helmet=False) if piece == "helmet" else fighter.with_weapon(hand, "рука")
    return ss.with_fighter(fighter)


def _multiplier(table: ArenaTable, code: str, column: str, half: bool, shield: bool,
                movement: str) -> tuple[float, list]:
    """The action multiplier and how it came about: the table, half effect on an adjacent zone,
    a shield next to the zone, approach or retreat."""
    multiplier = table.action_multiplier[code][column]
    parts = [[column, multiplier]]
    if half:
        multiplier = (multiplier + 1) / 2
        parts.append(["adjacent", multiplier])
    if shield and half:
        multiplier += table.shield.neighbour_multiplier
        parts.append(["shield", table.shield.neighbour_multiplier])
    if movement:
        change = table.approach if movement == "approach" else table.retreat
        multiplier += change
        parts.append([movement, change])
    return max(0.0, multiplier), parts


def _protected(ss: StepState, defender: Fighter, zone: str, level: int, shield_hand: str | None,
               worn: list) -> tuple[StepState, int, list[str]]:
    """The wound level after the helmet (on its zones) and the shield (on the zone it defended)."""
    table, reduced = ss.table, []
    if level and defender.helmet and zone in table.helmet.zones:
        ss = _armour_hit(ss, defender.nick, "helmet", level, worn)
        level = max(0, level - table.helmet.reduces)
        reduced.append(table.helmet.name)
    if level and shield_hand:
        ss = _armour_hit(ss, defender.nick, "shield", level, worn, shield_hand)
        level = max(0, level - table.shield.reduces)
        reduced.append(table.shield.name)
    return ss, level, reduced


def _target(ss: StepState, attacker: Fighter, hand: str, card: Card) -> Fighter | None:
    """The opponent the card is meant for, if he is still on the sand; a riposte naming nobody
    goes at the one whose lunge was parried, another card naming nobody at the only opponent (a
    name is required while there are more)."""
    present = [f for f in ss.present() if f.nick != attacker.nick]
    named = card.target or next((at for nick, h, at in ss.riposting if (nick, h) == (attacker.nick, hand)), None)
    if named is not None:
        return next((f for f in present if f.nick == named), None)
    return present[0] if len(present) == 1 else None


def _attack(ss: StepState, attacker: Fighter, hand: str, card: Card, events: list) -> StepState:
    """One attack card: the target zone (shifted by a sidestep), range, a throw's own roll, the
    defense it meets, the multiplier, dice, damage, armour, and the wound it leaves."""
    table = ss.table
    sequence = table.sequences[card.seq]
    weapon = table.weapons[attacker.weapon_of(hand)]
    defender = _target(ss, attacker, hand, card)
    base = {"attacker": attacker.nick, "hand": hand, "code": card.code, "aimed": card.arg,
            "defender": defender.nick if defender else card.target, "weapon": weapon.name}
    if defender is None:
        events.append(Event("attack", {**base, "zone": None, "outcome": "no_target"}))
        return ss
    zone = card.arg
    movement = ss.movement(attacker.nick, defender.nick)
    after = ss.distance(attacker.nick, defender.nick)
    side = dict(ss.sideways).get(defender.nick) if not movement else None
    if side:
        zone = table.shift.get(zone, (zone, zone))[0 if side == "left" else 1]
        if not zone:
            events.append(Event("attack", {**base, "zone": None, "outcome": "miss_shift", "side": side}))
            return ss
    base["zone"] = zone
    low, high = sequence.range or weapon.range
    high += attacker.attack_rating if sequence.max_rating else 0
    if not low <= after <= high:
        events.append(Event("attack", {**base, "outcome": "out_of_range", "distance": after, "range": [low, high]}))
        return ss
    if card.code == table.throw:
        ss = ss.with_fighter(ss.game.fighter(attacker.nick).with_weapon(hand, "рука"))
        roll = ss.dice.roll(1, attacker.nick, "бросок")[0]
        needed = table.throw_base - (after - table.throw_from)
        events.append(Event("throw", {**base, "roll": roll, "needed": needed, "hit": roll <= needed}))
        if roll > needed:
            return ss
    def_hand, defense, half = _defense(ss, defender, zone, attacker.nick)
    defender_attacks = any(table.kind(c.code) == "attack" for n, _, c in ss.cards if n == defender.nick)
    column = defense.code if defense else "attack" if defender_attacks else "rest"
    shield = defense is not None and table.weapons[defender.weapon_of(def_hand)].shield
    multiplier, parts = _multiplier(table, card.code, column, half, shield, movement)
    detail = {**base, "defense": defense.code if defense else None, "defense_hand": def_hand, "half": half,
              "multiplier": multiplier, "multiplier_parts": parts}
    stopped = defense is not None and defense.code == table.riposte_after and card.code in table.riposte_stops
    if multiplier == 0:
        events.append(Event("attack", {**detail, "outcome": "zero"}))
        if stopped:
            ss = replace(ss, ripostes=ss.ripostes + ((defender.nick, def_hand, attacker.nick),))
        return _breakage(ss, attacker, weapon, defender, def_hand, events) if defense else ss
    hits_rolled = ss.dice.roll(attacker.attack_dice, attacker.nick, f"атака {card.code}")
    hits = sum(1 for v in hits_rolled if v >= table.hit_on)
    cancels = 0
    if defense:
        saves = ss.dice.roll(defender.defense_dice, defender.nick, f"защита {defense.code}")
        cancels = sum(1 for v in saves if v >= table.hit_on)
        cancels = cancels // 2 if half else cancels
    weapon_multiplier = table.weapon_multiplier.get(card.code, {}).get(weapon.name, 1.0)
    net = max(0, hits - cancels)
    damage = math.floor(net * multiplier * weapon_multiplier + 1e-9)
    severing = card.code in table.severing_by
    attacker_now = ss.game.fighter(attacker.nick)
    if sequence.one_wound and any(table.kind(c) == "attack" for c in card.ahead):
        ss = ss.with_fighter(replace(attacker_now, pending=attacker_now.pending + ((hand, defender.nick, damage),)))
        events.append(Event("attack", {**detail, "outcome": "held", "hits": hits, "cancels": cancels,
                                       "weapon_multiplier": weapon_multiplier, "damage": damage}))
        return ss
    if sequence.one_wound:
        # the first attack's damage counts only against the same opponent
        held = sum(d for h, at, d in attacker_now.pending if (h, at) == (hand, defender.nick))
        ss = ss.with_fighter(replace(attacker_now, pending=tuple(p for p in attacker_now.pending if p[0] != hand)))
        detail["held"] = held
        damage += held
    if stopped and damage == 0:
        ss = replace(ss, ripostes=ss.ripostes + ((defender.nick, def_hand, attacker.nick),))
    level = _level(table, damage, defender.defense_dice, severing)
    worn: list[Event] = []
    ss, level, reduced = _protected(ss, defender, zone, level, def_hand if shield and not half else None, worn)
    hit = {"attacker": attacker.nick, "defender": defender.nick, "zone": zone, "damage": damage, "level": level}
    events.append(Event("attack", {**detail, "outcome": "hit" if damage else "no_damage", "hits": hits,
                                   "cancels": cancels, "weapon_multiplier": weapon_multiplier,
                                   "damage": damage, "level": level, "armour": reduced}))
    events += worn
    ss = replace(ss, hits=ss.hits + (hit,))
    if level:
        ss = replace(ss, blows=ss.blows + (Blow(attacker.nick, defender.nick, zone, level, card.code),))
    return ss


def _breakage(ss: StepState, attacker: Fighter, weapon, defender: Fighter, def_hand: str, events: list) -> StepState:
    """A zero not caused by range: the attacker may break the defender's weapon."""
    table = ss.table
    theirs = table.weapons[defender.weapon_of(def_hand)]
    difference = weapon.breakage - theirs.breakage
    if theirs.natural or difference < 1:
        return ss
    roll = ss.dice.roll(1, attacker.nick, "поломка")[0]
    broken = roll <= difference
    events.append(Event("breakage", {"nick": defender.nick, "hand": def_hand, "weapon": theirs.name,
                                     "roll": roll, "needed": difference, "broken": broken}))
    if broken:
        ss = ss.with_fighter(ss.game.fighter(defender.nick).with_weapon(def_hand, "рука"))
    return ss


def _attacks(throws: bool):
    def step(ss: StepState, orders: Any, rng: PhaseRng):
        events: list[Event] = []
        for nick in [f.nick for f in ss.present()]:
            for hand in ORDER:
                card = ss.card(nick, hand)
                if card is None or ss.table.kind(card.code) != "attack" or (card.code == ss.table.throw) != throws:
                    continue
                ss = _attack(ss, ss.game.fighter(nick), hand, card, events)
        return ss, events
    return step


attacks = _attacks(throws=False)
throws = _attacks(throws=True)


# ---------------------------------------------------------------- wounds

def _remove(fighter: Fighter, hand: str, severed: str | None = None) -> Fighter:
    fighter = fighter.with_stack(hand, ())
    if hand != "legs":
        fighter = fighter.with_weapon(hand, "рука")
    removed = fighter.removed + ((hand,) if hand not in fighter.removed else ())
    severed_zones = fighter.severed + ((severed,) if severed and severed not in fighter.severed else ())
    return replace(fighter, removed=removed, severed=severed_zones)


def _effect(table: ArenaTable, fighter: Fighter, zone: str, level: int) -> tuple[Fighter, list[str]]:
    body = table.body
    arm_hand = {body["right_arm"]: "right", body["left_arm"]: "left"}
    legs = (body["left_leg"], body["right_leg"])
    effects: list[str] = []
    if level == WOUND:
        for dice in table.dice_lost.get(zone, ()):
            name = f"{dice}_dice"
            fighter = replace(fighter, **{name: max(0, getattr(fighter, name) - 1)})
            effects.append(f"-1 {dice}")
    elif level == HEAVY:
        if zone == body["head"]:
            effects.append("knockout")
        elif zone in arm_hand:
            fighter = _remove(fighter, arm_hand[zone])
            effects.append(f"stack_removed:{arm_hand[zone]}")
        elif zone == body["body"] or zone in legs:
            fighter = _remove(fighter, "legs")
            effects.append("stack_removed:legs")
    elif level == SEVERING:
        if zone == body["head"]:
            effects.append("head_severed")
        elif zone in arm_hand:
            fighter = _remove(fighter, arm_hand[zone], zone)
            effects.append(f"severed:{arm_hand[zone]}")
        elif zone in legs:
            fighter = _remove(fighter, "legs", zone)
            effects.append("severed:legs")
        else:
            fighter = _remove(fighter, "legs")
            effects.append("stack_removed:legs")
    return fighter, effects


def wounds(ss: StepState, orders: Any, rng: PhaseRng):
    events = []
    for blow in ss.blows:
        fighter = ss.game.fighter(blow.defender)
        fighter = replace(fighter, wounds=fighter.wounds + (Wound(blow.zone, blow.level, ss.number),))
        fighter, effects = _effect(ss.table, fighter, blow.zone, blow.level)
        ss = ss.with_fighter(fighter)
        events.append(Event("wound", {"nick": blow.defender, "by": blow.attacker, "zone": blow.zone,
                                      "level": blow.level, "name": ss.table.wound_levels[blow.level - 1],
                                      "effects": effects}))
    return ss, events


# ---------------------------------------------------------------- the end of the fight

def out_reason(table: ArenaTable, fighter: Fighter, surrendered: bool) -> str | None:
    """Why this fighter cannot go on, by the rules' list, or None."""
    body = table.body
    head = [w.level for w in fighter.wounds if w.zone == body["head"]]
    if SEVERING in head:
        return "отрубание"
    if HEAVY in head:
        return "нокаут"
    if "right" in fighter.removed and "left" in fighter.removed:
        return "ранение"
    if body["left_leg"] in fighter.severed and body["right_leg"] in fighter.severed:
        return "ранение"
    if surrendered:
        return "сдача"
    return None


def end(ss: StepState, orders: Any, rng: PhaseRng):
    """Who goes down this step leaves the fight; with one (or nobody) left the fight is over:
    the last one standing wins, by the way his (first) opponent of this step went down."""
    if ss.game.result is not None:
        return ss, []
    game = ss.game
    reasons = {f.nick: out_reason(ss.table, f, f.nick in ss.surrendered) for f in game.in_fight()}
    losers = [nick for nick, reason in reasons.items() if reason]
    if not losers:
        return ss, []
    for nick in losers:
        game = game.put(replace(game.fighter(nick), out=reasons[nick]))
    events = [Event("fighter_out", {"nick": nick, "kind": reasons[nick], "step": ss.number}) for nick in losers]
    standing = game.in_fight()
    if len(standing) > 1:
        return replace(ss, game=game), events
    if standing:
        result = {"winner": standing[0].nick, "kind": reasons[losers[0]], "loser": losers[0]}
    else:
        result = {"winner": None, "kind": "ничья", "reasons": {nick: reasons[nick] for nick in losers}}
    return replace(ss, game=replace(game, result=result)), events + [Event("fight_over", dict(result))]


STEP = (
    Step("reveal", reveal),
    Step("moves", moves),
    Step("attacks", attacks),
    Step("throws", throws),
    Step("wounds", wounds),
    Step("end", end),
)
