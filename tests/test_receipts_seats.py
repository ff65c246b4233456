"""A receipt repeats an order by the names the players read: a seat another account holds now
(a scenario's `replace`, as `forumgm replace`) by that account, declined by its gender, and a
nick as the host's declension table has it — as the reports write them (the echo is a phrase
the texts' agreement fills in, not the words the parser wrote at reading time)."""
from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from forumgm.config import load_texts
from forumgm.daemon.offline.simulate import run_scenario

SCENARIOS = Path(__file__).parent / "scenarios"
LEGENDS = [{"nick": "Жанна", "role": "Вампир", "gender": "f"}, {"nick": "gosha100", "role": "Мантикора"},
           {"nick": "Robozik", "role": "Монах"}]


def receipt(phase: dict, to: str) -> str:
    (text,) = [pm["text"] for pm in phase["pms"] if pm["kind"] == "receipt" and pm["to"] == to]
    return text


def mafia_round_two(pms: dict[str, str], replace: dict[str, str], texts=None) -> dict:
    """The Mafia scenario's second round with the seat Лиса (a woman's) given to another account."""
    with open(SCENARIOS / "mafia" / "first_night_armour.toml", "rb") as handle:
        scenario = tomllib.load(handle)
    round2 = scenario["phases"][1]
    round2["replace"] = replace
    round2["pms"] = [pm for pm in round2["pms"] if pm["from"] not in pms] + [
        {"from": sender, "text": text} for sender, text in pms.items()]
    return run_scenario(scenario, texts)["phases"][1]


def test_a_mafia_receipt_names_a_replaced_seat_by_its_holder_in_his_case():
    """«• убить Лису» named the seat by the nick dealt at the start although Игорь holds it."""
    phase = mafia_round_two({"Зорро": "голос: Лиса\nголос: Хан\nубить Лису\nубить Хана\nблокировать Лису"},
                            {"Лиса": "Игорь"})
    assert receipt(phase, "Зорро").splitlines()[2:] == [
        "Принято:", "• голос: Игорь", "• убить Игоря", "• убить Хана (заменяет «убить Игоря»)", "",
        "Не принято:",
        "• «голос: Хан» — голос уже учтён (голос: Игорь); изменить голос нельзя",
        "• «блокировать Лису» — это не действие вашей роли",        # the player's own words, as written
    ]
    # the store keeps the engine's reading, by seats (`forumgm verify` reads the orders again)
    assert [v["canonical"] for v in phase["receipts"]["Зорро"] if v["ok"]][:2] == ["голос: Лиса", "убить Лису"]


def test_a_mafia_refusal_names_a_replaced_seat_by_its_holder():
    phase = mafia_round_two({"Зорро": "голос: Лиса\nголос: Хан"}, {"Лиса": "Саша"})
    assert "• «голос: Хан» — голос уже учтён (голос: Саша); изменить голос нельзя" in receipt(phase, "Зорро")


def test_a_legends_receipt_and_the_technical_report_name_the_replaced_seat_by_its_holder():
    """The theft's echo «Кража: Атака у Жанны» and the technical report's «не выполнено» line
    both named Жанна's seat by her nick once Игорь held it."""
    scenario = {"game": "legends", "seed": 3, "setup": {"players": LEGENDS, "spells": {"Жанна": ["Молитва"]}},
                "phases": [{"kind": "night", "number": 2, "replace": {"Жанна": "Игорь"}, "pms": [
                    {"from": "gosha100", "text": "Краду Атаку у Игоря, передаю себе\n"
                                                 "Колдую Молитву на Игоря (Вампир)\nМеняюсь с Игорем: Молитва на Молитва"},
                    {"from": "Robozik", "text": "Атака 2 Игоря\nШпионить Игоря"}]}]}
    phase = run_scenario(scenario)["phases"][0]
    assert receipt(phase, "gosha100").splitlines()[2:] == [
        "Принято:", "• Кража: Атака у Игоря → gosha100", "• Колдую «Молитва» на Игоря (Вампир)",
        "• Обмен с Игорем: «Молитва» на «Молитва»"]
    assert receipt(phase, "Robozik").splitlines()[2:] == ["Принято:", "• Атака 2 → Игорь", "• Шпионаж → Игорь"]
    technical = phase["reports"]["technical"]
    assert "gosha100: Кража: Атака у Игоря → gosha100 — не выполнено" in technical
    assert "Жанн" not in technical


@pytest.fixture
def table_texts(tmp_path):
    """A game's templates folder holding only a declension table: «Мастер Меча», whose second word
    the rules would decline as a name («Мастера Мечи»), and «Таргелец» («Таргелеца»)."""
    (tmp_path / "declension.toml").write_text(
        '"Мастер Меча" = ["Мастера Меча", "Мастеру Меча", "Мастера Меча", "Мастером Меча", "Мастере Меча"]\n'
        '"Таргелец" = ["Таргельца", "Таргельцу", "Таргельца", "Таргельцем", "Таргельце"]\n', encoding="utf-8")
    return load_texts(tmp_path)


def test_receipts_take_the_hosts_declension_table(table_texts):
    players = [{"nick": "Мастер Меча", "role": "Вампир", "gender": "m"}, {"nick": "gosha100", "role": "Мантикора"},
               {"nick": "Robozik", "role": "Монах"}]
    scenario = {"game": "legends", "seed": 3, "setup": {"players": players, "spells": {"gosha100": ["Молитва"]}},
                "phases": [{"kind": "night", "number": 2, "pms": [
                    {"from": "gosha100", "text": "Краду Атаку у Мастера Меча, передаю себе\n"
                                                 "Колдую Молитву на Мастера Меча (Вампир)"}]}]}
    phase = run_scenario(scenario, table_texts)["phases"][0]
    lines = receipt(phase, "gosha100").splitlines()
    assert lines[3:5] == ["• Кража: Атака у Мастера Меча → gosha100", "• Колдую «Молитва» на Мастера Меча (Вампир)"]
    assert "Мечи" not in phase["reports"]["technical"] and "Мечу" not in phase["reports"]["technical"]
    # without the table the rule's guess is what the docs warn of
    plain = run_scenario(scenario)["phases"][0]
    assert "• Кража: Атака у Мастера Мечи → gosha100" in receipt(plain, "gosha100")


def test_a_replaced_seats_holder_is_declined_by_the_hosts_table(table_texts):
    phase = mafia_round_two({"Зорро": "голос: Лиса\nубить Лису"}, {"Лиса": "Таргелец"}, table_texts)
    assert receipt(phase, "Зорро").splitlines()[2:5] == ["Принято:", "• голос: Таргелец", "• убить Таргельца"]


def test_an_arena_receipt_and_stack_name_the_replaced_target_by_its_holder():
    """«Выпад(голова, Кума)» and the stack «L(голова, Кума)» named the seat Игорь holds now."""
    with open(SCENARIOS / "arena" / "four_named_defense.toml", "rb") as handle:
        scenario = tomllib.load(handle)
    scenario["phases"][0]["replace"] = {"Кума": "Игорь"}
    phase = run_scenario(scenario)["phases"][0]
    assert "• Правая рука: Выпад(голова, Игорь) → стопка: X L(голова, Игорь) X X X X" in receipt(phase, "Хан")
    assert "Стопка Хана (правая рука, начало боя): выложена — X L(голова, Игорь) X X X X" in phase["reports"]["technical"]
    assert "Кума" not in receipt(phase, "Хан") + phase["reports"]["technical"]
