"""A phase's inputs with their provenance: thread votes, order PMs, and the host's corrections of both."""
from __future__ import annotations

import json
from datetime import datetime
from typing import Iterable

from forumgm.daemon.store.base import StoreBase, StoreError, to_text

# the id of the host's correction among a game's order PMs (numbered per game from 1)
CORRECTION_ID = "host-{number}"


def correction_number(pm_id: str) -> str:
    """The number the host knows a correction by («исправление №2»), from its id among the orders."""
    return pm_id.removeprefix(CORRECTION_ID.format(number=""))


class Inputs(StoreBase):
    def replace_votes(self, game_id: str, phase_key: str, counted: Iterable, discarded: Iterable) -> None:
        """The phase's running tally, recomputed each tick from every post version."""
        at = to_text(self.now())
        with self.transaction():
            self.db.execute("DELETE FROM votes WHERE game_id = ? AND phase_key = ?", [game_id, phase_key])
            for vote in counted:
                self._insert("votes", {"game_id": game_id, "phase_key": phase_key, "voter": vote.voter,
                                       "target": vote.target, "counted": 1, "text": vote.text,
                                       "post_id": vote.post_id, "cast_at": to_text(vote.at), "counted_at": at,
                                       "entered_by": vote.entered_by})
            for vote in discarded:
                self._insert("votes", {"game_id": game_id, "phase_key": phase_key, "voter": vote.voter,
                                       "counted": 0, "reason": vote.reason, "detail": json.dumps(vote.detail),
                                       "text": vote.text, "post_id": vote.post_id, "counted_at": at})

    def votes(self, game_id: str, phase_key: str | None = None) -> list[dict]:
        if phase_key is None:
            return self._rows("SELECT * FROM votes WHERE game_id = ? ORDER BY id", [game_id])
        return self._rows("SELECT * FROM votes WHERE game_id = ? AND phase_key = ? ORDER BY id", [game_id, phase_key])

    def record_order(self, game_id: str, phase_key: str, pm_id: str, sender: str, sent_at: datetime | None,
                     raw_text: str, verdicts: list[dict]) -> bool:
        """Orders of one PM with their verdicts; True when new (a PM is read once)."""
        cursor = self.db.execute(
            "INSERT INTO orders (game_id, phase_key, pm_id, sender, sent_at, raw_text, verdicts, recorded_at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT(game_id, pm_id) DO NOTHING",
            [game_id, phase_key, pm_id, sender, to_text(sent_at), raw_text,
             json.dumps(verdicts, ensure_ascii=False), to_text(self.now())],
        )
        return cursor.rowcount == 1

    def orders(self, game_id: str, phase_key: str | None = None, superseded: bool = False) -> list[dict]:
        """The orders in force (a player's PMs the host corrected are left out unless `superseded`)."""
        return self._in_force("orders", game_id, phase_key, superseded, "sent_at, id")

    def record_correction(self, game_id: str, phase_key: str, sender: str, at: datetime, text: str,
                          verdicts: list[dict], by: str) -> tuple[dict, list[dict]]:
        """Inside a transaction: the host's text becomes the sender's orders of the phase; the orders
        it replaces stay, pointing at it. (the new order row, the rows it replaced)"""
        if not self.db.conn.in_transaction:
            raise StoreError("record_correction must run inside Store.transaction()")
        replaced = [row for row in self.orders(game_id, phase_key) if row["sender"] == sender]
        number = self.db.execute("SELECT COUNT(*) FROM orders WHERE game_id = ? AND entered_by IS NOT NULL",
                                 [game_id]).fetchone()[0] + 1
        order_id = self._insert("orders", {
            "game_id": game_id, "phase_key": phase_key, "pm_id": CORRECTION_ID.format(number=number), "sender": sender,
            "sent_at": to_text(at), "raw_text": text, "verdicts": json.dumps(verdicts, ensure_ascii=False),
            "recorded_at": to_text(self.now()), "entered_by": by,
        })
        for row in replaced:
            self.db.execute("UPDATE orders SET superseded_by = ? WHERE id = ?", [order_id, row["id"]])
        return self._one("SELECT * FROM orders WHERE id = ?", [order_id]), replaced

    def record_vote_correction(self, game_id: str, phase_key: str, voter: str, at: datetime, text: str,
                               by: str, annulled: bool = False) -> tuple[dict, dict | None]:
        """Inside a transaction: the host's text becomes the voter's thread vote of the phase (`annulled`: no
        vote of his counts, the text is empty); an earlier correction of it stays, pointing at this one.
        (the new row, the correction it replaced)"""
        if not self.db.conn.in_transaction:
            raise StoreError("record_vote_correction must run inside Store.transaction()")
        earlier = next((row for row in self.vote_corrections(game_id, phase_key) if row["voter"] == voter), None)
        new_id = self._insert("vote_corrections", {
            "game_id": game_id, "phase_key": phase_key, "voter": voter, "text": text, "cast_at": to_text(at),
            "entered_by": by, "recorded_at": to_text(self.now()), "annulled": int(annulled),
        })
        if earlier is not None:
            self.db.execute("UPDATE vote_corrections SET superseded_by = ? WHERE id = ?", [new_id, earlier["id"]])
        return self._one("SELECT * FROM vote_corrections WHERE id = ?", [new_id]), earlier

    def vote_corrections(self, game_id: str, phase_key: str | None = None, superseded: bool = False) -> list[dict]:
        """The host's corrections of thread votes in force (with `superseded`, the replaced ones too), oldest first."""
        return self._in_force("vote_corrections", game_id, phase_key, superseded, "id")

    def _in_force(self, table: str, game_id: str, phase_key: str | None, superseded: bool, order: str) -> list[dict]:
        """A game's rows of a table whose corrected rows point at their replacement (`superseded_by`)."""
        where = ["game_id = ?"] + ([] if phase_key is None else ["phase_key = ?"])
        where += [] if superseded else ["superseded_by IS NULL"]
        params = [game_id] + ([] if phase_key is None else [phase_key])
        return self._rows(f"SELECT * FROM {table} WHERE {' AND '.join(where)} ORDER BY {order}", params)

    def order_pm_ids(self, game_id: str) -> set[str]:
        return {row[0] for row in self.db.execute("SELECT pm_id FROM orders WHERE game_id = ?", [game_id])}
