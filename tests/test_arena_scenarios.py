"""Arena rules through `forumgm simulate`'s run_scenario, one scenario per rule
(tests/scenarios/arena, dice scripted so every number can be followed by hand)."""
from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from forumgm.daemon.settings.games import rules_for
from forumgm.daemon.offline.simulate import ScenarioError, run_scenario

SCENARIOS = Path(__file__).parent / "scenarios" / "arena"


@pytest.fixture
def play(texts):
    def run(name: str) -> dict:
        with open(SCENARIOS / f"{name}.toml", "rb") as handle:
            return run_scenario(tomllib.load(handle), texts)
    return run


def events(out: dict, kind: str, step: int | None = None) -> list[dict]:
    return [e for phase in out["phases"] if step is None or phase["number"] == step
            for e in phase["events"] if e["type"] == kind]


def fighter(out: dict, nick: str) -> dict:
    summary = [e for e in out["phases"][-1]["events"] if e["type"] == "summary"][-1]
    return next(f for f in summary["fighters"] if f["nick"] == nick)


def attack(out: dict, step: int) -> dict:
    (found,) = events(out, "attack", step)
    return found


def wounds(out: dict, nick: str) -> list[tuple[str, str]]:
    return [(w["zone"], w["name"]) for w in fighter(out, nick)["wounds"]]


def refused(out: dict, nick: str, step: int = 1) -> list[tuple[str, str]]:
    phase = out["phases"][step - 1]
    return [(r["line"], r["reason"]) for r in phase["receipts"].get(nick, []) if not r["ok"]]


def dice(f: dict) -> tuple[int, int, int]:
    return f["attack_dice"], f["defense_dice"], f["move_dice"]


def test_a_lunge_on_a_resting_fighter_is_a_wound_to_the_head(play):
    out = play("lunge_hits_head")
    hit = attack(out, 2)
    assert (hit["defense"], hit["multiplier"], hit["hits"], hit["weapon_multiplier"], hit["damage"]) == (None, 1, 4, 1.5, 6)
    assert wounds(out, "Аскон") == [("голова", "ранение")]
    assert dice(fighter(out, "Аскон")) == (3, 2, 2)      # a head wound takes a die of each kind
    step = out["phases"][1]["steps"][0]
    assert step["rolls"] == [{"nick": "Хан", "for": "атака L", "values": [6, 6, 6, 4]}]
    assert step["hits"] == [{"attacker": "Хан", "defender": "Аскон", "zone": "голова", "damage": 6, "level": 2}]
    assert {"nick": "Хан", "hand": "right", "card": "L(голова)", "code": "L", "zone": "голова"} in step["actions"]
    assert out["result"] is None and out["winner"] is None


def test_a_block_on_the_same_zone_halves_the_lunge_and_cancels_hits(play):
    hit = attack(play("block_same_zone"), 2)
    assert (hit["defense"], hit["half"], hit["multiplier"], hit["hits"], hit["cancels"], hit["damage"]) == (
        "B", False, 0.5, 4, 1, 2)
    assert hit["level"] == 1


def test_a_block_on_an_adjacent_zone_has_half_effect(play):
    out = play("block_adjacent_zone")
    hit = attack(out, 2)
    assert (hit["defense"], hit["half"], hit["multiplier"], hit["cancels"], hit["damage"]) == ("B", True, 0.75, 1, 3)
    assert out["phases"][1]["steps"][0]["rolls"][1] == {"nick": "Аскон", "for": "защита B", "values": [6, 6, 1]}
    assert wounds(out, "Аскон") == [("голова", "лёгкое ранение")]


def test_a_parry_stops_the_lunge_and_the_riposte_follows(play):
    out = play("parry_and_riposte")
    stopped = attack(out, 2)
    assert (stopped["defense"], stopped["multiplier"], stopped["outcome"]) == ("P", 0, "zero")
    assert out["phases"][1]["steps"][0]["rolls"] == []          # no dice, equal breakage: no roll
    riposte = attack(out, 3)
    assert (riposte["attacker"], riposte["code"], riposte["damage"]) == ("Аскон", "R", 2)
    assert wounds(out, "Хан") == [("тело", "лёгкое ранение")]


def test_a_riposte_without_a_parried_lunge_is_a_rest(play):
    out = play("riposte_without_parry")
    assert events(out, "riposte_void", 2) == [{"type": "riposte_void", "nick": "Аскон", "hand": "right"}]
    assert events(out, "attack") == []


def test_a_zero_lets_the_heavier_weapon_break_the_defenders(play):
    out = play("breakage")
    assert attack(out, 3)["outcome"] == "zero"
    assert events(out, "breakage", 3) == [{"type": "breakage", "nick": "Хан", "hand": "right", "weapon": "меч",
                                           "roll": 1, "needed": 1, "broken": True}]
    assert fighter(out, "Хан")["weapon"] == "рука"
    (rest,) = events(out, "card_rest", 4)
    assert rest["reason"].startswith("пустая рука не позволяет последовательность «Рубка»")


