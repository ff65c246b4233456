"""Publish approved drafts to the forum, each at most once.

Every text carries an invisible marker naming its draft (zero-width characters after the
body). A draft is marked "sending" before the forum request and "sent" with the forum's id after
it. A draft found still "sending" (the daemon died, or the forum's answer was lost) is first
looked for on the forum by its marker; it is sent again only when it is not there. A draft the
forum refuses for good (ForumRefused: unknown recipient, too long, a validation error) goes back
to the host with the forum's message instead of being tried again on every tick.
"""
from __future__ import annotations

import logging
from dataclasses import dataclass, field
from datetime import datetime

from forumgm.daemon.forum.errors import ForumError, ForumRefused

log = logging.getLogger(__name__)

_START, _ZERO, _ONE = "\u200b", "\u200c", "\u200d"
DEFAULT_PM_SUBJECT = "Сообщение ведущего"


def draft_marker(draft_id: int) -> str:
    """Invisible in the rendered post and neutral to BBCode: the id in binary, zero-width."""
    bits = format(int(draft_id), "b")
    return _START + "".join(_ONE if bit == "1" else _ZERO for bit in bits) + _START


def with_marker(body: str, draft_id: int) -> str:
    return body.rstrip() + draft_marker(draft_id)


@dataclass
class PublishReport:
    sent: dict[int, str] = field(default_factory=dict)          # draft id -> forum post/PM id
    reconciled: dict[int, str] = field(default_factory=dict)    # found on the forum, not re-sent
    refused: dict[int, str] = field(default_factory=dict)       # draft id -> the forum's message
    error: str | None = None                                    # the first failure; the rest waits

    @property
    def ok(self) -> bool:
        return self.error is None


def publish_approved(forum, store, now: datetime, forum_id: str | None = None) -> PublishReport:
    report = PublishReport()
    try:
        for draft in _of_forum(store, store.sending_drafts(), forum_id):
            found = _find(forum, store, draft)
            if found:
                store.mark_sent(draft["id"], found, now)
                report.reconciled[draft["id"]] = found
            else:
                _send(forum, store, draft, now, report)
        for draft in _of_forum(store, store.approved_drafts(), forum_id):
            store.mark_sending(draft["id"], now)
            _send(forum, store, draft, now, report)
    except ForumError as error:
        report.error = str(error)
        log.warning("publishing stopped: %s", error)
    return report


def _send(forum, store, draft: dict, now: datetime, report: PublishReport) -> None:
    body = with_marker(draft["body"], draft["id"])
    try:
        if draft["target"] == "thread":
            ref = forum.reply(_thread_url(store, draft), body)
        else:
            ref = forum.send_pm(draft["target"], _subject(draft), body)
    except ForumRefused as refused:
        store.mark_refused(draft["id"], str(refused), now)
        report.refused[draft["id"]] = str(refused)
        log.warning("draft %s refused by the forum: %s", draft["id"], refused)
        return
    store.mark_sent(draft["id"], ref, now)
    report.sent[draft["id"]] = ref


def _find(forum, store, draft: dict) -> str | None:
    marker = draft_marker(draft["id"])
    if draft["target"] == "thread":
        return forum.find_own_post(_thread_url(store, draft), marker, since=draft["sending_at"])
    return forum.find_sent_pm(draft["target"], _subject(draft), marker)


def _subject(draft: dict) -> str:
    return draft.get("subject") or DEFAULT_PM_SUBJECT


def _thread_url(store, draft: dict) -> str:
    return store.game(draft["game_id"])["thread_url"]


def _of_forum(store, drafts: list[dict], forum_id: str | None) -> list[dict]:
    if forum_id is None:
        return drafts
    return [d for d in drafts if (store.game(d["game_id"]) or {}).get("forum_id") == forum_id]
