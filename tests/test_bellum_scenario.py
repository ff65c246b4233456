"""The Bellum scenario loader: every problem of a file reported at once, and the shipped 370 AD map."""
import copy
from collections import Counter, deque

import pytest

from forumgm.engines.base import SetupError
from forumgm.engines.bellum import RULES
from forumgm.engines.bellum.orders import book_of
from forumgm.engines.bellum.scenario import ScenarioError, parse_scenario
from forumgm.parsers.declension import people_forms, place_forms
from forumgm.parsers.orders.bellum import parse_line
from tests.bellum_helpers import setup_of, shipped_scenario

# The rules' faction list (Bellum 2.0, «Список фракций в игре»), as the rules spell it.
RULES_STATES = ["Армяне", "Ассирийцы", "Восточная Римская Империя", "Евреи", "Западная Римская Империя",
                "Копты", "Пуны", "Сассаниды"]
RULES_TRIBES = """Абасги Аксумиты Аланы Алеманны Англы Анты Афригиды Баски Бастарны Бритты Будины Бургунды
Вандалы Варины Венеды Вестготы Гараманты Гассаниды Гепиды Геты Гунны Даны Иллирийцы Исавры Каледонцы Лазы
Квады Лангобарды Лахмиды Луги Берберы Мадьяры Маркоманы Нобатийцы Остготы Пикты Руги Савиры Саксы Свевы
Склавины Танухиды Тюринги Франки Фризы Химьяриты Эбданы Эфталиты Юты Языги""".split()
CAPTURED = {"Армяне", "Ассирийцы", "Евреи", "Копты", "Пуны"}

SMALL = {
    "name": "test", "year": 370,
    "regions": [{"id": "italia", "name": "Италия", "upkeep": 2}, {"id": "north", "name": "Север", "upkeep": 1}],
    "provinces": [
        {"id": "italia", "name": "Италия", "aliases": ["Рим"], "civilized": True, "region": "italia",
         "authority": 3, "x": 12.5, "y": 41.9},
        {"id": "venetia", "name": "Венетия", "civilized": True, "region": "italia", "x": 12.3, "y": 45.4},
        {"id": "noricum", "name": "Норик", "civilized": False, "region": "north", "x": 14.0, "y": 47.3},
        {"id": "sicilia", "name": "Сицилия", "civilized": True, "region": "italia", "x": 14.2, "y": 37.5},
    ],
    "links": [
        {"a": "italia", "b": "venetia", "kind": "land"},
        {"a": "venetia", "b": "noricum", "kind": "land"},
        {"a": "italia", "b": "sicilia", "kind": "blue"},
        {"a": "venetia", "b": "sicilia", "kind": "purple"},
    ],
    "factions": [
        {"id": "rome", "name": "Рим-государство", "kind": "state", "color": "#c8102e", "capital": "italia"},
        {"id": "goths", "name": "Готы", "aliases": ["готов"], "kind": "tribe", "color": "#aa3311"},
        {"id": "alans", "name": "Аланы", "kind": "tribe", "color": "#17becf", "ever_state": True},
        {"id": "puny", "name": "Пуны", "kind": "state", "color": "#5b2c0f", "capital": "sicilia", "captured": True},
    ],
    "people": [
        {"province": "italia", "faction": "rome", "count": 12},
        {"province": "noricum", "faction": "goths", "count": 5},
        {"province": "noricum", "faction": "alans", "count": 2},
        {"province": "sicilia", "faction": "puny", "count": 1},
        {"province": "sicilia", "faction": "rome", "count": 2},
    ],
    "owners": {"italia": "rome", "sicilia": "rome"},
    "subjugated": {"alans": "goths"},
}


def broken(**changes):
    data = copy.deepcopy(SMALL)
    for key, value in changes.items():
        data[key] = value
    return data


def problems_of(data):
    with pytest.raises(ScenarioError) as caught:
        parse_scenario(data, "my.toml")
    return caught.value.problems


