"""Spells of the fallen pass on (rules §6): to the killer, or to the first voter of a lynch."""
from __future__ import annotations

from typing import Mapping

from forumgm.engines.base import Event
from forumgm.engines.legends.state import LegendsState


def inherit_spells(game: LegendsState, heirs: Mapping[str, str]) -> tuple[LegendsState, list[Event]]:
    """Each fallen holder's spells go to his heir; an heir who fell in the same phase passes
    them on to his own heir. A chain that ends with nobody alive loses the spell."""
    events = []
    for victim in heirs:
        for spell in game.spells_of(victim):
            heir = _living_heir(game, heirs, victim)
            game = game.with_holder(spell, heir)
            events.append(Event("spell_inherited" if heir else "spell_lost",
                                {"spell": spell, "from": victim, "to": heir}))
    return game, events


def _living_heir(game: LegendsState, heirs: Mapping[str, str], victim: str) -> str | None:
    seen = {victim}
    heir = heirs[victim]
    while not game.is_alive(heir):
        if heir not in heirs or heir in seen:
            return None
        seen.add(heir)
        heir = heirs[heir]
    return heir
