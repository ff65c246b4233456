"""Mafia engine beyond single rounds: dealing, role PMs, freeze, state JSON, late PMs, reminder."""
from __future__ import annotations

from collections import Counter
from datetime import timedelta

import pytest

from forumgm.engines.base import OrderPm, Phase, PhaseInputs, SetupError
from forumgm.engines.mafia import RULES, make_rules
from forumgm.engines.mafia.roles import default_counts

NICKS = ["Аскон", "Хан", "Лиса", "Бук", "Зорро", "Тора", "Марк", "Кума"]
ROLES = ["Комиссар", "Доктор", "Босс мафии", "Мафиози", "Маньяк", "Мирный житель", "Мирный житель", "Мирный житель"]
HOUR = timedelta(hours=1)


def dealt(nicks, seed=5, rules=RULES):
    return rules.setup({"players": [{"nick": n} for n in nicks]}, seed)


def with_roles(dead=(), rules=RULES):
    return rules.setup({"players": [{"nick": n, "role": r} for n, r in zip(NICKS, ROLES)], "dead": list(dead)}, 1)


def test_dealing_is_fixed_by_the_seed_and_varies_with_it():
    first = {p.nick: p.role for p in dealt(NICKS).players}
    assert first == {p.nick: p.role for p in dealt(NICKS).players}
    others = [{p.nick: p.role for p in dealt(NICKS, seed).players} for seed in range(6, 12)]
    assert any(other != first for other in others)


@pytest.mark.parametrize("players, mafiosi, citizens", [(8, 1, 3), (12, 2, 6), (16, 3, 9), (9, 1, 4)])
def test_default_counts(players, mafiosi, citizens):
    counts = Counter(p.role for p in dealt([f"Игрок{i}" for i in range(players)]).players)
    assert counts == Counter({"Комиссар": 1, "Доктор": 1, "Маньяк": 1, "Босс мафии": 1,
                              "Мафиози": mafiosi, "Мирный житель": citizens})
    assert sum(default_counts(players).values()) == players


def test_config_sets_exact_counts():
    rules = make_rules({"roles": {"Мафиози": 2, "Мирный житель": 2, "Комиссар": 1, "Доктор": 1,
                                  "Босс": 1, "Маньяк": 1}})
    assert Counter(p.role for p in dealt(NICKS, rules=rules).players)["Мафиози"] == 2


@pytest.mark.parametrize("setup, key", [
    ({"players": [{"nick": n} for n in NICKS[:7]]}, "setup.players"),
    ({"players": [{"nick": "А", "role": "Доктор"}] + [{"nick": n} for n in NICKS[1:]]}, "setup.players[1].role"),
    ({"players": [{"nick": n, "role": "Шериф"} for n in NICKS]}, "setup.players[0].role"),
    ({"players": [{"nick": n} for n in NICKS], "dead": ["Никто"]}, "setup.dead"),
    ({"players": [{"nick": n} for n in NICKS], "spells": {}}, "setup.spells"),
])
def test_bad_setups_name_the_key(setup, key):
    with pytest.raises(SetupError) as error:
        RULES.setup(setup, 1)
    assert error.value.key == key


def test_bad_rule_tables_name_the_key():
    with pytest.raises(SetupError) as error:
        make_rules({"armour": True})
    assert error.value.key == "rules.armour"
    with pytest.raises(SetupError) as error:
        dealt(NICKS, rules=make_rules({"roles": {"Мафиози": 9}}))
    assert error.value.key == "rules.roles"


def test_role_pms_tell_the_mafia_who_their_team_is(texts):
    pms = {pm.to: pm for pm in RULES.role_pms(with_roles(), texts)}
    assert set(pms) == set(NICKS) and {pm.kind for pm in pms.values()} == {"role"}
    assert "Бук — Мафиози" in pms["Лиса"].text and "Лиса — Босс мафии" in pms["Бук"].text
    assert "Мафиози" not in pms["Тора"].text and "Лиса" not in pms["Зорро"].text
    assert "Комиссар" in pms["Аскон"].text and "проверить" in pms["Аскон"].text


def test_rules_the_host_accepted_reach_the_state_and_the_next_report(texts):
    state = with_roles()
    assert RULES.with_rules(state) is state
    changed = make_rules({"no_trial_per_game": 2})
    forced = changed.with_rules(state)
    assert forced.rules.no_trial_per_game == 2 and forced.rules_hash != state.rules_hash
    outcome = changed.resolve(forced, Phase("round", 1), PhaseInputs(), 1, texts)
    assert "Ведущий изменил правила" in outcome.reports["round"]
    assert outcome.state.forced_changes == ()