# ---------------------------------------------------------------- a valid file

def test_a_valid_scenario_becomes_frozen_data():
    scenario = parse_scenario(SMALL, "my.toml")
    assert scenario.name == "test" and scenario.year == 370
    assert scenario.provinces["italia"].authority == 3 and scenario.provinces["venetia"].authority == 1
    assert scenario.provinces["italia"].aliases == ("Рим",)
    assert scenario.factions["rome"].ever_state and scenario.factions["alans"].ever_state
    assert not scenario.factions["goths"].ever_state and scenario.factions["goths"].capital is None
    assert scenario.factions["puny"].captured
    assert scenario.owners == {"italia": "rome", "sicilia": "rome"}
    assert scenario.subjugated == {"alans": "goths"}
    with pytest.raises(TypeError):
        scenario.owners["venetia"] = "rome"
    with pytest.raises(AttributeError):
        scenario.name = "other"


def test_neighbours_read_links_both_ways_and_filter_by_kind():
    scenario = parse_scenario(SMALL)
    assert scenario.neighbours("venetia") == ("italia", "noricum", "sicilia")
    assert scenario.neighbours("sicilia", ["land"]) == ()
    assert scenario.neighbours("sicilia", ["land", "blue"]) == ("italia",)
    assert scenario.neighbours("sicilia", ["purple"]) == ("venetia",)
    assert scenario.link("sicilia", "italia").kind == "blue"


# ---------------------------------------------------------------- every problem at once

def test_every_problem_is_reported_at_once_with_file_and_key():
    data = broken(
        links=SMALL["links"] + [
            {"a": "noricum", "b": "venetia", "kind": "land"},     # the same pair again, written backwards
            {"a": "italia", "b": "atlantis", "kind": "land"},     # unknown province
            {"a": "italia", "b": "noricum", "kind": "tunnel"},    # bad kind
        ],
        factions=SMALL["factions"] + [
            {"id": "huns", "name": "Гунны", "kind": "horde", "color": "#252525"},       # bad kind
            {"id": "franks", "name": "Франки", "kind": "state", "color": "#2166ac", "capital": "noricum"},
            {"id": "goths", "name": "Ещё готы", "kind": "tribe", "color": "#000000"},   # duplicate id
            {"id": "saxons", "name": "Саксы", "kind": "tribe", "color": "red"},          # bad colour
        ],
    )
    problems = problems_of(data)
    assert all(problem.startswith("my.toml: ") for problem in problems)
    text = "\n".join(problems)
    assert "links[4]: the pair noricum–venetia is already linked by links[1]" in text
    assert "links[5].b: unknown province 'atlantis'" in text
    assert "links[6].kind: expected one of land, blue, purple (got 'tunnel')" in text
    assert "factions[4] (huns).kind: expected state or tribe (got 'horde')" in text
    assert "factions[5] (franks).capital: the capital 'noricum' is not civilized" in text
    assert "factions[6] (goths).id: duplicate id 'goths'" in text
    assert "factions[7] (saxons).color: expected a colour #rrggbb (got 'red')" in text
    assert "factions (franks): the faction is in no province" in text
    assert "factions (franks).capital: a free state must own its capital 'noricum'" in text


def test_a_faction_in_no_province_is_a_problem_and_an_unlinked_province_an_island():
    problems = problems_of(broken(people=[p for p in SMALL["people"] if p["faction"] != "goths"]))
    assert "my.toml: factions (goths): the faction is in no province (expected a [[people]] entry)" in problems
    island = parse_scenario(broken(links=[link for link in SMALL["links"] if "noricum" not in (link["a"], link["b"])]),
                            "my.toml")
    assert island.warnings == ("my.toml: provinces (noricum): no link reaches it: nobody can move into it or out of it",)
    assert island.neighbours("noricum") == ()


