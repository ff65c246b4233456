"""Mafia rules through `forumgm simulate`'s run_scenario, on the scenarios in tests/scenarios/mafia."""
from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from forumgm.daemon.offline.simulate import run_scenario

SCENARIOS = Path(__file__).parent / "scenarios" / "mafia"


@pytest.fixture
def play(texts):
    def run(name: str) -> dict:
        with open(SCENARIOS / f"{name}.toml", "rb") as handle:
            return run_scenario(tomllib.load(handle), texts)
    return run


def eliminated(phase: dict) -> list[tuple[str, str]]:
    return [(e["nick"], e["cause"]) for e in phase["eliminated"]]


def pms_of(phase: dict, kind: str) -> list[dict]:
    return [pm for pm in phase["pms"] if pm["kind"] == kind]


def events_of(phase: dict, kind: str) -> list[dict]:
    return [e for e in phase["events"] if e["type"] == kind]


def report(phase: dict) -> str:
    return phase["reports"]["round"]


def test_boss_block_voids_his_own_mafiosos_shot(play):
    phase = play("boss_blocks_mafioso")["phases"][0]
    assert phase["jailed"] is None
    assert eliminated(phase) == []
    assert events_of(phase, "action_void") == [
        {"type": "action_void", "nick": "Бук", "action": "kill", "target": "Тора", "reason": "blocked"}]
    assert "Тора —" not in report(phase).split("Ночь:")[1].split("В игре")[0]


def test_doctor_heal_saves_the_maniacs_target_and_the_report_is_silent(play):
    phase = play("doctor_heals_maniac_target")["phases"][0]
    assert eliminated(phase) == []
    night = report(phase).split("[b]Ночь:[/b]")[1].split("[b]В игре")[0]
    assert "Кума" not in night and "никто не погиб" in night


def test_commissar_killed_by_the_maniac_gets_no_check(play):
    phase = play("commissar_killed_by_maniac")["phases"][0]
    assert eliminated(phase) == [("Аскон", "kill_maniac")]
    assert pms_of(phase, "check_result") == []
    assert events_of(phase, "action_void")[0]["reason"] == "out"
    assert "Аскон — Комиссар: жертва маньяка" in report(phase)


def test_first_night_armour_then_none(play):
    first, second = play("first_night_armour")["phases"]
    assert eliminated(first) == []
    assert {(e["nick"], e["reason"]) for e in events_of(first, "kill_prevented")} == {
        ("Аскон", "armour"), ("Лиса", "armour")}
    # night 2: the maniac kills the boss first, so her shot is void and the mafioso's alone kills
    assert eliminated(second) == [("Лиса", "kill_maniac"), ("Аскон", "kill_mafia")]
    assert events_of(second, "mafia_shots")[0]["shots"] == {"Бук": "Аскон"}


def test_commissar_armour_holds_against_the_maniac_and_he_still_checks(play):
    phase = play("first_night_armour_commissar_vs_maniac")["phases"][0]
    assert eliminated(phase) == []
    [check] = pms_of(phase, "check_result")
    assert check["to"] == "Аскон" and "Зорро отрицательный" in check["text"]


def test_jailed_players_night_action_is_void(play):
    phase = play("jailed_action_void")["phases"][0]
    assert phase["jailed"] == "Зорро"
    assert eliminated(phase) == [("Зорро", "jail")]
    assert events_of(phase, "action_void")[0] == {
        "type": "action_void", "nick": "Зорро", "action": "kill", "target": "Хан", "reason": "out"}
    assert "за решётку отправляется Зорро — Маньяк" in report(phase)


def test_tie_for_the_maximum_jails_nobody(play):
    phase = play("vote_tie")["phases"][0]
    assert phase["jailed"] is None
    assert events_of(phase, "no_jail") == [{"type": "no_jail", "reason": "tie", "leaders": ["Марк", "Тора"]}]
    assert "равенство голосов" in report(phase)