def test_state_survives_json(texts):
    pms = (OrderPm("Хан", "голос: Тора\nлечу себя"), OrderPm("Лиса", "голос: Тора\nблок Кума"))
    outcome = RULES.resolve(with_roles(), Phase("round", 1), PhaseInputs(orders=pms), 1, texts)
    assert RULES.load(RULES.dump(outcome.state)) == outcome.state


def test_late_pm_gets_a_receipt_line_per_order():
    verdicts = RULES.late_verdicts(OrderPm("Хан", "голос: Тора\nлечу себя"))
    assert [(v.ok, v.line) for v in verdicts] == [(False, "голос: Тора"), (False, "лечу себя")]
    assert "после окончания игрового дня" in verdicts[0].reason


def test_reminder_lists_living_players_without_a_valid_vote(texts):
    state = with_roles(dead=["Кума"])
    pms = [OrderPm("Хан", "голос: Тора"), OrderPm("Лиса", "голос: Кума"), OrderPm("Бук", "не судить")]
    reminder = RULES.reminder(state, Phase("round", 1), pms, texts, HOUR)
    assert reminder.missing == ("Аскон", "Лиса", "Зорро", "Тора", "Марк")
    assert "Аскон, Лиса, Зорро, Тора, Марк" in reminder.post
    assert [(pm.to, pm.kind) for pm in reminder.pms][0] == ("Аскон", "reminder")
    everyone = [OrderPm(n, "не судить") for n in NICKS]
    assert RULES.reminder(state, Phase("round", 1), everyone, texts, HOUR) is None


def test_phases_run_until_someone_wins(texts):
    state = with_roles()
    assert RULES.first_phase(state) == Phase("round", 1)
    assert RULES.next_phase(state, Phase("round", 1)) == Phase("round", 2)
    assert not RULES.complete_early(state, Phase("round", 1), [OrderPm(n, "не судить") for n in NICKS])
    town = with_roles(dead=["Лиса", "Бук"])
    jail = tuple(OrderPm(n, "голос: Зорро") for n in RULES.alive(town))
    outcome = RULES.resolve(town, Phase("round", 1), PhaseInputs(orders=jail), 1, texts)
    assert RULES.winner(outcome.state) == "town"
    assert RULES.next_phase(outcome.state, Phase("round", 1)) is None
    assert RULES.first_phase(outcome.state) == Phase("round", 2)


def test_role_pms_mention_armour_only_when_the_rules_have_it(texts):
    no_armour = make_rules({"first_night_armour": False})
    state = with_roles(rules=no_armour)
    plain = {pm.to: pm.text for pm in no_armour.role_pms(state, texts)}
    armoured = {pm.to: pm.text for pm in RULES.role_pms(with_roles(), texts)}
    assert "бронежилет" in armoured["Аскон"] and "бронежилет" not in plain["Аскон"]
    assert "бронемашина" in armoured["Лиса"] and "бронемашина" not in plain["Лиса"]
    # «маньяк не может вас убить (посадить в тюрьму — могут)» read as if the maniac jailed
    assert "маньяк не может вас убить, но днём вас могут посадить в тюрьму голосованием" in armoured["Лиса"]
    assert "(посадить в тюрьму — могут)" not in armoured["Лиса"]


def test_role_pms_explain_each_action_in_its_own_paragraphs(texts):
    pms = {pm.to: pm.text for pm in RULES.role_pms(with_roles(), texts)}
    # the armour line ends its paragraph: the general instructions follow after a blank line
    assert "могут посадить в тюрьму голосованием.\n\nДо конца каждого игрового дня" in pms["Аскон"]
    for mafia in ("Лиса", "Бук"):
        assert "Мафия убивает командным решением" in pms[mafia]
        assert "при равенстве — цель, выбранная Боссом мафии" in pms[mafia]
    assert "Каждую ночь вы можете убить одного игрока: «убить <ник>»." in pms["Зорро"]
    assert "командным" not in pms["Зорро"] and "убить" not in pms["Тора"]
    assert "один раз за игру можно «не судить»" in pms["Тора"]
    twice = make_rules({"no_trial_per_game": 2})
    state = with_roles(rules=twice)
    assert "не больше 2 раз за игру" in {pm.to: pm.text for pm in twice.role_pms(state, texts)}["Тора"]
    many = make_rules({"no_trial_per_game": 21})
    state = with_roles(rules=many)
    assert "не больше 21 раза за игру" in {pm.to: pm.text for pm in many.role_pms(state, texts)}["Тора"]