def test_approach_adds_one_to_the_multiplier(play):
    out = play("approach")
    assert events(out, "distance", 3)[0] == {"type": "distance", "between": ["Аскон", "Хан"], "before": 2, "after": 1,
                                             "movement": "approach"}
    assert {"nick": "Аскон", "hand": "legs", "card": "W(вперёд)", "code": "W", "direction": "вперёд"} in \
        out["phases"][2]["steps"][0]["actions"]
    hit = attack(out, 3)
    assert (hit["multiplier"], hit["hits"], hit["damage"]) == (2, 3, 6)
    assert wounds(out, "Аскон") == [("голова", "ранение")]
    technical = [phase["reports"]["technical"] for phase in out["phases"]]
    assert [line for text in technical for line in text.splitlines() if line.startswith("Дистанц")] == [
        "Дистанция: 2 → 2", "Дистанция: 2 → 2", "Дистанция: 2 → 1 (сближение)"]     # a duel's: every step


def test_retreat_out_of_the_weapons_range_is_zero_without_dice(play):
    out = play("retreat_out_of_range")
    hit = attack(out, 3)
    assert (hit["outcome"], hit["distance"], hit["range"]) == ("out_of_range", 3, [1, 2])
    assert out["phases"][2]["steps"][0]["rolls"] == [] and events(out, "breakage") == []


def test_retreat_within_range_takes_one_off_the_multiplier(play):
    out = play("retreat_in_range")
    hit = attack(out, 3)
    assert (hit["multiplier"], hit["outcome"]) == (0, "zero")
    assert wounds(out, "Аскон") == []


def test_a_sidestep_shifts_the_attack_opposite_to_the_move(play):
    out = play("sidestep_shift")
    hit = attack(out, 3)
    assert (hit["aimed"], hit["zone"], hit["damage"]) == ("тело", "правая рука", 4)
    assert wounds(out, "Аскон") == [("правая рука", "ранение")]
    assert dice(fighter(out, "Аскон")) == (3, 3, 3)      # an arm wound: one attack die less


def test_a_sidestep_shifts_an_attack_on_the_arm_past_it(play):
    hit = attack(play("sidestep_miss"), 3)
    assert (hit["aimed"], hit["outcome"]) == ("правая рука", "miss_shift")


def test_a_throw_hits_by_the_distance_formula_and_the_weapon_is_lost(play):
    out = play("throw_hits")
    (throw,) = events(out, "throw", 2)
    assert (throw["roll"], throw["needed"], throw["hit"]) == (3, 3, True)
    hit = attack(out, 2)
    assert (hit["hits"], hit["weapon_multiplier"], hit["damage"]) == (3, 1.5, 4)
    assert wounds(out, "Аскон") == [("тело", "ранение")]
    assert dice(fighter(out, "Аскон")) == (4, 2, 3)      # a body wound: one defense die less
    assert fighter(out, "Хан")["weapon"] == "рука"


def test_a_missed_throw_loses_the_weapon_too(play):
    out = play("throw_misses")
    (throw,) = events(out, "throw", 2)
    assert (throw["roll"], throw["needed"], throw["hit"]) == (5, 4, False)
    assert events(out, "attack") == [] and fighter(out, "Хан")["weapon"] == "рука"


def test_heavy_wounds_to_both_arms_end_the_fight(play):
    out = play("heavy_arms_end")
    first, second = events(out, "wound")
    assert (first["zone"], first["level"], first["effects"]) == ("правая рука", 3, ["stack_removed:right"])
    assert (second["zone"], second["level"], second["effects"]) == ("левая рука", 3, ["stack_removed:left"])
    assert out["result"] == {"winner": "Хан", "kind": "ранение", "loser": "Аскон"}
    assert out["phases"][5]["result"] == out["result"] and out["phases"][4]["result"] is None
    assert out["winner"] == "Хан" and out["alive"] == ["Хан"]
    assert out["phases"][5]["eliminated"] == [{"nick": "Аскон", "cause": "ранение"}]
    assert fighter(out, "Аскон")["weapon"] == "рука"       # the weapon leaves the hand with the heavy wound


def test_a_heavy_wound_to_the_head_knocks_out(play):
    out = play("knockout")
    assert out["result"] == {"winner": "Хан", "kind": "нокаут", "loser": "Аскон"}
    assert events(out, "wound")[0]["effects"] == ["knockout"]


def test_a_cut_above_three_def_severs_the_head(play):
    out = play("severed_head")
    assert attack(out, 3)["damage"] == 4
    assert out["result"] == {"winner": "Хан", "kind": "отрубание", "loser": "Аскон"}


