"""Config: every problem of every file reported at once, each naming file, key and expectation."""
import contextlib
import os
import textwrap
from datetime import datetime, time
from pathlib import Path

import pytest

from forumgm.config import data_path
from forumgm.daemon.cli import main
from forumgm.daemon.drafts.compose import needs_approval
from forumgm.daemon.settings.game import load_game
from forumgm.daemon.settings.installation import load_installation
from forumgm.daemon.settings.records import ConfigError

GAME = """
id = "m1"
type = "mafia"
thread_url = "https://forum.example/t/1"
seed = 1
start = 2026-03-02T23:00:00
[[players]]
nick = "Аскон"
role = "Комиссар"
[[players]]
nick = "Хан"
role = "Доктор"
[calendar.round]
opens = "23:00"
closes = "22:45"
"""


def write(folder: Path, name: str, text: str, mode: int = 0o644) -> Path:
    path = folder / name
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    os.chmod(path, mode)
    return path


def installation(folder: Path, forum: str, games: str = '["game.toml"]') -> str:
    return f"games = {games}\n[forum]\n{forum}\n[storage]\npath = \"db.sqlite\"\n"


def problems_of(load, path) -> list[str]:
    with pytest.raises(ConfigError) as caught:
        load(path)
    return caught.value.problems


def test_shipped_examples_load():
    for name in ("mafia", "legends", "bellum", "arena"):
        game = load_game(data_path("games", f"{name}.example.toml"))
        assert game.type == name and game.time_zone.key == "Europe/Moscow"
    assert len(load_installation(data_path("forumgm.example.toml")).games) == 2


def test_a_valid_game_becomes_typed_values(tmp_path):
    game = load_game(write(tmp_path, "game.toml", GAME))
    assert game.calendar["round"].closes == time(22, 45)
    assert game.start == datetime(2026, 3, 2, 23, 0, tzinfo=game.time_zone)
    assert needs_approval(game.approval, "lynch_report") is True       # what [approval] leaves out waits
    assert game.setup_table()["players"][0] == {"nick": "Аскон", "role": "Комиссар"}


def test_wrong_type_missing_key_unknown_key_zone_and_time_all_at_once(tmp_path):
    broken = GAME.replace('seed = 1', 'seed = "one"').replace('thread_url = "https://forum.example/t/1"\n', "")
    broken = 'time_zone = "Mars/Olympus"\ncolour = 1\n' + broken.replace('closes = "22:45"', 'closes = "25:00"')
    path = write(tmp_path, "game.toml", broken)
    problems = problems_of(load_game, path)
    assert f"{path}: seed: expected an integer (got 'one')" in problems
    assert f"{path}: thread_url: expected an http:// or https:// URL (its port, if any, 1-65535) (required)" in problems
    assert any(p.startswith(f"{path}: calendar.round.closes: expected a time of day") and "'25:00'" in p
               for p in problems)
    assert any(p.startswith(f"{path}: time_zone: expected an IANA time zone") and "Mars/Olympus" in p
               for p in problems)
    assert any(p.startswith(f"{path}: colour: unknown key") for p in problems)
    assert len(problems) == 5


def test_calendar_must_cover_the_games_phase_kinds(tmp_path):
    text = GAME.replace("[calendar.round]", "[calendar.night]").replace('type = "mafia"', 'type = "mafia"')
    path = write(tmp_path, "game.toml", text)
    problems = problems_of(load_game, path)
    assert any(p.startswith(f"{path}: calendar.night: expected a phase kind of mafia") for p in problems)
    assert any(p.startswith(f"{path}: calendar.round: expected a table") for p in problems)


def test_duration_or_times_not_both(tmp_path):
    text = GAME.replace('closes = "22:45"', 'closes = "22:45"\nduration = "3x"')
    path = write(tmp_path, "game.toml", text)
    problems = problems_of(load_game, path)
    assert any(p.startswith(f"{path}: calendar.round: expected either duration or opens/closes") for p in problems)
    assert any(p.startswith(f"{path}: calendar.round.duration: expected a duration") for p in problems)


