"""Phases and their resolutions: deadlines, state snapshots, events and eliminations of each resolution."""
from __future__ import annotations

import json
from datetime import datetime
from typing import Any, Iterable, Mapping

from forumgm.daemon.store.base import StoreBase, StoreError, from_text, to_text
from forumgm.daemon.store.drafts import OPEN_DRAFT_STATUSES


class Phases(StoreBase):
    def ensure_phase(self, game_id: str, key: str, kind: str, number: int,
                     opens_at: datetime | None, deadline: datetime) -> None:
        """Add a phase to the calendar; an existing one keeps its status and deadline."""
        self.db.execute(
            "INSERT INTO phases (game_id, key, kind, number, opens_at, deadline) VALUES (?, ?, ?, ?, ?, ?) "
            "ON CONFLICT(game_id, key) DO NOTHING",
            [game_id, key, kind, number, to_text(opens_at), to_text(deadline)],
        )

    def phase(self, game_id: str, key: str) -> dict | None:
        return self._one("SELECT * FROM phases WHERE game_id = ? AND key = ?", [game_id, key])

    def phases(self, game_id: str, status: str | None = None) -> list[dict]:
        if status is None:
            return self._rows("SELECT * FROM phases WHERE game_id = ? ORDER BY deadline", [game_id])
        return self._rows("SELECT * FROM phases WHERE game_id = ? AND status = ? ORDER BY deadline",
                          [game_id, status])

    def begin_resolution(self, game_id: str, phase_key: str, at: datetime, rerun: bool = False) -> int:
        """Inside a transaction: mark the phase resolved and open a resolution record.

        A first resolution of an already resolved phase raises StoreError (the caller lost a
        race or repeats itself); a re-run supersedes the current resolution, its snapshot and
        its drafts that were not sent.
        """
        if not self.db.conn.in_transaction:
            raise StoreError("begin_resolution must run inside Store.transaction()")
        phase = self.phase(game_id, phase_key)
        if phase is None:
            raise StoreError(f"{game_id}: no phase {phase_key}")
        if phase["status"] == "resolved" and not rerun:
            raise StoreError(f"{game_id}: phase {phase_key} is already resolved")
        if rerun:
            self._supersede_resolution(game_id, phase_key)
        self.db.execute("UPDATE phases SET status = 'resolved', resolved_at = ? WHERE game_id = ? AND key = ?",
                        [to_text(at), game_id, phase_key])
        return self._insert("resolutions", {"game_id": game_id, "phase_key": phase_key,
                                            "resolved_at": to_text(at), "rerun": int(rerun), "current": 1})

    def _supersede_resolution(self, game_id: str, phase_key: str) -> None:
        old = self._one("SELECT id FROM resolutions WHERE game_id = ? AND phase_key = ? AND current = 1",
                        [game_id, phase_key])
        if old is None:
            return
        self.db.execute("UPDATE resolutions SET current = 0 WHERE id = ?", [old["id"]])
        self.db.execute("UPDATE snapshots SET current = 0 WHERE resolution_id = ?", [old["id"]])
        self.db.execute(f"UPDATE drafts SET status = 'superseded', updated_at = ? WHERE resolution_id = ? "
                        f"AND status IN {OPEN_DRAFT_STATUSES}", [to_text(self.now()), old["id"]])

    def resolutions(self, game_id: str, phase_key: str | None = None) -> list[dict]:
        if phase_key is None:
            return self._rows("SELECT * FROM resolutions WHERE game_id = ? ORDER BY id", [game_id])
        return self._rows("SELECT * FROM resolutions WHERE game_id = ? AND phase_key = ? ORDER BY id",
                          [game_id, phase_key])

    def add_snapshot(self, game_id: str, phase_key: str, state: Mapping[str, Any],
                     resolution_id: int | None = None, at: datetime | None = None) -> int:
        """`at`: the daemon's time of the step (its clock), else the store's."""
        return self._insert("snapshots", {"game_id": game_id, "phase_key": phase_key, "resolution_id": resolution_id,
                                          "state": json.dumps(state, ensure_ascii=False),
                                          "created_at": to_text(at or self.now()), "current": 1})

    def latest_snapshot(self, game_id: str) -> dict | None:
        """The newest current state: the result of the last resolved phase, or the setup."""
        return self._one("SELECT * FROM snapshots WHERE game_id = ? AND current = 1 ORDER BY id DESC LIMIT 1",
                         [game_id])

    def dealt_at(self, game_id: str) -> datetime | None:
        """When the game's setup was dealt (its first snapshot); None before."""
        row = self.db.execute("SELECT MIN(created_at) FROM snapshots WHERE game_id = ? AND phase_key = 'setup'",
                              [game_id]).fetchone()
        return from_text(row[0]) if row else None

    def snapshot_before(self, game_id: str, phase_key: str) -> dict | None:
        """The state a phase resolves from: the current snapshot of the latest phase resolved before it
        (by deadline), else the setup. A re-run of an earlier phase renews the snapshots after it one by
        one, so the order of the phases decides, not the order the snapshots were written in."""
        phase = self.phase(game_id, phase_key)
        if phase is None:
            return self.latest_snapshot(game_id)
        before = self._one("SELECT s.* FROM snapshots s JOIN phases p ON p.game_id = s.game_id AND p.key = s.phase_key "
                           "WHERE s.game_id = ? AND s.current = 1 AND p.deadline < ? "
                           "ORDER BY p.deadline DESC, s.id DESC LIMIT 1", [game_id, to_text(phase["deadline"])])
        return before or self._one("SELECT * FROM snapshots WHERE game_id = ? AND phase_key = 'setup' AND current = 1 "
                                   "ORDER BY id DESC LIMIT 1", [game_id])

    def drop_pending_phase(self, game_id: str, key: str) -> None:
        """Inside a transaction: a phase no longer in the game's course (a re-run changed what follows)
        leaves the calendar with its running count; its drafts not sent are superseded, receipts aside
        (they answer PMs the players did send)."""
        if not self.db.conn.in_transaction:
            raise StoreError("drop_pending_phase must run inside Store.transaction()")
        self.db.execute("DELETE FROM phases WHERE game_id = ? AND key = ? AND status = 'pending'", [game_id, key])
        self.db.execute("DELETE FROM votes WHERE game_id = ? AND phase_key = ?", [game_id, key])
        self.db.execute(f"UPDATE drafts SET status = 'superseded', updated_at = ? WHERE game_id = ? AND phase_key = ? "
                        f"AND kind <> 'receipt' AND status IN {OPEN_DRAFT_STATUSES}",
                        [to_text(self.now()), game_id, key])

    def add_events(self, game_id: str, phase_key: str, resolution_id: int, events: Iterable[Mapping]) -> None:
        for seq, event in enumerate(events):
            data = {k: v for k, v in event.items() if k != "type"}
            self._insert("events", {"game_id": game_id, "phase_key": phase_key, "resolution_id": resolution_id,
                                    "seq": seq, "type": event["type"],
                                    "data": json.dumps(data, ensure_ascii=False, default=str)})

    def events(self, game_id: str, phase_key: str) -> list[dict]:
        return self._rows("SELECT e.* FROM events e JOIN resolutions r ON r.id = e.resolution_id "
                          "WHERE e.game_id = ? AND e.phase_key = ? AND r.current = 1 ORDER BY e.seq",
                          [game_id, phase_key])

    def add_elimination(self, game_id: str, phase_key: str, resolution_id: int, nick: str, cause: str) -> None:
        self._insert("eliminations", {"game_id": game_id, "phase_key": phase_key,
                                      "resolution_id": resolution_id, "nick": nick, "cause": cause})

    def eliminations(self, game_id: str) -> list[dict]:
        return self._rows("SELECT e.* FROM eliminations e JOIN resolutions r ON r.id = e.resolution_id "
                          "WHERE e.game_id = ? AND r.current = 1 ORDER BY e.id", [game_id])

    def move_deadline(self, game_id: str, key: str, opens_at: datetime | None, deadline: datetime) -> None:
        self.db.execute("UPDATE phases SET opens_at = ?, deadline = ? WHERE game_id = ? AND key = ? "
                        "AND status = 'pending'", [to_text(opens_at), to_text(deadline), game_id, key])

    def current_resolution(self, game_id: str, phase_key: str) -> dict | None:
        return self._one("SELECT * FROM resolutions WHERE game_id = ? AND phase_key = ? AND current = 1",
                         [game_id, phase_key])

    def resolution_outcome(self, resolution_id: int) -> tuple[dict | None, list[dict], list[dict]]:
        """(snapshot, eliminations, drafts) a resolution produced, whatever became of them since."""
        snapshot = self._one("SELECT * FROM snapshots WHERE resolution_id = ? ORDER BY id LIMIT 1", [resolution_id])
        eliminations = self._rows("SELECT * FROM eliminations WHERE resolution_id = ? ORDER BY id", [resolution_id])
        drafts = self._rows("SELECT * FROM drafts WHERE resolution_id = ? ORDER BY id", [resolution_id])
        return snapshot, eliminations, drafts
