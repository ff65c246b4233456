"""`check-config` catches what a new host gets wrong before the game starts: casts the game's rules do
not allow (named with the rule), nicks that collide or mix alphabets, a nick changed after the deal,
a password variable that is not set; problems name a player by number and nick."""
from __future__ import annotations

import pytest

from forumgm.config import data_path
from forumgm.daemon.cli import main
from forumgm.daemon.tick.clock import FixedClock
from forumgm.daemon.settings.games import rules_for
from forumgm.daemon.settings.nick_checks import mixed_script
from forumgm.daemon.settings.setup_files import with_setup_files
from forumgm.engines.base import SetupError
from mafia_daemon_support import daemon, example_installation, msk
from spine_fakes import MemoryForum

EXAMPLE = data_path("games", "mafia.example.toml").read_text(encoding="utf-8")


def check(tmp_path, capsys, text: str) -> tuple[int, str, str]:
    path = tmp_path / "game.toml"
    path.write_text(text, encoding="utf-8")
    code = main(["check-config", str(path)])
    out = capsys.readouterr()
    return code, out.out, out.err.replace(f"{path}: ", "")


@pytest.mark.parametrize("edit, said", [
    (lambda t: t.replace('role = "Доктор"', 'role = "Комиссар"'),
     "players: 2 × Комиссар (Аскон, Хан): the rules have one Комиссар at most"),
    (lambda t: t.replace('role = "Босс мафии"', 'role = "Маньяк"').replace('role = "Мафиози"', 'role = "Маньяк"'),
     "players: 2 × Маньяк (Лиса, Бук): the rules have one Маньяк at most"),
    (lambda t: t.replace('role = "Босс мафии"', 'role = "Мирный житель"').replace('role = "Мафиози"', 'role = "Маньяк"'),
     "players: no Босс мафии and no Мафиози: the rules need a mafia team"),
    (lambda t: t.replace('role = "Доктор"', 'role = "Мафиози"').replace('"Тора"\nrole = "Мирный житель"',
                                                                         '"Тора"\nrole = "Мафиози"'),
     "players: the game would be over before it starts: мафия would win by the win conditions"),
    (lambda t: t.replace('role = "Доктор"', 'role = "Доктр"'), "players #2 (Хан).role: unknown role 'Доктр'"),
])
def test_a_cast_the_rules_do_not_allow_is_refused_naming_the_rule(tmp_path, capsys, edit, said):
    code, _, err = check(tmp_path, capsys, edit(EXAMPLE))
    assert code == 1 and said in err


def test_every_setup_problem_of_an_arena_game_is_listed_at_once(tmp_path, capsys):
    arena = data_path("games", "arena.example.toml").read_text(encoding="utf-8")
    broken = (arena.replace("[setup]  ", "[setup]\ndistance = 0\n", 1).replace("helmet = true", 'helmet = "да"')
              .replace('weapon = "трезубец"', 'weapon = "лук"'))
    code, out, err = check(tmp_path, capsys, broken)
    assert code == 1 and "ok" not in out
    assert err == ("setup.distance: expected a whole number of sectors 1…6 (got 0)\n"
                   "setup.fighters[0].helmet: expected true or false (got 'да')\n"
                   "setup.fighters[1].weapon: expected one of рука, меч, гладий, трезубец, копьё, пика, топор "
                   "(got 'лук')\n"
                   "3 problem(s)\n")


def test_every_setup_problem_of_a_mafia_game_is_listed_at_once(tmp_path, capsys):
    broken = (EXAMPLE.replace('role = "Доктор"', 'role = "Доктр"').replace('role = "Мафиози"', 'role = "Шериф"')
              .replace("[setup]  ", '[setup]\ndead = ["Никто"]\n', 1))
    code, _, err = check(tmp_path, capsys, broken)
    expected = "expected one of Комиссар, Доктор, Мирный житель, Босс мафии, Мафиози, Маньяк"
    assert code == 1 and err == (f"players #2 (Хан).role: unknown role 'Доктр'; {expected}\n"
                                 f"players #4 (Бук).role: unknown role 'Шериф'; {expected}\n"
                                 "setup.dead: not players: Никто\n"
                                 "3 problem(s)\n")