def test_only_cuts_sever_a_lunge_above_three_def_is_another_heavy_wound(play):
    out = play("no_severing_without_cut")
    (wound,) = events(out, "wound")
    assert (wound["zone"], wound["level"], wound["effects"]) == ("левая рука", 3, ["stack_removed:left"])
    assert out["result"] is None and fighter(out, "Аскон")["removed"] == ["left"]


def test_a_helmet_takes_two_levels_and_wears_out(play):
    out = play("helmet")
    hit = attack(out, 3)
    assert (hit["damage"], hit["level"], hit["armour"]) == (4, 2, ["шлем"])
    assert events(out, "armour") == [{"type": "armour", "nick": "Аскон", "piece": "шлем", "took": 3, "damage": 4,
                                      "roll": 3, "broken": True}]
    assert fighter(out, "Аскон")["helmet"] is False and out["result"] is None


def test_a_shield_takes_a_level_off_and_the_full_wound_itself(play):
    out = play("shield_covers_zone")
    hit = attack(out, 2)
    assert (hit["defense_hand"], hit["damage"], hit["level"]) == ("left", 3, 0)
    assert events(out, "armour") == [{"type": "armour", "nick": "Аскон", "piece": "щит", "took": 1, "damage": 1,
                                      "roll": 1, "broken": False}]
    assert events(out, "wound") == [] and fighter(out, "Аскон")["shield_damage"] == 1


def test_a_shield_lowers_its_neighbours_multiplier_and_can_break(play):
    out = play("shield_neighbour")
    hit = attack(out, 2)
    assert (hit["half"], hit["multiplier"], hit["outcome"]) == (True, 0, "zero")
    assert events(out, "breakage")[0]["broken"] is True and fighter(out, "Аскон")["left"] == "рука"


def test_surrender_ends_the_fight_and_the_winners_sequence_is_played_out(play):
    out = play("surrender")
    assert out["result"] == {"winner": "Хан", "kind": "сдача", "loser": "Аскон"}
    steps = out["phases"][0]["steps"]
    assert [s.get("playout", False) for s in steps] == [False, True, True]
    assert attack(out, 1)["code"] == "L" and wounds(out, "Аскон") == [("голова", "лёгкое ранение")]
    assert all(a["card"] == "X" for s in steps[1:] for a in s["actions"] if a["nick"] == "Аскон")
    literary = out["phases"][0]["reports"]["literary"]
    assert literary.index("Аскон бросает оружие и сдаётся.") < literary.index("Хан проводит выпад в голову")
    assert literary.count("победитель доводит начатое до конца") == 1
    assert "На песок арены выходят Аскон (меч) и Хан (гладий)." in literary


def test_a_furious_lunge_counts_one_wound_from_both_attacks(play):
    out = play("fury_one_wound")
    lunge, cut = events(out, "attack")
    assert (lunge["outcome"], lunge["damage"]) == ("held", 3)
    assert (cut["code"], cut["held"], cut["damage"], cut["level"]) == ("C", 3, 6, 2)
    assert wounds(out, "Аскон") == [("голова", "ранение")]
    assert refused(out, "Хан") == [] and "1 лишняя карта не принята: в стопке 6 карт" in str(out["phases"][0]["receipts"]["Хан"])


def test_refill_is_requested_by_pm_and_a_missed_one_becomes_rests(play):
    out = play("refill")
    requests = [pm for pm in out["phases"][3]["pms"] if pm["kind"] == "refill"]
    assert [pm["to"] for pm in requests] == ["Аскон", "Хан"]
    assert "по 4 карты" in requests[0]["text"]
    stacks = {(e["nick"], e["hand"]): (e["kind"], e["cards"]) for e in events(out, "stack", 5)}
    assert stacks[("Хан", "right")] == ("missed", "B(тело) B(тело) X X X X")
    assert stacks[("Аскон", "right")] == ("sent", "X C(голова) X X X B(голова)")
    assert stacks[("Аскон", "legs")] == ("sent", "X X W(вперёд) X W(вперёд) X")
    assert refused(out, "Аскон", 5) == []


def test_a_refill_must_finish_the_started_sequence(play):
    out = play("refill_must_complete")
    ((line, reason),) = refused(out, "Аскон", 5)
    assert line == "Правая рука, карта 1 (B(голова))"
    assert reason.startswith("начатая последовательность «Яростная рубка» должна быть завершена: ожидается X")


def test_a_lower_rating_adds_rests_and_reveals_cards(play):
    out = play("ratings")
    stacks = {e["hand"]: e["cards"] for e in events(out, "stack", 0) if e["nick"] == "Хан"}
    assert stacks["right"] == "X L(голова) X X B(тело) X X X"       # a rest after the attack and the defense
    assert stacks["legs"] == "W(вперёд) X X X X X X"                  # and after the move
    assert "добавлено отдыхов" in str(out["phases"][0]["receipts"]["Хан"])


