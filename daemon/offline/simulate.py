"""`forumgm simulate`: play phases of one game offline through the daemon's parsers and engines.

The input and output keys are a contract (docs/simulate.md): hosts try rules with it,
and outside checks use it as the black-box interface of every engine.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any, Mapping

from forumgm.daemon.settings.game import VOTE_POLICIES
from forumgm.daemon.settings.games import UnknownGame, game_texts, game_types, phase_kinds, rules_for
from forumgm.daemon.settings.setup_files import with_setup_files
from forumgm.daemon.settings.toml_file import TomlFileError, read_toml
from forumgm.daemon.store.seats import Seats, seats_of
from forumgm.daemon.tick.phase_play import FINAL_KIND, PlayedGame, play_phase, read_pm, vote_rules_for
from forumgm.engines.base import OrderPm, Phase, PhaseInputs, Rules, SetupError
from forumgm.engines.tally import VotePostVersion, count_votes
from forumgm.engines.texts import Texts
from forumgm.parsers.colors import normalize_color
from forumgm.parsers.forums.base import ColoredFragment
from forumgm.parsers.names import Resolved, Roster, account_player, resolve_name

TOP_KEYS = {"game", "seed", "setup", "phases", "vote_colors", "vote_policy"}
PHASE_KEYS = {"kind", "number", "orders", "votes", "posts", "pms", "replace"}
POST_KEYS = {"author", "bbcode"}
PM_KEYS = {"from", "text", "late"}

# Scenario phases carry no clock; each gets a synthetic day so that votes and PMs keep their
# order and all of them fall before that phase's deadline.
EPOCH = datetime(2026, 1, 1, 9, 0, tzinfo=timezone.utc)


class ScenarioError(ValueError):
    def __init__(self, key: str, message: str) -> None:
        super().__init__(f"{key}: {message}")
        self.key = key


@dataclass(frozen=True)
class PhaseScript:
    phase: Phase
    pms: tuple[OrderPm, ...]
    votes: tuple[VotePostVersion, ...] | None
    deadline: datetime
    opens: datetime
    strays: tuple[dict, ...] = ()      # PMs from accounts that are no player's: nobody's orders
    late: tuple[OrderPm, ...] = ()     # PMs come after the deadline, before the next phase opened


def load_scenario(path: Path) -> dict:
    """The scenario file parsed; ScenarioError keyed by where in it the problem is (the commands name the file)."""
    try:
        return read_toml(path)
    except TomlFileError as error:
        raise ScenarioError(error.where, error.what) from None


@dataclass(frozen=True)
class Played:
    """A scenario played through: its engine, the state after each phase, each phase's JSON."""

    game: str
    seed: int
    rules: Rules
    states: tuple[Any, ...]      # the start, then the state after each phase
    phases: tuple[dict, ...]


def run_scenario(scenario: Mapping[str, Any], texts: Texts | None = None) -> dict:
    """The JSON document of scenario.md for one scenario table."""
    played = play_scenario(scenario, texts)
    rules, state = played.rules, played.states[-1]
    return {
        "game": played.game,
        "seed": played.seed,
        "phases": list(played.phases),
        "alive": list(rules.alive(state)),
        "winner": rules.winner(state),
        **rules.summary(state),      # a game with a position to show (bellum: people, owners, …)
    }


