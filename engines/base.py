"""What every game engine shares: phases, verdicts on order lines, events, outcomes, seeded dice.

Engines are pure: `resolve(state, phase, inputs, rng)` never reads the clock, the disk or the
network, and every random number comes from a `PhaseRng` derived from (game seed, phase,
purpose). Re-running a phase after the host corrects one order therefore gives the same
rolls everywhere the correction does not reach.
"""
from __future__ import annotations

import hashlib
import random
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from datetime import datetime
from types import MappingProxyType
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
    """Order lines of a PM: one command a line, blank lines dropped, every run of spaces one space
    (the grammars' patterns allow spaces in several places in a row: on a run of thousands they
    would try every way to share it out)."""
    return [" ".join(line.split()) for line in text.replace("\r\n", "\n").split("\n") if line.strip()]


# What one PM may ask of a grammar: no order needs more, and a name matched against every form of
# a map's names costs milliseconds a line, so that a pasted page or a line of 20,000 digits took
# seconds at every tick that read the phase's PMs. Lines past these are answered, never read.
MAX_LINE_LENGTH = 500
MAX_LINES = 200
LINE_TOO_LONG = f"строка длиннее {MAX_LINE_LENGTH} знаков не читается: один приказ — одна короткая строка"
TOO_MANY_LINES = (f"не прочитано: в одном сообщении читаются первые {MAX_LINES} строк; "
                  "пришлите остальные приказы отдельным сообщением")


def read_lines(text: str, read: Callable[[str], Verdict]) -> list[Verdict]:
    """Each order line's verdict by `read`, in order; a line too long, or past the first
    MAX_LINES, is refused unread with the limit, so that a PM costs at most MAX_LINES short lines."""
    verdicts: list[Verdict] = []
    for number, line in enumerate(split_lines(text)):
        if number >= MAX_LINES:
            verdicts.append(Rejected(line, TOO_MANY_LINES))
        elif len(line) > MAX_LINE_LENGTH:
            verdicts.append(Rejected(line, LINE_TOO_LONG))
        else:
            verdicts.append(read(line))
    return verdicts


# ---------------------------------------------------------------- inputs

@dataclass(frozen=True)
class OrderPm:
    """One private message with orders, as it reached the host (provenance kept)."""

    sender: str          # the player's seat: the nick he was dealt with
    text: str
    pm_id: str | None = None
    at: datetime | None = None
    # (account, seat) of each seat held at the PM's moment by another account than its dealt nick
    # (`forumgm replace`), as the edge knows them: the lines may name the seat by that account too.
    # Dated by the PM, so a re-run after a later replacement reads the PM as it was read.
    seat_names: tuple[tuple[str, str], ...] = ()


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
    # post id -> its link on the forum, for every vote of the tally the forum can link to
    post_urls: Mapping[str, str] = field(default_factory=dict)
    # phase kind -> the deadline (local time, as players read it) of a phase of that kind opened
    # right after this one: texts drafted at the resolution may name it (Arena's refill requests)
    next_deadlines: Mapping[str, str] = field(default_factory=dict)


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

class TracedSeed(str):
    """A game seed that keeps a log of every draw made from it (`draws`): the daemon resolves with
    one, so that the rolls of a phase are kept with it and `forumgm verify` compares a replay's
    rolls with them. Each draw is [stream, n, value]: a value in 0..n-1 drawn from the stream named
    by its (phase, purpose) path; a die of n sides shows value + 1. The log is the caller's, handed
    in: an engine stays a function of its arguments."""

    draws: list

    def __new__(cls, seed: int | str) -> "TracedSeed":
        traced = super().__new__(cls, str(seed))
        traced.draws = []
        return traced


class _TracedRandom(random.Random):
    """A stream that notes each draw in the seed's log: every integer draw of `random.Random`
    (randint, choice, shuffle, sample) goes through `_randbelow`."""

    def __init__(self, number: int, name: str, draws: list) -> None:
        self._name, self._draws = name, draws
        super().__init__(number)

    def _randbelow(self, n: int) -> int:
        value = super()._randbelow(n)
        self._draws.append([self._name, n, value])
        return value


