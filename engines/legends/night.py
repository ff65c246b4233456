"""A Legends night as the rules order it (§7): spells, modification, theft, defense placement,
spying, attacks. Each step is a small pure function (night, orders, rng) -> (night, events).

`Night` carries the game state and everybody's skills *as they stand at this point of the
night*: modification and theft change them for this night only, spells for good.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Iterator, Mapping

from forumgm.engines.base import Accepted, Event, PhaseRng, Step, run_steps
from forumgm.engines.legends.inherit import inherit_spells
from forumgm.engines.legends.state import LegendsState
from forumgm.engines.legends.table import DEFENSES
from forumgm.engines.phrases import Agreement
from forumgm.parsers.orders.legends import (
    Attack, Cast, Defend, Exchange, JointAttack, Modify, Spy, Steal, Transfer, canonical,
)

DEFENSE_OF = {"attack": "defense", "magic_attack": "magic_defense"}
CAUSE_OF = {"attack": "attack", "magic_attack": "magic_attack"}


@dataclass(frozen=True)
class NightOrders:
    """Accepted command lines of the living players, in roster order, each in the order sent;
    `out` are those naming a player who is out by now (reported at the step that would run them)."""

    by_player: Mapping[str, tuple[Accepted, ...]]
    out: tuple[tuple[str, Accepted], ...] = ()

    def each(self, *kinds: type) -> Iterator[tuple[str, int, Accepted]]:
        for nick, lines in self.by_player.items():
            for index, accepted in enumerate(lines):
                if isinstance(accepted.order, kinds):
                    yield nick, index, accepted


@dataclass(frozen=True)
class Night:
    game: LegendsState
    skills: Mapping[str, Mapping[str, int]]
    gifts: tuple[tuple[str, str, str, int], ...] = ()     # (defender, target, kind, amount)

    def skill(self, nick: str, skill: str) -> int:
        return self.skills[nick][skill]

    def with_skills(self, changes: Mapping[tuple[str, str], int]) -> "Night":
        skills = {nick: dict(values) for nick, values in self.skills.items()}
        for (nick, skill), value in changes.items():
            skills[nick][skill] = value
        return replace(self, skills=skills)

    def can(self, nick: str, skill: str) -> bool:
        """Whether the player's rank has this skill at all (the table's value is above 0)."""
        return self.game.table.ranks[self.game.player(nick).rank].skills[skill] > 0


def start_night(game: LegendsState) -> Night:
    return Night(game, {p.nick: game.skills(p.nick) for p in game.living()})


def not_executed(night: Night, nick: str, accepted: Accepted, reason: str) -> Event:
    """The command as the technical report names it: no roles, its nicks declined by their genders."""
    genders = Agreement.of_players(night.game.players).genders
    return Event("not_executed", {"nick": nick, "command": canonical(accepted.order, roles=False, genders=genders),
                                  "reason": reason})


# ---------------------------------------------------------------- 1. spells

def exchange_spells(night: Night, orders: NightOrders, rng: PhaseRng) -> tuple[Night, list[Event]]:
    """Both sides must send matching orders (rules §6); each pair is done once."""
    events, done = [], set()
    game = night.game
    for nick, index, accepted in orders.each(Exchange):
        if (nick, index) in done:
            continue
        order = accepted.order
        match = next(((p, i) for p, i, other in orders.each(Exchange)
                      if p == order.partner and other.order == Exchange(nick, order.take, order.give)), None)
        data = {"nick": nick, "partner": order.partner, "give": order.give, "take": order.take}
        if match is None:
            events.append(Event("spell_exchange", {**data, "ok": False, "reason": "no_match"}))
            continue
        done.add(match)
        if game.holder(order.give) != nick or game.holder(order.take) != order.partner:
            events.append(Event("spell_exchange", {**data, "ok": False, "reason": "not_holder"}))
            continue
        game = game.with_holder(order.give, order.partner).with_holder(order.take, nick)
        events.append(Event("spell_exchange", {**data, "ok": True}))
    return replace(night, game=game), events


def transfer_spells(night: Night, orders: NightOrders, rng: PhaseRng) -> tuple[Night, list[Event]]:
    events = []
    game = night.game
    for nick, _, accepted in orders.each(Transfer):
        order = accepted.order
        reason = "not_holder" if game.holder(order.spell) != nick else None
        if reason is None:
            game = game.with_holder(order.spell, order.to)
        events.append(Event("spell_transfer", {"nick": nick, "to": order.to, "spell": order.spell,
                                               "ok": reason is None, "reason": reason}))
    return replace(night, game=game), events


def cast_spells(night: Night, orders: NightOrders, rng: PhaseRng) -> tuple[Night, list[Event]]:
    """Activation works only for the holder, on a living clan-mate named with his true role,
    with the spell of that clan and rank; a cast spell is used up, its effect stays."""
    events = []
    for nick, _, accepted in orders.each(Cast):
        order = accepted.order
        game = night.game
        reason = _cast_problem(game, nick, order)
        data = {"nick": nick, "target": order.target, "spell": order.spell}
        if reason is None:
            effect = game.table.spells[order.spell].effect
            night = night.with_skills({(order.target, skill): night.skill(order.target, skill) + amount
                                       for skill, amount in effect.items()})
            game = game.with_holder(order.spell, None)
            night = replace(night, game=replace(game, enchantments=game.enchantments + ((order.target, order.spell),)))
        events.append(Event("spell_cast", {**data, "ok": reason is None, "reason": reason}))
    return night, events


def _cast_problem(game: LegendsState, caster: str, order: Cast) -> str | None:
    spell = game.table.spells[order.spell]
    if game.holder(order.spell) != caster:
        return "not_holder"
    target = game.player(order.target)
    if target.clan != game.player(caster).clan:
        return "other_clan"
    if order.role != target.role:
        return "wrong_role"
    if (spell.clan, spell.rank) != (target.clan, target.rank):
        return "wrong_spell"
    return None


# ---------------------------------------------------------------- 2. modification

def modify_skills(night: Night, orders: NightOrders, rng: PhaseRng) -> tuple[Night, list[Event]]:
    events = []
    for nick, _, accepted in orders.each(Modify):
        order = accepted.order
        if not night.can(nick, order.key):
            events.append(not_executed(night, nick, accepted, "role"))
            continue
        amount = night.skill(nick, order.key)
        before = night.skill(order.target, order.skill)
        after = before + amount if order.up else max(0, before - amount)
        night = night.with_skills({(order.target, order.skill): after})
        events.append(Event("modification", {"nick": nick, "target": order.target, "skill": order.skill,
                                             "up": order.up, "amount": amount, "before": before, "after": after}))
    return night, events


# ---------------------------------------------------------------- 3. theft

def steal_skills(night: Night, orders: NightOrders, rng: PhaseRng) -> tuple[Night, list[Event]]:
    events = []
    for nick, _, accepted in orders.each(Steal):
        order = accepted.order
        if not night.can(nick, order.key):
            events.append(not_executed(night, nick, accepted, "role"))
            continue
        amount = min(night.skill(nick, order.key), night.skill(order.victim, order.skill))
        victim_after = night.skill(order.victim, order.skill) - amount
        night = night.with_skills({(order.victim, order.skill): victim_after})
        recipient_after = night.skill(order.recipient, order.skill) + amount
        night = night.with_skills({(order.recipient, order.skill): recipient_after})
        events.append(Event("theft", {"nick": nick, "victim": order.victim, "recipient": order.recipient,
                                      "skill": order.skill, "amount": amount, "victim_after": victim_after,
                                      "recipient_after": recipient_after}))
    return night, events


# ---------------------------------------------------------------- 4. defense placement

def place_defenses(night: Night, orders: NightOrders, rng: PhaseRng) -> tuple[Night, list[Event]]:
    """A defender's potential is D+MD+SD as it stands after theft; his commands spend it top to
    bottom (trimmed), what he gives others comes on top of their own values, what he leaves
    unspent is lost. A defender who sends no defense command keeps his values."""
    events, own, gifts = [], {}, []
    for nick, lines in orders.by_player.items():
        placements = [(index, a) for index, a in enumerate(lines) if isinstance(a.order, Defend)]
        if not placements:
            continue
        if not night.game.table.ranks[night.game.player(nick).rank].distributes_defense:
            events += [not_executed(night, nick, a, "role") for _, a in placements]
            continue
        potential = sum(night.skill(nick, kind) for kind in DEFENSES)
        left, mine = potential, dict.fromkeys(DEFENSES, 0)
        placed = []
        for _, accepted in placements:
            order = accepted.order
            amount = min(left if order.amount is None else order.amount, left)
            left -= amount
            if order.target == nick:
                mine[order.kind] += amount
            else:
                gifts.append((nick, order.target, order.kind, amount))
            placed.append(Event("defense_placed", {"nick": nick, "target": order.target, "kind": order.kind,
                                                   "requested": order.amount, "amount": amount}))
        own[nick] = mine
        events += [Event("defense_potential", {"nick": nick, "potential": potential, "unspent": left}), *placed]
    changes = {(nick, kind): value for nick, values in own.items() for kind, value in values.items()}
    night = night.with_skills(changes)
    for _, target, kind, amount in gifts:
        night = night.with_skills({(target, kind): night.skill(target, kind) + amount})
    return replace(night, gifts=tuple(gifts)), events


def _placers(night: Night, target: str, kinds: set[str]) -> list[str]:
    return [giver for giver, to, kind, amount in night.gifts if to == target and kind in kinds and amount > 0]


# ---------------------------------------------------------------- 5. spying

def spy(night: Night, orders: NightOrders, rng: PhaseRng) -> tuple[Night, list[Event]]:
    events, spied = [], {}
    for nick, _, accepted in orders.each(Spy):
        target = accepted.order.target
        value, guard = night.skill(nick, "spying"), night.skill(target, "spy_defense")
        effective = value > guard
        spied.setdefault(target, []).append(effective)
        events.append(Event("spy", {"nick": nick, "target": target, "spying": value, "spy_defense": guard,
                                    "effective": effective, "effective_for": [nick] if effective else []}))
    for target, results in spied.items():
        if not any(results):
            events.append(Event("spy_defense_held", {
                "nick": target, "spies": len(results),
                "effective_for": [target, *_placers(night, target, {"spy_defense"})]}))
    return night, events


# ---------------------------------------------------------------- 6. attacks

@dataclass(frozen=True)
class Shot:
    kind: str
    target: str
    parts: tuple[tuple[str, int], ...]     # (attacker, contribution); two parts for a joint attack
    requested: int | None                  # a single attacker's written amount

    @property
    def value(self) -> int:
        return sum(amount for _, amount in self.parts)


def attack(night: Night, orders: NightOrders, rng: PhaseRng) -> tuple[Night, list[Event]]:
    """Attacks spend each attacker's A and MA top to bottom (first-command priority); a joint
    attack adds both partners' contributions; an attack above the matching defense kills."""
    failures = _joint_failures(night.game, orders)
    events = [Event("joint_attack_failed", {"nick": nick, "partner": a.order.partner, "kind": a.order.kind,
                                            "target": a.order.target, "reason": failures[(nick, i)]})
              for nick, i, a in orders.each(JointAttack) if (nick, i) in failures]
    shots, killers = _shots(night, orders, failures), {}
    for shot in shots:
        defense = night.skill(shot.target, DEFENSE_OF[shot.kind])
        effective = shot.value > defense
        if effective:
            killers.setdefault(shot.target, []).append(shot)
        events.append(_shot_event(shot, defense, effective))
    events += _defenses_held(night, shots, killers)
    return _kill(night, killers, rng, events)


