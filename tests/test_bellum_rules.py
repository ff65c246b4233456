"""Bellum rules through `forumgm simulate`, one scenario a rule (tests/scenarios/bellum), with
every battle coefficient fixed at 1.0 so that strengths are the rules' plain arithmetic."""
from __future__ import annotations

import pytest

from forumgm.daemon.offline.simulate import run_scenario
from tests.bellum_helpers import battle_in, events_of, play, scenario, total_people


def only(result: dict) -> dict:
    (phase,) = result["phases"]
    return phase


def test_a_state_counts_twice_and_a_beaten_mover_falls_back(texts):
    phase = only(play("state_double", texts))
    battle = battle_in(phase, "noricum")
    assert battle["strengths"] == {"zapadnaya_rim": 6.0, "vestgoty": 5.0}
    assert battle["winners"] == ["zapadnaya_rim"] and battle["losers"] == ["vestgoty"]
    assert events_of(phase, "fell_back") == [
        {"faction": "vestgoty", "count": 5, "from": "noricum", "to": "pannonia", "phase": 6, "draw": False}]
    assert phase["people"]["pannonia"] == {"vestgoty": 5}
    assert phase["people"]["noricum"] == {"zapadnaya_rim": 3}
    # beaten everywhere it stood after movement, but by a state only: no master
    assert events_of(phase, "not_subjugated") == [{"tribe": "vestgoty", "reason": "beaten_by_states"}]
    assert "vestgoty" not in phase["subjugated"]
    assert "3 чел. × 2 × 1 = 6" in phase["reports"]["technical"]


def test_common_enemy_battles_merge_and_the_strongest_winner_subjugates(texts):
    phase = only(play("coalition", texts))
    (battle,) = phase["battles"]
    assert [side["members"] for side in battle["sides"]] == [["ostgoty"], ["franki", "vestgoty"]]
    assert [side["strength"] for side in battle["sides"]] == [6.0, 7.0]
    assert battle["losers"] == ["ostgoty"]
    assert phase["subjugated"]["ostgoty"] == "vestgoty"
    # subjugated at the retreat step, so they stay where they were beaten
    assert events_of(phase, "retreated") == []
    assert events_of(phase, "held") == [{"faction": "ostgoty", "province": "dacia", "count": 6, "reason": "subjugated"}]
    assert phase["people"]["dacia"] == {"franki": 3, "ostgoty": 6, "vestgoty": 4}


def test_equal_strength_is_a_draw_and_nobody_gains_ground(texts):
    phase = only(play("draw", texts))
    battle = battle_in(phase, "dacia")
    assert battle["winner"] is None and battle["losers"] == []
    assert phase["people"]["dacia"] == {"ostgoty": 4}
    assert phase["people"]["pannonia"] == {"vestgoty": 4}
    assert events_of(phase, "subjugated") == [] and events_of(phase, "retreated") == []


def test_retreat_never_goes_back_where_it_was_driven_from_and_without_a_way_out_people_are_lost(texts):
    result = play("retreat", texts)
    phase = only(result)
    assert events_of(phase, "retreated") == [{"faction": "franki", "count": 2, "from": "dacia", "to": "germania",
                                              "phase": 6, "preferred": False}]
    assert events_of(phase, "retreat_lost") == [{"faction": "franki", "count": 2, "from": "sarmatia", "phase": 6}]
    assert phase["people"]["germania"] == {"franki": 7}
    assert "franki" not in phase["people"]["sarmatia"]
    assert "franki" not in phase["subjugated"]      # not beaten in Germania


def test_a_state_beaten_in_its_last_province_is_captured_and_may_declare_independence_only_with_a_majority(texts):
    first, second = play("capture", texts)["phases"]
    assert events_of(first, "captured") == [{"state": "vostochnaya_rim", "province": "dalmatia", "count": 6}]
    assert first["people"]["dalmatia"] == {"vostochnaya_rim": 6, "zapadnaya_rim": 8}
    assert "dalmatia" not in first["owners"]
    assert "vostochnaya_rim" in first["captured"]
    # the Copts, captured at the start, hold Axum's majority
    assert events_of(first, "independence") == [{"state": "kopty", "province": "aksum"}]
    assert first["owners"]["aksum"] == "kopty" and "kopty" not in first["captured"]
    assert events_of(second, "independence_failed") == [
        {"state": "vostochnaya_rim", "province": "dalmatia", "reason": "no_majority"}]
    assert second["owners"]["dalmatia"] == "zapadnaya_rim"