class PhaseRng:
    """Random numbers derived from a hash of (game seed, phase, purpose).

    Each purpose gets an independent stream, so one extra roll for one purpose never shifts
    the rolls of another.
    """

    def __init__(self, seed: int | str, *path: str) -> None:
        self._origin = seed         # a TracedSeed keeps its log through every derived PhaseRng
        self._seed = str(seed)
        self._path = tuple(str(p) for p in path)

    def game(self) -> "PhaseRng":
        """The game's own streams, the same in every phase (the order a report's openings take)."""
        return PhaseRng(self._origin)

    def for_step(self, *purpose: Any) -> "PhaseRng":
        return PhaseRng(self._origin, *self._path, *(str(p) for p in purpose))

    def untraced(self) -> "PhaseRng":
        """The same streams, their draws kept in no log: for the wording of a report (which phrase
        a template's bank gives), which depends on the host's templates, not on the game."""
        return PhaseRng(self._seed, *self._path)

    def stream(self, *purpose: Any) -> random.Random:
        parts = (*self._path, *(str(p) for p in purpose))
        digest = hashlib.sha256("\x1f".join((self._seed, *parts)).encode("utf-8")).digest()
        number = int.from_bytes(digest[:16], "big")
        draws = getattr(self._origin, "draws", None)
        return random.Random(number) if draws is None else _TracedRandom(number, "/".join(parts), draws)

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

@dataclass(frozen=True)
class StandIn:
    """A stand-in player's move in a rehearsal (`forumgm rehearse --autoplay`): what a living player
    might plausibly send in a phase, written as a player writes it."""
    nick: str
    pm: str = ""                # orders by PM to the host, a line each ("" : none)
    vote: str | None = None     # the nick he votes for in the thread (the edge writes it in a vote colour)


def bandwagon(alive: Sequence[str], rng: random.Random) -> dict[str, str]:
    """{voter: target}: everyone votes for one player the die picks, who votes for another, so a
    phase of stand-ins always has a unique leader and a game of them comes to an end; of two left,
    both vote for the one (one against one would tie for ever)."""
    if len(alive) < 2:
        return {}
    target, other = rng.sample(list(alive), 2)
    return {nick: other if nick == target and len(alive) > 2 else target for nick in alive}


# The reports several games post, named alike (Rules.draft_labels).
REPORT_LABELS = {"technical_report": "технический отчёт", "literary_report": "литературный отчёт"}


@dataclass(frozen=True)
class RoleRow:
    """One player's secret as the host reads it (Rules.role_table), every field in Russian."""

    nick: str
    role: str
    side: str                 # his clan, side or faction
    alive: bool
    knows: str = ""           # what the player himself knows of his role, where the game keeps it from him


