"""Role PMs at the start: each player's role; mafia members learn each other."""
from __future__ import annotations

from forumgm.engines.base import OutgoingPm
from forumgm.engines.mafia.roles import ACTIONS, is_mafia, status
from forumgm.engines.mafia.state import MafiaState
from forumgm.engines.texts import Texts

ROLE = "mafia/role.j2"


def role_pms(state: MafiaState, texts: Texts) -> list[OutgoingPm]:
    pms = []
    for player in state.living():
        team = [{"nick": p.nick, "role": p.role} for p in state.mafia()
                if is_mafia(player.role) and p.nick != player.nick]
        text = texts.render(ROLE, nick=player.nick, role=player.role, status=status(player.role),
                            actions=list(ACTIONS[player.role]), mafia=is_mafia(player.role), team=team,
                            armour=state.rules.first_night_armour, no_trials=state.rules.no_trial_per_game)
        pms.append(OutgoingPm(player.nick, "role", text, subject="Ваша роль"))
    return pms
