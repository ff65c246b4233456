"""Notices for the host about a turn the game took (e.g. Legends going continuous).

An engine's event gets a notice when the game ships a template `<game>/notice_<event type>.j2`;
the notice is a draft for the thread that always waits for the host: he reads it first and
posts it only if he approves.
"""
from __future__ import annotations

from typing import Iterable

from forumgm.engines.base import Event
from forumgm.engines.texts import Texts

KIND = "host_notice"


def host_notices(game_type: str, game_id: str, texts: Texts, events: Iterable[Event]) -> list[str]:
    bodies = []
    for event in events:
        name = f"{game_type}/notice_{event.type}.j2"
        if texts.has(name):
            bodies.append(texts.render(name, event=event.as_json(), game=game_id))
    return bodies
