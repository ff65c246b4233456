"""Seats in the store: who held a seat when, read from the replacements rows, and the rows a store
made before seats existed had (its replaced players renamed) given the seat they were renamed into."""
from __future__ import annotations

import sqlite3
from datetime import datetime, timedelta, timezone

from forumgm.daemon.store import MIGRATIONS, Store, to_text
from forumgm.daemon.store.schema import statements
from forumgm.daemon.store.seats import seats_of
from forumgm.parsers.names import account_player

T0 = datetime(2026, 3, 2, 20, tzinfo=timezone.utc)
DEALT = (("Аскон", ("аскоша",)), ("Кума", ()), ("Хан", ()))


def old_store(path) -> None:
    """The schema before seats, with the rows `forumgm replace` left: Аскон → Новичок → Другой in one
    game, Кума → Zed in it, and Аскон → Иной in another game."""
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)")
    seats_step = next(n for n, script in enumerate(MIGRATIONS) if "ADD COLUMN seat " in script)
    for script in MIGRATIONS[:seats_step]:
        for statement in statements(script):
            db.execute(statement)
    db.execute("INSERT INTO schema_version (version) VALUES (?)", [seats_step])
    for game in ("g1", "g2"):
        db.execute("INSERT INTO games (id, type, thread_url, time_zone, seed, registered_at) VALUES (?, ?, ?, ?, ?, ?)",
                   [game, "mafia", "http://forum/viewtopic.php?t=1", "UTC", "1", to_text(T0)])
    for game, old, new, hours in (("g1", "Аскон", "Новичок", 1), ("g2", "Аскон", "Иной", 2), ("g1", "Кума", "Zed", 3),
                                  ("g1", "Новичок", "Другой", 4)):
        db.execute("INSERT INTO replacements (game_id, old_nick, new_nick, replaced_by, at) VALUES (?, ?, ?, ?, ?)",
                   [game, old, new, "host", to_text(T0 + timedelta(hours=hours))])
    db.commit()
    db.close()


def test_each_old_replacement_names_the_seat_its_chain_of_renames_ended_at(tmp_path):
    old_store(tmp_path / "old.sqlite")
    store = Store(tmp_path / "old.sqlite")
    assert [(r["game_id"], r["seat"], r["old_nick"], r["new_nick"]) for r in store.replacements()] == [
        ("g1", "Другой", "Аскон", "Новичок"), ("g2", "Иной", "Аскон", "Иной"), ("g1", "Zed", "Кума", "Zed"),
        ("g1", "Другой", "Новичок", "Другой")]
    seats = seats_of(DEALT, store.replacements("g1"))
    assert seats.ids == ("Другой", "Zed", "Хан")
    assert seats.get("Другой").holders == (("Аскон", None), ("Новичок", T0 + timedelta(hours=1)),
                                           ("Другой", T0 + timedelta(hours=4)))
    assert seats.get("Другой").aliases == ("аскоша",)
    store.close()
    assert Store(tmp_path / "old.sqlite").schema_version == len(MIGRATIONS)      # migrated once


def test_an_account_is_the_seat_it_held_at_the_moment_of_its_post():
    rows = [{"seat": "Аскон", "old_nick": "Аскон", "new_nick": "Новичок", "at": T0 + timedelta(hours=1)},
            {"seat": "Аскон", "old_nick": "Новичок", "new_nick": "Аскон", "at": T0 + timedelta(hours=2)}]
    seats = seats_of(DEALT, rows)
    roster = seats.roster()
    at = [T0, T0 + timedelta(minutes=90), T0 + timedelta(hours=3)]
    assert [account_player("Аскон", roster, moment) for moment in at] == ["Аскон", None, "Аскон"]
    assert [account_player("Новичок", roster, moment) for moment in at] == [None, "Аскон", None]
    assert account_player("Кума", roster, T0) == "Кума" and account_player("кума", roster, T0) is None
    assert [seats.holder("Аскон", moment) for moment in at] == ["Аскон", "Новичок", "Аскон"]
    # the seat is named by every account that held it by then, and by its aliases
    assert seats.roster(T0).aliases == {"аскоша": "Аскон"}
    assert seats.roster(at[1]).aliases == {"аскоша": "Аскон", "Новичок": "Аскон"}
    assert seats.named("Новичок") is None and seats.named("Аскон") == "Аскон"
