"""The Bellum order grammar and receipts: every order kind, the case forms and aliases players
write, and each refusal with its reason."""
from __future__ import annotations

import pytest

from forumgm.engines.base import OrderPm, Phase
from forumgm.engines.bellum import RULES
from forumgm.engines.bellum.orders import collect
from forumgm.parsers.orders.bellum import (
    ATTACK, ATTACK_ALL, IDLE, MEET, MEET_ALL, PEACE, Abandon, AbandonRegion, Annex, Consent,
    EventChoice, Independence, MakeState, Move, Ready, Retreat, Stay,
)
from tests.bellum_helpers import SMALL_MAP, setup_of

PLAYERS = [{"nick": "Аскон", "faction": "zapadnaya_rim"}, {"nick": "Хан", "faction": "Вестготы"},
           {"nick": "Зорро", "faction": "гунны"}, {"nick": "Тора", "faction": "Копты"}]
TURN = Phase("turn", 1)


@pytest.fixture(scope="module")
def state():
    return RULES.setup(setup_of({"scenario": str(SMALL_MAP), "players": PLAYERS, "events": [
        {"number": 1, "turn": 1, "text": "Знамение", "choosers": ["vestgoty"],
         "options": [{"letter": "а", "text": "да"}, {"letter": "б", "text": "нет"}]}]}), seed=3)


def read(state, sender: str, text: str, earlier: list[str] = ()) -> list:
    pms = [OrderPm(sender, t) for t in earlier]
    return RULES.read_orders(state, TURN, OrderPm(sender, text), pms)


def one(state, sender: str, line: str):
    (verdict,) = read(state, sender, line)
    return verdict


@pytest.mark.parametrize("line, order, canonical", [
    ("3 из Паннонии в Норик, атакуя вестготов", None, None),     # own faction: refused below
    ("3 из Паннонии в Норик", Move(3, "pannonia", "noricum", None), "3 из Паннонии в Норик, мирно"),
    ("3 из паннонии во Норик мирно", Move(3, "pannonia", "noricum", None), "3 из Паннонии в Норик, мирно"),
    ("2 из Паннонии в Дакию, атакуя остготов и аланов",
     Move(2, "pannonia", "dacia", None, ATTACK, ("ostgoty", "alany")), "2 из Паннонии в Дакию, атакуя Остготов и Аланов"),
    ("2 из Паннонии в Дакию атакуя всех", Move(2, "pannonia", "dacia", None, ATTACK_ALL), "2 из Паннонии в Дакию, атакуя всех"),
    ("5 вестготов из Паннонии в Дакию", Move(5, "pannonia", "dacia", "vestgoty"), "5 Вестготов из Паннонии в Дакию, мирно"),
    ("Паннония: бездействовать", Stay("pannonia", None, IDLE), "Паннония: бездействовать"),
    ("Паннония: встретить боем остготов, франков", Stay("pannonia", None, MEET, ("ostgoty", "franki")),
     "Паннония: встретить боем Остготов и Франков"),
    ("в Паннонии: встретить боем всех (приходящих)", Stay("pannonia", None, MEET_ALL),
     "Паннония: встретить боем всех приходящих"),
    ("Паннония: атаковать всех", Stay("pannonia", None, ATTACK_ALL), "Паннония: атаковать всех"),
    ("отступать из Паннонии в Далмацию", Retreat("pannonia", "dalmatia", None), "отступать из Паннонии в Далмацию"),
    ("согласны стать государством", Consent(), "согласны стать государством"),
    ("событие 1: вариант а", EventChoice(1, "а"), "событие 1: вариант а"),
    ("Ход готов.", Ready(), "ход готов"),
])
def test_tribe_orders_in_case_forms(state, line, order, canonical):
    verdict = one(state, "Хан", line)
    if order is None:
        assert not verdict.ok and verdict.reason == "Вестготы — ваш же народ (свои не сражаются друг с другом)"
        return
    assert verdict.ok, verdict
    assert verdict.order == order
    assert verdict.canonical == canonical


@pytest.mark.parametrize("line, order", [
    ("присоединить Далмацию", Annex("dalmatia")),
    ("оставить Норик", Abandon("noricum")),
    ("оставить регион Иллирик", AbandonRegion("illyricum")),
    ("ассимилировать 1 готов-тервингов в Венетии", None),       # nobody there: refused below
    ("сделать государством вестготов, столица Паннония", MakeState("vestgoty", "pannonia")),
    ("8 из Рима в Далмацию, атакуя Византию", Move(8, "italia", "dalmatia", None, ATTACK, ("vostochnaya_rim",))),
    ("2 из Италии в Африку", Move(2, "italia", "africa", None, PEACE)),
])
def test_state_orders_and_aliases(state, line, order):
    verdict = one(state, "Аскон", line)
    if order is None:
        assert not verdict.ok and verdict.reason == "в Венетии нет людей (Вестготы)"
        return
    assert verdict.ok, verdict
    assert verdict.order == order


