"""The rules freeze: the rule config is hashed at the start (the deal, `setup`) and may not
change afterwards unless the host forces it (the next report then says so)."""
from __future__ import annotations

import hashlib
import json
from dataclasses import replace

from forumgm.engines.base import RulesFrozen
from forumgm.engines.mafia.state import MafiaState, RuleConfig


def rules_hash(rules: RuleConfig) -> str:
    text = json.dumps(rules.as_json(), ensure_ascii=False, sort_keys=True)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def change_rules(state: MafiaState, rules: RuleConfig, force: bool = False) -> MafiaState:
    """The state under a new rule config: refused after the start unless forced."""
    new_hash = rules_hash(rules)
    if new_hash == state.rules_hash:
        return state
    if not force:
        raise RulesFrozen(f"the rules are frozen since the start (hash {state.rules_hash[:12]}); "
                          "force the change to apply it")
    return replace(state, rules=rules, rules_hash=new_hash, forced_changes=state.forced_changes + (new_hash,))