def test_a_tribe_beaten_only_by_states_is_not_subjugated(texts):
    phase = only(play("only_states", texts))
    assert battle_in(phase, "pannonia")["strengths"] == {"vestgoty": 5.0, "zapadnaya_rim": 10.0}
    assert events_of(phase, "retreated")[0]["to"] == "dalmatia"
    assert events_of(phase, "not_subjugated") == [{"tribe": "vestgoty", "reason": "beaten_by_states"}]
    assert "vestgoty" not in phase["subjugated"]


def test_a_subjugated_tribe_goes_free_after_its_master_lost_three_turns_in_a_row(texts):
    phases = play("freeing", texts)["phases"]
    assert [p["subjugated"].get("alany") for p in phases] == ["gunny", "gunny", None]
    assert events_of(phases[2], "freed") == [{"tribe": "alany", "master": "gunny", "losing_turns": 3}]


def test_a_tribe_cut_off_for_three_turns_splits(texts):
    phases = play("splitting", texts)["phases"]
    assert [events_of(p, "split") for p in phases[:2]] == [[], []]
    assert events_of(phases[2], "split") == [{"tribe": "vestgoty", "new": "vestgoty_germania",
                                              "provinces": ["germania"]}]
    assert phases[2]["people"]["germania"] == {"vestgoty_germania": 2}
    assert phases[2]["factions"]["vestgoty_germania"]["name"] == "Вестготы (Германия)"
    assert phases[2]["factions"]["vestgoty_germania"]["player"] is None


def test_only_italys_holder_makes_a_consenting_tribe_a_state(texts):
    phase = only(play("kingdom", texts))
    assert events_of(phase, "kingdom") == [{"tribe": "vestgoty", "by": "zapadnaya_rim", "capital": "pannonia",
                                            "provinces": ["pannonia"]}]
    failed = {e["tribe"]: e["reason"] for e in events_of(phase, "kingdom_failed")}
    assert failed == {"franki": "no_consent", "ostgoty": "no_kingdom_majority"}
    assert phase["factions"]["vestgoty"]["kind"] == "state" and phase["factions"]["vestgoty"]["ever_state"]
    assert phase["owners"]["pannonia"] == "vestgoty"
    assert phase["authority"]["vestgoty"] == {"income": 1, "upkeep": 0, "balance": 1}


def test_the_least_stable_region_secedes_until_the_state_is_balanced(texts):
    phase = only(play("authority", texts))
    assert events_of(phase, "secession") == [{"state": "zapadnaya_rim", "region": "eritrea",
                                              "new": "zapadnaya_rim_eritrea", "reason": "authority",
                                              "income": 3, "upkeep": 3.33}]
    assert phase["secessions"] == [{"state": "zapadnaya_rim", "region": "eritrea", "new": "zapadnaya_rim_eritrea",
                                    "reason": "authority"}]
    assert phase["owners"]["aksum"] == phase["owners"]["matara"] == "zapadnaya_rim_eritrea"
    assert phase["factions"]["zapadnaya_rim_eritrea"]["capital"] == "aksum"
    assert phase["authority"]["zapadnaya_rim"] == {"income": 3, "upkeep": 1.33, "balance": 1.67}
    # the rules' example: one province of Eritrea's three gives 1 and costs x/3 (x = 3)
    assert phase["authority"]["vostochnaya_rim"] == {"income": 2, "upkeep": 1, "balance": 1}