def test_a_captured_state_declares_independence(state):
    verdict = one(state, "Тора", "объявить независимость в Аксуме")
    assert verdict.ok and verdict.order == Independence("aksum")
    assert one(state, "Аскон", "объявить независимость в Италии").reason == "ваше государство не захвачено"


@pytest.mark.parametrize("sender, line, reason", [
    ("Хан", "2 из Паннонии в Италию", "Италия не граничит с Паннонией"),
    ("Хан", "6 из Паннонии в Дакию", "в Паннонии 5 чел. (Вестготы), из них ещё не отправлено 5"),
    ("Хан", "2 из Норика в Германию", "в Норике нет людей (Вестготы)"),
    ("Хан", "2 остготов из Дакии в Паннонию", "Остготы — не ваш народ"),
    ("Хан", "0 из Паннонии в Дакию", "число людей должно быть не меньше 1"),
    ("Хан", "-2 из Паннонии в Дакию", "число людей «-2» должно быть целым и не меньше 1"),
    ("Хан", "9" * 400 + " из Паннонии в Дакию", "число людей слишком велико (400 цифр)"),
    ("Хан", "2 из Панонии в Дакию", None),                         # a typo is forgiven
    ("Хан", "2 из Мордора в Дакию", "неизвестная провинция «Мордора»"),
    ("Хан", "2 из Паннонии в Дакию, атакуя марсиан", "неизвестный народ «марсиан»"),
    ("Хан", "присоединить Паннонию", "это приказ для государства, а ваш народ — племя"),
    ("Хан", "событие 7: вариант а", "события 7 в этом ходу нет"),
    ("Хан", "событие 1: вариант в", "у события 1 нет варианта «в» (есть: а, б)"),
    ("Хан", "пойти войной на всех", "непонятная команда"),
    ("Аскон", "2 из Италии в Далмацию, атакуя ЗРИ", "Западная Римская Империя — ваш же народ (свои не сражаются друг с другом)"),
    ("Аскон", "оставить Италию", "столицу оставить нельзя"),
    ("Аскон", "оставить регион Италия", "нельзя оставить регион своей столицы"),
    ("Аскон", "сделать государством франков, столица Германия", "Германия — не цивилизованная провинция"),
    ("Аскон", "согласны стать государством", "согласие нужно только от племени"),
    ("Никто", "ход готов", "вы не участвуете в этой игре"),
])
def test_refusals_name_the_reason(state, sender, line, reason):
    verdict = one(state, sender, line)
    if reason is None:
        assert verdict.ok and verdict.order == Move(2, "pannonia", "dacia", None)
        return
    assert not verdict.ok
    assert verdict.reason.startswith(reason), verdict.reason


def test_unknown_names_come_with_the_nearest_ones(state):
    assert one(state, "Хан", "2 из Паннонии в Дакии Нижней").reason == \
        "неизвестная провинция «Дакии Нижней»; возможно: Дакия"
    assert one(state, "Хан", "2 из Паннонии в Дациа").reason == \
        "неизвестная провинция «Дациа»; возможно: Далмация, Дакия"


def test_a_tribe_may_not_use_a_purple_sea_link(state):
    zorro_state = RULES.setup(setup_of({"scenario": str(SMALL_MAP), "players": PLAYERS,
                               "people": {"italia": {"gunny": 2, "zapadnaya_rim": 12}}}), seed=3)
    assert one(zorro_state, "Зорро", "2 из Италии в Африку").reason == "пурпурный морской путь доступен только государствам"
    assert one(zorro_state, "Зорро", "2 из Италии в Далмацию").ok          # a blue link is for everyone


def test_a_master_orders_his_subjugated_tribe_by_naming_it(state):
    assert one(state, "Зорро", "4 аланов из Сарматии в Дакию, атакуя остготов").ok
    assert one(state, "Хан", "4 аланов из Сарматии в Дакию").reason == "Аланы — не ваш народ"
    assert one(state, "Зорро", "4 аланов из Сарматии в Дакию, атакуя гуннов").reason.startswith("Гунны — ваш же народ")