def test_unknown_ids_in_people_owners_and_subjugation():
    data = broken(
        people=SMALL["people"] + [{"province": "gallia", "faction": "rome", "count": 3},
                                  {"province": "italia", "faction": "vandals", "count": 3},
                                  {"province": "italia", "faction": "goths", "count": 0},
                                  {"province": "italia", "faction": "rome", "count": 4}],
        owners={"italia": "rome", "sicilia": "rome", "gallia": "rome", "venetia": "goths", "noricum": "puny"},
        subjugated={"alans": "goths", "goths": "rome", "vandals": "goths"},
    )
    text = "\n".join(problems_of(data))
    assert "people[5].province: unknown province 'gallia'" in text
    assert "people[6].faction: unknown faction 'vandals'" in text
    assert "people[7].count: expected a number of people ≥ 1 (got 0)" in text
    assert "people[8]: rome in italia is already given by people[0]" in text
    assert "owners.gallia: unknown province 'gallia'" in text
    assert "owners.venetia: 'goths' is a tribe (only states own provinces)" in text
    assert "owners.noricum: 'puny' is captured (a captured state owns no province)" in text
    assert "subjugated.goths: only a tribe subjugates a tribe" in text
    assert "subjugated.vandals: unknown faction 'vandals'" in text


def test_missing_and_mistyped_keys_say_what_is_expected():
    provinces = copy.deepcopy(SMALL["provinces"])
    del provinces[1]["x"]
    provinces[2]["civilized"] = "нет"
    provinces[3]["region"] = "africa"
    provinces[0]["authority"] = True
    provinces[0]["capital"] = "x"
    data = broken(provinces=provinces, year="370", regions=[{"id": "italia", "name": "Италия", "upkeep": -1},
                                                           {"id": "North", "name": "Север", "upkeep": 1}])
    data["turns"] = 3
    text = "\n".join(problems_of(data))
    assert "turns: unknown key" in text
    assert "year: expected the first turn's year, an integer (got '370')" in text
    assert "regions[0] (italia).upkeep: expected a number ≥ 0 (got -1)" in text
    assert "regions[1] (North).id: expected lowercase latin letters, digits and _ (got 'North')" in text
    assert "provinces[1] (venetia).x: missing (expected the map's x (longitude))" in text
    assert "provinces[2] (noricum).civilized: expected true or false (got 'нет')" in text
    assert "provinces[3] (sicilia).region: unknown region 'africa'" in text
    assert "provinces[0] (italia).authority: expected an integer ≥ 0 (got True)" in text
    assert "provinces[0] (italia).capital: unknown key" in text


def test_a_name_shared_by_two_provinces_is_refused():
    provinces = copy.deepcopy(SMALL["provinces"])
    provinces[1]["aliases"] = ["рим"]
    assert "my.toml: provinces: the name 'рим' belongs to italia, venetia (expected each name once)" in problems_of(
        broken(provinces=provinces))


def test_a_link_to_itself_and_a_master_that_is_subjugated_are_refused():
    data = broken(links=SMALL["links"] + [{"a": "italia", "b": "italia", "kind": "land"}],
                  factions=SMALL["factions"] + [{"id": "huns", "name": "Гунны", "kind": "tribe", "color": "#252525"}],
                  people=SMALL["people"] + [{"province": "noricum", "faction": "huns", "count": 1}],
                  subjugated={"alans": "goths", "goths": "huns"})
    text = "\n".join(problems_of(data))
    assert "links[4]: a link from 'italia' to itself" in text
    assert "subjugated.alans: its master 'goths' is itself subjugated" in text


def test_a_file_is_read_by_path_and_bad_toml_names_the_file(tmp_path):
    path = tmp_path / "mine.toml"
    path.write_text('name = "x"\nyear = [', encoding="utf-8")
    with pytest.raises(SetupError) as caught:
        RULES.setup(setup_of({"scenario": str(path), "players": [{"nick": "Хан", "faction": "gunny"}]}), 1)
    assert caught.value.key == "setup.scenario"
    assert caught.value.message == f"{path}: end of file: not valid TOML: invalid value"
    with pytest.raises(SetupError) as caught:
        RULES.setup(setup_of({"scenario": str(tmp_path / "missing.toml"), "players": []}), 1)
    assert caught.value.problems[0] == ("setup.scenario", f"{tmp_path / 'missing.toml'}: (file): cannot read it: "
                                                          "No such file or directory")


