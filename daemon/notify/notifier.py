"""After each tick: the events the host has not been told of yet, in one message, by every channel.

Nothing is sent while the quiet period after the last message runs (the events wait and go out
together after it); an event that ended meanwhile (a draft approved) is not told at all. An event
counts as told once one channel has delivered the message; when every channel fails, the next tick
tries again.
"""
from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Sequence

from forumgm.config import load_texts
from forumgm.daemon.notify.channels import send_email, send_pm
from forumgm.daemon.notify.events import ORDER, current_events
from forumgm.daemon.settings.notify import NotifyConfig
from forumgm.daemon.settings.secrets import read_password
from forumgm.daemon.store import Store

log = logging.getLogger(__name__)

TEMPLATE = "notify/message.j2"


@dataclass
class Notifier:
    config: NotifyConfig
    password: str                # the SMTP password ("" without a login)
    texts: Any                   # forumgm.engines.texts.Texts
    forum_id: str = "forum"      # the installation's forum, whose account sends the PMs

    def run(self, store: Store, forum: Any, games: Sequence[Any], now: datetime) -> list[str]:
        """The keys of the events told now (none in the quiet period or when nothing is new)."""
        last = store.last_notification_at()
        if last is not None and now < last + self.config.quiet:
            return []
        told = store.notified_keys()
        events = [e for e in current_events(store, games, now, timedelta(hours=self.config.deadline_hours))
                  if e.key not in told]
        if not events:
            return []
        subject = f"forumgm: нужен ведущий ({len(events)})"
        body = self.texts.render(TEMPLATE, groups={kind: [e for e in events if e.kind == kind] for kind in ORDER})
        copies: list[str] = []
        delivered = [channel for channel in self.config.channels if self._send(channel, forum, subject, body, copies)]
        if not delivered:
            return []
        keys = [event.key for event in events]
        with store.transaction():
            store.record_notification(keys, now)
            store.record_notice_copies(self.forum_id, copies, now)
            store.audit("daemon", "notify.sent", {"channels": delivered, "events": keys})
        return keys

    def _send(self, channel: str, forum: Any, subject: str, body: str, copies: list[str]) -> bool:
        """Whether `channel` delivered; a PM's copy in the account's sent folder joins `copies`."""
        try:
            if channel == "pm":
                copies += filter(None, [send_pm(forum, self.config, subject, body)])
            else:
                send_email(self.config, self.password, subject, body)
        except Exception as error:     # a channel down must not stop the daemon; the other may deliver
            log.error("notify: the %s to the host failed: %s", "PM" if channel == "pm" else "e-mail", error)
            return False
        return True


def notifier_for(installation) -> Notifier | None:
    """The installation's notifier, or None without a [notify] table; the SMTP password is read now."""
    config = installation.notify
    if config is None:
        return None
    password = read_password(config.password_env, config.password_file, "the SMTP password") \
        if "email" in config.channels and config.smtp_user else ""
    return Notifier(config, password, load_texts(), installation.forum.id)
