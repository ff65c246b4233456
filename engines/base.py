"""What every game engine shares: phases, verdicts on order lines, events, outcomes, seeded dice.

Engines are pure: `resolve(state, phase, inputs, rng)` never reads the clock, the disk or the
network, and every random number comes from a `PhaseRng` derived from (game seed, phase,
purpose). Re-running a phase after the host corrects one order therefore gives the same
rolls everywhere the correction does not reach.
"""
from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Callable, Iterable, Mapping, Protocol, Sequence


@dataclass(frozen=True)
class Phase:
    """One resolvable phase: legends night/day, mafia round, bellum turn, arena step."""

    kind: str
    number: int

    @property
    def key(self) -> str:
        return f"{self.kind}-{self.number}"

    @classmethod
    def from_key(cls, key: str) -> "Phase":
        kind, _, number = key.rpartition("-")
        return cls(kind, int(number))


class SetupError(ValueError):
    """A game's setup table is malformed: `problems` holds each (dotted key, what is expected)
    found, so a host fixes them all in one go; `key` and `message` are the first one's."""

    def __init__(self, key: str, message: str, *more: tuple[str, str]) -> None:
        self.problems = ((key, message), *more)
        super().__init__("; ".join(f"{k}: {m}" for k, m in self.problems))
        self.key = key
        self.message = message

    @classmethod
    def of(cls, problems: Sequence[tuple[str, str]]) -> "SetupError":
        return cls(*problems[0], *problems[1:])


class SetupProblems:
    """Checks of a setup that do not depend on each other: each one's problems are kept and the
    next check still runs; `done` raises them all as one SetupError."""

    def __init__(self) -> None:
        self.found: list[tuple[str, str]] = []

    def attempt(self, check: Callable[..., Any], *args: Any) -> Any:
        """check(*args), or None after keeping its problems."""
        try:
            return check(*args)
        except SetupError as error:
            self.found += error.problems
            return None

    def done(self) -> None:
        if self.found:
            raise SetupError.of(self.found)


@dataclass(frozen=True)
class SetupFile:
    """A TOML file a setup value names, read by the edge for the engine (`Rules.setup_files`), so
    that the engine itself never opens a file: `source` names it in errors; `data` is the parsed
    file, or None when it could not be read and `problem` says where and why ("line 3, column 7: not
    valid TOML: …", "(file): cannot read it: …")."""

    source: str
    data: Mapping[str, Any] | None = None
    problem: str | None = None

    def table(self, key: str) -> Mapping[str, Any]:
        """The parsed file; SetupError on `key` naming the file when it could not be read."""
        if self.data is None:
            raise SetupError(key, f"{self.source}: {self.problem}")
        return self.data


class RulesFrozen(ValueError):
    """A started game's rule config changed: the rules are frozen at the start (the deal) and may
    change only when the host forces it (`Rules.freeze_rules`, optional)."""


# a value's type as the host writes it in a TOML file
TOML_WORDS = {bool: "true or false", str: "a text in quotes", int: "a whole number", float: "a number",
              list: "a list [...]", dict: "a table"}


def typed_table(data: Mapping[str, Any], types: Mapping[str, type], key: str, problems: SetupProblems) -> dict[str, Any]:
    """The values of a flat rule table that have the type of their key; a key the game does not
    know and a value of another type go to `problems`, so that checks of the good values still run.
    A whole number does for a number (TOML's 2 for 2.0); true and false are no numbers."""
    values = {}
    for name, value in data.items():
        expected = types.get(name)
        if expected is None:
            problems.found.append((f"{key}.{name}", f"unknown rule (expected one of {', '.join(types)})"))
        elif expected is float and isinstance(value, int) and not isinstance(value, bool):
            values[name] = float(value)
        elif isinstance(value, expected) and (expected is bool or not isinstance(value, bool)):
            values[name] = value
        else:
            problems.found.append((f"{key}.{name}", f"expected {TOML_WORDS[expected]} (got {value!r})"))
    return values


