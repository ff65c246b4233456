"""The Legends game behind the daemon's `Rules` (engines/base.py)."""
from __future__ import annotations

from dataclasses import replace
from typing import Any, Mapping, Sequence

from forumgm.engines.base import (ORDERS, REPORT_LABELS, THREAD_VOTE, OrderPm, Outcome, Phase, PhaseInputs, RoleRow, Rules,
                                  SetupError, StandIn, Verdict, bandwagon, phase_rng)
from forumgm.engines.legends.day import lynch_open, resolve_day
from forumgm.engines.legends.night import resolve_night
from forumgm.engines.legends.orders import night_orders, read_pm
from forumgm.engines.legends.outcome import finish, winner
from forumgm.engines.legends.setup import build_state
from forumgm.engines.legends.state import LegendsState, dump_state, load_state
from forumgm.engines.legends.table import RuleTable, load_rule_table
from forumgm.engines.tally import VoteRules


class LegendsRules(Rules):
    """Phases: night 1, day 1, night 2, day 2, … (night N is followed by day N; the first lynch
    is on day `first_lynch_day`, i.e. after the results of night 2). In the continuous regime
    nights follow one another with no day between them."""

    name = "legends"
    title = "Легенды меча и магии"
    phase_labels = {"night": "ночь", "day": "день"}
    draft_labels = {**REPORT_LABELS, "lynch_report": "отчёт о линче", "role_reveal": "раскрытие роли",
                    "spy_result": "итог шпионажа", "spell": "заклинание"}
    cause_labels = {"attack": "атака", "magic_attack": "атака магией", "joint_attack": "совместная атака",
                    "lynch": "линч"}

    def __init__(self, table: RuleTable | None = None) -> None:
        self.table = table

    def setup(self, setup: Mapping[str, Any], seed: int) -> LegendsState:
        table = self.table
        if "rules" in setup:
            table = load_rule_table(setup["rules"], "setup.rules")
        if table is None:
            raise SetupError("setup.rules", "the legends rule table (config/legends/rules.toml) was not passed in")
        return build_state(table, {key: value for key, value in setup.items() if key != "rules"}, seed)

    def first_phase(self, state: LegendsState) -> Phase:
        return Phase(state.table.first_phase, 1)

    def next_phase(self, state: LegendsState, phase: Phase) -> Phase | None:
        if winner(state) or not state.living():
            return None
        if phase.kind == "day" or state.continuous:
            return Phase("night", phase.number + 1)
        return Phase("day", phase.number)

    def read_orders(self, state: LegendsState, phase: Phase, pm: OrderPm, earlier: Sequence[OrderPm]) -> list[Verdict]:
        return read_pm(state, phase, pm, earlier)

    def vote_rules(self, state: LegendsState, phase: Phase) -> VoteRules | None:
        if phase.kind != "day" or not lynch_open(state, phase.number):
            return None
        living = frozenset(p.nick for p in state.living())
        return VoteRules(colors=state.table.vote_colors, voters=living, candidates=living,
                         policy=state.table.vote_policy)

    def correction_kind(self, state: LegendsState, phase: Phase) -> str:
        """A day with a lynch takes votes in the thread; nights take order PMs."""
        return THREAD_VOTE if self.vote_rules(state, phase) is not None else ORDERS

    def complete_early(self, state: LegendsState, phase: Phase, orders: Sequence[OrderPm]) -> bool:
        """Rules §8: in the continuous regime a night ends once every living player wrote."""
        senders = {pm.sender for pm in orders}
        return state.continuous and phase.kind == "night" and all(p.nick in senders for p in state.living())

    def resolve(self, state: LegendsState, phase: Phase, inputs: PhaseInputs, seed: int, texts: Any) -> Outcome:
        rng = phase_rng(seed, phase)
        if phase.kind == "night":
            orders, events = night_orders(state, phase, inputs.orders)
            game, produced = resolve_night(state, orders, rng)
            return finish(state, game, phase, events + produced, rng, texts)
        game, events = resolve_day(state, phase.number, inputs.tally)
        return finish(state, game, phase, events, rng, texts, inputs.tally, inputs.post_urls)

    def stand_ins(self, state: LegendsState, phase: Phase, seed: int) -> list[StandIn]:
        """A day with a lynch: all on one player (he on another); a night: each spies (night 1
        forbids attacks) or attacks that player with all he has. A command his role cannot do is
        "not executed", as it would be for a player."""
        targets = bandwagon(self.alive(state), phase_rng(seed, phase).stream("stand-ins"))
        if phase.kind == "day":
            if self.vote_rules(state, phase) is None:
                return []
            return [StandIn(nick, vote=target) for nick, target in targets.items()]
        command = "Шпионаж" if phase.number == 1 else "Атака"
        return [StandIn(nick, pm=f"{command} {target}") for nick, target in targets.items()]

    def role_table(self, state: LegendsState) -> list[RoleRow]:
        """Players learn their role by a PM after their first effective action (rules §4), and
        nothing of it before."""
        table = state.table
        return [RoleRow(p.nick, p.role, table.clans[p.clan].name, p.alive,
                        "знает свою роль" if p.nick in state.revealed else "роли ещё не знает")
                for p in state.players]

    def alive(self, state: LegendsState) -> list[str]:
        return [p.nick for p in state.living()]

    def winner(self, state: LegendsState) -> str | None:
        return winner(state)

    def roles(self, state: LegendsState) -> Mapping[str, str]:
        return {p.nick: f"{p.role} ({p.rank}, {p.clan})" for p in state.players}

    def with_rules(self, state: LegendsState) -> LegendsState:
        """The state under the engine's rule table (the skills dealt from the old one stay as dealt)."""
        return state if self.table is None else replace(state, table=self.table)

    def dump(self, state: LegendsState) -> dict:
        return dump_state(state)

    def load(self, data: Mapping[str, Any]) -> LegendsState:
        return load_state(data)
