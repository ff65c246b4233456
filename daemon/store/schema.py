"""The store's schema: ordered migrations, each bringing the file one version up."""
from __future__ import annotations

import functools
import sqlite3
from typing import Any, Callable

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
    # a replacement gives a seat to another account and renames nothing (daemon/store/seats.py): each
    # row names its seat, and when the daemon asked the board whether the account exists. The
    # version before renamed the player in every snapshot, order and vote, so a seat it replaced is
    # known in the store by its last account's nick: each older row's seat is where its chain of
    # replacements ends (and its account, played since, is not asked about)
    """
    ALTER TABLE replacements ADD COLUMN seat TEXT;
    ALTER TABLE replacements ADD COLUMN account_checked_at TEXT;
    WITH RECURSIVE walk(row_id, game_id, nick, last_id) AS (
        SELECT id, game_id, new_nick, id FROM replacements
        UNION ALL
        SELECT walk.row_id, walk.game_id, r.new_nick, r.id FROM walk JOIN replacements r
            ON r.game_id = walk.game_id AND r.old_nick = walk.nick AND r.id > walk.last_id
    )
    UPDATE replacements SET seat = (SELECT nick FROM walk WHERE walk.row_id = replacements.id
                                    ORDER BY last_id DESC LIMIT 1);
    UPDATE replacements SET account_checked_at = at;
    """,
    # what a page shows is known from its arrival (daemon/tick/thread_pages.py): whether a version
    # was shown hidden (soft-deleted, unapproved) is that version's, so a moderator's soft delete
    # after a deadline changes no vote (the posts' old flag stood for every version); when a page
    # first showed a post missing, in a sync that stopped on it, for a deletion the host accepts
    # later; and the thread's last re-read of its recent pages after a deadline
    """
    ALTER TABLE post_versions ADD COLUMN hidden INTEGER NOT NULL DEFAULT 0;
    UPDATE post_versions SET hidden = 1 WHERE EXISTS (SELECT 1 FROM posts p WHERE p.game_id = post_versions.game_id
        AND p.post_id = post_versions.post_id AND p.hidden = 1);
    ALTER TABLE posts ADD COLUMN missing_at TEXT;
    ALTER TABLE thread_cursors ADD COLUMN reread_at TEXT;
    """,
    # the rules freeze (daemon/tick/rules_freeze.py): the merged rule table a game was dealt under (or
    # the one the host accepted since) and its hash, which every tick compares with the game file's
    """
    ALTER TABLE games ADD COLUMN rules TEXT;
    ALTER TABLE games ADD COLUMN rules_hash TEXT;
    """,
    # the grammatical gender ("m", "f") the host gave the account taking a seat over (forumgm replace
    # --gender): the texts about the seat agree with whoever holds it (NULL: guessed from the nick)
    """
    ALTER TABLE replacements ADD COLUMN gender TEXT;
    """,
    # the game's record (daemon/record): the secret salt drawn at the deal, the public commitments to
    # (seed, salt, rule table), one at the deal and one per accepted rule change, and the rolls of the
    # deal and of each resolution (every draw its streams made)
    """
    ALTER TABLE games ADD COLUMN salt TEXT;
    CREATE TABLE commitments (
        id INTEGER PRIMARY KEY,
        game_id TEXT NOT NULL REFERENCES games(id),
        digest TEXT NOT NULL,
        rules TEXT NOT NULL,
        after_phase TEXT NOT NULL,          -- 'setup' at the deal, else the last phase resolved under the old rules
        made_at TEXT NOT NULL
    );
    CREATE TABLE rolls (
        game_id TEXT NOT NULL REFERENCES games(id),
        phase_key TEXT NOT NULL,
        resolution_id INTEGER REFERENCES resolutions(id),   -- NULL for the deal's
        draws TEXT NOT NULL
    );
    CREATE INDEX rolls_phase ON rolls(game_id, phase_key);
    """,
    # the account first seen under a name, looked up by the name (daemon/store/accounts.py)
    """
    CREATE INDEX IF NOT EXISTS posts_author ON posts(author, first_seen_at);
    CREATE INDEX IF NOT EXISTS pms_sender ON pms(sender, seen_at);
    """,
    # a draft's pictures are kept relative to the store's folder (daemon/store/base.py kept_path): they
    # were kept as the daemon named them, relative to the folder it was started in (or absolute).
    # Every picture file is saved under <store folder>/pictures/<game>/ (daemon/drafts/pictures.py):
    # what follows that in a kept name is its place
    """
    UPDATE drafts SET pictures = (
        SELECT json_group_array(CASE WHEN instr(value, 'pictures/' || drafts.game_id || '/') > 0
                                     THEN substr(value, instr(value, 'pictures/' || drafts.game_id || '/'))
                                     ELSE value END)
        FROM json_each(drafts.pictures))
    WHERE pictures IS NOT NULL;
    """,
    # a re-run's draft whose new text differs from the one the host had edited: his edit of the draft
    # it replaces, shown beside the new text (host_actions/rerun.py)
    """
    ALTER TABLE drafts ADD COLUMN earlier_edit TEXT;
    """,
)


def statements(script: str) -> list[str]:
    """Split a migration script into statements (sqlite3 runs one at a time inside a transaction)."""
    statements, buffer = [], []
    for line in script.splitlines():
        buffer.append(line)
        candidate = "\n".join(buffer)
        if sqlite3.complete_statement(candidate):
            statements.append(candidate.strip())
            buffer = []
    return [s for s in statements if s]


VERSION_TABLE = "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)"


def step_up(execute: Callable[..., Any], current: int, migrations: tuple[str, ...] = MIGRATIONS) -> None:
    """Run each migration after version `current`, statement by statement, noting each version reached."""
    for version, script in enumerate(migrations[current:], start=current + 1):
        for statement in statements(script):
            execute(statement)
        execute("DELETE FROM schema_version")
        execute("INSERT INTO schema_version (version) VALUES (?)", [version])


@functools.lru_cache(maxsize=2)
def newest_schema(migrations: tuple[str, ...] = MIGRATIONS) -> tuple[str, ...]:
    """The statements that make a new file's tables and indexes as the migrations leave them, in the
    order they were made: SQLite's own text of each, read from a file in memory that took every step.

    Replaying the ~80 statements of the steps themselves (ALTERs among them, each re-reading the
    schema) cost every new store ~13 ms of CPU, this ~4; old files still take the steps.
    """
    memory = sqlite3.connect(":memory:", isolation_level=None)
    try:
        memory.execute(VERSION_TABLE)
        step_up(memory.execute, 0, migrations)
        return tuple(sql for (sql,) in memory.execute(
            "SELECT sql FROM sqlite_master WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite_%' "
            "AND name != 'schema_version' ORDER BY rowid"))
    finally:
        memory.close()
