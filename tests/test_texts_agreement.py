"""Agreement in the drafted texts: a player's gender given or guessed, every gendered word after
a nick agreeing with it, nicks declined after prepositions, ordinals in words, no repeats."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from forumgm.config import load_texts
from forumgm.daemon.offline.simulate import run_scenario
from forumgm.engines.base import PhaseRng, SetupError
from forumgm.engines.legends import make_rules
from forumgm.config import read_rule_table
from forumgm.engines.phrases import (Agreement, Echo, Picker, guess_gender, joined, noun_agreement, ordinal,
                                     russian_sorted)
from forumgm.parsers.names import CASE_NAMES, decline
from proofreader import disagreements, nominative_after_preposition, proofread, repeated_lines

CASES = [(grammeme, name) for name, grammeme in CASE_NAMES.items()]


@pytest.mark.parametrize("nick, gender", [
    ("Жанна", "f"), ("Мария", "f"), ("Игорь", "m"), ("Нил", "m"), ("Спартак", "m"),
    # not a personal name, or either: the sentence is written so that it needs no gender
    ("Саша", None), ("Фея", None), ("Хан", None), ("Зорро", None), ("Robozik", None), ("Серый Волк", None),
])
def test_the_gender_is_guessed_only_from_a_known_personal_name(nick, gender):
    assert guess_gender(nick) == gender


@pytest.mark.parametrize("name, agreement", [
    ("Галльская империя", "f"), ("Восточная Римская Империя", "f"), ("Вандалы", "pl"), ("Гепиды", "pl"),
    ("Остготское королевство", "n"), ("Мезия", "f"),
])
def test_a_name_that_is_no_player_agrees_as_its_noun(name, agreement):
    assert noun_agreement(name) == agreement


def test_the_hosts_gender_wins_over_the_guess_and_a_wrong_one_is_named():
    rules = make_rules(read_rule_table("legends"))
    state = rules.setup({"players": [{"nick": "Жанна", "role": "Вампир", "gender": "m"},
                                     {"nick": "Хан", "role": "Монах", "gender": "f"}]}, 1)
    assert Agreement.of_players(state.players).genders == {"Жанна": "m", "Хан": "f"}
    with pytest.raises(SetupError) as error:
        rules.setup({"players": [{"nick": "Жанна", "role": "Вампир", "gender": "ж"}]}, 1)
    assert error.value.key == "setup.players[0].gender" and "\"f\" or \"m\"" in error.value.message


@pytest.mark.parametrize("number, words", [
    (1, "первого"), (2, "второго"), (3, "третьего"), (11, "одиннадцатого"), (21, "двадцать первого"),
    (40, "сорокового"), (100, "100-го"),
])
def test_ordinals_in_words(number, words):
    assert ordinal(number, "родительный") == words


def test_lists_are_in_russian_alphabetical_order():
    assert russian_sorted(["Яна", "ёжик", "Егор", "Robozik", "аня", "Жанна"]) == [
        "аня", "Егор", "ёжик", "Жанна", "Яна", "Robozik"]


def test_the_proofreader_catches_a_masculine_form_after_a_female_nick():
    assert disagreements("Жанна не увидел рассвета. Хан пала.", {"Жанна": "f", "Хан": "m"}) == [
        "Жанна увидел", "Хан пала"]
    assert disagreements("Жанна и не заметила, как удар Хана был точен.", {"Жанна": "f", "Хан": "m"}) == []
    assert repeated_lines("а\nб\nа") == ["а"]


def test_joined_echoes_read_as_added_up_one_by_one_and_are_written_again_by_another_agreement():
    parts = ["X", Echo("Выпад(голова, {target})", {"target": "Кума"}, {"Кума": "f"}), "B(тело)",
             Echo("убить {target:accs}", {"target": "Жанна"}, {"Жанна": None}),
             Echo("лечить {target:accs}", {"target": "Жанна"}, {"Жанна": "f"})]
    one_by_one = parts[0]
    for part in parts[1:]:
        one_by_one = one_by_one + ", " + part
    text = joined(parts, ", ")
    assert text == one_by_one == "X, Выпад(голова, Кума), B(тело), убить Жанну, лечить Жанну"
    assert text.genders == one_by_one.genders == {"Кума": "f", "Жанна": "f"}       # a later part's word wins
    replaced = Agreement().seen({"Кума": "Новичок"}, {"Кума": "m"}, {})
    assert text.seen(replaced) == one_by_one.seen(replaced) == (
        "X, Выпад(голова, Новичок), B(тело), убить Жанну, лечить Жанну")
    assert joined(["X", "B(тело)"], " ") == "X B(тело)" and not isinstance(joined(["X", "B"], " "), Echo)
    assert joined([parts[1]], " ") is parts[1] and joined([], " ") == ""


def test_a_picker_never_repeats_a_phrase_and_follows_the_gender():
    picker = Picker(PhaseRng(1, "night", 2).stream("t"), Agreement({"Жанна": "f", "Хан": None}), PhaseRng(1).game())
    bank = {"m": ["{nick} пал."], "f": ["{nick} пала.", "{nick} не вернулась."], "any": ["Для {nick:gent} всё кончено."]}
    female = {picker.pick(bank, nick="Жанна") for _ in range(3)}
    assert female == {"Жанна пала.", "Жанна не вернулась.", "Для Жанны всё кончено."}
    assert picker.pick(bank, nick="Хан") == "Для Хана всё кончено."           # unknown: only "any"


def test_openings_of_four_nights_in_a_row_differ_and_rerunning_gives_the_same():
    bank = ["a", "b", "c", "d", "e"]
    def opening(night):
        return Picker(PhaseRng(7, "night", night).stream("t"), Agreement(), PhaseRng(7, "night", night).game()).cycle(bank, night)
    nights = [opening(n) for n in range(1, 12)]
    assert all(len(set(nights[i:i + 4])) == 4 for i in range(len(nights) - 3))
    assert nights == [opening(n) for n in range(1, 12)]


# ---------------------------------------------------------------- Legends nights

PLAYERS = [{"nick": "Жанна", "role": "Вампир"}, {"nick": "gosha100", "role": "Мантикора", "gender": "m"},
           {"nick": "Robozik", "role": "Монах", "gender": "f"}, {"nick": "Гладиатор", "role": "Тролль", "gender": "m"},
           {"nick": "Мира", "role": "Пегас", "gender": "f"}, {"nick": "Кумбала", "role": "Гном"}]
GENDERS = {"Жанна": "f", "gosha100": "m", "Robozik": "f", "Гладиатор": "m", "Мира": "f"}


def night(orders, seed=5, spells=None, number=2):
    scenario = {"game": "legends", "seed": seed,
                "setup": {"players": PLAYERS, **({"spells": spells} if spells else {})},
                "phases": [{"kind": "night", "number": number, "orders": orders}]}
    return run_scenario(scenario)["phases"][0]["reports"]


JOINT = {"gosha100": "Совместно с Robozik (Монах) атакую магией Жанну.",
         "Robozik": "Совместно с gosha100 (Мантикора) атакую магией Жанну."}
THEFT = {"Мира": "Краду Атаку у Жанны, передаю gosha100.\nКраду Защиту от магии у Гладиатора, передаю себе"}
# a theft, a defender's save, a failed spy and a kill in one night
MIXED = {**THEFT, "Гладиатор": "Защита Жанне 10", "gosha100": "Атака Жанну", "Жанна": "Шпионить Мира",
         "Кумбала": "Атака Мира"}
GOLDEN = Path(__file__).parent / "golden"


@pytest.mark.parametrize("seed", range(1, 9))
def test_a_joint_kill_of_a_woman_is_told_naming_both_attackers_and_agreeing_with_her(seed):
    reports = night(JOINT, seed, {"Жанна": ["Молитва"]})
    literary = reports["literary"]
    proofread(literary, GENDERS)
    assert "gosha100 и Robozik" in literary or "gosha100 и Robozik".replace(" и ", ", ") in literary
    assert "Жанн" in literary.split("\n", 3)[3]
    assert "пал " not in literary and "пал," not in literary
    assert "Заклинание «Молитва» переходит от Жанны к" in reports["technical"]


@pytest.mark.parametrize("seed", range(1, 6))
def test_a_theft_is_told_and_the_technical_report_declines_the_victim(seed):
    reports = night(THEFT, seed)
    proofread(reports["literary"], GENDERS)
    assert "Жанн" in reports["literary"] and "Гладиатор" in reports["literary"]
    assert "Мира: Кража Атаки 3 у Жанны" in reports["technical"] or "Мира: Кража Атаки" in reports["technical"]
    assert "у Жанны (осталось" in reports["technical"] and "у Гладиатора (осталось" in reports["technical"]


def test_a_night_of_thirty_players_keeps_three_to_six_highlights_with_no_repeat():
    import tomllib
    from pathlib import Path
    with open(Path(__file__).parent / "scenarios" / "legends" / "game30.toml", "rb") as handle:
        scenario = tomllib.load(handle)
    female = {"Лиса", "Арвен", "Буря", "Кума", "Nova"}
    for player in scenario["setup"]["players"]:
        player["gender"] = "f" if player["nick"] in female else "m"
    genders = {p["nick"]: p["gender"] for p in scenario["setup"]["players"]}
    phases = run_scenario(scenario)["phases"]
    literary = [p["reports"]["literary"] for p in phases if p["reports"].get("literary")]
    assert len(literary) >= 4
    openings = [text.splitlines()[2] for text in literary]
    assert all(len(set(openings[i:i + 4])) == len(openings[i:i + 4]) for i in range(len(openings)))
    for text in literary:
        proofread(text, genders)
        body = text.splitlines()[3:-1]
        assert 3 <= len(body) <= 6, text
    # every night has thefts, and its story tells them; the technical report declines every nick
    forms = {nick: {grammeme: decline(nick, name, gender) for grammeme, name in CASES} for nick, gender in genders.items()}
    for phase in (p for p in phases if p["kind"] == "night"):
        assert any(e["type"] == "theft" for e in phase["events"])
        assert re.search("вор|обокра|недосчитал|дотянулась|ловкие руки", phase["reports"]["literary"].casefold())
        assert nominative_after_preposition(phase["reports"]["technical"], forms) == []
        assert re.search(r"у [А-Яа-яё]+а \(осталось", phase["reports"]["technical"])      # «у Гладиатора (осталось»


def test_the_proofreader_leaves_a_word_agreeing_with_the_noun_before_the_nick():
    assert disagreements("Свиток рассыпался, и сила Фродо возросла.", {"Фродо": "m"}) == []
    assert disagreements("В тот же час Мерлин отбилась.", {"Мерлин": "m"}) == ["Мерлин отбилась"]


@pytest.mark.parametrize("seed", range(1, 6))
def test_a_nick_of_unknown_gender_gets_sentences_with_no_gendered_form(seed):
    players = [{"nick": "Фея", "role": "Вампир"}, {"nick": "gosha100", "role": "Мантикора"},
               {"nick": "Robozik", "role": "Монах"}]
    scenario = {"game": "legends", "seed": seed, "setup": {"players": players},
                "phases": [{"kind": "night", "number": 2, "orders": {
                    "gosha100": "Атака магией Фея", "Robozik": "Атака Фея"}}]}
    literary = run_scenario(scenario)["phases"][0]["reports"]["literary"]
    assert "Фе" in literary
    assert disagreements(literary, {"Фея": "m"}) == disagreements(literary, {"Фея": "f"}) == []


@pytest.mark.parametrize("name, orders, seed, spells", [
    ("legends_joint_kill_of_a_woman", JOINT, 5, {"Жанна": ["Молитва"]}),
    ("legends_theft_save_and_kill", MIXED, 3, None),
])
def test_golden_legends_nights_read_as_reviewed(name, orders, seed, spells):
    """Whole reports a native reader reviewed: a template change shows up here as a diff to read."""
    reports = night(orders, seed, spells)
    text = f"{reports['literary']}\n\n{reports['technical']}\n"
    assert text == (GOLDEN / f"{name}.txt").read_text(encoding="utf-8")


# ---------------------------------------------------------------- every kind of nick, both genders

KINDS = ["Аскон", "Крикс", "Зорро", "Robozik", "Серый Волк"]   # declinable, «Крикс»-like, indeclinable, Latin, two words


@pytest.mark.parametrize("gender", ["m", "f"])
@pytest.mark.parametrize("victim", KINDS)
def test_every_kind_of_nick_of_either_gender_reads_right_in_the_night_reports(victim, gender):
    from forumgm.parsers.names import decline
    players = [{"nick": victim, "role": "Вампир", "gender": gender}, {"nick": "gosha100", "role": "Мантикора"},
               {"nick": "Robin", "role": "Монах"}, {"nick": "Мира", "role": "Пегас", "gender": "f"}]
    orders = {"gosha100": f"Совместно с Robin (Монах) атакую магией {victim}",
              "Robin": f"Совместно с gosha100 (Мантикора) атакую магией {victim}",
              "Мира": f"Краду Атаку у {victim}, передаю себе"}
    scenario = {"game": "legends", "seed": 4, "setup": {"players": players, "spells": {victim: ["Молитва"]}},
                "phases": [{"kind": "night", "number": 2, "orders": orders}]}
    reports = run_scenario(scenario)["phases"][0]["reports"]
    genders = {victim: gender, "Мира": "f"}
    for text in reports.values():
        if text:
            proofread(text, genders)
    assert f"у {decline(victim, 'родительный', gender)} (осталось" in reports["technical"]
    assert f"переходит от {decline(victim, 'родительный', gender)} к gosha100" in reports["technical"]


@pytest.mark.parametrize("gender, jailed, killed", [("m", "посажен", "убит мафией"), ("f", "посажена", "убита мафией"),
                                                    (None, "за решётку отправляется", "жертва мафии")])
@pytest.mark.parametrize("nick", KINDS)
def test_the_mafia_round_report_agrees_for_every_kind_of_nick(nick, gender, jailed, killed):
    players = [{"nick": nick, "role": "Мирный житель", **({"gender": gender} if gender else {})},
               {"nick": "Тора", "role": "Мирный житель", **({"gender": gender} if gender else {})},
               {"nick": "Марк", "role": "Мирный житель"}, {"nick": "Кума", "role": "Комиссар"},
               {"nick": "Хан", "role": "Доктор"}, {"nick": "Лиса", "role": "Босс мафии"},
               {"nick": "Бук", "role": "Мафиози"}, {"nick": "Зорро2", "role": "Маньяк"}]
    votes = {p["nick"]: "голос: Тора" for p in players}
    votes["Лиса"] = f"голос: Тора\nубить {nick}"
    votes["Бук"] = f"голос: Тора\nубить {nick}"
    scenario = {"game": "mafia", "seed": 2, "setup": {"players": players},
                "phases": [{"kind": "round", "number": 2, "pms": [{"from": who, "text": text} for who, text in votes.items()]}]}
    report = run_scenario(scenario)["phases"][0]["reports"]["round"]
    assert report.startswith("[b]Итоги второго игрового дня[/b]") and "(а)" not in report
    assert f"{jailed} Тора — Мирный житель" in report
    assert f"{nick} — Мирный житель: {killed}" in report


@pytest.mark.parametrize("seed", range(1, 9))
def test_a_woman_who_held_out_is_told_in_the_feminine(seed):
    """«Мира принял бой с ночными убийцами — и выстоял» was the masculine for every player."""
    scenario = {"game": "legends", "seed": seed, "setup": {"players": [
        {"nick": "Мира", "role": "Тролль", "gender": "f"}, {"nick": "gosha100", "role": "Мантикора"},
        {"nick": "Robozik", "role": "Монах"}]},
        "phases": [{"kind": "night", "number": 2, "orders": {"gosha100": "Атака Миру", "Robozik": "Атака Миру"}}]}
    literary = run_scenario(scenario)["phases"][0]["reports"]["literary"]
    (told,) = literary.splitlines()[3:-1]
    assert "Мир" in told and "принял " not in told and "выстоял." not in told
    proofread(literary, {"Мира": "f"})


@pytest.mark.parametrize("seed", range(1, 6))
def test_three_leaked_secrets_are_told_in_one_line_not_one_phrase_each(seed):
    """«Тень скользнула у шатра, где спал …» came once per spied player."""
    orders = {"Robozik": "Шпионить Гладиатор", "Кумбала": "Шпионить Жанна", "Мира": "Шпионить gosha100"}
    literary = night(orders, seed)["literary"]
    told = literary.splitlines()[3:-1]
    assert len(told) == 1 and all(name in told[0] for name in ("Гладиатора", "Жанны", "gosha100")), literary


# ---------------------------------------------------------------- the night's deaths, spells and skills told

DEATHS = [{"nick": "Зорро", "role": "Копейщик"}, {"nick": "Фея", "role": "Горгулья"}, {"nick": "Жанна", "role": "Пегас"},
          {"nick": "Хан", "role": "Сатир"}, {"nick": "Нил", "role": "Вампир"}, {"nick": "Кума", "role": "Дракон"},
          {"nick": "Мира", "role": "Гидра", "gender": "f"}, {"nick": "Аскон", "role": "Гном", "gender": "m"}]


def deaths_night(orders, seed, spells=None):
    scenario = {"game": "legends", "seed": seed, "setup": {"players": DEATHS, **({"spells": spells} if spells else {})},
                "phases": [{"kind": "night", "number": 2, "orders": orders}]}
    return run_scenario(scenario)["phases"][0]["reports"]


@pytest.mark.parametrize("seed", range(1, 9))
def test_two_deaths_are_told_in_two_sentences_of_their_own_and_agree_with_each_nick(seed):
    """«Поутру нашли лишь сломанный меч: Зорро покинул этот мир.» then «…: Фея покинул этот мир.»:
    one sentence twice, masculine for Фея (three deaths or more are told in one sentence)."""
    literary = deaths_night({"Кума": "Атака Зорро", "Мира": "Атака Фея"}, seed)["literary"]
    assert "лагере лагерь" not in literary         # a lead and its phrase said «лагерь» twice
    told = [line for line in literary.splitlines()[3:-1] if re.search("Зорро|Фе[яиюе]", line) and "«" not in line]
    # the phrase each is told in: the names and the connective («Тем временем …») left out
    masked = [re.sub(r"^(тем временем|чуть позже|в тот же час|а неподалёку|меж тем) ", "",
                     re.sub(r"Зорро|Фе[яиюей]+|Кум[аыуео]й?|Мир[аыуео]й?", "X", line).casefold()) for line in told]
    assert len(set(masked)) == len(masked) == 2, literary
    assert "покинул " not in literary
    proofread(literary, {"Мира": "f"})
    for nick in ("Зорро", "Фея"):             # no known gender: no gendered word about them
        assert disagreements(literary, {nick: "m"}) == disagreements(literary, {nick: "f"}) == []


def test_a_dead_mans_spells_pass_to_his_killer_both_declined():
    """«переходит от Хан к Нил» left both nicks in the nominative."""
    technical = deaths_night({"Нил": "Атака Хана"}, 1, {"Хан": ["Ярость"]})["technical"]
    assert "Заклинание «Ярость» переходит от Хана к Нилу" in technical


@pytest.mark.parametrize("seed", range(1, 6))
def test_a_modification_is_told_in_the_literary_report(seed):
    """Thefts and modifications never appeared in the literary report."""
    literary = deaths_night({"Аскон": "Ослабить Атаку Мире"}, seed)["literary"]
    assert "Атак" in literary and "Мир" in literary, literary
    proofread(literary, {"Мира": "f"})
