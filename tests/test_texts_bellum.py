"""Bellum's texts as a Russian reader reads them: states and peoples agree in number and gender
with their names, provinces and peoples declined after prepositions, numbers agree, the chronicle
tells the years and never repeats a phrase."""
from __future__ import annotations

import re

import pytest

from forumgm.engines.base import PhaseRng
from forumgm.engines.bellum.report import People, Place
from forumgm.engines.phrases import Agreement, Picker
from proofreader import repeated_lines

F = {"vandals": "Вандалы", "gepids": "Гепиды", "eri": "Восточная Римская Империя", "gaul": "Галльская империя"}
P = {"moesia": "Мезия", "dacia": "Дакия", "iazyges": "Языгия", "pannonia": "Паннония"}


def line(texts, **event) -> str:
    return texts.render("bellum/lines.j2", events=[event], sep="\x1e", F=F, P=P, R={}).split("\x1e")[0].strip()


def chronicle(texts, told, seed=1, turn=1):
    rng = PhaseRng(seed, "turn", turn)
    return texts.render("bellum/literary.j2", told=told, turn=turn, year=365 + 5 * turn, years=5,
                        picker=Picker(rng.stream("literary"), Agreement(), rng.game()), F=F, P=P, R={})


@pytest.mark.parametrize("count, words", [(1, "1 человек отступил"), (3, "3 человека отступили"),
                                          (5, "5 человек отступили"), (21, "21 человек отступил")])
def test_the_number_of_people_agrees_with_the_verb(texts, count, words):
    assert line(texts, type="retreated", faction="vandals", count=count, **{"from": "dacia", "to": "pannonia"}) == (
        f"Вандалы: {words}: Дакия → Паннония")


def test_a_plural_master_is_the_tribes_masters(texts):
    assert line(texts, type="subjugated", tribe="gepids", master="vandals", strength=7) == (
        "Гепиды: покорены, хозяева — Вандалы (сила 7)")
    assert line(texts, type="subjugated", tribe="gepids", master="eri", strength=7) == (
        "Гепиды: покорены, хозяйка — Восточная Римская Империя (сила 7)")


@pytest.mark.parametrize("seed", range(1, 9))
def test_the_chronicle_declines_and_agrees_with_states_and_peoples(texts, seed):
    told = [
        {"kind": "annexed", "nick": People(F["eri"]), "state": People(F["eri"]), "province": Place(P["moesia"])},
        {"kind": "independence", "nick": People(F["gaul"]), "state": People(F["gaul"]), "province": Place(P["dacia"])},
        {"kind": "subjugated", "nick": People(F["gepids"]), "tribe": People(F["gepids"]), "master": People(F["vandals"])},
    ]
    text = chronicle(texts, told, seed)
    assert text.startswith("[b]370–374 годы[/b]\n\n")
    assert "под власть: " not in text and "хозяин — Вандалы" not in text and "империя вновь свободны" not in text
    low = text.lower()         # a connective before a phrase lowercases its first word
    assert any(phrase in low for phrase in (
        "мезия переходит под власть восточной римской империи.", "власть восточной римской империи распространилась на мезию.",
        "знамёна восточной римской империи подняты над мезией.", "отныне мезия — владение восточной римской империи.")), text
    assert any(phrase in low for phrase in (
        "галльская империя вновь свободна; её оплот — дакия.", "над дакией вновь поднято знамя независимости: галльская империя.",
        "свобода вернулась в дакию: галльская империя — снова сила, с которой считаются.",
        "снова на карте — галльская империя; оплот возрождённой власти — дакия.")), text
    assert any(phrase in low for phrase in (
        "гепиды покорились вандалам.", "над гепидами установлена власть вандалов.", "власть вандалов признана и гепидами.",
        "ещё одно племя склонилось перед силой вандалов: гепиды.")), text
    assert repeated_lines(text) == []
    assert len(text.splitlines()) == 2 + 1 + len(told) + 1          # title, blank, opening, highlights, closing


def test_a_quiet_turn_says_so_in_another_line_each_turn(texts):
    quiet = [chronicle(texts, [], turn=turn).splitlines()[-1] for turn in range(1, 6)]
    assert all(len(set(quiet[i:i + 4])) == 4 for i in range(2))


