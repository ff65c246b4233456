"""The `decline` filter: a nickname in the case a Russian sentence needs, when the dictionary
knows it as a declinable noun, and unchanged otherwise."""
from __future__ import annotations

import pytest

from forumgm.config import data_path, read_templates
from forumgm.engines.base import PhaseRng
from forumgm.engines.phrases import Agreement, Picker
from forumgm.engines.texts import Texts
from forumgm.parsers.names import decline


@pytest.mark.parametrize("nick, case, form", [
    ("Кума", "винительный", "Куму"),
    ("Кума", "родительный", "Кумы"),
    ("Иван", "винительный", "Ивана"),
    ("Мария", "дательный", "Марии"),
    ("Гладиатор", "творительный", "Гладиатором"),
    ("Хан", "родительный", "Хана"),
    # a nickname is a person: a masculine noun the dictionary calls inanimate takes the animate
    # accusative («замахивается на Тора», never «на Тор»)
    ("Тор", "винительный", "Тора"),
    ("Лиса", "предложный", "Лисе"),
    # not in the dictionary: declined by the regular ending, as a Russian reader would
    ("Аскон", "родительный", "Аскона"),
    ("Аскон", "винительный", "Аскона"),
    ("Аскон", "творительный", "Асконом"),
    ("Аскон", "дательный", "Аскону"),
    ("Эномай", "родительный", "Эномая"),
    ("Кумбала", "родительный", "Кумбалы"),
    ("Кумбала", "творительный", "Кумбалой"),
    ("Астарот", "родительный", "Астарота"),
    # a word the dictionary knows only as another word's form still declines as a name does
    ("Крикс", "родительный", "Крикса"),
    ("Крикс", "творительный", "Криксом"),
    ("Мира", "родительный", "Миры"),
    ("Ганник", "родительный", "Ганника"),
    # adjectives and one noun the dictionary knows: every word in the case
    ("Серый Волк", "родительный", "Серого Волка"),
    ("Восточная Римская Империя", "родительный", "Восточной Римской Империи"),
    ("Галльская империя", "винительный", "Галльскую империю"),
    # a people's name: plural, animate
    ("Вандалы", "винительный", "Вандалов"),
    ("Гепиды", "винительный", "Гепидов"),
    ("Гепиды", "дательный", "Гепидам"),
    ("Языгия", "винительный", "Языгию"),
    # unknown to the dictionary, which reads it only as a short adjective: declined by its ending
    ("Ильмаринен", "родительный", "Ильмаринена"),
    ("Ильмаринен", "дательный", "Ильмаринену"),
    ("Ильмаринен", "творительный", "Ильмариненом"),
    # the guess would drop a letter («Кракорта»): a nickname keeps all of its own and declines
    ("Кракорот", "родительный", "Кракорота"),
    # several words, each a name or a title, each declined as one: «Йода» of the first declension,
    # never the genitive of «йод» it is to the dictionary
    ("Мастер Йода", "родительный", "Мастера Йоды"),
    ("Мастер Йода", "дательный", "Мастеру Йоде"),
    ("Мастер Йода", "винительный", "Мастера Йоду"),
    ("Мастер Йода", "творительный", "Мастером Йодой"),
    ("Кума Лиса", "винительный", "Куму Лису"),
    ("Дарт Вейдер", "родительный", "Дарта Вейдера"),
    ("Кот Матроскин", "дательный", "Коту Матроскину"),
    ("Капитан Америка", "родительный", "Капитана Америки"),
    ("Баба Яга", "творительный", "Бабой Ягой"),
    ("Гарри Поттер", "родительный", "Гарри Поттера"),
    ("Доктор Зло", "родительный", "Доктора Зло"),
    # a noun and its complement: the noun alone
    ("Слуга Народа", "творительный", "Слугой Народа"),
    ("Дочь Ветра", "родительный", "Дочери Ветра"),
])
def test_a_known_noun_or_a_regular_ending_takes_the_case(nick, case, form):
    assert decline(nick, case) == form


@pytest.mark.parametrize("nick", [
    "Robozik", "gosha100", "Кума2", "Зорро", "Серый-Волк", "Robin Гуд", "",
    # the dictionary's indeclinable women's names
    "Кармен", "Ассоль",
    # unknown, ending in «ь» (Игоря or Ассоли? the gender cannot be told)
    "Тарвель",
])
def test_latin_digits_unknown_indeclinable_and_compound_nicks_stay_as_written(nick):
    assert decline(nick, "винительный") == nick