class Rules(ABC):
    """Every hook the daemon and `forumgm simulate` call on a game: one subclass per game package.

    A base class rather than a Protocol, so that each optional hook is written once, here, with
    the default the daemon relies on for a game without it: the daemon calls every hook
    unconditionally and never asks a game whether it has one. The abstract methods are what
    every game must say; a game overrides an optional hook only where it differs.

    `texts` is a `forumgm.engines.texts.Texts` (templates already loaded, so rendering does
    no I/O).
    """

    name: str           # the game's type code, as a game file's `type` names it
    title: str          # the game's name in Russian, as the host's page shows it («Мафия»)
    # The kinds of phase first_phase/next_phase open, each timed by the game config's [calendar],
    # with their names in Russian as the host and players read them ({"night": "ночь"}).
    phase_labels: Mapping[str, str]
    # The kinds of draft its phases make beyond those of every game (receipts, vote counts): its PM
    # kinds, "<report>_report" of its reports, … — the kinds a game config's [approval] may name —
    # with their names in Russian as the host's page shows them.
    draft_labels: Mapping[str, str]
    # {setup key: shipped folder or None} of the [setup] keys whose text value names a TOML file
    # (Bellum's `scenario` and `events`). The edge, never the engine, reads such a file and hands
    # `setup` a `SetupFile` in its place: a path is read relative to the file that names it; with a
    # shipped folder, a bare name ("370", no "/" and no ".toml") is <data>/<folder>/<name>.toml.
    setup_files: Mapping[str, str | None] = MappingProxyType({})
    # The maps the game draws of its positions (a `Maps`); None for a game drawn on no map.
    maps: Maps | None = None
    # The causes its Eliminations name, in Russian as the host's page shows them after «выбыл:»
    # («убийство мафией»); a cause not listed is shown as the engine wrote it (Arena's are words).
    cause_labels: Mapping[str, str] = MappingProxyType({})
    # The kind of the report that shows where the game stands after a phase (Arena's fighters'
    # state, "summary_report"): the host's page shows the latest one beside the game. None: no such report.
    position_report: str | None = None

    @property
    def phase_kinds(self) -> tuple[str, ...]:
        return tuple(self.phase_labels)

    @property
    def draft_kinds(self) -> tuple[str, ...]:
        return tuple(self.draft_labels)

    def phase_name(self, phase: Phase) -> str:
        """The phase as the host and the players read it: «ночь 2»."""
        return f"{self.phase_labels.get(phase.kind, phase.kind)} {phase.number}"

    # -- what every game says

    @abstractmethod
    def setup(self, setup: Mapping[str, Any], seed: int) -> Any:
        """The dealt start state of a [setup] table; SetupError naming every problem found."""

    @abstractmethod
    def first_phase(self, state: Any) -> Phase: ...

    @abstractmethod
    def next_phase(self, state: Any, phase: Phase) -> Phase | None:
        """The phase after `phase`; None when the game's rules end it there."""

    @abstractmethod
    def read_orders(self, state: Any, phase: Phase, pm: OrderPm, earlier: Sequence[OrderPm]) -> list[Verdict]:
        """A verdict per line of the PM; `earlier` are the PMs of the same sender already read in
        this phase, oldest first (a first-vote-counts rule or "replaces the earlier order" needs them)."""

    @abstractmethod
    def resolve(self, state: Any, phase: Phase, inputs: PhaseInputs, seed: int, texts: Any) -> Outcome: ...

    @abstractmethod
    def alive(self, state: Any) -> list[str]: ...

    @abstractmethod
    def winner(self, state: Any) -> str | None: ...

    @abstractmethod
    def dump(self, state: Any) -> dict: ...

    @abstractmethod
    def load(self, data: Mapping[str, Any]) -> Any: ...

    # -- optional hooks, each with the default the daemon relies on

    def vote_rules(self, state: Any, phase: Phase) -> Any | None:
        """Day-vote counting rules (an engines.tally.VoteRules) for a phase whose votes are coloured
        nicknames in the thread, counted outside the engine and handed in as PhaseInputs.tally.
        Default None: the phase takes no thread votes."""
        return None

    def pm_vote_tally(self, state: Any, phase: Phase, orders: Sequence[OrderPm]) -> Tally | None:
        """For a game whose day votes come by PM (Mafia): the phase's votes among `orders` so far, as
        the phase will count them. Default None: the game takes no day votes by PM."""
        return None

    def correction_kind(self, state: Any, phase: Phase) -> str:
        """What the host's correction of a player's input to the phase replaces: ORDERS or
        THREAD_VOTE. Default ORDERS."""
        return ORDERS

    def complete_early(self, state: Any, phase: Phase, orders: Sequence[OrderPm]) -> bool:
        """True when the phase may resolve before its deadline (all orders in). Default False."""
        return False

    def late_verdicts(self, pm: OrderPm) -> list[Verdict] | None:
        """The receipt lines for a PM timed after a phase's deadline and before the next phase
        opened (it stays an answer, never an order). Default None: such a PM is read as an order of
        the next phase."""
        return None

    def winner_name(self, state: Any) -> str | None:
        """The winner in Russian as the host reads it («мирные жители», «Клан Хаоса»); None with no
        winner. Default: `winner` as it is (a player's nick, a clan's name)."""
        return self.winner(state)

    def role_pms(self, state: Any, texts: Any) -> list[OutgoingPm]:
        """The PMs dealt before the first phase (kind "role"). Default: none."""
        return []

    def reminder(self, state: Any, phase: Phase, orders: Sequence[OrderPm], texts: Any,
                 left: Any) -> Any | None:
        """The reminder drafted before the deadline (`left`, a timedelta, is the time left): an object
        with `post` (the thread's text) and `pms` (OutgoingPm), or None. Default: none."""
        return None

    def host_digest(self, state: Any, phase: Phase, posts: Sequence[Any], start: datetime, end: datetime,
                    host: str, texts: Any) -> OutgoingPm | None:
        """For a game whose thread has rules of its own (Mafia's discipline): the host's digest of the
        thread's posts in [start, end) as a PM to him (`host` is his account; his own posts do not
        count). Default None: no digest."""
        return None

    def signup_choices(self, setup: Mapping[str, Any]) -> tuple[tuple[str, str, tuple[str, ...]], ...] | None:
        """(id, name, aliases) of what a player chooses at the sign-up (Bellum's factions). Default
        None: the sign-up offers no choices."""
        return None

    def setup_warnings(self, setup: Mapping[str, Any]) -> list[tuple[str, str]]:
        """(key, message) of what a [setup] may well be played with but its host should know (Bellum:
        a map without the kingdom province), shown by `check-config`. Default: none."""
        return []

    def with_rules(self, state: Any) -> Any:
        """The state under this engine's rule table: called when the host accepts a changed [rules]
        of a running game (`forumgm rules accept`), so that a game which copied its rules into the
        state at the deal plays on under the accepted ones. Default: the state as it is (a game
        that reads its rules from the engine)."""
        return state

    def stand_ins(self, state: Any, phase: Phase, seed: int) -> list[StandIn]:
        """What each living player might send in `phase` when nobody plays him (a rehearsal's
        stand-ins), seeded by the game's `seed` like the phase's own dice. Default: nobody acts,
        and the rehearsal's phase cap ends a game that cannot end so."""
        return []

    def roles(self, state: Any) -> Mapping[str, str]:
        """Each player's role in Russian as the game's record tells it at the end («Босс мафии»).
        Default: none (a game without hidden roles)."""
        return {}

    def role_table(self, state: Any) -> list["RoleRow"]:
        """Who holds which role now, with his side and what he knows of it, for the host's eyes only
        (his page behind the login, `forumgm status --roles`): never in a post, a log or a public
        page (`roles` is the record's, at the end). Default: none (a game without secret roles)."""
        return []

    def summary(self, state: Any) -> Mapping[str, Any]:
        """`forumgm simulate`'s top-level keys beyond the common ones (Bellum's position). Default: none."""
        return {}