def play_scenario(scenario: Mapping[str, Any], texts: Texts | None = None) -> Played:
    texts = texts or game_texts()
    _reject_unknown(scenario, TOP_KEYS, "")
    game = _require(scenario, "game", str, "")
    seed = scenario.get("seed", 0)
    setup = scenario.get("setup", {})
    rules, state = _start(game, setup, seed)
    players = _players(setup)
    voting = _voting(scenario)
    phases = scenario.get("phases", [])
    if not isinstance(phases, list):
        raise ScenarioError("phases", "expected an array of tables ([[phases]])")

    states, out_phases, replacements = [state], [], []
    for index, table in enumerate(phases):
        if rules.winner(state) is not None:
            raise ScenarioError(f"phases[{index}]", f"the game is over before this phase (winner: {rules.winner(state)})")
        replacements += _replacements(table, f"phases[{index}]", seats_of(players, replacements), rules, state,
                                      _opens(index))
        seats = seats_of(players, replacements)
        script = _phase_script(table, f"phases[{index}]", index, game, seats, rules, state, voting)
        opening = _role_pms(rules, state, texts) if index == 0 else []
        state, result = _play(rules, game, state, script, seed, texts, seats, voting)
        result["pms"] = opening + result["pms"]
        states.append(state)
        out_phases.append(result)
    return Played(game, seed, rules, tuple(states), tuple(out_phases))


def check_orders(scenario: Mapping[str, Any], game: str, sender: str, text: str,
                 phase_key: str | None, texts: Texts) -> dict:
    """The receipt for one order PM against the scenario's starting position."""
    if scenario.get("game", game) != game:
        raise ScenarioError("game", f"the scenario is for {scenario.get('game')!r}, not {game!r}")
    setup = scenario.get("setup", {})
    rules, state = _start(game, setup, scenario.get("seed", 0))
    try:
        phase = Phase.from_key(phase_key) if phase_key else rules.first_phase(state)
    except ValueError:
        raise ScenarioError("--phase", f"expected a phase key such as night-1 (got {phase_key!r})") from None
    _check_phase(game, phase.kind, phase.number, "--phase", _lowest(rules, state))
    pm = OrderPm(_player(sender, seats_of(_players(setup), []).roster(), "--from"), text)
    answer = read_pm(PlayedGame(rules, texts, game, game, scenario.get("seed", 0), _no_link), state, phase, pm, [])
    return {
        "game": game,
        "phase": phase.key,
        "from": pm.sender,
        "receipt": [v.as_json() for v in answer.verdicts],
        "text": answer.receipt,
    }


def _lowest(rules: Rules, state: Any) -> int:
    """Phases count from 1, unless the engine opens this game with a phase 0 (arena: step 0)."""
    return min(1, rules.first_phase(state).number)


def _check_phase(game: str, kind: str, number: int, key: str, lowest: int) -> None:
    """A phase of a kind the game does not have would be resolved as something else: refused."""
    kinds = phase_kinds(game)
    if kind not in kinds:
        raise ScenarioError(key, f"expected a {game} phase kind: {', '.join(kinds)} (got {kind!r})")
    if number < lowest:
        raise ScenarioError(key.replace(".kind", ".number"), f"expected a phase number {lowest} or more (got {number})")


def _start(game: str, setup: Any, seed: Any) -> tuple[Rules, Any]:
    if game not in game_types():
        raise ScenarioError("game", f"expected one of {', '.join(game_types())} (got {game!r})")
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise ScenarioError("seed", f"expected an integer (got {seed!r})")
    if not isinstance(setup, Mapping):
        raise ScenarioError("setup", "expected a table")
    try:
        rules = rules_for(game)
    except UnknownGame:
        raise ScenarioError("game", f"the {game} engine is not part of this forumgm yet") from None
    except SetupError as error:   # the shipped rule tables themselves are malformed
        raise _setup_problems(error) from None
    try:
        return rules, rules.setup(with_setup_files(rules, setup), seed)
    except SetupError as error:
        raise _setup_problems(error) from None


def _setup_problems(error: SetupError) -> ScenarioError:
    """Every problem the engine found, on one line after the first one's key."""
    more = "".join(f"; {key}: {message}" for key, message in error.problems[1:])
    return ScenarioError(error.key, error.message + more)


def _role_pms(rules: Rules, state: Any, texts: Texts) -> list[dict]:
    """The role PMs of a game that deals them (kind "role"), listed with the first phase's PMs."""
    return [pm.as_json() for pm in rules.role_pms(state, texts)]


