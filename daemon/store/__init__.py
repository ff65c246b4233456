"""The installation's SQLite file: everything seen on the forum, every input, every resolution, every draft.

One file per installation, WAL mode so the host's CLI can read while the daemon writes.
Times go in as aware datetimes and are stored as ISO-8601 UTC text; they come back as aware
UTC datetimes. Every multi-row write runs in one transaction (`Store.transaction()`), and a
transaction takes the write lock at its start (BEGIN IMMEDIATE) so that two processes never
both decide that the same phase is still unresolved.
"""
from __future__ import annotations

import contextlib
import hashlib
import json
import sqlite3
from dataclasses import asdict
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, Mapping, Sequence

import sqlite_utils

from forumgm.parsers.forums.base import PmHeader, PmMessage, Post

Now = Callable[[], datetime]

DRAFT_STATUSES = ("pending", "approved", "sending", "sent", "rejected", "superseded")
# a draft in one of these may still change; the others are history
OPEN_DRAFT_STATUSES = ("pending", "approved")

RAW_PAGES_KEPT = 20      # thread pages kept per game as the forum showed them ([storage] raw_pages_kept)
JSON_COLUMNS = frozenset({"pictures", "aliases", "colored", "flagged", "verdicts", "data", "state", "detail", "settings"})
TIME_COLUMNS = frozenset({"deadline", "at", "problem_since", "since"})


def store_problem(path: Path, error: Exception) -> str:
    """One line for the host when SQLite cannot use the file (no traceback)."""
    return (f"the store {path} cannot be used: {error} (a read-only file or folder, or a full disk? "
            "forumgm must be able to write there)")


class StoreError(Exception):
    """A request the store refuses (unknown draft, a draft no longer editable, ...)."""


