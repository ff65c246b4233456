"""The «Монетка» game (tests/games/coin_game) registered as a third party registers a game: a
distribution's entry point in the group forumgm.games, here a dist-info folder written for the test
and put on sys.path with the game's package. forumgm's own install never lists it."""
from __future__ import annotations

from pathlib import Path

import pytest

from forumgm.daemon.settings.games import GROUP, forget_games

GAMES_FOLDER = Path(__file__).parent / "games"


@pytest.fixture
def coin_registered(tmp_path_factory, monkeypatch):
    site = tmp_path_factory.mktemp("site")
    info = site / "coin_game-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: coin-game\nVersion: 1.0\n", encoding="utf-8")
    (info / "entry_points.txt").write_text(f"[{GROUP}]\ncoin = coin_game:GAME\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(GAMES_FOLDER))
    monkeypatch.syspath_prepend(str(site))
    forget_games()
    yield
    monkeypatch.undo()
    forget_games()
