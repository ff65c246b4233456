"""One Bellum turn: the rules' eight phases («Очередность действий») and what follows them,
each a named step over the frozen state, in the rules' order."""
from __future__ import annotations

from dataclasses import replace

from forumgm.engines.base import Event, PhaseRng, Step, run_steps
from forumgm.engines.bellum.authority import authority
from forumgm.engines.bellum.events import event_reactions
from forumgm.engines.bellum.politics import assimilation, capital_loss, politics
from forumgm.engines.bellum.state import BellumState
from forumgm.engines.bellum.tribes import freeing, splitting
from forumgm.engines.bellum.war import battle, last_retreat, movement, retreat, second_battle
from forumgm.engines.bellum.work import Turn, TurnOrders, Work

TURN = (
    Step("events",        event_reactions),   # 1. реакция на событие
    Step("assimilation",  assimilation),      # 2. ассимиляция
    Step("politics",      politics),          # 3. королевства, присоединение и оставление провинций
    Step("movement",      movement),          # 4. перемещение
    Step("battle",        battle),            # 5. бой
    Step("retreat",       retreat),           # 6. отступление и покорение
    Step("second_battle", second_battle),     # 7. бой отступивших в свою провинцию с атакующими её
    Step("last_retreat",  last_retreat),      # 8. отступление (и покорение побеждённых в бою 7)
    # after the eight phases: the rest of the turn's consequences
    Step("freeing",       freeing),
    Step("splitting",     splitting),
    Step("capital_loss",  capital_loss),
    Step("authority",     authority),
)


def resolve_turn(state: BellumState, number: int, orders: TurnOrders, rng: PhaseRng) -> tuple[BellumState, list[Event]]:
    work = Work(number=number, kingdom_holder=state.majority(state.kingdom_province()))
    turn, events = run_steps(TURN, Turn(state, work), orders, rng)
    return replace(turn.state, turn=number, last_battles=turn.work.battles), events
