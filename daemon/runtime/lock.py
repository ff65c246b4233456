"""One daemon per store: `forumgm run` holds an exclusive lock on `<store>.daemon.lock`.

Two daemons on one store would each publish the same approved drafts. The lock is the
operating system's (flock), so it ends with its process however that ends (SIGKILL included)
and never needs cleaning up. Only `run` takes it: the host's CLI commands write beside the
daemon through SQLite's own locking.
"""
from __future__ import annotations

import fcntl
import os
from pathlib import Path
from typing import IO


class AlreadyRunning(Exception):
    """Another daemon holds the store, or the lock file cannot be made; the message says which."""


def lock_path(store: Path) -> Path:
    return store.with_name(store.name + ".daemon.lock")


def take_daemon_lock(store: Path) -> IO[str]:
    """The open, locked file; keep it open as long as the daemon runs."""
    path = lock_path(store)
    try:
        handle = open(path, "a+", encoding="utf-8")
    except OSError as error:
        raise AlreadyRunning(f"cannot make the daemon's lock file {path}: {error.strerror}") from None
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        handle.seek(0)
        holder = handle.read().strip() or "unknown"
        handle.close()
        raise AlreadyRunning(f"another forumgm run already uses the store {store} (process {holder}); "
                             "one daemon per store — stop the other one first") from None
    handle.seek(0)
    handle.truncate()
    handle.write(f"{os.getpid()}\n")
    handle.flush()
    return handle
