"""What happens to tribes (rules «Механика игры за племена»): subjugation of a tribe beaten
everywhere it lives (decided at the retreat steps, engines.bellum.war), and at the end of a turn
freeing after the master's three losing turns and the split of a tribe whose groups stay cut off
from each other."""
from __future__ import annotations

from dataclasses import replace

from forumgm.engines.base import Event, PhaseRng
from forumgm.engines.bellum.politics import free_id
from forumgm.engines.bellum.state import BellumState, Faction, thaw_people
from forumgm.engines.bellum.work import Turn, TurnOrders, Work


def subjugate(state: BellumState, work: Work) -> tuple[BellumState, list[Event], frozenset[str]]:
    """At a retreat step (6, and 8 for the battles of 7): a free tribe beaten in every province
    where it had people after movement is subjugated by the tribe that beat it with the largest
    total strength, before anyone retreats — a subjugated tribe does not retreat (rules «Бой»:
    «Исключение составляют ситуации, когда народ покорен либо захвачен»). States subjugate
    nobody: a tribe beaten only by states stays free (said once a turn: `decided`)."""
    events, decided = [], set(work.decided)
    for faction in sorted(state.factions):
        record = state.factions[faction]
        places = work.after_move.get(faction, frozenset())
        if record.is_state or record.master is not None or not places or faction in decided:
            continue
        if not all((p, faction) in work.lost for p in places):
            continue
        decided.add(faction)
        by = {w: s for w, s in work.beaten_by.get(faction, {}).items() if not state.factions[w].is_state}
        if not by:
            events.append(Event("not_subjugated", {"tribe": faction, "reason": "beaten_by_states"}))
            continue
        master = min(by, key=lambda w: (-by[w], w))
        state = state.update(faction, master=master, losing_turns=0)
        events.append(Event("subjugated", {"tribe": faction, "master": master, "strength": round(by[master], 2)}))
    return state, events, frozenset(decided)


def freeing(turn: Turn, orders: TurnOrders, rng: PhaseRng) -> tuple[Turn, list[Event]]:
    """Counts each faction's losing turns; a tribe goes free once its master has lost at least
    one battle in each of `freed_after` consecutive turns."""
    state, events = turn.state, []
    state = state.with_factions(replace(f, losing_turns=f.losing_turns + 1 if f.id in turn.work.losers else 0)
                                for f in state.factions.values())
    for faction in sorted(state.factions):
        master = state.factions[faction].master
        if master is not None and state.factions[master].losing_turns >= state.rules.freed_after:
            state = state.update(faction, master=None)
            events.append(Event("freed", {"tribe": faction, "master": master,
                                          "losing_turns": state.factions[master].losing_turns}))
    return turn.with_state(state), events


def groups(state: BellumState, faction: str) -> list[list[str]]:
    """The faction's provinces split into groups connected through its own provinces."""
    places = set(state.provinces_of(faction))
    kinds = state.factions[faction].link_kinds
    out = []
    while places:
        start = min(places)
        part, stack = {start}, [start]
        while stack:
            for near in state.world.neighbours(stack.pop(), kinds):
                if near in places and near not in part:
                    part.add(near)
                    stack.append(near)
        places -= part
        out.append(sorted(part))
    return out


def splitting(turn: Turn, orders: TurnOrders, rng: PhaseRng) -> tuple[Turn, list[Event]]:
    """A tribe whose groups stay cut off for `split_after` turns splits: every group but the
    largest becomes a new host-controlled tribe."""
    state, events = turn.state, []
    counted, splits = [], []
    for record in state.factions.values():
        parts = groups(state, record.id) if not record.is_state else []
        cut = record.cut_turns + 1 if len(parts) > 1 else 0
        if cut >= state.rules.split_after:
            splits.append((record, parts))
            cut = 0
        counted.append(replace(record, cut_turns=cut) if not record.is_state else record)
    state = state.with_factions(counted)
    for record, parts in sorted(splits, key=lambda item: item[0].id):
        faction = record.id
        parts.sort(key=lambda part: (-sum(state.count(p, faction) for p in part), part[0]))
        for part in parts[1:]:
            biggest = min(part, key=lambda p: (-state.count(p, faction), p))
            new = Faction(id=free_id(state, f"{faction}_{biggest}"),
                          name=f"{record.name} ({state.world.provinces[biggest].name})",
                          kind=record.kind, color=record.color, ever_state=record.ever_state)
            state = state.with_factions([*state.factions.values(), new])
            people = thaw_people(state)
            for province in part:
                people[province][new.id] = people[province].pop(faction)
            state = state.with_people(people)
            events.append(Event("split", {"tribe": faction, "new": new.id, "provinces": part}))
    return turn.with_state(state), events
