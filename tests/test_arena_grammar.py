"""The Arena order grammar: the forms players write, and refusals that name the problem."""
from __future__ import annotations

import pytest

from forumgm.config import load_texts, read_rule_table
from forumgm.engines.arena import make_rules
from forumgm.engines.base import OrderPm, Phase, SetupError
from forumgm.engines.receipts import receipt_text
from forumgm.parsers.names import Roster
from forumgm.parsers.orders.arena import Item, parse_line

RULES = make_rules(read_rule_table("arena"))
VOCAB = RULES.table.vocabulary
STATE = RULES.setup({"fighters": [{"nick": "Аскон"}, {"nick": "Хан", "weapon": "гладий"}]}, 1)


def items(line: str) -> tuple[str, tuple[Item, ...]]:
    verdict = parse_line(line, VOCAB)
    assert verdict.ok, verdict.reason
    return verdict.order.hand, verdict.order.items


@pytest.mark.parametrize("line, hand, expected", [
    ("Правая рука: Выпад(голова), Блок(тело)", "right", [Item(None, 2, "голова"), Item(None, 13, "тело")]),
    ("ПР: X L(голова) X B(тело)", "right",
     [Item("X", None, None), Item("L", None, "голова"), Item("X", None, None), Item("B", None, "тело")]),
    ("Ноги: Шаг вперёд, Шаг вперёд", "legs", [Item(None, 8, "forward"), Item(None, 8, "forward")]),
    ("ноги: шаг вперед", "legs", [Item(None, 8, "forward")]),
    ("ЛР: Яростный выпад в голову", "left", [Item(None, 3, "голова")]),
    ("лр - Блок (левая рука)", "left", [Item(None, 13, "левая рука")]),
    ("ПР: Х С(т) Х", "right", [Item("X", None, None), Item("C", None, "тело"), Item("X", None, None)]),
    ("Н: Поворот влево, Отдых ×2", "legs", [Item(None, 15, "left"), Item(None, 1, None, 2)]),
    ("1. Правая рука: Сдача", "right", [Item(None, 17, None)]),
])
def test_the_forms_players_write(line, hand, expected):
    assert items(line) == (hand, tuple(expected))


def test_replacement_lines():
    verdict = parse_line("замена ПР: Быстрый блок(тело)", VOCAB)
    assert verdict.ok and verdict.order.replacement and verdict.order.hand == "right"
    assert verdict.canonical == "замена Правая рука: Быстрый блок(тело)"


@pytest.mark.parametrize("line, reason", [
    ("Голова: X", "строка не распознана"),
    ("ПР:", "после двоеточия нет ни одного действия"),
    ("ПР: Выпад", "для «выпад» нужна цель"),
    ("ПР: X(голова)", "«X» не имеет цели"),
    ("Н: Поворот вперёд", "поворот «поворот» только влево или вправо"),
    ("Н: Шаг(голова)", "для «шаг» нужно направление"),
    ("ПР: Выпад(голова) ×0", "число повторов «0» вне диапазона 1–6"),
    ("ПР: X L(голова) ×2", "повтор «×2» относится к одному действию"),
    ("ПР: " + "9" * 5000, "неизвестное действие «999999999999999999999999…»"),
    ("ПР: X ×" + "9" * 5000, "число повторов «999999999999999999999999…» вне диапазона 1–6"),
    ("ПР: " + "(" * 3000 + ")" * 3000, "не разобрано: «((((((((((((((((((((((((…»"),
    ("ПР: " + "(" * 3000, "непарные скобки"),
    ("ПР: L(голова" + ")" * 2, "непарные скобки"),
])
def test_malformed_lines_get_a_reason(line, reason):
    verdict = parse_line(line, VOCAB)
    assert not verdict.ok
    assert verdict.reason.startswith(reason)


def test_garbage_never_crashes_the_reader():
    garbage = "\n".join(["ПР: " + "L(голова) " * 2000, "ЛР: ,,,,,,", "Н: ×××", "\x00\x01", "ПР: ((а)(б))",
                         ":" * 500, "ПР: Шаг вперёд вперёд вперёд"])
    verdicts = RULES.read_orders(STATE, Phase("step", 1), OrderPm("Аскон", garbage), [])
    assert verdicts and all(v.ok or v.reason for v in verdicts)