def test_losing_the_capital_makes_every_other_region_independent(texts):
    phase = only(play("capital_loss", texts))
    assert events_of(phase, "capital_lost") == [{"state": "zapadnaya_rim", "capital": "italia",
                                                 "regions": ["illyricum"]}]
    assert phase["owners"]["noricum"] == "zapadnaya_rim_illyricum"
    assert phase["people"]["noricum"] == {"zapadnaya_rim_illyricum": 2}
    assert phase["owners"]["venetia"] == "zapadnaya_rim"     # Italy's own region stays


def test_assimilation_annexation_and_abandonment(texts):
    first, second = play("provinces", texts)["phases"]
    refused = [r for r in first["receipts"]["Аскон"] if not r["ok"]]
    assert [r["line"] for r in refused] == ["ассимилировать вестготов в Паннонии"]
    assert refused[0]["reason"].startswith("ассимилировать можно 1 человека за ход")
    assert first["people"]["venetia"] == {"zapadnaya_rim": 4}
    assert first["owners"]["pannonia"] == "zapadnaya_rim"
    assert "noricum" not in first["owners"]
    assert events_of(first, "abandon_failed") == [{"state": "zapadnaya_rim", "province": "africa", "reason": "majority"}]
    assert first["owners"]["africa"] == "zapadnaya_rim"
    assert events_of(second, "secession") == [{"state": "zapadnaya_rim", "region": "illyricum",
                                               "new": "zapadnaya_rim_illyricum", "reason": "abandoned"}]
    assert second["people"]["pannonia"] == {"vestgoty": 1, "zapadnaya_rim_illyricum": 3}


def test_those_who_fell_back_fight_the_attackers_of_their_home_and_the_beaten_are_subjugated_at_step_8(texts):
    phase = only(play("second_battle", texts))
    assert battle_in(phase, "pannonia", 5)["losers"] == ["vestgoty"]
    assert battle_in(phase, "dacia", 5)["losers"] == ["ostgoty"]
    second = battle_in(phase, "pannonia", 7)
    assert second["people"] == {"ostgoty": 2, "vestgoty": 3}
    assert second["losers"] == ["ostgoty"]
    assert events_of(phase, "retreated") == [
        {"faction": "ostgoty", "count": 4, "from": "dacia", "to": "sarmatia", "phase": 6, "preferred": True},
        {"faction": "vestgoty", "count": 1, "from": "pannonia", "to": "dalmatia", "phase": 6, "preferred": True}]
    assert [(e["faction"], e["phase"]) for e in events_of(phase, "fell_back")] == [("vestgoty", 6), ("ostgoty", 8)]
    assert phase["people"]["pannonia"] == {"vestgoty": 3}
    assert phase["people"]["dacia"] == {"franki": 5, "ostgoty": 2}
    assert "vestgoty" not in phase["subjugated"]          # unbeaten in Germania
    # beaten in Dacia (step 5) and in Pannonia (step 7): subjugated at step 8 by the stronger winner
    assert events_of(phase, "subjugated") == [{"tribe": "ostgoty", "master": "franki", "strength": 5.0}]
    assert phase["subjugated"]["ostgoty"] == "franki"


def test_a_tribe_beaten_everywhere_is_subjugated_at_the_retreat_step_and_does_not_retreat(texts):
    """The rules: a beaten defender must leave «Исключение составляют ситуации, когда народ покорен
    либо захвачен», and step 6 is «Отступление и покорение»: one step."""
    phase = only(play("subjugated_at_once", texts))
    assert events_of(phase, "subjugated") == [{"tribe": "vestgoty", "master": "ostgoty", "strength": 2.0}]
    assert events_of(phase, "held") == [{"faction": "vestgoty", "province": "pannonia", "count": 1,
                                         "reason": "subjugated"}]
    assert events_of(phase, "retreated") == []
    assert events_of(phase, "fell_back") == [{"faction": "vestgoty", "count": 3, "from": "noricum", "to": "pannonia",
                                              "phase": 6, "draw": False}]
    assert [b["phase"] for b in phase["battles"]] == [5, 5]        # the master's own people: no battle 7
    assert phase["people"]["pannonia"] == {"ostgoty": 2, "vestgoty": 4}
    kinds = [e["type"] for e in phase["events"]]
    assert kinds.index("subjugated") < kinds.index("held") < kinds.index("fell_back")


