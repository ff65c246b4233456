"""What the host is needed for now, as notifications tell it: each event with a key that names it once.

A key changes when the event is a new one (another draft, a moved deadline, a game stopped again),
so the notifier tells each event at most once however often it looks.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any, Sequence

from forumgm.daemon.drafts.phase_names import draft_label, phase_label
from forumgm.daemon.notify.attention import attention
from forumgm.daemon.settings.local_time import zone_name
from forumgm.daemon.store import Store, to_text
from forumgm.daemon.tick.stops import FINISHED, PAUSED

ORDER = ("stopped", "refused", "deadline", "draft")     # how a message lists them: the most urgent first


@dataclass(frozen=True)
class Event:
    key: str
    kind: str                     # one of ORDER
    game: str
    data: dict = field(default_factory=dict)


def current_events(store: Store, games: Sequence[Any], now: datetime, deadline_within: timedelta) -> list[Event]:
    """The facts of the host's page (forumgm.daemon.notify.attention) that call for him now: games
    stopped behind his back, drafts the forum refused, a deadline near with players missing, drafts."""
    runs = {game.id: game for game in games}
    facts = attention(store, lambda game: runs[game["id"]].rules if game["id"] in runs else None)
    events = []
    for stopped in facts.stopped:
        stop = stopped.stop
        # the host's own choices (finish, pause) are no news to him; the rest stop the game behind his back
        if stop.cause in (FINISHED, PAUSED) or stopped.game_id not in runs:
            continue
        events.append(Event(f"stopped:{stopped.game_id}:{stop.cause}:{to_text(stop.since)}", "stopped",
                            stopped.game_id, {"title": stop.title, "message": stop.message,
                                              "since": local(stop.since, runs[stopped.game_id])}))
    for deadline in facts.deadlines:
        if deadline.game_id in runs and deadline.missing and now < deadline.deadline <= now + deadline_within:
            zone = runs[deadline.game_id].config.time_zone
            events.append(Event(f"deadline:{deadline.game_id}:{deadline.phase_key}:{to_text(deadline.deadline)}",
                                "deadline", deadline.game_id,
                                {"phase": deadline.phase_key, "missing": list(deadline.missing),
                                 "phase_name": phase_label(runs[deadline.game_id].rules, deadline.phase_key),
                                 "deadline": f"{local(deadline.deadline, runs[deadline.game_id])} ({zone_name(zone)})"}))
    for refused in facts.refused:
        events.append(Event(f"refused:{refused.id}:{to_text(refused.since)}", "refused", refused.game_id,
                            {"id": refused.id, "kind": refused.kind, "target": refused.target, "error": refused.error,
                             "kind_name": kind_name(runs, refused.game_id, refused.kind)}))
    for group in facts.waiting:
        events += [Event(f"draft:{draft_id}", "draft", group.game_id, {"id": draft_id, "kind": group.kind,
                                                                       "target": target,
                                                                       "kind_name": kind_name(runs, group.game_id, group.kind)})
                   for draft_id, target in zip(group.ids, group.targets)]
    return sorted(events, key=lambda event: ORDER.index(event.kind))


def kind_name(runs: dict, game_id: str, kind: str) -> str:
    """A draft's kind as the host's page names it."""
    return draft_label(runs[game_id].rules if game_id in runs else None, kind)


def local(moment: datetime | None, game: Any) -> str:
    return f"{moment.astimezone(game.config.time_zone):%d.%m %H:%M}" if moment else "—"
