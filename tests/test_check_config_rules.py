"""A game's [rules] table is checked when its file is loaded: `check-config` and `run` list every
problem of it at once, beside the installation's own, each with its file, key and what is expected."""
from __future__ import annotations

import pytest

from forumgm.config import data_path
from forumgm.daemon.cli import main
from forumgm.daemon.settings.records import ConfigError
from forumgm.daemon.settings.games import rules_for
from forumgm.engines.base import SetupError
from mafia_daemon_support import example_installation

# per game: [rules] lines with problems that do not depend on each other, and what check-config says of each
BROKEN_RULES = {
    "mafia": ('first_night_armour = "yes"\nmissed_votes_out = 2.5\nno_trial = 1\n', [
        "rules.first_night_armour: expected true or false (got 'yes')",
        "rules.missed_votes_out: expected a whole number (got 2.5)",
        "rules.no_trial: unknown rule (expected one of roles, first_night_armour, no_trial_per_game, "
        "missed_votes_out)",
    ]),
    "legends": ('limits.theft_players = "many"\nday.policy = "middle"\n', [
        "rules.day.policy: expected last or first (got 'middle')",
        "rules.limits.theft_players: expected a whole number >= 0 (got 'many')",
    ]),
    "bellum": ('years_per_turn = "five"\nroll_low = 0\nbattle_losses = 2\nstate_factr = 3\n', [
        "rules.years_per_turn: expected a whole number (got 'five')",
        "rules.state_factr: unknown rule (expected one of years_per_turn, state_factor, roll_low, roll_high, "
        "battle_losses, freed_after, split_after, kingdom_province)",
        "rules.roll_low: expected 0 < roll_low <= roll_high, in hundredths (got 0 and 120)",
        "rules.battle_losses: expected a fraction from 0 to 1 (got 2.0)",
    ]),
    "arena": ('stack_size = 99\nhit_on = "x"\n[rules.weapons."меч"]\nrange = [3, 1]\nbreakage = 400\n', [
        "rules.weapons.меч.range: expected [min, max] in sectors, 0 ≤ min ≤ max (got [3, 1])",
        "rules.weapons.меч.breakage: expected a whole number 0…100 (got 400)",
        "rules.stack_size: expected a whole number 1…20 (got 99)",
        "rules.hit_on: expected a whole number (got 'x')",
    ]),
}


def with_rules(game: str, lines: str) -> str:
    """The shipped example game file with `lines` as its [rules] table (the examples' own is their last)."""
    text = data_path("games", f"{game}.example.toml").read_text(encoding="utf-8")
    return f"{text.partition(chr(10) + '[rules]')[0]}\n[rules]\n{lines}"


@pytest.mark.parametrize("game", sorted(BROKEN_RULES))
def test_check_config_lists_every_rules_problem_of_a_game_file_at_once(tmp_path, capsys, game):
    lines, said = BROKEN_RULES[game]
    path = tmp_path / f"{game}.toml"
    path.write_text(with_rules(game, lines), encoding="utf-8")
    assert main(["check-config", str(path)]) == 1
    out = capsys.readouterr()
    assert "ok" not in out.out
    assert out.err == "".join(f"{path}: {line}\n" for line in said) + f"{len(said)} problem(s)\n"


def test_the_example_games_rules_pass(tmp_path, capsys):
    for game in BROKEN_RULES:
        path = tmp_path / f"{game}.toml"
        path.write_text(with_rules(game, ""), encoding="utf-8")
        assert main(["check-config", str(path)]) == 0, capsys.readouterr().err


