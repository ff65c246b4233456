"""What the Arena's texts say, word for word, as a Russian reader reads them: nicknames and
weapons in the case their sentence needs, words that agree with a number, and the cards of a
step one line per fighter who plays one."""
from __future__ import annotations

from pathlib import Path

import pytest

from forumgm.daemon.offline.simulate import load_scenario, run_scenario
from tests.test_arena_rules_examples import duel

SCENARIOS = Path(__file__).parent / "scenarios" / "arena"


def reports(out: dict, kind: str) -> list[str]:
    return [phase["reports"][kind] for phase in out["phases"]]


def test_a_fight_of_four_lists_the_cards_of_those_who_play_and_names_the_resting_ones(texts):
    out = run_scenario(load_scenario(SCENARIOS / "four_to_the_end.toml"), texts)
    technical = reports(out, "technical")
    assert ("Карты шага 1:\n"
            "• Аскон: правая рука X, левая рука X, ноги W(вперёд)\n"
            "• Отдыхают: Хан, Кума, Дрон\n"
            "Аскон: W вперёд (2,2 → 2,3)\n") in technical[0]
    assert "Карты шага 2: у всех отдых\nДистанции не изменились\n" in technical[1]
    # Хан is knocked out in step 3: from step 4 only the three left reveal cards
    assert ("Карты шага 4:\n"
            "• Кума: правая рука SUR, левая рука X, ноги X\n"
            "• Дрон: правая рука L(тело, Хан), левая рука X, ноги X\n"
            "• Отдыхает: Аскон\n") in technical[3]
    assert "Стопка Аскона (правая рука, начало боя): выложена — X X L(голова, Хан) X X X\n" in technical[0]
    assert "Стопка Аскона (ноги, пополнение на 4 карты): пополнение не прислано — отдых — X X X X X X\n" in technical[4]
    assert technical[5].endswith("Выбывает: Дрон (сдача)\n[b]Бой окончен: победа Аскона (сдача)[/b]\n\nБроски: нет")
    assert reports(out, "summary")[5].endswith("[b]Итог: победа Аскона (сдача)[/b]")


def test_a_playout_after_surrender_lists_the_winners_cards_only(texts):
    # the rules: «последовательности победителя доигрываются» — Хан's lunge (X L X) goes on alone
    out = run_scenario(load_scenario(SCENARIOS / "surrender.toml"), texts)
    assert out["phases"][0]["reports"]["technical"].endswith(
        "Выбывает: Аскон (сдача)\n"
        "[b]Бой окончен: победа Хана (сдача)[/b]\n"
        "Доигрывание после сдачи, карты:\n"
        "• Хан: правая рука L(голова), левая рука X, ноги X\n"
        "Дистанция: 1 → 1\n"
        "Хан (правая рука, гладий): L в голову; защита: нет; множитель действия 1 (против отдыха: 1); "
        "попаданий 2, отбито 0, множитель оружия 1,5; урон 3\n"
        "Рана: Аскон, голова — лёгкое ранение\n"
        "Доигрывание после сдачи, карты: отдых\n"
        "Дистанция: 1 → 1\n"
        "\n"
        "Броски:\n"
        "• Хан, атака L: 6, 6, 1, 1")


@pytest.mark.parametrize("speed, cards", [(5, "1 карту"), (2, "4 карты"), (0, "6 карт")])
def test_a_refilled_stack_names_its_number_of_cards_in_agreement(texts, speed, cards):
    # «6 − рейтинг скорости» cards a refill: speed 5 refills 1, speed 2 refills 4, speed 0 all 6
    out = duel(texts, {"Хан": "ПР: Блок(тело)"}, 7, Хан={"speed_rating": speed})
    lines = [line for text in reports(out, "technical") for line in text.splitlines()]
    assert (f"Стопка Хана (правая рука, пополнение на {cards}): пополнение не прислано — отдых — "
            "X X X X X X") in lines