def test_world_readable_password_file_is_refused(tmp_path):
    write(tmp_path, "game.toml", GAME)
    write(tmp_path, "password", "secret", mode=0o644)
    path = write(tmp_path, "forumgm.toml", installation(
        tmp_path, 'engine = "phpbb"\nbase_url = "https://forum.example"\naccount = "host"\npassword_file = "password"'))
    problems = problems_of(load_installation, path)
    assert problems == [f"{path}: forum.password_file: expected a file only its owner can read, chmod 600 "
                        f"(got mode 0644) (got '{tmp_path / 'password'}')"]
    os.chmod(tmp_path / "password", 0o600)
    assert load_installation(path).forum.password_file == tmp_path / "password"


def test_problems_of_the_installation_and_its_game_files_come_together(tmp_path):
    write(tmp_path, "game.toml", GAME.replace('type = "mafia"', 'type = "poker"'))
    path = write(tmp_path, "forumgm.toml", installation(
        tmp_path, 'engine = "phpbb3"\nbase_url = "forum.example"\naccount = "host"') + "[daemon]\npoll_interval = 0\n")
    problems = problems_of(load_installation, path)
    game_file = tmp_path / "game.toml"
    assert f"{path}: forum.engine: expected one of phpbb, mybb, smf, fluxbb, xenforo, ipb3, ipb4, " \
           f"vbulletin3, vbulletin4, generic (got 'phpbb3')" in problems
    assert f"{path}: forum.base_url: expected an http:// or https:// URL (its port, if any, 1-65535) (got 'forum.example')" in problems
    assert any(p.startswith(f"{path}: forum.password_env: expected") for p in problems)
    assert f"{path}: daemon.poll_interval: expected a positive integer (got 0)" in problems
    assert any(p.startswith(f"{game_file}: type: expected one of arena, bellum, legends, mafia") for p in problems)


def test_roles_file_names_only_listed_players(tmp_path):
    text = GAME.replace('role = "Комиссар"\n', "").replace('role = "Доктор"\n', "")
    text = 'roles_file = "roles.toml"\n' + text
    write(tmp_path, "roles.toml", '[roles]\n"Аскон" = "Комиссар"\n"Незнакомец" = "Доктор"\n')
    problems = problems_of(load_game, write(tmp_path, "game.toml", text))
    assert problems == [f"{tmp_path / 'roles.toml'}: roles.Незнакомец: expected a nick listed in the game's "
                        f"[[players]] (got 'Незнакомец')"]


def test_check_config_command_prints_every_problem(tmp_path, capsys, monkeypatch):
    path = write(tmp_path, "game.toml", "extra = true\n" + GAME.replace("seed = 1", "seed = 1.5"))
    assert main(["check-config", str(path)]) == 1
    err = capsys.readouterr().err
    assert f"{path}: seed: expected an integer (got 1.5)" in err
    assert f"{path}: extra: unknown key" in err
    assert "2 problem(s)" in err
    monkeypatch.setenv("FORUMGM_PASSWORD", "forum secret")
    monkeypatch.setenv("FORUMGM_WEB_PASSWORD", "page secret")
    assert main(["check-config", str(data_path("forumgm.example.toml"))]) == 0


def test_check_config_asks_the_engine_about_its_setup(tmp_path, capsys):
    path = write(tmp_path, "game.toml", GAME)      # two players: too few for mafia
    assert main(["check-config", str(path)]) == 1
    assert f"{path}: players: at least 8 players are needed, got 2" in capsys.readouterr().err


def test_a_game_whose_sign_up_is_open_checks_without_players(tmp_path, capsys):
    head, _, _ = GAME.partition("[[players]]")
    path = write(tmp_path, "game.toml", head + "players = []\n[calendar.round]\nopens = \"23:00\"\ncloses = \"22:45\"\n")
    assert main(["check-config", str(path)]) == 0
    assert "m1: mafia, 0 players" in capsys.readouterr().out


