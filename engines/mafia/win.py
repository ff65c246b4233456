"""Win conditions, checked after the jailing and after the night."""
from __future__ import annotations

from forumgm.engines.mafia.roles import MAFIA, NEUTRAL, TOWN
from forumgm.engines.mafia.state import MafiaState

TOWN_WINS, MAFIA_WINS, MANIAC_WINS, DRAW = "town", "mafia", "maniac", "draw"
# the winning side as the host's status and page name it (a draw has no winner)
WINNER_NAMES = {TOWN_WINS: "мирные жители", MAFIA_WINS: "мафия", MANIAC_WINS: "маньяк"}
# the team of each role, as the host's roles table names it
SIDE_NAMES = {TOWN: "мирные жители", MAFIA: "мафия", NEUTRAL: "маньяк"}


def winner_of(state: MafiaState) -> str | None:
    living = len(state.living())
    mafia = len(state.living_with(MAFIA))
    maniacs = len(state.living_with(NEUTRAL))
    if living == 0:
        return DRAW
    if mafia == 0 and maniacs == 0:
        return TOWN_WINS
    if maniacs and living - maniacs <= 1:
        return MANIAC_WINS
    if maniacs == 0 and mafia >= living - mafia:
        return MAFIA_WINS
    return None
