"""`forumgm verify ARCHIVE.json`: the archive of a finished game checked by anyone, without the
store and without the forum (docs/verify.md, «Как проверить игру»).

It recomputes every commitment from the revealed seed and salt and the rule table it seals, deals
the game again from the archived [setup], and replays every resolved phase from the archived inputs
with the archived seed: the verdict of each order line, the votes of a game that takes them by PM,
the outcome (events, eliminations, the state after it) and the rolls must all be the archived ones.
Each phase is replayed from the state the archive gives before it, so a difference is named where
it is, not in every phase after it. The engines are this forumgm's (the `forumgm.games` entry points).
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Mapping, Sequence

from forumgm.daemon.record.archive import FORMAT, PM, SETUP
from forumgm.daemon.record.commitment import commitment
from forumgm.daemon.settings.games import game_texts, game_types, rules_for
from forumgm.engines.base import (
    CountedVote, DiscardedVote, OrderPm, Phase, PhaseInputs, Rules, SetupFile, Tally, TracedSeed,
)

COMMITMENT, DEAL = "commitment", "deal"


@dataclass(frozen=True)
class Check:
    """One part of the archive checked: the commitments, the deal, or a phase (by its key)."""

    part: str
    name: str                       # as the players read it («ночь 1»)
    problems: tuple[str, ...] = ()

    @property
    def ok(self) -> bool:
        return not self.problems


class ArchiveError(ValueError):
    """The file is no archive this forumgm can check (another format, no revealed seed, an unknown game)."""


def verify(archive: Mapping[str, Any], expected: str | None = None) -> list[Check]:
    """Every check of the archive, in the game's order; ArchiveError when it cannot be replayed."""
    if archive.get("format") != FORMAT:
        raise ArchiveError(f"not a forumgm archive of format {FORMAT} (format: {archive.get('format')!r})")
    seed, salt = archive.get("seed"), archive.get("salt")
    if seed is None or salt is None:
        raise ArchiveError("the archive reveals no seed and salt: they are revealed when the game is over")
    game_type = archive["game"]["type"]
    if game_type not in game_types():
        raise ArchiveError(f"this forumgm has no {game_type} engine (it has: {', '.join(game_types())})")
    commitments = archive["commitments"]
    if not commitments:
        raise ArchiveError("the archive holds no commitment")
    checks = [_commitments(commitments, seed, salt, expected)]
    texts = game_texts()
    rules = rules_for(game_type, commitments[0]["rules"])
    checks.append(_deal(rules, archive, seed))
    state = rules.load(archive["deal"]["state"])
    later = {c["after_phase"]: c for c in commitments[1:]}
    if SETUP in later:
        rules, state = _accepted(game_type, later[SETUP], state)
    for entry in archive["phases"]:
        if entry["outcome"] is None:
            continue        # not resolved (yet): nothing to replay
        checks.append(_phase(rules, entry, state, seed, texts))
        state = rules.load(entry["outcome"]["state"])
        if entry["key"] in later:
            rules, state = _accepted(game_type, later[entry["key"]], state)
    return checks


def _accepted(game_type: str, sealed: Mapping[str, Any], state: Any) -> tuple[Rules, Any]:
    """The engine under a rule table the host accepted, and the state passed to it (as `rules accept` does)."""
    rules = rules_for(game_type, sealed["rules"])
    return rules, rules.with_rules(state)


def _commitments(commitments: Sequence[Mapping], seed: str, salt: str, expected: str | None) -> Check:
    problems = [f"commitment {c['digest']} (after {c['after_phase']}): seed, salt and rules give "
                f"{commitment(seed, salt, c['rules'])}" for c in commitments
                if commitment(seed, salt, c["rules"]) != c["digest"]]
    if expected is not None and expected.strip().lower() not in {c["digest"] for c in commitments}:
        problems.append(f"the commitment {expected} is none of the archive's "
                        f"({', '.join(c['digest'] for c in commitments)})")
    return Check(COMMITMENT, "отпечаток", tuple(problems))


def _deal(rules: Rules, archive: Mapping[str, Any], seed: str) -> Check:
    traced = TracedSeed(seed)
    state = rules.setup(_setup(rules, archive["setup"]), traced)
    problems = _differences("the dealt state", [plain(rules.dump(state))], [archive["deal"]["state"]])
    problems += _roll_differences(traced.draws, archive["deal"]["rolls"])
    return Check(DEAL, "раздача", tuple(problems))


def _setup(rules: Rules, setup: Mapping[str, Any]) -> dict:
    """The archived [setup] as the engine takes it: a file a setup key names, as its parsed content."""
    return {key: SetupFile(value["file"], value["data"], value["problem"])
            if key in rules.setup_files and isinstance(value, Mapping) else value for key, value in setup.items()}