@pytest.mark.parametrize("game, setup, keys", [
    ("arena", {"distance": 0, "dice": [7], "fighters": [{"nick": "А", "helmet": "да", "weapon": "лук"},
                                                        {"nick": "Б", "attack_rating": 9, "colour": 1}]},
     ["setup.distance", "setup.dice[0]", "setup.fighters[0].weapon", "setup.fighters[0].helmet",
      "setup.fighters[1].colour", "setup.fighters[1].attack_rating"]),
    ("mafia", {"alive": [], "players": [{"nick": n, "role": r} for n, r in zip("АБВГДЕЖЗ", ["Доктр", "Шериф"] + [
        "Мирный житель"] * 6)], "dead": ["Никто"]},
     ["setup.alive", "setup.players[0].role", "setup.players[1].role", "setup.dead"]),
    ("legends", {"colour": 1, "players": [{"nick": "А", "role": "Никто"}, {"nick": "Б"}, {"nick": "Б"}]},
     ["setup.colour", "setup.players[0].role", "setup.players[2].nick"]),
    ("bellum", {"scenario": "370", "colour": 1, "rolls": 99, "players": [{"nick": "А", "faction": "нет такого"}],
                "people": {"nowhere": {}}, "owners": {"nowhere": "x"}},
     ["setup.colour", "setup.rolls", "setup.players[0].faction", "setup.people.nowhere", "setup.owners.nowhere"]),
])
def test_each_engine_names_every_independent_setup_problem_together(game, setup, keys):
    with pytest.raises(SetupError) as refused:
        rules = rules_for(game)
        rules.setup(with_setup_files(rules, setup), 1)
    assert [key for key, _ in refused.value.problems] == keys
    assert refused.value.key == keys[0]


def test_dealt_role_counts_are_checked_too(tmp_path, capsys):
    dealt = EXAMPLE.replace('\nrole = "', '\n# role = "').replace(
        "first_night_armour = true", 'first_night_armour = true\nroles = { "Доктор" = 2, "Босс мафии" = 1, '
                                     '"Мафиози" = 1, "Мирный житель" = 4 }')
    code, _, err = check(tmp_path, capsys, dealt)
    assert code == 1 and "rules.roles: 2 × Доктор: the rules have one Доктор at most" in err


@pytest.mark.parametrize("edit, said", [
    (lambda t: t.replace('nick = "Хан"', 'nick = "аскон"'),
     "players #2 (аскон).nick: expected a nick no other player has, whatever the letter case: 'аскон' is "
     "Аскон's nick"),
    (lambda t: t.replace('nick = "Хан"', 'nick = "Хан"\naliases = ["аск"]'),
     "players #2 (Хан).aliases: expected aliases no other player has, whatever the letter case: 'аск' is "
     "Аскон's nick"),
    (lambda t: t.replace('nick = "Хан"', 'nick = "Хан"\naliases = ["лиса"]'),
     "players #3 (Лиса).nick: expected a nick no other player has, whatever the letter case: 'Лиса' is Хан's "
     "nick or alias"),
    (lambda t: t.replace('nick = "Хан"', 'nick = "Аскон"'),
     "players #2 (Аскон).nick: expected a nick not listed before"),
])
def test_nicks_and_aliases_name_one_player_whatever_the_case(tmp_path, capsys, edit, said):
    code, _, err = check(tmp_path, capsys, edit(EXAMPLE))
    assert code == 1 and said in err


def test_a_nick_mixing_alphabets_is_a_warning_naming_the_letters(tmp_path, capsys):
    code, out, err = check(tmp_path, capsys, EXAMPLE.replace('nick = "Тора"', 'nick = "Тoрa"'))   # Latin o, a
    assert code == 0 and "ok" in out
    assert ("warning: players #5 (Тoрa).nick: mixes Latin and Cyrillic letters: Latin o (letter 2), a (letter 4) "
            "among Cyrillic ones") in err
    assert mixed_script("Rоbоzik") == "Cyrillic о (letter 2), о (letter 4) among Latin ones"
    assert mixed_script("gosha100") is None and mixed_script("Аскон") is None


def test_a_nick_changed_after_the_deal_is_refused_by_check_config_and_run(tmp_path, monkeypatch, capsys):
    clock = FixedClock(msk(3, 10))
    running = daemon(example_installation(tmp_path, monkeypatch), clock, MemoryForum(clock))
    running.tick()
    running.store.close()
    monkeypatch.setenv("FORUMGM_WEB_PASSWORD", "page secret")
    example_installation(tmp_path, monkeypatch, lambda t: t.replace('nick = "Хан"', 'nick = "Хaн"'))
    config = str(tmp_path / "forumgm.toml")
    capsys.readouterr()
    assert main(["check-config", config]) == 1
    said = ("games/mafia.example.toml: players #2 (Хaн).nick: the roles were dealt to Хан, not to Хaн: write the "
            "nick back, or let a new account take a role over with `forumgm replace --config … mafia-example "
            "OLD_NICK Хaн`")
    assert said in capsys.readouterr().err
    assert main(["run", "--config", config, "--once"]) == 2
    assert said in capsys.readouterr().err