def test_a_receipt_names_peoples_and_provinces_in_their_cases(texts):
    """«атакуя Гепид», «отступать из Дакии в Языгия» were the receipts' forms."""
    from forumgm.engines.base import OrderPm, Phase
    from forumgm.engines.bellum import RULES
    from forumgm.engines.receipts import receipt_text
    from tests.bellum_helpers import setup_of

    state = RULES.setup(setup_of({"scenario": "370", "players": [{"nick": "Хан", "faction": "Вестготы"}]}), seed=1)
    verdicts = RULES.read_orders(state, Phase("turn", 1), OrderPm("Хан", (
        "3 из Дакии в Языгию, атакуя гепидов и языгов\nотступать из Дакии в Языгию")), [])
    assert [v.canonical for v in verdicts] == ["3 из Дакии в Языгию, атакуя Гепидов и Языгов",
                                               "отступать из Дакии в Языгию"]
    assert "• 3 из Дакии в Языгию, атакуя Гепидов и Языгов\n• отступать из Дакии в Языгию" in receipt_text(
        "bellum", "Хан", verdicts, texts)


SKIRMISHES = [("vandaly", "gepidy", "dakiya"), ("gunny", "alany", "alaniya"), ("saksy", "vestgoty", "saksoniya"),
              ("ostgoty", "vandaly", "yazygiya"), ("alany", "gunny", "dakiya"), ("gepidy", "ostgoty", "frankiya")]


def test_six_skirmishes_are_three_lines_of_the_chronicle_each_in_its_own_phrase(texts):
    """The chronicle was five lines «В X Y берут верх над Z»: one kind is told at most three times
    (the rest stays in the technical report), each time in another phrase."""
    from forumgm.engines.bellum import RULES
    from forumgm.engines.bellum.chronicle import chronicle as selected
    from tests.bellum_helpers import setup_of

    state = RULES.setup(setup_of({"scenario": "370", "players": [{"nick": "Марк", "faction": "Евреи"}]}), seed=1)
    events = [{"type": "battle", "province": where, "winner": won, "winners": [won], "losers": [lost]}
              for won, lost, where in SKIRMISHES]
    kept = selected(state, events)
    assert [h["province"] for h in kept] == ["dakiya", "alaniya", "saksoniya"]
    names = {"vandaly": "Вандалы", "gepidy": "Гепиды", "gunny": "Гунны",
             "alany": "Аланы", "saksy": "Саксы", "vestgoty": "Вестготы"}
    places = {"dakiya": "Дакия", "alaniya": "Алания", "saksoniya": "Саксония"}
    for seed in range(1, 9):
        told = [{"kind": "battle", "nick": [People(names[h["winners"][0]])], "winners": [People(names[h["winners"][0]])],
                 "losers": [People(names[h["losers"][0]])], "province": Place(places[h["province"]])} for h in kept]
        lines = chronicle(texts, told, seed).splitlines()[3:-1]
        assert len(lines) == 3 and sum("берут верх" in line for line in lines) <= 1, lines
        frames = {re.sub(r"^(тем временем|в те же годы|вскоре|а между тем|тогда же) ", "",
                         re.sub(r"[А-Я]\w+", "X", line).casefold()) for line in lines}
        assert len(frames) == 3, lines
        proofread("\n".join(lines), {})


# ---------------------------------------------------------------- every name of the map, every number

from bellum_helpers import shipped_scenario  # noqa: E402
from forumgm.engines.phrases import noun_agreement  # noqa: E402
from forumgm.parsers.declension import people_case, place_case  # noqa: E402
from proofreader import nominative_after_preposition, proofread  # noqa: E402

SCENARIO = shipped_scenario()
# the map's peoples and states, and a state of each other gender a host's map or a kingdom may name
STATES = [f.name for f in SCENARIO.factions.values()] + ["Галльская империя", "Остготское королевство",
                                                         "Хазарский каганат"]
PLACES = [p.name for p in SCENARIO.provinces.values()]
REGIONS = [r.name for r in SCENARIO.regions.values()]
CASES = ("gent", "datv", "accs", "ablt", "loct")


