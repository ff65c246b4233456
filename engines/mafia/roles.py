"""The roles of classic Mafia: teams, check statuses, night actions, default counts, dealing."""
from __future__ import annotations

from typing import Mapping, Sequence

from forumgm.engines.base import PhaseRng, SetupError

COMMISSAR = "Комиссар"
DOCTOR = "Доктор"
CITIZEN = "Мирный житель"
BOSS = "Босс мафии"
MAFIOSO = "Мафиози"
MANIAC = "Маньяк"

# Dealing order of the roles; also the order the report lists the remaining roles in.
ROLES = (COMMISSAR, DOCTOR, CITIZEN, BOSS, MAFIOSO, MANIAC)

# Short forms a host may write in a setup table.
ROLE_ALIASES = {"мирный": CITIZEN, "мирный житель": CITIZEN, "босс": BOSS, "босс мафии": BOSS,
                "мафия": MAFIOSO}

TOWN, MAFIA, NEUTRAL = "town", "mafia", "neutral"
TEAM = {COMMISSAR: TOWN, DOCTOR: TOWN, CITIZEN: TOWN, BOSS: MAFIA, MAFIOSO: MAFIA, MANIAC: NEUTRAL}

POSITIVE, NEGATIVE = "положительный", "отрицательный"

# The night actions each role may order (kill is the maniac's kill or a mafia member's shot).
ACTIONS = {
    COMMISSAR: ("check",),
    DOCTOR: ("heal",),
    CITIZEN: (),
    BOSS: ("block", "kill"),
    MAFIOSO: ("kill",),
    MANIAC: ("kill",),
}

MIN_PLAYERS = 8
# The rules speak of the commissar, the doctor, the boss and the maniac: one each at most.
SINGLE_ROLES = (COMMISSAR, DOCTOR, BOSS, MANIAC)


def status(role: str) -> str:
    return POSITIVE if TEAM[role] == TOWN else NEGATIVE


def is_mafia(role: str) -> bool:
    return TEAM[role] == MAFIA


def canonical_role(name: str, key: str) -> str:
    """The role named in a setup table, tolerant of case and the short forms."""
    folded = " ".join(name.split()).lower()
    for role in ROLES:
        if role.lower() == folded:
            return role
    if folded in ROLE_ALIASES:
        return ROLE_ALIASES[folded]
    raise SetupError(key, f"unknown role {name!r}; expected one of {', '.join(ROLES)}")


def default_counts(players: int) -> dict[str, int]:
    mafiosi = max(1, players // 4 - 1)
    special = {COMMISSAR: 1, DOCTOR: 1, MANIAC: 1, BOSS: 1, MAFIOSO: mafiosi}
    return {role: special.get(role, players - sum(special.values())) for role in ROLES}


def role_counts(players: int, configured: Mapping[str, int] | None, key: str) -> dict[str, int]:
    """Exact counts from the config (a role it leaves out: none), or the defaults."""
    if not configured:
        return default_counts(players)
    counts = dict.fromkeys(ROLES, 0)
    for name, count in configured.items():
        if not isinstance(count, int) or count < 0:
            raise SetupError(f"{key}.{name}", "expected a count (integer ≥ 0)")
        counts[canonical_role(name, f"{key}.{name}")] += count
    if sum(counts.values()) != players:
        raise SetupError(key, f"role counts add up to {sum(counts.values())}, players: {players}")
    check_counts(counts, key)
    return counts


def check_counts(counts: Mapping[str, int], key: str, holders: Mapping[str, Sequence[str]] | None = None) -> None:
    """A cast the rules allow: one commissar, doctor, boss and maniac at most, and a mafia team.
    `holders` (role -> nicks) names the players when the roles were written per player."""
    for role in SINGLE_ROLES:
        if counts.get(role, 0) > 1:
            who = f" ({', '.join(holders[role])})" if holders else ""
            raise SetupError(key, f"{counts[role]} × {role}{who}: the rules have one {role} at most")
    if not any(counts.get(role, 0) for role in ROLES if is_mafia(role)):
        raise SetupError(key, f"no {BOSS} and no {MAFIOSO}: the rules need a mafia team "
                              "(the town would win before the first night)")


def deal(nicks: Sequence[str], seed: int | str, counts: Mapping[str, int]) -> dict[str, str]:
    """nick -> role, shuffled by the game seed alone (same seed and sign-up → same deal)."""
    deck = [role for role in ROLES for _ in range(counts[role])]
    dealt = PhaseRng(seed, "setup").shuffle(deck, "roles")
    return dict(zip(nicks, dealt))