# Ordered migrations: index + 1 is the schema version a step brings the file to.
# Never edit a released step; append a new one.
MIGRATIONS: tuple[str, ...] = (
    """
    CREATE TABLE forums (
        id TEXT PRIMARY KEY,
        engine TEXT NOT NULL,
        base_url TEXT NOT NULL,
        account TEXT NOT NULL
    );
    CREATE TABLE games (
        id TEXT PRIMARY KEY,
        type TEXT NOT NULL,
        forum_id TEXT REFERENCES forums(id),
        thread_url TEXT NOT NULL,
        time_zone TEXT NOT NULL,
        seed TEXT NOT NULL,
        settings TEXT NOT NULL DEFAULT '{}',
        registered_at TEXT NOT NULL
    );
    CREATE TABLE players (
        game_id TEXT NOT NULL REFERENCES games(id),
        nick TEXT NOT NULL,
        aliases TEXT NOT NULL DEFAULT '[]',
        PRIMARY KEY (game_id, nick)
    );
    CREATE TABLE raw_pages (
        id INTEGER PRIMARY KEY,
        game_id TEXT NOT NULL REFERENCES games(id),
        url TEXT NOT NULL,
        page_no INTEGER NOT NULL,
        html TEXT NOT NULL,
        fetched_at TEXT NOT NULL
    );
    CREATE INDEX raw_pages_game ON raw_pages(game_id, page_no);
    CREATE TABLE thread_cursors (
        game_id TEXT PRIMARY KEY REFERENCES games(id),
        last_page INTEGER NOT NULL DEFAULT 1,
        pages INTEGER NOT NULL DEFAULT 1,
        last_post_id TEXT
    );
    CREATE TABLE posts (
        game_id TEXT NOT NULL REFERENCES games(id),
        post_id TEXT NOT NULL,
        author TEXT NOT NULL,
        author_id TEXT,
        posted_at TEXT,
        page_no INTEGER,
        first_seen_at TEXT NOT NULL,
        last_seen_at TEXT NOT NULL,
        deleted_at TEXT,
        PRIMARY KEY (game_id, post_id)
    );
    CREATE TABLE post_versions (
        id INTEGER PRIMARY KEY,
        game_id TEXT NOT NULL,
        post_id TEXT NOT NULL,
        digest TEXT NOT NULL,
        author TEXT NOT NULL,
        posted_at TEXT,
        edited_at TEXT,
        edited INTEGER NOT NULL DEFAULT 0,
        edited_by TEXT,
        html TEXT NOT NULL,
        text TEXT NOT NULL,
        text_unquoted TEXT NOT NULL,
        colored TEXT NOT NULL,
        flagged TEXT NOT NULL,
        seen_at TEXT NOT NULL,
        FOREIGN KEY (game_id, post_id) REFERENCES posts(game_id, post_id)
    );
    CREATE INDEX post_versions_post ON post_versions(game_id, post_id, id);
    CREATE TABLE pms (
        forum_id TEXT NOT NULL,
        pm_id TEXT NOT NULL,
        sender TEXT NOT NULL,
        sender_id TEXT,
        subject TEXT NOT NULL,
        sent_at TEXT,
        unread INTEGER NOT NULL DEFAULT 0,
        html TEXT NOT NULL,
        text TEXT NOT NULL,
        seen_at TEXT NOT NULL,
        PRIMARY KEY (forum_id, pm_id)
    );
    CREATE TABLE phases (
        game_id TEXT NOT NULL REFERENCES games(id),
        key TEXT NOT NULL,
        kind TEXT NOT NULL,
        number INTEGER NOT NULL,
        status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'resolved')),
        opens_at TEXT,
        deadline TEXT NOT NULL,
        resolved_at TEXT,
        PRIMARY KEY (game_id, key)
    );
    CREATE TABLE resolutions (
        id INTEGER PRIMARY KEY,
        game_id TEXT NOT NULL,
        phase_key TEXT NOT NULL,
        resolved_at TEXT NOT NULL,
        rerun INTEGER NOT NULL DEFAULT 0,
        current INTEGER NOT NULL DEFAULT 1,
        FOREIGN KEY (game_id, phase_key) REFERENCES phases(game_id, key)
    );
    -- at most one current resolution per phase: the "resolved exactly once" guarantee
    CREATE UNIQUE INDEX resolutions_current ON resolutions(game_id, phase_key) WHERE current = 1;
    CREATE TABLE votes (
        id INTEGER PRIMARY KEY,
        game_id TEXT NOT NULL REFERENCES games(id),
        phase_key TEXT NOT NULL,
        voter TEXT NOT NULL,
        target TEXT,
        counted INTEGER NOT NULL,
        reason TEXT,
        detail TEXT,
        text TEXT NOT NULL DEFAULT '',
        post_id TEXT,
        cast_at TEXT,
        counted_at TEXT NOT NULL
    );
    CREATE INDEX votes_phase ON votes(game_id, phase_key);
    CREATE TABLE orders (
        id INTEGER PRIMARY KEY,
        game_id TEXT NOT NULL REFERENCES games(id),
        phase_key TEXT NOT NULL,
        pm_id TEXT NOT NULL,
        sender TEXT NOT NULL,
        sent_at TEXT,
        raw_text TEXT NOT NULL,
        verdicts TEXT NOT NULL,
        recorded_at TEXT NOT NULL,
        UNIQUE (game_id, pm_id)
    );
    CREATE TABLE snapshots (
        id INTEGER PRIMARY KEY,
        game_id TEXT NOT NULL REFERENCES games(id),
        phase_key TEXT NOT NULL,           -- the phase this state is the result of; 'setup' first
        resolution_id INTEGER REFERENCES resolutions(id),
        state TEXT NOT NULL,
        created_at TEXT NOT NULL,
        current INTEGER NOT NULL DEFAULT 1
    );
    CREATE TABLE events (
        id INTEGER PRIMARY KEY,
        game_id TEXT NOT NULL,
        phase_key TEXT NOT NULL,
        resolution_id INTEGER NOT NULL REFERENCES resolutions(id),
        seq INTEGER NOT NULL,
        type TEXT NOT NULL,
        data TEXT NOT NULL
    );
    CREATE TABLE eliminations (
        id INTEGER PRIMARY KEY,
        game_id TEXT NOT NULL,
        phase_key TEXT NOT NULL,
        resolution_id INTEGER NOT NULL REFERENCES resolutions(id),
        nick TEXT NOT NULL,
        cause TEXT NOT NULL
    );
    CREATE TABLE drafts (
        id INTEGER PRIMARY KEY,
        game_id TEXT NOT NULL REFERENCES games(id),
        kind TEXT NOT NULL,
        target TEXT NOT NULL,              -- 'thread' or a nickname (a PM)
        subject TEXT NOT NULL DEFAULT '',
        body TEXT NOT NULL,
        phase_key TEXT,
        needs_approval INTEGER NOT NULL,
        status TEXT NOT NULL CHECK (status IN
            ('pending', 'approved', 'sending', 'sent', 'rejected', 'superseded')),
        ref TEXT,                          -- what the draft answers, e.g. 'receipt:<pm id>'
        resolution_id INTEGER REFERENCES resolutions(id),
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        decided_by TEXT,
        sending_at TEXT,
        sent_at TEXT,
        forum_ref TEXT
    );
    CREATE INDEX drafts_status ON drafts(status);
    -- one live draft per reference: a receipt is never drafted twice for the same PM
    CREATE UNIQUE INDEX drafts_live_ref ON drafts(game_id, ref)
        WHERE ref IS NOT NULL AND status <> 'superseded';
    CREATE TABLE draft_edits (
        id INTEGER PRIMARY KEY,
        draft_id INTEGER NOT NULL REFERENCES drafts(id),
        body_before TEXT NOT NULL,
        body_after TEXT NOT NULL,
        edited_by TEXT NOT NULL,
        edited_at TEXT NOT NULL
    );
    CREATE TABLE audit (
        id INTEGER PRIMARY KEY,
        at TEXT NOT NULL,
        actor TEXT NOT NULL,
        action TEXT NOT NULL,
        detail TEXT NOT NULL
    );
    """,
    # the forum's message when it refused to take a draft (publish puts the draft back to pending)
    """
    ALTER TABLE drafts ADD COLUMN send_error TEXT;
    """,
    # one-time links showing a Mafia player his role once; only the token's SHA-256 is kept
    """
    CREATE TABLE role_links (
        token_hash TEXT PRIMARY KEY,
        game_id TEXT NOT NULL REFERENCES games(id),
        nick TEXT NOT NULL,
        role_text TEXT NOT NULL,
        created_at TEXT NOT NULL,
        used_at TEXT
    );
    """,
    # the host ended a game and named its winner (`forumgm finish`); no phase resolves after it
    """
    ALTER TABLE games ADD COLUMN finished_at TEXT;
    ALTER TABLE games ADD COLUMN winner TEXT;
    ALTER TABLE games ADD COLUMN finished_by TEXT;
    """,
    # a PM's text without the quotes it holds: orders are read from the sender's own words
    """
    ALTER TABLE pms ADD COLUMN text_unquoted TEXT;
    """,
    # why the game waits (its thread or the PM inbox could not be read), since when; NULL when it runs
    """
    ALTER TABLE games ADD COLUMN problem TEXT;
    ALTER TABLE games ADD COLUMN problem_since TEXT;
    """,
    # the daemon's last tick and the next one it planned (and why): `status` shows them
    """
    CREATE TABLE daemon_ticks (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        last_tick_at TEXT NOT NULL,
        next_tick_at TEXT NOT NULL,
        next_reason TEXT NOT NULL
    );
    """,
    # host actions: a correction the host entered replaces a player's orders of a phase (the player's
    # PMs stay, marked superseded); a paused game; a player's account replaced by another
    """
    ALTER TABLE orders ADD COLUMN superseded_by INTEGER REFERENCES orders(id);
    ALTER TABLE orders ADD COLUMN entered_by TEXT;
    ALTER TABLE games ADD COLUMN paused_at TEXT;
    ALTER TABLE games ADD COLUMN paused_by TEXT;
    CREATE TABLE replacements (
        id INTEGER PRIMARY KEY,
        game_id TEXT NOT NULL REFERENCES games(id),
        old_nick TEXT NOT NULL,
        new_nick TEXT NOT NULL,
        replaced_by TEXT NOT NULL,
        at TEXT NOT NULL
    );
    """,
    # other reasons a game is held, one row per cause ('rules_changed', ...); see daemon/tick/stops.py
    """
    CREATE TABLE game_stops (
        game_id TEXT NOT NULL REFERENCES games(id),
        cause TEXT NOT NULL,
        message TEXT NOT NULL,
        since TEXT NOT NULL,
        PRIMARY KEY (game_id, cause)
    );
    """,
    # the newest post or sent-PM id the board showed before a draft was sent: a draft whose
    # answer was lost is looked for only among the account's texts after it (publish.py)
    """
    ALTER TABLE drafts ADD COLUMN sent_after TEXT;
    """,
    # what the host has been told (daemon/notify): each event once
    """
    CREATE TABLE notifications (
        key TEXT PRIMARY KEY,
        sent_at TEXT NOT NULL
    );
    """,
    # a tick reads the posts and PMs of the open phase, not the whole thread and inbox: through indexes
    """
    CREATE INDEX post_versions_seen ON post_versions(game_id, seen_at);
    CREATE INDEX posts_posted ON posts(game_id, posted_at);
    CREATE INDEX posts_page ON posts(game_id, page_no);
    CREATE INDEX pms_seen ON pms(forum_id, seen_at);
    """,
    # the board shows the post to the host only, as soft-deleted or awaiting approval: no vote
    """
    ALTER TABLE posts ADD COLUMN hidden INTEGER NOT NULL DEFAULT 0;
    """,
    # PMs the host's account sent itself (an approved notice): counted by the inbox, never orders
    """
    CREATE TABLE own_pms (
        forum_id TEXT NOT NULL,
        pm_id TEXT NOT NULL,
        PRIMARY KEY (forum_id, pm_id)
    );
    """,
    # the pictures a draft carries (a turn report's map): files beside the store, posted with its text
    """
    ALTER TABLE drafts ADD COLUMN pictures TEXT;
    """,
    # stored PMs the board was asked to delete or move out of the inbox ([forum] inbox_cleanup):
    # asked_at is on disk before the board is asked; done_at once the inbox no longer lists it
    """
    CREATE TABLE pm_removals (
        forum_id TEXT NOT NULL,
        pm_id TEXT NOT NULL,
        action TEXT NOT NULL,
        asked_at TEXT NOT NULL,
        done_at TEXT,
        PRIMARY KEY (forum_id, pm_id)
    );
    """,
    # the host's correction of a player's thread vote (his posts stay as they were; the tally counts
    # the correction instead, and a counted vote says when it is one)
    """
    CREATE TABLE vote_corrections (
        id INTEGER PRIMARY KEY,
        game_id TEXT NOT NULL REFERENCES games(id),
        phase_key TEXT NOT NULL,
        voter TEXT NOT NULL,
        text TEXT NOT NULL,
        cast_at TEXT NOT NULL,
        entered_by TEXT NOT NULL,
        recorded_at TEXT NOT NULL,
        superseded_by INTEGER REFERENCES vote_corrections(id)
    );
    CREATE INDEX vote_corrections_phase ON vote_corrections(game_id, phase_key);
    ALTER TABLE votes ADD COLUMN entered_by TEXT;
    """,
    # the last whole read of the forum's PM inbox that went well: a poll whose thread page counts
    # no unread PM skips the inbox until a safety read is due (daemon/forum/housekeeping/inbox_check.py)
    """
    ALTER TABLE forums ADD COLUMN inbox_read_at TEXT;
    """,
    # a vote correction that annuls the player's thread vote of the phase: no vote of his counts
    """
    ALTER TABLE vote_corrections ADD COLUMN annulled INTEGER NOT NULL DEFAULT 0;
    """,
    # a PM draft's copy in the account's sent folder, deleted once its send was recorded
    # (daemon/forum/housekeeping/sent_copies.py); and how full the board last said the account's sent PMs are
    """
    ALTER TABLE drafts ADD COLUMN copy_removed_at TEXT;
    ALTER TABLE forums ADD COLUMN sent_fill REAL;
    ALTER TABLE forums ADD COLUMN sent_note TEXT;
    """,
    # when the inbox first listed a PM the account sent itself (a notice approved to the host's own
    # account): inbox_cleanup removes it a day later, as a stored PM (NULL: listed before this column)
    """
    ALTER TABLE own_pms ADD COLUMN seen_at TEXT;
    """,
    # a daemon on a fast game clock (forumgm demo, run --speed) keeps its plan in game time: how fast
    # that clock runs and the real moment of its next tick let `status`, on the real clock, say when
    # the tick comes and whether it is overdue
    """
    ALTER TABLE daemon_ticks ADD COLUMN clock_speed REAL NOT NULL DEFAULT 1;
    ALTER TABLE daemon_ticks ADD COLUMN due_at TEXT;
    """,
    # the host's notices by PM (daemon/notify): their copies in the account's sent folder, deleted
    # in time like the drafts' (daemon/forum/housekeeping/sent_copies.py)
    """
    CREATE TABLE notice_pms (
        forum_id TEXT NOT NULL,
        pm_id TEXT NOT NULL,
        sent_at TEXT NOT NULL,
        copy_removed_at TEXT,
        PRIMARY KEY (forum_id, pm_id)
    );
    """,
    # the rules freeze (daemon/tick/rules_freeze.py): the merged rule table a game was dealt under (or
    # the one the host accepted since) and its hash, which every tick compares with the game file's
    """
    ALTER TABLE games ADD COLUMN rules TEXT;
    ALTER TABLE games ADD COLUMN rules_hash TEXT;
    """,
)


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


