"""One scenario per Legends rule, through simulate's driver."""
import pytest

from forumgm.config import load_texts, read_rule_table
from forumgm.daemon.offline.simulate import ScenarioError
from forumgm.engines.base import OrderPm, Phase, PhaseInputs
from forumgm.engines.legends import make_rules
from legends_helpers import all_accepted, day, eliminated, events, night, play

TRIO = {"Аскон": "Вампир", "gosha100": "Мантикора", "Robozik": "Монах"}


def receipts(phase, nick):
    return [(line["ok"], line.get("reason", "")) for line in phase["receipts"][nick]]


# ---------------------------------------------------------------- attacks and trimming

def test_a_command_without_number_takes_what_is_left():
    phase = play(TRIO, night(2, Аскон="Атака 6 Robozik\nАтака gosha100"))["phases"][0]
    assert [e["amount"] for e in events(phase, "attack")] == [6, 9]


def test_attacks_from_different_players_never_add_up():
    players = {**TRIO, "Кума": "Гном"}
    phase = play(players, night(2, Robozik="Атака 5 Кума", gosha100="Атака 5 Кума"))["phases"][0]
    assert [e["effective"] for e in events(phase, "attack")] == [False, False]   # 5 = Защита 5, twice
    assert eliminated(phase) == {}


def test_same_kind_twice_on_one_target_is_refused_but_two_kinds_are_fine():
    phase = play(TRIO, night(2, Аскон="Атака 5 Robozik\nАтака 3 Robozik\nАтака магией 3 Robozik"))["phases"][0]
    assert [ok for ok, _ in receipts(phase, "Аскон")] == [True, False, True]


# ---------------------------------------------------------------- joint attacks

def test_joint_attack_with_a_wrongly_named_partner_fails_for_both_and_spends_nothing():
    phase = play(TRIO, night(2, gosha100="Совместно с Robozik (Гном) атакую магией Аскона\nАтака магией Robozik",
                              Robozik="Совместно с gosha100 (Мантикора) атакую магией Аскона"))["phases"][0]
    failures = {e["nick"]: e["reason"] for e in events(phase, "joint_attack_failed")}
    assert failures == {"gosha100": "wrong_partner_role", "Robozik": "partner_named_wrong_role"}
    (attack,) = events(phase, "attack")
    assert (attack["amount"], attack["effective"]) == (15, True)     # the failed joint took none of the 15
    assert eliminated(phase) == {"Robozik": "magic_attack"}


def test_one_sided_joint_attack_fails():
    phase = play(TRIO, night(2, gosha100="Совместно с Robozik (Монах) атакую магией Аскона"))["phases"][0]
    assert [e["reason"] for e in events(phase, "joint_attack_failed")] == ["partner_silent"]
    assert "не состоялась: напарник не подтвердил" in phase["reports"]["technical"]
    assert eliminated(phase) == {}


# ---------------------------------------------------------------- theft

FIVE = {"Ильмаринен": "Пегас", "A1": "Вампир", "A2": "Демон", "A3": "Ведьма", "A4": "Бес", "A5": "Тролль",
        "A6": "Лич"}


def test_theft_limits_hold_at_receipt():
    orders = "\n".join([
        "Краду Атаку у A1, передаю себе",
        "Краду Атаку магией у A2, передаю себе",
        "Краду Защиту у A3, передаю себе",
        "Краду Защиту от магии у A4, передаю себе",
        "Краду Защиту от шпионажа у A5, передаю себе",
        "Краду Защиту от шпионажа у A6, передаю себе",     # the same skill from a second player
        "Краду Шпионаж у A6, передаю себе",                # never Шпионаж
        "Краду Атаку у Ильмаринена, передаю A1",           # never from oneself
    ])
    phase = play(FIVE, night(2, Ильмаринен=orders))["phases"][0]
    assert [ok for ok, _ in receipts(phase, "Ильмаринен")] == [True] * 5 + [False, False, False]


