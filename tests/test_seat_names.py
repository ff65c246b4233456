"""A replaced seat is named in orders and votes by the account holding it too (OrderPm.seat_names):
from the replacement's moment on, «Атака 3 Новичок» is an attack on the seat Новичок took over,
in every game whose orders name players (Bellum's orders name provinces and factions only). Before
it, the new account is nobody, so a re-run reads an earlier PM as it was read."""
from __future__ import annotations

from datetime import datetime, timezone

import pytest

from forumgm.config import load_texts
from forumgm.daemon.settings.games import rules_for
from forumgm.daemon.store.seats import seats_of
from forumgm.engines.base import OrderPm, Phase, PhaseInputs
from forumgm.parsers.names import Roster, resolve_name

NEW = "Новичок"
TAKEN_OVER = datetime(2026, 3, 4, 14, tzinfo=timezone.utc)


def held(seat: str) -> tuple[tuple[str, str], ...]:
    return ((NEW, seat),)


@pytest.fixture(scope="module")
def texts():
    return load_texts()


# ---------------------------------------------------------------- Legends: night orders

LEGENDS = rules_for("legends")
LEGENDS_STATE = LEGENDS.setup({"players": [{"nick": n, "role": r} for n, r in
                                           {"Аскон": "Бес", "gosha100": "Мантикора", "Robozik": "Дракон",
                                            "Кума": "Единорог"}.items()]}, 7)
NIGHT = Phase("night", 2)      # night 1 bans attacks


def test_a_legends_order_names_a_replaced_seat_by_its_new_account():
    pm = OrderPm("Robozik", f"Атака 5 {NEW}", seat_names=held("gosha100"))
    [verdict] = LEGENDS.read_orders(LEGENDS_STATE, NIGHT, pm, [])
    assert verdict.ok, verdict
    assert verdict.order.target == "gosha100"
    # declined, as players write any name
    [joint] = LEGENDS.read_orders(LEGENDS_STATE, NIGHT, OrderPm("Аскон", f"Шпионаж {NEW}а", seat_names=held("gosha100")), [])
    assert joint.ok and joint.order.target == "gosha100"


def test_before_the_replacement_the_new_account_is_nobody():
    [verdict] = LEGENDS.read_orders(LEGENDS_STATE, NIGHT, OrderPm("Robozik", f"Атака 5 {NEW}"), [])
    assert not verdict.ok and NEW in verdict.reason


def test_the_night_resolves_the_order_against_the_seat(texts):
    pm = OrderPm("Robozik", f"Атака 5 {NEW}", "pm-1", seat_names=held("gosha100"))
    outcome = LEGENDS.resolve(LEGENDS_STATE, NIGHT, PhaseInputs(orders=(pm,)), 7, texts)
    attacks = [e.data for e in outcome.events if e.type == "attack"]
    assert attacks and all(a["target"] == "gosha100" for a in attacks), outcome.events


def test_a_legends_thread_vote_names_the_seat_by_its_account_from_the_replacement_on():
    seats = seats_of([("Аскон", ()), ("gosha100", ("гоша",)), ("Robozik", ()), ("Кума", ())],
                     [{"seat": "gosha100", "old_nick": "gosha100", "new_nick": NEW, "at": TAKEN_OVER}])
    assert seats.names(TAKEN_OVER) == ((NEW, "gosha100"),)
    assert seats.names(datetime(2026, 3, 4, 13, tzinfo=timezone.utc)) == ()
    assert resolve_name(f"{NEW}у", seats.roster(TAKEN_OVER)).nick == "gosha100"
    assert not resolve_name(NEW, seats.roster(datetime(2026, 3, 4, 13, tzinfo=timezone.utc))).ok


# ---------------------------------------------------------------- Mafia: PM votes and night actions

MAFIA = rules_for("mafia")
NICKS = ["Аскон", "Хан", "Лиса", "Бук", "Зорро", "Тора", "Марк", "Кума"]
ROLES = ["Комиссар", "Доктор", "Босс мафии", "Мафиози", "Маньяк", "Мирный житель", "Мирный житель", "Мирный житель"]
MAFIA_STATE = MAFIA.setup({"players": [{"nick": n, "role": r} for n, r in zip(NICKS, ROLES)]}, 1)
ROUND = Phase("round", 1)


def test_a_mafia_vote_and_action_name_a_replaced_seat_by_its_new_account():
    pm = OrderPm("Хан", f"голос: {NEW}\nлечить {NEW}а", seat_names=held("Кума"))
    verdicts = MAFIA.read_orders(MAFIA_STATE, ROUND, pm, [])
    assert [v.ok for v in verdicts] == [True, True], verdicts
    assert [v.order.target for v in verdicts] == ["Кума", "Кума"]
    tally = MAFIA.pm_vote_tally(MAFIA_STATE, ROUND, [pm])
    assert [(v.voter, v.target) for v in tally.counted] == [("Хан", "Кума")]
    unknown = MAFIA.read_orders(MAFIA_STATE, ROUND, OrderPm("Хан", f"голос: {NEW}"), [])
    assert not unknown[0].ok


# ---------------------------------------------------------------- Arena: a card's opponent

ARENA = rules_for("arena")
ARENA_STATE = ARENA.setup({"fighters": [{"nick": "Аскон", "weapon": "гладий"}, {"nick": "Хан", "weapon": "гладий"},
                                        {"nick": "Кума"}]}, 1)


def test_an_arena_card_names_a_replaced_fighter_by_its_new_account():
    pm = OrderPm("Хан", f"ПР: Выпад(голова, {NEW}у)", seat_names=held("Кума"))
    verdict, *_rests = ARENA.read_orders(ARENA_STATE, Phase("step", 1), pm, [])
    assert verdict.ok, verdict
    assert verdict.order.items[0].target == "Кума"
    [unknown] = ARENA.read_orders(ARENA_STATE, Phase("step", 1), OrderPm("Хан", f"ПР: Выпад(голова, {NEW})"), [])
    assert not unknown.ok and NEW in unknown.reason


def test_a_name_a_seat_has_already_keeps_its_player():
    roster = Roster(("Аскон", "Кума"), {"Кумушка": "Кума"})
    assert roster.also_named([("Кумушка", "Аскон"), (NEW, "Аскон"), (NEW, "Кума")]).aliases == {
        "Кумушка": "Кума", NEW: "Аскон"}
    assert roster.also_named([]) is roster