# ---------------------------------------------------------------- the shipped 370 AD scenario

@pytest.fixture(scope="module")
def s370():
    return shipped_scenario()


def test_370_has_every_faction_of_the_rules_list(s370):
    by_name = {faction.name.casefold(): faction for faction in s370.factions.values()}
    assert len(s370.factions) == len(RULES_STATES) + len(RULES_TRIBES) == 58
    for name in RULES_STATES:
        assert by_name[name.casefold()].kind == "state", name
        assert by_name[name.casefold()].captured == (name in CAPTURED), name
    for name in RULES_TRIBES:
        assert by_name[name.casefold()].kind == "tribe", name


def test_370_states_hold_their_capitals_and_the_captured_hold_nothing(s370):
    owned = set(s370.owners.values())
    assert owned == {"zap_rim", "vost_rim", "sassanidy"}
    assert s370.factions["zap_rim"].capital == "italiya" and s370.owners["italiya"] == "zap_rim"
    assert s370.factions["vost_rim"].capital == "frakiya" and s370.owners["frakiya"] == "vost_rim"
    assert s370.factions["sassanidy"].capital == "asorestan" and s370.owners["asorestan"] == "sassanidy"
    people = {(stack.province, stack.faction): stack.count for stack in s370.people}
    for fid in ("armyane", "assiriytsy", "evrei", "kopty", "puny"):
        capital = s370.factions[fid].capital
        assert (capital, fid) in people, fid          # a captured people still lives in its capital
        assert s370.provinces[capital].civilized


def test_370_authority_values_are_the_rules(s370):
    by_name = {province.name: province for province in s370.provinces.values()}
    assert {name: by_name[name].authority for name in ("Египет", "Палестина", "Сирия", "Фракия", "Асорестан", "Италия")} == {
        "Египет": 2, "Палестина": 2, "Сирия": 2, "Фракия": 2, "Асорестан": 2, "Италия": 3}
    values = Counter(p.authority for p in s370.provinces.values())
    assert values == {1: len(s370.provinces) - 6, 2: 5, 3: 1}


def test_370_spans_britain_to_persia_and_the_steppe(s370):
    assert 80 <= len(s370.provinces) <= 150
    xs = [p.x for p in s370.provinces.values()]
    ys = [p.y for p in s370.provinces.values()]
    assert min(xs) < -7 and max(xs) > 60          # Ireland .. Bactria
    assert min(ys) < 20 and max(ys) > 55          # Aksum, Yemen .. the Urals, Scotland
    names = {p.name for p in s370.provinces.values()}
    assert {"Британия", "Тингитанская Мавретания", "Парс", "Причерноморье", "Италия"} <= names


def test_370_links_connect_the_whole_map_and_islands_only_by_sea(s370):
    start = "italiya"
    seen, queue = {start}, deque([start])
    while queue:
        for other in s370.neighbours(queue.popleft()):
            if other not in seen:
                seen.add(other)
                queue.append(other)
    assert seen == set(s370.provinces)
    for island in ("sitsiliya", "sardiniya", "korsika", "krit", "kipr", "gibernia"):
        assert s370.neighbours(island, ["land"]) == (), island
        assert s370.neighbours(island, ["blue", "purple"]), island
    assert s370.link("frakiya", "vifiniya").kind == "blue"          # the Bosporus
    assert s370.link("betika", "tingitana").kind == "blue"          # Gibraltar
    assert s370.link("italiya", "afrika").kind == "purple"          # open sea: states only


