"""What the host is needed for now, read from the store: each event with a key that names it once.

A key changes when the event is a new one (another draft, a moved deadline, a game stopped again),
so the notifier tells each event at most once however often it looks.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any, Sequence

from forumgm.daemon.store import Store, to_text
from forumgm.daemon.tick.stops import FINISHED, PAUSED, stops

ORDER = ("stopped", "refused", "deadline", "draft")     # how a message lists them: the most urgent first


@dataclass(frozen=True)
class Event:
    key: str
    kind: str                     # one of ORDER
    game: str
    data: dict = field(default_factory=dict)


def current_events(store: Store, games: Sequence[Any], now: datetime, deadline_within: timedelta) -> list[Event]:
    events = []
    for game in games:
        events += _game_events(store, game, now, deadline_within)
    for draft in store.drafts(status="pending"):
        if draft["send_error"]:
            events.append(Event(f"refused:{draft['id']}:{to_text(draft['updated_at'])}", "refused", draft["game_id"],
                                {"id": draft["id"], "kind": draft["kind"], "target": draft["target"],
                                 "error": draft["send_error"]}))
        else:
            events.append(Event(f"draft:{draft['id']}", "draft", draft["game_id"],
                                {"id": draft["id"], "kind": draft["kind"], "target": draft["target"]}))
    return sorted(events, key=lambda event: ORDER.index(event.kind))


def _game_events(store: Store, game: Any, now: datetime, within: timedelta) -> list[Event]:
    zone = game.config.time_zone
    found = stops(store, game.id)
    # the host's own choices (finish, pause) are no news to him; the rest stop the game behind his back
    stopped = [stop for stop in found if stop.cause not in (FINISHED, PAUSED)]
    if stopped:
        return [Event(f"stopped:{game.id}:{stop.cause}:{to_text(stop.since)}", "stopped", game.id,
                      {"title": stop.title, "message": stop.message,
                       "since": f"{stop.since.astimezone(zone):%d.%m %H:%M}" if stop.since else "—"})
                for stop in stopped]
    if found:
        return []
    pending = store.phases(game.id, status="pending")
    snapshot = store.latest_snapshot(game.id)
    if not pending or snapshot is None or not now < pending[0]["deadline"] <= now + within:
        return []
    phase = pending[0]
    missing = missing_players(store, game, snapshot, phase["key"])
    if not missing:
        return []
    return [Event(f"deadline:{game.id}:{phase['key']}:{to_text(phase['deadline'])}", "deadline", game.id,
                  {"phase": phase["key"], "deadline": f"{phase['deadline'].astimezone(zone):%d.%m %H:%M} ({zone.key})",
                   "missing": missing})]


def missing_players(store: Store, game: Any, snapshot: dict, phase_key: str) -> list[str]:
    """Players in the game who have sent neither orders nor a counted thread vote for the phase."""
    sent = {order["sender"] for order in store.orders(game.id, phase_key)}
    sent |= {vote["voter"] for vote in store.votes(game.id, phase_key) if vote["counted"]}
    return [nick for nick in game.rules.alive(game.rules.load(snapshot["state"])) if nick not in sent]
