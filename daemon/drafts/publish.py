"""Publish approved drafts to the forum, each at most once, with nothing hidden in the text.

Before a draft is sent, the newest id the board is known to show is kept with it (the thread's
last post, or the newest PM in the sent folders) and the draft is marked "sending"; after the
forum's answer it is "sent" with the forum's id. A draft found still "sending" (the daemon died,
the answer was lost, or the board answered 5xx after posting) is first looked for among what the
host's account posted after that id, by recipient, subject and text as the board shows them
(daemon/forum/sent_text.py); it is sent again only when it is not there. A board that took a
text without naming it (SMF) gets the same search at once, and the text is never sent twice.

A board's flood rule (MyBB: a member's PMs 60 s apart) holds a text the adapter does not wait
for inside the tick (FloodPause): the draft goes back to approved, noted as waiting, the board
having taken nothing, and `PublishReport.waiting` says when the tick after the pause is due; the
drafts after it go on (a post waits for another pause than a PM).

Before the first PM of a run, forumgm's recorded copies leave the account's sent folder where the
board counts them against a limit (sent_copies.py); on a board that keeps no copy once that space
is full (MyBB), the PMs then wait, noted for the host, instead of going where no copy could
confirm them: a PM held so goes by itself once there is room.

Each draft is published on its own: a draft the forum refuses for good (ForumRefused) goes back
to the host with the forum's message, and a draft that fails otherwise keeps its problem where
the host looks (`forumgm drafts`, status, the web page) while the other drafts go on. Only a
forum that does not answer at all ends publishing for the tick.
"""
from __future__ import annotations

import logging
from dataclasses import dataclass, field
from datetime import datetime
from typing import Callable

from forumgm.daemon.drafts.pictures import forum_text, mark_of, no_public_url, shown_picture
from forumgm.daemon.forum.adapter import Attachment
from forumgm.daemon.forum.errors import (
    Accepted, FloodPause, ForumError, ForumRefused, NoAttachments, Unproven, Unreachable,
)
from forumgm.daemon.forum.housekeeping.sent_copies import holds_pms, tidy_sent
from forumgm.daemon.store.seats import holder_at

log = logging.getLogger(__name__)

DEFAULT_PM_SUBJECT = "Сообщение ведущего"


@dataclass
class PublishReport:
    sent: dict[int, str] = field(default_factory=dict)          # draft id -> forum post/PM id
    reconciled: dict[int, str] = field(default_factory=dict)    # found on the forum, not re-sent
    refused: dict[int, str] = field(default_factory=dict)       # draft id -> the forum's message
    failed: dict[int, str] = field(default_factory=dict)        # draft id -> what went wrong; it waits
    waiting: dict[int, datetime] = field(default_factory=dict)  # held by the board's flood pause: until
    held: dict[int, str] = field(default_factory=dict)          # PMs held while the sent PMs' space is full
    error: str | None = None                                    # the forum did not answer: the rest waits
    interrupted: bool = False                                   # a deadline passed: the rest waits for its resolution

    @property
    def ok(self) -> bool:
        return self.error is None and not self.failed


