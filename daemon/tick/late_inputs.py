"""An input that reaches forumgm after the phase it was written for resolved: the host is told.

A sync that cannot read a page whole resolves nothing (a page cut short is read again, a page that
disagrees stops the game). Yet a board may show a post or a PM only later than it dates it: a
moderator approves it, a cache or a proxy served an older page, a forumgm before the check of cut
pages read one short. Dated before a resolved phase's deadline and not before its opening, such a
post or PM was an input the resolution never saw: one notice per input, to the host's own account
and waiting for him; whether `forumgm resolve … --rerun` is due (after `forumgm correct`, for a PM
read as an order of a later phase) is his to judge.
"""
from __future__ import annotations

import logging
from datetime import datetime
from typing import Any, Iterable

from forumgm.daemon.drafts.compose import draft
from forumgm.daemon.settings.local_time import shown
from forumgm.daemon.store import Store
from forumgm.daemon.tick.notices import KIND

log = logging.getLogger(__name__)

TEMPLATE = "common/notice_late_post.j2"
SUBJECT = "Пост пришёл после подсчёта"
PM_TEMPLATE = "common/notice_late_pm.j2"
PM_SUBJECT = "ЛС пришло после подсчёта"


def draft_late_posts(game: Any, store: Store, new_post_ids: Iterable[str]) -> list[int]:
    """A notice for each of the game's posts just read (`new_post_ids`) that a resolved phase should
    have seen; `game` is a tick.GameRun. The ids of the drafts made now."""
    wanted = set(new_post_ids)
    if not wanted:
        return []
    resolved = store.phases(game.id, status="resolved")
    host = (game.account or "").casefold()
    made = []
    for post in store.posts(game.id):
        at = post["posted_at"]
        if post["post_id"] not in wanted or at is None or post["author"].casefold() == host:
            continue
        phase = _missed(resolved, at)
        if phase is None:
            continue
        made.append(_notice(game, store, phase, at, TEMPLATE, SUBJECT, f"late_post:{post['post_id']}",
                            author=post["author"], post_id=post["post_id"], link=game.post_url(post["post_id"])))
        log.warning("game %s: post %s, dated %s, was read only after phase %s resolved; the host is told",
                    game.id, post["post_id"], at.isoformat(), phase["key"])
    return made


def draft_late_pm(game: Any, store: Store, pm: dict, at: datetime, nick: str, filed_as: str) -> int | None:
    """A notice when the PM just read as `nick`'s orders (filed under `filed_as`) is dated inside a
    phase already resolved: every PM in the store when a phase resolves was read before it, so one
    read only now reached forumgm after that resolution. The draft's id, or None."""
    phase = _missed(store.phases(game.id, status="resolved"), at)
    if phase is None:
        return None
    log.warning("game %s: PM %s, dated %s, was read only after phase %s resolved; the host is told",
                game.id, pm["pm_id"], at.isoformat(), phase["key"])
    return _notice(game, store, phase, at, PM_TEMPLATE, PM_SUBJECT, f"late_pm:{pm['pm_id']}",
                   sender=nick, pm_id=pm["pm_id"], pm_subject=pm["subject"] or "", filed=filed_as)


def _missed(resolved: list[dict], at: datetime) -> dict | None:
    """The latest resolved phase whose opening and deadline `at` lies between."""
    missed = [phase for phase in resolved
              if at < phase["deadline"] and (phase["opens_at"] is None or phase["opens_at"] <= at)]
    return missed[-1] if missed else None


def _notice(game: Any, store: Store, phase: dict, at: datetime, template: str, notice_subject: str, ref: str,
            **context) -> int:
    zone = game.config.time_zone
    body = game.texts.render(template, phase=phase["key"], game=game.id,
                             time=shown(at, zone), deadline=shown(phase["deadline"], zone), **context)
    return draft(store, game.id, KIND, game.account, body, phase["key"], approval=game.config.approval,
                 ref=ref, subject=notice_subject)