def test_the_receipt_lists_the_stack_and_what_became_a_rest():
    verdicts = RULES.read_orders(STATE, Phase("step", 1), OrderPm("Хан", "ПР: Выпад(голова)\nНоги: X Блок(тело)"), [])
    text = receipt_text("arena", "Хан", verdicts, load_texts())
    assert text.startswith("Хан, ваши карты получены.")
    assert "Правая рука: Выпад(голова) → стопка: X L(голова) X X X X" in text
    assert "«Ноги, карта 2 (B(тело))» — нельзя атаковать или защищаться одновременно ногами и руками" in text


def test_a_later_pm_replaces_a_stack_line_of_the_same_hand():
    earlier = [OrderPm("Хан", "ПР: Блок(тело)")]
    verdicts = RULES.read_orders(STATE, Phase("step", 1), OrderPm("Хан", "ПР: Выпад(тело)"), earlier)
    assert verdicts[0].canonical.endswith("стопка: X L(тело) X X X X")


@pytest.mark.parametrize("change, key", [
    (lambda t: t["weapons"]["меч"].update(range=[2, 1]), "rules.weapons.меч.range"),
    (lambda t: t["weapons"]["меч"].update(sequences=[1, 99]), "rules.weapons.меч.sequences"),
    (lambda t: t["multipliers"]["action"]["L"].pop("B"), "rules.multipliers.action.L.B"),
    (lambda t: t["multipliers"]["weapon"]["L"].update({"лук": 2}), "rules.multipliers.weapon.L.лук"),
    (lambda t: t["fighters"]["default"].update(attack_rating=9), "rules.fighters.default.attack_rating"),
    (lambda t: t["wounds"]["level"].pop(), "rules.wounds.level"),
    (lambda t: t["armour"].update(units=[1, 2]), "rules.armour.units"),
    (lambda t: t["space"]["shift"].update({"тело": ["хвост", ""]}), "rules.space.shift.тело"),
])
def test_a_bad_table_names_the_key(change, key):
    table = read_rule_table("arena")
    change(table)
    with pytest.raises(SetupError) as error:
        make_rules(table)
    assert error.value.key == key


@pytest.mark.parametrize("setup, key", [
    ({"fighters": [{"nick": "А"}]}, "setup.fighters"),
    ({"fighters": [{"nick": "А", "weapon": "лук"}, {"nick": "Б"}]}, "setup.fighters[0].weapon"),
    ({"fighters": [{"nick": "А"}, {"nick": "Б", "weapon": "щит"}]}, "setup.fighters[1].weapon"),
    ({"fighters": [{"nick": "А", "attack_dice": 99}, {"nick": "Б"}]},
     "setup.fighters[0].attack_dice"),
    ({"fighters": [{"nick": "А", "colour": 1}, {"nick": "Б"}]}, "setup.fighters[0].colour"),
    ({"fighters": [{"nick": "А"}, {"nick": "Б"}], "dice": [6, 7]}, "setup.dice[1]"),
    ({"fighters": [{"nick": "А"}, {"nick": "Б"}], "distance": 9}, "setup.distance"),
    ({"fighters": [{"nick": "А"}, {"nick": "Б"}], "arena": 1}, "setup.arena"),
])
def test_a_bad_setup_names_the_key(setup, key):
    with pytest.raises(SetupError) as error:
        RULES.setup(setup, 1)
    assert error.value.key == key


def test_a_stack_when_no_refill_is_due_is_refused_and_a_replacement_is_not():
    from forumgm.engines.base import PhaseInputs
    first = RULES.resolve(STATE, Phase("step", 1), PhaseInputs(orders=(OrderPm("Хан", "ПР: Выпад(голова)"),)),
                          1, load_texts()).state
    (verdict,) = RULES.read_orders(first, Phase("step", 2), OrderPm("Хан", "ПР: Блок(тело)"), [])
    assert not verdict.ok and verdict.reason == "стопки уже выложены, а пополнение не запрошено"
    verdicts = RULES.read_orders(first, Phase("step", 2), OrderPm("Аскон", "замена ПР: Быстрый блок(голова)"), [])
    assert verdicts[0].ok and "заменено на «OB1(голова) OB2(голова)»" in verdicts[1].canonical