def test_check_config_reads_the_passwords_without_showing_them(tmp_path, monkeypatch, capsys):
    example_installation(tmp_path, monkeypatch)          # sets FORUMGM_PASSWORD
    config = str(tmp_path / "forumgm.toml")
    monkeypatch.delenv("FORUMGM_WEB_PASSWORD", raising=False)
    capsys.readouterr()
    assert main(["check-config", config]) == 1
    err = capsys.readouterr().err
    assert (f"{config}: web.password_env: the environment variable FORUMGM_WEB_PASSWORD that should hold the web "
            "page's password is not set (where forumgm runs)") in err
    assert "forum.password_env" not in err
    monkeypatch.setenv("FORUMGM_WEB_PASSWORD", "hunter2")
    assert main(["check-config", config]) == 1
    err = capsys.readouterr().err
    assert f"{config}: web.password_env: expected a password of at least 8 characters" in err and "hunter2" not in err
    monkeypatch.setenv("FORUMGM_WEB_PASSWORD", "long enough")
    assert main(["check-config", config]) == 0
    assert "long enough" not in capsys.readouterr().out


def test_a_game_that_posts_a_map_needs_the_pages_public_address(tmp_path, monkeypatch, capsys):
    """Bellum posts its turn map with each report: attached where forumgm uploads files, else shown by address."""
    monkeypatch.setenv("FORUMGM_PASSWORD", "secret")
    monkeypatch.setenv("FORUMGM_WEB_PASSWORD", "long enough")
    (tmp_path / "games").mkdir()
    bellum = data_path("games", "bellum.example.toml").read_text(encoding="utf-8")
    (tmp_path / "games" / "bellum.example.toml").write_text(bellum, encoding="utf-8")
    text = data_path("forumgm.example.toml").read_text(encoding="utf-8")
    text = text.replace('"games/mafia.example.toml", "games/legends.example.toml"', '"games/bellum.example.toml"')
    config = tmp_path / "forumgm.toml"
    config.write_text(text, encoding="utf-8")
    assert 'engine = "phpbb"' in text
    assert main(["check-config", str(config)]) == 0          # phpBB takes the map as an attachment
    fluxbb = text.replace('engine = "phpbb"', 'engine = "fluxbb"')
    config.write_text(fluxbb, encoding="utf-8")
    (tmp_path / "games" / "bellum.example.toml").write_text(bellum.replace("viewtopic.php?t=", "viewtopic.php?id="),
                                                            encoding="utf-8")   # FluxBB's thread address
    assert main(["check-config", str(config)]) == 1
    assert capsys.readouterr().err.splitlines()[0] == (
        f"{config}: web.public_url: expected the page's public address, e.g. \"https://gm.example.org/forumgm/\" "
        "(game bellum-example posts a map with each turn report; forumgm attaches no files on fluxbb, so the forum "
        "shows the map by address)")
    config.write_text(fluxbb.replace("[web]\n", '[web]\npublic_url = "https://gm.example.org/forumgm/"\n'),
                      encoding="utf-8")
    assert main(["check-config", str(config)]) == 0


def _installation(tmp_path, monkeypatch, edit) -> str:
    """The shipped example installation (phpBB, the Mafia and Legends examples), edited."""
    monkeypatch.setenv("FORUMGM_PASSWORD", "secret")
    monkeypatch.setenv("FORUMGM_WEB_PASSWORD", "long enough")
    (tmp_path / "games").mkdir(exist_ok=True)
    for name in ("mafia.example.toml", "legends.example.toml"):
        (tmp_path / "games" / name).write_text(data_path("games", name).read_text(encoding="utf-8"), encoding="utf-8")
    config = tmp_path / "forumgm.toml"
    config.write_text(edit(data_path("forumgm.example.toml").read_text(encoding="utf-8")), encoding="utf-8")
    return str(config)


def test_a_thread_address_of_another_forum_engine_is_refused_with_the_engines_form(tmp_path, monkeypatch, capsys):
    """The examples' phpBB addresses (viewtopic.php?t=…) name no MyBB thread: the daemon could never read it."""
    config = _installation(tmp_path, monkeypatch, lambda t: t.replace('engine = "phpbb"', 'engine = "mybb"'))
    assert main(["check-config", config]) == 1
    err = capsys.readouterr().err
    games = tmp_path / "games"
    assert (f"{games / 'mafia.example.toml'}: thread_url: expected the address of a MyBB thread on "
            "https://forum.example.org/, such as https://forum.example.org/showthread.php?tid=123 "
            "(got 'https://forum.example.org/viewtopic.php?t=100')") in err
    assert f"{games / 'legends.example.toml'}: thread_url: expected the address of a MyBB thread" in err
    assert main(["run", "--config", config]) == 2
    assert "thread_url: expected the address of a MyBB thread" in capsys.readouterr().err