def test_370_a_tribe_can_reach_every_province_without_purple_links(s370):
    seen, queue = {"moldaviya"}, deque(["moldaviya"])
    while queue:
        for other in s370.neighbours(queue.popleft(), ["land", "blue"]):
            if other not in seen:
                seen.add(other)
                queue.append(other)
    assert seen == set(s370.provinces)          # every island has a blue strait somewhere


def test_370_every_tribe_has_a_home_where_it_holds_the_majority(s370):
    in_province = {}
    for stack in s370.people:
        in_province.setdefault(stack.province, {})[stack.faction] = stack.count
    main = {}
    for province, counts in in_province.items():
        for fid, count in counts.items():
            if count > main.get(fid, (0, None))[0]:
                main[fid] = (count, province)
    home = {fid: province for fid, (_, province) in main.items()}
    assert home["vestgoty"] == "moldaviya" and home["ostgoty"] == "prichernomorye"
    assert home["gunny"] == "nizh_volga" and home["alany"] == "alaniya" and home["pikty"] == "piktavia"
    assert home["khimyarity"] == "himyar" and home["afrigidy"] == "khorezm" and home["ebdany"] == "gibernia"
    # but two peoples who in 370 lived beside stronger ones: the Gepids beside the Vandals on the
    # upper Tisza, the Getae (free Dacians) among the Tervingi
    assert home["gepidy"] == "verkh_tisa" and home["gety"] == "dakiya"
    for fid, province in home.items():      # every other tribe holds the strict majority of its home
        if s370.factions[fid].kind == "tribe" and fid not in ("gepidy", "gety"):
            others = [count for other, count in in_province[province].items() if other != fid]
            assert all(count < main[fid][0] for count in others), fid


def test_370_names_are_read_in_every_case_without_a_hand_made_case_list(s370):
    """The scenario writes each name once; orders read its case forms from morphology."""
    players = [{"nick": "Хан", "faction": "Вестготы"}]
    book = book_of(RULES.setup(setup_of({"scenario": "370", "players": players}), seed=1), 1)
    assert book.provinces.find("Паннонии") == "pannoniya"
    assert book.provinces.find("Нижнюю Германию") == "nizh_germania"
    assert book.provinces.find("Константинополем") == "frakiya"
    assert book.provinces.find("Ахайю") == "akhayya"
    assert book.provinces.find("Бетикой") == "betika"
    assert book.provinces.find("Лондинии") == "britannia"
    assert book.factions.find("вестготов") == "vestgoty"
    assert book.factions.find("восточную римскую империю") == "vost_rim"
    assert book.factions.find("армян") == "armyane"
    assert book.factions.find("пунов") == "puny"
    assert book.regions.find("Мезии") == "meziya"


def test_no_name_in_370_is_spelt_as_a_hand_made_case_form(s370):
    """An alias is another name («Византия»), never a case form of the entry's own names: those
    come from parsers/declension.py, for every name alike."""
    entries = [(p.name, p.aliases, place_forms) for p in s370.provinces.values()]
    entries += [(f.name, f.aliases, people_forms) for f in s370.factions.values()]
    hand_made = []
    for name, aliases, forms in entries:
        for alias in aliases:
            others = [n for n in (name, *aliases) if n != alias]
            oblique = {f.replace("ё", "е") for n in others for f in forms(n) - {n.casefold()}}
            if alias.casefold().replace("ё", "е") in oblique:
                hand_made.append(alias)
    assert hand_made == []