def test_a_ratings_rests_go_with_the_sequences_validation_refuses(play):
    out = play("rating_rests_refused")                               # worked by hand in the scenario
    stacks = {e["hand"]: e["cards"] for e in events(out, "stack", 0) if e["nick"] == "Хан"}
    assert stacks == {"right": "B(тело) X X X X X X", "left": "X X X X X X", "legs": "X X X X X X"}
    receipt = out["phases"][0]["receipts"]["Хан"]
    assert [r["canonical"].rpartition("стопка: ")[2] for r in receipt[:3]] == list(stacks.values())
    assert refused(out, "Хан", 1) == [
        ("Правая рука, карта 3 (X)", "оружие «меч» не позволяет последовательность «Выпад»; отдыхом стали эта и "
                                     "следующие карты, всего 5"),
        ("Левая рука, карта 1 (X)", "пустая рука не позволяет последовательность «Рубка»; отдыхом стали эта и "
                                    "следующие карты, всего 6"),
        ("Ноги, карта 1 (K(тело))", "нельзя атаковать или защищаться одновременно ногами и руками; отдыхом стали эта "
                                    "и следующие карты, всего 6")]
    added = [r["canonical"] for r in receipt if r["ok"] and "добавлено отдыхов" in r["canonical"]]
    assert added == ["Правая рука: добавлено отдыхов после последовательностей (рейтинг, лёгкие раны): 1"]
    technical = out["phases"][0]["reports"]["technical"]
    assert "Стопка Хана (правая рука, начало боя): выложена — B(тело) X X X X X X\n" in technical
    assert "Хан, левая рука, карта 1 X: пустая рука не позволяет последовательность «Рубка»; отдыхом стали эта и " \
           "следующие карты, всего 6\n" in technical
    assert fighter(out, "Хан")["cards_left"] == {"right": 6, "left": 5, "legs": 5}


def test_step_1_cards_are_revealed_before_step_1(play):
    out = play("ratings")
    opening, first = out["phases"]
    assert (opening["number"], opening["steps"], opening["reports"]["literary"]) == (0, [], None)
    technical = opening["reports"]["technical"]
    assert technical.startswith("[b]Арена — шаг 0, технический отчёт[/b]\nСтопки выложены")
    assert "Броски" not in technical                                  # no card played, no dice to list
    assert not events(out, "reveal", 0)                               # step 0 plays no card
    (before,) = [pm for pm in opening["pms"] if pm["kind"] == "reveal"]
    assert before["to"] == "Аскон" and "перед шагом 1" in before["text"]
    assert "правая рука: X L(голова)\n• левая рука: X X\n• ноги: W(вперёд) X" in before["text"]
    played = {a["hand"]: a["card"] for a in first["steps"][0]["actions"] if a["nick"] == "Хан"}
    assert played == {"right": "X", "left": "X", "legs": "W(вперёд)"}  # what was shown is what is played
    (after,) = [pm for pm in first["pms"] if pm["kind"] == "reveal"]
    assert "перед шагом 2" in after["text"] and "правая рука: L(голова) X" in after["text"]


@pytest.mark.parametrize("ratings, first", [((2, 2), "step-1"), ((2, 3), "step-0"), ((1, 1), "step-1")])
def test_the_fight_opens_with_step_0_only_when_cards_must_be_revealed(ratings, first):
    rules = rules_for("arena")
    state = rules.setup({"fighters": [{"nick": "Аскон", "attack_rating": ratings[0]},
                                      {"nick": "Хан", "attack_rating": ratings[1]}]}, 1)
    assert rules.first_phase(state).key == first


def test_light_wounds_add_rests_between_sequences_of_their_stack(play):
    out = play("light_wound_rests")
    stacks = {e["hand"]: e["cards"] for e in events(out, "stack", 5) if e["nick"] == "Аскон"}
    assert stacks["right"] == "X X B(тело) X B(тело) X X X"
    assert stacks["legs"] == "X X W(назад) X X X"


def test_a_replacement_before_any_action_and_a_refused_one(play):
    out = play("replacement")
    assert events(out, "replacement", 2)[0]["reason"] == "«X» заменено на «OB1(голова) OB2(голова)»"
    hit = attack(out, 2)
    assert (hit["defense"], hit["multiplier"], hit["cancels"], hit["damage"]) == ("OB1", 0.5, 2, 1)
    assert fighter(out, "Аскон")["stacks"]["right"] == "X X S(тело) X"   # the cut waits for OB2
    # the refused replacement is answered under «Не принято» with its own line, never under «Принято»
    assert refused(out, "Хан", 3) == [("замена ПР: Быстрый блок(тело)", "замена невозможна: в последовательности "
                                                                         "уже выполнено действие, отличное от отдыха")]
    assert not any(line["ok"] and "замена" in line["line"] for line in out["phases"][2]["receipts"]["Хан"])


