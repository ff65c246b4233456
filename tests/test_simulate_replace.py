"""A scenario gives a seat to another forum account from a phase on (`replace`), as `forumgm replace`
does in a running game: the seat keeps its name, the new account's PMs are the seat's and may be
named in orders, the old account's are nobody's, and texts show the seat by who holds it."""
from __future__ import annotations

import pytest

from forumgm.daemon.offline.simulate import ScenarioError, run_scenario

NEW = "Новичок"
PLAYERS = [{"nick": n, "role": r} for n, r in
           {"Аскон": "Бес", "gosha100": "Мантикора", "Robozik": "Дракон", "Кума": "Единорог"}.items()]


def legends(*phases: dict) -> dict:
    return run_scenario({"game": "legends", "seed": 7, "setup": {"players": PLAYERS}, "phases": list(phases)})


def test_the_new_account_plays_the_seat_from_the_phase_on():
    played = legends(
        {"kind": "night", "number": 1, "orders": {"gosha100": "Защита 3"}},
        {"kind": "day", "number": 1},
        {"kind": "night", "number": 2, "replace": {"gosha100": NEW},
         "pms": [{"from": NEW, "text": "Защита 2"}, {"from": "gosha100", "text": "Атака 5 Кума"},
                 {"from": "Robozik", "text": f"Атака 5 {NEW}а"}]},
    )
    night1, _day1, night2 = played["phases"]
    assert [v["line"] for v in night1["receipts"]["gosha100"]] == ["Защита 3"]
    # the seat keeps its name; the old account's PM is nobody's
    assert sorted(night2["receipts"]) == ["Robozik", "gosha100"]
    assert [v["line"] for v in night2["receipts"]["gosha100"]] == ["Защита 2"]
    assert night2["stray_pms"] == [{"from": "gosha100", "text": "Атака 5 Кума"}]
    assert night2["receipts"]["Robozik"][0]["ok"], night2["receipts"]["Robozik"]
    attacks = [e for e in night2["events"] if e["type"] == "attack"]
    assert [(a["nick"], a["target"]) for a in attacks] == [("Robozik", "gosha100")]
    # what the players read names the seat by the account holding it
    technical = night2["reports"]["technical"].splitlines()
    assert f"Robozik: Атака 5 → {NEW} (Защита 15) — нерезультативна" in technical, technical
    assert f"{NEW}: защита выдержала все атаки (1)" in technical


def test_before_its_phase_the_new_account_is_nobody():
    played = legends({"kind": "night", "number": 2, "pms": [{"from": "Robozik", "text": f"Атака 5 {NEW}"}]},
                     {"kind": "day", "number": 2, "replace": {"gosha100": NEW}})
    assert not played["phases"][0]["receipts"]["Robozik"][0]["ok"]


@pytest.mark.parametrize("replace, key, message", [
    ({"Никто": NEW}, "phases[0].replace.Никто", "'Никто' is not a player"),
    ({"gosha100": "Кума"}, "phases[0].replace.gosha100", "not a player already"),
    ({"gosha100": 5}, "phases[0].replace.gosha100", "expected the forum account"),
])
def test_a_replacement_the_host_could_not_make_names_the_key(replace, key, message):
    with pytest.raises(ScenarioError) as error:
        legends({"kind": "night", "number": 2, "replace": replace})
    assert error.value.key == key and message in str(error.value)


def test_a_seat_out_of_the_game_is_not_taken_over():
    scenario = {"game": "legends", "seed": 7, "setup": {"players": PLAYERS, "dead": ["Кума"]},
                "phases": [{"kind": "night", "number": 2, "replace": {"Кума": NEW}}]}
    with pytest.raises(ScenarioError) as error:
        run_scenario(scenario)
    assert error.value.key == "phases[0].replace.Кума" and "out of the game" in str(error.value)
