"""Who holds which role in a game now: for the host's eyes only (his page behind the login, `forumgm
status --roles`). Never put into a post, a log line or a page anyone else can open."""
from __future__ import annotations

from typing import Any

from forumgm.daemon.store import Store
from forumgm.engines.base import RoleRow


def roles_now(store: Store, game_id: str, rules: Any) -> list[RoleRow]:
    """The game's roles after its latest phase (Rules.role_table); none before the deal or without an engine."""
    snapshot = store.latest_snapshot(game_id)
    if rules is None or snapshot is None:
        return []
    return rules.role_table(rules.load(snapshot["state"]))