def test_370_as_a_historian_of_late_antiquity_reads_it(s370):
    """The corrections of the scenario file's comments, each checked (sources there)."""
    people: dict[str, dict[str, int]] = {}
    for stack in s370.people:
        people.setdefault(stack.province, {})[stack.faction] = stack.count

    def majority(province):
        here = sorted(people.get(province, {}).items(), key=lambda item: -item[1])
        return here[0][0] if here and (len(here) == 1 or here[0][1] > here[1][1]) else None

    def province_of(name):
        (found,) = [p.id for p in s370.provinces.values() if name in (p.name, *p.aliases)]
        return found

    # the Tervingi hold old Dacia, Wallachia and Moldavia; the Gepids are not yet in Transylvania
    assert [majority(p) for p in ("dakiya", "valakhiya", "moldaviya")] == ["vestgoty"] * 3
    assert "gepidy" not in people["dakiya"] and "gepidy" in people["verkh_tisa"]
    assert all(people[p].get("gety", 0) < people[p]["vestgoty"] for p in ("dakiya", "valakhiya"))
    # the Iranian Huns of 370 are the Chionites and Kidarites
    assert {"Хиониты", "Кидариты"} <= set(s370.factions["eftality"].aliases)
    # Valentia is a Roman province's name, in Roman Britain; between the walls live Britons
    assert province_of("Валентия") == "eborak" and s370.owners["eborak"] == "zap_rim"
    assert s370.provinces["valentia"].name == "Земля вотадинов" and "valentia" not in s370.owners
    # Raetia belongs to the diocese of Italy
    assert s370.provinces["retsiya"].region == "italiya"
    # cities under their own provinces, nothing founded after 370
    assert [province_of(city) for city in ("Сингидун", "Адрианополь", "Филиппополь", "Синопа")] == [
        "verkh_meziya", "frakiya", "rodopa", "pont"]
    assert not [p.id for p in s370.provinces.values() if "Басра" in p.aliases]
    # Pap's Armenia: no Persian province, no Persarmenia before 387; Iberia split between the empires
    assert "vaspurakan" not in s370.owners
    assert not [p.id for p in s370.provinces.values() if "Персидская Армения" in (p.name, *p.aliases)]
    assert people["iberiya"] == {"sassanidy": 2, "vost_rim": 2} and majority("iberiya") is None
    # the Babylonian Jewry; the Copts in their heartland; al-Hira a city
    assert people["asorestan"]["evrei"] > 0
    assert majority("fivaida") == "kopty"
    assert s370.provinces["khira"].civilized
    # open North Sea crossings are for fleets (purple), as the Bay of Biscay; the Frisian coast is blue
    kinds = {frozenset((link.a, link.b)): link.kind for link in s370.links}
    assert [kinds[frozenset(pair)] for pair in (("eborak", "angeln"), ("britannia", "saksoniya"),
                                                 ("galletsiya", "akvitaniya"), ("friziya", "britannia"))] == [
        "purple", "purple", "purple", "blue"]


def test_no_name_of_a_370_province_is_a_name_of_a_faction(s370):
    """«Мавры» are the Berbers, «Химьяр» is a land: a name is a province's or a people's, never both
    (case forms aside: «Иудеи» is the Jews' other name and a case form of «Иудея», read by the
    line's grammar, tests/test_bellum_own_map.py)."""
    def folded(entry):
        return {n.casefold().replace("ё", "е") for n in (entry.name, *entry.aliases)}
    places = set().union(*map(folded, s370.provinces.values()))
    peoples = set().union(*map(folded, s370.factions.values()))
    assert places & peoples == set()


@pytest.mark.parametrize("line, order", [
    ("Иудеи: Палестина: бездействовать", ("stay", "palestina", "evrei")),
    ("Иудея: бездействовать", ("stay", "palestina", None)),
    ("1 из Атласа в Гетулию, атакуя мавров", ("move", "atlas", "berbery")),
    ("1 из Химьяра в Хиджаз, атакуя химьяритов", ("move", "himyar", "khimyarity")),
])
def test_a_370_order_naming_a_colliding_name_is_read_as_what_it_names(line, order):
    players = [{"nick": "Марк", "faction": "Евреи"}]
    book = book_of(RULES.setup(setup_of({"scenario": "370", "players": players}), seed=1), 1)
    read = parse_line(line, book).order
    if order[0] == "stay":
        assert (read.province, read.faction) == order[1:]
    else:
        assert (read.origin, read.targets) == (order[1], (order[2],))