# ---------------------------------------------------------------- discovery

@dataclass(frozen=True)
class Game:
    """A game as the daemon discovers it: each is registered under its type code in the entry-point
    group `forumgm.games` (pyproject.toml for the four shipped with forumgm), naming its package's
    `GAME`; the daemon lists no game of its own.

    `make_rules(rule_table)` is the engine under a merged rule table (the game's rules.toml, then a
    game file's [rules] key by key). `data` is the folder (its path as text: engines open no file) of
    a game not shipped in forumgm's config/:
    its rules.toml (and the tables it names) and its templates under templates/<type>/; None for a
    shipped game (config/<type>/rules.toml, config/templates/<type>/).
    """

    make_rules: Callable[[Mapping[str, Any]], Rules]
    data: str | None = None


# ---------------------------------------------------------------- maps (optional)

@dataclass(frozen=True)
class Picture:
    """One drawn map: its title (the caption drawn on it) and the file's bytes."""

    title: str
    data: bytes


class Maps(Protocol):
    """The maps a game's engine draws of its positions (`Rules.maps`, optional).

    A game whose `maps` is None has no maps: the daemon posts no map with its reports, the
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


def maps_of(rules: Rules | None) -> Maps | None:
    """The game's maps, None for a game drawn on no map (or no game)."""
    return None if rules is None else rules.maps
