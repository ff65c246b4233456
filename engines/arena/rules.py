"""Arena behind the daemon's `Rules` (engines/base.py): one phase ("step-N") is one step of the fight."""
from __future__ import annotations

from dataclasses import replace
from typing import Any, Mapping, Sequence

from forumgm.engines.arena.orders import read_pm
from forumgm.engines.arena.reports import outcome
from forumgm.engines.arena.resolve import resolve_step, reveals_before_first_step
from forumgm.engines.arena.setup import start_state
from forumgm.engines.arena.standins import stand_ins
from forumgm.engines.arena.state import ArenaState, dump_state, load_state
from forumgm.engines.arena.table import ArenaTable
from forumgm.engines.base import (REPORT_LABELS, OrderPm, Outcome, Phase, PhaseInputs, Rules, SetupError, StandIn, Verdict,
                                  phase_rng)

STEP = "step"


class ArenaRules(Rules):
    name = "arena"
    title = "Арена"          # as its reports head themselves («Арена. Шаг 3»)
    phase_labels = {STEP: "шаг"}
    draft_labels = {**REPORT_LABELS, "summary_report": "состояние бойцов", "refill": "запрос пополнения стопок",
                    "reveal": "открытые карты соперника"}
    position_report = "summary_report"

    def __init__(self, table: ArenaTable | None = None) -> None:
        self.table = table

    def setup(self, setup: Mapping[str, Any], seed: int) -> ArenaState:
        if self.table is None:
            raise SetupError("rules", "the arena tables (config/arena/*.toml) were not passed in")
        return start_state(self.table, setup)

    def first_phase(self, state: ArenaState) -> Phase:
        return Phase(STEP, 0 if reveals_before_first_step(state) else state.step + 1)

    def next_phase(self, state: ArenaState, phase: Phase) -> Phase | None:
        return None if state.result is not None else Phase(STEP, phase.number + 1)

    def read_orders(self, state: ArenaState, phase: Phase, pm: OrderPm, earlier: Sequence[OrderPm]) -> list[Verdict]:
        return read_pm(state, pm, earlier)

    # a stack may be corrected and a replacement sent until the deadline: never complete early

    def resolve(self, state: ArenaState, phase: Phase, inputs: PhaseInputs, seed: int, texts: Any) -> Outcome:
        rng = phase_rng(seed, phase)
        game, events, rows = resolve_step(state, phase.number, inputs.orders, rng)
        return outcome(state, game, phase.number, events, rows, texts, inputs.next_deadlines.get(STEP), rng)

    def stand_ins(self, state: ArenaState, phase: Phase, seed: int) -> list[StandIn]:
        """Each fighter whose stacks are due lays them down: the hands fight, the legs close in (standins)."""
        return stand_ins(state, phase, seed)

    def alive(self, state: ArenaState) -> list[str]:
        return [f.nick for f in state.in_fight()]

    def winner(self, state: ArenaState) -> str | None:
        if state.result is None:
            return None
        return state.result["winner"] or state.result["kind"]

    def with_rules(self, state: ArenaState) -> ArenaState:
        """The state under the engine's tables (the fighters' cards dealt from the old ones stay as dealt)."""
        return state if self.table is None else replace(state, table=self.table)

    def dump(self, state: ArenaState) -> dict:
        return dump_state(state)

    def load(self, data: Mapping[str, Any]) -> ArenaState:
        return load_state(data)

    def summary(self, state: ArenaState) -> dict:
        """`forumgm simulate`'s top-level keys beyond the common ones."""
        return {"result": state.result}
