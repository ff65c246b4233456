"""What the thread's commentary tells of a step: its events ranked as a commentator would rank them
(a head off, a knockout, a turn of fortune before a parried blow or a step forward), the most
interesting kept in the order they happened, with the step's decisive moment leading.

A blow and the wound it left are one happening («проводит выпад в голову — Кума получает
ранение»); the technical report keeps every event and every roll.
"""
from __future__ import annotations

from typing import Any, Sequence

from forumgm.engines.arena.state import ArenaState
from forumgm.engines.base import Event
from forumgm.engines.phrases import ranked

MOST = 6
# A headline leads the commentary from this interest up: a wound, a broken weapon, a fighter out.
HEADLINE = 70


def _interest(e: dict[str, Any]) -> int:
    kind = e["type"]
    if kind == "attack":
        effects = e.get("effects", ())
        if "head_severed" in effects:
            return 100
        if "knockout" in effects:
            return 98
        if any(effect.startswith("severed:") for effect in effects):
            return 95
        if any(effect.startswith("stack_removed:") for effect in effects):
            return 85
        return {"hit": 70 if e.get("level") else 55 if e.get("armour") else 35, "miss_shift": 45, "held": 50,
                "zero": 40, "no_damage": 35, "out_of_range": 15, "no_target": 10}[e["outcome"]]
    if kind == "fighter_out":
        return 92 if e["kind"] == "сдача" else 88
    return {"breakage": 80, "armour": 78, "throw": 65 if e.get("hit") else 30, "reveal": 20,
            "move": 8, "turn": 5}[kind]


def _told(e: dict[str, Any]) -> bool:
    """An event the commentary can tell at all (a broken piece, not a roll that broke nothing)."""
    kind = e["type"]
    if kind in ("breakage", "armour"):
        return bool(e["broken"])
    if kind == "move":
        return not e.get("blocked")
    if kind == "reveal":
        return bool(e.get("playout"))
    return kind in ("attack", "throw", "turn", "fighter_out")


def _with_wounds(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each blow carries the wound it left (wound: its name, effects, severed, removed; None and
    none where it left none); the wound is not told apart."""
    wounds = [e for e in events if e["type"] == "wound"]
    out = []
    for e in events:
        if e["type"] == "attack":
            e = {"wound": None, "effects": [], "severed": None, "removed": None, **e}
        if e["type"] == "attack" and e.get("level"):
            wound = next((w for w in wounds if (w["by"], w["nick"], w["zone"]) == (e["attacker"], e["defender"], e["zone"])),
                         None)
            if wound is not None:
                wounds.remove(wound)
                cut = next((x.split(":") for x in wound["effects"] if x.startswith(("severed:", "stack_removed:"))),
                           (None, None))
                # severed / removed: the hand (right, left, legs) the wound cut off or put out of the fight
                e = {**e, "wound": wound["name"], "effects": wound["effects"],
                     "severed": cut[1] if cut[0] == "severed" else None,
                     "removed": cut[1] if cut[0] == "stack_removed" else None}
        out.append(e)
    return [e for e in out if e["type"] != "wound"]


def _severity(fighter: Any) -> int:
    return sum(w.level for w in fighter.wounds)


def _leader(game: ArenaState) -> str | None:
    """The one fighter in the fight less wounded than every other, or None."""
    standing = sorted(game.in_fight(), key=_severity)
    if not standing:
        return None
    if len(standing) == 1 or _severity(standing[0]) < _severity(standing[1]):
        return standing[0].nick
    return None


def _fortune(events: Sequence[dict[str, Any]], before: ArenaState, after: ArenaState) -> dict[str, Any] | None:
    """First blood, or the advantage passing to another fighter (a turn of fortune), while the fight goes on."""
    if after.result is not None:
        return None
    blows = [e for e in events if e["type"] == "attack" and e.get("wound")]
    if blows and not any(f.wounds for f in before.fighters):
        return {"kind": "first_blood", "nick": blows[0]["attacker"], "target": blows[0]["defender"], "interest": 75}
    was, now = _leader(before), _leader(after)
    if was is not None and now is not None and was != now:
        return {"kind": "turn", "nick": now, "interest": 90}
    return None


def _headline(e: dict[str, Any]) -> dict[str, Any] | None:
    kind = e["type"]
    if kind == "attack":
        effects = e.get("effects", ())
        for effect, name in (("head_severed", "head_severed"), ("knockout", "knockout"), ("severed:", "severed"),
                             ("stack_removed:", "heavy")):
            if any(x.startswith(effect) for x in effects):
                return {"kind": name, "nick": e["defender"], "by": e["attacker"], "zone": e["zone"]}
        return {"kind": "wound", "nick": e["defender"], "by": e["attacker"]} if e.get("wound") else None
    if kind == "fighter_out":
        return {"kind": "surrender" if e["kind"] == "сдача" else "out", "nick": e["nick"]}
    if kind == "breakage":
        return {"kind": "weapon_broken", "nick": e["nick"], "weapon": e["weapon"]}
    if kind == "armour":
        return {"kind": "armour_broken", "nick": e["nick"], "piece": e["piece"]}
    return None


def commentary(events: Sequence[Event], before: ArenaState, after: ArenaState) -> dict[str, Any]:
    """What the commentary of a step tells (see told), its turn of fortune from the fighters' wounds."""
    happened = [e.as_json() for e in events]
    return told(happened, _fortune(_with_wounds(happened), before, after))


def told(happened: list[dict[str, Any]], fortune: dict[str, Any] | None = None) -> dict[str, Any]:
    """{headline, told, over}: the step's decisive moment ({kind, nick, …}: the most interesting
    happening, or the turn of fortune; None on a step without one), the MOST most interesting
    happenings (event dicts) in their order, the fight's end (its fight_over event) or None."""
    happened = _with_wounds(happened)
    # a fighter knocked out or beheaded by a blow told leaves the fight in that sentence
    fallen = {e["defender"] for e in happened if e["type"] == "attack" and {"knockout", "head_severed"} & set(e["effects"])}
    tellable = [{**e, "interest": _interest(e)} for e in happened
                if _told(e) and not (e["type"] == "fighter_out" and e["nick"] in fallen)]
    # the winner playing his sequence out after a surrender is said once a step
    playouts = [e for e in tellable if e["type"] == "reveal"]
    tellable = [e for e in tellable if e["type"] != "reveal" or e is playouts[0]]
    best = max(tellable, key=lambda e: e["interest"], default=None)
    lead = fortune
    if best is not None and best["interest"] >= HEADLINE and (lead is None or best["interest"] >= lead["interest"]):
        lead = _headline(best) or lead
    return {"headline": lead, "told": ranked(tellable, lambda e: e["interest"], MOST),
            "over": next((e for e in happened if e["type"] == "fight_over"), None)}