def test_invalid_cards_become_rests_with_the_rule_named(play):
    out = play("validation")
    assert refused(out, "Аскон") == [
        ("Ноги, карта 1 (B(тело))", "нельзя атаковать или защищаться одновременно ногами и руками; "
                                    "отдыхом стали эта и следующие карты, всего 6"),
        ("Левая рука, карта 1 (B(правая рука))", "две руки не могут быть направлены на противоположные части "
                                                 "тела; отдыхом стали эта и следующие карты, всего 6")]
    reasons = [reason.split(";")[0] for _, reason in refused(out, "Хан")]
    assert reasons == ["перемещение можно играть только на ноги", "щит не может защищать вторую руку",
                       "ноги не позволяют последовательность «Выпад»"]
    receipt = next(pm for pm in out["phases"][0]["pms"] if pm["to"] == "Хан" and pm["kind"] == "receipt")
    assert "Правая рука, карта 1" in receipt["text"] and "перемещение можно играть только на ноги" in receipt["text"]
    # The technical report shows the stacks as they will play, refused cards already rests.
    laid = {(e["nick"], e["hand"]): e["cards"] for e in events(out, "stack")}
    assert laid[("Аскон", "legs")] == laid[("Хан", "right")] == laid[("Хан", "legs")] == "X X X X X X"
    assert laid[("Аскон", "right")] == "B(левая рука) X X S(голова) X X"


def test_malformed_lines_are_refused_with_the_reason(play):
    out = play("receipts")
    got = dict(refused(out, "Аскон"))
    assert got["ПР: Z(голова)"] == "неизвестное действие «Z»"
    assert got["ПР: Рубка ×7"] == "число повторов «7» вне диапазона 1–6"
    assert got["ЛР: Блок(пятка)"] == "неизвестная цель или направление «пятка»"
    assert got["ЛР: (((((((((((("] == "непарные скобки"
    assert got["Ноги: Шаг"].startswith("для «шаг» нужно направление")
    assert got["Правая нога: X"].startswith("строка не распознана")
    assert got["Правая рука, карта 1 (OB1(тело))"].startswith("«Быстрый блок» играется только на замену")
    ((line, reason),) = refused(out, "Хан")
    assert reason == "число повторов «999999999999999999999999…» вне диапазона 1–6"


def test_the_reports_are_rendered_from_the_events(play):
    phase = play("heavy_arms_end")["phases"][5]
    technical, literary, summary = (phase["reports"][k] for k in ("technical", "literary", "summary"))
    assert ("Хан (правая рука, топор): S в левую руку; защита: нет; множитель действия 1 (против отдыха: 1); "
            "попаданий 2, отбито 0, множитель оружия 1,5; урон 3") in technical
    assert "Хан, атака S: 6, 6, 1, 1" in technical
    assert "Рана: Аскон, левая рука — тяжёлое ранение (стопка «левая рука» убрана)" in technical
    assert "Бой окончен: победа Хана (ранение)" in technical and "Бой окончен" in literary
    assert ("Хан проводит рубку в левую руку — Аскон получает тяжёлое ранение: левая рука больше не слушается."
            in literary)
    assert "Раны: правая рука — тяжёлое ранение; левая рука — тяжёлое ранение" in summary


def test_both_legs_severed_end_the_fight(play):
    out = play("legs_severed")
    assert [(w["zone"], w["level"], w["effects"]) for w in events(out, "wound")] == [
        ("левая нога", 4, ["severed:legs"]), ("правая нога", 4, ["severed:legs"])]
    assert events(out, "refill_request", 4)[0]["hands"] == ["right", "left"]     # no legs' stack to refill
    assert out["phases"][2]["result"] is None
    assert out["result"] == {"winner": "Хан", "kind": "ранение", "loser": "Аскон"}


def test_a_heavy_wound_to_the_body_immobilises(play):
    out = play("heavy_body")
    (wound,) = events(out, "wound")
    assert (wound["zone"], wound["name"], wound["effects"]) == ("тело", "тяжёлое ранение", ["stack_removed:legs"])
    assert fighter(out, "Аскон")["removed"] == ["legs"] and "legs" not in fighter(out, "Аскон")["stacks"]
    assert out["result"] is None


def test_a_jump_as_a_replacement_moves_its_rest_to_the_end(play):
    out = play("jump_replacement")
    assert events(out, "replacement", 2)[0]["reason"] == "«W(вперёд) X» заменено на «J(назад) X X»"
    assert events(out, "distance", 2)[0]["movement"] == "retreat"
    hit = attack(out, 2)
    assert (hit["outcome"], hit["distance"]) == ("out_of_range", 2)


