"""The files a game's [setup] names (Bellum's scenario and events) are read at the edge, relative to
the file that names them, and reach the engine parsed; what cannot be read is named with its key."""
from __future__ import annotations

import shutil

import pytest

from forumgm.config import data_path
from forumgm.daemon.cli import main
from forumgm.daemon.settings.games import rules_for
from forumgm.daemon.settings.setup_files import with_setup_files
from forumgm.engines.base import SetupError, SetupFile
from forumgm.engines.bellum import RULES
from tests.bellum_helpers import SMALL_MAP

EVENTS = ('[[events]]\nnumber = 1\nturn = 1\ntext = "Чума"\ndefault = "а"\n'
          '[[events.options]]\nletter = "а"\n'
          'effects = [ { kind = "people", province = "italia", faction = "zapadnaya_rim", count = -5 } ]\n')
GAME = """id = "small"
type = "bellum"
thread_url = "https://forum.example.org/viewtopic.php?t=301"
seed = 9
start = 2026-03-02T12:00:00

[[players]]
nick = "Аскон"
role = "zapadnaya_rim"

[calendar.turn]
duration = "3d"

[setup]
scenario = "maps/small.toml"
events = "{events}"
"""


@pytest.fixture
def game_file(tmp_path, monkeypatch):
    """A game file in games/ naming its map and events by paths relative to itself, checked from
    another folder."""
    games = tmp_path / "games"
    (games / "maps").mkdir(parents=True)
    shutil.copy(SMALL_MAP, games / "maps" / "small.toml")
    (games / "events.toml").write_text(EVENTS, encoding="utf-8")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)

    def write(events: str = "events.toml"):
        path = games / "game.toml"
        path.write_text(GAME.format(events=events), encoding="utf-8")
        return path
    return write


def test_a_game_files_scenario_and_events_are_read_beside_it(game_file, capsys):
    assert main(["check-config", str(game_file())]) == 0, capsys.readouterr().err


def test_an_events_file_that_cannot_be_read_is_named_with_its_key(game_file, capsys):
    path = game_file("nowhere.toml")
    assert main(["check-config", str(path)]) == 1
    assert (f"{path}: setup.events: {path.parent / 'nowhere.toml'}: (file): cannot read it: No such file or directory"
            in capsys.readouterr().err)
    (path.parent / "broken.toml").write_text("[[events]\n", encoding="utf-8")
    path = game_file("broken.toml")
    assert main(["check-config", str(path)]) == 1
    assert (f"setup.events: {path.parent / 'broken.toml'}: line 1, column 9: not valid TOML: expected ']]' at the end "
            "of an array declaration\n") in capsys.readouterr().err


def test_a_bare_scenario_name_is_a_shipped_file_and_an_events_name_is_a_path(tmp_path):
    read = with_setup_files(RULES, {"scenario": "370", "events": "370", "rolls": 1.0}, tmp_path)
    assert read["scenario"].source == str(data_path("bellum", "scenarios", "370.toml"))
    assert read["scenario"].data["name"] == "370"
    assert read["events"] == SetupFile(str(tmp_path / "370"), problem="(file): cannot read it: No such file or directory")
    assert read["rolls"] == 1.0
    absolute = with_setup_files(RULES, {"scenario": str(SMALL_MAP)}, tmp_path)["scenario"]
    assert absolute.source == str(SMALL_MAP) and absolute.data["name"] == "Малая карта"


def test_a_game_that_names_no_files_gets_its_setup_as_written(tmp_path):
    mafia = rules_for("mafia")
    setup = {"players": [{"nick": "А"}], "scenario": "370"}
    assert with_setup_files(mafia, setup, tmp_path) == setup


def test_the_engine_refuses_a_file_name_nobody_read_for_it():
    with pytest.raises(SetupError) as refused:
        RULES.setup({"scenario": "370", "players": [{"nick": "Хан", "faction": "vestgoty"}]}, 1)
    assert refused.value.problems == (
        ("setup.scenario", 'expected a shipped scenario name ("370") or a scenario file path'),)