def test_random_lines_from_the_grammars_own_words_never_crash_and_always_answer():
    """Seeded fuzzing: lines built from the grammar's words, brackets, numbers and junk."""
    import random
    pieces = ["ПР:", "ЛР:", "Ноги:", "замена ПР:", "Правая рука:", "Выпад", "Рубка", "Яростный выпад",
              "Блок", "Быстрый блок", "Прыжок", "Шаг", "Сдача", "Отдых", "X", "L", "S", "C", "K", "T", "P",
              "R", "B", "OB1", "OP2", "E", "W", "J", "F", "SUR", "(голова)", "(тело)", "(левая рука)",
              "вперёд", "назад", "влево", "(", ")", ",", "×", "×3", "×" + "9" * 60, "в", "голову", ":",
              "\u200b", "[b]", "ё", "-", "1.", "99999999999999999999"]
    heads = ["ПР:", "ЛР:", "Ноги:", "Н:", "замена ПР:", "замена Ноги:"]
    items = ["Выпад(голова)", "Рубка(тело)", "Блок(левая рука)", "Шаг вперёд", "Прыжок(назад)", "Отдых ×2",
             "X", "L(т)", "X S(голова)", "Сдача", "Быстрый блок(тело)", "Парирование(тело)", "E(тело) X"]
    rng = random.Random(13)
    seen = {True: 0, False: 0}

    def line() -> str:
        if rng.random() < 0.5:
            return rng.choice(heads) + " " + ", ".join(rng.choice(items) for _ in range(rng.randint(1, 4)))
        return " ".join(rng.choice(pieces) for _ in range(rng.randint(1, 12)))

    for _ in range(1500):
        text = "\n".join(line() for _ in range(rng.randint(1, 4)))
        for verdict in RULES.read_orders(STATE, Phase("step", 1), OrderPm("Аскон", text), []):
            assert verdict.ok or verdict.reason
            seen[verdict.ok] += 1
    assert seen[True] > 100 and seen[False] > 100      # both paths were exercised


def test_a_hosts_rules_table_overrides_the_shipped_numbers_key_by_key():
    from forumgm.daemon.settings.games import rules_for
    rules = rules_for("arena", {"weapons": {"меч": {"breakage": 3, "range": [1, 3]}},
                                "multipliers": {"action": {"L": {"B": 0.25}}}, "wounds": {"severing_by": ["S"]}})
    assert rules.table.weapons["меч"].breakage == 3 and rules.table.weapons["меч"].range == (1, 3)
    assert rules.table.weapons["меч"].sequences == RULES.table.weapons["меч"].sequences
    assert rules.table.action_multiplier["L"]["B"] == 0.25 and rules.table.action_multiplier["L"]["P"] == 0
    assert rules.table.severing_by == frozenset({"S"})
    with pytest.raises(SetupError) as error:
        rules_for("arena", {"weapons": {"меч": {"breakage": "много"}}})
    assert error.value.key == "rules.weapons.меч.breakage"


# ---------------------------------------------------------------- fights of more than two

ROSTER = Roster(("Аскон", "Лис", "Лиса", "Кума"), {"Кумушка": "Кума"})


@pytest.mark.parametrize("line, expected", [
    ("ПР: Выпад(голова, Кума)", Item(None, 2, "голова", target="Кума")),
    ("ПР: Выпад(Кума, голова)", Item(None, 2, "голова", target="Кума")),
    ("ПР: Выпад(голова Кума)", Item(None, 2, "голова", target="Кума")),
    ("ПР: Выпад(Куме в голову)", Item(None, 2, "голова", target="Кума")),          # a case form
    ("ПР: L(левая рука; Кумушке)", Item("L", None, "левая рука", target="Кума")),  # an alias, declined
    ("ЛР: Блок(т, Лиса) ×2", Item(None, 13, "тело", 2, "Лиса")),
    ("ПР: Выпад(голова)", Item(None, 2, "голова")),                                 # no name: the engine decides
])
def test_a_card_names_the_opponent_it_is_meant_for(line, expected):
    verdict = parse_line(line, VOCAB, ROSTER)
    assert verdict.ok, verdict.reason
    assert verdict.order.items == (expected,)


def test_commas_inside_brackets_do_not_split_the_items():
    verdict = parse_line("ПР: Выпад(голова, Кума), Блок(тело), X L(пр, Лис) X", VOCAB, ROSTER)
    assert verdict.ok, verdict.reason
    assert [(i.code, i.sequence, i.arg, i.target) for i in verdict.order.items] == [
        (None, 2, "голова", "Кума"), (None, 13, "тело", None), ("X", None, None, None),
        ("L", None, "правая рука", "Лис"), ("X", None, None, None)]
    assert verdict.canonical == "Правая рука: Выпад(голова, Кума), Блок(тело), X, L(правая рука, Лис), X"


