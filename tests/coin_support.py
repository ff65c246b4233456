"""Where the «Монетка» game (tests/games/coin_game) lives: tests/conftest.py's `coin_registered`
registers it as a third party registers a game, forumgm's own install never lists it."""
from __future__ import annotations

from pathlib import Path

GAMES_FOLDER = Path(__file__).parent / "games"
