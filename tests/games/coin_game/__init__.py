"""«Монетка», a fifth game that lives outside forumgm: the proof that the game seam
(forumgm.engines.base.Rules) is all a game needs.

Each toss every player still in sends «орёл» or «решка» by PM; a seeded coin is tossed at the
deadline and whoever guessed wrong, or sent nothing, is out — unless nobody guessed right, then the
toss does not count. The game ends when `survivors` players (or fewer) are left, or after
`max_tosses` tosses. Its rule table and Russian templates are its own (data/); it is registered
under forumgm.games by a test (tests/coin_support.py), never installed into forumgm.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Mapping, Sequence

from forumgm.engines.base import (Accepted, Elimination, Event, Game, OrderPm, Outcome, Phase, PhaseInputs,
                                  Rejected, Rules, SetupError, SetupProblems, Verdict, phase_rng, player_tables,
                                  typed_table)

TOSS = "toss"
SIDES = ("орёл", "решка")
RULE_TYPES = {"max_tosses": int, "survivors": int}


@dataclass(frozen=True)
class CoinState:
    players: tuple[str, ...]        # everyone dealt in, in the game file's order
    out: tuple[str, ...] = ()       # who is out, in the order they went
    tosses: int = 0                 # tosses resolved so far

    def living(self) -> list[str]:
        return [nick for nick in self.players if nick not in self.out]


def guess_of(line: str) -> str | None:
    word = line.strip(" .!").lower().replace("ё", "е")
    return next((side for side in SIDES if side.replace("ё", "е") == word), None)


class CoinRules(Rules):
    name = "coin"
    title = "Монетка"
    phase_labels = {TOSS: "бросок"}
    draft_labels = {"toss_report": "итоги броска"}

    def __init__(self, table: Mapping[str, int]) -> None:
        self.table = table

    def setup(self, setup: Mapping[str, Any], seed: int) -> CoinState:
        players = player_tables(setup.get("players"), {"nick", "aliases"})
        return CoinState(tuple(player["nick"] for player in players))

    def first_phase(self, state: CoinState) -> Phase:
        return Phase(TOSS, state.tosses + 1)

    def next_phase(self, state: CoinState, phase: Phase) -> Phase | None:
        if self.winner(state) is not None or state.tosses >= self.table["max_tosses"]:
            return None
        return Phase(TOSS, phase.number + 1)

    def read_orders(self, state: CoinState, phase: Phase, pm: OrderPm, earlier: Sequence[OrderPm]) -> list[Verdict]:
        if pm.sender in state.out:
            return [Rejected(line, "вы выбыли из игры и больше не угадываете") for line in pm.text.splitlines()
                    if line.strip()]
        verdicts: list[Verdict] = []
        for line in filter(None, (line.strip() for line in pm.text.splitlines())):
            side = guess_of(line)
            verdicts.append(Rejected(line, "ожидается одно слово: «орёл» или «решка»") if side is None
                            else Accepted(line, side, side))
        return verdicts

    def resolve(self, state: CoinState, phase: Phase, inputs: PhaseInputs, seed: int, texts: Any) -> Outcome:
        guesses = {}
        for pm in inputs.orders:            # oldest first: a later guess replaces an earlier one
            for verdict in self.read_orders(state, phase, pm, ()):
                if verdict.ok:
                    guesses[pm.sender] = verdict.order
        side = phase_rng(seed, phase).stream("coin").choice(SIDES)
        living = state.living()
        wrong = [nick for nick in living if guesses.get(nick) != side]
        if len(wrong) == len(living):
            wrong = []                      # nobody guessed right: the toss does not count
        new = replace(state, out=state.out + tuple(wrong), tosses=phase.number)
        events = (Event("toss", {"side": side, "guesses": guesses}),
                  *(Event("out", {"nick": nick}) for nick in wrong))
        report = texts.render("coin/report.j2", number=phase.number, side=side, out=wrong, left=new.living(),
                              winner=self.winner(new), last=self.next_phase(new, phase) is None)
        return Outcome(new, events, tuple(Elimination(nick, "wrong_guess") for nick in wrong),
                       reports={"toss": report})

    def alive(self, state: CoinState) -> list[str]:
        return state.living()

    def winner(self, state: CoinState) -> str | None:
        living = state.living()
        return ", ".join(living) if len(living) <= self.table["survivors"] and living else None

    def dump(self, state: CoinState) -> dict:
        return {"players": list(state.players), "out": list(state.out), "tosses": state.tosses}

    def load(self, data: Mapping[str, Any]) -> CoinState:
        return CoinState(tuple(data["players"]), tuple(data["out"]), data["tosses"])


def make_rules(table: Mapping[str, Any]) -> CoinRules:
    problems = SetupProblems()
    rules = typed_table(table.get("rules", {}), RULE_TYPES, "rules", problems)
    problems.done()
    missing = [(f"rules.{key}", "required") for key in RULE_TYPES if key not in rules]
    if missing:
        raise SetupError.of(missing)
    return CoinRules(rules)


GAME = Game(make_rules, data=str(Path(__file__).parent / "data"))