@pytest.mark.parametrize("line, reason", [
    ("ПР: Выпад(голова, Кумп)", "неизвестный боец «Кумп»; возможно: Кума"),
    ("ПР: Выпад(голова, Зорро)", "неизвестный боец «Зорро»"),
    ("ПР: Выпад(голова, Лису)", "«Лису» подходит нескольким бойцам: Лис, Лиса"),
    ("ПР: Выпад(голова, тело)", "в скобках две цели: «(голова, тело)»"),
    ("ПР: Выпад(голова, Кума, Лис)", "в скобках — цель и, если нужно, соперник"),
    ("ПР: Выпад(Кума)", "для «выпад» нужна цель"),
    ("ПР: Выпад(пятка, Кума)", "неизвестная цель или направление «пятка»"),
    ("Ноги: Шаг(вперёд, Кума)", "«шаг» не направлено на соперника, а указано «Кума»"),
    ("ПР: Отдых(Кума)", "«отдых» не имеет цели, а указано «Кума»"),
])
def test_a_name_that_is_no_fighter_or_in_the_wrong_place_is_refused(line, reason):
    verdict = parse_line(line, VOCAB, ROSTER)
    assert not verdict.ok
    assert verdict.reason.startswith(reason), verdict.reason


THREE = RULES.setup({"fighters": [{"nick": "Аскон", "weapon": "гладий", "left": "гладий"}, {"nick": "Хан", "weapon": "гладий"},
                                  {"nick": "Кума", "aliases": ["Кумушка"]}]}, 1)


def read(state, nick: str, text: str) -> list:
    return RULES.read_orders(state, Phase("step", 1), OrderPm(nick, text), [])


def test_with_two_opponents_an_attack_must_name_one():
    (verdict,) = read(THREE, "Хан", "ПР: Выпад(голова)")
    assert not verdict.ok and verdict.line == "ПР: Выпад(голова)"
    assert verdict.reason == ("против кого? В бою несколько соперников (Аскон, Кума): назовите одного в скобках, "
                              "например «(голова, Аскон)»")
    assert not read(THREE, "Хан", "ПР: X L(тело) X")[0].ok                # codes too
    assert read(THREE, "Хан", "ПР: Выпад(голова, Кумушке)")[0].canonical.endswith("стопка: X L(голова, Кума) X X X X")


def test_defenses_and_parries_may_name_nobody_but_never_oneself():
    verdicts = read(THREE, "Хан", "ПР: Блок(тело), Парирование(голова)\nЛР: Блок(голова, Аскон)")
    assert [v.ok for v in verdicts][:2] == [True, True]
    (verdict,) = read(THREE, "Хан", "ПР: Выпад(голова, Хан)")
    assert not verdict.ok and verdict.reason == "нельзя целить в самого себя"


def test_two_hands_at_opposite_zones_clash_only_on_the_same_opponent():
    apart = read(THREE, "Аскон", "ПР: Выпад(голова, Хан)\nЛР: Выпад(левая нога, Кума)")
    assert all(v.ok for v in apart) and "две руки" not in str([v.canonical for v in apart])
    same = read(THREE, "Аскон", "ПР: Выпад(голова, Хан)\nЛР: Выпад(левая нога, Хан)")
    assert [v.line for v in same if not v.ok] == ["Левая рука, карта 2 (L(левая нога, Хан))"]


def test_start_positions_put_every_two_of_three_or_four_at_the_start_distance():
    from forumgm.engines.arena.fight import distance, pairs
    for count in (3, 4):
        nicks = ["Аскон", "Хан", "Кума", "Дрон"][:count]
        state = RULES.setup({"fighters": [{"nick": nick} for nick in nicks]}, 1)
        assert {distance(a, b) for a, b in pairs(state.fighters)} == {RULES.table.start_distance}
        assert len({(f.x, f.y) for f in state.fighters}) == count
    duel = RULES.setup({"fighters": [{"nick": "Аскон"}, {"nick": "Хан"}]}, 1)
    assert [(f.x, f.y, f.facing) for f in duel.fighters] == [(3, 1, 0), (3, 4, 2)]    # one column, face to face


