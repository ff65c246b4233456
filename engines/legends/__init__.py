"""Legends of Sword and Magic: clan mafia with numeric skills (the rules: docs/legends.md).

`RULES` needs the rule table in `setup["rules"]`; `make_rules(mapping)` binds the table
(config/legends/rules.toml, read by the caller) once, which is how the daemon builds it.
"""
from __future__ import annotations

from typing import Any, Mapping

from forumgm.engines.base import Game
from forumgm.engines.legends.rules import LegendsRules
from forumgm.engines.legends.table import load_rule_table

RULES = LegendsRules()


def make_rules(table: Mapping[str, Any]) -> LegendsRules:
    return LegendsRules(load_rule_table(table))


GAME = Game(make_rules)     # registered in pyproject.toml under forumgm.games