def test_missed_vote_texts_follow_the_configured_limit(texts):
    three = make_rules({"missed_votes_out": 3})
    state = with_roles(rules=three)
    everyone_but_kuma = tuple(OrderPm(n, "голос: Тора") for n in NICKS if n != "Кума")
    first = three.resolve(state, Phase("round", 1), PhaseInputs(orders=everyone_but_kuma), 1, texts)
    [warning] = [pm.text for pm in first.pms if pm.kind == "warning"]
    assert "у вас 1 пропуск, после 3-го вы выбываете" in warning
    second = three.resolve(first.state, Phase("round", 2), PhaseInputs(), 1, texts)
    assert "Кума — предупреждение" in second.reports["round"]
    third = three.resolve(second.state, Phase("round", 3), PhaseInputs(), 1, texts)
    assert "Кума — третий пропуск, выбывает из игры (Мирный житель)" in third.reports["round"]


def test_a_player_who_dies_the_same_round_is_not_warned_for_his_missed_vote(texts):
    """Кума and Марк send no day vote; the mafia kills Кума that night: only Марк is warned, in the
    report and by PM, and only his miss is counted."""
    state = with_roles()
    orders = tuple(OrderPm(n, "голос: Тора") for n in NICKS if n not in ("Кума", "Марк", "Лиса"))
    orders += (OrderPm("Лиса", "голос: Тора\nубить Кума"),)
    result = RULES.resolve(state, Phase("round", 1), PhaseInputs(orders=orders), 1, texts)
    warned = [pm.to for pm in result.pms if pm.kind == "warning"]
    assert warned == ["Марк"]
    assert "Марк — предупреждение" in result.reports["round"]
    assert "Кума — предупреждение" not in result.reports["round"]
    assert result.state.player("Марк").missed_votes == 1 and result.state.player("Кума").missed_votes == 0
    assert not result.state.player("Кума").alive


def test_nobody_is_warned_when_the_round_ends_the_game(texts):
    """Two players left besides the maniac, who kills one: the maniac wins and the silent one is not warned."""
    state = with_roles(dead=("Аскон", "Хан", "Лиса", "Бук", "Тора"))
    orders = (OrderPm("Зорро", "голос: Марк\nубить Марк"),)
    result = RULES.resolve(state, Phase("round", 3), PhaseInputs(orders=orders), 1, texts)
    assert result.state.winner is not None
    assert [pm for pm in result.pms if pm.kind == "warning"] == []
    assert "предупреждение" not in result.reports["round"]


def test_reminder_pm_warns_a_player_who_would_be_out(texts):
    state = with_roles().update("Хан", missed_votes=1)
    pms = {pm.to: pm.text for pm in RULES.reminder(state, Phase("round", 2), [], texts, HOUR).pms}
    assert "без голоса вы выбываете из игры" in pms["Хан"] and "(у вас уже 1 пропуск дневного голоса)" in pms["Хан"]
    assert "за пропуск голоса выносится предупреждение" in pms["Аскон"] and "у вас уже" not in pms["Аскон"]
    three = make_rules({"missed_votes_out": 3})
    state = with_roles(rules=three).update("Хан", missed_votes=2)
    pms = {pm.to: pm.text for pm in three.reminder(state, Phase("round", 3), [], texts, HOUR).pms}
    assert "без голоса вы выбываете из игры" in pms["Хан"] and "(у вас уже 2 пропуска дневного голоса)" in pms["Хан"]


@pytest.mark.parametrize("left, told", [
    (timedelta(minutes=2), "осталось 2 минуты"),
    (timedelta(minutes=1), "осталась 1 минута"),
    (timedelta(seconds=20), "осталась 1 минута"),              # never "0 minutes" while the day is open
    (timedelta(minutes=14), "осталось 14 минут"),
    (timedelta(minutes=21), "осталось 20 минут"),              # to the nearest five from 15 minutes up
    (timedelta(minutes=58, seconds=10), "остался 1 час."),     # drafted on the first poll inside a 1h window
    (timedelta(hours=1), "остался 1 час."),
    (timedelta(hours=1, minutes=30), "остался 1 час 30 минут"),
    (timedelta(hours=3), "осталось 3 часа."),
    (timedelta(hours=5, minutes=2), "осталось 5 часов."),
])
def test_reminder_tells_the_time_left(texts, left, told):
    reminder = RULES.reminder(with_roles(), Phase("round", 1), [], texts, left)
    assert f"До конца игрового дня 1 {told}" in reminder.post
    assert all(f"до конца игрового дня 1 {told.rstrip('.')}," in pm.text for pm in reminder.pms)