def test_more_fighters_than_the_start_positions_name_the_key():
    with pytest.raises(SetupError) as error:
        RULES.setup({"fighters": [{"nick": str(n)} for n in range(5)]}, 1)
    assert error.value.key == "setup.fighters" and "for 2, 3, 4 fighters, not 5" in error.value.message
    table = read_rule_table("arena")
    table["space"]["start"]["3"] = [[0, 0, "north"], [0, 0, "south"], [1, 1, "west"]]
    with pytest.raises(SetupError) as error:
        make_rules(table)
    assert (error.value.key, error.value.message) == ("rules.space.start.3", "two fighters on one position")
    table["space"]["start"]["3"] = [[0, 0, "north"], [0, 2, "south"], [1, 1, "west"]]
    with pytest.raises(SetupError) as error:
        make_rules(table)
    assert error.value.key == "rules.space.start.3[1]"


def test_a_host_adds_start_positions_for_five_in_the_game_file():
    from forumgm.daemon.settings.games import rules_for
    five = [[0, 0, "north"], [0, 1, "east"], [1, 1, "south"], [1, 0, "west"], [0.5, 0.5, "north"]]   # docs/arena.md
    rules = rules_for("arena", {"space": {"start": {"5": five}}})
    state = rules.setup({"fighters": [{"nick": nick} for nick in ("Аскон", "Хан", "Кума", "Дрон", "Лис")]}, 1)
    assert [(f.x, f.y, f.facing) for f in state.fighters] == [(1, 1, 0), (1, 4, 1), (4, 4, 2), (4, 1, 3), (3, 3, 0)]
    assert sorted(rules.table.start) == [2, 3, 4, 5]


def test_a_snapshot_from_before_targets_still_ripostes():
    """Snapshots written before fights of more than two held only the hand of a stopping parry."""
    from forumgm.engines.base import PhaseInputs
    texts = load_texts()
    state = RULES.setup({"fighters": [{"nick": "Аскон"}, {"nick": "Хан", "weapon": "гладий"}], "distance": 1,
                         "dice": [6, 6, 1, 1]}, 1)
    pms = (OrderPm("Хан", "ПР: Выпад(тело)"), OrderPm("Аскон", "ПР: X Парирование(тело)"))
    for number in (1, 2):
        state = RULES.resolve(state, Phase("step", number), PhaseInputs(orders=pms if number == 1 else ()), 1,
                              texts).state
    data = RULES.dump(state)
    assert [f["riposte"] for f in data["fighters"]] == [(("right", "Хан"),), ()]
    data["fighters"][0]["riposte"] = ["right"]
    old = RULES.load(data)
    assert old.fighter("Аскон").riposte == (("right", None),)
    riposte = [e.data for e in RULES.resolve(old, Phase("step", 3), PhaseInputs(), 1, texts).events
               if e.type == "attack"]
    assert [(a["attacker"], a["code"], a["defender"], a["damage"]) for a in riposte] == [("Аскон", "R", "Хан", 2)]


def test_a_refused_refill_card_takes_the_wound_and_rating_rests_after_its_sequence_with_it():
    """Worked by hand: Хан (attack and defense ratings 1 < 2, a light wound to the right arm) has
    one X left and refills 4: B | X L X. After each sequence a rest for the wound and one for the
    rating: X  B w r  X L X w r (9). A sword has no Выпад: its X (card 5) and what follows become
    rests, and the two rests after Выпад go with it: X B w r X X X (7)."""
    from dataclasses import replace

    from forumgm.engines.arena.state import Card, Wound
    state = RULES.setup({"fighters": [{"nick": "Аскон"}, {"nick": "Хан", "attack_rating": 1, "defense_rating": 1}]}, 1)
    khan = replace(state.fighter("Хан"), sent=True, refill_due=4, wounds=(Wound("правая рука", 1, 2),),
                   stacks=((Card("X"),), (Card("X"),), (Card("X"),)))
    verdicts = RULES.read_orders(state.put(khan), Phase("step", 3), OrderPm("Хан", "ПР: Блок(тело), Выпад(голова)"), [])
    assert [(v.line, v.canonical if v.ok else v.reason) for v in verdicts] == [
        ("ПР: Блок(тело), Выпад(голова)", "Правая рука: Блок(тело), Выпад(голова) → стопка: X B(тело) X X X X X"),
        ("Правая рука, карта 5 (X)", "оружие «меч» не позволяет последовательность «Выпад»; отдыхом стали эта и "
                                     "следующие карты, всего 3"),
        ("Правая рука", "Правая рука: добавлено отдыхов после последовательностей (рейтинг, лёгкие раны): 2")]
