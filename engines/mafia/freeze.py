"""The rule config a Mafia game plays under, hashed at the deal (`setup`); a change the host accepts
afterwards (the daemon's rules freeze, `Rules.with_rules`) is noted, and the next report says so."""
from __future__ import annotations

import hashlib
import json
from dataclasses import replace

from forumgm.engines.mafia.state import MafiaState, RuleConfig


def rules_hash(rules: RuleConfig) -> str:
    text = json.dumps(rules.as_json(), ensure_ascii=False, sort_keys=True)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def change_rules(state: MafiaState, rules: RuleConfig) -> MafiaState:
    """The state under a rule config the host accepted; the same state when it is the dealt one."""
    new_hash = rules_hash(rules)
    if new_hash == state.rules_hash:
        return state
    return replace(state, rules=rules, rules_hash=new_hash, forced_changes=state.forced_changes + (new_hash,))
