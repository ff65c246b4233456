"""Complete duels for every pair of weapons, played through the Rules protocol with stacks sent
by PM text and refilled when the engine asks: each ends with a winner, and the same seed
replays the same fight. (Over seeds 1–5 the 180 duels end in 17 steps on average, 153 at most.)"""
from __future__ import annotations

import itertools

import pytest

from forumgm.config import load_texts, read_rule_table
from forumgm.engines.arena import make_rules
from forumgm.engines.base import OrderPm, PhaseInputs

RULES = make_rules(read_rule_table("arena"))
TEXTS = load_texts()
WEAPONS = [name for name, w in RULES.table.weapons.items() if not w.natural and not w.shield]
# Each weapon's favourite sequence at the head, the way a player would fill a stack with it.
ATTACK = {"меч": "Рубка", "топор": "Рубка", "гладий": "Выпад", "трезубец": "Выпад", "копьё": "Выпад",
          "пика": "Выпад"}
STEP_LIMIT = 300


def _finish(state, nick: str) -> str:
    """The cards that complete the right hand's started sequence (a refill must finish it)."""
    stack = state.fighter(nick).stack("right")
    ahead = stack[-1].ahead if stack else ()
    return "".join(f"{code}(голова) " if RULES.table.kind(code) == "attack" else f"{code} " for code in ahead)


def stacks(state, nick: str) -> str:
    """Close in when out of reach, step back when too close (if the arena lets him), else attack
    the head."""
    me, other = state.fighter(nick), state.opponent(nick)
    if _finish(state, nick):
        return f"ПР: {_finish(state, nick)}"
    distance = max(abs(me.x - other.x), abs(me.y - other.y))
    low, high = RULES.table.weapons[me.weapon].range
    if distance > high:
        return "Ноги: " + ", ".join(["Шаг вперёд"] * min(3, distance - high))
    behind = me.y - 1 if me.facing == 0 else me.y + 1
    if distance < low and 0 <= behind < RULES.table.size:
        return "Ноги: " + ", ".join(["Шаг назад"] * min(3, low - distance))
    if distance < low:
        return "ПР: Удар(голова)"      # cornered with a long weapon: the butt
    return f"ПР: {ATTACK.get(me.weapon, 'Удар')}(голова) ×2"


def duel(right: str, left: str, seed: int) -> tuple[int, dict, list[str]]:
    state = RULES.setup({"fighters": [{"nick": "Аскон", "weapon": right, "defense_dice": 2},
                                      {"nick": "Хан", "weapon": left, "defense_dice": 2}]}, seed)
    phase = RULES.first_phase(state)
    kinds = []
    for number in range(1, STEP_LIMIT + 1):
        pms = tuple(OrderPm(f.nick, stacks(state, f.nick)) for f in state.fighters if not f.sent or f.refill_due)
        for pm in pms:
            assert all(v.ok for v in RULES.read_orders(state, phase, pm, []))
        outcome = RULES.resolve(state, phase, PhaseInputs(orders=pms), seed, TEXTS)
        kinds += [e.type for e in outcome.events]
        state = outcome.state if number % 10 else RULES.load(RULES.dump(outcome.state))   # snapshots too
        if state.result is not None:
            return number, state.result, kinds
        phase = RULES.next_phase(state, phase)
    raise AssertionError(f"{right} against {left} (seed {seed}) did not end in {STEP_LIMIT} steps")


@pytest.mark.parametrize("right, left", list(itertools.product(WEAPONS, WEAPONS)))
def test_every_pair_of_weapons_fights_to_an_end(right, left):
    _steps, result, kinds = duel(right, left, seed=7)
    if result["winner"] is None:            # both down in the same step: the actions are simultaneous
        assert result["kind"] == "ничья" and set(result["reasons"]) == {"Аскон", "Хан"}
    else:
        assert result["winner"] in ("Аскон", "Хан") and result["kind"] in ("нокаут", "отрубание", "ранение")
    assert {"reveal", "attack", "wound", "fight_over"} <= set(kinds)


def test_the_same_seed_replays_the_same_fight_and_another_seed_differs():
    assert duel("меч", "топор", 3) == duel("меч", "топор", 3)
    assert duel("меч", "топор", 3) != duel("меч", "топор", 4)


def test_random_stacks_replacements_and_junk_never_break_a_fight():
    """Seeded random PMs (valid stacks, replacements, junk) every step, for random cards and
    weapons: every step resolves, dice stay non-negative, and a fight the rules end has a result."""
    import random
    rng = random.Random(5)
    items = ["Выпад(голова)", "Рубка(тело)", "Яростная рубка(левая рука)", "Удар(правая нога)", "Бросок(тело)",
             "Блок(голова)", "Парирование(тело)", "Уклонение(тело)", "Шаг вперёд", "Бег назад", "Прыжок влево",
             "Поворот вправо", "Отдых", "X L(т) X", "K(г) X X X", "S(пр) X", "((", "ЛР: ЛР:", "×9"]
    heads = ["ПР:", "ЛР:", "Ноги:", "замена ПР:", "замена ЛР:", "замена Ноги:"]
    seen: set[str] = set()
    for game in range(12):
        cards = [{"nick": nick, "weapon": rng.choice(WEAPONS), "left": rng.choice(["", "щит", "гладий"]),
                  "helmet": rng.random() < 0.5, "defense_dice": rng.randint(1, 3),
                  "attack_rating": rng.randint(0, 5), "speed_rating": rng.randint(0, 5)} for nick in ("Аскон", "Хан")]
        state = RULES.setup({"fighters": cards, "distance": rng.randint(1, 4)}, game)
        phase = RULES.first_phase(state)
        for _ in range(40):
            pms = tuple(OrderPm(nick, "\n".join(rng.choice(heads) + " " + ", ".join(
                rng.choice(items) for _ in range(rng.randint(1, 3))) for _ in range(rng.randint(0, 4))))
                for nick in ("Аскон", "Хан"))
            for pm in pms:
                assert all(v.ok or v.reason for v in RULES.read_orders(state, phase, pm, []))
            outcome = RULES.resolve(state, phase, PhaseInputs(orders=pms), game, TEXTS)
            state = outcome.state
            seen.update(e.type for e in outcome.events)
            assert all(min(f.attack_dice, f.defense_dice, f.move_dice) >= 0 for f in state.fighters)
            phase = RULES.next_phase(state, phase)
            if phase is None:
                assert state.result is not None
                break
    # the random play went through the rules, not only through refusals
    assert {"attack", "wound", "replacement", "card_rest", "refill_request", "move", "turn"} <= seen