def publish_approved(forum, store, now: datetime, forum_id: str | None = None,
                     until: Callable[[], bool] | None = None) -> PublishReport:
    """Every approved draft (and every one left `sending`), oldest first; before each, `until` may
    say that something more urgent is due (a phase to resolve): the rest waits for the next tick."""
    report = PublishReport()
    sending = _of_forum(store, store.sending_drafts(), forum_id)
    approved = _of_forum(store, store.approved_drafts(), forum_id)
    baselines = _Baselines(forum, store)
    space = _SentSpace(forum, store, now)
    held_back: set[tuple[str, str | None]] = set()     # (game, phase) whose thread post waits
    for draft in sending + approved:
        if until is not None and until():
            report.interrupted = True
            log.info("publishing stops: a deadline has passed; the drafts left go after its resolution")
            break
        phase = (draft["game_id"], draft["phase_key"])
        if draft["target"] == "thread" and phase in held_back:
            continue    # a phase's reports go in their order: the one before waits, so do those after it
        try:
            if draft["status"] == "approved" and draft["target"] != "thread" and space.full():
                store.mark_waiting(draft["id"], FULL_NOTE, now)
                report.held[draft["id"]] = FULL_NOTE
                continue
            _publish(forum, store, draft, now, report, baselines)
            if draft["target"] == "thread" and draft["id"] in report.waiting:
                held_back.add(phase)
        except Unreachable as error:
            report.error = str(error)
            report.failed[draft["id"]] = str(error)
            log.warning("publishing stopped for this tick: %s", error)
            break
        except Exception as error:  # one draft's failure, whatever it is, stops only that draft
            reason = f"{type(error).__name__}: {error}" if not str(error) else str(error)
            report.failed[draft["id"]] = reason
            if draft["target"] == "thread":
                held_back.add(phase)
            store.note_send_problem(draft["id"], reason, now)
            log.warning("draft %s not published: %s", draft["id"], reason, exc_info=not isinstance(error, ForumError))
    return report


def _publish(forum, store, draft: dict, now: datetime, report: PublishReport, baselines: "_Baselines") -> None:
    if draft["status"] == "sending":
        found = _find(forum, store, draft)
        if found is not None:
            store.mark_sent(draft["id"], found, now)
            report.reconciled[draft["id"]] = found
            return
    else:
        if _text(store, draft) is None and not getattr(forum, "attaches", False):
            why = no_public_url(draft["pictures"] or [])
            store.mark_refused(draft["id"], why, now)
            report.refused[draft["id"]] = why
            return
        store.mark_sending(draft["id"], now, after=baselines.of(draft))
        draft = store.draft(draft["id"])
    try:
        if draft["target"] == "thread":
            ref = _reply(forum, store, draft)
        else:
            ref = forum.send_pm(_recipient(store, draft), _subject(draft), _text(store, draft))
    except ForumRefused as refused:
        store.mark_refused(draft["id"], str(refused), now)
        report.refused[draft["id"]] = str(refused)
        log.warning("draft %s refused by the forum: %s", draft["id"], refused)
        return
    except FloodPause as pause:
        store.mark_waiting(draft["id"], _waiting(pause), now)
        report.waiting[draft["id"]] = pause.until
        log.info("draft %s waits for the forum's flood pause until %s: %s", draft["id"], pause.until.isoformat(), pause)
        return
    except Accepted as accepted:
        try:
            ref = _find(forum, store, draft)
        except Unproven:
            ref = None
        if ref is None:   # the board said it took it: never sent again, even when it cannot be found
            log.warning("draft %s: %s, but it is not found among the account's texts; recorded as sent "
                        "without the forum's id", draft["id"], accepted)
            ref = ""
    store.mark_sent(draft["id"], ref, now)
    report.sent[draft["id"]] = ref


FULL_NOTE = ("waiting: the account's PMs fill all the space the forum allows, and it would keep no sent copy "
             "to confirm this PM by; delete old PMs on the forum and it goes by itself")


class _SentSpace:
    """The sent folder tidied once per run, before its first PM (only when no PM of the forum is left
    `sending`: its search reads the folder as it is); whether the board would keep no copy now."""

    def __init__(self, forum, store, now: datetime):
        self.forum, self.store, self.now = forum, store, now
        self._full: bool | None = None

    def full(self) -> bool:
        if self._full is None:
            self._full = self._tidy()
        return self._full

    def _tidy(self) -> bool:
        pms = getattr(self.forum, "spec", None) and self.forum.spec.pm
        if pms is None or not pms.sent_counted:
            return False
        forum_id = self.forum.settings.id
        if _of_forum(self.store, [d for d in self.store.sending_drafts() if d["target"] != "thread"], forum_id):
            return False
        try:
            return holds_pms(self.forum, tidy_sent(forum_id, self.forum, self.store, self.now))
        except ForumError as error:   # the PMs go as before; the next run looks again
            log.warning("forum %s: the sent folder could not be read: %s", forum_id, error)
            return False


