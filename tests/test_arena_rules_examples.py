"""The rules' own statements with numbers in them, each played through `simulate` exactly as
written: optional rests, the reach of a kick and of a throw, a long weapon too close, wounds
that do not add up, and «тяжёлое ранение = 2 ранения = 4 лёгких ранения» for armour."""
from __future__ import annotations

import pytest

from forumgm.daemon.offline.simulate import run_scenario


def duel(texts, orders: dict, steps: int, dice=(), distance: int = 1, **cards) -> dict:
    fighters = [{"nick": "Аскон", **cards.get("Аскон", {})}, {"nick": "Хан", **cards.get("Хан", {})}]
    phases = [{"kind": "step", "number": n, **({"orders": orders} if n == 1 else {})} for n in range(1, steps + 1)]
    return run_scenario({"game": "arena", "seed": 1, "phases": phases,
                         "setup": {"fighters": fighters, "dice": list(dice), "distance": distance}}, texts)


def stack_cards(out: dict, nick: str, hand: str) -> str:
    return next(e["cards"] for e in out["phases"][0]["events"]
                if e["type"] == "stack" and e["nick"] == nick and e["hand"] == hand)


def attacks(out: dict) -> list[dict]:
    return [e for phase in out["phases"] for e in phase["events"] if e["type"] == "attack"]


def test_a_cut_may_leave_out_its_rest_after_a_sequence_that_ended_with_one(texts):
    out = duel(texts, {"Хан": "ПР: Выпад(голова) X S(тело)"}, 1, Хан={"weapon": "гладий"})
    assert stack_cards(out, "Хан", "right") == "X L(голова) X X S(тело) X"
    assert out["phases"][0]["receipts"]["Хан"][0]["ok"]


def test_without_a_rest_before_it_the_short_cut_is_no_sequence(texts):
    out = duel(texts, {"Хан": "ПР: Блок(тело) X S(тело)"}, 1)
    refused = [r for r in out["phases"][0]["receipts"]["Хан"] if not r["ok"]]
    assert refused[0]["line"] == "Правая рука, карта 3 (S(тело))"
    assert refused[0]["reason"].startswith("«S X X X» не складывается ни в одну последовательность")


def test_a_kick_reaches_one_sector_only(texts):
    out = duel(texts, {"Хан": "ПР: Удар(голова)"}, 1, distance=2)
    (kick,) = attacks(out)
    assert (kick["code"], kick["outcome"], kick["range"]) == ("K", "out_of_range", [1, 1])


def test_a_long_weapon_too_close_still_kicks_but_cannot_lunge(texts):
    out = duel(texts, {"Хан": "ПР: Удар(тело), Выпад(тело)"}, 6, dice=[6, 6, 6, 1], Хан={"weapon": "пика"})
    kick, lunge = attacks(out)
    assert (kick["code"], kick["outcome"], kick["damage"]) == ("K", "hit", 3)
    assert (lunge["code"], lunge["outcome"], lunge["range"]) == ("L", "out_of_range", [3, 4])


@pytest.mark.parametrize("distance, rating, outcome", [(1, 2, "out_of_range"), (4, 2, "thrown"),
                                                       (5, 2, "out_of_range"), (5, 3, "thrown")])
def test_a_throw_reaches_from_two_to_two_plus_the_attack_rating(texts, distance, rating, outcome):
    out = duel(texts, {"Хан": "ПР: Бросок(тело)"}, 2, dice=[6], distance=distance,
               Хан={"weapon": "копьё", "attack_rating": rating})
    throws = [e for phase in out["phases"] for e in phase["events"] if e["type"] == "throw"]
    if outcome == "thrown":
        (throw,) = throws
        assert (throw["needed"], throw["hit"]) == (4 - (distance - 2), False)
    else:
        assert throws == [] and attacks(out)[0]["outcome"] == "out_of_range"


def test_wounds_do_not_add_up(texts):
    # two light wounds to the head (3 damage each against DEF 3) stay two light wounds
    out = duel(texts, {"Хан": "ПР: Выпад(голова), Выпад(голова)"}, 5, dice=[6, 6, 1, 1, 6, 6, 1, 1],
               Хан={"weapon": "гладий"})
    summary = [e for e in out["phases"][-1]["events"] if e["type"] == "summary"][0]
    askon = next(f for f in summary["fighters"] if f["nick"] == "Аскон")
    assert [w["name"] for w in askon["wounds"]] == ["лёгкое ранение", "лёгкое ранение"]
    assert (askon["attack_dice"], askon["defense_dice"], askon["move_dice"]) == (4, 3, 3)


@pytest.mark.parametrize("damage_dice, level, units", [([6, 6, 6, 6], 2, 2), ([6, 6, 6, 1], 1, 1)])
def test_armour_wear_counts_a_wound_as_two_light_wounds(texts, damage_dice, level, units):
    # a lunge on the shield-blocked body: the shield takes the wound unreduced
    dice = damage_dice + [1, 1, 1, 1, 1]
    out = duel(texts, {"Хан": "ПР: Выпад(тело)", "Аскон": "ЛР: X Блок(тело)"}, 2, dice=dice,
               Аскон={"left": "щит", "defense_dice": 2}, Хан={"weapon": "гладий"})
    (wear,) = [e for e in out["phases"][1]["events"] if e["type"] == "armour"]
    assert (wear["took"], wear["damage"]) == (level, units)
