"""Classic forum Mafia: PM day votes, night actions, jail, team kill (the rules: docs/mafia.md).

`RULES` (or `make_rules(rule_table)`) is the engine the daemon and `forumgm simulate` drive.
Beyond what every game does it drafts the role PMs (`role_pms`), answers PMs that came after the
deadline (`late_verdicts`), builds the reminder of missing day votes given the time left before
the deadline (`reminder`), drafts the host's thread-discipline digest (`host_digest`) and takes
a rule config the host accepted after the deal (`with_rules`: the next report says so).
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, ClassVar, Mapping, Sequence

from forumgm.engines.base import (REPORT_LABELS, CountedVote, DiscardedVote, Elimination, Game, OrderPm, Outcome,
                                  OutgoingPm, Phase, PhaseInputs, RoleRow, Rules, StandIn, Tally, Verdict, bandwagon,
                                  phase_rng)
from forumgm.engines.mafia import orders as _orders
from forumgm.engines.mafia.briefing import role_pms
from forumgm.engines.mafia.discipline import host_digest
from forumgm.engines.mafia.freeze import change_rules
from forumgm.engines.mafia.reminder import Reminder, reminder
from forumgm.engines.mafia.report import literary_report, round_pms, round_report
from forumgm.engines.mafia.roles import ACTIONS, TEAM, is_mafia
from forumgm.engines.phrases import Agreement
from forumgm.engines.mafia.round import JAIL, KILL_MAFIA, KILL_MANIAC, MISSED_VOTES, OUT_EVENTS, resolve_round
from forumgm.engines.mafia.setup import start_state
from forumgm.engines.mafia.state import MafiaState, RuleConfig, dump_state, load_state, rule_config
from forumgm.engines.mafia.win import SIDE_NAMES, WINNER_NAMES
from forumgm.engines.texts import Texts
from forumgm.parsers.forums.base import Post
from forumgm.parsers.orders.mafia import CANONICAL_VERB

ROUND = "round"

__all__ = ["RULES", "MafiaRules", "make_rules", "Reminder"]


def _eliminations(events) -> tuple[Elimination, ...]:
    return tuple(Elimination(e.data["nick"], e.data["cause"]) for e in events if e.type in OUT_EVENTS)


@dataclass(frozen=True)
class MafiaRules(Rules):
    config: RuleConfig = RuleConfig()
    name: str = "mafia"
    title: str = "Мафия"
    phase_labels: ClassVar[Mapping[str, str]] = {ROUND: "круг"}
    draft_labels: ClassVar[Mapping[str, str]] = {
        "role": "роль", "round_report": "итоги дня", "literary_report": REPORT_LABELS["literary_report"],
        "check_result": "итог проверки", "warning": "предупреждение", "reminder": "напоминание",
        "discipline": "дисциплина в теме"}
    cause_labels: ClassVar[Mapping[str, str]] = {
        KILL_MAFIA: "убийство мафией", KILL_MANIAC: "убийство маньяком", JAIL: "тюрьма по итогам голосования",
        MISSED_VOTES: "пропуски дневного голосования"}

    def setup(self, setup: Mapping[str, Any], seed: int) -> MafiaState:
        return start_state(setup, seed, self.config)

    def first_phase(self, state: MafiaState) -> Phase:
        return Phase(ROUND, state.round + 1)

    def next_phase(self, state: MafiaState, phase: Phase) -> Phase | None:
        return None if state.winner else Phase(ROUND, phase.number + 1)

    def read_orders(self, state: MafiaState, phase: Phase, pm: OrderPm, earlier: Sequence[OrderPm]) -> list[Verdict]:
        return _orders.read_orders(state, phase, pm, earlier)

    def late_verdicts(self, pm: OrderPm) -> list[Verdict]:
        """The receipt lines for a PM that reached the host after the deadline."""
        return _orders.late_verdicts(pm)

    def pm_vote_tally(self, state: MafiaState, phase: Phase, orders: Sequence[OrderPm]) -> Tally:
        """The round's day votes sent by PM so far, as the round will count them."""
        collected = _orders.collect(state, phase, orders)
        counted = tuple(CountedVote(nick, _orders.vote_target(mine.vote)) for nick, mine in collected.by_sender.items()
                        if mine.vote is not None)
        return Tally(counted, tuple(DiscardedVote(d["voter"], d["text"], d["reason"]) for d in collected.discarded))

    def stand_ins(self, state: MafiaState, phase: Phase, seed: int) -> list[StandIn]:
        """Each living player's PM: a day vote with the others on one player (he on another), and his
        role's night action (the boss shoots rather than blocks) on someone the die picks, a mafia
        member never on his own team."""
        rng = phase_rng(seed, phase).stream("stand-ins")
        alive = self.alive(state)
        moves = []
        for nick, target in bandwagon(alive, rng).items():
            lines = [f"голосую за {target}"]
            role = state.role(nick)
            others = [n for n in alive if n != nick and not (is_mafia(role) and is_mafia(state.role(n)))]
            if ACTIONS[role] and others:
                lines.append(f"{CANONICAL_VERB[ACTIONS[role][-1]]} {rng.choice(others)}")
            moves.append(StandIn(nick, pm="\n".join(lines)))
        return moves

    # the day vote is a PM like the night's orders (correction_kind ORDERS), and night orders may be
    # replaced until the deadline (never complete early): Rules' defaults

    def resolve(self, state: MafiaState, phase: Phase, inputs: PhaseInputs, seed: int, texts: Texts) -> Outcome:
        collected = _orders.collect(state, phase, inputs.orders)
        rng = phase_rng(seed, phase)
        new_state, events = resolve_round(state, phase, collected, rng)
        jailed = next((e.data["nick"] for e in events if e.type == "jailed"), None)
        agreement = Agreement.of_players(state.players)
        counted = {row["voter"]: row["vote"] for e in events if e.type == "votes"
                   for row in e.data["table"] if row["vote"] is not None}
        return Outcome(
            state=new_state,
            events=tuple(events),
            eliminated=_eliminations(events),
            pms=tuple(round_pms(events, phase.number, texts)),
            reports={"round": round_report(events, phase.number, texts, agreement),
                     "literary": literary_report(events, phase.number, texts, rng, agreement)},
            extra={"jailed": jailed, "counted_votes": counted,
                   "discarded_votes": list(collected.discarded), "winner": new_state.winner},
        )

    def alive(self, state: MafiaState) -> list[str]:
        return [p.nick for p in state.living()]

    def winner(self, state: MafiaState) -> str | None:
        return state.winner

    def winner_name(self, state: MafiaState) -> str | None:
        return WINNER_NAMES.get(state.winner)

    def roles(self, state: MafiaState) -> Mapping[str, str]:
        return {p.nick: p.role for p in state.players}

    def role_table(self, state: MafiaState) -> list[RoleRow]:
        return [RoleRow(p.nick, p.role, SIDE_NAMES[TEAM[p.role]], p.alive) for p in state.players]

    def dump(self, state: MafiaState) -> dict:
        return dump_state(state)

    def load(self, data: Mapping[str, Any]) -> MafiaState:
        return load_state(data)

    def role_pms(self, state: MafiaState, texts: Texts) -> list[OutgoingPm]:
        return role_pms(state, texts)

    def reminder(self, state: MafiaState, phase: Phase, orders: Sequence[OrderPm], texts: Texts,
                 left: timedelta) -> Reminder | None:
        return reminder(state, phase, orders, texts, left)

    def host_digest(self, state: MafiaState, phase: Phase, posts: Sequence[Post], start: datetime, end: datetime,
                    host: str, texts: Texts) -> OutgoingPm:
        """The thread-discipline digest of the game day [start, end) for the host."""
        return host_digest(state, phase, posts, start, end, host, texts)

    def with_rules(self, state: MafiaState) -> MafiaState:
        """The state under this engine's rule config, the change noted for the next report."""
        return change_rules(state, self.config)


def make_rules(rule_table: Mapping[str, Any]) -> MafiaRules:
    return MafiaRules(rule_config(rule_table))


RULES = MafiaRules()


GAME = Game(make_rules)     # registered in pyproject.toml under forumgm.games
