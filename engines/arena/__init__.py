"""Arena («Спартак»): gladiator duels (or fights of several) with action cards (docs/arena.md).

`make_rules(mapping)` binds the tables (config/arena/*.toml, read and merged by the caller);
that is how the daemon and `forumgm simulate` build the engine.
"""
from __future__ import annotations

from typing import Any, Mapping

from forumgm.engines.base import Game
from forumgm.engines.arena.rules import ArenaRules
from forumgm.engines.arena.table import load_table

RULES = ArenaRules()


def make_rules(table: Mapping[str, Any]) -> ArenaRules:
    return ArenaRules(load_table(table))


GAME = Game(make_rules)     # registered in pyproject.toml under forumgm.games