def test_a_scenario_with_several_setup_problems_names_them_all(texts):
    scenario = {"game": "arena", "setup": {"distance": 9, "fighters": [{"nick": "Аскон", "weapon": "лук"},
                                                                       {"nick": "Хан", "speed_rating": 6}]}}
    with pytest.raises(ScenarioError) as refused:
        run_scenario(scenario, texts)
    assert str(refused.value) == (
        "setup.distance: expected a whole number of sectors 1…6 (got 9); setup.fighters[0].weapon: expected one of "
        "рука, меч, гладий, трезубец, копьё, пика, топор (got 'лук'); setup.fighters[1].speed_rating: expected a "
        "whole number 0…5 (got 6)")


def test_a_step_0_is_refused_where_nothing_is_revealed(texts):
    scenario = {"game": "arena", "setup": {"fighters": [{"nick": "Аскон"}, {"nick": "Хан"}]},
                "phases": [{"kind": "step", "number": 0}]}
    with pytest.raises(ScenarioError, match="phases\\[0\\].number: expected a phase number 1 or more"):
        run_scenario(scenario, texts)


# ---------------------------------------------------------------- fights of more than two

def test_a_move_is_an_approach_to_one_and_a_sidestep_to_another(play):
    out = play("three_sidestep_and_approach")
    distances = {tuple(e["between"]): (e["before"], e["after"], e["movement"]) for e in events(out, "distance", 3)}
    assert distances == {("Аскон", "Хан"): (2, 1, "approach"), ("Аскон", "Кума"): (2, 2, ""),
                         ("Хан", "Кума"): (2, 2, "")}
    by_askon, by_kuma = events(out, "attack", 3)
    assert (by_askon["attacker"], by_askon["defender"], by_askon["zone"], by_askon["multiplier"],
            by_askon["damage"]) == ("Аскон", "Хан", "тело", 2, 4)
    assert ["rest", 1] in by_askon["multiplier_parts"] and ["approach", 1] in by_askon["multiplier_parts"]
    assert (by_kuma["attacker"], by_kuma["aimed"], by_kuma["zone"], by_kuma["multiplier"], by_kuma["damage"]) == (
        "Кума", "тело", "левая рука", 1, 3)
    assert wounds(out, "Хан") == [("тело", "ранение"), ("левая рука", "лёгкое ранение")]
    assert wounds(out, "Аскон") == [] and wounds(out, "Кума") == []
    assert out["phases"][2]["steps"][0]["hits"] == [
        {"attacker": "Аскон", "defender": "Хан", "zone": "тело", "damage": 4, "level": 2},
        {"attacker": "Кума", "defender": "Хан", "zone": "левая рука", "damage": 3, "level": 1}]
    technical = out["phases"][2]["reports"]["technical"]
    assert "\nДистанции: Аскон — Хан 2 → 1 (сближение); остальные не изменились\n" in technical
    assert "Кума → Хан (правая рука, меч): S в тело → сдвиг в левую руку" in technical
    assert "Дистанции: Аскон — Хан 1; Аскон — Кума 2; Хан — Кума 2" in out["phases"][2]["reports"]["summary"]


def test_of_four_the_technical_report_names_the_pairs_whose_distance_changed(texts):
    # the corners of a 2-sector square: Аскон (2,2) north, Хан (2,4) east, Кума (4,4) south, Дрон
    # (4,2) west; Аскон steps forward to (2,3), Кума back to (4,5)
    scenario = {"game": "arena", "seed": 1, "setup": {"distance": 2, "fighters": [
        {"nick": "Аскон"}, {"nick": "Хан"}, {"nick": "Кума"}, {"nick": "Дрон"}]},
        "phases": [{"kind": "step", "number": 1, "orders": {"Аскон": "Ноги: Шаг вперёд", "Кума": "Ноги: Шаг назад"}}]}
    (phase,) = run_scenario(scenario, texts)["phases"]
    lines = [line for line in phase["reports"]["technical"].splitlines() if line.startswith("Дистанц")]
    assert lines == ["Дистанции: Аскон — Хан 2 → 1 (сближение); Кума — Дрон 2 → 3 (отдаление); "
                     "остальные не изменились"]
    assert len([e for e in phase["events"] if e["type"] == "distance"]) == 6      # the data keeps every pair


