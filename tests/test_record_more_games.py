"""The record of the other two games (daemon/record): an Arena duel ends by itself with its archive
attached to the record post, and it checks out (its dice are scripted by its [setup]: a changed one
names the deal); a Bellum game the host ends after a
turn played on the local forum checks out too, its scenario file archived with its [setup]."""
from __future__ import annotations

import json

import requests

from forumgm.daemon.cli import main
import test_e2e_arena as arena_e2e
import test_e2e_bellum as bellum_e2e

arena = arena_e2e.arena
table = bellum_e2e.table


def changed(path, edit):
    data = json.loads(path.read_text(encoding="utf-8"))
    edit(data)
    out = path.with_name("changed.json")
    out.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return str(out)


def test_an_arena_duel_checks_out_and_a_changed_die_or_event_names_where(arena, tmp_path, capsys):
    arena_e2e.test_a_duel_played_through_the_forum(arena)       # Хан wins by a knock-out, the daemon ends it
    [attached] = [f for f in arena.server.board.files.values() if f.post_id is not None]
    archive = tmp_path / attached.name
    archive.write_bytes(requests.get(f"{arena.server.url}download/file.php?id={attached.id}", timeout=10).content)
    capsys.readouterr()
    assert main(["verify", str(archive)]) == 0
    assert "all 6 phase(s) check out" in capsys.readouterr().out


    def another_scripted_die(data):     # the [setup] scripts the duel's dice: the deal holds them
        data["setup"]["dice"][0] = 5
    assert main(["verify", changed(archive, another_scripted_die)]) == 1
    assert capsys.readouterr().out.splitlines()[-1].endswith("differs in deal")

    def askon_misses_in_step_6(data):
        events = next(p for p in data["phases"] if p["key"] == "step-6")["outcome"]["events"]
        events.pop()
    assert main(["verify", changed(archive, askon_misses_in_step_6)]) == 1
    assert capsys.readouterr().out.splitlines()[-1].endswith("differs in step-6")


def test_a_bellum_game_the_host_ends_checks_out(table, tmp_path, capsys):
    bellum_e2e.test_a_turn_played_through_the_forum(table)
    config = str(tmp_path / "forumgm.toml")
    assert main(["finish", "--config", config, bellum_e2e.GAME, "--winner", "Гунны", "--by", "host"]) == 0
    archive = tmp_path / "bellum.json"
    assert main(["export", "--config", config, bellum_e2e.GAME, "--output", str(archive)]) == 0
    data = json.loads(archive.read_text(encoding="utf-8"))
    assert data["seed"] == "370" and data["setup"]["scenario"]["data"]       # the scenario file, as read
    capsys.readouterr()
    assert main(["verify", str(archive)]) == 0
    assert "ok  turn-1" in capsys.readouterr().out
