"""Store: migrations, versions of edited posts, PMs read once, drafts, resolution exactly once."""
import dataclasses
import sqlite3
from datetime import datetime, timedelta, timezone

import pytest

from forumgm.daemon.store import MIGRATIONS, Store, StoreError
from forumgm.daemon.store.schema import VERSION_TABLE, step_up
from forumgm.parsers.forums.base import ColoredFragment, PmHeader, PmMessage, Post

T0 = datetime(2025, 3, 1, 9, 0, tzinfo=timezone.utc)


@pytest.fixture
def store(tmp_path):
    store = Store(tmp_path / "forumgm.sqlite", now=lambda: T0)
    store.register_forum("f", "phpbb", "https://forum.example", "host")
    store.register_game("g", "mafia", "f", "https://forum.example/t/1", "Europe/Moscow", 7,
                        {"Аскон": ["Аск"], "Хан": []})
    return store


def test_migrates_an_empty_file_and_reopens_without_change(tmp_path):
    path = tmp_path / "new.sqlite"
    first = Store(path)
    assert first.schema_version == len(MIGRATIONS)
    tables = set(first.db.table_names())
    assert {"forums", "games", "players", "raw_pages", "posts", "post_versions", "pms", "votes", "orders",
            "phases", "snapshots", "events", "drafts", "draft_edits", "audit"} <= tables
    first.audit("host", "test", {"n": 1})
    first.close()
    again = Store(path)
    assert again.schema_version == len(MIGRATIONS)
    assert [row["action"] for row in again.audit_log()] == ["test"]
    assert again.db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert again.db.execute("PRAGMA foreign_keys").fetchone()[0] == 1


def schema_and_rows(store: Store) -> tuple[list, dict]:
    """Every table, index and column as SQLite keeps them, and every row of every table."""
    schema = store.db.execute("SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name").fetchall()
    tables = sorted(store.db.table_names())
    return schema, {table: store.db.execute(f"SELECT * FROM {table}").fetchall() for table in tables}


@pytest.mark.parametrize("version", range(1, len(MIGRATIONS) + 1))
def test_a_file_of_any_version_migrates_to_the_schema_a_new_file_is_made_with(tmp_path, version):
    """A new file is made with the newest schema at once; an old one takes the migrations after its
    version. Both end the same, to the text SQLite keeps of each table and the rows of schema_version
    (at the last version: a file that took every step by hand is what a new one is)."""
    old = sqlite3.connect(tmp_path / "old.sqlite", isolation_level=None)
    old.execute(VERSION_TABLE)
    step_up(old.execute, 0, MIGRATIONS[:version])
    old.close()
    migrated, new = Store(tmp_path / "old.sqlite"), Store(tmp_path / "new.sqlite")
    assert migrated.schema_version == new.schema_version == len(MIGRATIONS)
    assert schema_and_rows(migrated) == schema_and_rows(new)
    assert [row[0] for row in new.db.execute("SELECT version FROM schema_version")] == [len(MIGRATIONS)]


def test_foreign_keys_are_enforced(store):
    with pytest.raises(sqlite3.IntegrityError):
        store.record_page("no-such-game", "u", 1, "<html>", T0)


def test_every_distinct_version_of_a_post_is_kept(store):
    post = Post("17", "Хан", "5", T0, html="<b>Аскон</b>", text="Аскон",
                colored=(ColoredFragment("#0000ff", "Аскон"),))
    assert store.record_post("g", post, 1, T0) == "new"
    assert store.record_post("g", post, 1, T0 + timedelta(minutes=1)) == "same"
    edited = dataclasses.replace(post, text="Хан", colored=(ColoredFragment("#0000ff", "Хан"),),
                                 edited_at=T0 + timedelta(minutes=5))
    assert store.record_post("g", edited, 1, T0 + timedelta(minutes=6)) == "edited"
    versions = store.post_versions("g", "17")
    assert [v["colored"][0]["text"] for v in versions] == ["Аскон", "Хан"]
    assert versions[1]["edited_at"] == T0 + timedelta(minutes=5)
    assert store.posts("g")[0]["last_seen_at"] == T0 + timedelta(minutes=6)


def test_deleted_posts_are_marked_not_erased(store):
    store.record_post("g", Post("1", "Хан", None, T0, text="x"), 1, T0)
    store.mark_deleted("g", ["1"], T0 + timedelta(hours=1))
    (row,) = store.posts("g")
    assert row["deleted_at"] == T0 + timedelta(hours=1)
    assert len(store.post_versions("g", "1")) == 1


def test_a_pm_is_stored_once(store):
    header = PmHeader("9", "Хан", None, "ход", T0, True)
    message = PmMessage("9", "Хан", None, "ход", T0, "<p>лечить Аскона</p>", "лечить Аскона")
    assert store.record_pm("f", header, message, T0) is True
    assert store.record_pm("f", header, message, T0 + timedelta(minutes=1)) is False
    assert store.known_pm_ids("f") == {"9"}
    assert store.pms("f")[0]["text"] == "лечить Аскона"


def test_thread_cursor_defaults_and_updates(store):
    assert store.thread_cursor("g") == {"last_page": 1, "pages": 1, "last_post_id": None}
    store.set_thread_cursor("g", pages=3, last_page=3)
    store.set_thread_cursor("g", last_post_id="40")
    assert store.thread_cursor("g") == {"last_page": 3, "pages": 3, "last_post_id": "40"}


