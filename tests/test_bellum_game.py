"""Whole Bellum turns: hashed battle rolls, re-running a turn after a correction, the state's
JSON form, and a 10-turn game of the shipped 370 AD scenario with scripted orders."""
from __future__ import annotations

import pytest

from forumgm.config import load_texts
from forumgm.engines.base import OrderPm, Phase, PhaseInputs
from forumgm.engines.bellum import RULES
from tests.bellum_helpers import SMALL_MAP, setup_of, shipped_scenario

PLAYERS = [{"nick": "Аскон", "faction": "zapadnaya_rim"}, {"nick": "Хан", "faction": "vestgoty"},
           {"nick": "Зорро", "faction": "gunny"}, {"nick": "Бук", "faction": "ostgoty"}]
TURN = Phase("turn", 1)


def turn(texts, orders: dict[str, str], seed: int = 9):
    state = RULES.setup(setup_of({"scenario": str(SMALL_MAP), "players": PLAYERS}), seed)
    pms = tuple(OrderPm(nick, text) for nick, text in orders.items())
    return RULES.resolve(state, TURN, PhaseInputs(orders=pms), seed, texts)


ORDERS = {
    "Хан": "3 из Паннонии в Норик, атакуя ЗРИ",
    "Зорро": "8 из Сарматии в Дакию, атакуя остготов",
    "Бук": "Дакия: встретить боем всех",
}


def test_rolls_are_hashed_per_faction_per_battle_within_the_rules_range(texts):
    outcome = turn(texts, ORDERS)
    rolls = [r for b in outcome.extra["battles"] for r in b["rolls"].values()]
    assert len(rolls) == 4 and all(0.8 <= r <= 1.2 for r in rolls)
    assert turn(texts, ORDERS).extra == outcome.extra              # deterministic
    other_seed = turn(texts, ORDERS, seed=10).extra["battles"]
    assert [b["rolls"] for b in other_seed] != [b["rolls"] for b in outcome.extra["battles"]]


def test_correcting_one_order_changes_only_what_it_touches(texts):
    before = turn(texts, ORDERS).extra
    after = turn(texts, {**ORDERS, "Хан": "5 из Паннонии в Норик, атакуя ЗРИ"}).extra
    dacia = [[b for b in result["battles"] if b["province"] == "dacia"] for result in (before, after)]
    assert dacia[0] == dacia[1]
    noricum = [next(b for b in result["battles"] if b["province"] == "noricum") for result in (before, after)]
    assert noricum[0]["rolls"] == noricum[1]["rolls"]                # same battle, same participants
    assert noricum[0]["people"]["vestgoty"] == 3 and noricum[1]["people"]["vestgoty"] == 5
    untouched = set(before["people"]) - {"noricum", "pannonia"}
    assert {p: before["people"][p] for p in untouched} == {p: after["people"][p] for p in untouched}
    assert before["subjugated"] == after["subjugated"]


def test_the_state_survives_its_json_form(texts):
    outcome = turn(texts, ORDERS)
    again = RULES.load(RULES.dump(outcome.state))
    assert RULES.dump(again) == RULES.dump(outcome.state)
    second = [RULES.resolve(s, Phase("turn", 2), PhaseInputs(orders=(OrderPm("Зорро", "Сарматия: атаковать всех"),)),
                            9, texts).extra for s in (outcome.state, again)]
    assert second[0] == second[1]


def test_every_player_gets_his_own_situation(texts):
    outcome = turn(texts, ORDERS)
    pms = {pm.to: pm for pm in outcome.pms}
    assert set(pms) == {"Аскон", "Хан", "Зорро", "Бук"}
    assert all(pm.kind == "turn_pm" for pm in pms.values())
    assert "[b]Гунны[/b]" in pms["Зорро"].text and "[b]Аланы[/b]" in pms["Зорро"].text   # his subjugated tribe too
    assert "Дакия (бой)" in pms["Бук"].text and "Норик (бой)" not in pms["Бук"].text
    assert "Авторитет: доход" in pms["Аскон"].text
    for pm in pms.values():                       # provinces by name in Russian alphabetical order, not by id
        for line in pm.text.splitlines():
            if line.startswith("Провинции: "):
                names = line.removeprefix("Провинции: ").split(", ")
                assert names == sorted(names, key=lambda name: name.casefold().replace("ё", "е"))
    report = outcome.reports
    assert "Норик (бой)" in report["technical"] and "Дакия (бой)" in report["technical"]
    assert report["literary"].startswith("[b]370–374 годы[/b]")