def _joint_failures(game: LegendsState, orders: NightOrders) -> dict[tuple[str, int], str]:
    failures = {}
    for nick, index, accepted in orders.each(JointAttack):
        order = accepted.order
        mirror = next((other.order for p, _, other in orders.each(JointAttack)
                       if p == order.partner and other.order.partner == nick
                       and (other.order.kind, other.order.target) == (order.kind, order.target)), None)
        if mirror is None:
            failures[(nick, index)] = "partner_silent"
        elif order.partner_role != game.player(order.partner).role:
            failures[(nick, index)] = "wrong_partner_role"
        elif mirror.partner_role != game.player(nick).role:
            failures[(nick, index)] = "partner_named_wrong_role"
    return failures


def _shots(night: Night, orders: NightOrders, failures: Mapping[tuple[str, int], str]) -> list[Shot]:
    spent: dict[tuple[str, int], int] = {}
    for nick, lines in orders.by_player.items():
        budget = {kind: night.skill(nick, kind) for kind in DEFENSE_OF}
        for index, accepted in enumerate(lines):
            order = accepted.order
            if isinstance(order, (Attack, JointAttack)) and (nick, index) not in failures:
                wanted = budget[order.kind] if order.amount is None else order.amount
                spent[(nick, index)] = min(wanted, budget[order.kind])
                budget[order.kind] -= spent[(nick, index)]
    shots, joined = [], set()
    for nick, index, accepted in orders.each(Attack, JointAttack):
        order = accepted.order
        if (nick, index) not in spent or (nick, index) in joined:
            continue
        parts = [(nick, spent[(nick, index)])]
        if isinstance(order, JointAttack):
            partner = next((p, i) for p, i, other in orders.each(JointAttack)
                           if p == order.partner and other.order.partner == nick
                           and (other.order.kind, other.order.target) == (order.kind, order.target))
            joined.add(partner)
            parts.append((order.partner, spent[partner]))
        shots.append(Shot(order.kind, order.target, tuple(parts), order.amount))
    return shots


