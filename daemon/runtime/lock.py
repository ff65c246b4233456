"""One daemon per store: `forumgm run` holds an exclusive flock on the store's database file itself.

Two daemons on one store would each publish the same approved drafts. The lock is on the file,
not on a name: a second daemon reaching the same store through a symlink or a hard link (another
name, another folder) meets the same lock. It is the operating system's (flock), so it ends with
its process however that ends (SIGKILL included) and never needs cleaning up. Only `run` takes it:
the host's CLI commands write beside the daemon through SQLite's own locking, which is of
another kind (fcntl record locks; flock does not meet them on a local disk).

The descriptor that holds the lock is never closed while the process lives: closing any
descriptor of the database file drops every fcntl lock the process holds on it, SQLite's own
included (its connections would take each other's WAL for unused). Ending the lock unlocks it,
and taking it again in the same process locks the same descriptor.
"""
from __future__ import annotations

import fcntl
import os
from pathlib import Path


class AlreadyRunning(Exception):
    """Another daemon holds the store, or its file cannot be opened; the message says which."""


# (device, inode) -> the descriptor locking that file, for as long as this process lives
_HELD: dict[tuple[int, int], int] = {}


class DaemonLock:
    def __init__(self, descriptor: int) -> None:
        self._descriptor = descriptor

    def close(self) -> None:
        fcntl.flock(self._descriptor, fcntl.LOCK_UN)


def take_daemon_lock(store: Path) -> DaemonLock:
    """The lock on the store's file; close it (or end the process) to let another daemon run."""
    try:
        found = os.stat(store)
        key = (found.st_dev, found.st_ino)
        descriptor = _HELD.get(key)
        if descriptor is None:
            descriptor = _HELD[key] = os.open(store, os.O_RDONLY | os.O_CLOEXEC)
    except OSError as error:
        raise AlreadyRunning(f"cannot lock the store {store}: {error.strerror}") from None
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        raise AlreadyRunning(f"another forumgm run already uses the store {store} (process "
                             f"{_holder(found.st_ino) or 'unknown'}); one daemon per store, whatever name it "
                             "is opened by (a symlink, a hard link) — stop the other one first") from None
    return DaemonLock(descriptor)


def _holder(inode: int) -> str | None:
    """The process holding a flock on the file with this inode (Linux's /proc/locks), if shown."""
    try:
        lines = Path("/proc/locks").read_text(encoding="ascii").splitlines()
    except OSError:
        return None
    for line in lines:
        fields = line.split()
        # "3: FLOCK  ADVISORY  WRITE 4242 fe:00:2148706 0 EOF"
        if len(fields) >= 6 and fields[1] == "FLOCK" and fields[3] == "WRITE" \
                and fields[5].rsplit(":", 1)[-1] == str(inode):
            return fields[4]
    return None
