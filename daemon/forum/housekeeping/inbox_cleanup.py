"""Stored PMs leave the board's inbox ([forum] inbox_cleanup, off by default), so that a long game
does not fill it: a board holds a limited number of PMs and then holds new ones back unseen.

A PM goes only when all of these hold:
- the store has it with its text, or it is a PM the account sent itself (a notice approved to the
  host's own account, whose text is the draft's). This is checked again inside a transaction that is synced to
  disk (with everything committed before it) before the board is asked: a crash at any moment
  leaves a PM on the board or in the store, never in neither;
- nothing forumgm drafted in answer to it waits: its receipt, or the host's notice of a PM from
  nobody's player, is sent, rejected or superseded;
- the store has had it for `inbox_cleanup_after`, or the inbox holds `inbox_cleanup_fill` of its
  limit (as its page says), when age no longer matters.
Only PMs of the inbox pages this sync read are considered (the newest pages, where a cleaned
inbox keeps everything). Whether the board removed them, the inbox read afterwards tells.
"""
from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Sequence

from forumgm.parsers.forums.base import Listing

INBOX_NEARLY_FULL = 0.8      # of a folder's limit: the host is warned before new PMs are held back

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Cleanup:
    action: str                 # "delete" | "move"
    folder: str | None          # move: the account's PM folder on the board
    after: timedelta
    fill: float

    @classmethod
    def of(cls, settings: Any) -> "Cleanup | None":
        """The forum's policy from its settings (forum.ForumSettings); None when it is off."""
        action = getattr(settings, "inbox_cleanup", "off")
        if action == "off":
            return None
        return cls(action, settings.inbox_cleanup_folder, settings.inbox_cleanup_after, settings.inbox_cleanup_fill)


def under_pressure(listing: Listing | None, fill: float) -> bool:
    """The inbox holds `fill` of its limit or more (a board that shows no limit never is)."""
    return bool(listing and listing.limit and listing.stored is not None and listing.stored >= listing.limit * fill)


def clean_inbox(forum_id: str, forum, store, cleanup: Cleanup, listed: Sequence[str], listing: Listing | None,
                now: datetime) -> list[str]:
    """Ask the board to remove the PMs of `listed` (inbox ids, as read) that may go; the ids asked for."""
    stored_before = None if under_pressure(listing, cleanup.fill) else now - cleanup.after
    candidates = store.removable_pms(forum_id, listed, stored_before)
    if not candidates:
        return []
    with store.durably():
        asked = store.ask_pm_removal(forum_id, candidates, cleanup.action, now)
    if asked:
        forum.remove_pms(asked, cleanup.action, cleanup.folder)
        log.info("forum %s: asked the board to %s %d stored PMs (%s)", forum_id, cleanup.action, len(asked),
                 ", ".join(asked))
    return asked


def confirm_removed(forum_id: str, store, asked: Sequence[str], still_listed: set[str], now: datetime) -> list[str]:
    """Note what the board removed; the ids it still lists (tried again on a later sync)."""
    kept = [pm_id for pm_id in asked if pm_id in still_listed]
    store.pm_removals_done(forum_id, [pm_id for pm_id in asked if pm_id not in still_listed], now)
    if kept:
        log.warning("forum %s: the board still lists PMs it was asked to remove (%s); tried again later",
                    forum_id, ", ".join(kept))
    return kept
