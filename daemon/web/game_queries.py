"""What the game page shows besides the tally and the orders: the players and what each sent this
phase, the phases with their events, eliminations and snapshots, and the game's audit log.

Read-only views over `Store`, like forumgm.daemon.web.queries.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from forumgm.daemon.host_actions.outcome_diff import text_diff
from forumgm.daemon.store import Store
from forumgm.daemon.web.queries import alive_players, current_phase
from forumgm.engines.base import RoleRow

REPORT_SUFFIX, LITERARY = "_report", "literary_report"


@dataclass(frozen=True)
class PlayerView:
    nick: str
    out: str | None                       # how he left the game (the cause), None while he plays
    orders: tuple[str, ...]               # the texts in force he sent for the open phase (PMs, corrections)
    votes: tuple[str, ...]                # whom his counted thread votes of the open phase name
    holders: tuple[tuple[str, datetime], ...] = ()   # the accounts the host gave the seat to, and since when


@dataclass(frozen=True)
class PhaseView:
    key: str
    status: str
    deadline: datetime
    rerun: bool                           # the phase's outcome is a re-run's
    eliminations: tuple[tuple[str, str], ...]
    events: tuple[dict, ...]
    snapshot: dict | None                 # the state after the phase
    reports: tuple[dict, ...] = ()        # the drafts telling the phase's events in words (its reports)


@dataclass(frozen=True)
class VoteCorrectionView:
    number: int                           # the host's name for it: «исправление №2»
    phase_key: str
    voter: str
    text: str                             # the name the host entered for the player
    entered_by: str
    recorded_at: datetime
    replaced_by: int | None               # a later correction of the same vote
    annulled: bool = False                # no vote of the player counts (text is empty)


@dataclass(frozen=True)
class AuditLine:
    at: datetime
    actor: str
    action: str
    detail: dict
    draft_kind: str | None = None         # the kind of the draft the action was on


def players(store: Store, game_id: str) -> list[PlayerView]:
    out = {row["nick"]: row["cause"] for row in store.eliminations(game_id)}
    phase = current_phase(store, game_id)
    orders = store.orders(game_id, phase["key"]) if phase else []
    votes = [v for v in store.votes(game_id, phase["key"]) if v["counted"]] if phase else []
    replacements = store.replacements(game_id)
    return [PlayerView(row["nick"], out.get(row["nick"]),
                       tuple(o["raw_text"] for o in orders if o["sender"] == row["nick"]),
                       tuple(v["target"] for v in votes if v["voter"] == row["nick"]),
                       tuple((r["new_nick"], r["at"]) for r in replacements if r["seat"] == row["nick"]))
            for row in store.players(game_id)]


def phases(store: Store, game_id: str) -> list[PhaseView]:
    """Resolved phases newest first, each with what its current resolution produced."""
    views = []
    for row in reversed(store.phases(game_id, status="resolved")):
        resolution = store.current_resolution(game_id, row["key"])
        if resolution is None:
            continue
        snapshot, eliminations, drafts = store.resolution_outcome(resolution["id"])
        views.append(PhaseView(
            row["key"], row["status"], row["deadline"], bool(resolution["rerun"]),
            tuple((e["nick"], e["cause"]) for e in eliminations),
            tuple({"type": e["type"], **e["data"]} for e in store.events(game_id, row["key"])),
            snapshot["state"] if snapshot else None,
            tuple(draft for draft in drafts if telling(draft)),
        ))
    return views


def telling(draft: dict) -> bool:
    """A draft that tells the phase's events as they were, one by one: a report of the game's own, not
    the literary one (a story, not a record)."""
    return draft["kind"].endswith(REPORT_SUFFIX) and draft["kind"] != LITERARY and draft["status"] != "superseded"


def latest_report(store: Store, game_id: str, kind: str | None) -> dict | None:
    """The newest live draft of a report kind (sent or waiting), None without one."""
    found = [draft for draft in store.drafts(game_id=game_id) if kind and draft["kind"] == kind
             and draft["status"] not in ("superseded", "rejected")]
    return found[-1] if found else None


def winner_names(store: Store, game_id: str, roles: list[RoleRow]) -> list[str]:
    """What the host may name as the winner when he ends the game: the game's sides (clans, teams),
    or its players where it has none."""
    sides = list(dict.fromkeys(row.side for row in roles))
    return sides or list(alive_players(store, game_id))


def vote_corrections(store: Store, game_id: str) -> list[VoteCorrectionView]:
    """The host's corrections of thread votes, newest first, the replaced ones too."""
    rows = store.vote_corrections(game_id, superseded=True)
    return [VoteCorrectionView(row["id"], row["phase_key"], row["voter"], row["text"], row["entered_by"],
                               row["recorded_at"], row["superseded_by"],
                               bool(row["annulled"]))
            for row in reversed(rows)]


def audit(store: Store, game_id: str, limit: int = 200) -> list[AuditLine]:
    """The host's and the daemon's actions on this game (and on its drafts), newest first."""
    drafts = {row["id"]: row["kind"] for row in store.drafts(game_id=game_id)}
    lines = []
    for row in store.audit_log():
        detail = row["detail"] if isinstance(row["detail"], dict) else {}
        if detail.get("game") == game_id or detail.get("draft") in drafts:
            lines.append(AuditLine(row["at"], row["actor"], row["action"], detail, drafts.get(detail.get("draft"))))
            if len(lines) == limit:
                break
    return lines


def vote_links(store: Store, game_id: str, game: Any) -> dict[str, str]:
    """voter -> the link to the post his counted vote of the open phase is in (when the forum links posts)."""
    phase = current_phase(store, game_id)
    if game is None or phase is None:
        return {}
    return {row["voter"]: url for row in store.votes(game_id, phase["key"])
            if row["counted"] and row["post_id"] and (url := game.post_url(row["post_id"]))}


def last_edit_diff(store: Store, draft: dict) -> tuple[str, ...]:
    """The host's last edit of a draft as changed lines (empty when never edited)."""
    edits = store.draft_edits(draft["id"])
    return text_diff(edits[-1]["body_before"], draft["body"]) if edits else ()