def every_happening(subject: str, other: str, place: str, second: str, region: str) -> list[dict]:
    """One happening of every chronicle kind with `subject` acting, as TurnTexts.told makes them."""
    s, o, p, q = People(subject), People(other), Place(place), Place(second)
    return [
        {"kind": "war", "nick": s, "winners": s, "losers": o, "province": p},
        {"kind": "battle", "nick": s, "winners": s, "losers": o, "province": q},
        {"kind": "migration", "nick": s, "faction": s, "origin": p, "dest": q},
        {"kind": "kingdom", "nick": s, "tribe": s, "capital": p},
        {"kind": "independence", "nick": s, "state": s, "province": q},
        {"kind": "annexed", "nick": s, "state": s, "province": p},
        {"kind": "subjugated", "nick": s, "tribe": s, "master": o},
        {"kind": "freed", "nick": s, "tribe": s, "master": o},
        {"kind": "split", "nick": s, "tribe": s, "new": o},
        {"kind": "capital_lost", "nick": s, "state": s, "capital": q},
        {"kind": "secession", "nick": s, "state": s, "region": Place(region), "new": o},
        {"kind": "captured", "nick": s, "state": s, "province": p},
    ]


@pytest.mark.parametrize("index", range(len(STATES)))
def test_every_state_and_people_of_the_map_reads_right_in_every_chronicle_phrase(texts, index):
    """Every faction name of the 370 map (plural peoples, feminine states) and a neuter and a
    masculine state, as the subject of every kind of happening, over seeds that draw every phrase:
    verbs and short forms agree with the name, no name stands in the nominative after a preposition."""
    subject, other = STATES[index], STATES[(index + 7) % len(STATES)]
    place, second = PLACES[index % len(PLACES)], PLACES[(index * 5 + 3) % len(PLACES)]
    region = REGIONS[index % len(REGIONS)]
    forms = {subject: {c: people_case(subject, c) for c in CASES}, other: {c: people_case(other, c) for c in CASES},
             place: {c: place_case(place, c) for c in CASES}, second: {c: place_case(second, c) for c in CASES}}
    for seed in range(1, 6):
        text = chronicle(texts, every_happening(subject, other, place, second, region), seed)
        proofread(text, {subject: noun_agreement(subject) or "m"})
        assert nominative_after_preposition(text, forms) == [], text


def test_several_winners_take_the_plural(texts):
    winners = [People("Восточная Римская империя"), People("Сассаниды")]
    told = [{"kind": "war", "nick": winners, "winners": winners, "losers": People("Гунны"), "province": Place("Армения")}]
    for seed in range(1, 6):
        text = chronicle(texts, told, seed)
        assert "Восточная Римская империя и Сассаниды разбили Гуннов" in text or (
            "Восточной Римской империи и Сассанид" in text), text
        proofread(text, {"Сассаниды": "pl"})


@pytest.mark.parametrize("count, people, lost, turns", [
    (1, "1 человек отступил", "1 человеку некуда отступить из провинции Дакия — он потерян", "1 ход подряд"),
    (2, "2 человека отступили", "2 людям некуда отступить из провинции Дакия — они потеряны", "2 хода подряд"),
    (5, "5 человек отступили", "5 людям некуда отступить из провинции Дакия — они потеряны", "5 ходов подряд"),
    (11, "11 человек отступили", "11 людям некуда отступить из провинции Дакия — они потеряны", "11 ходов подряд"),
    (21, "21 человек отступил", "21 человеку некуда отступить из провинции Дакия — он потерян", "21 ход подряд"),
    (22, "22 человека отступили", "22 людям некуда отступить из провинции Дакия — они потеряны", "22 хода подряд"),
    (111, "111 человек отступили", "111 людям некуда отступить из провинции Дакия — они потеряны", "111 ходов подряд"),
])
def test_every_number_agrees_in_the_turn_lines(texts, count, people, lost, turns):
    assert line(texts, type="retreated", faction="vandals", count=count, **{"from": "dacia", "to": "pannonia"}).endswith(
        f"{people}: Дакия → Паннония")
    assert line(texts, type="retreat_lost", faction="vandals", count=count, **{"from": "dacia"}) == f"Вандалы: {lost}"
    assert line(texts, type="freed", tribe="gepids", master="eri", losing_turns=count) == (
        f"Гепиды: освобождены — Восточная Римская Империя терпела поражения {turns}")