def test_the_number_of_victims_is_limited_by_the_table():
    table = read_rule_table("legends")
    table["limits"]["theft_players"] = 2
    lines = ["Краду Атаку у A1, передаю себе", "Краду Защиту у A1, передаю себе",
             "Краду Атаку магией у A2, передаю себе", "Краду Защиту от магии у A3, передаю A2"]
    phase = play(FIVE, night(2, Ильмаринен=lines[:3]), rules=table)["phases"][0]
    assert all_accepted(phase)
    phase = play(FIVE, night(2, Ильмаринен=["\n".join(lines[:3]), lines[3]]), rules=table)["phases"][0]
    assert receipts(phase, "Ильмаринен")[-1] == (False, "за одну ночь можно обокрасть не больше 2 игроков")


def test_a_victim_limit_of_one_is_told_in_the_singular():
    table = read_rule_table("legends")
    table["limits"]["theft_players"] = 1
    lines = "Краду Атаку у A1, передаю себе\nКраду Защиту у A2, передаю себе"
    phase = play(FIVE, night(2, Ильмаринен=lines), rules=table)["phases"][0]
    assert receipts(phase, "Ильмаринен") == [(True, ""), (False, "за одну ночь можно обокрасть не больше 1 игрока")]


def test_theft_takes_no_more_than_the_victim_has():
    players = {"Ильмаринен": "Пегас", "Кума": "Гном", "balabol": "Горгулья"}
    phase = play(players, night(2, Кума="Ослабить Защиту от магии balabol",
                                 Ильмаринен="Краду Защиту от магии у balabol, передаю себе"))["phases"][0]
    (theft,) = events(phase, "theft")
    assert (theft["amount"], theft["victim_after"], theft["recipient_after"]) == (0, 0, 3)


def test_a_theft_by_someone_who_is_no_thief_is_accepted_and_not_executed():
    phase = play(TRIO, night(2, Аскон="Краду Атаку у Robozik, передаю себе"))["phases"][0]
    assert all_accepted(phase)
    assert [e["reason"] for e in events(phase, "not_executed")] == ["role"]
    assert "Вампир" not in "".join(pm["text"] for pm in phase["pms"])


# ---------------------------------------------------------------- modification

def test_modification_never_goes_below_zero():
    players = {"Кума": "Гном", "Robozik": "Монах", "Ильмаринен": "Пегас"}
    phase = play(players, night(2, Кума="Ослабить Атаку Ильмаринена", Robozik="Ослабить Атаку Ильмаринена",
                                 Ильмаринен="Атака Кума"))["phases"][0]
    assert [e["after"] for e in events(phase, "modification")] == [0, 0]
    assert events(phase, "attack")[0]["amount"] == 0


def test_one_skill_is_modified_on_one_player_only():
    players = {"Кума": "Гном", "Robozik": "Монах", "Ильмаринен": "Пегас"}
    phase = play(players, night(2, Кума="Ослабить Атаку Ильмаринена\nОслабить Атаку Robozik\n"
                                        "Ослабить Защиту Ильмаринена"))["phases"][0]
    assert [ok for ok, _ in receipts(phase, "Кума")] == [True, False, True]


# ---------------------------------------------------------------- defenders

def test_a_defender_without_commands_keeps_his_values():
    players = {"Гладиатор": "Тролль", "gosha100": "Мантикора"}
    phase = play(players, night(2, gosha100="Атака магией 15 Гладиатор"))["phases"][0]
    assert events(phase, "attack")[0]["defense"] == 15 and eliminated(phase) == {}


def test_a_defender_with_commands_has_exactly_what_he_set():
    players = {"Гладиатор": "Тролль", "gosha100": "Мантикора"}
    phase = play(players, night(2, Гладиатор="Защита 5", gosha100="Атака магией 1 Гладиатор"))["phases"][0]
    (potential,) = events(phase, "defense_potential")
    assert (potential["potential"], potential["unspent"]) == (35, 30)
    assert events(phase, "attack")[0]["defense"] == 0 and eliminated(phase) == {"Гладиатор": "magic_attack"}


def test_defense_commands_of_other_ranks_do_nothing():
    phase = play(TRIO, night(2, Аскон="Защита 20"))["phases"][0]
    assert all_accepted(phase) and [e["reason"] for e in events(phase, "not_executed")] == ["role"]


# ---------------------------------------------------------------- night 1

