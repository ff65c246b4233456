"""Forums, games and their players: registered from the settings, finished, stopped, paused, replaced;
the daemon's tick plan."""
from __future__ import annotations

import json
from datetime import datetime
from typing import Any, Iterable, Mapping

from forumgm.daemon.store.base import StoreBase, to_text


class Games(StoreBase):
    def register_forum(self, forum_id: str, engine: str, base_url: str, account: str) -> None:
        self.db.execute(
            "INSERT INTO forums (id, engine, base_url, account) VALUES (?, ?, ?, ?) "
            "ON CONFLICT(id) DO UPDATE SET engine=excluded.engine, base_url=excluded.base_url, "
            "account=excluded.account",
            [forum_id, engine, base_url, account],
        )

    def register_game(self, game_id: str, type: str, forum_id: str | None, thread_url: str,
                      time_zone: str, seed: int | str, players: Mapping[str, Iterable[str]],
                      settings: Mapping[str, Any] | None = None) -> None:
        """Create or refresh a game from its config; players map nick -> aliases."""
        with self.transaction():
            self.db.execute(
                "INSERT INTO games (id, type, forum_id, thread_url, time_zone, seed, settings, registered_at) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT(id) DO UPDATE SET type=excluded.type, "
                "forum_id=excluded.forum_id, thread_url=excluded.thread_url, time_zone=excluded.time_zone, "
                # a dealt game's seed is committed to (daemon/record): the file's is no longer taken
                "seed=CASE WHEN games.salt IS NULL THEN excluded.seed ELSE games.seed END, settings=excluded.settings",
                [game_id, type, forum_id, thread_url, time_zone, str(seed),
                 json.dumps(dict(settings or {}), ensure_ascii=False), to_text(self.now())],
            )
            self.db.execute("DELETE FROM players WHERE game_id = ?", [game_id])
            for nick, aliases in players.items():
                self._insert("players", {"game_id": game_id, "nick": nick,
                                         "aliases": json.dumps(list(aliases), ensure_ascii=False)})

    def games(self) -> list[dict]:
        return self._rows("SELECT * FROM games ORDER BY id")

    def game(self, game_id: str) -> dict | None:
        return self._one("SELECT * FROM games WHERE id = ?", [game_id])

    def finish_game(self, game_id: str, winner: str, by: str, at: datetime, replacing: str | None = None) -> bool:
        """The game ends with `winner`; False when it was already finished (unless by `replacing`,
        whose end this one replaces)."""
        cursor = self.db.execute("UPDATE games SET finished_at = ?, winner = ?, finished_by = ? "
                                 "WHERE id = ? AND (finished_at IS NULL OR finished_by = ?)",
                                 [to_text(at), winner, by, game_id, replacing])
        if cursor.rowcount == 1:
            self.audit(by, "game.finish", {"game": game_id, "winner": winner})
        return cursor.rowcount == 1

    def reopen_game(self, game_id: str, by: str, at: datetime) -> None:
        """The end the game's rules declared no longer stands (a re-run changed the outcome): the game goes
        on, paused, so that nothing resolves before the host has set the next phase's deadline."""
        winner = self.game(game_id)["winner"]
        self.db.execute("UPDATE games SET finished_at = NULL, winner = NULL, finished_by = NULL, paused_at = ?, "
                        "paused_by = ? WHERE id = ?", [to_text(at), by, game_id])
        self.audit(by, "game.reopen", {"game": game_id, "winner": winner, "paused": True})

    def set_problem(self, game_id: str, problem: str, at: datetime) -> bool:
        """The reason the game waits for the host; True when it was running until now.
        A game already stopped keeps its `problem_since` and takes the newest reason."""
        with self.transaction():
            started = self.db.execute("UPDATE games SET problem_since = ? WHERE id = ? AND problem IS NULL",
                                      [to_text(at), game_id]).rowcount == 1
            self.db.execute("UPDATE games SET problem = ? WHERE id = ?", [problem, game_id])
            if started:
                self.audit("daemon", "game.stopped", {"game": game_id, "problem": problem})
        return started

    def clear_problem(self, game_id: str) -> str | None:
        """The game runs again; the problem it had, or None when it had none."""
        with self.transaction():
            row = self._one("SELECT problem FROM games WHERE id = ? AND problem IS NOT NULL", [game_id])
            if row is None:
                return None
            self.db.execute("UPDATE games SET problem = NULL, problem_since = NULL WHERE id = ?", [game_id])
            self.audit("daemon", "game.resumed", {"game": game_id, "problem": row["problem"]})
        return row["problem"]

    def set_game_rules(self, game_id: str, table: Mapping[str, Any], digest: str) -> None:
        """The merged rule table the game is frozen under, with its hash (daemon/tick/rules_freeze.py)."""
        self.db.execute("UPDATE games SET rules = ?, rules_hash = ? WHERE id = ?",
                        [json.dumps(table, ensure_ascii=False), digest, game_id])

    def game_rules(self, game_id: str) -> dict | None:
        """{"table", "hash"} the game is frozen under; None before its deal."""
        row = self._one("SELECT rules, rules_hash FROM games WHERE id = ? AND rules_hash IS NOT NULL", [game_id])
        return None if row is None else {"table": json.loads(row["rules"]), "hash": row["rules_hash"]}

    def hold_game(self, game_id: str, cause: str, message: str, at: datetime, by: str = "daemon") -> bool:
        """Hold the game for `cause` (it is not run while held); True when it was not held for it yet.
        A held cause keeps its `since` and takes the newest message."""
        with self.transaction():
            started = self.db.execute("INSERT INTO game_stops (game_id, cause, message, since) VALUES (?, ?, ?, ?) "
                                      "ON CONFLICT(game_id, cause) DO NOTHING",
                                      [game_id, cause, message, to_text(at)]).rowcount == 1
            self.db.execute("UPDATE game_stops SET message = ? WHERE game_id = ? AND cause = ?",
                            [message, game_id, cause])
            if started:
                self.audit(by, "game.held", {"game": game_id, "cause": cause, "message": message})
        return started

    def release_game(self, game_id: str, cause: str, by: str = "daemon") -> bool:
        """The game is no longer held for `cause`; False when it was not."""
        with self.transaction():
            released = self.db.execute("DELETE FROM game_stops WHERE game_id = ? AND cause = ?",
                                       [game_id, cause]).rowcount == 1
            if released:
                self.audit(by, "game.released", {"game": game_id, "cause": cause})
        return released

    def holds(self, game_id: str) -> list[dict]:
        """Why the game is held (see hold_game), oldest first."""
        return self._rows("SELECT * FROM game_stops WHERE game_id = ? ORDER BY since, cause", [game_id])

    def players(self, game_id: str) -> list[dict]:
        return self._rows("SELECT * FROM players WHERE game_id = ? ORDER BY rowid", [game_id])

    def set_paused(self, game_id: str, by: str | None, at: datetime | None) -> bool:
        """Pause (by, at) or resume (None, None) a game; False when it already was so."""
        condition = "paused_at IS NULL" if at is not None else "paused_at IS NOT NULL"
        cursor = self.db.execute(f"UPDATE games SET paused_at = ?, paused_by = ? WHERE id = ? AND {condition}",
                                 [to_text(at), by, game_id])
        return cursor.rowcount == 1

    def add_replacement(self, game_id: str, seat: str, old_nick: str, new_nick: str, by: str, at: datetime,
                        gender: str | None = None) -> None:
        """`new_nick`'s account holds the seat from `at` on (forumgm.daemon.store.seats); `gender`:
        its player's, as the host gave it."""
        self._insert("replacements", {"game_id": game_id, "seat": seat, "old_nick": old_nick, "new_nick": new_nick,
                                      "replaced_by": by, "at": to_text(at), "gender": gender})

    def account_checked(self, replacement_id: int, at: datetime) -> None:
        """The daemon asked the board about the replacement's new account (daemon/tick/seat_accounts.py)."""
        self.db.execute("UPDATE replacements SET account_checked_at = ? WHERE id = ?", [to_text(at), replacement_id])

    def replacements(self, game_id: str | None = None) -> list[dict]:
        if game_id is None:
            return self._rows("SELECT * FROM replacements ORDER BY id")
        return self._rows("SELECT * FROM replacements WHERE game_id = ? ORDER BY id", [game_id])

    def set_tick_plan(self, last_tick_at: datetime, next_tick_at: datetime, reason: str, clock_speed: float = 1.0,
                      due_at: datetime | None = None) -> None:
        """`last_tick_at` and `next_tick_at` on the daemon's clock, which runs `clock_speed` times real
        time; `due_at`: the next tick in real time, for a fast clock."""
        self.db.execute(
            "INSERT INTO daemon_ticks (id, last_tick_at, next_tick_at, next_reason, clock_speed, due_at) "
            "VALUES (1, ?, ?, ?, ?, ?) "
            "ON CONFLICT(id) DO UPDATE SET last_tick_at=excluded.last_tick_at, next_tick_at=excluded.next_tick_at, "
            "next_reason=excluded.next_reason, clock_speed=excluded.clock_speed, due_at=excluded.due_at",
            [to_text(last_tick_at), to_text(next_tick_at), reason, clock_speed, to_text(due_at)])

    def tick_plan(self) -> dict | None:
        """The daemon's last tick and its next planned one; None before the first tick."""
        return self._one("SELECT last_tick_at, next_tick_at, next_reason, clock_speed, due_at FROM daemon_ticks "
                         "WHERE id = 1")
