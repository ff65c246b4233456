"""The turn report (a literary summary and the technical list) and each player's PM, rendered
from the turn's events and the state after it."""
from __future__ import annotations

from typing import Any, Iterable, Sequence

from forumgm.engines.base import Event, OutgoingPm
from forumgm.engines.bellum.authority import authority_table
from forumgm.engines.bellum.state import BellumState
from forumgm.engines.texts import Texts
from forumgm.parsers.orders.bellum import inflect, is_plural

LITERARY = "bellum/literary.j2"
TECHNICAL = "bellum/technical.j2"
PLAYER = "bellum/pm_turn.j2"


def _of(events: Iterable[Event], *kinds: str) -> list[dict[str, Any]]:
    return [{"type": e.type, **e.data} for e in events if e.type in kinds]


def _context(state: BellumState, events: Sequence[Event], number: int) -> dict[str, Any]:
    return {
        "turn": number,
        "year": state.year(number),
        "P": {p.id: p.name for p in state.world.provinces.values()},
        "R": {r.id: r.name for r in state.world.regions.values()},
        "F": {f.id: f.name for f in state.factions.values()},
        "host_events": _of(events, "host_event"),
        "assimilations": _of(events, "assimilated", "assimilation_failed"),
        "politics": _of(events, "kingdom", "kingdom_failed", "independence", "independence_failed", "annexed",
                        "annex_failed", "abandoned", "abandon_failed"),
        "moves": _of(events, "moved", "move_void"),
        "battles": _of(events, "battle"),
        "retreats": _of(events, "fell_back", "retreated", "retreat_lost", "held", "captured"),
        "tribes": _of(events, "subjugated", "not_subjugated", "freed", "split"),
        "states": _of(events, "capital_lost", "secession"),
        "authority": authority_table(state),
        "at": lambda name: inflect(name, "loct"),
        "of": lambda name, case: inflect(name, case, place=False),
        "verb": lambda ids, one, many: many if len(ids) > 1 or is_plural(state.factions[ids[0]].name) else one,
    }


def turn_reports(state: BellumState, events: Sequence[Event], number: int, texts: Texts) -> dict[str, str]:
    context = _context(state, events, number)
    return {"literary": texts.render(LITERARY, **context), "technical": texts.render(TECHNICAL, **context)}


def _touches(event: dict[str, Any], mine: set[str]) -> bool:
    values = [event.get(key) for key in ("faction", "state", "tribe", "master", "target", "new")]
    if event["type"] == "battle":
        values += [m for side in event["sides"] for m in side["members"]]
    return any(value in mine for value in values)


def player_pms(state: BellumState, events: Sequence[Event], number: int, texts: Texts) -> list[OutgoingPm]:
    """Each player's own situation after the turn: his factions' people and provinces, his
    authority, and every event that touched them."""
    context = _context(state, events, number)
    table = context["authority"]
    pms = []
    for nick in state.players():
        mine = set(state.controlled_by(nick)) | {state.own_faction(nick)}
        factions = [{"id": f, "people": {p: state.count(p, f) for p in state.provinces_of(f)},
                     "owned": state.owned_by(f), "captured": state.factions[f].captured,
                     "master": state.factions[f].master, "authority": table.get(f)}
                    for f in sorted(mine)]
        touched = [e for e in ({"type": e.type, **e.data} for e in events) if _touches(e, mine)]
        text = texts.render(PLAYER, nick=nick, factions=factions, touched=touched, **context)
        pms.append(OutgoingPm(nick, "turn_pm", text, subject=f"Bellum: итоги хода {number} ({context['year']} г.)"))
    return pms