def _shot_event(shot: Shot, defense: int, effective: bool) -> Event:
    attackers = [nick for nick, _ in shot.parts]
    data = {"kind": shot.kind, "target": shot.target, "amount": shot.value, "defense": defense,
            "effective": effective, "effective_for": attackers if effective else []}
    if len(shot.parts) == 2:
        return Event("joint_attack", {"attackers": attackers, "amounts": [a for _, a in shot.parts], **data})
    return Event("attack", {"nick": attackers[0], "requested": shot.requested, **data})


def _defenses_held(night: Night, shots: list[Shot], killers: Mapping[str, list[Shot]]) -> list[Event]:
    """Defense is effective for a player who was attacked and survived every attack."""
    events = []
    for target in dict.fromkeys(shot.target for shot in shots if shot.value > 0):
        if target in killers:
            continue
        kinds = {DEFENSE_OF[shot.kind] for shot in shots if shot.target == target and shot.value > 0}
        events.append(Event("defense_held", {
            "nick": target, "attacks": sum(1 for s in shots if s.target == target and s.value > 0),
            "effective_for": [target, *_placers(night, target, kinds)]}))
    return events


def _kill(night: Night, killers: Mapping[str, list[Shot]], rng: PhaseRng,
          events: list[Event]) -> tuple[Night, list[Event]]:
    """The largest effective attack takes the victim's spells (a tie by the die); within a
    joint attack the larger contribution (a tie by the die)."""
    heirs, causes = {}, {}
    for target in (p.nick for p in night.game.players if p.nick in killers):
        shots = killers[target]
        shot = _by_die([s for s in shots if s.value == max(x.value for x in shots)], rng, "attack", target)
        top = max(amount for _, amount in shot.parts)
        heirs[target] = _by_die([n for n, amount in shot.parts if amount == top], rng, "partner", target)
        causes[target] = "joint_attack" if len(shot.parts) == 2 else CAUSE_OF[shot.kind]
        events.append(Event("killed", {"nick": target, "cause": causes[target], "by": heirs[target]}))
    game, inherited = inherit_spells(night.game.without(heirs), heirs)
    return replace(night, game=game), events + inherited


