"""From order PMs to the night's accepted commands, through the shared order grammar."""
from __future__ import annotations

from typing import Sequence

from forumgm.engines.base import Accepted, Event, OrderPm, Phase, Rejected, Verdict, split_lines
from forumgm.engines.legends.night import NightOrders
from forumgm.engines.legends.state import LegendsState
from forumgm.parsers.names import Roster
from forumgm.parsers.orders.legends import (
    Attack, Cast, Context, Defend, Exchange, JointAttack, Modify, Order, Spy, Steal, Transfer, parse_orders,
)


def order_context(state: LegendsState, phase: Phase, pm: OrderPm, everyone: bool = False) -> Context:
    """The names and rules `pm` is read by: a seat by its nick, its aliases and the account holding
    it then. `everyone` reads names of the fallen as if alive (resolution reports such commands)."""
    table = state.table
    roster = Roster(tuple(p.nick for p in state.players),
                    {alias: p.nick for p in state.players for alias in p.aliases}).also_named(pm.seat_names)
    return Context(
        sender=pm.sender, roster=roster, living=frozenset(p.nick for p in state.players if everyone or p.alive), night=phase.number,
        spells=tuple(table.spells), roles=tuple(table.roles),
        banned=table.night1_banned if phase.number == 1 else frozenset(),
        theft_players=table.theft_players, spy_targets=table.spy_targets,
    )


# Why a whole PM is refused: the receipt's words (the technical report has its own).
REFUSALS = {"not_player": "вы не участвуете в этой игре", "out": "вы выбыли из игры",
            "day": "сейчас день: команды принимаются ночью"}


def read_pm(state: LegendsState, phase: Phase, pm: OrderPm, earlier: Sequence[OrderPm]) -> list[Verdict]:
    refusal = _refusal(state, phase, pm.sender)
    if refusal:
        return [Rejected(line, REFUSALS[refusal]) for line in split_lines(pm.text)]
    return parse_orders(pm.text, order_context(state, phase, pm), [p.text for p in earlier])


def _refusal(state: LegendsState, phase: Phase, sender: str) -> str | None:
    if not state.is_player(sender):
        return "not_player"
    if not state.player(sender).alive:
        return "out"
    if phase.kind != "night":
        return "day"
    return None


def night_orders(state: LegendsState, phase: Phase, pms: Sequence[OrderPm]) -> tuple[NightOrders, list[Event]]:
    """Each living player's accepted lines, PM after PM. A command naming a player who is out
    by now (lynched after the order was sent) is set apart to be reported as not executed."""
    by_player: dict[str, list[Accepted]] = {p.nick: [] for p in state.living()}
    events, out = [], []
    for index, pm in enumerate(pms):
        if pm.sender not in by_player:
            events.append(Event("orders_ignored", {"nick": pm.sender, "reason": _refusal(state, phase, pm.sender)}))
            continue
        earlier = [p.text for p in pms[:index] if p.sender == pm.sender]
        for verdict in parse_orders(pm.text, order_context(state, phase, pm, everyone=True), earlier):
            if not verdict.ok:
                continue
            if all(state.is_alive(nick) for nick in named_players(verdict.order)):
                by_player[pm.sender].append(verdict)
            else:
                out.append((pm.sender, verdict))
    return NightOrders({nick: tuple(lines) for nick, lines in by_player.items() if lines}, tuple(out)), events


def named_players(order: Order) -> tuple[str, ...]:
    match order:
        case JointAttack():
            return order.target, order.partner
        case Attack() | Defend() | Spy() | Modify() | Cast():
            return (order.target,)
        case Steal():
            return order.victim, order.recipient
        case Transfer():
            return (order.to,)
        case Exchange():
            return (order.partner,)
    raise TypeError(order)