def test_a_defense_named_for_one_opponent_does_not_meet_another(play):
    out = play("four_named_defense")
    got = {a["attacker"]: (a["zone"], a["defense"], a["defense_hand"], a["multiplier"], a["hits"], a["cancels"],
                           a["damage"]) for a in events(out, "attack", 2)}
    assert got == {"Аскон": ("левая рука", "B", "left", 0.5, 3, 1, 1),      # the block meant for all
                   "Хан": ("голова", "B", "right", 0.5, 4, 2, 1),           # the block meant for him
                   "Дрон": ("голова", None, None, 1, 3, 0, 4)}              # the head's block is not for him
    assert wounds(out, "Кума") == [("левая рука", "лёгкое ранение"), ("голова", "лёгкое ранение"),
                                   ("голова", "ранение")]
    assert dice(fighter(out, "Кума")) == (3, 2, 2)
    rolls = out["phases"][1]["steps"][0]["rolls"]
    assert [(r["nick"], r["for"]) for r in rolls] == [("Аскон", "атака L"), ("Кума", "защита B"), ("Хан", "атака L"),
                                                       ("Кума", "защита B"), ("Дрон", "атака L")]
    assert {"nick": "Кума", "hand": "right", "card": "B(голова, Хан)", "code": "B", "zone": "голова"} in \
        out["phases"][1]["steps"][0]["actions"]
    literary = out["phases"][0]["reports"]["literary"]
    assert "На песок арены выходят Аскон (гладий), Хан (гладий), Кума (гладий) и Дрон (гладий)." in literary


def test_a_knocked_out_fighter_leaves_and_the_fight_goes_on_to_the_end(play):
    out = play("three_knockout_then_surrender")
    assert events(out, "fighter_out", 2) == [{"type": "fighter_out", "nick": "Кума", "kind": "нокаут", "step": 2}]
    assert out["phases"][1]["eliminated"] == [{"nick": "Кума", "cause": "нокаут"}]
    assert out["phases"][1]["result"] is None
    # from step 3 Кума plays no card, and the lunge still aimed at him finds nobody
    assert {a["nick"] for a in out["phases"][2]["steps"][0]["actions"]} == {"Аскон", "Хан"}
    assert [e["between"] for e in events(out, "distance", 3)] == [["Аскон", "Хан"]]
    (lunge,) = events(out, "attack", 3)
    assert (lunge["attacker"], lunge["defender"], lunge["outcome"]) == ("Хан", "Кума", "no_target")
    assert out["phases"][2]["steps"][0]["rolls"] == []
    assert refused(out, "Кума", 3) == [("замена ПР: Быстрый блок(голова)", "вы выбыли из боя (нокаут)")]
    assert refused(out, "Хан", 3) == [("замена ЛР: Быстрый блок(тело, Кума)", "Кума уже вне боя")]
    assert [e["nick"] for e in events(out, "refill_request", 4)] == ["Аскон", "Хан"]
    assert [pm["to"] for pm in out["phases"][3]["pms"] if pm["kind"] == "refill"] == ["Аскон", "Хан"]
    assert refused(out, "Аскон", 5) == []                 # one opponent left: a card may name nobody again
    assert out["result"] == {"winner": "Аскон", "kind": "сдача", "loser": "Хан"}
    assert out["phases"][4]["eliminated"] == [{"nick": "Хан", "cause": "сдача"}]
    assert out["alive"] == ["Аскон"] and out["winner"] == "Аскон"
    step2, step3, step5 = (out["phases"][n]["reports"] for n in (1, 2, 4))
    # the knockout says she leaves the fight: no «выбывает из боя» after it
    assert "— Кума получает тяжёлое ранение и падает без чувств." in step2["literary"]
    assert "выбывает" not in step2["literary"]
    assert "Выбывает: Кума (нокаут)" in step2["technical"]
    assert "[b]Кума[/b] — выбыла (нокаут): меч" in step2["summary"] and "Дистанция: 1" in step2["summary"]
    assert "Хан → Кума (правая рука, гладий): L в тело — Кума уже выбыла из боя, удара нет" in step3["technical"]
    assert "Хан замахивается на Куму, но той уже нет на арене." in step3["literary"]         # gender = "f"
    assert step5["literary"].index("Хан бросает оружие и сдаётся.") < step5["literary"].index(
        "Бой окончен: победа Аскона (сдача)")


def test_two_fighters_down_in_one_step_leave_the_last_one_the_winner(play):
    out = play("three_two_down_at_once")
    assert [(e["nick"], e["kind"]) for e in events(out, "fighter_out", 2)] == [("Хан", "нокаут"), ("Кума", "нокаут")]
    assert out["result"] == {"winner": "Аскон", "kind": "нокаут", "loser": "Хан"}
    assert out["phases"][1]["eliminated"] == [{"nick": "Хан", "cause": "нокаут"}, {"nick": "Кума", "cause": "нокаут"}]
    assert out["alive"] == ["Аскон"]
    assert "Бой окончен: победа Аскона (нокаут)" in out["phases"][1]["reports"]["literary"]


def test_a_fight_of_three_replays_the_same_with_the_same_seed(play):
    first, again = play("three_knockout_then_surrender"), play("three_knockout_then_surrender")
    assert first == again