def _by_die(items: list, rng: PhaseRng, *purpose: str):
    return items[0] if len(items) == 1 else items[rng.die(len(items), *purpose) - 1]


def _reporting_out(run, *kinds: type):
    """The step, preceded by "not executed" for its commands that name a player already out,
    so that the technical report keeps the processing order (rules §7, §9)."""
    def step(night: Night, orders: NightOrders, rng: PhaseRng) -> tuple[Night, list[Event]]:
        night, events = run(night, orders, rng)
        dropped = [not_executed(night, nick, accepted, "player_out") for nick, accepted in orders.out
                   if isinstance(accepted.order, kinds)]
        return night, dropped + events
    return step


NIGHT = (
    Step("spell_exchange", _reporting_out(exchange_spells, Exchange)),
    Step("spell_transfer", _reporting_out(transfer_spells, Transfer)),
    Step("spell_activation", _reporting_out(cast_spells, Cast)),
    Step("modification", _reporting_out(modify_skills, Modify)),
    Step("theft", _reporting_out(steal_skills, Steal)),
    Step("defense", _reporting_out(place_defenses, Defend)),
    Step("spying", _reporting_out(spy, Spy)),
    Step("attacks", _reporting_out(attack, Attack, JointAttack)),
)


def resolve_night(game: LegendsState, orders: NightOrders, rng: PhaseRng) -> tuple[LegendsState, list[Event]]:
    night, events = run_steps(NIGHT, start_night(game), orders, rng)
    return night.game, events