def _phase(rules: Rules, entry: Mapping[str, Any], state: Any, seed: str, texts: Any) -> Check:
    phase = Phase(entry["kind"], entry["number"])
    inputs = entry["inputs"]
    orders = [OrderPm(o["seat"], o["text"], o["pm_id"], _moment(o["sent_at"]), tuple(map(tuple, o["seat_names"])))
              for o in inputs["orders"]]
    problems = _verdict_differences(rules, state, phase, orders, inputs["orders"])
    votes = inputs["votes"]
    tally = None
    if votes is not None and votes["cast"] == PM:
        problems += _pm_vote_differences(rules.pm_vote_tally(state, phase, orders), votes)
    elif votes is not None:
        tally = Tally(tuple(CountedVote(v["voter"], v["target"], v["post_id"], _moment(v["at"]), v["text"], v["entered_by"])
                            for v in votes["counted"]),
                      tuple(DiscardedVote(v["voter"], v["text"], v["reason"], v["post_id"], v["detail"])
                            for v in votes["not_counted"]))
    links = {v["post_id"]: v["post_url"] for v in (votes or {}).get("counted", []) + (votes or {}).get("not_counted", [])
             if v.get("post_url")}
    traced = TracedSeed(seed)
    outcome = rules.resolve(state, phase, PhaseInputs(tuple(orders), tally, links), traced, texts)
    archived = entry["outcome"]
    problems += _differences("event", plain([e.as_json() for e in outcome.events]), archived["events"])
    problems += _differences("elimination", plain([e.as_json() for e in outcome.eliminated]), archived["eliminated"])
    problems += _differences("the state after it", [plain(rules.dump(outcome.state))], [archived["state"]])
    problems += _roll_differences(traced.draws, entry["rolls"])
    return Check(entry["key"], entry["name"], tuple(problems))


def _verdict_differences(rules: Rules, state: Any, phase: Phase, orders: list[OrderPm],
                         archived: Sequence[Mapping]) -> list[str]:
    """Each order PM read again, as the daemon read it: with the same sender's earlier PMs of the phase."""
    problems = []
    for index, (pm, row) in enumerate(zip(orders, archived)):
        earlier = [o for o in orders[:index] if o.sender == pm.sender]
        if row["entered_by"]:       # the host's correction is read alone (host_actions/correct.py)
            earlier = []
        verdicts = plain([v.as_json() for v in rules.read_orders(state, phase, pm, earlier)])
        if verdicts != row["verdicts"]:
            problems.append(f"the orders of {pm.sender} (PM {pm.pm_id}) read again give {_short(verdicts)}, "
                            f"the archive says {_short(row['verdicts'])}")
    return problems


def _pm_vote_differences(tally: Tally | None, votes: Mapping[str, Any]) -> list[str]:
    counted = [[v.voter, v.target] for v in tally.counted] if tally else []
    archived = [[v["voter"], v["target"]] for v in votes["counted"]]
    if counted != archived:
        return [f"the votes counted from the orders are {_short(counted)}, the archive says {_short(archived)}"]
    discarded = [[v.voter, v.reason] for v in tally.discarded] if tally else []
    if discarded != [[v["voter"], v["reason"]] for v in votes["not_counted"]]:
        return [f"the votes not counted from the orders are {_short(discarded)}, the archive says "
                f"{_short([[v['voter'], v['reason']] for v in votes['not_counted']])}"]
    return []


def _differences(what: str, replayed: list, archived: list) -> list[str]:
    """The first item that differs (and a difference in number), as one line each."""
    problems = []
    for index, (ours, theirs) in enumerate(zip(replayed, archived)):
        if ours != theirs:
            where = f" {index + 1}" if len(replayed) > 1 or len(archived) > 1 or what in ("event", "elimination") else ""
            problems.append(f"{what}{where}: replayed {_short(ours)}, archived {_short(theirs)}")
            break
    if len(replayed) != len(archived):
        problems.append(f"{what}s: {len(replayed)} replayed, {len(archived)} archived")
    return problems


def _roll_differences(draws: list, archived: Sequence[Sequence] | None) -> list[str]:
    if archived is None:
        return ["the archive keeps no rolls for it"]
    for index, (ours, theirs) in enumerate(zip(draws, archived)):
        if list(ours) != list(theirs):
            return [f"roll {index + 1} ({ours[0]}): replayed {ours[2]} of 0..{ours[1] - 1}, archived "
                    f"{theirs[2]} of 0..{theirs[1] - 1} ({theirs[0]})"]
    if len(draws) != len(archived):
        return [f"rolls: {len(draws)} replayed, {len(archived)} archived"]
    return []


def plain(value: Any) -> Any:
    """A value as the archive's JSON keeps it."""
    return json.loads(json.dumps(value, ensure_ascii=False, default=str))


def _moment(text: str | None) -> datetime | None:
    return None if text is None else datetime.fromisoformat(text)


def _short(value: Any, limit: int = 300) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= limit else text[:limit] + "…"
