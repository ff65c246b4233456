"""What every part of the store stands on: the SQLite connection in WAL mode, migration to the newest
schema, transactions, and times kept as UTC text."""
from __future__ import annotations

import contextlib
import json
import os
import sqlite3
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, Mapping

from forumgm.daemon.store.connection import Database
from forumgm.daemon.store.lost import file_identity, note_played, played_games, refused, vanished
from forumgm.daemon.store.schema import MIGRATIONS, VERSION_TABLE, newest_schema, step_up

Now = Callable[[], datetime]

RAW_PAGES_KEPT = 20      # thread pages kept per game as the forum showed them ([storage] raw_pages_kept)
JSON_COLUMNS = frozenset({"pictures", "aliases", "colored", "flagged", "verdicts", "data", "state", "detail", "settings"})
TIME_COLUMNS = frozenset({"deadline", "at", "problem_since", "since"})


DAMAGED = ("the file is damaged: stop the daemon and put back a copy from before the damage; "
           "`sqlite3 FILE .recover` saves what it can")


def store_problem(path: Path, error: Exception | str) -> str:
    """One line for the host when SQLite cannot use the file (no traceback)."""
    if isinstance(error, sqlite3.DatabaseError) and any(
            word in str(error) for word in ("malformed", "not a database", "corrupt")):
        return f"the store {path} cannot be used: {error} ({DAMAGED})"
    return (f"the store {path} cannot be used: {error} (a read-only file or folder, or a full disk? "
            "forumgm must be able to write there)")


def unwritable(path: Path) -> str | None:
    """Why the daemon could not write the store, or None: SQLite opens a file it cannot write
    read-only, without a word, and every command that only reads would seem to work."""
    for place in (path, path.parent):
        if not os.access(place, os.W_OK):
            return (f"{'the file' if place == path else 'its folder'} cannot be written (a read-only file, folder "
                    "or disk): forumgm must be able to write there")
    return None


class StoreError(Exception):
    """A request the store refuses (unknown draft, a draft no longer editable, ...)."""


def to_text(moment: datetime | None) -> str | None:
    """ISO-8601 UTC text; naive datetimes are refused rather than guessed."""
    if moment is None:
        return None
    if moment.tzinfo is None:
        raise ValueError(f"naive datetime {moment!r}: the store keeps aware times only")
    return moment.astimezone(timezone.utc).isoformat()


def from_text(text: str | None) -> datetime | None:
    return None if text is None else datetime.fromisoformat(text)


def utc_now() -> datetime:
    return datetime.now(timezone.utc)


def _decode(row: Mapping[str, Any]) -> dict:
    out = {}
    for name, value in row.items():
        if value is not None and name in JSON_COLUMNS:
            value = json.loads(value)
        elif value is not None and (name.endswith("_at") or name in TIME_COLUMNS):
            value = from_text(value)
        out[name] = value
    return out


