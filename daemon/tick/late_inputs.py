"""A thread post that reaches forumgm after the phase it was written for resolved: the host is told.

A sync that cannot read a page whole resolves nothing (a page cut short is read again, a page that
disagrees stops the game). Yet a board may show a post only later than it dates it: a moderator
approves it, a cache or a proxy served an older page, a forumgm before the check of cut pages read
one short. Dated before a resolved phase's deadline and not before its opening, such a post was an
input the resolution never saw: one notice per post, to the host's own account and waiting for
him; whether `forumgm resolve … --rerun` is due is his to judge.
"""
from __future__ import annotations

import logging
from typing import Any, Iterable

from forumgm.daemon.drafts.compose import draft
from forumgm.daemon.settings.local_time import shown
from forumgm.daemon.store import Store
from forumgm.daemon.tick.notices import KIND

log = logging.getLogger(__name__)

TEMPLATE = "common/notice_late_post.j2"
SUBJECT = "Пост пришёл после подсчёта"


def draft_late_posts(game: Any, store: Store, new_post_ids: Iterable[str]) -> list[int]:
    """A notice for each of the game's posts just read (`new_post_ids`) that a resolved phase should
    have seen; `game` is a tick.GameRun. The ids of the drafts made now."""
    wanted = set(new_post_ids)
    if not wanted:
        return []
    resolved = store.phases(game.id, status="resolved")
    host = (game.account or "").casefold()
    zone = game.config.time_zone
    made = []
    for post in store.posts(game.id):
        at = post["posted_at"]
        if post["post_id"] not in wanted or at is None or post["author"].casefold() == host:
            continue
        missed = [phase for phase in resolved if at < phase["deadline"] and (phase["opens_at"] is None
                                                                              or phase["opens_at"] <= at)]
        if not missed:
            continue
        phase = missed[-1]
        body = game.texts.render(TEMPLATE, author=post["author"], post_id=post["post_id"], phase=phase["key"],
                                 game=game.id, time=shown(at, zone),
                                 deadline=shown(phase["deadline"], zone),
                                 link=game.post_url(post["post_id"]))
        made.append(draft(store, game.id, KIND, game.account, body, phase["key"], approval=game.config.approval,
                          ref=f"late_post:{post['post_id']}", subject=SUBJECT))
        log.warning("game %s: post %s, dated %s, was read only after phase %s resolved; the host is told",
                    game.id, post["post_id"], at.isoformat(), phase["key"])
    return made
