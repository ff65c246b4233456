"""Shared by the seats tests: a re-run through `forumgm resolve --rerun` after `forumgm replace`
gives the same rolls and outcome."""
from __future__ import annotations

from forumgm.daemon.cli import main
from forumgm.daemon.store import Store


def outcome(store: Store, game_id: str) -> tuple:
    """Every resolved phase's events, eliminations and the state it left, as the store keeps them now."""
    keys = [row["key"] for row in store.phases(game_id, "resolved")]
    eliminations = [(row["phase_key"], row["nick"], row["cause"]) for row in store.eliminations(game_id)]
    states = {row["phase_key"]: row["state"] for row in store.db.query(
        "SELECT s.phase_key, s.state FROM snapshots s JOIN resolutions r ON r.id = s.resolution_id "
        "WHERE s.game_id = ? AND r.current = 1", [game_id])}
    return (tuple((key, [(e["type"], e["data"]) for e in store.events(game_id, key)], states[key]) for key in keys),
            eliminations)


def rerun_after_replacement(config, store: Store, game_id: str, old: str, new: str, first: str, capsys) -> None:
    """Replace `old` by `new`, then re-run every phase from `first` on: the dry run finds nothing to
    change, and the confirmed re-run leaves the same events, eliminations and states."""
    played = outcome(store, game_id)
    code = main(["replace", "--config", str(config), game_id, old, new, "--by", "host"])
    replaced = capsys.readouterr()
    assert code == 0, replaced.err
    assert main(["resolve", "--config", str(config), game_id, first, "--rerun", "--dry-run"]) == 0
    shown = capsys.readouterr().out.strip()
    assert shown == "the re-run gives the same outcome: nothing changes", shown
    assert main(["resolve", "--config", str(config), game_id, first, "--rerun", "--yes", "--by", "host"]) == 0
    assert [r["rerun"] for r in store.resolutions(game_id, first)] == [0, 1]
    assert outcome(store, game_id) == played