def test_no_trial_more_than_half_jails_nobody(play):
    phase = play("no_trial_majority")["phases"][0]
    assert phase["jailed"] is None
    assert list(phase["counted_votes"].values()).count("не судить") == 5
    assert "большинство голосов «не судить»" in report(phase)


def test_no_trial_exactly_half_is_not_a_majority(play):
    phase = play("no_trial_exactly_half")["phases"][0]
    assert phase["jailed"] == "Тора"
    assert phase["counted_votes"]["Кума"] == "Тора"


def test_second_no_trial_is_refused_and_a_later_vote_counts(play):
    first, second = play("second_no_trial_rejected")["phases"]
    assert first["counted_votes"]["Тора"] == "не судить"
    assert second["receipts"]["Тора"][0] == {
        "line": "не судить", "ok": False, "reason": "«не судить» уже использовано в этой игре"}
    assert second["discarded_votes"] == [{"voter": "Тора", "text": "не судить", "reason": "no_trial_used"}]
    assert second["counted_votes"]["Тора"] == "Кума"


def test_missed_votes_warning_then_out_with_role(play):
    result = play("missed_votes_twice")
    first, second = result["phases"]
    assert eliminated(first) == []
    [warning] = pms_of(first, "warning")
    assert warning["to"] == "Кума"
    assert "Кума — предупреждение" in report(first)
    assert "Кума — нет голоса" in report(first)
    assert eliminated(second) == [("Кума", "missed_votes")]
    assert "Кума — второй пропуск, выбывает из игры (Мирный житель)" in report(second)
    assert "Кума" not in result["alive"]


def test_mafia_tie_goes_to_the_boss(play):
    phase = play("mafia_tie_boss_decides")["phases"][0]
    assert eliminated(phase) == [("Тора", "kill_mafia")]
    assert events_of(phase, "mafia_shots")[0]["tie"] is True


def test_mafia_tie_without_the_boss_kills_nobody(play):
    phase = play("mafia_tie_without_boss")["phases"][0]
    assert eliminated(phase) == []
    assert events_of(phase, "mafia_shots")[0] == {
        "type": "mafia_shots", "shots": {"Бук": "Тора", "Марк": "Кума"}, "target": None, "tie": True}


def test_most_shots_beat_the_bosss_choice(play):
    phase = play("mafia_majority_of_shots")["phases"][0]
    assert eliminated(phase) == [("Кума", "kill_mafia")]


@pytest.mark.parametrize("name, winner, alive", [
    ("win_town", "town", ["Аскон", "Хан", "Тора", "Марк", "Кума"]),
    ("win_mafia", "mafia", ["Лиса", "Бук", "Тора", "Марк"]),
    ("win_maniac", "maniac", ["Зорро", "Марк"]),
    ("draw_everyone_out", "draw", []),
])
def test_win_conditions(play, name, winner, alive):
    result = play(name)
    assert result["winner"] == winner
    assert result["alive"] == alive
    assert result["phases"][-1]["winner"] == winner
    assert "Игра окончена" in report(result["phases"][-1])


def test_a_win_after_the_jailing_skips_the_night(play):
    phase = play("win_town")["phases"][0]
    assert events_of(phase, "winner") == [{"type": "winner", "side": "town", "after": "day"}]
    assert pms_of(phase, "check_result") == []         # the commissar's order never ran
    assert "Ночь" not in report(phase)


def test_maniac_wins_after_the_night(play):
    phase = play("win_maniac")["phases"][0]
    assert phase["jailed"] is None
    assert events_of(phase, "winner") == [{"type": "winner", "side": "maniac", "after": "night"}]


