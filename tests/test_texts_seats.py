"""A seat another account holds now (forumgm replace) is written as that account and agrees with
its player's gender, in every sentence: a template's names, a phrase bank's and the filters'."""
from __future__ import annotations

import pytest

from forumgm.config import load_texts
from forumgm.daemon.offline.simulate import run_scenario
from forumgm.daemon.store.seats import seats_of
from proofreader import disagreements, proofread

PLAYERS = [{"nick": "Жанна", "role": "Вампир", "gender": "f"}, {"nick": "gosha100", "role": "Мантикора"},
           {"nick": "Robozik", "role": "Монах"}]
ORDERS = {"gosha100": "Совместно с Robozik (Монах) атакую магией Жанну.",
          "Robozik": "Совместно с gosha100 (Мантикора) атакую магией Жанну."}


def night(texts, seed):
    scenario = {"game": "legends", "seed": seed, "setup": {"players": PLAYERS, "spells": {"Жанна": ["Молитва"]}},
                "phases": [{"kind": "night", "number": 2, "orders": ORDERS}]}
    return run_scenario(scenario, texts)["phases"][0]["reports"]


@pytest.mark.parametrize("seed", range(1, 7))
def test_a_seat_held_by_a_man_is_told_in_the_masculine_by_his_nick(seed):
    """Жанна's seat held by Игорь: the phrase banks wrote «Жанна пала» (the seat's id, her gender)."""
    texts = load_texts().showing({"Жанна": "Игорь"})               # Игорь: guessed m
    reports = night(texts, seed)
    for text in reports.values():
        if text:
            assert "Жанн" not in text, text
            proofread(text, {"Игорь": "m"})
    assert "Игор" in reports["literary"] and "переходит от Игоря к" in reports["technical"]


@pytest.mark.parametrize("seed", range(1, 7))
def test_the_hosts_gender_for_the_holder_wins_and_an_unknown_one_needs_no_gendered_word(seed):
    given = night(load_texts().showing({"Жанна": "Саша"}, {"Жанна": "m"}), seed)["literary"]
    proofread(given, {"Саша": "m"})
    unknown = night(load_texts().showing({"Жанна": "Хан"}), seed)["literary"]
    assert "Хан" in unknown and disagreements(unknown, {"Хан": "m"}) == disagreements(unknown, {"Хан": "f"}) == []


def test_a_seat_knows_the_gender_given_to_each_of_its_holders():
    from datetime import datetime
    rows = [{"seat": "Жанна", "old_nick": "Жанна", "new_nick": "Игорь", "at": datetime(2026, 3, 2), "gender": None},
            {"seat": "Жанна", "old_nick": "Игорь", "new_nick": "Саша", "at": datetime(2026, 3, 4), "gender": "f"}]
    seats = seats_of([("Жанна", ()), ("Хан", ())], rows)
    assert seats.holders(datetime(2026, 3, 3)) == {"Жанна": "Игорь"}
    assert seats.holder_genders(datetime(2026, 3, 3)) == {"Жанна": None}
    assert seats.holder_genders() == {"Жанна": "f"} and seats.holder_genders(datetime(2026, 3, 1)) == {}