def test_a_thrown_pike_is_named_in_the_accusative(texts):
    # the rules' throw: from 3 sectors it hits on d6 ≤ 4 − (3 − 2) = 3 (rolled 3); 3 hits × 1: light
    out = duel(texts, {"Хан": "ПР: Бросок(тело)"}, 2, dice=[3, 6, 6, 6, 1], distance=3, Хан={"weapon": "пика"})
    (title, told, closing) = reports(out, "literary")[1].split("\n")
    assert told.endswith("Хан метает пику — и попадает! Хан проводит бросок в тело — Аскон получает лёгкое ранение.")
    assert told.startswith("Первая кровь") and title == "[b]Арена. Шаг 2[/b]" and closing.endswith((".", "?"))


def test_a_stopped_cut_is_met_by_her_and_the_defender_s_weapon_breaks(texts):
    # S against a block is multiplier 0, so the axe (5) may break the sword (4): d6 ≤ 5 − 4 (rolled 1)
    out = duel(texts, {"Хан": "ПР: Рубка(голова)", "Аскон": "ПР: X X B(голова)"}, 3, dice=[1],
               Хан={"weapon": "топор"})
    told = reports(out, "literary")[2].split("\n")[1]
    assert told.endswith("Хан проводит рубку, но Аскон встречает её блоком — удар не проходит. "
                         "Оружие Аскона (меч) ломается!")
    assert told.startswith(("Треск стали!", "Сталь не выдерживает!"))           # what the step is remembered for


def test_a_parried_lunge_is_met_by_him_and_the_riposte_strikes(texts):
    out = duel(texts, {"Хан": "ПР: Выпад(голова)", "Аскон": "ПР: X P(голова) R(голова)"}, 3,
               dice=[6, 6, 6, 6, 1, 1, 1], Хан={"weapon": "гладий"})
    step2, step3 = (text.split("\n")[:2] for text in reports(out, "literary")[1:])
    assert step2 == ["[b]Арена. Шаг 2[/b]", "Хан проводит выпад, но Аскон встречает его парированием — удар не проходит."]
    assert step3[0] == "[b]Арена. Шаг 3[/b]"
    assert step3[1].endswith("Аскон проводит ответный выпад в голову — Хан получает ранение.")


def receipt(texts, line: str) -> str:
    return duel(texts, {"Хан": line}, 1)["phases"][0]["pms"][0]["text"]


@pytest.mark.parametrize("line, note", [
    ("ПР: Блок(тело) ×5", "в конец добавлен 1 отдых"),
    ("ПР: Блок(тело) ×4", "в конец добавлены 2 отдыха"),
    ("ПР: Блок(тело)", "в конец добавлено 5 отдыхов"),
    ("ПР: Блок(тело) ×6, X", "1 лишняя карта не принята: в стопке 6 карт"),
    ("ПР: Блок(тело) ×6, X X", "2 лишние карты не приняты: в стопке 6 карт"),
    ("ПР: Блок(тело) ×6, X ×5", "5 лишних карт не принято: в стопке 6 карт"),
])
def test_a_receipt_counts_the_rests_it_added_and_the_cards_it_left_out_in_agreement(texts, line, note):
    # the rules: six cards a stack at the start of the fight
    assert receipt(texts, line).endswith(f"\n• Правая рука: {note}")


def test_a_refused_last_card_alone_becomes_a_rest(texts):
    # Шаг is W X: the seventh card is left out, and the sixth, a move on a hand, is refused alone
    assert receipt(texts, "ПР: X X X X X Шаг(вперёд)") == (
        "Хан, ваши карты получены. Ниже — как они легли в стопки.\n\n"
        "Принято:\n"
        "• Правая рука: X, X, X, X, X, Шаг(вперёд) → стопка: X X X X X X\n"
        "• Правая рука: 1 лишняя карта не принята: в стопке 6 карт\n\n"
        "Не принято:\n"
        "• «Правая рука, карта 6 (W(вперёд))» — перемещение можно играть только на ноги; эта карта, последняя в "
        "стопке, стала отдыхом")


def test_a_fighter_with_the_same_weapon_in_both_hands_enters_with_it_in_each_hand(texts):
    out = duel(texts, {}, 1, Аскон={"weapon": "гладий", "left": "гладий"}, Хан={"weapon": "копьё", "left": "щит"})
    assert "На песок арены выходят Аскон (гладий в каждой руке) и Хан (копьё и щит)." in reports(out, "literary")[0]
