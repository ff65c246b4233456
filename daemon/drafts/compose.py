"""Every draft is made here, and here the game's [approval] decides whether it waits for the host.

A kind the game's [approval] table sets to false goes out without him; every other kind waits, public
posts and PMs alike. The host's own notices and the sign-up's drafts are no kind an [approval] table
may name (settings/game.py: COMMON_DRAFT_KINDS and the engine's draft_kinds), so they always wait.
"""
from __future__ import annotations

from typing import Mapping, Sequence

from forumgm.daemon.store import Store


def needs_approval(approval: Mapping[str, bool] | None, kind: str) -> bool:
    """Whether a draft of `kind` waits for the host; `approval`: the game's [approval] table, None
    where a draft is made without a game's settings (the sign-up's, before the game is dealt)."""
    return True if approval is None else approval.get(kind, True)


def draft(store: Store, game_id: str, kind: str, target: str, body: str, phase_key: str | None = None, *,
          approval: Mapping[str, bool] | None = None, ref: str | None = None, subject: str = "",
          resolution_id: int | None = None, pictures: Sequence[str] = ()) -> int:
    """A new draft, pending for the host or approved as [approval] says; or the live one already drafted
    for the same `ref` (never twice). `target`: "thread" or the nick a PM goes to."""
    return store.insert_draft(game_id, kind, target, body, phase_key, needs_approval(approval, kind), ref=ref,
                              subject=subject, resolution_id=resolution_id, pictures=pictures)
