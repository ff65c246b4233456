"""The installation's SQLite file: everything seen on the forum, every input, every resolution, every draft.

One file per installation, WAL mode so the host's CLI can read while the daemon writes.
Times go in as aware datetimes and are stored as ISO-8601 UTC text; they come back as aware
UTC datetimes. Every multi-row write runs in one transaction (`Store.transaction()`), and a
transaction takes the write lock at its start (BEGIN IMMEDIATE) so that two processes never
both decide that the same phase is still unresolved.
"""
from __future__ import annotations

from forumgm.daemon.store.audit import Audit
from forumgm.daemon.store.base import RAW_PAGES_KEPT, StoreError, from_text, store_problem, to_text, utc_now
from forumgm.daemon.store.drafts import DRAFT_STATUSES, OPEN_DRAFT_STATUSES, Drafts
from forumgm.daemon.store.games import Games
from forumgm.daemon.store.inbox import Inbox
from forumgm.daemon.store.inputs import Inputs
from forumgm.daemon.store.pages import Thread
from forumgm.daemon.store.phases import Phases
from forumgm.daemon.store.record import Record
from forumgm.daemon.store.role_links import RoleLinks
from forumgm.daemon.store.schema import MIGRATIONS


class Store(Games, Thread, Inbox, Inputs, Phases, Drafts, Audit, RoleLinks, Record):
    """The installation's store, one object: each concern's methods live in its module of this package
    (games, pages, inbox, inputs, phases, drafts, audit, role_links, record), all on one connection."""


__all__ = ["DRAFT_STATUSES", "MIGRATIONS", "OPEN_DRAFT_STATUSES", "RAW_PAGES_KEPT", "Store", "StoreError",
           "from_text", "store_problem", "to_text", "utc_now"]
