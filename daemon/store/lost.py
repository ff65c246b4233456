"""A store that vanished where games were played is refused, never made anew.

SQLite makes a new, empty file wherever it is asked to open a missing one: a store deleted (or
emptied, or replaced by another file) under the daemon was silently made again by the next host
command («the game has not started»), and a restarted daemon dealt the game again, ignored every
earlier order and posted its reports a second time. So the store keeps, beside itself, the ids of
the games it dealt (`<store>.games`); while that file names a game the store lacks, the store is
not opened: one line says what happened and what to do. The running daemon also looks at its file
before every tick: deleted, replaced or emptied, it stops (it would go on writing a file nobody
can open again).
"""
from __future__ import annotations

import logging
import os
from pathlib import Path
from typing import Iterable

log = logging.getLogger(__name__)
HEADER = ("# forumgm: the games dealt on the store beside this file. While it names a game the store lacks,\n"
          "# forumgm refuses the store instead of starting the game over; delete this file to really start afresh.\n")


class StoreGone(Exception):
    """The store's file is missing, empty or another store than the one its games were played on."""


def marker_path(store: Path) -> Path:
    return store.with_name(store.name + ".games")


def played_games(store: Path) -> list[str]:
    """The games the marker beside `store` names (none without one)."""
    try:
        text = marker_path(store).read_text(encoding="utf-8")
    except FileNotFoundError:
        return []
    return [line.strip() for line in text.splitlines() if line.strip() and not line.startswith("#")]


def note_played(store: Path, games: Iterable[str]) -> None:
    """The marker names `games` (and those it named): written whole, then moved into place."""
    named = sorted(set(played_games(store)) | set(games))
    marker = marker_path(store)
    draft = marker.with_name(marker.name + ".new")
    draft.write_text(HEADER + "".join(f"{game}\n" for game in named), encoding="utf-8")
    os.replace(draft, marker)


def refused(store: Path, played: list[str], what: str) -> StoreGone:
    return StoreGone(f"the store {store} {what}, but the games {', '.join(played)} were played on it (named in "
                     f"{marker_path(store)}): forumgm does not start them over on a new store. Put the store back "
                     f"(from a backup), or, to really start afresh, delete {marker_path(store)} too")


def file_identity(path: Path) -> tuple[int, int]:
    found = os.stat(path)
    return found.st_dev, found.st_ino


def vanished(path: Path, identity: tuple[int, int]) -> str | None:
    """What became of the store's file since it was opened, if anything did."""
    try:
        found = os.stat(path)
    except FileNotFoundError:
        return "was deleted"
    if (found.st_dev, found.st_ino) != identity:
        return "was replaced by another file"
    if found.st_size == 0:
        return "was emptied"
    return None
