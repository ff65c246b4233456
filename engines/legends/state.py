"""The state of a Legends game between phases: frozen, JSON round-trippable."""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Iterable, Mapping

from forumgm.engines.legends.table import RuleTable, load_rule_table


@dataclass(frozen=True)
class Player:
    nick: str
    role: str
    clan: str
    rank: str
    aliases: tuple[str, ...] = ()
    alive: bool = True
    gender: str | None = None        # "m" or "f" as the host gave it; texts guess when None


@dataclass(frozen=True)
class LegendsState:
    table: RuleTable
    players: tuple[Player, ...]
    spells: tuple[tuple[str, str | None], ...]          # spell -> holder; None once used or lost
    enchantments: tuple[tuple[str, str], ...] = ()       # (nick, spell) cast on him; lasts the game
    revealed: frozenset[str] = frozenset()               # players already told their role
    continuous: bool = False                             # no lynch candidates left (rules §8)

    # ---------------------------------------------------------------- players
    def player(self, nick: str) -> Player:
        for player in self.players:
            if player.nick == nick:
                return player
        raise KeyError(nick)

    def is_player(self, nick: str) -> bool:
        return any(player.nick == nick for player in self.players)

    def living(self) -> list[Player]:
        return [player for player in self.players if player.alive]

    def is_alive(self, nick: str) -> bool:
        return self.is_player(nick) and self.player(nick).alive

    def without(self, nicks: Iterable[str]) -> "LegendsState":
        gone = set(nicks)
        return replace(self, players=tuple(
            replace(player, alive=False) if player.nick in gone else player for player in self.players))

    def lynchable(self, nick: str) -> bool:
        """Rank immunity (rules §2): once a clan lost a player of a rank, its other one is safe."""
        me = self.player(nick)
        return not any(not other.alive and other.clan == me.clan and other.rank == me.rank
                       for other in self.players)

    # ---------------------------------------------------------------- skills
    def skills(self, nick: str) -> dict[str, int]:
        """The player's skills before tonight's thefts and modifications: rank plus spells."""
        player = self.player(nick)
        values = dict(self.table.ranks[player.rank].skills)
        for target, spell in self.enchantments:
            if target == nick:
                for skill, amount in self.table.spells[spell].effect.items():
                    values[skill] += amount
        return values

    # ---------------------------------------------------------------- spells
    def holder(self, spell: str) -> str | None:
        return dict(self.spells)[spell]

    def spells_of(self, nick: str) -> list[str]:
        return [spell for spell, holder in self.spells if holder == nick]

    def with_holder(self, spell: str, holder: str | None) -> "LegendsState":
        return replace(self, spells=tuple((name, holder if name == spell else who) for name, who in self.spells))


def dump_state(state: LegendsState) -> dict:
    return {
        "rules": state.table.source,
        "players": [{"nick": p.nick, "role": p.role, "aliases": list(p.aliases), "alive": p.alive,
                     **({"gender": p.gender} if p.gender else {})} for p in state.players],
        "spells": {spell: holder for spell, holder in state.spells},
        "enchantments": [[nick, spell] for nick, spell in state.enchantments],
        "revealed": sorted(state.revealed),
        "continuous": state.continuous,
    }


def load_state(data: Mapping[str, Any]) -> LegendsState:
    table = load_rule_table(data["rules"])
    players = tuple(make_player(table, p["nick"], p["role"], p.get("aliases", ()), p.get("alive", True),
                                p.get("gender")) for p in data["players"])
    return LegendsState(
        table=table,
        players=players,
        spells=tuple((spell, holder) for spell, holder in data["spells"].items()),
        enchantments=tuple((nick, spell) for nick, spell in data.get("enchantments", ())),
        revealed=frozenset(data.get("revealed", ())),
        continuous=bool(data.get("continuous", False)),
    )


def make_player(table: RuleTable, nick: str, role: str, aliases: Iterable[str] = (), alive: bool = True,
                gender: str | None = None) -> Player:
    spec = table.role(role)
    return Player(nick, role, spec.clan, spec.rank, tuple(aliases), alive, gender)