def test_three_ratings_reveal_to_each_higher_one_the_difference(play):
    out = play("three_ratings")
    reveals = [(pm["to"], pm["text"]) for pm in out["phases"][1]["pms"] if pm["kind"] == "reveal"]
    assert [to for to, _ in reveals] == ["Аскон", "Аскон", "Хан"]
    assert "чем у Хана, поэтому Хан открывает вам 1 следующую карту (перед шагом 2)" in reveals[0][1]
    assert ("чем у Кумы, поэтому Кума открывает вам 2 следующие карты (перед шагом 2):\n"
            "• правая рука: X S(тело, Хан)") in reveals[1][1]
    assert "чем у Кумы, поэтому Кума открывает вам 1 следующую карту (перед шагом 2)" in reveals[2][1]
    stacks = {e["nick"]: e["cards"] for e in events(out, "stack", 0) if e["hand"] == "right"}
    assert stacks == {"Аскон": "X X S(голова, Кума) X X X", "Хан": "X X S(голова, Кума) X X X X",
                      "Кума": "X X S(тело, Хан) X X X X"}          # a rating's rest after the lower ones' cut


def test_a_furious_lunge_adds_up_its_two_attacks_only_against_one_opponent(play):
    out = play("three_fury_two_opponents")
    lunge, cut = events(out, "attack")
    assert (lunge["defender"], lunge["outcome"], lunge["damage"]) == ("Кума", "held", 3)
    assert (cut["defender"], cut["code"], cut["held"], cut["damage"], cut["level"]) == ("Хан", "C", 0, 3, 1)
    assert wounds(out, "Хан") == [("голова", "лёгкое ранение")] and wounds(out, "Кума") == []


def test_a_fight_of_four_loses_one_at_a_time_to_the_last_one_standing(play):
    out = play("four_to_the_end")
    moved = {tuple(e["between"]): e["movement"] for e in events(out, "distance", 1) if "Аскон" in e["between"]}
    assert moved == {("Аскон", "Хан"): "approach", ("Аскон", "Кума"): "", ("Аскон", "Дрон"): ""}
    assert len(events(out, "distance", 1)) == 6                  # every two of four
    assert [(e["nick"], e["kind"]) for e in events(out, "fighter_out")] == [
        ("Хан", "нокаут"), ("Кума", "сдача"), ("Дрон", "сдача")]
    assert [e["step"] for e in events(out, "fighter_out")] == [3, 4, 6]
    assert [phase["eliminated"] for phase in out["phases"]] == [
        [], [], [{"nick": "Хан", "cause": "нокаут"}], [{"nick": "Кума", "cause": "сдача"}], [],
        [{"nick": "Дрон", "cause": "сдача"}]]
    assert [phase["result"] for phase in out["phases"][:5]] == [None] * 5
    (lunge,) = events(out, "attack", 4)
    assert (lunge["attacker"], lunge["defender"], lunge["outcome"]) == ("Дрон", "Хан", "no_target")
    assert not any(s.get("playout") for phase in out["phases"] for s in phase["steps"])   # a surrender mid-fight
    assert [pm["to"] for pm in out["phases"][3]["pms"] if pm["kind"] == "refill"] == ["Аскон", "Дрон"]
    assert [len(events(out, "distance", step)) for step in (3, 4, 5, 6)] == [6, 3, 1, 1]
    # the technical report: one line a step, the pairs that changed (the summary has them all)
    technical = [phase["reports"]["technical"] for phase in out["phases"]]
    assert [[line for line in text.splitlines() if line.startswith("Дистанц")] for text in technical] == [
        ["Дистанции: Аскон — Хан 2 → 1 (сближение); остальные не изменились"], ["Дистанции не изменились"],
        ["Дистанции не изменились"], ["Дистанции не изменились"], ["Дистанция Аскон — Дрон: 2 → 2"],
        ["Дистанция Аскон — Дрон: 2 → 2"]]
    assert "Дистанции: Аскон — Хан 1; Аскон — Кума 2; Аскон — Дрон 2; Хан — Кума 2; Хан — Дрон 2; Кума — Дрон 2" \
        in out["phases"][0]["reports"]["summary"]
    assert out["result"] == {"winner": "Аскон", "kind": "сдача", "loser": "Дрон"}
    assert out["alive"] == ["Аскон"] and out["winner"] == "Аскон"
    literary = [phase["reports"]["literary"] for phase in out["phases"]]
    assert "— Хан получает тяжёлое ранение и падает без чувств." in literary[2]
    assert "Кума бросает оружие и сдаётся." in literary[3] and "Бой окончен" not in literary[3]
    assert "Дрон бросает оружие и сдаётся." in literary[5] and "Бой окончен: победа Аскона (сдача)." in literary[5]