def reject_unknown_keys(table: Mapping[str, Any], allowed: Iterable[str], key: str) -> None:
    """A setup table may hold only the keys its game knows: a typo must not be ignored."""
    allowed = frozenset(allowed)
    expected = f"unknown key (expected one of {', '.join(sorted(allowed))})"
    unknown = [(f"{key}.{name}", expected) for name in table if name not in allowed]
    if unknown:
        raise SetupError.of(unknown)


def player_tables(entries: Any, allowed: Iterable[str]) -> list[Mapping[str, Any]]:
    """`setup.players`: a non-empty array of tables, each with a nick and only known keys (a
    grammatical `gender`, where allowed, "f" or "m")."""
    if not isinstance(entries, list) or not entries:
        raise SetupError("setup.players", "expected a non-empty array of players ({nick = …, role = …})")
    problems = SetupProblems()
    for index, entry in enumerate(entries):
        key = f"setup.players[{index}]"
        if not isinstance(entry, Mapping) or not isinstance(entry.get("nick"), str):
            problems.found.append((key, "expected a table with a nick"))
        else:
            problems.attempt(reject_unknown_keys, entry, allowed, key)
            if entry.get("gender", "m") not in ("m", "f"):
                problems.found.append((f"{key}.gender", f"expected \"f\" or \"m\" (got {entry['gender']!r})"))
    problems.done()
    return entries


# ---------------------------------------------------------------- order verdicts (receipts)

@dataclass(frozen=True)
class Accepted:
    """An order line understood; `canonical` is how the receipt repeats it back."""

    line: str
    order: Any
    canonical: str
    ok: bool = field(default=True, init=False)

    def as_json(self) -> dict:
        return {"line": self.line, "ok": True, "canonical": self.canonical}


@dataclass(frozen=True)
class Rejected:
    """An order line refused, with the reason in Russian as the player will read it."""

    line: str
    reason: str
    ok: bool = field(default=False, init=False)

    def as_json(self) -> dict:
        return {"line": self.line, "ok": False, "reason": self.reason}


Verdict = Accepted | Rejected


def split_lines(text: str) -> list[str]:
    """Order lines of a PM: one command a line, blank lines and surrounding spaces dropped."""
    return [line.strip() for line in text.replace("\r\n", "\n").split("\n") if line.strip()]


# ---------------------------------------------------------------- inputs

@dataclass(frozen=True)
class OrderPm:
    """One private message with orders, as it reached the host (provenance kept)."""

    sender: str          # the player's canonical nickname
    text: str
    pm_id: str | None = None
    at: datetime | None = None


@dataclass(frozen=True)
class CountedVote:
    voter: str
    target: str          # canonical nickname, or a game's abstain token such as "не судить"
    post_id: str | None = None
    at: datetime | None = None
    text: str = ""
    entered_by: str | None = None   # the host, when his correction stands for the player's posts


@dataclass(frozen=True)
class DiscardedVote:
    voter: str
    text: str
    reason: str          # machine code: quoted, dead_voter, dead_target, unknown_name, ...
    post_id: str | None = None
    detail: str = ""     # human detail, e.g. the candidates of an ambiguous name

    def as_json(self) -> dict:
        out = {"voter": self.voter, "text": self.text, "reason": self.reason}
        if self.post_id is not None:
            out["post_id"] = self.post_id
        if self.detail:
            out["detail"] = self.detail
        return out


@dataclass(frozen=True)
class Tally:
    """The result of counting a day's votes: what the lynch/jail step works from."""

    counted: tuple[CountedVote, ...] = ()
    discarded: tuple[DiscardedVote, ...] = ()

    def by_target(self) -> dict[str, list[CountedVote]]:
        out: dict[str, list[CountedVote]] = {}
        for vote in self.counted:
            out.setdefault(vote.target, []).append(vote)
        return out


@dataclass(frozen=True)
class PhaseInputs:
    """Everything timed before the deadline that a phase resolves from."""

    orders: tuple[OrderPm, ...] = ()
    tally: Tally | None = None
    extra: Mapping[str, Any] = field(default_factory=dict)


# ---------------------------------------------------------------- outputs

@dataclass(frozen=True)
class Event:
    """A fact the resolution produced; every report is rendered from these alone."""

    type: str
    data: Mapping[str, Any] = field(default_factory=dict)

    def as_json(self) -> dict:
        return {"type": self.type, **dict(self.data)}