def test_a_misspelt_approval_kind_is_refused_naming_the_kinds(tmp_path):
    path = write(tmp_path, "game.toml", GAME + "[approval]\nreciept = false\nround_report = true\n")
    problems = problems_of(load_game, path)
    assert len(problems) == 1
    assert problems[0].startswith(f"{path}: approval.reciept: unknown key (expected one of: ")
    assert "receipt" in problems[0] and "round_report" in problems[0]


@pytest.mark.parametrize("game", ["mafia", "legends", "bellum", "arena"])
def test_every_kind_a_game_drafts_can_be_named_in_its_approval_table(game):
    """The engines' PM kinds and report names, as the shipped scenarios make them."""
    from forumgm.daemon.settings.game import draft_kinds
    from forumgm.daemon.offline.simulate import load_scenario, run_scenario

    produced = set()
    for scenario in sorted((Path(__file__).parent / "scenarios" / game).glob("*.toml")):
        if "game" not in load_scenario(scenario):
            continue                                   # a map a Bellum scenario names
        with contextlib.chdir(scenario.parent):        # as `forumgm simulate`: paths are the file's
            played = run_scenario(load_scenario(scenario))
        for phase in played["phases"]:
            produced |= {pm["kind"] for pm in phase["pms"]}
            produced |= {f"{name}_report" for name, text in phase["reports"].items() if text}
    assert len(produced) >= 4
    assert produced <= set(draft_kinds(game))


@pytest.mark.parametrize("content", ["", "\n  \n"])
def test_an_empty_password_file_is_refused(tmp_path, content):
    write(tmp_path, "game.toml", GAME)
    write(tmp_path, "password", content, mode=0o600)
    path = write(tmp_path, "forumgm.toml", installation(
        tmp_path, 'engine = "phpbb"\nbase_url = "https://forum.example"\naccount = "host"\npassword_file = "password"'))
    assert problems_of(load_installation, path) == [
        f"{path}: forum.password_file: expected a file holding the password (it is empty) "
        f"(got '{tmp_path / 'password'}')"]


def test_a_config_names_the_forum_engines_the_parsers_read_and_each_has_an_http_adapter(tmp_path):
    from forumgm.daemon.forum import ADAPTERS
    from forumgm.parsers.forums import ENGINES

    for engine in ENGINES:
        path = write(tmp_path, "forumgm.toml", installation(
            tmp_path, f'engine = "{engine}"\nbase_url = "https://forum.example"\naccount = "host"\npassword_env = "PW"',
            games="[]"))
        assert load_installation(path).forum.engine == engine
    assert set(ADAPTERS) == set(ENGINES)


@pytest.mark.parametrize("port", ["99999", "abc", "0"])
def test_an_address_with_a_port_out_of_range_is_a_problem_not_a_traceback(tmp_path, capsys, monkeypatch, port):
    """check-config compared the thread's board with the forum's by port: urlsplit's ValueError
    on the port ended the command in a traceback."""
    monkeypatch.setenv("PW", "x")
    write(tmp_path, "game.toml", GAME.replace("https://forum.example/t/1", f"https://forum.example:{port}/t/1"))
    path = write(tmp_path, "forumgm.toml", installation(
        tmp_path, f'engine = "phpbb"\nbase_url = "https://forum.example:{port}"\naccount = "host"\npassword_env = "PW"'))
    assert main(["check-config", str(path)]) == 1
    err = capsys.readouterr().err
    assert "Traceback" not in err
    expected = "an http:// or https:// URL (its port, if any, 1-65535)"
    assert f"{path}: forum.base_url: expected {expected} (got 'https://forum.example:{port}')" in err
    assert f"{tmp_path / 'game.toml'}: thread_url: expected {expected} (got 'https://forum.example:{port}/t/1')" in err
