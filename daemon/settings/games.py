"""Which engine plays which game, with its shipped rule table and the host's overrides."""
from __future__ import annotations

import functools
import importlib
from typing import Any, Mapping

from forumgm.config import read_rule_table
from forumgm.engines.base import Maps, Rules, maps_of


# every game this forumgm plays, each by its engine package forumgm.engines.<game>
GAMES = ("legends", "mafia", "bellum", "arena")


def rule_table(game_type: str, overrides: Mapping[str, Any] | None = None) -> dict:
    """The game's shipped rule table (config/<game>/rules.toml), overridden key by key."""
    return merge(read_rule_table(game_type), overrides or {})


def merge(base: Mapping[str, Any], override: Mapping[str, Any]) -> dict:
    out = dict(base)
    for key, value in override.items():
        if isinstance(value, Mapping) and isinstance(out.get(key), Mapping):
            out[key] = merge(out[key], value)
        else:
            out[key] = value
    return out


def rules_for(game_type: str, overrides: Mapping[str, Any] | None = None) -> Rules:
    module = importlib.import_module(f"forumgm.engines.{game_type}")
    make_rules = getattr(module, "make_rules", None)
    if make_rules is not None:
        return make_rules(rule_table(game_type, overrides))
    return module.RULES


def shipped_rules(game_type: Any) -> Rules | None:
    """The game's engine under its shipped rule table; None when this forumgm has no such game."""
    return _shipped_rules(game_type) if game_type in GAMES else None


@functools.cache
def _shipped_rules(game_type: str) -> Rules | None:
    try:
        return rules_for(game_type)
    except ModuleNotFoundError:
        return None


def game_title(game_type: str) -> str:
    """The game's name as hosts and players call it («Мафия», `Rules.title`); the type code only for
    a game this forumgm has no engine for."""
    rules = shipped_rules(game_type)
    return game_type if rules is None else rules.title


def phase_kinds(game_type: Any) -> tuple[str, ...]:
    """The kinds of phase the game's engine opens (Rules.phase_kinds); none for a game without an engine."""
    return getattr(shipped_rules(game_type), "phase_kinds", ())


def game_maps(game_type: str) -> Maps | None:
    """The maps the game's engine draws (engines.base.Maps); None for a game drawn on no map."""
    return maps_of(shipped_rules(game_type))