def test_a_thread_on_another_board_than_the_forums_is_refused(tmp_path, monkeypatch, capsys):
    """forumgm reads the thread by its number on [forum] base_url: a thread of another board would be
    another thread there."""
    config = _installation(tmp_path, monkeypatch, lambda t: t)
    mafia = tmp_path / "games" / "mafia.example.toml"
    mafia.write_text(mafia.read_text(encoding="utf-8").replace(
        "https://forum.example.org/viewtopic.php?t=100", "https://other.example.net/viewtopic.php?t=100"),
        encoding="utf-8")
    assert main(["check-config", config]) == 1
    assert capsys.readouterr().err.splitlines() == [
        f"{mafia}: thread_url: expected the address of a phpBB thread on https://forum.example.org/, such as "
        "https://forum.example.org/viewtopic.php?t=123 (got 'https://other.example.net/viewtopic.php?t=100')",
        "1 problem(s)"]


def test_the_same_board_by_another_scheme_or_www_is_the_forums_thread(tmp_path, monkeypatch, capsys):
    config = _installation(tmp_path, monkeypatch, lambda t: t)
    mafia = tmp_path / "games" / "mafia.example.toml"
    mafia.write_text(mafia.read_text(encoding="utf-8").replace(
        "https://forum.example.org/viewtopic.php?t=100", "http://www.forum.example.org/viewtopic.php?f=2&t=100#p7"),
        encoding="utf-8")
    assert main(["check-config", config]) == 0, capsys.readouterr().err


def test_check_config_lists_the_genders_it_guessed_and_the_nicks_it_cannot_tell(tmp_path, capsys):
    given = EXAMPLE.replace('nick = "Ива"', 'nick = "Жанна"', 1)         # Лиса and Бук have a gender
    code, out, err = check(tmp_path, capsys, given)
    assert code == 0, err
    lines = out.splitlines()
    guessed = next(line for line in lines if "gender guessed" in line)
    assert guessed.endswith(': Гор m, Жанна f')            # the dictionary's personal names
    unknown = next(line for line in lines if "gender unknown" in line)
    assert unknown.endswith("no gendered word for: Аскон, Хан, Тора, Эф")
    code, _, err = check(tmp_path, capsys, EXAMPLE.replace('gender = "f"', 'gender = "ж"', 1))
    assert code == 1 and "players #3 (Лиса).gender: expected one of f, m (got 'ж')" in err


def test_a_bellum_map_without_italy_and_with_an_island_is_valid_with_a_warning_for_each(tmp_path, capsys):
    """A host's own map: no «Италия» (nobody makes kingdoms) and an island no link reaches are
    allowed; check-config says each once and the file is ok."""
    import shutil
    from pathlib import Path

    shutil.copy(Path(__file__).parent / "scenarios" / "bellum" / "no_italy_map.toml", tmp_path / "mine.toml")
    bellum = data_path("games", "bellum.example.toml").read_text(encoding="utf-8")
    text = (bellum.replace('scenario = "370"', 'scenario = "mine.toml"')
            .replace('role = "Западная Римская империя"', 'role = "ВРИ"'))
    code, out, err = check(tmp_path, capsys, text)
    assert code == 0 and out.endswith("ok\n")
    assert err == (f"warning: setup.scenario: {tmp_path / 'mine.toml'}: provinces (creta): no link reaches it: "
                   "nobody can move into it or out of it\n"
                   "warning: rules.kingdom_province: Мёзия и Дакия: no province 'Италия' on this map: "
                   "nobody can make a tribe a state\n")
    code, _, err = check(tmp_path, capsys, bellum)            # the shipped 370 map has neither
    assert code == 0 and "warning" not in err


def test_a_bellum_game_takes_a_players_gender_as_every_game_does(tmp_path, capsys):
    """Bellum's setup refused `gender` on [[players]] («unknown key»); it is the player's, for the
    texts that name him."""
    bellum = data_path("games", "bellum.example.toml").read_text(encoding="utf-8")
    given = bellum.replace('role = "Западная Римская империя"', 'role = "Западная Римская империя"\ngender = "f"', 1)
    code, out, err = check(tmp_path, capsys, given)
    assert code == 0, err
    assert "gender unknown, the texts use no gendered word for: Хан" in out
    code, _, err = check(tmp_path, capsys, given.replace('gender = "f"', 'gender = "ж"'))
    assert code == 1 and "players #1 (Аскон).gender: expected one of f, m (got 'ж')" in err


def test_a_games_declension_table_is_checked_naming_the_file_and_the_case(tmp_path, capsys):
    folder = tmp_path / "mine"
    folder.mkdir()
    (folder / "declension.toml").write_text('"Таргелец" = ["Таргельца", "Таргельцу"]\n', encoding="utf-8")
    code, _, err = check(tmp_path, capsys, f'templates = "{folder}"\n' + EXAMPLE)
    assert code == 1
    assert "templates: " in err and "declension.toml: Таргелец: expected five forms, родительный, дательный" in err
