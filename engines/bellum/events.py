"""Host events (rules «События»; phase 1 «Реакция на событие»).

The host writes events in the game's setup or a TOML file: text, the turn it happens, who
chooses, options with effects. Players choose with `событие N: вариант X`; when nobody chose,
the event's default option applies (or nothing, without one). Effects:
  people    province, faction, count (negative removes; never below zero)
  authority state, amount (a lasting change of the state's income)
  strength  faction, percent (the faction's battle strength this turn, 100 = unchanged)
  owner     province, state ("" : nobody owns it)
  faction   id, name, faction_kind (tribe | state), color, capital (a new host-controlled faction)
"""
from __future__ import annotations

import re
from dataclasses import replace
from typing import Any, Mapping

from forumgm.engines.base import Event, PhaseRng, SetupError
from forumgm.engines.bellum.state import TRIBE, BellumState, Faction, thaw_people
from forumgm.engines.bellum.work import Turn, TurnOrders
from forumgm.engines.bellum.world import frozen
from forumgm.parsers.orders.bellum import EventChoice

EVENT_KEYS = {"number", "turn", "text", "choosers", "default", "options"}
OPTION_KEYS = {"letter", "text", "effects"}
EFFECT_KEYS = {
    "people": {"province", "faction", "count"},
    "authority": {"state", "amount"},
    "strength": {"faction", "percent"},
    "owner": {"province", "state"},
    "faction": {"id", "name", "faction_kind", "color", "capital"},
}


def check_events(events: Any, provinces: Mapping, factions: Mapping, key: str = "setup.events") -> tuple[dict, ...]:
    """The host's events, checked key by key (ids named in effects must exist or be created
    by an earlier `faction` effect)."""
    if not isinstance(events, list):
        raise SetupError(key, "expected an array of [[events]] tables")
    known = set(factions)
    names = {f.name for f in factions.values()}
    out = []
    for i, event in enumerate(events):
        where = f"{key}[{i}]"
        _keys(event, EVENT_KEYS, where)
        for name in ("number", "turn"):
            if not isinstance(event.get(name), int) or event[name] < 1:
                raise SetupError(f"{where}.{name}", "expected a whole number, 1 or more")
        options = event.get("options")
        if not isinstance(options, list) or not options:
            raise SetupError(f"{where}.options", "expected an array of options ({letter, text, effects})")
        letters = []
        for j, option in enumerate(options):
            at = f"{where}.options[{j}]"
            _keys(option, OPTION_KEYS, at)
            letter = option.get("letter")
            if not isinstance(letter, str) or len(letter) != 1:
                raise SetupError(f"{at}.letter", "expected one letter")
            letters.append(letter.lower())
            for k, effect in enumerate(option.get("effects", [])):
                _effect(effect, f"{at}.effects[{k}]", provinces, known, names)
        if event.get("default") is not None and event["default"] not in letters:
            raise SetupError(f"{where}.default", f"expected one of the option letters {', '.join(letters)}")
        for chooser in event.get("choosers", []):
            if chooser not in known:
                raise SetupError(f"{where}.choosers", f"unknown faction {chooser!r}")
        out.append({**event, "options": [{**o, "letter": o["letter"].lower(), "effects": list(o.get("effects", []))}
                                         for o in options]})
    numbers = [(e["turn"], e["number"]) for e in out]
    if len(set(numbers)) != len(numbers):
        raise SetupError(key, "two events with the same number in one turn")
    return tuple(out)


def _keys(table: Any, allowed: set[str], where: str) -> None:
    if not isinstance(table, Mapping):
        raise SetupError(where, "expected a table")
    for name in table:
        if name not in allowed:
            raise SetupError(f"{where}.{name}", f"unknown key (expected one of {', '.join(sorted(allowed))})")


def _effect(effect: Any, where: str, provinces: Mapping, known: set[str], names: set[str]) -> None:
    if not isinstance(effect, Mapping) or effect.get("kind") not in EFFECT_KEYS:
        raise SetupError(f"{where}.kind", f"expected one of {', '.join(EFFECT_KEYS)}")
    _keys(effect, EFFECT_KEYS[effect["kind"]] | {"kind"}, where)
    if effect["kind"] == "faction":
        ident = effect.get("id")
        if not isinstance(ident, str) or not re.fullmatch(r"[a-z][a-z0-9_]*", ident) or ident in known:
            raise SetupError(f"{where}.id", f"expected a new faction id of lowercase latin letters, digits and _ (got {ident!r})")
        if not isinstance(effect.get("name"), str) or effect["name"] in names:
            raise SetupError(f"{where}.name", f"expected a new faction name (got {effect.get('name')!r})")
        known.add(ident)
        names.add(effect["name"])
        return
    for name, value in effect.items():
        if name == "province" and value not in provinces:
            raise SetupError(f"{where}.province", f"unknown province {value!r}")
        if name in ("faction", "state") and value and value not in known:
            raise SetupError(f"{where}.{name}", f"unknown faction {value!r}")


def _chosen(state: BellumState, event: Mapping, orders: TurnOrders) -> tuple[str | None, str | None]:
    for chooser in event.get("choosers", []):
        nick = state.controller(chooser)
        for sender, choice in orders.each(EventChoice):
            if sender == nick and choice.number == event["number"]:
                return choice.option, nick
    return event.get("default"), None


def apply_effect(turn: Turn, effect: Mapping[str, Any]) -> Turn:
    state = turn.state
    kind = effect["kind"]
    if kind == "people":
        people = thaw_people(state)
        here = people.setdefault(effect["province"], {})
        here[effect["faction"]] = max(0, here.get(effect["faction"], 0) + effect["count"])
        return turn.with_state(state.with_people(people))
    if kind == "authority":
        bonus = dict(state.authority_bonus)
        bonus[effect["state"]] = bonus.get(effect["state"], 0) + effect["amount"]
        return turn.with_state(replace(state, authority_bonus=frozen(bonus)))
    if kind == "strength":
        return turn.with_work(strength=frozen({**turn.work.strength, effect["faction"]: effect["percent"]}))
    if kind == "owner":
        owners = {p: o for p, o in state.owners.items() if p != effect["province"]}
        if effect["state"]:
            owners[effect["province"]] = effect["state"]
        return turn.with_state(replace(state, owners=frozen(owners)))
    faction = Faction(id=effect["id"], name=effect["name"], kind=effect.get("faction_kind", TRIBE), ever_state=effect.get("faction_kind") == "state",
                      color=effect.get("color", "#808080"), capital=effect.get("capital"))
    return turn.with_state(state.with_factions([*state.factions.values(), faction]))


def event_reactions(turn: Turn, orders: TurnOrders, rng: PhaseRng) -> tuple[Turn, list[Event]]:
    events = []
    for event in turn.state.host_events:
        if event["turn"] != turn.work.number:
            continue
        letter, nick = _chosen(turn.state, event, orders)
        option = next((o for o in event["options"] if o["letter"] == letter), None)
        if option is None:
            events.append(Event("host_event", {"number": event["number"], "text": event["text"], "option": None}))
            continue
        for effect in option["effects"]:
            turn = apply_effect(turn, effect)
        events.append(Event("host_event", {"number": event["number"], "text": event["text"], "option": letter,
                                           "option_text": option.get("text", ""), "chosen_by": nick,
                                           "effects": [dict(e) for e in option["effects"]]}))
    return turn, events
