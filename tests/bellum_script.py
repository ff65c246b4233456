"""Scripted orders for whole Bellum games (the 10-turn test and the benchmark): every player
moves half of each group to a neighbour, attacking everyone on odd turns, and every state
annexes where it holds the majority. Names are written in the case forms players use."""
from __future__ import annotations

from forumgm.engines.bellum.state import BellumState
from forumgm.parsers.orders.bellum import inflect


def scripted_orders(state: BellumState, turn: int) -> dict[str, str]:
    world = state.world
    out: dict[str, str] = {}
    for nick in state.players():
        lines = []
        own = state.own_faction(nick)
        for faction in state.controlled_by(nick):
            record = state.factions[faction]
            named = "" if faction == own else f" {inflect(record.name, 'gent', place=False)}"
            for province in state.provinces_of(faction):
                count = state.count(province, faction)
                near = world.neighbours(province, record.link_kinds)
                name = world.provinces[province].name
                if count >= 2 and near:
                    dest = near[(turn + len(province)) % len(near)]
                    stance = "атакуя всех" if turn % 2 else "мирно"
                    lines.append(f"{count // 2}{named} из {inflect(name, 'gent')} в "
                                 f"{inflect(world.provinces[dest].name, 'accs')}, {stance}")
                if faction == own:
                    lines.append(f"{name}: встретить боем всех")
        record = state.factions[own] if own else None
        if record is not None and record.is_state and not record.captured:
            lines += [f"присоединить {inflect(world.provinces[p].name, 'accs')}" for p in sorted(world.provinces)
                      if state.majority(p) == own and state.owners.get(p) != own]
        lines.append("ход готов")
        out[nick] = "\n".join(lines)
    return out


def every_faction_played(state_factions) -> list[dict[str, str]]:
    return [{"nick": f"Игрок {i + 1}", "faction": faction} for i, faction in enumerate(sorted(state_factions))]
