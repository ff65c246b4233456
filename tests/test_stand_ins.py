"""The stand-ins of Bellum and Arena (`Rules.stand_ins`, for `forumgm rehearse --autoplay`): over
several resolved phases of the shipped examples every stand-in PM is read by the game's own order
reader with no refused line, the same seed gives the same moves, and the moves play the game on."""
from __future__ import annotations

from pathlib import Path

import pytest

from forumgm.daemon.settings.game import load_game
from forumgm.daemon.settings.games import rules_for
from forumgm.daemon.settings.setup_files import game_setup
from forumgm.engines.base import Accepted, OrderPm, PhaseInputs

GAMES = Path(__file__).resolve().parent.parent / "config" / "games"


def start(name: str, *more: str):
    game = load_game(GAMES / name)
    rules = rules_for(game.type, game.rules)
    setup = game_setup(rules, game)
    setup["players"] = [*setup["players"], *({"nick": nick} for nick in more)]
    return game, rules, rules.setup(setup, game.seed)


def play(name: str, phases: int, texts, *more: str, before=lambda phase: ()):
    """Each phase: the stand-ins' PMs (after the PMs `before` gives for it), each read alone as the
    receipt reads it, then the phase resolved from them all. [(phase, moves, verdicts, outcome)]."""
    game, rules, state = start(name, *more)
    phase, played = rules.first_phase(state), []
    for _ in range(phases):
        moves = rules.stand_ins(state, phase, game.seed)
        assert moves == rules.stand_ins(state, phase, game.seed)
        assert {move.nick for move in moves} <= set(rules.alive(state))
        theirs = list(before(phase))          # a player playing himself has no stand-in that phase
        moves = [move for move in moves if move.nick not in {pm.sender for pm in theirs}]
        pms = [*theirs, *(OrderPm(move.nick, move.pm) for move in moves if move.pm)]
        verdicts = {pm.sender: rules.read_orders(state, phase, pm, pms[:index]) for index, pm in enumerate(pms)}
        outcome = rules.resolve(state, phase, PhaseInputs(orders=tuple(pms)), game.seed, texts)
        played.append((phase, moves, verdicts, outcome, rules.complete_early(state, phase, pms)))
        state, phase = outcome.state, rules.next_phase(outcome.state, phase)
    return played


def refused(played) -> list:
    return [(phase, nick, v) for phase, _, verdicts, _, _ in played for nick, vs in verdicts.items()
            for v in vs if not isinstance(v, Accepted)]


def test_bellum_stand_ins_move_people_and_end_each_turn_early(texts):
    played = play("bellum.example.toml", 4, texts)
    assert refused(played) == []
    for phase, moves, _, outcome, early in played:
        assert {m.nick for m in moves} == {"Аскон", "Хан"}
        assert all(m.pm.endswith("ход готов") for m in moves)
        assert early, phase                 # «ход готов» from everyone: the turn ends before its deadline
    _, _, state = start("bellum.example.toml")
    moved = {e.data["faction"] for *_, outcome, _ in played for e in outcome.events if e.type == "moved"}
    assert moved == {state.own_faction("Аскон"), state.own_faction("Хан")}      # both sides march


def test_arena_stand_ins_lay_the_opening_stacks_and_every_refill(texts):
    played = play("arena.example.toml", 12, texts)
    assert refused(played) == []
    senders = [{m.nick for m in moves} for _, moves, *_ in played]
    assert senders[0] == {"Аскон", "Хан"}                       # the opening stacks
    refills = [index for index, nicks in enumerate(senders) if nicks and index > 0]
    assert refills                                              # a refill the step asked for, answered
    for index in refills:
        asked = {e.data["nick"] for e in played[index - 1][3].events if e.type == "refill_request"}
        assert senders[index] == asked
    events = [e.type for *_, outcome, _ in played for e in outcome.events]
    assert "card_rest" not in events and "attack" in events and "move" in events


def test_arena_stand_ins_in_a_fight_of_three_name_whom_each_attack_is_for(texts):
    played = play("arena.example.toml", 8, texts, "Кума")
    assert refused(played) == []
    lines = [line for _, moves, *_ in played for m in moves for line in m.pm.splitlines()]
    named = [line for line in lines if "Выпад(" in line or "Удар(" in line or "Рубка(" in line]
    assert named and all(any(f", {nick})" in line for nick in ("Аскон", "Хан", "Кума")) for line in named)


def test_an_arena_stand_in_first_finishes_the_sequence_a_player_left_begun(texts):
    """A player closed his right hand's stack on a begun lunge («X L»): the refill his stand-in then
    sends opens with the card that lunge still owes, as the rules want."""
    def player(phase):
        if phase.number == 0:
            return [OrderPm("Хан", "ПР: Блок(тело) ×4, X, L(голова)\nЛР: Блок(тело)\nНоги: Отдых")]
        return []

    played = play("arena.example.toml", 12, texts, before=player)
    assert refused(played) == []
    refill = next(moves for _, moves, *_ in played[1:] if any(m.nick == "Хан" for m in moves))
    right = next(m.pm for m in refill if m.nick == "Хан").splitlines()[0]
    assert right.startswith("Правая рука: X,") or right == "Правая рука: X", right


def test_a_bellum_stand_in_commands_the_people_his_subjugated_and_a_subjugated_one_only_ends_his_turn():
    game, rules, state = start("bellum.example.toml")
    masters = state.own_faction("Аскон")
    state = state.update(state.own_faction("Хан"), master=masters)      # the Visigoths serve Rome now
    phase, lines = rules.first_phase(state), []
    for _ in range(8):
        moves = {move.nick: move.pm for move in rules.stand_ins(state, phase, game.seed)}
        assert moves["Хан"] == "ход готов"
        for nick, pm in moves.items():
            verdicts = rules.read_orders(state, phase, OrderPm(nick, pm), [])
            assert all(isinstance(v, Accepted) for v in verdicts), verdicts
            lines += [v.order for v in verdicts if nick == "Аскон"]
        phase = rules.next_phase(state, phase)
    assert state.own_faction("Хан") in {getattr(order, "faction", None) for order in lines}
