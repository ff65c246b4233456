"""Arena's commentary as a commentator tells a step: its decisive moment leads (a knockout, a
turn of fortune, first blood), the most interesting happenings are kept in their order and the rest
left to the technical report; and every text reads right over every kind of nick and gender."""
from __future__ import annotations

import pytest

from forumgm.daemon.offline.simulate import run_scenario
from forumgm.engines.arena.commentary import MOST, told
from forumgm.engines.phrases import guess_gender
from forumgm.parsers.names import decline
from proofreader import disagreements, nominative_after_preposition, proofread
from tests.test_arena_rules_examples import duel

CASES = {"gent": "родительный", "datv": "дательный", "accs": "винительный", "ablt": "творительный",
         "loct": "предложный"}


def _move(nick, direction="forward"):
    return {"type": "move", "nick": nick, "code": "W", "direction": direction, "blocked": None}


def test_the_decisive_blow_leads_and_the_least_interesting_is_left_to_the_technical_report():
    events = [_move("Хан"), _move("Кума", "back"), {"type": "turn", "nick": "Хан", "direction": "left"},
              {"type": "attack", "outcome": "out_of_range", "attacker": "Кума", "defender": "Хан", "code": "L"},
              {"type": "attack", "outcome": "zero", "attacker": "Хан", "defender": "Кума", "code": "L", "defense": "B"},
              {"type": "attack", "outcome": "hit", "attacker": "Хан", "defender": "Кума", "code": "L", "zone": "голова",
               "level": 3, "armour": []},
              {"type": "breakage", "broken": True, "nick": "Кума", "weapon": "меч"},
              {"type": "attack", "outcome": "no_target", "attacker": "Кума", "defender": "Дрон", "code": "L"},
              {"type": "wound", "nick": "Кума", "by": "Хан", "zone": "голова", "level": 3, "name": "тяжёлое ранение",
               "effects": ["knockout"]},
              {"type": "fighter_out", "nick": "Кума", "kind": "нокаут"}]
    story = told(events)
    assert story["headline"] == {"kind": "knockout", "nick": "Кума", "by": "Хан", "zone": "голова"}
    kept = [(e["type"], e.get("outcome")) for e in story["told"]]
    assert len(kept) == MOST
    # the step's order; a move and the turn dropped, the wound told with its blow, and the knockout
    # saying that Кума leaves the fight («падает без чувств»)
    assert kept == [("move", None), ("attack", "out_of_range"), ("attack", "zero"), ("attack", "hit"),
                    ("breakage", None), ("attack", "no_target")]
    assert story["told"][3]["wound"] == "тяжёлое ранение" and "knockout" in story["told"][3]["effects"]


def test_first_blood_and_a_turn_of_fortune_lead_their_steps(texts):
    """Хан wounds Аскон lightly at step 2; Аскон's heavier wound at step 4 gives him the advantage."""
    out = duel(texts, {"Хан": "ПР: Выпад(голова)", "Аскон": "ПР: X X Выпад(голова)"}, 4,
               dice=[6, 6, 1, 1, 6, 6, 6, 6], Хан={"weapon": "гладий"}, Аскон={"weapon": "гладий"})
    step2, step4 = (out["phases"][n]["reports"]["literary"].split("\n")[1] for n in (1, 3))
    assert step2.startswith("Первая кровь") and step2.endswith(
        "Хан проводит выпад в голову — Аскон получает лёгкое ранение.")
    assert step4 == "Чаша весов качнулась: теперь впереди Аскон! Аскон проводит выпад в голову — Хан получает ранение." \
        or step4 == "Перелом в бою: теперь преимущество у Аскона! Аскон проводит выпад в голову — Хан получает ранение."


KINDS = ["Аскон", "Крикс", "Кума", "Зорро", "gosha100", "Robozik", "Мастер Йода", "Ильмаринен", "Жанна"]


def fight(nick: str, gender: str | None, seed: int, texts) -> list[dict]:
    fighters = [{"nick": nick, "weapon": "гладий", "helmet": True, **({"gender": gender} if gender else {})},
                {"nick": "Хан", "weapon": "топор", "left": "щит"}, {"nick": "Лиса", "weapon": "копьё", "gender": "f"}]
    orders = {nick: "ПР: Выпад(голова, Хан), Выпад(тело, Лиса)", "Хан": f"ПР: Рубка(голова, {nick}), Рубка(тело, Лиса)",
              "Лиса": f"ПР: Выпад(тело, {nick}), Выпад(голова, Хан)"}
    phases = [{"kind": "step", "number": n, **({"orders": orders} if n == 1 else {})} for n in range(1, 8)]
    scenario = {"game": "arena", "seed": seed, "phases": phases, "setup": {"fighters": fighters, "distance": 1}}
    return [phase["reports"] for phase in run_scenario(scenario, texts)["phases"]]


@pytest.mark.parametrize("gender", ["m", "f", None])
@pytest.mark.parametrize("nick", KINDS)
def test_every_arena_text_reads_right_for_every_kind_of_fighter(texts, nick, gender):
    """Latin, declinable, «Крикс»-like, indeclinable, two-word and undeclined-by-the-dictionary
    nicks, of either gender or none, against a woman and a man: every past verb or short form after a
    nick agrees with it, and no nick that declines stands in the nominative after a preposition."""
    known = gender or guess_gender(nick)
    forms = {name: {short: decline(name, case, g) for short, case in CASES.items()}
             for name, g in ((nick, known), ("Хан", None), ("Лиса", "f"))}
    for seed in range(1, 4):
        for reports in fight(nick, gender, seed, texts):
            for kind, text in reports.items():
                if not text:
                    continue
                genders = {"Лиса": "f", **({nick: known} if known else {})}
                if kind == "literary":
                    proofread(text, genders)
                else:            # tables: a line such as «Раны: нет» stands once a fighter
                    assert "(а)" not in text and disagreements(text, genders) == [], text
                if known is None:
                    assert disagreements(text, {nick: "m"}) == disagreements(text, {nick: "f"}) == [], text
                assert nominative_after_preposition(text, forms) == [], text
                if kind == "technical" and "Стопка" in text:
                    assert f"Стопка {forms[nick]['gent']} (" in text


def test_a_golden_fight_of_four_reads_as_reviewed(texts):
    """A whole fight's commentary a native reader reviewed (a knockout, two surrenders, quiet steps)."""
    from pathlib import Path

    from forumgm.daemon.offline.simulate import load_scenario

    here = Path(__file__).parent
    out = run_scenario(load_scenario(here / "scenarios" / "arena" / "four_to_the_end.toml"), texts)
    text = "\n\n".join(phase["reports"]["literary"] for phase in out["phases"] if phase["reports"]["literary"]) + "\n"
    assert text == (here / "golden" / "arena_four_to_the_end.txt").read_text(encoding="utf-8")