def _fragments(fragments: Iterable) -> str:
    return json.dumps([asdict(f) for f in fragments], ensure_ascii=False)


def _version_digest(post: Post) -> str:
    """What makes two sightings of a post the same version: body, votes and edit mark."""
    edited = post.edited_at if isinstance(post.edited_at, bool) or post.edited_at is None else to_text(post.edited_at)
    material = json.dumps(
        [post.html, post.text, _fragments(post.colored), _fragments(post.flagged), edited],
        ensure_ascii=False,
    )
    return hashlib.sha256(material.encode("utf-8")).hexdigest()


class Store:
    def __init__(self, path: str | Path, now: Now = utc_now, raw_pages_kept: int = RAW_PAGES_KEPT) -> None:
        self.path = Path(path)
        self._now = now
        self.raw_pages_kept = raw_pages_kept
        # autocommit at the driver level: transactions are opened explicitly below
        conn = sqlite3.connect(str(self.path), timeout=30, isolation_level=None, check_same_thread=False)
        self.db = sqlite_utils.Database(conn)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA foreign_keys=ON")
        self.db.execute("PRAGMA synchronous=NORMAL")
        self.migrate()

    def close(self) -> None:
        self.db.conn.close()

    # ------------------------------------------------------------ schema

    @property
    def schema_version(self) -> int:
        if not self.db["schema_version"].exists():
            return 0
        row = self.db.execute("SELECT version FROM schema_version").fetchone()
        return row[0] if row else 0

    def migrate(self) -> None:
        """Bring the file to the newest schema; a no-op on an up-to-date file."""
        with self.transaction():
            self.db.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
            current = self.schema_version
            for version, script in enumerate(MIGRATIONS[current:], start=current + 1):
                for statement in _statements(script):
                    self.db.execute(statement)
                self.db.execute("DELETE FROM schema_version")
                self.db.execute("INSERT INTO schema_version (version) VALUES (?)", [version])

    @contextlib.contextmanager
    def transaction(self) -> Iterator["Store"]:
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
        return [_decode(row) for row in self.db.query(sql, params)]

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

    # ------------------------------------------------------------ forums, games, players

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
                "seed=excluded.seed, settings=excluded.settings",
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

    # ------------------------------------------------------------ thread: raw pages, posts, versions

    def record_page(self, game_id: str, url: str, page_no: int, html: str, fetched_at: datetime) -> int:
        """Keeps the newest `raw_pages_kept` pages of the game: they are for looking back at what
        the forum showed, and would otherwise grow without bound (18 MB in one small game)."""
        with self.transaction():
            page_id = self._insert("raw_pages", {"game_id": game_id, "url": url, "page_no": page_no,
                                                 "html": html, "fetched_at": to_text(fetched_at)})
            self.db.execute("DELETE FROM raw_pages WHERE game_id = ? AND id NOT IN "
                            "(SELECT id FROM raw_pages WHERE game_id = ? ORDER BY id DESC LIMIT ?)",
                            [game_id, game_id, self.raw_pages_kept])
        return page_id

    def raw_pages(self, game_id: str) -> list[dict]:
        return self._rows("SELECT * FROM raw_pages WHERE game_id = ? ORDER BY id", [game_id])

    def record_post(self, game_id: str, post: Post, page_no: int | None, seen_at: datetime) -> str:
        """'new', 'edited' (a version not seen before) or 'same'; every distinct version is kept."""
        digest = _version_digest(post)
        seen = to_text(seen_at)
        with self.transaction():
            known = self._one("SELECT post_id FROM posts WHERE game_id = ? AND post_id = ?", [game_id, post.id])
            if known is None:
                self._insert("posts", {"game_id": game_id, "post_id": post.id, "author": post.author,
                                       "author_id": post.author_id, "posted_at": to_text(post.posted_at),
                                       "page_no": page_no, "first_seen_at": seen, "last_seen_at": seen,
                                       "hidden": int(post.hidden)})
                verdict = "new"
            else:
                self.db.execute("UPDATE posts SET last_seen_at = ?, deleted_at = NULL, page_no = COALESCE(?, page_no), "
                                "hidden = ? WHERE game_id = ? AND post_id = ?",
                                [seen, page_no, int(post.hidden), game_id, post.id])
                latest = self.db.execute("SELECT digest FROM post_versions WHERE game_id = ? AND post_id = ? "
                                         "ORDER BY id DESC LIMIT 1", [game_id, post.id]).fetchone()
                if latest and latest[0] == digest:
                    return "same"
                verdict = "edited"
            edited_at = post.edited_at if isinstance(post.edited_at, datetime) else None
            self._insert("post_versions", {
                "game_id": game_id, "post_id": post.id, "digest": digest, "author": post.author,
                "posted_at": to_text(post.posted_at), "edited_at": to_text(edited_at),
                "edited": int(bool(post.edited_at)), "edited_by": post.edited_by, "html": post.html,
                "text": post.text, "text_unquoted": post.text_unquoted,
                "colored": _fragments(post.colored), "flagged": _fragments(post.flagged), "seen_at": seen,
            })
            return verdict

    def posts(self, game_id: str, posted_since: datetime | None = None) -> list[dict]:
        """The thread's posts in the order first seen; only those written at or after `posted_since` if given."""
        if posted_since is None:
            return self._rows("SELECT * FROM posts WHERE game_id = ? ORDER BY first_seen_at, rowid", [game_id])
        return self._rows("SELECT * FROM posts WHERE game_id = ? AND posted_at >= ? ORDER BY first_seen_at, rowid",
                          [game_id, to_text(posted_since)])

    def hidden_post_ids(self, game_id: str) -> set[str]:
        """Posts the board shows to the host only (soft-deleted by a moderator, awaiting approval)."""
        return {row[0] for row in self.db.execute("SELECT post_id FROM posts WHERE game_id = ? AND hidden = 1",
                                                  [game_id])}

    def deleted_post_ids(self, game_id: str, until: datetime) -> set[str]:
        """Posts marked deleted at or before `until`."""
        return {row[0] for row in self.db.execute(
            "SELECT post_id FROM posts WHERE game_id = ? AND deleted_at IS NOT NULL AND deleted_at <= ?",
            [game_id, to_text(until)])}

    def live_post_pages(self, game_id: str, from_page: int, to_page: int | None = None) -> dict[str, int | None]:
        """{post id: page} of the posts with a numeric id, not deleted, last seen on these pages
        (or on no known page): those a sync reading the pages must see again."""
        live = ("SELECT post_id, page_no FROM posts WHERE game_id = ? AND deleted_at IS NULL "
                "AND post_id != '' AND post_id NOT GLOB '*[^0-9]*' AND ")
        # two selects, not one with OR: each reads only its pages through the (game, page) index
        return {row[0]: row[1] for row in self.db.execute(
            live + "page_no >= ? AND page_no <= ? UNION ALL " + live + "page_no IS NULL",
            [game_id, from_page, to_page if to_page is not None else 2**62, game_id])}

    def first_page_posted_since(self, game_id: str, since: datetime) -> int | None:
        """The first page holding a post (not deleted) written at or after `since`; None if there is none."""
        row = self.db.execute("SELECT MIN(page_no) FROM posts WHERE game_id = ? AND deleted_at IS NULL "
                              "AND posted_at >= ?", [game_id, to_text(since)]).fetchone()
        return row[0] if row else None

    def post_versions(self, game_id: str, post_id: str | None = None) -> list[dict]:
        """Versions of one post, or of every post of the game when post_id is None; oldest first."""
        if post_id is None:
            return self._rows("SELECT * FROM post_versions WHERE game_id = ? ORDER BY id", [game_id])
        return self._rows("SELECT * FROM post_versions WHERE game_id = ? AND post_id = ? ORDER BY id",
                          [game_id, post_id])

    def recent_post_versions(self, game_id: str, seen_since: datetime) -> list[dict]:
        """Every version of each post with a version seen at or after `seen_since`, oldest first."""
        return self._rows("SELECT * FROM post_versions WHERE game_id = ? AND post_id IN "
                          "(SELECT post_id FROM post_versions WHERE game_id = ? AND seen_at >= ?) ORDER BY id",
                          [game_id, game_id, to_text(seen_since)])

    def mark_deleted(self, game_id: str, post_ids: Iterable[str], seen_at: datetime) -> None:
        """Posts gone from the thread keep their versions; they are only marked."""
        with self.transaction():
            for post_id in post_ids:
                self.db.execute("UPDATE posts SET deleted_at = ? WHERE game_id = ? AND post_id = ? "
                                "AND deleted_at IS NULL", [to_text(seen_at), game_id, post_id])

    def thread_cursor(self, game_id: str) -> dict:
        row = self._one("SELECT last_page, pages, last_post_id FROM thread_cursors WHERE game_id = ?", [game_id])
        return row or {"last_page": 1, "pages": 1, "last_post_id": None}

    def set_thread_cursor(self, game_id: str, **values: Any) -> None:
        unknown = set(values) - {"last_page", "pages", "last_post_id"}
        if unknown:
            raise StoreError(f"unknown thread cursor fields: {sorted(unknown)}")
        merged = {**self.thread_cursor(game_id), **values}
        self.db.execute(
            "INSERT INTO thread_cursors (game_id, last_page, pages, last_post_id) VALUES (?, ?, ?, ?) "
            "ON CONFLICT(game_id) DO UPDATE SET last_page=excluded.last_page, pages=excluded.pages, "
            "last_post_id=excluded.last_post_id",
            [game_id, merged["last_page"], merged["pages"], merged["last_post_id"]],
        )

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

    # ------------------------------------------------------------ private messages

    def record_pm(self, forum_id: str, header: PmHeader, message: PmMessage, seen_at: datetime) -> bool:
        """Stored once; True when this PM was not known before."""
        cursor = self.db.execute(
            "INSERT INTO pms (forum_id, pm_id, sender, sender_id, subject, sent_at, unread, html, text, "
            "text_unquoted, seen_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT(forum_id, pm_id) DO NOTHING",
            [forum_id, message.id, message.sender, message.sender_id, message.subject,
             to_text(message.sent_at or header.sent_at), int(header.unread), message.html, message.text,
             message.text_unquoted, to_text(seen_at)],
        )
        return cursor.rowcount == 1

    def known_pm_ids(self, forum_id: str) -> set[str]:
        """Every PM of the inbox already seen: those stored and those the account sent itself."""
        return {row[0] for row in self.db.execute("SELECT pm_id FROM pms WHERE forum_id = ? UNION "
                                                  "SELECT pm_id FROM own_pms WHERE forum_id = ?",
                                                  [forum_id, forum_id])}

    def set_inbox_read(self, forum_id: str, at: datetime | None) -> None:
        """When the inbox was last read whole without a problem; None after a read that failed."""
        self.db.execute("UPDATE forums SET inbox_read_at = ? WHERE id = ?", [to_text(at), forum_id])

    def inbox_read_at(self, forum_id: str) -> datetime | None:
        row = self._one("SELECT inbox_read_at FROM forums WHERE id = ?", [forum_id])
        return row["inbox_read_at"] if row else None

    def record_own_pms(self, forum_id: str, pm_ids: Iterable[str], seen_at: datetime) -> None:
        self.db.conn.executemany("INSERT OR IGNORE INTO own_pms (forum_id, pm_id, seen_at) VALUES (?, ?, ?)",
                                 [(forum_id, pm_id, to_text(seen_at)) for pm_id in pm_ids])

    def removable_pms(self, forum_id: str, pm_ids: Iterable[str], stored_before: datetime | None) -> list[str]:
        """Those of `pm_ids` (in their order) stored with their text, before `stored_before` (None:
        whenever), that no draft answering them waits for: a receipt or a notice of a stray PM
        still pending, approved or being sent. A PM the account sent itself (an approved notice to
        the host's own account: its text is the draft's) goes the same way, by when it was listed."""
        wanted = list(dict.fromkeys(pm_ids))
        if not wanted:
            return []
        marks = ", ".join("?" for _ in wanted)
        rows = self.db.execute(
            f"SELECT pm_id FROM pms WHERE forum_id = ? AND pm_id IN ({marks}) AND text IS NOT NULL "
            "AND html IS NOT NULL AND (? IS NULL OR seen_at <= ?) AND NOT EXISTS (SELECT 1 FROM drafts "
            "WHERE ref IN ('receipt:' || pms.pm_id, 'stray_pm:' || pms.forum_id || ':' || pms.pm_id) "
            "AND status IN ('pending', 'approved', 'sending')) "
            f"UNION SELECT pm_id FROM own_pms WHERE forum_id = ? AND pm_id IN ({marks}) "
            "AND (? IS NULL OR COALESCE(seen_at, '') <= ?)",
            [forum_id, *wanted, to_text(stored_before), to_text(stored_before),
             forum_id, *wanted, to_text(stored_before), to_text(stored_before)])
        found = {row[0] for row in rows}
        return [pm_id for pm_id in wanted if pm_id in found]

    @contextlib.contextmanager
    def durably(self) -> Iterator["Store"]:
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

    def ask_pm_removal(self, forum_id: str, pm_ids: Iterable[str], action: str, at: datetime) -> list[str]:
        """Inside durably(): note that the board is asked to remove these PMs; the ones stored with
        their text, which alone may be removed (checked again here, in the transaction that goes to
        disk before the board is asked)."""
        if not self.db.conn.in_transaction:
            raise StoreError("ask_pm_removal must run inside Store.durably()")
        stored = self.removable_pms(forum_id, pm_ids, None)
        self.db.conn.executemany(
            "INSERT INTO pm_removals (forum_id, pm_id, action, asked_at) VALUES (?, ?, ?, ?) "
            "ON CONFLICT(forum_id, pm_id) DO UPDATE SET action = excluded.action, asked_at = excluded.asked_at, "
            "done_at = NULL", [(forum_id, pm_id, action, to_text(at)) for pm_id in stored])
        return stored

    def pm_removals_done(self, forum_id: str, pm_ids: Iterable[str], at: datetime) -> None:
        self.db.conn.executemany("UPDATE pm_removals SET done_at = ? WHERE forum_id = ? AND pm_id = ?",
                                 [(to_text(at), forum_id, pm_id) for pm_id in pm_ids])

    def pm_removals(self, forum_id: str) -> list[dict]:
        return self._rows("SELECT * FROM pm_removals WHERE forum_id = ? ORDER BY asked_at, pm_id", [forum_id])

    def pms(self, forum_id: str, since: datetime | None = None) -> list[dict]:
        if since is None:
            return self._rows("SELECT * FROM pms WHERE forum_id = ? ORDER BY sent_at, seen_at, rowid", [forum_id])
        return self._rows("SELECT * FROM pms WHERE forum_id = ? AND seen_at >= ? ORDER BY sent_at, seen_at, rowid",
                          [forum_id, to_text(since)])

    def unclaimed_pms(self, forum_id: str, game_ids: Sequence[str], since: datetime, ref_prefix: str) -> list[dict]:
        """The forum's PMs sent (or, undated, seen) at or after `since` that none of `game_ids` read as
        an order and that no live draft with reference `ref_prefix` + pm_id answers, in `pms` order."""
        games = list(game_ids)
        marks = ", ".join("?" for _ in games)
        return self._rows(
            "SELECT * FROM pms WHERE forum_id = ? AND COALESCE(sent_at, seen_at) >= ? "
            f"AND pm_id NOT IN (SELECT pm_id FROM orders WHERE game_id IN ({marks})) "
            "AND ? || pm_id NOT IN (SELECT ref FROM drafts WHERE substr(ref, 1, ?) = ? AND status <> 'superseded') "
            "ORDER BY sent_at, seen_at, rowid",
            [forum_id, to_text(since), *games, ref_prefix, len(ref_prefix), ref_prefix])

    # ------------------------------------------------------------ inputs: votes and orders

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
            "game_id": game_id, "phase_key": phase_key, "pm_id": f"host-{number}", "sender": sender,
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

    # ------------------------------------------------------------ phases, resolutions, snapshots

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

    # ------------------------------------------------------------ drafts

    def add_draft(self, game_id: str, kind: str, target: str, body: str, phase_key: str | None,
                  needs_approval: bool, ref: str | None = None, subject: str = "",
                  resolution_id: int | None = None, pictures: Sequence[str] = ()) -> int:
        """A new draft, or the live one already drafted for the same `ref` (never twice). `pictures`:
        files it is posted with (daemon/drafts/pictures.py)."""
        if ref is not None:
            existing = self.db.execute("SELECT id FROM drafts WHERE game_id = ? AND ref = ? "
                                       "AND status <> 'superseded'", [game_id, ref]).fetchone()
            if existing:
                return existing[0]
        now = to_text(self.now())
        return self._insert("drafts", {
            "game_id": game_id, "kind": kind, "target": target, "subject": subject, "body": body,
            "phase_key": phase_key, "needs_approval": int(needs_approval),
            "status": "pending" if needs_approval else "approved", "ref": ref,
            "resolution_id": resolution_id, "created_at": now, "updated_at": now,
            **({"pictures": json.dumps([str(path) for path in pictures], ensure_ascii=False)} if pictures else {}),
        })

    def drafts(self, status: str | None = None, game_id: str | None = None) -> list[dict]:
        where, params = [], []
        if status is not None:
            where.append("status = ?")
            params.append(status)
        if game_id is not None:
            where.append("game_id = ?")
            params.append(game_id)
        clause = f"WHERE {' AND '.join(where)}" if where else ""
        return self._rows(f"SELECT * FROM drafts {clause} ORDER BY id", params)

    def draft(self, draft_id: int) -> dict:
        row = self._one("SELECT * FROM drafts WHERE id = ?", [draft_id])
        if row is None:
            raise StoreError(f"no draft {draft_id}")
        return row

    def draft_edits(self, draft_id: int) -> list[dict]:
        return self._rows("SELECT * FROM draft_edits WHERE draft_id = ? ORDER BY id", [draft_id])

    def _open_draft(self, draft_id: int, action: str) -> dict:
        row = self.draft(draft_id)
        if row["status"] not in OPEN_DRAFT_STATUSES:
            raise StoreError(f"draft {draft_id} is {row['status']}; it can no longer be {action}")
        return row

    def edit_draft(self, draft_id: int, body: str, by: str) -> None:
        """New body, kept in the edit history; an approved draft goes back to pending when it needs approval."""
        with self.transaction():
            row = self._open_draft(draft_id, "edited")
            now = to_text(self.now())
            self._insert("draft_edits", {"draft_id": draft_id, "body_before": row["body"], "body_after": body,
                                         "edited_by": by, "edited_at": now})
            status = "pending" if row["needs_approval"] else row["status"]
            self.db.execute("UPDATE drafts SET body = ?, status = ?, updated_at = ? WHERE id = ?",
                            [body, status, now, draft_id])
            self.audit(by, "draft.edit", {"draft": draft_id})

    def _decide(self, draft_id: int, status: str, by: str, action: str) -> None:
        with self.transaction():
            self._open_draft(draft_id, action)
            self.db.execute("UPDATE drafts SET status = ?, decided_by = ?, updated_at = ? WHERE id = ?",
                            [status, by, to_text(self.now()), draft_id])
            self.audit(by, f"draft.{status}", {"draft": draft_id})

    def approve(self, draft_id: int, by: str) -> None:
        self._decide(draft_id, "approved", by, "approved")

    def reject(self, draft_id: int, by: str) -> None:
        self._decide(draft_id, "rejected", by, "rejected")

    def supersede(self, draft_id: int) -> None:
        self.db.execute("UPDATE drafts SET status = 'superseded', updated_at = ? WHERE id = ?",
                        [to_text(self.now()), draft_id])

    def mark_sending(self, draft_id: int, at: datetime, after: str | None = None) -> None:
        """Before the forum request: a crash after this is reconciled, never blindly re-sent.
        `after`: the newest post or sent-PM id the board showed before (None: not known)."""
        with self.transaction():
            row = self.draft(draft_id)
            if row["status"] != "approved":
                raise StoreError(f"draft {draft_id} is {row['status']}, not approved")
            self.db.execute("UPDATE drafts SET status = 'sending', sending_at = ?, sent_after = ?, updated_at = ? "
                            "WHERE id = ?", [to_text(at), after, to_text(at), draft_id])

    def mark_sent(self, draft_id: int, forum_ref: str, at: datetime) -> None:
        with self.transaction():
            self.db.execute("UPDATE drafts SET status = 'sent', forum_ref = ?, sent_at = ?, updated_at = ?, "
                            "send_error = NULL WHERE id = ?", [forum_ref, to_text(at), to_text(at), draft_id])
            self.audit("daemon", "draft.sent", {"draft": draft_id, "forum_ref": forum_ref})

    def mark_refused(self, draft_id: int, error: str, at: datetime) -> None:
        """The forum refused the draft for good (unknown recipient, too long...): back to pending with
        the forum's message, for the host to edit and approve again; it is not retried by itself."""
        with self.transaction():
            self.db.execute("UPDATE drafts SET status = 'pending', send_error = ?, sending_at = NULL, updated_at = ? "
                            "WHERE id = ?", [error, to_text(at), draft_id])
            self.audit("daemon", "draft.refused", {"draft": draft_id, "error": error})

    def mark_waiting(self, draft_id: int, note: str, at: datetime) -> None:
        """The board's flood rule held the draft and took nothing: approved again, to go on a later
        tick, with `note` for the host meanwhile (a pause, not a problem: nothing is audited)."""
        with self.transaction():
            self.db.execute("UPDATE drafts SET status = 'approved', sending_at = NULL, sent_after = NULL, "
                            "send_error = ?, updated_at = ? WHERE id = ? AND status IN ('approved', 'sending')",
                            [note, to_text(at), draft_id])

    def note_send_problem(self, draft_id: int, error: str, at: datetime) -> None:
        """Publishing this draft failed (not a refusal): it keeps its status and is tried again on
        the next tick; the host sees why meanwhile."""
        with self.transaction():
            changed = self.db.execute("UPDATE drafts SET send_error = ?, updated_at = ? WHERE id = ? "
                                      "AND send_error IS NOT ?", [error, to_text(at), draft_id, error]).rowcount
            if changed:    # once per problem, not once per tick
                self.audit("daemon", "draft.send_failed", {"draft": draft_id, "error": error})

    def sent_refs(self) -> set[str]:
        """The forum ids of every sent draft: a text already recorded as one draft's is no other's."""
        rows = self.db.execute("SELECT forum_ref FROM drafts WHERE status = 'sent' AND forum_ref IS NOT NULL "
                               "AND forum_ref <> ''")
        return {row[0] for row in rows}

    def sending_drafts(self) -> list[dict]:
        return self.drafts(status="sending")

    def sent_copies(self, forum_id: str, sent_before: datetime | None, limit: int) -> list[str]:
        """The forum ids of the forum's PM drafts recorded as sent (with an id), and of the host's
        notices by PM, whose copy in the sent folder is not deleted yet, sent before `sent_before`
        (None: any), the oldest first."""
        before = to_text(sent_before)
        rows = self.db.execute(
            "SELECT ref FROM (SELECT d.forum_ref AS ref, d.sent_at AS at FROM drafts d JOIN games g ON g.id = d.game_id "
            "WHERE g.forum_id = ? AND d.target <> 'thread' AND d.status = 'sent' AND d.forum_ref IS NOT NULL "
            "AND d.forum_ref <> '' AND d.copy_removed_at IS NULL AND (? IS NULL OR d.sent_at < ?) "
            "UNION ALL SELECT pm_id, sent_at FROM notice_pms WHERE forum_id = ? AND copy_removed_at IS NULL "
            "AND (? IS NULL OR sent_at < ?)) ORDER BY at, ref LIMIT ?",
            [forum_id, before, before, forum_id, before, before, limit])
        return [row[0] for row in rows]

    def sent_copies_removed(self, forum_id: str, forum_refs: Iterable[str], at: datetime) -> None:
        refs = list(forum_refs)
        marks = ", ".join("?" for _ in refs)
        with self.transaction():
            self.db.execute(
                f"UPDATE drafts SET copy_removed_at = ? WHERE forum_ref IN ({marks}) "
                "AND target <> 'thread' AND game_id IN (SELECT id FROM games WHERE forum_id = ?)",
                [to_text(at), *refs, forum_id])
            self.db.execute(f"UPDATE notice_pms SET copy_removed_at = ? WHERE forum_id = ? AND pm_id IN ({marks})",
                            [to_text(at), forum_id, *refs])

    def record_notice_copies(self, forum_id: str, pm_ids: Iterable[str], at: datetime) -> None:
        """The sent-folder copies of notices just sent to the host by PM."""
        self.db.conn.executemany("INSERT OR IGNORE INTO notice_pms (forum_id, pm_id, sent_at) VALUES (?, ?, ?)",
                                 [(forum_id, pm_id, to_text(at)) for pm_id in pm_ids])

    def set_sent_space(self, forum_id: str, fill: float | None, note: str | None) -> None:
        """How full the board says the account's sent PMs are (a share of its limit), and what the
        host is to know of it (None: nothing)."""
        self.db.execute("UPDATE forums SET sent_fill = ?, sent_note = ? WHERE id = ?", [fill, note, forum_id])

    def sent_space_notes(self) -> dict[str, str]:
        """forum id -> what the host is to know of its sent PMs' space, for the forums that have a note."""
        rows = self.db.execute("SELECT id, sent_note FROM forums WHERE sent_note IS NOT NULL ORDER BY id")
        return {row[0]: row[1] for row in rows}

    def approved_drafts(self) -> list[dict]:
        return self.drafts(status="approved")

    # ------------------------------------------------------------ host actions (forumgm.daemon.host_actions)

    def set_paused(self, game_id: str, by: str | None, at: datetime | None) -> bool:
        """Pause (by, at) or resume (None, None) a game; False when it already was so."""
        condition = "paused_at IS NULL" if at is not None else "paused_at IS NOT NULL"
        cursor = self.db.execute(f"UPDATE games SET paused_at = ?, paused_by = ? WHERE id = ? AND {condition}",
                                 [to_text(at), by, game_id])
        return cursor.rowcount == 1

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

    def set_draft_body(self, draft_id: int, body: str) -> None:
        """The daemon's own rewrite of a draft it just made (not a host edit: no edit history)."""
        self.db.execute("UPDATE drafts SET body = ?, updated_at = ? WHERE id = ?",
                        [body, to_text(self.now()), draft_id])

    def add_replacement(self, game_id: str, old_nick: str, new_nick: str, by: str, at: datetime) -> None:
        self._insert("replacements", {"game_id": game_id, "old_nick": old_nick, "new_nick": new_nick,
                                      "replaced_by": by, "at": to_text(at)})

    def replacements(self, game_id: str | None = None) -> list[dict]:
        if game_id is None:
            return self._rows("SELECT * FROM replacements ORDER BY id")
        return self._rows("SELECT * FROM replacements WHERE game_id = ? ORDER BY id", [game_id])

    # ------------------------------------------------------------ notifications (forumgm.daemon.notify)

    def notified_keys(self) -> set[str]:
        return {row[0] for row in self.db.execute("SELECT key FROM notifications")}

    def last_notification_at(self) -> datetime | None:
        row = self.db.execute("SELECT MAX(sent_at) FROM notifications").fetchone()
        return from_text(row[0]) if row and row[0] else None

    def record_notification(self, keys: Iterable[str], at: datetime) -> None:
        for key in keys:
            self.db.execute("INSERT INTO notifications (key, sent_at) VALUES (?, ?) ON CONFLICT(key) DO NOTHING",
                            [key, to_text(at)])

    # ------------------------------------------------------------ audit

    def audit(self, actor: str, action: str, detail: Any = None) -> None:
        self._insert("audit", {"at": to_text(self.now()), "actor": actor, "action": action,
                               "detail": json.dumps(detail if detail is not None else {}, ensure_ascii=False,
                                                    default=str)})

    def audit_log(self, limit: int | None = None) -> list[dict]:
        sql = "SELECT * FROM audit ORDER BY id DESC"
        return self._rows(sql + (f" LIMIT {int(limit)}" if limit else ""))


def _statements(script: str) -> list[str]:
    """Split a migration script into statements (sqlite3 runs one at a time inside a transaction)."""
    statements, buffer = [], []
    for line in script.splitlines():
        buffer.append(line)
        candidate = "\n".join(buffer)
        if sqlite3.complete_statement(candidate):
            statements.append(candidate.strip())
            buffer = []
    return [s for s in statements if s]