def test_receipts_give_every_reason(play):
    first, second = play("receipts")["phases"]
    reasons = {(nick, r["line"]): r.get("reason") for nick, rs in first["receipts"].items() for r in rs}
    assert reasons[("Тора", "проверить Лису")] == "это не действие вашей роли"
    assert first["receipts"]["Аскон"][0] == {"line": "проверить Лису", "ok": False,
                                             "reason": "ночное действие без дневного голоса не принимается"}
    assert reasons[("Аскон", "голос: Васю")].startswith("неизвестный игрок «Васю»")
    assert reasons[("Аскон", "голос: Тору")] == "голос уже учтён (голос: Зорро); изменить голос нельзя"
    assert reasons[("Кума", "привет, ведущий")].startswith("команда не распознана")
    replaced = [r for r in first["receipts"]["Аскон"] if r["line"] == "проверить Бука"]
    assert replaced == [{"line": "проверить Бука", "ok": True, "canonical": "проверить Бука (заменяет «проверить Лису»)"}]
    [check] = pms_of(first, "check_result")
    assert "Бук отрицательный" in check["text"]                # the replacing order is the one carried out
    assert {"voter": "Аскон", "text": "голос: Тору", "reason": "already_voted"} in first["discarded_votes"]
    later = {(nick, r["line"]): r.get("reason") for nick, rs in second["receipts"].items() for r in rs}
    assert later[("Хан", "лечить Хана")].startswith("нельзя лечить одного и того же игрока две ночи подряд")
    assert later[("Лиса", "блокировать Тору")].startswith("нельзя блокировать одного и того же игрока")
    assert later[("Лиса", "блокировать Марка")] is None
    assert later[("Аскон", "голос: Куму")] == "игрок Кума выбыл из игры"
    assert second["counted_votes"]["Аскон"] == "Марк"


def test_full_game_town_wins(play):
    result = play("full_game")
    assert [p["jailed"] for p in result["phases"]] == ["Тора", "Бук", "Зорро"]
    assert result["winner"] == "town"
    assert result["alive"] == ["Аскон", "Хан"]
    statuses = [pm["text"] for p in result["phases"] for pm in pms_of(p, "check_result")]
    assert ["Бук отрицательный" in statuses[0], "Зорро отрицательный" in statuses[1]] == [True, True]


def test_report_lists_votes_jail_kills_living_and_roles_but_no_failed_attempts(play):
    armoured, second = play("first_night_armour")["phases"]
    text = report(armoured)
    assert "Аскон — Тора" in text and "Тора — Марк" in text                     # the vote table
    assert "никто не посажен: равенство голосов" in text
    assert "Этой ночью никто не погиб." in text and "брон" not in text
    assert "В игре (8):[/b] Аскон, Бук, Зорро, Кума, Лиса, Марк, Тора, Хан" in text
    assert ("Оставшиеся роли:[/b] Комиссар — 1, Доктор — 1, Мирный житель — 3, Босс мафии — 1, "
            "Мафиози — 1, Маньяк — 1") in text
    later = report(second)
    assert "Лиса — Босс мафии: убита маньяком" in later and "Аскон — Комиссар: убит мафией" in later
    assert "Босс мафии" not in later.split("Оставшиеся роли")[1]


def test_role_pms_come_with_the_first_round_only(play):
    first, second, third = play("full_game")["phases"]
    roles = {pm["to"]: pm["text"] for pm in pms_of(first, "role")}
    assert set(roles) == {"Аскон", "Хан", "Лиса", "Бук", "Зорро", "Тора", "Марк", "Кума"}
    assert "[b]Комиссар[/b]" in roles["Аскон"] and "[b]Маньяк[/b]" in roles["Зорро"]
    assert "Бук — Мафиози" in roles["Лиса"] and "Лиса — Босс мафии" in roles["Бук"]
    assert pms_of(second, "role") == [] and pms_of(third, "role") == []


def test_a_round_after_the_game_ended_is_a_scenario_error(texts):
    from forumgm.daemon.offline.simulate import ScenarioError

    with open(SCENARIOS / "win_town.toml", "rb") as handle:
        scenario = tomllib.load(handle)
    won_in = len(scenario["phases"])
    scenario["phases"].append({"kind": "round", "number": won_in + 1, "pms": [{"from": "Аскон", "text": "голос: Хан"}]})
    with pytest.raises(ScenarioError) as error:
        run_scenario(scenario, texts)
    assert error.value.key == f"phases[{won_in}]" and "winner: town" in str(error.value)