@pytest.mark.parametrize("line", [
    "Атака 5 Robozik", "Атака магией 5 Robozik", "Краду Атаку у Robozik, передаю себе",
    "Краду Атаку магией у Robozik, передаю себе", "Ослабить Атаку Robozik", "Усилить Атаку магией Robozik",
    "Ослабить Кражу Защиты Robozik", "Совместно с gosha100 (Мантикора) атакую Robozik",
])
def test_night_one_bans_are_refused_at_receipt(line):
    phase = play(TRIO, night(1, Аскон=line))["phases"][0]
    assert receipts(phase, "Аскон") == [(False, "в первую ночь эта команда запрещена")]


@pytest.mark.parametrize("line", [
    "Шпионить Robozik", "Защита 10", "Краду Защиту у Robozik, передаю себе", "Усилить Защиту (свою)",
])
def test_other_commands_are_open_on_night_one(line):
    assert all_accepted(play(TRIO, night(1, Аскон=line))["phases"][0])


# ---------------------------------------------------------------- effectiveness and reveals

def test_role_is_revealed_once_on_the_first_effective_action_only():
    players = {**TRIO, "Кума": "Гном", "Ильмаринен": "Пегас"}
    result = play(players, night(1, Ильмаринен="Шпионить Аскон"), night(2, Ильмаринен="Шпионить Robozik"))
    reveals = [[pm["to"] for pm in phase["pms"] if pm["kind"] == "role_reveal"] for phase in result["phases"]]
    assert reveals == [["Ильмаринен"], []]
    spy_results = [[pm["to"] for pm in phase["pms"] if pm["kind"] == "spy_result"] for phase in result["phases"]]
    assert spy_results == [["Ильмаринен"], ["Ильмаринен"]]
    # «★ Эхо: первое результативное действие» did not say which action
    assert "   ★ Ильмаринен: первое результативное действие — Шпионаж → Аскон" in \
        result["phases"][0]["reports"]["technical"].splitlines()
    assert "★" not in result["phases"][1]["reports"]["technical"]


def test_failed_spying_makes_the_spy_defense_effective():
    players = {"Аскон": "Вампир", "Ильмаринен": "Пегас"}
    phase = play(players, night(1, Аскон="Шпионить Ильмаринен"))["phases"][0]
    assert [pm["to"] for pm in phase["pms"] if pm["kind"] == "role_reveal"] == ["Ильмаринен"]
    assert [pm for pm in phase["pms"] if pm["kind"] == "spy_result"] == []


# ---------------------------------------------------------------- day: lynch

CHAOS_PAIR = {"Аскон": "Вампир", "Эф": "Эфрит", "gosha100": "Мантикора", "Хан": "Дракон", "Robozik": "Монах"}


def test_first_lynch_is_on_day_two():
    with pytest.raises(ScenarioError):
        play(TRIO, day(1, Аскон="Robozik"))
    result = play(TRIO, {"kind": "day", "number": 1}, day(2, Аскон="Robozik", gosha100="Robozik"))
    assert [p["lynched"] for p in result["phases"]] == [None, "Robozik"]
    assert result["phases"][1]["eliminated"] == [{"nick": "Robozik", "cause": "lynch"}]


def test_the_day_without_a_lynch_names_the_table_s_first_lynch_day():
    table = read_rule_table("legends")
    table["calendar"]["first_lynch_day"] = 3
    result = play(TRIO, {"kind": "day", "number": 2}, rules=table)
    assert "Сегодня Линча нет: первый Линч — в игровой день 3." in result["phases"][0]["reports"]["lynch"]
    default = play(TRIO, {"kind": "day", "number": 1})
    assert "Сегодня Линча нет: первый Линч — в игровой день 2." in default["phases"][0]["reports"]["lynch"]


def test_an_immune_leader_gives_way_to_the_second_place():
    result = play(CHAOS_PAIR, day(2, Эф="Хан", gosha100="Эф", Хан="Эф", Robozik="Эф"), dead=["Аскон"])
    phase = result["phases"][0]
    assert (phase["lynched"], phase["immune_leader"]) == ("Хан", "Эф")
    assert "Больше всех голосов у игрока Эф, но этого игрока линчевать нельзя." in phase["reports"]["lynch"]
    assert "Дракон" not in phase["reports"]["lynch"]


def test_a_tie_means_no_lynch():
    phase = play(TRIO, day(2, Аскон="Robozik", Robozik="Аскон"))["phases"][0]
    assert phase["lynched"] is None and phase["eliminated"] == []


