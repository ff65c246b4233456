"""The frozen game state of classic Mafia and its JSON form."""
from __future__ import annotations

from dataclasses import asdict, dataclass, replace
from typing import Any, Mapping

from forumgm.engines.base import SetupProblems, typed_table
from forumgm.engines.mafia.roles import TEAM, is_mafia


@dataclass(frozen=True)
class Player:
    nick: str
    role: str
    alive: bool = True
    missed_votes: int = 0
    no_trials_used: int = 0          # «не судить» votes counted so far (once per game by default)
    aliases: tuple[str, ...] = ()
    gender: str | None = None        # "m" or "f" as the host gave it; texts guess when None


@dataclass(frozen=True)
class LastTarget:
    """A limited action's target and the round it took effect (not twice in a row)."""

    round: int
    target: str


@dataclass(frozen=True)
class RuleConfig:
    """The rule switches the host may set before the start; frozen by hash afterwards."""

    roles: tuple[tuple[str, int], ...] = ()      # exact role counts for dealing; () = defaults
    first_night_armour: bool = True
    no_trial_per_game: int = 1
    missed_votes_out: int = 2

    def as_json(self) -> dict:
        return {"roles": dict(self.roles), "first_night_armour": self.first_night_armour,
                "no_trial_per_game": self.no_trial_per_game, "missed_votes_out": self.missed_votes_out}


@dataclass(frozen=True)
class MafiaState:
    players: tuple[Player, ...]
    rules: RuleConfig = RuleConfig()
    rules_hash: str = ""
    round: int = 0                               # the last resolved round
    last_heal: LastTarget | None = None
    last_block: LastTarget | None = None
    winner: str | None = None
    forced_changes: tuple[str, ...] = ()          # rule hashes forced after the start, not yet reported

    def player(self, nick: str) -> Player | None:
        return next((p for p in self.players if p.nick == nick), None)

    def role(self, nick: str) -> str:
        return self.player(nick).role

    def is_alive(self, nick: str) -> bool:
        player = self.player(nick)
        return player is not None and player.alive

    def living(self) -> tuple[Player, ...]:
        return tuple(p for p in self.players if p.alive)

    def living_with(self, team: str) -> tuple[Player, ...]:
        return tuple(p for p in self.living() if TEAM[p.role] == team)

    def mafia(self) -> tuple[Player, ...]:
        return tuple(p for p in self.players if is_mafia(p.role))

    def update(self, nick: str, **changes: Any) -> "MafiaState":
        players = tuple(replace(p, **changes) if p.nick == nick else p for p in self.players)
        return replace(self, players=players)


def dump_state(state: MafiaState) -> dict:
    data = asdict(state)
    data["rules"] = state.rules.as_json()
    return data


_RULE_TYPES = {"roles": dict, "first_night_armour": bool, "no_trial_per_game": int, "missed_votes_out": int}


def rule_config(data: Mapping[str, Any], key: str = "rules") -> RuleConfig:
    """The rule table of a game config (or a setup table), checked key by key (every problem at once)."""
    problems = SetupProblems()
    values = typed_table(data, _RULE_TYPES, key, problems)
    problems.done()
    return RuleConfig(roles=tuple(sorted(values.pop("roles", {}).items())), **values)


def load_state(data: Mapping[str, Any]) -> MafiaState:
    def last(value: Mapping[str, Any] | None) -> LastTarget | None:
        return LastTarget(**value) if value else None

    return MafiaState(
        players=tuple(Player(**{**p, "aliases": tuple(p.get("aliases", ()))}) for p in data["players"]),
        rules=rule_config(data.get("rules", {})),
        rules_hash=data.get("rules_hash", ""),
        round=data.get("round", 0),
        last_heal=last(data.get("last_heal")),
        last_block=last(data.get("last_block")),
        winner=data.get("winner"),
        forced_changes=tuple(data.get("forced_changes", ())),
    )
