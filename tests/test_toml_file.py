"""One reader for every TOML file a host writes (daemon/settings/toml_file.py): the installation and game
configs, the files a game's setup names and `forumgm simulate`'s scenarios all say the same of a
file that cannot be read, is not UTF-8 or is not valid TOML — the file, where in it, and what."""
from __future__ import annotations

import pytest

from forumgm.config import data_path
from forumgm.daemon.cli import main
from forumgm.daemon.settings.toml_file import TomlFileError, read_toml

# (file bytes, where, what): the same three mistakes, whichever file it is
BROKEN = [
    (b'id = "x"\ntype = "mafia"\nseed = 1\nseed = 2\n', "line 4, column 9", "not valid TOML: cannot overwrite a value"),
    (b'id = "x"\nplayers = [\n', "end of file", "not valid TOML: invalid value"),
    ('id = "x"\nnick = "Хан"\n'.encode("cp1251"), "line 2, column 9", "not UTF-8 text (save the file as UTF-8)"),
]


@pytest.mark.parametrize("data, where, what", BROKEN)
def test_read_toml_names_the_file_the_place_and_the_mistake(tmp_path, data, where, what):
    path = tmp_path / "game.toml"
    path.write_bytes(data)
    with pytest.raises(TomlFileError) as refused:
        read_toml(path)
    assert (refused.value.path, refused.value.where, refused.value.what) == (str(path), where, what)
    assert str(refused.value) == f"{path}: {where}: {what}"


def test_a_file_that_cannot_be_read_is_a_problem_of_the_whole_file(tmp_path):
    with pytest.raises(TomlFileError) as refused:
        read_toml(tmp_path / "missing.toml")
    assert str(refused.value) == f"{tmp_path / 'missing.toml'}: (file): cannot read it: No such file or directory"
    assert refused.value.problem == "(file): cannot read it: No such file or directory"
    assert read_toml(data_path("games", "mafia.example.toml"))["type"] == "mafia"


@pytest.mark.parametrize("data, where, what", BROKEN)
def test_check_config_says_it_of_a_game_file_and_of_the_installation(tmp_path, capsys, data, where, what):
    game = tmp_path / "game.toml"
    game.write_bytes(data)
    assert main(["check-config", str(game)]) == 1
    assert capsys.readouterr().err == f"{game}: {where}: {what}\n1 problem(s)\n"
    installation = tmp_path / "forumgm.toml"
    installation.write_bytes(data.replace(b'id = "x"', b"[forum]"))
    assert main(["check-config", str(installation)]) == 1
    assert capsys.readouterr().err.startswith(f"{installation}: {where}: {what}\n")


@pytest.mark.parametrize("data, where, what", BROKEN)
def test_a_setup_file_says_it_under_the_key_that_names_it(tmp_path, capsys, data, where, what):
    events = tmp_path / "events.toml"
    events.write_bytes(data)
    game = tmp_path / "bellum.toml"
    game.write_text(data_path("games", "bellum.example.toml").read_text(encoding="utf-8")
                    .replace("[setup]", '[setup]\nevents = "events.toml"', 1), encoding="utf-8")
    assert main(["check-config", str(game)]) == 1
    assert f"{game}: setup.events: {events}: {where}: {what}\n" in capsys.readouterr().err


@pytest.mark.parametrize("command", [["simulate"], ["check-orders", "--game", "mafia", "--from", "Эф", "--scenario"]])
@pytest.mark.parametrize("data, where, what", BROKEN)
def test_a_scenario_says_it_after_the_command(tmp_path, capsys, command, data, where, what):
    scenario = tmp_path / "scenario.toml"
    scenario.write_bytes(data)
    assert main([*command, str(scenario)] + (["/dev/null"] if command[0] == "check-orders" else [])) == 2
    assert capsys.readouterr().err == f"forumgm {command[0]}: {scenario}: {where}: {what}\n"