@dataclass(frozen=True)
class OutgoingPm:
    to: str
    kind: str            # role, role_reveal, spy_result, check_result, warning, receipt, ...
    text: str
    subject: str = ""

    def as_json(self) -> dict:
        return {"to": self.to, "kind": self.kind, "text": self.text}


@dataclass(frozen=True)
class Elimination:
    nick: str
    cause: str           # attack, magic_attack, joint_attack, lynch, jail, kill_mafia, ...

    def as_json(self) -> dict:
        return {"nick": self.nick, "cause": self.cause}


@dataclass(frozen=True)
class Outcome:
    """A resolved phase: the new state and everything the host and players will see."""

    state: Any
    events: tuple[Event, ...] = ()
    eliminated: tuple[Elimination, ...] = ()
    pms: tuple[OutgoingPm, ...] = ()
    reports: Mapping[str, str | None] = field(default_factory=dict)
    # game-specific scenario keys (lynched, jailed, immune_leader, spells, counted_votes, ...)
    extra: Mapping[str, Any] = field(default_factory=dict)


# ---------------------------------------------------------------- seeded randomness

class PhaseRng:
    """Random numbers derived from a hash of (game seed, phase, purpose).

    Each purpose gets an independent stream, so one extra roll for one purpose never shifts
    the rolls of another.
    """

    def __init__(self, seed: int | str, *path: str) -> None:
        self._seed = str(seed)
        self._path = tuple(str(p) for p in path)

    def game(self) -> "PhaseRng":
        """The game's own streams, the same in every phase (the order a report's openings take)."""
        return PhaseRng(self._seed)

    def for_step(self, *purpose: Any) -> "PhaseRng":
        return PhaseRng(self._seed, *self._path, *(str(p) for p in purpose))

    def stream(self, *purpose: Any) -> random.Random:
        material = "\x1f".join((self._seed, *self._path, *(str(p) for p in purpose)))
        digest = hashlib.sha256(material.encode("utf-8")).digest()
        return random.Random(int.from_bytes(digest[:16], "big"))

    def die(self, sides: int, *purpose: Any) -> int:
        return self.stream(*purpose).randint(1, sides)

    def shuffle(self, items: Sequence, *purpose: Any) -> list:
        out = list(items)
        self.stream(*purpose).shuffle(out)
        return out


def phase_rng(seed: int | str, phase: Phase) -> PhaseRng:
    return PhaseRng(seed, phase.kind, phase.number)


# ---------------------------------------------------------------- step tables

@dataclass(frozen=True)
class Step:
    """One named rules step: (state, orders, rng) -> (state, events)."""

    name: str
    run: Callable[..., tuple[Any, list[Event]]]


def run_steps(steps: Iterable[Step], state: Any, orders: Any, rng: PhaseRng) -> tuple[Any, list[Event]]:
    events: list[Event] = []
    for step in steps:
        state, produced = step.run(state, orders, rng.for_step(step.name))
        events += produced
    return state, events


# ---------------------------------------------------------------- the host's corrections

# What the host's correction of a player's input to a phase stands for (`forumgm correct`): the
# engine says, per phase, through Rules.correction_kind.
ORDERS = "orders"              # his order PMs: the text is read by read_orders as if he had sent it alone
THREAD_VOTE = "thread_vote"    # his coloured-nickname votes in the thread: the text names whom he votes for


# ---------------------------------------------------------------- the game interface