@pytest.mark.parametrize("nick, gender, case, form", [
    # a woman's name ending in a consonant does not decline; a man's does
    ("Аскон", "f", "родительный", "Аскон"), ("Аскон", "m", "родительный", "Аскона"),
    ("Гарри Поттер", "f", "дательный", "Гарри Поттер"),
    # with the gender known, «ь» declines as «Игорь» or as «Ассоль» would
    ("Тарвель", "m", "творительный", "Тарвелем"), ("Тарвель", "f", "творительный", "Тарвелью"),
    ("Тарвель", "f", "винительный", "Тарвель"), ("Тарвель", "m", "винительный", "Тарвеля"),
    # the dictionary's reading of the player's gender: «Каренина» is hers, not «Каренин»'s genitive
    ("Анна Каренина", "f", "дательный", "Анне Карениной"),
    ("Жанна", "f", "творительный", "Жанной"),
])
def test_the_players_gender_decides_how_a_nick_declines(nick, gender, case, form):
    assert decline(nick, case, gender) == form


def test_a_lowercase_nick_stays_lowercase():
    assert decline("кума", "винительный") == "куму"


def test_an_unknown_case_is_named_in_the_error():
    with pytest.raises(ValueError, match="«винительный».*«вин»"):
        decline("Кума", "вин")


def test_templates_call_it_as_a_filter_and_the_result_is_still_escaped():
    texts = Texts({"t.j2": '{{ a }} замахивается на {{ b | decline("винительный") }}.'})
    assert texts.render("t.j2", a="Хан", b="Кума") == "Хан замахивается на Куму."
    assert texts.render("t.j2", a="Хан", b="[b]x") == "Хан замахивается на \uff3bb]x."


@pytest.fixture(scope="module")
def arena():
    texts = Texts(read_templates(data_path("templates")))
    return lambda name, **context: texts.render(f"arena/{name}.j2", **context)


def _attack(outcome, attacker, defender, **more):
    return {"type": "attack", "outcome": outcome, "attacker": attacker, "defender": defender,
            "code": "L", "zone": "голова", "defense": None, **more}


def _literary(arena, *events, fighters=("Хан", "Кума", "Robozik"), step=2, genders=None):
    agreement = Agreement({nick: None for nick in fighters} | (genders or {}))
    picker = Picker(PhaseRng(1, "step", step).stream("literary"), agreement, PhaseRng(1).game())
    return arena("literary", step=step, result=None, actions={"L": "Выпад", "B": "Блок"}, agreement=agreement,
                 picker=picker, fighters=[{"nick": f} for f in fighters], events=list(events))


def test_arena_literary_text_declines_the_nicks_it_can(arena):
    text = _literary(arena,
                     _attack("no_target", "Хан", "Кума"),
                     _attack("out_of_range", "Кума", "Хан"),
                     _attack("no_target", "Кума", "Robozik"),
                     _attack("out_of_range", "Хан", "gosha100"),
                     {"type": "breakage", "broken": True, "nick": "Хан", "weapon": "гладий"},
                     {"type": "armour", "broken": True, "nick": "Кума", "piece": "шлем"},
                     {"type": "fight_over", "winner": "Гладиатор", "kind": "нокаут"})
    assert "Хан замахивается на Куму, но противника уже нет на арене." in text
    assert "Кума не достаёт до Хана." in text
    assert "Кума замахивается на Robozik, но противника уже нет на арене." in text
    assert "Хан не достаёт до gosha100." in text
    assert "Оружие Хана (гладий) ломается!" in text
    assert "Шлем Кумы разваливается на куски." in text
    assert "Бой окончен: победа Гладиатора (нокаут)." in text


def test_arena_technical_and_reveal_texts_decline_and_agree_with_numbers(arena):
    technical = arena("technical", step=3, result=None, actions={"L": "Выпад"}, rows=[],
                      fighters=[{"nick": "Хан"}, {"nick": "Кума"}],
                      events=[{"type": "refill_request", "nick": "Хан", "cards": 2, "hands": ["right"]},
                              {"type": "refill_request", "nick": "Кума", "cards": 1, "hands": ["right"]}])
    assert "Хан пополняет стопки: по 2 карты" in technical
    assert "Кума пополняет стопки: по 1 карте" in technical
    reveal = arena("reveal", to="Хан", nick="Аскон", count=1, step=1, cards={"right": "X"})
    assert reveal == ("Хан, ваш рейтинг атаки выше, чем у Аскона, поэтому Аскон открывает вам 1 следующую карту "
                      "(перед шагом 2):\n• правая рука: X")