def test_host_events_apply_the_chosen_or_the_default_option_in_phase_one(texts):
    phase = only(play("host_events", texts))
    assert [(e["number"], e["option"], e["chosen_by"]) for e in events_of(phase, "host_event")] == [
        (1, "а", "Хан"), (2, "б", None)]
    assert phase["people"]["pannonia"] == {"vestgoty": 8}
    assert battle_in(phase, "dacia")["strengths"] == {"gunny": 4.0, "ostgoty": 9.0}


@pytest.mark.parametrize("name, lost, added", [("state_double", 0, 0), ("coalition", 0, 0), ("second_battle", 0, 0),
                                               ("subjugated_at_once", 0, 0), ("no_italy", 0, 0),
                                               ("retreat", 2, 0), ("provinces", 0, 0), ("host_events", 0, 3)])
def test_people_are_conserved_except_where_a_rule_removes_or_adds_them(texts, name, lost, added):
    """Battles kill nobody (battle_losses = 0): only a retreat with no way out removes people,
    and only an event adds them."""
    table = scenario(name)
    start = run_scenario({**table, "phases": []}, texts)
    end = run_scenario(table, texts)
    assert sum(e["count"] for p in end["phases"] for e in events_of(p, "retreat_lost")) == lost
    assert total_people(end["people"]) == total_people(start["people"]) - lost + added
    assert end["people"] == end["phases"][-1]["people"]


def test_the_cli_reads_the_map_relative_to_the_simulation_file(tmp_path, capsys, monkeypatch):
    """`forumgm simulate` from any folder: `scenario = "small_map.toml"` is beside the file."""
    import json

    from forumgm.daemon.cli import main
    from tests.bellum_helpers import SCENARIOS

    monkeypatch.chdir(tmp_path)
    assert main(["simulate", str(SCENARIOS / "state_double.toml")]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["people"]["noricum"] == {"zapadnaya_rim": 3}
    assert result["phases"][0]["battles"][0]["winners"] == ["zapadnaya_rim"]
    pm = tmp_path / "pm.txt"
    pm.write_text("4 из Паннонии в Норик\n1 из Паннонии в Норик", encoding="utf-8")
    assert main(["check-orders", "--game", "bellum", "--scenario", str(SCENARIOS / "draw.toml"),
                 "--from", "Хан", str(pm)]) == 0
    receipt = json.loads(capsys.readouterr().out)["receipt"]
    assert [r["ok"] for r in receipt] == [True, False]


def test_taking_rome_makes_a_king_only_the_next_turn(texts):
    first, second = play("kingdom_next_turn", texts)["phases"]
    assert events_of(first, "kingdom_failed") == [{"tribe": "ostgoty", "by": "Бук", "reason": "no_kingdom_majority"}]
    assert first["people"]["italia"] == {"ostgoty": 20, "zapadnaya_rim": 12}
    assert events_of(second, "kingdom") == [{"tribe": "ostgoty", "by": "ostgoty", "capital": "italia",
                                             "provinces": ["dacia", "italia"]}]
    assert second["factions"]["ostgoty"]["kind"] == "state"
    assert second["owners"]["italia"] == "ostgoty"


def test_battle_losses_and_event_transfers_of_provinces_and_new_factions(texts):
    phase = only(play("losses_and_transfers", texts))
    assert events_of(phase, "battle_losses") == [{"faction": "vestgoty", "province": "dacia", "count": 2}]
    assert events_of(phase, "fell_back")[0]["count"] == 2
    assert phase["people"]["pannonia"] == {"vestgoty": 3}               # 1 stayed, 2 of 4 came back
    assert phase["owners"]["noricum"] == "vostochnaya_rim"
    assert phase["factions"]["akatsiry"] == {"name": "Акациры", "kind": "tribe", "ever_state": False,
                                             "capital": None, "player": None, "color": "#445566"}
    assert phase["people"]["sarmatia"]["akatsiry"] == 5
    assert "Вестготы: потери в бою (Дакия) — 2 чел." in phase["reports"]["technical"]