def test_ten_turns_of_the_370_scenario_stay_consistent(texts):
    """Every faction of the shipped scenario has a player who orders every group each turn."""
    from tests.bellum_script import every_faction_played, scripted_orders

    players = every_faction_played(shipped_scenario().factions)
    state = RULES.setup(setup_of({"scenario": "370", "players": players}), 370)
    total = sum(n for here in state.people.values() for n in here.values())
    battles = subjugations = 0
    for number in range(1, 11):
        phase = Phase("turn", number)
        pms = [OrderPm(nick, text) for nick, text in scripted_orders(state, number).items()]
        for pm in pms:
            refused = [v for v in RULES.read_orders(state, phase, pm, []) if not v.ok]
            assert refused == [], refused
        assert RULES.complete_early(state, phase, pms)
        outcome = RULES.resolve(state, phase, PhaseInputs(orders=tuple(pms)), 370, texts)
        state = outcome.state
        lost = sum(e.data["count"] for e in outcome.events if e.type == "retreat_lost")
        now = sum(n for here in state.people.values() for n in here.values())
        assert now == total - lost, f"turn {number}: people not conserved"
        total = now
        assert all(n > 0 for here in state.people.values() for n in here.values())
        assert all(state.factions[o].is_state and not state.factions[o].captured for o in state.owners.values())
        assert all(not state.factions[m].is_state for m in outcome.extra["subjugated"].values())
        assert set(p for p in state.people) <= set(state.world.provinces)
        assert outcome.reports["technical"].startswith(f"[b]Ход {number} ({370 + 5 * (number - 1)} г.)")
        battles += len(outcome.extra["battles"])
        subjugations += sum(e.type == "subjugated" for e in outcome.events)
    assert state.turn == 10
    assert battles > 50 and subjugations > 0     # the script does make war


def test_the_shipped_example_game_starts_and_a_missing_faction_is_named():
    from forumgm.config import data_path
    from forumgm.daemon.cli.common import setup_problems
    from forumgm.daemon.settings.game import load_game
    from forumgm.daemon.settings.setup_files import game_setup

    game = load_game(data_path("games", "bellum.example.toml"))
    assert setup_problems(game) == []
    state = RULES.setup(game_setup(RULES, game), game.seed)
    assert state.own_faction("Хан") == "vestgoty" and state.factions["zap_rim"].player == "Аскон"
    with pytest.raises(Exception) as caught:
        RULES.setup(setup_of({"scenario": "370", "players": [{"nick": "Хан", "role": "Марсиане"}]}), 1)
    assert caught.value.key == "setup.players[0].role"
    assert "неизвестный народ «Марсиане»" in caught.value.message


def test_a_subjugated_tribe_fights_on_its_masters_side(texts):
    outcome = turn(texts, {"Зорро": "4 аланов из Сарматии в Дакию, атакуя остготов\n2 из Сарматии в Дакию",
                           "Бук": "Дакия: атаковать всех"})
    (battle,) = outcome.extra["battles"]
    assert sorted(side["members"] for side in battle["sides"]) == [["alany", "gunny"], ["ostgoty"]]


def test_host_events_from_a_file_and_a_malformed_one_named_by_key(tmp_path):
    from forumgm.engines.base import SetupError

    events = tmp_path / "events.toml"
    events.write_text('[[events]]\nnumber = 1\nturn = 1\ntext = "Чума"\ndefault = "а"\n'
                      '[[events.options]]\nletter = "а"\n'
                      'effects = [ { kind = "people", province = "italia", faction = "zapadnaya_rim", count = -5 } ]\n',
                      encoding="utf-8")
    state = RULES.setup(setup_of({"scenario": str(SMALL_MAP), "players": PLAYERS, "events": str(events)}), 9)
    outcome = RULES.resolve(state, TURN, PhaseInputs(), 9, load_texts())
    assert outcome.state.count("italia", "zapadnaya_rim") == 7
    events.write_text(events.read_text(encoding="utf-8").replace('province = "italia"', 'province = "atlantis"'),
                      encoding="utf-8")
    with pytest.raises(SetupError) as caught:
        RULES.setup(setup_of({"scenario": str(SMALL_MAP), "players": PLAYERS, "events": str(events)}), 9)
    assert caught.value.key == "setup.events[0].options[0].effects[0].province"


def test_a_retreat_goes_where_most_of_them_are_then_to_their_state_then_to_the_lowest_id():
    from forumgm.engines.bellum.war import retreat_to

    def where(people=None, owners=None, driven=(), preferred=None):
        state = RULES.setup(setup_of({"scenario": str(SMALL_MAP), "players": PLAYERS,
                             "people": people or {}, "owners": owners or {}}), 9)
        return retreat_to(state, "zapadnaya_rim", "noricum", driven, preferred)

    assert where() == "venetia"                                               # 3 Romans there
    assert where(preferred="germania") == "germania"
    assert where(preferred="italia") == "venetia"                             # no neighbour: not legal
    assert where(people={"venetia": {}}, owners={"venetia": "", "pannonia": "zapadnaya_rim"}) == "pannonia"
    assert where(people={"venetia": {}}, owners={"venetia": ""}) == "germania"  # lowest id
    assert where(driven=[("zapadnaya_rim", "venetia")]) == "germania"       # never back where it was driven from


@pytest.mark.parametrize("effect, key", [
    ({"kind": "faction", "id": "gunny", "name": "Новые гунны"}, "effects[0].id"),
    ({"kind": "faction", "id": "novye", "name": "Гунны"}, "effects[0].name"),
    ({"kind": "people", "province": "italia", "faction": "nobody", "count": 1}, "effects[0].faction"),
    ({"kind": "plague"}, "effects[0].kind"),
])
def test_a_host_event_may_not_reuse_or_invent_names(effect, key):
    from forumgm.engines.base import SetupError

    events = [{"number": 1, "turn": 1, "text": "?", "options": [{"letter": "а", "effects": [effect]}]}]
    with pytest.raises(SetupError) as caught:
        RULES.setup(setup_of({"scenario": str(SMALL_MAP), "players": PLAYERS, "events": events}), 9)
    assert caught.value.key == f"setup.events[0].options[0].{key}"
