"""What the literary report tells of a night: its events ranked by interest, as a host would
choose them (a death before a theft, a joint strike before a lone one), told in processing order.

Only what the rules let the thread know goes into a highlight: who fell, who attacked (the
technical report names them too), whose skill was stolen or changed, who received a spell;
never a living player's role, never who spied.
"""
from __future__ import annotations

from typing import Any

from forumgm.engines.base import Event
from forumgm.engines.phrases import ranked, russian_sorted

MOST, FEWEST = 6, 3
# Interest of each kind of highlight: the report keeps the MOST highest, never fewer than
# FEWEST where the night had them.
INTEREST = {"joint_kill": 100, "joint_kill_magic": 100, "kill": 90, "kill_magic": 90, "saved": 80, "survived": 70,
            "theft": 60, "spell_cast": 55, "modification_up": 50, "modification_down": 50, "spell_moved": 45,
            "spells_moved": 48, "spy": 40}
CLOSING = ("continuous_regime", "victory", "no_survivors")
# Kinds told together once a night has this many of them («пали сразу трое: …»): a host never
# tells five thefts one by one, and a bank's phrases would run out.
GROUPED = {"kill": "many_kills", "kill_magic": "many_kills", "theft": "many_thefts", "spy": "many_spies",
           "survived": "many_survived", "modification_up": "many_modifications",
           "modification_down": "many_modifications", "spell_moved": "many_spells", "spells_moved": "many_spells"}
GROUP_FROM = 3
# A group of a lesser kind with more players than this is told without the list (a host writes
# «изменились силы многих героев», not twelve nicks); deaths and survivals are always named.
CROWD = 4
UNLISTED = {"many_thefts", "many_spies", "many_modifications", "many_spells"}
INTEREST |= {"many_kills": 95, "many_thefts": 65, "many_spies": 45, "many_survived": 75, "many_modifications": 55,
             "many_spells": 50}
INTEREST |= {f"{kind}_crowd": INTEREST[kind] for kind in UNLISTED}


def highlights(events: list[Event]) -> list[dict[str, Any]]:
    """The night's most interesting highlights, {kind, …names}, in processing order; the kind
    names the template's phrase bank, a group's `nicks` lists its players."""
    return ranked(_grouped(_all(events)), INTEREST, MOST)


def closings(events: list[Event]) -> list[dict[str, Any]]:
    """The end of the night the report always tells: the regime switch, the victory."""
    return [{"kind": e.type, **({"clan": e.data["clan"]} if e.type == "victory" else {})}
            for e in events if e.type in CLOSING]


def _grouped(found: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Highlights of one group's kinds, where a night has GROUP_FROM of them or more, become one
    at the place of the first, naming each player once."""
    counts: dict[str, int] = {}
    for h in found:
        group = GROUPED.get(h["kind"])
        counts[group] = counts.get(group, 0) + 1
    out, groups = [], {}
    for h in found:
        group = GROUPED.get(h["kind"])
        if group is None or counts[group] < GROUP_FROM:
            out.append(h)
        elif group not in groups:
            groups[group] = {"kind": group, "nicks": [h["nick"]]}
            out.append(groups[group])
        elif h["nick"] not in groups[group]["nicks"]:
            groups[group]["nicks"].append(h["nick"])
    for group in groups.values():
        group["nicks"] = russian_sorted(group["nicks"])
        if group["kind"] in UNLISTED and len(group["nicks"]) > CROWD:
            group["kind"] += "_crowd"
    return out


def _all(events: list[Event]) -> list[dict[str, Any]]:
    out, spied = [], set()
    strikes = {e.data["target"]: e for e in events if e.type in ("attack", "joint_attack") and e.data["effective"]}
    for event in events:
        data = event.data
        if not data.get("ok", True):
            continue
        if event.type == "killed":
            strike = strikes.get(data["nick"])
            magic = "_magic" if strike is not None and strike.data["kind"] == "magic_attack" else ""
            if data["cause"] == "joint_attack" and strike is not None and strike.type == "joint_attack":
                first, second = strike.data["attackers"]
                out.append({"kind": "joint_kill" + magic, "nick": data["nick"], "first": first, "second": second})
            else:
                out.append({"kind": "kill" + magic, "nick": data["nick"], "by": data["by"]})
        elif event.type == "defense_held":
            helpers = [nick for nick in data.get("effective_for", ()) if nick != data["nick"]]
            if helpers:
                out.append({"kind": "saved", "nick": helpers[0], "target": data["nick"]})
            else:
                out.append({"kind": "survived", "nick": data["nick"], "attacks": data["attacks"]})
        elif event.type == "theft" and data["amount"] > 0:
            out.append({"kind": "theft", "nick": data["victim"], "skill": data["skill"]})
        elif event.type == "modification" and data["before"] != data["after"]:
            out.append({"kind": "modification_" + ("up" if data["up"] else "down"), "nick": data["target"],
                        "skill": data["skill"]})
        elif event.type == "spell_cast":
            out.append({"kind": "spell_cast", "nick": data["target"], "spell": data["spell"]})
        elif event.type == "spell_inherited" and out and out[-1]["kind"] in ("spell_moved", "spells_moved") \
                and out[-1]["nick"] == data["to"] and out[-1].get("from") == data["from"]:
            # a fallen hero's spells go to one heir together: one highlight for all of them
            spells = out[-1].get("spells", [out[-1].get("spell")])
            out[-1] = {"kind": "spells_moved", "nick": data["to"], "from": data["from"],
                       "spells": [*spells, data["spell"]]}
        elif event.type in ("spell_transfer", "spell_exchange", "spell_inherited"):
            out += [{"kind": "spell_moved", "nick": to, "spell": spell, "from": data.get("from")}
                    for spell, to in _moved(event)]
        elif event.type == "spy" and data["effective"] and data["target"] not in spied:
            spied.add(data["target"])
            out.append({"kind": "spy", "nick": data["target"]})
    return out


def _moved(event: Event) -> list[tuple[str, str]]:
    """(spell, new holder) of a transfer, an exchange or an inheritance."""
    data = event.data
    if event.type == "spell_exchange":
        return [(data["give"], data["partner"]), (data["take"], data["nick"])]
    return [(data["spell"], data["to"])]
