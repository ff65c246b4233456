"""Bellum's texts as a Russian reader reads them: states and peoples agree in number and gender
with their names, provinces and peoples declined after prepositions, numbers agree, the chronicle
tells the years and never repeats a phrase."""
from __future__ import annotations

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
    assert "мезия переходит под власть восточной римской империи." in low or \
        "власть восточной римской империи распространилась на мезию." in low
    assert "галльская империя вновь свободна; её оплот — дакия." in low or "знамя независимости: галльская империя" in low
    assert "гепиды покорились вандалам." in low or "над гепидами установлена власть вандалов." in low
    assert repeated_lines(text) == []
    assert len(text.splitlines()) == 2 + 1 + len(told) + 1          # title, blank, opening, highlights, closing


def test_a_quiet_turn_says_so_in_another_line_each_turn(texts):
    quiet = [chronicle(texts, [], turn=turn).splitlines()[-1] for turn in range(1, 6)]
    assert all(len(set(quiet[i:i + 4])) == 4 for i in range(2))


def test_a_receipt_names_peoples_and_provinces_in_their_cases():
    """«атакуя Гепид», «отступать из Дакии в Языгия» were the receipts' forms."""
    from forumgm.parsers.orders.bellum import inflect
    assert f"атакуя {inflect('Гепиды', 'accs', place=False)}" == "атакуя Гепидов"
    assert f"отступать из {inflect('Дакия', 'gent')} в {inflect('Языгия', 'accs')}" == "отступать из Дакии в Языгию"
