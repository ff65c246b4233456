"""Which engine plays which game, with its rule table and the host's overrides.

The games are discovered, never listed here: every game registers its `engines.base.Game` under its
type code in the entry-point group `forumgm.games` (the four shipped ones in pyproject.toml).
"""
from __future__ import annotations

import functools
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any, Mapping

from forumgm.config import load_texts, read_rule_table
from forumgm.engines.base import Game, Maps, Rules, maps_of
from forumgm.engines.texts import Texts

GROUP = "forumgm.games"


class UnknownGame(LookupError):
    """A game type no discovered game has."""


@functools.cache
def discovered() -> Mapping[str, Game]:
    """Every game this forumgm plays, by type code (read once; `forget_games` reads them again)."""
    return {point.name: point.load() for point in entry_points(group=GROUP)}


@functools.cache
def game_types() -> tuple[str, ...]:
    """The type codes, without loading the games (every CLI start lists them in its help)."""
    return tuple(point.name for point in entry_points(group=GROUP))


def forget_games() -> None:
    """Discover the games anew: for a game registered while this process runs (a test's)."""
    discovered.cache_clear()
    game_types.cache_clear()
    _shipped_rules.cache_clear()
    _own_table.cache_clear()


def rule_table(game_type: str, overrides: Mapping[str, Any] | None = None) -> dict:
    """The game's own rule table (config/<game>/rules.toml), overridden key by key."""
    return merge(_own_table(game_type), overrides or {})


@functools.cache
def _own_table(game_type: str) -> dict:
    """Read once a process: the rules freeze merges it with a game file's [rules] every tick (and
    nobody changes a table merged from it: `merge` copies what it overrides)."""
    return read_rule_table(game_type, own_data(game_type))


def own_data(game_type: str) -> Path | None:
    """The folder of a game's rule table and templates when it is not shipped in forumgm's config/."""
    data = discovered()[game_type].data
    return None if data is None else Path(data)


def merge(base: Mapping[str, Any], override: Mapping[str, Any]) -> dict:
    out = dict(base)
    for key, value in override.items():
        if isinstance(value, Mapping) and isinstance(out.get(key), Mapping):
            out[key] = merge(out[key], value)
        else:
            out[key] = value
    return out


def rules_for(game_type: str, overrides: Mapping[str, Any] | None = None) -> Rules:
    if game_type not in discovered():
        raise UnknownGame(f"the {game_type} engine is not part of this forumgm")
    return discovered()[game_type].make_rules(rule_table(game_type, overrides))


def shipped_rules(game_type: Any) -> Rules | None:
    """The game's engine under its own rule table; None when this forumgm has no such game."""
    return _shipped_rules(game_type) if game_type in discovered() else None


@functools.cache
def _shipped_rules(game_type: str) -> Rules:
    return rules_for(game_type)


def game_texts(override: Path | None = None) -> Texts:
    """The templates every game renders from: forumgm's, each discovered game's own (one not shipped
    in config/), the host's `override` folder over them."""
    own = tuple(Path(game.data, "templates") for game in discovered().values() if game.data is not None)
    return load_texts(override, own)


def game_title(game_type: str) -> str:
    """The game's name as hosts and players call it («Мафия», `Rules.title`); the type code only for
    a game this forumgm has no engine for."""
    rules = shipped_rules(game_type)
    return game_type if rules is None else rules.title


def phase_kinds(game_type: Any) -> tuple[str, ...]:
    """The kinds of phase the game's engine opens (Rules.phase_kinds); none for a game without an engine."""
    rules = shipped_rules(game_type)
    return () if rules is None else rules.phase_kinds


def game_maps(game_type: str) -> Maps | None:
    """The maps the game's engine draws (engines.base.Maps); None for a game drawn on no map."""
    return maps_of(shipped_rules(game_type))
