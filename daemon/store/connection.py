"""The store's SQLite connection, with the few conveniences the store uses: rows as dicts, the
tables' names, savepoints inside a transaction.

Not sqlite-utils, which gave these before: it imports numpy wherever numpy is installed (the Bellum
map draws with it), and that cost every command opening the store ~140 ms of CPU, a third of
`forumgm status`.
"""
from __future__ import annotations

import contextlib
import itertools
import sqlite3
from typing import Any, Iterable, Iterator, Mapping

_savepoints = itertools.count(1)


class Database:
    def __init__(self, conn: sqlite3.Connection):
        self.conn = conn

    def execute(self, sql: str, parameters: Iterable | Mapping = ()) -> sqlite3.Cursor:
        return self.conn.execute(sql, parameters)

    def query(self, sql: str, parameters: Iterable | Mapping = ()) -> Iterator[dict[str, Any]]:
        """The rows of a statement that returns rows, each as {column: value}."""
        cursor = self.conn.execute(sql, parameters)
        if cursor.description is None:
            raise ValueError(f"not a statement that returns rows: {sql}")
        names = [column[0] for column in cursor.description]
        return (dict(zip(names, row)) for row in cursor)

    def table_names(self) -> list[str]:
        return [row[0] for row in self.conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]

    @contextlib.contextmanager
    def atomic(self) -> Iterator[Database]:
        """A savepoint inside the open transaction: what the block did is undone if it fails."""
        savepoint = f"forumgm_{next(_savepoints)}"
        self.conn.execute(f"SAVEPOINT {savepoint}")
        try:
            yield self
        except BaseException:
            if self.conn.in_transaction:        # (an error may have ended the whole transaction)
                self.conn.execute(f"ROLLBACK TO SAVEPOINT {savepoint}")
                self.conn.execute(f"RELEASE SAVEPOINT {savepoint}")
            raise
        self.conn.execute(f"RELEASE SAVEPOINT {savepoint}")
