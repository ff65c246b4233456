"""forumgm's own copies in the host's sent folder leave it once their send is recorded ([forum]
sent_cleanup, on by default), so that they never fill the space the board allows the account.

MyBB counts every folder against a member's PM quota (200) and, at it, keeps no copy of a new PM;
phpBB holds 50 in the sent folder and deletes the oldest past that itself. A PM whose answer was
lost (the draft left `sending`) is confirmed only by its copy there (publish.py), so:
- only the copy of a draft recorded as sent with the board's id goes, or of a notice to the host by
  PM (daemon/notify) found right after it went; a copy the board never named (recorded without an
  id) is not known to be ours and stays;
- nothing goes while a PM draft of the forum is still `sending`: its search reads the folder as it is;
- a copy stays KEPT_FOR after its send (the host may look at what went), unless the board says the
  space is NEARLY_FULL, when every recorded copy may go; the oldest go first;
- phpBB's outbox (PMs not read yet) is never touched: deleting there takes the PM back unread.
What the board says of the space afterwards is kept for the host (`forumgm status`, the web page),
and on a board that keeps no copy when full (MyBB) the PMs wait, with a note, rather than go
unconfirmable: they go by themselves once there is room.
"""
from __future__ import annotations

import logging
from datetime import datetime, timedelta

from forumgm.daemon.forum.errors import ForumError
from forumgm.daemon.forum.housekeeping.inbox_cleanup import INBOX_NEARLY_FULL

log = logging.getLogger(__name__)

KEPT_FOR = timedelta(days=1)
NEARLY_FULL = INBOX_NEARLY_FULL
BATCH = 50          # copies asked for in one request (phpBB's confirm form carries each as a field)


def tidy_sent(forum_id: str, forum, store, now: datetime) -> float | None:
    """Delete the forum's recorded sent copies that may go; how full the board then says the
    account's sent PMs are (a share of its limit; None: it shows no limit)."""
    space = forum.sent_space().fill
    if forum.settings.sent_cleanup:
        space = _delete(forum_id, forum, store, now, space)
    store.set_sent_space(forum_id, space, space_note(forum, space))
    return space


def _delete(forum_id: str, forum, store, now: datetime, space: float | None) -> float | None:
    pressed = space is not None and space >= NEARLY_FULL
    candidates = store.sent_copies(forum_id, None if pressed else now - KEPT_FOR, BATCH)
    unread = forum.sent_unplaced() if candidates else set()
    going = [ref for ref in candidates if ref not in unread]
    if not going:
        return space
    try:
        forum.remove_sent_pms(going)
    except ForumError as error:   # the copies stay; the space the board shows says what that costs
        log.warning("forum %s: forumgm's sent copies could not be deleted: %s", forum_id, error)
        return space
    store.sent_copies_removed(forum_id, going, now)
    after = forum.sent_space().fill
    log.info("forum %s: deleted %d of forumgm's recorded sent copies (%s); the sent PMs now fill %s",
             forum_id, len(going), ", ".join(going), _share(after))
    return after


def holds_pms(forum, space: float | None) -> bool:
    """A PM sent now would leave no copy to confirm it by: the board keeps none when full (MyBB)."""
    return space is not None and space >= 1 and forum.pms().full_keeps_no_copy


def space_note(forum, space: float | None) -> str | None:
    """What the host is to know of the account's sent PMs' space (None: nothing)."""
    if space is None or space < NEARLY_FULL:
        return None
    what = f"the account's PMs on the forum fill {_share(space)} of the space {forum.spec.name} allows"
    cleaned = ("forumgm deletes its own sent copies once recorded; the rest is the account's: delete old PMs on "
               "the forum" if forum.settings.sent_cleanup
               else "[forum] sent_cleanup is off: delete old sent PMs on the forum")
    if forum.pms().full_keeps_no_copy:
        then = ("PMs wait until there is room (a full box keeps no sent copy, and a PM whose answer is lost "
                "could not be confirmed)" if space >= 1 else "when it is full, PMs wait until there is room")
    else:
        then = "when it is full, the forum deletes the oldest sent copies itself"
    return f"{what}; {cleaned}; {then}"


def _share(space: float | None) -> str:
    return "an unknown share" if space is None else f"{space:.0%}"