def test_installation_and_rules_problems_are_listed_together_by_check_config_and_run(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("FORUMGM_WEB_PASSWORD", "page secret")
    mafia_lines, mafia_said = BROKEN_RULES["mafia"]
    with pytest.raises(ConfigError):           # it writes the files, then loads them
        example_installation(tmp_path, monkeypatch, lambda text: with_rules("mafia", mafia_lines))
    config = tmp_path / "forumgm.toml"
    config.write_text(config.read_text(encoding="utf-8").replace("poll_interval = ", "poll_interval = -", 1)
                      .replace('"games/mafia.example.toml"', '"games/mafia.example.toml", "games/arena.toml"'),
                      encoding="utf-8")
    arena_lines, arena_said = BROKEN_RULES["arena"]
    (tmp_path / "games" / "arena.toml").write_text(with_rules("arena", arena_lines), encoding="utf-8")
    expected = ([f"{config}: daemon.poll_interval: expected a positive integer"]
                + [f"{tmp_path / 'games' / 'mafia.example.toml'}: {line}" for line in mafia_said]
                + [f"{tmp_path / 'games' / 'arena.toml'}: {line}" for line in arena_said])
    capsys.readouterr()
    for command in (["check-config", str(config)], ["run", "--config", str(config), "--once"]):
        assert main(command) != 0
        err = capsys.readouterr().err.splitlines()
        assert [line.split(" (got ")[0] if "poll_interval" in line else line for line in err
                if "problem(s)" not in line] == expected, command
    assert not (tmp_path / "forumgm.sqlite3").exists()          # refused before anything was opened


@pytest.mark.parametrize("game, rules, keys", [
    ("mafia", {"first_night_armour": 1, "roles": [], "missed_votes_out": True},
     ["rules.first_night_armour", "rules.missed_votes_out", "rules.roles"]),
    ("bellum", {"freed_after": 1.5, "roll_low": 130, "kingdom_province": 3},
     ["rules.freed_after", "rules.kingdom_province", "rules.roll_low"]),
    ("legends", {"ranks": {"1": {"name": "Новичок", "attack": -1}}, "clans": {"x": {"name": "X", "99": ["Кто"]}}},
     ["rules.ranks.1.attack", "rules.ranks.1", "rules.clans.x.99"]),
    # a broken action is named alone: the sequences and weapons that name actions are still checked,
    # but not against the actions
    ("arena", {"actions": {"L": {"type": "zzz"}}, "weapons": {"копьё": {"breakage": -1, "sequences": [999]}},
               "throw": {"base": 101}, "space": {"size": 1}},
     ["rules.actions.L.type", "rules.weapons.копьё.breakage", "rules.throw.base", "rules.space.size"]),
])
def test_each_engine_names_every_independent_rules_problem_together(game, rules, keys):
    with pytest.raises(SetupError) as refused:
        rules_for(game, rules)
    assert [key for key, _ in refused.value.problems] == keys


def test_a_weapon_naming_an_unknown_sequence_is_named_when_the_sequences_are_fine():
    with pytest.raises(SetupError) as refused:
        rules_for("arena", {"weapons": {"копьё": {"sequences": [999], "range": [2, 1]}}})
    assert [key for key, _ in refused.value.problems] == ["rules.weapons.копьё.sequences", "rules.weapons.копьё.range"]


def test_legends_rules_inside_a_setup_are_named_under_setup_rules():
    rules = rules_for("legends")
    with pytest.raises(SetupError) as refused:
        rules.setup({"rules": {"day": {"policy": "middle"}}, "players": [{"nick": "А"}]}, 1)
    assert ("setup.rules.day.policy", "expected last or first (got 'middle')") in refused.value.problems


def test_legends_rules_problems_say_what_was_written_as_the_other_engines_do():
    with pytest.raises(SetupError) as refused:
        rules_for("legends", {"ranks": {"9": {"name": 5}}, "clans": {"q": "x"},
                              "spells": {"Огонь": {"clan": "zz", "rank": "1"}},
                              "day": {"colors": ["blue"], "policy": "middle"}, "night1": {"banned": ["fly"]},
                              "calendar": {"first_phase": "evening"}, "limits": {"spy_targets": -1}})
    assert list(refused.value.problems) == [
        ("rules.ranks.9", "expected a table with a name (got name 5)"),
        ("rules.clans.q", "expected a table with a name (got 'x')"),
        ('rules.spells."Огонь"', "expected a table with a known clan and rank (got clan 'zz', rank '1')"),
        ("rules.day.colors", "expected a non-empty list of lowercase #rrggbb colours (got ['blue'])"),
        ("rules.day.policy", "expected last or first (got 'middle')"),
        ("rules.night1.banned", "expected a list of attack, magic_attack, spying, defense, magic_defense, "
                                "spy_defense, theft_attack, theft_magic_attack, theft_defense, theft_magic_defense, "
                                "theft_spy_defense, mod_attack, mod_magic_attack, mod_spying, mod_defense, "
                                "mod_magic_defense, mod_spy_defense, mod_theft, cast, transfer, exchange "
                                "(got ['fly'])"),
        ("rules.calendar.first_phase", "expected night or day (got 'evening')"),
        ("rules.limits.spy_targets", "expected a whole number >= 0 (got -1)"),
    ]


@pytest.mark.parametrize("game, rules, expected", [
    # a rule written at the wrong level was read by nobody: now it is named, with where it belongs
    ("legends", {"first_lynch_day": 1},
     [("rules.first_lynch_day", "unknown rule (expected one of limits, night1, calendar, day, ranks, clans, "
                                "spells); did you mean calendar.first_lynch_day?")]),
    ("legends", {"calendar": {"first_lynch_dya": 1}},
     [("rules.calendar.first_lynch_dya", "unknown rule (expected one of first_phase, first_lynch_day, timezone, "
                                         "day_start, night_start, night_end)")]),
    ("arena", {"stack": 5}, [("rules.stack", "unknown rule (expected one of tables, stack_size, hit_on, dice_sides, "
                                             "riposte, throw, fighters, actions, sequences, weapons, multipliers, "
                                             "wounds, armour, space)")]),
    ("mafia", {"missed_vote_out": 3},
     [("rules.missed_vote_out", "unknown rule (expected one of roles, first_night_armour, no_trial_per_game, "
                                "missed_votes_out)")]),
])
def test_every_engine_names_a_rule_it_does_not_know(game, rules, expected):
    with pytest.raises(SetupError) as refused:
        rules_for(game, rules)
    assert list(refused.value.problems) == expected