class Rules(Protocol):
    """What the daemon and `forumgm simulate` need of a game; one object per game package.

    `texts` is a `forumgm.engines.texts.Texts` (templates already loaded, so rendering does
    no I/O).

    A game may also have optional methods, which the daemon looks up and skips where a game has
    none. `host_digest(state, phase, posts, start, end, host, texts) -> OutgoingPm` is one: a game
    whose thread has rules of its own (Mafia's discipline) returns the host's digest of the thread's
    posts in [start, end) as a PM to him (`host` is his account; his own posts do not count).
    `freeze_rules(state, force=False) -> state` is another: a game whose rules are frozen at the
    start returns the state under the engine's rule config, and raises RulesFrozen when that config
    changed since the start unless the host forces the change. `maps` (a `Maps`) is the third: a
    game drawn on a map (Bellum) draws it; see `maps_of`. `setup_files` is the fourth: a mapping
    {setup key: shipped folder or None} of the [setup] keys whose text value names a TOML file
    (Bellum's `scenario` and `events`). The edge, never the engine, reads such a file and hands
    `setup` a `SetupFile` in its place: a path is read relative to the file that names it; with a
    shipped folder, a bare name ("370", no "/" and no ".toml") is config/<game>/<folder>/<name>.toml.
    """

    name: str
    title: str          # the game's name in Russian, as the host's page shows it («Мафия»)
    # The kinds of phase first_phase/next_phase open, each timed by the game config's [calendar].
    phase_kinds: tuple[str, ...]
    # The kinds of draft its phases make beyond those of every game (receipts, vote counts): its PM
    # kinds, "<report>_report" of its reports, … — the kinds a game config's [approval] may name.
    draft_kinds: tuple[str, ...]

    def setup(self, setup: Mapping[str, Any], seed: int) -> Any: ...
    def first_phase(self, state: Any) -> Phase: ...
    def next_phase(self, state: Any, phase: Phase) -> Phase | None: ...
    # `earlier` are the PMs of the same sender already read in this phase, oldest first (a
    # first-vote-counts rule or "replaces the earlier order" needs them).
    def read_orders(self, state: Any, phase: Phase, pm: OrderPm, earlier: Sequence[OrderPm]) -> list[Verdict]: ...
    # Day-vote counting rules for a phase whose votes are coloured nicknames in the thread
    # (None when the phase takes no thread votes); the tally is computed outside the engine
    # with engines.tally.count_votes and handed in as PhaseInputs.tally.
    def vote_rules(self, state: Any, phase: Phase) -> Any | None: ...
    # What the host's correction of a player's input to the phase replaces: ORDERS or THREAD_VOTE.
    def correction_kind(self, state: Any, phase: Phase) -> str: ...
    # True when the phase may resolve before its deadline (all orders in, continuous regime).
    def complete_early(self, state: Any, phase: Phase, orders: Sequence[OrderPm]) -> bool: ...
    def resolve(self, state: Any, phase: Phase, inputs: PhaseInputs, seed: int, texts: Any) -> Outcome: ...
    def alive(self, state: Any) -> list[str]: ...
    def winner(self, state: Any) -> str | None: ...
    # The winner in Russian as the host reads it («мирные жители», «Клан Хаоса»); None with no winner.
    def winner_name(self, state: Any) -> str | None: ...
    def dump(self, state: Any) -> dict: ...
    def load(self, data: Mapping[str, Any]) -> Any: ...



# ---------------------------------------------------------------- maps (optional)

@dataclass(frozen=True)
class Picture:
    """One drawn map: its title (the caption drawn on it) and the file's bytes."""

    title: str
    data: bytes


class Maps(Protocol):
    """The maps a game's engine draws of its positions (`Rules.maps`, optional).

    A game whose Rules has no `maps` has no maps: the daemon posts no map with its reports, the
    host's page shows it no maps section and `forumgm map` refuses its scenarios. Every method
    draws one picture in one of `formats`; a table or file it cannot read raises ValueError (such
    as SetupError) naming the file or key and what is expected.
    """

    formats: tuple[str, ...]        # the file suffixes it draws: ("png", "svg")

    # The map of a game's position (after the state's last phase; its start before any).
    def draw(self, state: Any, fmt: str) -> Picture: ...
    # The start of the game a [setup] table describes, without dealing it (no players needed).
    def start(self, setup: Mapping[str, Any], fmt: str) -> Picture: ...
    # The start a map file of the engine's own describes (Bellum's scenario file), None when the
    # parsed TOML `table` is no such file; `source` names the file in errors.
    def of_file(self, table: Mapping[str, Any], source: str, fmt: str) -> Picture | None: ...


def maps_of(rules: Any) -> Maps | None:
    """The game's maps, None for a game drawn on no map."""
    return getattr(rules, "maps", None)