def test_an_immune_leader_with_a_tie_behind_him_means_no_lynch():
    phase = play(CHAOS_PAIR, day(2, gosha100="Эф", Хан="Эф", Эф="Хан", Robozik="gosha100"),
                 dead=["Аскон"])["phases"][0]
    assert (phase["lynched"], phase["immune_leader"]) == (None, "Эф")


def test_a_lynched_holder_s_spells_go_to_the_first_voter():
    result = play(TRIO, day(2, gosha100="Robozik", Аскон="Robozik"), spells={"Robozik": ["Ярость"]})
    phase = result["phases"][0]
    assert phase["spells"]["Ярость"] == "gosha100"
    assert "Robozik" not in phase["spells"].values()
    assert {pm["to"] for pm in phase["pms"] if pm["kind"] == "spell"} == {"gosha100"}


# ---------------------------------------------------------------- spells

SPELLERS = {"Хан": "Дракон", "Лиса": "Гидра", "Зорро": "Вампир", "gosha100": "Мантикора"}


@pytest.mark.parametrize("caster, line, reason", [
    ("Лиса", "Колдую Ярость на Хана (Дракон)", "not_holder"),
    ("Хан", "Колдую Ярость на Зорро (Вампир)", "other_clan"),
    ("Хан", "Колдую Ярость на Лису (Дракон)", "wrong_role"),
    ("Хан", "Колдую Ярость на gosha100 (Мантикора)", "wrong_spell"),
])
def test_spell_activation_fails_unless_every_condition_holds(caster, line, reason):
    phase = play(SPELLERS, night(2, **{caster: line}), spells={"Хан": ["Ярость"]})["phases"][0]
    (cast,) = events(phase, "spell_cast")
    assert (cast["ok"], cast["reason"]) == (False, reason)
    assert phase["spells"]["Ярость"] == "Хан"


def test_a_cast_spell_is_used_up_and_lasts_the_game():
    result = play(SPELLERS, night(2, Хан="Колдую Ярость на Лису (Гидра)"), night(3, Лиса="Атака 20 gosha100"),
                  spells={"Хан": ["Ярость"]})
    first, second = result["phases"]
    assert first["spells"]["Ярость"] is None
    (attack,) = events(second, "attack")
    assert (attack["amount"], attack["defense"], attack["effective"]) == (20, 15, True)


def test_transfer_and_exchange():
    result = play(SPELLERS, night(2, Хан="Передать Ярость Лисе",
                                   Зорро="Меняюсь с gosha100, Кровожадность на Силу природы",
                                   gosha100="Меняюсь c Зорро, Сила природы на Кровожадность"),
                  spells={"Хан": ["Ярость"], "Зорро": ["Кровожадность"], "gosha100": ["Сила природы"]})
    spells = result["phases"][0]["spells"]
    assert (spells["Ярость"], spells["Кровожадность"], spells["Сила природы"]) == ("Лиса", "gosha100", "Зорро")


def test_an_unmatched_exchange_fails():
    phase = play(SPELLERS, night(2, Зорро="Меняюсь с gosha100, Кровожадность на Силу природы"),
                 spells={"Зорро": ["Кровожадность"], "gosha100": ["Сила природы"]})["phases"][0]
    assert [e["reason"] for e in events(phase, "spell_exchange")] == ["no_match"]


def test_several_killers_the_largest_attack_inherits():
    players = {"Хан": "Дракон", "gosha100": "Мантикора", "Robozik": "Монах"}
    phase = play(players, night(2, Хан="Атака 8 Robozik", gosha100="Атака магией 12 Robozik"),
                 spells={"Robozik": ["Ярость"]})["phases"][0]
    assert phase["spells"]["Ярость"] == "gosha100"


@pytest.mark.parametrize("seed", range(6))
def test_a_joint_kill_with_equal_shares_goes_by_the_die(seed):
    players = {"Хан": "Дракон", "gosha100": "Мантикора", "Robozik": "Монах"}
    orders = night(2, Хан="Совместно с gosha100 (Мантикора) атакую 5 Robozik",
                   gosha100="Совместно с Хан (Дракон) атакую 5 Robozik")
    phase = play(players, orders, seed=seed, spells={"Robozik": ["Ярость"]})["phases"][0]
    heir = phase["spells"]["Ярость"]
    assert heir in ("Хан", "gosha100")
    assert play(players, orders, seed=seed, spells={"Robozik": ["Ярость"]})["phases"][0]["spells"]["Ярость"] == heir