@pytest.mark.parametrize("count, words", [
    (2, "2 следующие карты"), (4, "4 следующие карты"), (5, "5 следующих карт"), (21, "21 следующую карту"),
])
def test_arena_reveal_agrees_with_the_number_of_cards(arena, count, words):
    reveal = arena("reveal", to="Аскон", nick="Кума", count=count, step=3,
                   cards={"right": "X L(голова)", "legs": "W(вперёд) X"})
    assert reveal == (f"Аскон, ваш рейтинг атаки выше, чем у Кумы, поэтому Кума открывает вам {words} "
                      "(перед шагом 4):\n• правая рука: X L(голова)\n• ноги: W(вперёд) X")


def _move(blocked):
    return {"type": "move", "blocked": blocked, "nick": "Хан", "code": "W", "direction": "forward"}


def test_an_arena_step_where_nobody_acts_still_tells_the_thread_something_new(arena):
    quiet = [_literary(arena, _move("edge"), step=step).splitlines() for step in range(2, 8)]
    assert all(len(lines) == 2 and lines[1].endswith(".") for lines in quiet)
    assert all(len({lines[1] for lines in quiet[i:i + 4]}) == 4 for i in range(len(quiet) - 3))
    assert _literary(arena, _move(None)) == "[b]Арена. Шаг 2[/b]\nХан шагает вперёд."


def test_arena_commentary_agrees_with_a_fighters_gender_and_tells_what_the_helmet_took(arena):
    genders = {"Жанна": "f", "Крикс": "m"}
    text = _literary(arena, _attack("no_target", "Крикс", "Жанна"),
                     _attack("hit", "Жанна", "Крикс", level=0, armour=["шлем"]),
                     _attack("no_damage", "Крикс", "Жанна"),
                     {"type": "wound", "nick": "Жанна", "name": "тяжёлое ранение", "zone": "голова",
                      "effects": ["knockout"]},
                     {"type": "fight_over", "winner": "Крикс", "kind": "нокаут"},
                     fighters=("Жанна", "Крикс"), genders=genders)
    assert "Крикс замахивается на Жанну, но той уже нет на арене." in text
    assert "Жанна проводит выпад в голову, но удар целиком принимает на себя шлем Крикса." in text
    assert "получает урон" not in text
    assert "но Жанна выходит невредимой." in text
    assert "Жанна: тяжёлое ранение (голова) — и она падает без чувств." in text
    assert "Бой окончен: победа Крикса (нокаут)." in text


def test_the_hosts_declension_table_wins_in_the_filter_and_in_the_phrase_banks(tmp_path):
    """Where the rules guess wrong («Таргелеца»), a game's own declension.toml says the form."""
    from forumgm.config import load_texts
    from forumgm.daemon.offline.simulate import run_scenario

    (tmp_path / "declension.toml").write_text(
        '"Таргелец" = ["Таргельца", "Таргельцу", "Таргельца", "Таргельцем", ""]\n', encoding="utf-8")
    texts = load_texts(tmp_path)
    plain = Texts({"t.j2": '{{ a | decline("родительный") }}, {{ a | decline("предложный") }}'}, {"Таргелец": {"родительный": "Таргельца"}})
    assert plain.render("t.j2", a="Таргелец") == "Таргельца, Таргелеце"       # a case not listed: forumgm's own
    players = [{"nick": "Таргелец", "role": "Вампир", "gender": "m"}, {"nick": "gosha100", "role": "Пегас"},
               {"nick": "Robin", "role": "Монах"}]
    scenario = {"game": "legends", "seed": 4, "setup": {"players": players},
                "phases": [{"kind": "night", "number": 2, "orders": {
                    "gosha100": "Краду Атаку у Таргельца, передаю себе"}}]}
    reports = run_scenario(scenario, texts)["phases"][0]["reports"]
    assert "у Таргельца (осталось" in reports["technical"]
    assert "Таргельц" in reports["literary"] and "Таргелеца" not in reports["literary"]
