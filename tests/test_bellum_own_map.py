"""A host's own small map: no «Италия» (nobody makes kingdoms), an island no link reaches, and
names written once, read in every case form, with ё as е and a name of two kinds never taken
for the other."""
from __future__ import annotations

import pytest

from forumgm.engines.bellum import RULES
from forumgm.engines.bellum.orders import book_of
from forumgm.parsers.orders.bellum import Move, Stay, parse_line
from tests.bellum_helpers import SCENARIOS, battle_in, events_of, play, setup_of

MAP = SCENARIOS / "no_italy_map.toml"


@pytest.fixture(scope="module")
def book():
    players = [{"nick": "Марк", "faction": "Евреи"}, {"nick": "Хан", "faction": "Вестготы"}]
    return book_of(RULES.setup(setup_of({"scenario": str(MAP), "players": players}), seed=1), 1)


def test_a_map_without_italy_loads_and_plays_the_rules_moves(texts):
    (phase,) = play("no_italy", texts)["phases"]
    battle = battle_in(phase, "mezia")
    assert [side["members"] for side in battle["sides"]] == [["puny", "vost_rim"], ["vestgoty"]]
    assert [side["strength"] for side in battle["sides"]] == [6.0, 3.0]
    assert events_of(phase, "fell_back") == [{"faction": "vestgoty", "count": 3, "from": "mezia", "to": "dacia",
                                              "phase": 6, "draw": False}]
    assert phase["people"]["dacia"] == {"gunny": 4, "vestgoty": 5}
    assert phase["people"]["mezia"] == {"puny": 1, "vost_rim": 2}
    assert "vestgoty" not in phase["subjugated"]          # not beaten in Dacia
    refused = [r for r in phase["receipts"]["Хан"] if not r["ok"]]
    assert [r["line"] for r in refused] == ["сделать государством гуннов, столица Мёзия"]
    assert refused[0]["reason"] == "на этой карте нет провинции «Италия»: государства из племён здесь не создаются"
    assert events_of(phase, "kingdom") == events_of(phase, "kingdom_failed") == []


def test_check_config_is_told_once_of_the_missing_kingdom_province_and_of_the_island():
    warnings = RULES.setup_warnings(setup_of({"scenario": str(MAP)}))
    assert warnings == [
        ("setup.scenario", f"{MAP}: provinces (creta): no link reaches it: nobody can move into it or out of it"),
        ("rules.kingdom_province", "Мёзия и Дакия: no province 'Италия' on this map: nobody can make a tribe a state"),
    ]
    assert RULES.setup_warnings(setup_of({"scenario": "370"})) == []


def test_an_exact_case_form_beats_a_near_miss_of_another_name(book):
    """«пунов» is the genitive of «Пуны»; it is also one letter from «гуннов», which must not matter."""
    assert book.factions.find("пунов") == "puny"
    assert book.factions.find("Пунам") == "puny"
    assert book.factions.find("гуннов") == "gunny"
    assert book.factions.find("гунов") == "gunny"          # a typo still finds the name nearest to it
    verdict = parse_line("3 из Дакии в Мёзию, атакуя пунов", book)
    assert verdict.order == Move(3, "dacia", "mezia", None, "attack", ("puny",))
    assert verdict.canonical == "3 из Дакии в Мёзию, атакуя Пунов"


@pytest.mark.parametrize("written", ["в Мезию", "Мезию", "Мёзию", "мезии", "Мезией"])
def test_e_and_yo_are_one_letter_in_names(book, written):
    assert book.provinces.find(written.removeprefix("в ")) == "mezia"


def test_a_name_of_a_province_and_of_a_people_is_read_as_what_the_order_names(book):
    """«Иудеи» is a case form of the province «Иудея» and another name of the Jews."""
    assert parse_line("Иудеи: Иудея: бездействовать", book).order == Stay("iudea", "evrei")
    assert parse_line("Иудея: бездействовать", book).order == Stay("iudea", None)
    assert parse_line("Иудеи: отступать из Иудеи в Фракию", book).order.faction == "evrei"
    assert parse_line("2 из Фракии в Иудею, атакуя иудеев", book).order.targets == ("evrei",)
    # where the grammar wants a province, the form is the province's: a stay order in Judaea
    assert parse_line("Иудеи: бездействовать", book).order == Stay("iudea", None)


@pytest.mark.parametrize("name, case, form", [
    ("Паннония", "gent", "Паннонии"), ("Египет", "gent", "Египта"), ("Бетика", "ablt", "Бетикой"),
    ("Лондиний", "loct", "Лондинии"), ("Норик", "accs", "Норик"), ("Верхняя Мёзия", "accs", "Верхнюю Мёзию"),
    ("Кимврский полуостров", "gent", "Кимврского полуострова"), ("Страна басков", "datv", "Стране басков"),
    ("Кесария Каппадокийская", "loct", "Кесарии Каппадокийской"), ("Аль-Хира", "gent", "Аль-Хиры"),
    ("Десятинные поля", "loct", "Десятинных полях"), ("Каледония и Гиберния", "gent", "Каледонии и Гибернии"),
])
def test_place_names_decline_by_the_dictionary_or_their_ending(name, case, form):
    from forumgm.parsers.declension import place_case

    assert place_case(name, case) == form


@pytest.mark.parametrize("name, case, form", [
    ("Пуны", "accs", "Пунов"), ("Гунны", "gent", "Гуннов"), ("Армяне", "gent", "Армян"), ("Евреи", "datv", "Евреям"),
    ("Ассирийцы", "ablt", "Ассирийцами"), ("Юты", "gent", "Ютов"), ("Кидариты", "accs", "Кидаритов"),
    ("Сарматы-аланы", "gent", "Сарматов-аланов"), ("Восточная Римская империя", "accs", "Восточную Римскую империю"),
])
def test_people_names_decline_as_plural_living_beings_or_as_a_state(name, case, form):
    from forumgm.parsers.declension import people_case

    assert people_case(name, case) == form
