"""A 30-player game over several nights: determinism, snapshots, and reports that keep secrets."""
import json
import tomllib

from forumgm.config import load_texts, read_rule_table
from forumgm.daemon.offline.simulate import run_scenario
from forumgm.engines.base import OrderPm, Phase, PhaseInputs
from forumgm.engines.legends import make_rules
from legends_helpers import SCENARIOS, night, play

RULES = make_rules(read_rule_table("legends"))
ALL_ROLES = {role for clan in read_rule_table("legends")["clans"].values()
             for rank, roles in clan.items() if rank != "name" for role in roles}


def game30(seed=None) -> dict:
    with open(SCENARIOS / "game30.toml", "rb") as handle:
        scenario = tomllib.load(handle)
    if seed is not None:
        scenario["seed"] = seed
    return scenario


def test_same_seed_same_json():
    first = json.dumps(run_scenario(game30()), ensure_ascii=False, sort_keys=True)
    assert first == json.dumps(run_scenario(game30()), ensure_ascii=False, sort_keys=True)


def test_the_game_is_played_out_over_several_nights():
    result = run_scenario(game30())
    phases = result["phases"]
    kinds = [(p["kind"], p["number"]) for p in phases]
    assert kinds == [("night", 1), ("day", 1), ("night", 2), ("day", 2), ("night", 3), ("day", 3), ("night", 4),
                     ("day", 4), ("night", 5)]
    # only the living act, and every order they wrote is understood
    assert all(line["ok"] for p in phases for lines in p["receipts"].values() for line in lines)
    assert not [e for p in phases for e in p["events"] if e["type"] in ("orders_ignored", "not_executed")]
    dead = [e["nick"] for p in phases for e in p["eliminated"]]
    assert len(dead) == len(set(dead)) == 30 - len(result["alive"]) == 19
    assert [bool(p["eliminated"]) for p in phases if p["kind"] == "night"] == [False, True, True, True, True]
    # day 2 lynches, day 3 lynches the second place behind an immune leader, day 4 has an immune leader
    # and no lynchable second place
    assert [(p["lynched"] is not None, p["immune_leader"] is not None) for p in phases if p["kind"] == "day"] == [
        (False, False), (True, False), (True, True), (False, True)]
    spells = [(e["type"], e["ok"]) for p in phases for e in p["events"] if e["type"] in ("spell_exchange", "spell_cast")]
    assert spells == [("spell_exchange", True), ("spell_cast", True)]
    assert sum(1 for p in phases for pm in p["pms"] if pm["kind"] == "role_reveal") == len(set(
        pm["to"] for p in phases for pm in p["pms"] if pm["kind"] == "role_reveal"))   # one reveal per player


def test_roles_are_dealt_by_the_seed():
    state = RULES.setup(game30()["setup"], 2026)
    assert sorted(p.role for p in state.players) == sorted(ALL_ROLES)
    other = RULES.setup(game30()["setup"], 2027)
    assert [p.role for p in state.players] != [p.role for p in other.players]
    # each spell starts with a player of another clan
    for spell, holder in state.spells:
        assert holder is not None and state.player(holder).clan != state.table.spells[spell].clan


def test_no_report_names_a_role_or_leaks_a_spy():
    result = run_scenario(game30())
    for phase in result["phases"]:
        for name, text in phase["reports"].items():
            assert not any(role in (text or "") for role in ALL_ROLES), (phase["kind"], phase["number"], name)
    phase = play({"Аскон": "Вампир", "Ильмаринен": "Пегас"}, night(1, Ильмаринен="Шпионить Аскон"))["phases"][0]
    assert "Аскон" in phase["reports"]["literary"] and "Ильмаринен" not in phase["reports"]["literary"]


def test_literary_phrasing_varies_with_the_seed():
    texts = {play({"Аскон": "Вампир", "Robozik": "Монах", "Кума": "Гном"},
                  night(2, Аскон="Атака Robozik"), seed=seed)["phases"][0]["reports"]["literary"]
             for seed in range(8)}
    assert len(texts) > 1 and all("Robozik" in text for text in texts)


def test_snapshot_round_trip_resumes_identically():
    texts = load_texts()
    scenario = game30()
    state = RULES.setup(scenario["setup"], scenario["seed"])
    restored = RULES.load(json.loads(json.dumps(RULES.dump(state))))
    assert restored == state
    orders = tuple(OrderPm(nick, text) for nick, text in scenario["phases"][2]["orders"].items())
    a = RULES.resolve(state, Phase("night", 2), PhaseInputs(orders=orders), 5, texts)
    b = RULES.resolve(restored, Phase("night", 2), PhaseInputs(orders=orders), 5, texts)
    assert a.events == b.events and RULES.dump(a.state) == RULES.dump(b.state)


def test_phase_sequence_and_continuous_regime():
    state = RULES.setup({"players": [{"nick": "A", "role": "Вампир"}, {"nick": "B", "role": "Дракон"}]}, 1)
    assert RULES.first_phase(state) == Phase("night", 1)
    assert RULES.next_phase(state, Phase("night", 1)) == Phase("day", 1)
    assert RULES.next_phase(state, Phase("day", 1)) == Phase("night", 2)
    assert RULES.vote_rules(state, Phase("day", 1)) is None
    assert RULES.vote_rules(state, Phase("day", 2)).candidates == {"A", "B"}
    immune = RULES.setup({"players": [{"nick": n, "role": r} for n, r in
                                      (("A", "Вампир"), ("E", "Эфрит"), ("B", "Дракон"), ("G", "Гидра"))],
                          "dead": ["E", "G"]}, 1)
    outcome = RULES.resolve(immune, Phase("day", 2), PhaseInputs(), 1, load_texts())
    assert [e.type for e in outcome.events][-1] == "continuous_regime"
    continuous = outcome.state
    assert RULES.next_phase(continuous, Phase("night", 3)) == Phase("night", 4)
    assert RULES.vote_rules(continuous, Phase("day", 3)) is None
    assert not RULES.complete_early(continuous, Phase("night", 3), [OrderPm("A", "Защита 1")])
    assert RULES.complete_early(continuous, Phase("night", 3), [OrderPm("A", "x"), OrderPm("B", "y")])
    assert not RULES.complete_early(state, Phase("night", 3), [OrderPm("A", "x"), OrderPm("B", "y")])


def test_a_secret_that_leaked_to_two_spies_is_told_once():
    players = {"Аскон": "Вампир", "Ильмаринен": "Пегас", "Кума": "Гном"}
    literary = play(players, night(1, Ильмаринен="Шпионить Аскон", Кума="Шпионить Аскон"))["phases"][0][
        "reports"]["literary"]
    assert literary.count("Аскон") == 1 and "Ильмаринен" not in literary and "Кума" not in literary