def _waiting(pause: FloodPause) -> str:
    said = f" (the forum: «{pause.reason}»)" if pause.reason else ""
    return f"waiting for the forum's flood pause, {pause.wait:.0f} s{said}; it goes by itself after it"


def _reply(forum, store, draft: dict) -> str:
    """Post a thread draft; the picture it shows is attached inline where the board takes files from
    the account, else linked at the page's public address."""
    url = _thread_url(store, draft)
    mark = mark_of(draft["pictures"] or [])
    shown = shown_picture(draft["pictures"] or []) if mark in draft["body"] else None
    if shown is not None and getattr(forum, "attaches", False):
        path = shown[1]
        try:
            return forum.reply(url, _text(store, draft, shown=mark), attachments=[Attachment(path.name, path.read_bytes(), mark)])
        except NoAttachments as refused:
            if _text(store, draft) is None:
                raise ForumRefused(f"{refused}; {no_public_url(draft['pictures'])}") from refused
            log.info("draft %s: %s; its picture goes as a link to the page's public address", draft["id"], refused)
    text = _text(store, draft)
    if text is None:
        raise ForumRefused(no_public_url(draft["pictures"] or []))
    return forum.reply(url, text)


def _find(forum, store, draft: dict) -> str | None:
    """The draft among what the account posted or sent after the draft's baseline, not already
    recorded as another draft's. A picture is looked for by nothing (boards show it as a picture,
    whether attached or linked): the words around it say which post it is."""
    if draft["target"] == "thread":
        url = _thread_url(store, draft)
        return forum.find_own_post(url, _text(store, draft, shown=""), after=draft["sent_after"],
                                   since=draft["sending_at"], claimed=store.claimed_posts(url),
                                   pages_known=store.thread_cursor(draft["game_id"])["pages"] or 0)
    return forum.find_sent_pm(_recipient(store, draft), _subject(draft), _text(store, draft), after=draft["sent_after"],
                              claimed=store.claimed_pms(store.game(draft["game_id"])["forum_id"]))


def _text(store, draft: dict, shown: str | None = None) -> str | None:
    """What the forum gets: the body, with the pictures it carries where its mark is: the shown one
    as `shown` (the board's inline attachment) or linked at the page's public address, the others
    linked (None: the shown one has no address to link); a role link's token where its mark is (made
    here, never stored: daemon/store/role_links.py)."""
    text = forum_text(draft, (store.game(draft["game_id"])["settings"] or {}).get("web_url"), shown)
    return None if text is None else store.with_role_links(text)


class _Baselines:
    """The newest id shown before sending: a thread's from the store (the sync just read it), the
    sent folders' read once per publishing run (any id from before the send will do)."""

    def __init__(self, forum, store):
        self.forum, self.store = forum, store
        self._sent: list[str | None] = []

    def of(self, draft: dict) -> str | None:
        if draft["target"] == "thread":
            return self.store.thread_cursor(draft["game_id"])["last_post_id"]
        if not self._sent:
            self._sent.append(self.forum.newest_sent_pm())
        return self._sent[0]


def _recipient(store, draft: dict) -> str:
    """A PM drafted to a seat goes to whoever holds the seat when it is sent (forumgm replace)."""
    return holder_at(store, draft["game_id"], draft["target"])


def _subject(draft: dict) -> str:
    return draft.get("subject") or DEFAULT_PM_SUBJECT


def _thread_url(store, draft: dict) -> str:
    return store.game(draft["game_id"])["thread_url"]


def _of_forum(store, drafts: list[dict], forum_id: str | None) -> list[dict]:
    if forum_id is None:
        return drafts
    return [d for d in drafts if (store.game(d["game_id"]) or {}).get("forum_id") == forum_id]
