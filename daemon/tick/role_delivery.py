"""The role PMs drafted at the deal: the role itself, or a one-time link to it (docs/mafia.md).

With `role_delivery = "link"` in the game config the role text is stored behind a one-time
token (daemon/store/role_links.py) and the PM holds only the link to the host's web page
([web] public_url): the forum's PM store never sees the role, and the page shows it once. The
draft holds the link's mark, never its token: the token goes into the PM as it is sent.
"""
from __future__ import annotations

from typing import Any

from forumgm.daemon.store.role_links import role_link_mark, role_link_path
from forumgm.engines.base import OutgoingPm

LINK = "common/role_link.j2"


def role_drafts(game: Any, store, state: Any) -> list[OutgoingPm]:
    pms = game.rules.role_pms(state, game.texts)
    if game.config.role_delivery != "link":
        return pms
    base = (game.web_url or "").rstrip("/")
    return [OutgoingPm(pm.to, pm.kind, game.texts.render(LINK, nick=pm.to, url=base + role_link_path(
                role_link_mark(store.create_role_link(game.id, pm.to, pm.text)))), subject=pm.subject)
            for pm in pms]
