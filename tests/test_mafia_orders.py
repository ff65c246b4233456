"""The mafia order grammar: canonical forms, synonyms, case forms, refusals."""
from __future__ import annotations

import pytest

from forumgm.parsers.names import Roster
from forumgm.parsers.orders.mafia import NightOrder, NoTrial, Vote, command_of, parse_orders

ROSTER = Roster(("Аскон", "Хан", "Лиса", "Зорро", "LiveEvil", "Есенин-Драйзер", "Игорь"), {"Аск": "Аскон"})


@pytest.mark.parametrize("line, order, canonical", [
    ("голос: Аскон", Vote("Аскон"), "голос: Аскон"),
    ("голосую за Аскона", Vote("Аскон"), "голос: Аскон"),
    ("Голос Лису", Vote("Лиса"), "голос: Лиса"),
    ("голос за Аск", Vote("Аскон"), "голос: Аскон"),
    ("голос: «Есенин-Драйзер».", Vote("Есенин-Драйзер"), "голос: Есенин-Драйзер"),
    ("не судить", NoTrial(), "не судить"),
    ("Голос: не судить!", NoTrial(), "не судить"),
    ("проверить Зорро", NightOrder("check", "Зорро"), "проверить Зорро"),
    ("проверка Хана", NightOrder("check", "Хан"), "проверить Хана"),
    ("лечить Лису", NightOrder("heal", "Лиса"), "лечить Лису"),
    ("лечение Аскона", NightOrder("heal", "Аскон"), "лечить Аскона"),
    ("вылечить Хана", NightOrder("heal", "Хан"), "лечить Хана"),
    ("лечу себя", NightOrder("heal", "Хан"), "лечить Хана"),
    ("блокировать Лису", NightOrder("block", "Лиса"), "блокировать Лису"),
    ("блок Зорро", NightOrder("block", "Зорро"), "блокировать Зорро"),
    ("убить LiveEvil'а", NightOrder("kill", "LiveEvil"), "убить LiveEvil"),
    ("выстрел в Лису", NightOrder("kill", "Лиса"), "убить Лису"),
    ("убийство Зорро", NightOrder("kill", "Зорро"), "убить Зорро"),
    ("выстрелить в Лису", NightOrder("kill", "Лиса"), "убить Лису"),
    ("Заблокирую Хана", NightOrder("block", "Хан"), "блокировать Хана"),
    ("проверю Лису", NightOrder("check", "Лиса"), "проверить Лису"),
    # the receipts echoed «• убить Лиса», «• блокировать Игорь», «лечить Игорь»
    ("убить Лису", NightOrder("kill", "Лиса"), "убить Лису"),
    ("блокировать Игоря", NightOrder("block", "Игорь"), "блокировать Игоря"),
    ("лечить Игорь", NightOrder("heal", "Игорь"), "лечить Игоря"),
    # the rules' own words and list markers in front of an order
    ("Дневной голос: Лиса", Vote("Лиса"), "голос: Лиса"),
    ("Ночное действие: лечу себя", NightOrder("heal", "Хан"), "лечить Хана"),
    ("2) ночное действие — проверить Зорро", NightOrder("check", "Зорро"), "проверить Зорро"),
    ("- голос: Аскон", Vote("Аскон"), "голос: Аскон"),
    ("1. голосую за Зорро", Vote("Зорро"), "голос: Зорро"),
    ("* блок Лисы", NightOrder("block", "Лиса"), "блокировать Лису"),
    ("голосую за не судить", NoTrial(), "не судить"),
    ("Голос: «Не судить»", NoTrial(), "не судить"),
    ("мой голос — не судить.", NoTrial(), "не судить"),
])
def test_orders_in_every_accepted_form(line, order, canonical):
    [verdict] = parse_orders(line, "Хан", ROSTER)
    assert verdict.ok, verdict
    assert (verdict.order, verdict.canonical) == (order, canonical)


def test_one_order_a_line_vote_and_night_action_together():
    verdicts = parse_orders("голос: Лиса\n\n  лечу себя  \n", "Хан", ROSTER)
    assert [v.order for v in verdicts] == [Vote("Лиса"), NightOrder("heal", "Хан")]


def test_unknown_player_is_refused_with_candidates():
    [verdict] = parse_orders("голос: Асколон", "Хан", Roster(("Аскон", "Аскольд"), {}))
    assert not verdict.ok
    assert verdict.reason == "неизвестный игрок «Асколон»; возможно: Аскон, Аскольд"


def test_a_line_that_is_no_order_is_refused_not_dropped():
    [verdict] = parse_orders("доброе утро, ведущий", "Хан", ROSTER)
    assert not verdict.ok and verdict.reason.startswith("команда не распознана")


@pytest.mark.parametrize("line, command", [
    ("голос: кто-то", "vote"), ("не судить", "no_trial"), ("выстрел в Лису", "kill"), ("привет", None),
    ("- голос: кто-то", "vote"), ("Ночное действие: лечить кого-то", "heal"), ("ночное действие: нет", None),
    ("• голос: кто-то", None)])          # a receipt's line, quoted in a reply: not an order again
def test_command_of_names_the_shape_of_a_line(line, command):
    assert command_of(line) == command
