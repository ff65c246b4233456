"""Shared by the mafia daemon tests: the example mafia game as an installation on a fixed clock."""
from __future__ import annotations

from forumgm.config import data_path
from forumgm.daemon.settings.installation import load_installation
from forumgm.daemon.runtime.loop import Daemon
from forumgm.daemon.store import Store
from forumgm.daemon.tick.flow import Edges
from localforum_support import msk  # noqa: F401  (for its users)

GAME = "mafia-example"


def example_installation(tmp_path, monkeypatch, game_text=lambda text: text, public_url: str | None = None):
    """The shipped example installation with the mafia game only; `game_text` edits the game file."""
    monkeypatch.setenv("FORUMGM_PASSWORD", "secret")
    games = tmp_path / "games"
    games.mkdir(exist_ok=True)
    text = data_path("games", "mafia.example.toml").read_text(encoding="utf-8")
    (games / "mafia.example.toml").write_text(game_text(text), encoding="utf-8")
    text = data_path("forumgm.example.toml").read_text(encoding="utf-8")
    text = text.replace('"games/mafia.example.toml", "games/legends.example.toml"', '"games/mafia.example.toml"')
    if public_url:
        text = text.replace("[web]\n", f'[web]\npublic_url = "{public_url}"\n')
    (tmp_path / "forumgm.toml").write_text(text, encoding="utf-8")
    return load_installation(tmp_path / "forumgm.toml")


def daemon(installation, clock, forum) -> Daemon:
    from forumgm.daemon.tick.sync import sync_game, sync_inbox

    return Daemon(installation, Store(installation.storage, now=clock.now), forum, clock,
                  Edges(sync_game=sync_game, sync_inbox=sync_inbox))


def drafts_of(store: Store, kind: str) -> list[dict]:
    return [d for d in store.drafts(game_id=GAME) if d["kind"] == kind]


def top_level(*lines: str):
    """A game_text editor adding top-level keys (before the first table) to the example game."""
    def edit(text: str) -> str:
        anchor = text.index("\nstart = ")
        end = text.index("\n", anchor + 1)
        return text[:end + 1] + "".join(line + "\n" for line in lines) + text[end + 1:]
    return edit