@dataclass(frozen=True)
class Voting:
    """The game config's vote overrides a scenario may set as a game file does ([game] vote_colors, vote_policy)."""

    colors: tuple[str, ...] = ()
    policy: str | None = None


def _voting(scenario: Mapping[str, Any]) -> Voting:
    colors = scenario.get("vote_colors", [])
    if not isinstance(colors, list) or not all(isinstance(c, str) and normalize_color(c) for c in colors):
        raise ScenarioError("vote_colors", f"expected a list of colours such as \"red\" or \"#ff0000\" (got {colors!r})")
    policy = scenario.get("vote_policy")
    if policy not in (None, *VOTE_POLICIES):
        raise ScenarioError("vote_policy", f"expected one of {', '.join(VOTE_POLICIES)} (got {policy!r})")
    return Voting(tuple(colors), policy)


def _play(rules: Rules, game: str, state: Any, script: PhaseScript, seed: int,
          texts: Texts, seats: Seats, voting: Voting) -> tuple[Any, dict]:
    receipts: dict[str, list[dict]] = {}
    receipt_pms = []
    read: list[OrderPm] = []
    late_receipts: dict[str, list[dict]] = {}
    # the daemon's reading of each PM, on time or after the deadline (then answered, never an order);
    # its receipt shows each seat by the account holding it when the PM came
    for pm, too_late in [(pm, False) for pm in script.pms] + [(pm, True) for pm in script.late]:
        played = PlayedGame(rules, _shown(texts, seats, pm.at), game, game, seed, _no_link)
        answer = read_pm(played, state, script.phase, pm, [p for p in read if p.sender == pm.sender],
                         missed=script.phase.key if too_late else None,
                         # (the next phase opens on the scenario's synthetic day after this one)
                         next_opens=script.opens + timedelta(days=1))
        (late_receipts if too_late else receipts).setdefault(pm.sender, []).extend(v.as_json() for v in answer.verdicts)
        receipt_pms.append({"to": pm.sender, "kind": "receipt", "text": answer.receipt})
        if not too_late:
            read.append(pm)

    tally = None
    if script.votes is not None:
        vote_rules = vote_rules_for(rules.vote_rules(state, script.phase), voting.colors, voting.policy, script.opens)
        if vote_rules is None:
            raise ScenarioError(f"phases.{script.phase.key}", f"a {script.phase.kind} phase takes no thread votes")
        tally = count_votes(script.votes, seats.roster(script.deadline), vote_rules, script.deadline)

    # the phase's texts show each seat by who held it at its deadline, as the daemon's do
    played = PlayedGame(rules, _shown(texts, seats, script.deadline), game, game, seed, _no_link)
    play = play_phase(played, state, script.phase, PhaseInputs(orders=tuple(read), tally=tally))
    outcome = play.outcome
    result: dict[str, Any] = {
        "kind": script.phase.kind,
        "number": script.phase.number,
        "receipts": receipts,
        "eliminated": [e.as_json() for e in outcome.eliminated],
        "pms": receipt_pms + [pm.as_json() for pm in outcome.pms],
        "events": [e.as_json() for e in outcome.events],
        "reports": dict(outcome.reports),
    }
    if play.notices:
        result["notices"] = play.notices
    if script.strays:
        result["stray_pms"] = list(script.strays)
    if late_receipts:
        result["late_receipts"] = late_receipts
    if tally is not None:
        result["counted_votes"] = {v.voter: v.target for v in tally.counted}
        result["discarded_votes"] = [d.as_json() for d in tally.discarded]
        final = [d.body for d in play.drafts if d.kind == FINAL_KIND]
        if final:
            result["vote_count"] = final[0]
    result.update(outcome.extra)
    return outcome.state, result


def _shown(texts: Texts, seats: Seats, at: datetime) -> Texts:
    """The texts showing each seat by who held it at `at`, once the scenario replaced a seat; until
    then as the caller gave them (a proofreading run may show the seats by accounts of its own)."""
    return seats.showing(texts, at) if seats.holders() else texts