def test_the_die_decides_both_ways_over_seeds():
    players = {"Хан": "Дракон", "gosha100": "Мантикора", "Robozik": "Монах"}
    orders = night(2, Хан="Совместно с gosha100 (Мантикора) атакую 5 Robozik",
                   gosha100="Совместно с Хан (Дракон) атакую 5 Robozik")
    heirs = {play(players, orders, seed=s, spells={"Robozik": ["Ярость"]})["phases"][0]["spells"]["Ярость"]
             for s in range(12)}
    assert heirs == {"Хан", "gosha100"}


# ---------------------------------------------------------------- regime and victory

def test_continuous_regime_when_nobody_can_be_lynched():
    players = {"Аскон": "Вампир", "Эф": "Эфрит", "Хан": "Дракон", "Лиса": "Гидра"}
    result = play(players, day(2, Аскон="Хан", Лиса="Хан"), dead=["Эф"])
    phase = result["phases"][0]
    assert phase["lynched"] == "Хан"
    assert events(phase, "continuous_regime") and "непрерывный режим" in phase["reports"]["lynch"]


def test_clan_victory():
    result = play({"Аскон": "Вампир", "Robozik": "Монах"}, night(2, Аскон="Атака Robozik"))
    assert result["winner"] == "Клан Хаоса" and result["alive"] == ["Аскон"]


# ---------------------------------------------------------------- the technical report's order

def resolve_night(players, dead, pms, **setup):
    """A night resolved by the engine itself, for orders sent before their target fell
    (simulate reads every PM against the phase's start, so it cannot send them)."""
    rules = make_rules(read_rule_table("legends"))
    state = rules.setup({"players": [{"nick": n, "role": r} for n, r in players.items()], "dead": dead, **setup}, 1)
    orders = tuple(OrderPm(nick, text) for nick, text in pms.items())
    return rules.resolve(state, Phase("night", 3), PhaseInputs(orders=orders), 1, load_texts())


def test_a_command_naming_a_fallen_player_is_reported_where_it_would_have_run():
    """Not executed, listed at its own step of the night (rules §7, §9): after the spells,
    before the attacks."""
    outcome = resolve_night({**TRIO, "Кума": "Гном"}, ["Robozik"],
                            {"Кума": "Атака 3 Robozik\nОслабить Защиту Robozik\nАтака магией 2 gosha100",
                             "Аскон": "Передать Ярость gosha100"}, spells={"Аскон": ["Ярость"]})
    steps = [(e.type, e.data.get("command", e.data.get("kind"))) for e in outcome.events
             if e.type in ("spell_transfer", "not_executed", "attack")]
    assert steps == [("spell_transfer", None), ("not_executed", "Ослабить: Защита → Robozik"),
                     ("not_executed", "Атака 3 → Robozik"), ("attack", "magic_attack")]
    lines = outcome.reports["technical"].splitlines()
    assert lines.index("Кума: Ослабить: Защита → Robozik — не выполнено: игрок выбыл из игры") == 2


def test_orders_of_a_fallen_player_are_listed_in_the_third_person():
    outcome = resolve_night(TRIO, ["Robozik"], {"Robozik": "Атака Аскон"})
    assert "Robozik: приказы не приняты — игрок выбыл из игры" in outcome.reports["technical"]


def test_when_the_last_players_fall_together_the_game_ends_without_a_winner():
    result = play({"Хан": "Дракон", "Зорро": "Вампир"}, night(2, Хан="Атака Зорро", Зорро="Атака Хан"))
    (phase,) = result["phases"]
    assert (result["alive"], result["winner"]) == ([], None)
    assert "Выживших нет: игра окончена без победителя." in phase["reports"]["technical"]
    rules = make_rules(read_rule_table("legends"))
    state = rules.setup({"players": [{"nick": "Хан", "role": "Дракон"}, {"nick": "Зорро", "role": "Вампир"}],
                         "dead": ["Хан", "Зорро"]}, 1)
    assert rules.next_phase(state, Phase("night", 2)) is None
