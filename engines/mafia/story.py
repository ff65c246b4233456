"""What the literary report tells of a round: the day's verdict and the night's deaths, as a host
tells the town's story, from the round's public events alone.

The round report's rule holds here too: an attempt that failed (a blocked maniac, a healed or
armoured target, a mafia tie) is never told, nor who blocked, healed or checked whom; a night
nobody died in is simply quiet. What the report reveals anyway — the roles of the jailed and the
dead — the story may say.
"""
from __future__ import annotations

from typing import Any, Sequence

from forumgm.engines.base import Event
from forumgm.engines.mafia.roles import MANIAC, TEAM, TOWN
from forumgm.engines.mafia.round import KILL_MANIAC
from forumgm.engines.phrases import ranked, russian_sorted

MOST = 6
# What the story leads with where a round has more than it can tell: deaths, then the verdict, then
# who left for silence; warnings last.
INTEREST = {"killed_mafia": 100, "killed_maniac": 100, "jailed_mafia": 90, "jailed_maniac": 90, "jailed_town": 90,
            "no_jail_tie": 60, "no_jail_no_trial": 60, "no_jail_no_votes": 60, "missed_out": 70, "quiet": 50,
            "warned": 20}


def _jailed_kind(role: str) -> str:
    if role == MANIAC:
        return "jailed_maniac"
    return "jailed_town" if TEAM[role] == TOWN else "jailed_mafia"


def _role(role: str) -> str:
    """A role as a sentence names it: «оказался мирным жителем», «это был босс мафии»."""
    return role[:1].lower() + role[1:]


def story(events: Sequence[Event]) -> dict[str, Any]:
    """{day, night, ending}: the day's and the night's happenings to tell, {kind, …names} each, in
    the order they happened (night None when the game ended by day: no night was played); ending
    the winning side, or None."""
    day: list[dict[str, Any]] = []
    night: list[dict[str, Any]] = []
    for event in events:
        data = event.data
        if event.type == "jailed":
            day.append({"kind": _jailed_kind(data["role"]), "nick": data["nick"], "role": _role(data["role"]),
                        "votes": data["votes"]})
        elif event.type == "no_jail":
            day.append({"kind": f"no_jail_{data['reason']}"})
        elif event.type == "missed_votes_out":
            day.append({"kind": "missed_out", "nick": data["nick"], "role": _role(data["role"])})
        elif event.type == "missed_vote_warning":
            warned = next((h for h in day if h["kind"] == "warned"), None)
            if warned is None:
                day.append({"kind": "warned", "nicks": [data["nick"]]})
            else:
                warned["nicks"] = russian_sorted([*warned["nicks"], data["nick"]])
        elif event.type == "killed":
            cause = "killed_maniac" if data["cause"] == KILL_MANIAC else "killed_mafia"
            night.append({"kind": cause, "nick": data["nick"], "role": _role(data["role"])})
    winner = next((e.data for e in events if e.type == "winner"), None)
    by_day = winner is not None and winner["after"] == "day"
    if not by_day and not night:
        night.append({"kind": "quiet"})
    kept = ranked(day + night, lambda h: INTEREST[h["kind"]], MOST)
    return {"day": [h for h in kept if h in day], "night": None if by_day else [h for h in kept if h in night],
            "ending": winner["side"] if winner else None}