def _phase_script(table: Any, key: str, index: int, game: str, seats: Seats, rules: Rules,
                  state: Any, voting: Voting) -> PhaseScript:
    if not isinstance(table, Mapping):
        raise ScenarioError(key, "expected a table")
    _reject_unknown(table, PHASE_KEYS, key)
    kind = _require(table, "kind", str, key)
    number = _require(table, "number", int, key)
    _check_phase(game, kind, number, f"{key}.kind", _lowest(rules, state))
    start = _opens(index)
    clock = _Ticker(start)
    roster = seats.roster()

    pms: list[OrderPm] = []
    strays: list[dict] = []

    late: list[OrderPm] = []

    def received(account: str, text: str, where: str, too_late: bool = False) -> None:
        at = clock.next()
        nick = _sender(account, roster, at, where)
        if nick is None:
            strays.append({"from": account, "text": text})
        else:
            pm = OrderPm(nick, text, f"sim-{index}-{len(pms) + len(late)}", at, seats.names(at))
            (late if too_late else pms).append(pm)

    for sender, texts in _mapping(table, "orders", key).items():
        for text in _texts(texts, f"{key}.orders.{sender}"):
            received(sender, text, f"{key}.orders")
    for i, pm in enumerate(_list(table, "pms", key)):
        pm_key = f"{key}.pms[{i}]"
        _reject_unknown(pm, PM_KEYS, pm_key)
        too_late = pm.get("late", False)
        if too_late not in (True, False):
            raise ScenarioError(pm_key + ".late", f"expected true or false (got {too_late!r})")
        sender, text = _require(pm, "from", str, pm_key), _require(pm, "text", str, pm_key)
        # an engine without late verdicts (Rules' default) files such a PM into the next phase
        if too_late and rules.late_verdicts(OrderPm(sender, text)) is None:
            raise ScenarioError(pm_key + ".late", f"a {game} PM after a deadline is an order of the next phase: "
                                                  "list it there")
        received(sender, text, pm_key + ".from", too_late)

    votes = None
    if "votes" in table or "posts" in table:
        votes = _vote_versions(table, key, clock, voting)
    return PhaseScript(Phase(kind, number), tuple(pms), votes, start + timedelta(hours=12), start, tuple(strays),
                       tuple(late))


def _vote_versions(table: Mapping, key: str, clock: "_Ticker", voting: Voting) -> tuple[VotePostVersion, ...]:
    from forumgm.parsers.bbcode import to_phpbb_html
    from forumgm.parsers.forums.phpbb import post_body

    versions = []
    # a `votes` entry is the text a voter wrote in the vote colour: the game's own, when it sets one
    vote_color = normalize_color(voting.colors[0] if voting.colors else "blue")
    for voter, text in _mapping(table, "votes", key).items():
        if not isinstance(text, str):
            raise ScenarioError(f"{key}.votes.{voter}", "expected the voted text as a string")
        at = clock.next()
        fragment = ColoredFragment(vote_color, text.strip())
        versions.append(VotePostVersion(post_id=f"v{len(versions) + 1}", author=voter, posted_at=at,
                                        version_at=at, colored=(fragment,)))
    for i, post in enumerate(_list(table, "posts", key)):
        post_key = f"{key}.posts[{i}]"
        _reject_unknown(post, POST_KEYS, post_key)
        author = _require(post, "author", str, post_key)
        _text, _unquoted, colored, flagged = post_body(to_phpbb_html(_require(post, "bbcode", str, post_key)))
        at = clock.next()
        versions.append(VotePostVersion(post_id=f"p{len(versions) + 1}", author=author, posted_at=at,
                                        version_at=at, colored=tuple(colored), flagged=tuple(flagged)))
    return tuple(versions)


class _Ticker:
    """Strictly increasing synthetic times, one a minute."""

    def __init__(self, start: datetime) -> None:
        self._at = start

    def next(self) -> datetime:
        self._at += timedelta(minutes=1)
        return self._at