def test_moves_of_one_pm_share_the_people_there(state):
    first, second = read(state, "Хан", "3 из Паннонии в Дакию\n3 из Паннонии в Норик")
    assert first.ok and not second.ok
    assert second.reason == "в Паннонии 5 чел. (Вестготы), из них ещё не отправлено 2"


def test_a_later_pm_replaces_the_orders_of_the_same_group(state):
    (verdict,) = read(state, "Хан", "5 из Паннонии в Норик", earlier=["3 из Паннонии в Дакию\nход готов"])
    assert verdict.ok and verdict.canonical.endswith("(заменяет прежний приказ)")
    pms = [OrderPm("Хан", "3 из Паннонии в Дакию\nход готов"), OrderPm("Хан", "5 из Паннонии в Норик")]
    (orders,) = collect(state, TURN, pms).values()
    assert orders.orders == (Ready(), Move(5, "pannonia", "noricum", None))
    assert orders.ready


def test_the_turn_ends_early_once_every_player_is_ready(state):
    ready = [OrderPm(nick, "ход готов") for nick in ("Аскон", "Хан", "Зорро")]
    assert not RULES.complete_early(state, TURN, ready)
    assert not RULES.complete_early(state, TURN, ready + [OrderPm("Тора", "объявить независимость в Аксуме")])
    assert RULES.complete_early(state, TURN, ready + [OrderPm("Тора", "Ход готов!")])


def test_stay_and_retreat_orders_for_a_commanded_tribe_start_with_its_name(state):
    stay, retreat = read(state, "Зорро", "Аланы: Сарматия: атаковать всех\nаланы: отступать из Сарматии в Дакию")
    assert stay.order == Stay("sarmatia", "alany", ATTACK_ALL) and stay.canonical == "Аланы: Сарматия: атаковать всех"
    assert retreat.order == Retreat("sarmatia", "dacia", "alany")
    assert one(state, "Хан", "Аланы: Сарматия: бездействовать").reason == "Аланы — не ваш народ"


TOKENS = ("3", "0", "-1", "99999999999", "из", "в", "во", "на", ",", ":", "Паннонии", "Норик", "Дакию",
          "атакуя", "всех", "мирно", "вестготов", "аланов", "и", "встретить", "боем", "приходящих",
          "атаковать", "бездействовать", "отступать", "присоединить", "оставить", "регион", "Иллирик",
          "ассимилировать", "сделать", "государством", "столица", "событие", "вариант", "а", "ход", "готов",
          "объявить", "независимость", "[b]", "ё", "\u200b", "(", ")", "«", "»", "Аланы:")
SHAPES = ("{n} из {p} в {p}", "{n} из {p} в {p}, атакуя {f}", "{n} {f} из {p} в {p} атакуя всех",
          "{p}: встретить боем {f} и {f}", "{p}: атаковать всех", "отступать из {p} в {p}", "присоединить {p}",
          "оставить {p}", "ассимилировать {f} в {p}", "сделать государством {f}, столица {p}",
          "объявить независимость в {p}", "{f}: {p}: бездействовать")
PLACES = ("Паннонии", "Норик", "Дакию", "Италия", "в Сарматии", "Рим", "Мордор", "Далмацией")
PEOPLES = ("вестготов", "Аланы", "гуннам", "ЗРИ", "Византию", "марсиан", "готов-тервингов")


def _line(rng) -> str:
    if rng.random() < 0.5:
        return " ".join(rng.choice(TOKENS) for _ in range(rng.randint(1, 9)))
    shape = rng.choice(SHAPES)
    while "{" in shape:
        slot = shape[shape.index("{"):shape.index("}") + 1]
        value = {"{n}": str(rng.choice((1, 2, 3, 7, 0))), "{p}": rng.choice(PLACES), "{f}": rng.choice(PEOPLES)}[slot]
        shape = shape.replace(slot, value, 1)
    return shape


def test_no_line_of_order_words_breaks_the_reader(state):
    """Seeded random lines, half of them shaped like orders: each is understood or refused with
    a reason, and what is understood reads back the same from its canonical form."""
    import random

    from forumgm.engines.bellum.orders import book_of
    from forumgm.parsers.orders.bellum import parse_line

    book = book_of(state, 1)
    rng = random.Random(11)
    understood = 0
    for _ in range(1500):
        line = _line(rng)
        assert all(v.ok or v.reason for v in read(state, rng.choice(("Хан", "Аскон", "Зорро")), line))
        verdict = parse_line(line, book)
        if verdict.ok:
            understood += 1
            again = parse_line(verdict.canonical, book)
            assert again.ok and again.order == verdict.order, (line, verdict.canonical)
    assert understood > 300
