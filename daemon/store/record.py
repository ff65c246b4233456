"""What the game's record keeps beside its inputs (daemon/record): the secret salt, the public
commitments, the rolls of the deal and of every resolution."""
from __future__ import annotations

import json
from typing import Any, Mapping, Sequence

from forumgm.daemon.store.base import StoreBase, StoreError, to_text


class Record(StoreBase):
    def set_salt(self, game_id: str, salt: str) -> None:
        """The game's secret salt, drawn once at the deal: never replaced (it would break the commitment)."""
        if self.db.execute("UPDATE games SET salt = ? WHERE id = ? AND salt IS NULL", [salt, game_id]).rowcount != 1:
            raise StoreError(f"{game_id}: the game's salt is drawn already (or there is no such game)")

    def secrets_of(self, game_id: str) -> tuple[str, str] | None:
        """(seed, salt) of a dealt game; None before its deal. For its commitment and its revealed record only."""
        row = self._one("SELECT seed, salt FROM games WHERE id = ? AND salt IS NOT NULL", [game_id])
        return None if row is None else (row["seed"], row["salt"])

    def add_commitment(self, game_id: str, digest: str, rules: Mapping[str, Any], after_phase: str) -> int:
        return self._insert("commitments", {"game_id": game_id, "digest": digest,
                                            "rules": json.dumps(rules, ensure_ascii=False),
                                            "after_phase": after_phase, "made_at": to_text(self.now())})

    def commitments(self, game_id: str) -> list[dict]:
        """The game's commitments, the deal's first: {digest, rules (the table), after_phase, made_at}."""
        rows = self._rows("SELECT * FROM commitments WHERE game_id = ? ORDER BY id", [game_id])
        return [{**row, "rules": json.loads(row["rules"])} for row in rows]

    def add_rolls(self, game_id: str, phase_key: str, resolution_id: int | None, draws: Sequence[Sequence]) -> None:
        self._insert("rolls", {"game_id": game_id, "phase_key": phase_key, "resolution_id": resolution_id,
                               "draws": json.dumps([list(d) for d in draws], ensure_ascii=False)})

    def rolls(self, game_id: str, phase_key: str, resolution_id: int | None = None) -> list[list] | None:
        """The draws of the deal (resolution None) or of one resolution; None when none were kept."""
        condition = "resolution_id IS NULL" if resolution_id is None else "resolution_id = ?"
        row = self._one(f"SELECT draws FROM rolls WHERE game_id = ? AND phase_key = ? AND {condition}",
                        [game_id, phase_key] + ([] if resolution_id is None else [resolution_id]))
        return None if row is None else json.loads(row["draws"])

    def deal_snapshot(self, game_id: str) -> dict | None:
        """The state the game was dealt in (its current setup snapshot); None before the deal."""
        return self._one("SELECT * FROM snapshots WHERE game_id = ? AND phase_key = 'setup' AND current = 1 "
                         "ORDER BY id DESC LIMIT 1", [game_id])