def _opens(index: int) -> datetime:
    return EPOCH + timedelta(days=index)


def _players(setup: Mapping) -> list[tuple[str, tuple[str, ...]]]:
    """The scenario's people: (nick, aliases) of `players` (arena: `fighters`)."""
    players = setup.get("players") or setup.get("fighters", [])
    if not isinstance(players, list):
        return []
    return [(player["nick"], tuple(player.get("aliases", []) or ())) for player in players
            if isinstance(player, Mapping) and isinstance(player.get("nick"), str)]


def _replacements(table: Any, key: str, seats: Seats, rules: Rules, state: Any, at: datetime) -> list[dict]:
    """The phase's `replace` (seat -> account) as the store's replacement rows, from the phase's
    opening on: refused as `forumgm replace` refuses it (no such seat, an account that is a player
    already, a seat out of the game)."""
    if not isinstance(table, Mapping) or "replace" not in table:
        return []
    given = _mapping(table, "replace", key)
    rows = []
    for name, account in given.items():
        where = f"{key}.replace.{name}"
        seat = seats.named(name)
        if seat is None:
            raise ScenarioError(where, f"{name!r} is not a player of this scenario")
        if not isinstance(account, str) or not account.strip() or seats.named(account) is not None:
            raise ScenarioError(where, f"expected the forum account taking the seat over, one that is not a player "
                                       f"already (got {account!r})")
        if seat not in rules.alive(state):
            raise ScenarioError(where, f"{seat} is out of the game: nobody can take a dead player's seat over")
        rows.append({"seat": seat, "old_nick": seats.holder(seat), "new_nick": account.strip(), "at": at})
    return rows


def _sender(account: str, roster: Roster, at: datetime, key: str) -> str | None:
    """The seat whose forum account sent a PM at `at`, exactly as the daemon takes it (account_player);
    None for an account merely named like a player (an alias, a look-alike spelling, an account that
    no longer or not yet holds a seat), whose PM is nobody's order. A name like no player at all is a
    mistake in the scenario."""
    nick = account_player(account, roster, at)
    if nick is None and not isinstance(resolve_name(account, roster), Resolved):
        raise ScenarioError(key, f"{account!r} is not a player of this scenario")
    return nick


def _player(text: str, roster: Roster, key: str) -> str:
    """The player a host names (check-orders' --from): by nick or alias, as in an order."""
    found = resolve_name(text, roster)
    if isinstance(found, Resolved):
        return found.nick
    raise ScenarioError(key, f"{text!r} is not a player of this scenario")


def _no_link(post_id: str) -> str | None:
    return None      # the lab's posts are on no forum


def _reject_unknown(table: Mapping, allowed: set[str], key: str) -> None:
    for name in table:
        if name not in allowed:
            where = f"{key}.{name}" if key else name
            raise ScenarioError(where, f"unknown key (expected one of {', '.join(sorted(allowed))})")


def _require(table: Mapping, name: str, kind: type, key: str) -> Any:
    where = f"{key}.{name}" if key else name
    if name not in table:
        raise ScenarioError(where, "required")
    value = table[name]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise ScenarioError(where, f"expected {kind.__name__} (got {value!r})")
    return value


def _mapping(table: Mapping, name: str, key: str) -> Mapping:
    value = table.get(name, {})
    if not isinstance(value, Mapping):
        raise ScenarioError(f"{key}.{name}", "expected a table")
    return value


def _list(table: Mapping, name: str, key: str) -> list:
    value = table.get(name, [])
    if not isinstance(value, list) or not all(isinstance(item, Mapping) for item in value):
        raise ScenarioError(f"{key}.{name}", "expected an array of tables")
    return value


def _texts(value: Any, key: str) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, list) and all(isinstance(item, str) for item in value):
        return list(value)
    raise ScenarioError(key, "expected an order text or a list of texts (one per PM)")