class StoreBase:
    """The connection and its transactions; each concern's methods are in its own module of this package."""

    def __init__(self, path: str | Path, now: Now = utc_now, raw_pages_kept: int = RAW_PAGES_KEPT) -> None:
        self.path = Path(path)
        # the folder of files kept beside the store (a draft's pictures): whatever folder the
        # daemon or a command runs in later, they are found from here
        self.folder = Path(os.path.abspath(self.path)).parent
        self._now = now
        self.raw_pages_kept = raw_pages_kept
        # the games played on this store, named beside it (lost.py): never made anew under them
        self.played = played_games(self.path)
        if self.played and (not self.path.exists() or self.path.stat().st_size == 0):
            raise refused(self.path, self.played, "is missing" if not self.path.exists() else "is empty")
        # autocommit at the driver level: transactions are opened explicitly below
        conn = sqlite3.connect(str(self.path), timeout=30, isolation_level=None, check_same_thread=False)
        self.db = Database(conn)
        self.identity = file_identity(self.path)
        lacking = self._lacking(self.played)
        if lacking:
            conn.close()
            raise refused(self.path, lacking, "is another store")
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA foreign_keys=ON")
        self.db.execute("PRAGMA synchronous=NORMAL")
        self.migrate()

    def close(self) -> None:
        self.db.conn.close()

    def _lacking(self, games: list[str]) -> list[str]:
        """Those of `games` this file does not hold."""
        if not games:
            return []
        held = ({row[0] for row in self.db.execute("SELECT id FROM games")} if "games" in self.db.table_names()
                else set())
        return [game for game in games if game not in held]

    def note_played(self) -> None:
        """Names beside the store every game dealt on it (once one is new): from then on a missing
        or empty store there is refused, not made anew."""
        dealt = {row[0] for row in self.db.execute("SELECT DISTINCT game_id FROM phases")}
        if not dealt <= set(self.played):
            note_played(self.path, dealt)
            self.played = sorted(dealt | set(self.played))

    def vanished(self) -> str | None:
        """What became of the store's file since it was opened ("was deleted", …), if anything did."""
        return vanished(self.path, self.identity)

    def damage(self) -> str | None:
        """What SQLite's own check finds wrong in the file (its first findings), or None: a damaged
        page is met only by the query that reads it, and a command that reads others seems fine."""
        findings = [row[0] for row in self.db.execute("PRAGMA quick_check(3)")]
        return None if findings == ["ok"] else "; ".join(findings)

    @property
    def schema_version(self) -> int:
        if "schema_version" not in self.db.table_names():
            return 0
        row = self.db.execute("SELECT version FROM schema_version").fetchone()
        return row[0] if row else 0

    def migrate(self) -> None:
        """Bring the file to the newest schema; a no-op on an up-to-date file."""
        with self.transaction():
            self.db.execute(VERSION_TABLE)
            current = self.schema_version
            if current > 0:
                step_up(self.db.execute, current, MIGRATIONS)
                return
            for statement in newest_schema(MIGRATIONS):     # a new file: the newest schema at once
                self.db.execute(statement)
            self.db.execute("INSERT INTO schema_version (version) VALUES (?)", [len(MIGRATIONS)])

    @contextlib.contextmanager
    def transaction(self) -> Iterator["StoreBase"]:
        """One SQLite transaction; nested calls become savepoints of the outer one."""
        conn = self.db.conn
        if conn.in_transaction:
            with self.db.atomic():
                yield self
            return
        conn.execute("BEGIN IMMEDIATE")
        try:
            yield self
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise
        conn.execute("COMMIT")

    def _rows(self, sql: str, params: Iterable | Mapping = ()) -> list[dict]:
        return [self._placed(_decode(row)) for row in self.db.query(sql, params)]

    def kept_path(self, path: str | Path) -> str:
        """How a file beside the store is kept in it: relative to the store's folder."""
        full = Path(os.path.abspath(path))
        return str(full.relative_to(self.folder)) if full.is_relative_to(self.folder) else str(full)

    def _placed(self, row: dict) -> dict:
        """A row's files beside the store (a draft's pictures) as full paths."""
        if row.get("pictures"):
            row["pictures"] = [str(self.folder / name) for name in row["pictures"]]
        return row

    def _one(self, sql: str, params: Iterable | Mapping = ()) -> dict | None:
        rows = self._rows(sql, params)
        return rows[0] if rows else None

    def _insert(self, table: str, record: Mapping[str, Any]) -> int:
        names = ", ".join(record)
        marks = ", ".join("?" for _ in record)
        cursor = self.db.execute(f"INSERT INTO {table} ({names}) VALUES ({marks})", list(record.values()))
        return cursor.lastrowid

    def now(self) -> datetime:
        return self._now()

    @contextlib.contextmanager
    def durably(self) -> Iterator["StoreBase"]:
        """A transaction that is on the disk when it ends, and with it everything committed before
        (WAL: the log is synced up to its commit), also through a power cut, which
        synchronous=NORMAL does not promise."""
        if self.db.conn.in_transaction:
            raise StoreError("durably() opens its own transaction")
        self.db.execute("PRAGMA synchronous=FULL")
        try:
            with self.transaction():
                yield self
        finally:
            self.db.execute("PRAGMA synchronous=NORMAL")