def test_draft_lifecycle_with_history_and_audit(store):
    draft = store.insert_draft("g", "receipt", "Хан", "Принято", "round-1", needs_approval=True, ref="receipt:9")
    assert store.insert_draft("g", "receipt", "Хан", "Принято", "round-1", True, ref="receipt:9") == draft
    store.edit_draft(draft, "Принято: лечить Аскона", by="host")
    store.approve(draft, by="host")
    assert store.draft(draft)["status"] == "approved"
    assert [e["body_after"] for e in store.draft_edits(draft)] == ["Принято: лечить Аскона"]
    store.mark_sending(draft, T0)
    assert [d["id"] for d in store.sending_drafts()] == [draft]
    store.mark_sent(draft, "pm-77", T0)
    with pytest.raises(StoreError):
        store.reject(draft, by="host")
    assert [a["action"] for a in reversed(store.audit_log())] == ["draft.edit", "draft.approved", "draft.sent"]


def test_drafts_without_approval_start_approved(store):
    draft = store.insert_draft("g", "vote_count", "thread", "Голоса", "round-1", needs_approval=False)
    assert [d["id"] for d in store.approved_drafts()] == [draft]


def test_a_phase_is_resolved_once_and_a_rerun_supersedes(store):
    store.ensure_phase("g", "round-1", "round", 1, None, T0)
    with store.transaction():
        first = store.begin_resolution("g", "round-1", T0)
        store.add_snapshot("g", "round-1", {"v": 1}, first)
        old_draft = store.insert_draft("g", "report", "thread", "v1", "round-1", True, resolution_id=first)
    with pytest.raises(StoreError):
        with store.transaction():
            store.begin_resolution("g", "round-1", T0)
    with store.transaction():
        second = store.begin_resolution("g", "round-1", T0, rerun=True)
        store.add_snapshot("g", "round-1", {"v": 2}, second)
    assert [r["current"] for r in store.resolutions("g", "round-1")] == [0, 1]
    assert store.latest_snapshot("g")["state"] == {"v": 2}
    assert store.draft(old_draft)["status"] == "superseded"


def test_a_failed_transaction_writes_nothing(store):
    store.ensure_phase("g", "round-1", "round", 1, None, T0)
    with pytest.raises(RuntimeError):
        with store.transaction():
            store.begin_resolution("g", "round-1", T0)
            raise RuntimeError("crash between steps")
    assert store.phase("g", "round-1")["status"] == "pending"
    assert store.resolutions("g") == []


def test_unclaimed_pms_leave_out_old_mail_orders_and_answered_ones(store):
    def pm(pm_id: str, sent_at: datetime | None, seen_at: datetime) -> None:
        header = PmHeader(pm_id, "Хан", None, "ход", sent_at, True)
        store.record_pm("f", header, PmMessage(pm_id, "Хан", None, "ход", sent_at, "<p>ход</p>", "ход"), seen_at)

    pm("1", T0 - timedelta(minutes=5), T0 + timedelta(minutes=5))    # sent before `since`: old mail
    pm("2", T0, T0)                                                  # the game read it
    pm("3", T0 + timedelta(minutes=1), T0 + timedelta(minutes=1))     # a live notice answers it
    pm("4", T0 + timedelta(minutes=2), T0 + timedelta(minutes=2))     # its notice was superseded
    pm("5", None, T0 + timedelta(minutes=3))                          # undated: when it was seen
    pm("6", None, T0 - timedelta(minutes=1))
    store.record_order("g", "round-1", "2", "Хан", T0, "ход", [])
    store.insert_draft("g", "host_notice", "host", "ЛС", None, True, ref="stray_pm:f:3")
    store.supersede(store.insert_draft("g", "host_notice", "host", "ЛС", None, True, ref="stray_pm:f:4"))
    assert [p["pm_id"] for p in store.unclaimed_pms("f", ["g"], T0, "stray_pm:f:")] == ["5", "4"]
    assert [p["pm_id"] for p in store.unclaimed_pms("f", [], T0, "stray_pm:f:")] == ["5", "2", "4"]
    assert [p["pm_id"] for p in store.unclaimed_pms("f", ["g"], T0, "receipt:")] == ["5", "3", "4"]


def test_sending_and_sent_are_committed_with_full_sync(store):
    """synchronous=NORMAL in WAL mode may lose the last commits to a power cut: a lost `sending`
    re-sends the draft blind, a lost `sent` leaves its id free for another draft to claim."""
    draft = store.insert_draft("g", "receipt", "Хан", "Принято", "round-1", needs_approval=False)
    statements: list[str] = []
    store.db.conn.set_trace_callback(statements.append)
    store.mark_sending(draft, T0)
    store.mark_sent(draft, "pm-77", T0)
    store.db.conn.set_trace_callback(None)
    commits = [i for i, sql in enumerate(statements) if sql == "COMMIT"]
    assert len(commits) == 2
    for commit in commits:
        pragma = [sql for sql in statements[:commit] if sql.startswith("PRAGMA synchronous")][-1]
        assert pragma == "PRAGMA synchronous=FULL"
    assert store.db.execute("PRAGMA synchronous").fetchone()[0] == 1       # NORMAL again after
