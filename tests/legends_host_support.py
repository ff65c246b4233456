"""The host acting on a Legends day of the local forum (tests/conftest.py's `day_two`): his commands,
his page on the daemon's store, and what the store then counts."""
from __future__ import annotations

import contextlib
import io
import sys
import threading

from forumgm.daemon.cli import main
from forumgm.daemon.offline.localforum.server import STOP_POLL
from forumgm.daemon.runtime.loop import game_runs
from forumgm.daemon.store import Store
from forumgm.daemon.web.server import web_server
from legends_forum_support import GAME

PASSWORD = "длинный пароль ведущего"


def cli(config, *args, stdin: str = "", monkeypatch=None) -> int:
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    return main([args[0], "--config", str(config), *args[1:], "--by", "ведущий"])


def counted(store) -> dict[str, tuple[str, str | None, str | None]]:
    return {v["voter"]: (v["target"], v["post_id"], v["entered_by"])
            for v in store.votes(GAME, "day-2") if v["counted"]}


def not_counted(store) -> list[tuple]:
    return [(v["voter"], v["text"], v["reason"], v["post_id"], v["detail"]) for v in store.votes(GAME, "day-2")
            if not v["counted"]]


def draft_body(store, kind: str) -> str:
    [draft] = [d for d in store.drafts(game_id=GAME) if d["kind"] == kind and d["phase_key"] == "day-2"
               and d["status"] != "superseded"]
    return draft["body"]


@contextlib.contextmanager
def hosts_page(daemon):
    """The host's page on the daemon's installation, on its own connection to the store: (store, base URL)."""
    installation = daemon.installation
    store = Store(installation.storage, now=daemon.clock.now)
    web = web_server(store, PASSWORD, "127.0.0.1", 0,
                     games=lambda: {game.id: game for game in game_runs(installation)})
    thread = threading.Thread(target=web.serve_forever, kwargs={"poll_interval": STOP_POLL}, daemon=True)
    thread.start()
    try:
        yield store, f"http://127.0.0.1:{web.server_port}"
    finally:
        web.shutdown()
        thread.join()
        web.server_close()
        store.close()
