"""What the chronicle of a turn tells: its events ranked by interest as a host would choose them
(a state captured before a subjugation, a war between players before a border skirmish, a great
migration before a small move), told in the order the rules resolved them.
"""
from __future__ import annotations

from collections import Counter
from typing import Any, Sequence

from forumgm.engines.bellum.state import BellumState

MOST = 6
# A chronicle of six skirmishes reads as one sentence six times: the rest of a kind stays in the
# technical report.
PER_KIND = 3
INTEREST = {"captured": 100, "kingdom": 95, "capital_lost": 90, "secession": 85, "independence": 85,
            "subjugated": 80, "freed": 75, "war": 70, "battle": 50, "annexed": 45, "migration": 40, "split": 35}
# A move of at least this many people, the largest of the turn, is a great migration.
MIGRATION = 1000


def chronicle(state: BellumState, events: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """The turn's most interesting happenings, {kind, …ids}, in the rules' order."""
    found = [(INTEREST[h["kind"]], index, h) for index, h in enumerate(_all(state, events))]
    kept, kinds = [], Counter()
    for item in sorted(found, key=lambda item: (-item[0], item[1])):
        kinds[item[2]["kind"]] += 1
        if kinds[item[2]["kind"]] <= PER_KIND:
            kept.append(item)
    kept = kept[:MOST]
    return [h for _, _, h in sorted(kept, key=lambda item: item[1])]


def _all(state: BellumState, events: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    moves = [e for e in events if e["type"] == "moved" and e["count"] >= MIGRATION]
    greatest = max(moves, key=lambda e: e["count"], default=None)
    out = []
    for e in events:
        kind = e["type"]
        if kind == "battle" and e["winner"] is not None:
            players = {state.controller(f) for f in (*e["winners"], *e["losers"])}
            war = None not in players and len(players) > 1
            out.append({"kind": "war" if war else "battle", "province": e["province"], "winners": e["winners"],
                        "losers": e["losers"]})
        elif kind == "moved" and e is greatest:
            out.append({"kind": "migration", "faction": e["faction"], "count": e["count"], "origin": e["origin"],
                        "dest": e["dest"]})
        elif kind in ("kingdom", "independence", "annexed", "subjugated", "freed", "split", "capital_lost",
                      "secession", "captured"):
            out.append({"kind": kind, **{k: v for k, v in e.items() if k != "type"}})
    return out
