"""The commitment made public: at the deal forumgm draws the secret salt, keeps the commitment to
(seed, salt, frozen rules) and drafts the post that shows it; a rule change the host accepts
(`forumgm rules accept`) keeps and posts a new one. The seed and the salt stay in the store's
`games` row until the game's record reveals them (daemon/record/final.py)."""
from __future__ import annotations

from typing import Any

from forumgm.daemon.drafts.compose import draft
from forumgm.daemon.record.commitment import commitment, new_salt
from forumgm.daemon.store import Store

KIND = "commitment"
DEAL_TEMPLATE = "common/commitment.j2"
CHANGED_TEMPLATE = "common/commitment_changed.j2"
SETUP = "setup"


def seal_deal(game: Any, store: Store) -> int:
    """Inside the deal's transaction, after the rules freeze kept the table: the salt, the commitment,
    the draft of its post (the id)."""
    store.set_salt(game.id, new_salt())
    return _seal(game, store, SETUP, DEAL_TEMPLATE)


def seal_again(game: Any, store: Store, changes: list[tuple[str, str | None, str | None]]) -> int:
    """After the host accepted a rule change: the new commitment, in force after the last phase
    resolved, and the public notice of it with the changed keys (key, old, new as TOML writes them)."""
    resolved = store.phases(game.id, status="resolved")
    after = resolved[-1]["key"] if resolved else SETUP
    earlier = store.commitments(game.id)
    return _seal(game, store, after, CHANGED_TEMPLATE, changes=changes,
                 previous=earlier[-1]["digest"] if earlier else None)


def _seal(game: Any, store: Store, after: str, template: str, **context: Any) -> int:
    seed, salt = store.secrets_of(game.id)
    rules = store.game_rules(game.id)["table"]
    digest = commitment(seed, salt, rules)
    store.add_commitment(game.id, digest, rules, after)
    body = game.texts.render(template, game=game.id, digest=digest, **context)
    return draft(store, game.id, KIND, "thread", body, approval=game.config.approval, ref=f"{KIND}:{digest}")
