"""The starting state from a setup table: players with roles (or dealt by the seed), the dead."""
from __future__ import annotations

from typing import Any, Mapping

from forumgm.engines.base import SetupError, SetupProblems, player_tables, reject_unknown_keys
from forumgm.engines.mafia.freeze import rules_hash
from forumgm.engines.mafia.roles import MIN_PLAYERS, canonical_role, check_counts, deal, role_counts
from forumgm.engines.mafia.state import MafiaState, Player, RuleConfig
from forumgm.engines.mafia.win import WINNER_NAMES, winner_of

SETUP_KEYS = ("players", "dead")
PLAYER_KEYS = ("nick", "role", "aliases", "gender")


def _roles(tables: list[Mapping[str, Any]], rules: RuleConfig, seed: int) -> dict[str, str]:
    """The roles as written, or all of them dealt when none is written."""
    nicks = [t["nick"] for t in tables]
    if len(set(nicks)) != len(nicks):
        raise SetupError("setup.players", "a nick appears twice")
    if len(nicks) < MIN_PLAYERS:
        raise SetupError("setup.players", f"at least {MIN_PLAYERS} players are needed, got {len(nicks)}")
    given = [t for t in tables if "role" in t]
    if not given:
        return deal(nicks, seed, role_counts(len(nicks), dict(rules.roles), "rules.roles"))
    if len(given) != len(tables):
        missing = next(i for i, t in enumerate(tables) if "role" not in t)
        raise SetupError(f"setup.players[{missing}].role", "give every player a role, or none (dealt by the seed)")
    problems = SetupProblems()
    roles = {t["nick"]: problems.attempt(canonical_role, str(t["role"]), f"setup.players[{i}].role")
             for i, t in enumerate(tables)}
    problems.done()
    holders: dict[str, list[str]] = {}
    for nick, role in roles.items():
        holders.setdefault(role, []).append(nick)
    check_counts({role: len(nicks) for role, nicks in holders.items()}, "setup.players", holders)
    return roles


def _dead(dead: Any, tables: list[Mapping[str, Any]]) -> list[str]:
    if not isinstance(dead, list):
        raise SetupError("setup.dead", "expected a list of the dead players' nicks")
    unknown = [nick for nick in dead if nick not in {t["nick"] for t in tables}]
    if unknown:
        raise SetupError("setup.dead", f"not players: {', '.join(map(str, unknown))}")
    return dead


def start_state(setup: Mapping[str, Any], seed: int, rules: RuleConfig) -> MafiaState:
    """The game's start; the setup's problems that do not hide one another are named together."""
    problems = SetupProblems()
    problems.attempt(reject_unknown_keys, setup, SETUP_KEYS, "setup")
    tables = problems.attempt(player_tables, setup.get("players"), PLAYER_KEYS)
    roles = problems.attempt(_roles, tables, rules, seed) if tables else None
    dead = problems.attempt(_dead, setup.get("dead", []), tables) if tables else None
    problems.done()
    players = tuple(Player(t["nick"], roles[t["nick"]], alive=t["nick"] not in dead,
                           aliases=tuple(t.get("aliases", ())), gender=t.get("gender")) for t in tables)
    state = MafiaState(players=players, rules=rules, rules_hash=rules_hash(rules))
    over = winner_of(state)
    if over is not None:
        won = f"{WINNER_NAMES[over]} would win" if over in WINNER_NAMES else "it would be a draw"
        raise SetupError("setup.players", f"the game would be over before it starts: {won} by the win conditions "
                                          "(town: no mafia and no maniac alive; mafia: no maniac and at least as "
                                          "many mafia as others; maniac: at most one other player alive)")
    return state
