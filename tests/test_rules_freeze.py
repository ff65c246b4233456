"""The rules freeze is one daemon guarantee for every game (daemon/tick/rules_freeze.py): an edit of a
real key of the game's rule table in its game file, after the deal, stops the running daemon's game
with a notice to the host naming the key (old → new) until `forumgm rules accept`; the engine then
plays under the accepted table, and the state that copied the rules at the deal holds them too."""
from __future__ import annotations

import re
from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from forumgm.config import data_path
from forumgm.daemon.cli import main
from forumgm.daemon.runtime.loop import Daemon
from forumgm.daemon.settings.installation import load_installation
from forumgm.daemon.store import Store
from forumgm.daemon.tick.clock import FixedClock
from forumgm.daemon.tick.flow import Edges
from forumgm.daemon.tick.rules_freeze import ABSENT, changes
from forumgm.daemon.tick.stops import RULES_CHANGED, stops
from forumgm.daemon.tick.sync import sync_game, sync_inbox
from spine_fakes import MemoryForum

MSK = ZoneInfo("Europe/Moscow")
RULES_HEADER = re.compile(r"^\[rules\].*$", re.MULTILINE)


def add_rule(line: str):
    """The game file with one more [rules] line (the table made when the file has none)."""
    def edit(text: str) -> str:
        if RULES_HEADER.search(text):
            return RULES_HEADER.sub(lambda header: f"{header.group()}\n{line}", text, count=1)
        return f"{text}\n[rules]\n{line}\n"
    return edit


# game: (its example file's id, the edit of a real key of its rules.toml, the key, old and new as
# the notice shows them, the value the engine and the state then hold)
EDITS = {
    "mafia": ("mafia-example", lambda text: text.replace("missed_votes_out = 2 ", "missed_votes_out = 3 "),
              "missed_votes_out", "2", "3", lambda rules, state: (rules.config.missed_votes_out,
                                                                   state.rules.missed_votes_out)),
    "legends": ("legends-example", add_rule("limits.theft_players = 7"), "limits.theft_players", "5", "7",
                lambda rules, state: (rules.table.theft_players, state.table.theft_players)),
    "arena": ("arena-example", add_rule("hit_on = 5"), "hit_on", "4", "5",
              lambda rules, state: (rules.table.hit_on, state.table.hit_on)),
    "bellum": ("bellum-example", add_rule("years_per_turn = 10"), "years_per_turn", "5", "10",
               lambda rules, state: (rules.config.years_per_turn, state.rules.years_per_turn)),
}


def installation(tmp_path, monkeypatch, game: str, edit=lambda text: text):
    monkeypatch.setenv("FORUMGM_PASSWORD", "secret")
    games = tmp_path / "games"
    games.mkdir(exist_ok=True)
    name = f"{game}.example.toml"
    (games / name).write_text(edit(data_path("games", name).read_text(encoding="utf-8")), encoding="utf-8")
    text = data_path("forumgm.example.toml").read_text(encoding="utf-8")
    text = text.replace('"games/mafia.example.toml", "games/legends.example.toml"', f'"games/{name}"')
    (tmp_path / "forumgm.toml").write_text(text, encoding="utf-8")
    return load_installation(tmp_path / "forumgm.toml")


@pytest.mark.parametrize("game", sorted(EDITS))
def test_an_edit_of_the_rules_stops_the_running_game_with_a_notice_until_accepted(game, tmp_path, monkeypatch,
                                                                                  capsys):
    game_id, edit, key, old, new, played = EDITS[game]
    clock = FixedClock(datetime(2026, 3, 2, 23, 30, tzinfo=MSK))
    forum = MemoryForum(clock)
    loaded = installation(tmp_path, monkeypatch, game)
    daemon = Daemon(loaded, Store(loaded.storage, now=clock.now), forum, clock,
                    Edges(sync_game=sync_game, sync_inbox=sync_inbox))
    daemon.tick()
    store = daemon.store
    assert store.latest_snapshot(game_id) is not None and stops(store, game_id) == []
    dealt = played(daemon.games[0].rules, daemon.games[0].rules.load(store.latest_snapshot(game_id)["state"]))

    installation(tmp_path, monkeypatch, game, edit)          # the host edits the file; the daemon runs on
    daemon.tick()
    [stop] = stops(store, game_id)
    assert stop.cause == RULES_CHANGED and key in stop.message and "forumgm rules accept" in stop.message
    [notice] = [d for d in store.drafts(game_id=game_id) if d["kind"] == "host_notice"]
    assert notice["target"] == loaded.forum.account and notice["status"] == "pending"
    assert f"— {key}: {old} → {new}\n" in notice["body"]
    assert f"forumgm rules accept --config <forumgm.toml> {game_id}" in notice["body"]
    snapshot = store.latest_snapshot(game_id)["id"]
    daemon.tick()                                            # still stopped: one notice
    assert store.latest_snapshot(game_id)["id"] == snapshot
    assert [d["id"] for d in store.drafts(game_id=game_id) if d["kind"] == "host_notice"] == [notice["id"]]

    config = str(tmp_path / "forumgm.toml")
    assert main(["rules", "accept", "--config", config, game_id]) == 0
    assert f"{key}: {old} → {new}" in capsys.readouterr().out
    assert main(["rules", "accept", "--config", config, game_id]) == 1       # nothing left to accept
    daemon.tick()
    assert stops(store, game_id) == []
    rules = daemon.games[0].rules
    now_played = played(rules, rules.load(store.latest_snapshot(game_id)["state"]))
    assert now_played != dealt and {str(value) for value in now_played} == {new}


def test_restoring_the_table_releases_the_game_by_itself(tmp_path, monkeypatch):
    clock = FixedClock(datetime(2026, 3, 2, 23, 30, tzinfo=MSK))
    loaded = installation(tmp_path, monkeypatch, "arena")
    daemon = Daemon(loaded, Store(loaded.storage, now=clock.now), MemoryForum(clock), clock,
                    Edges(sync_game=sync_game, sync_inbox=sync_inbox))
    daemon.tick()
    installation(tmp_path, monkeypatch, "arena", add_rule("hit_on = 5"))
    daemon.tick()
    assert [s.cause for s in stops(daemon.store, "arena-example")] == [RULES_CHANGED]
    installation(tmp_path, monkeypatch, "arena", add_rule("hit_on = 4"))   # the shipped value, written out
    daemon.tick()
    assert stops(daemon.store, "arena-example") == []


def test_changes_name_nested_keys_added_and_removed_ones():
    old = {"a": 1, "t": {"x": 1, "y": [1, 2]}, "gone": True}
    new = {"a": 1, "t": {"x": 2, "y": [1, 2], "z": "новый"}}
    assert [(c.key, c.old, c.new) for c in changes(old, new) if c.key != "gone"] == [
        ("t.x", 1, 2), ("t.z", ABSENT, "новый")]
    assert [c.key for c in changes(old, new)] == ["t.x", "t.z", "gone"]
