"""One phase played from its inputs: the pure core that the daemon's resolution and `forumgm simulate` share.

Everything here is a function of its arguments (no store, no forum, no clock: the inputs carry
their times), so the lab and the daemon cannot drift apart: the same reading of each order PM
(verdicts, the receipt, where it is filed: on time, too late, before the game opened), the same
vote counting with the game's colour overrides, the same resolution and the same drafts-to-be.
The daemon then stores what it returns and makes its drafts (forumgm.daemon.drafts.compose);
simulate prints it.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from datetime import datetime, timezone, tzinfo
from typing import Any, Callable, Iterable, Sequence

from forumgm.daemon.settings.local_time import shown
from forumgm.daemon.tick.late import LATE_TEMPLATE, NOT_STARTED, NOT_STARTED_TEMPLATE, early_key, late_key
from forumgm.daemon.tick.notices import KIND as NOTICE_KIND, host_notices
from forumgm.engines.base import OrderPm, Outcome, Phase, PhaseInputs, Rejected, Rules, Tally, Verdict, split_lines
from forumgm.engines.receipts import receipt_template, receipt_text
from forumgm.engines.tally import VoteRules
from forumgm.engines.texts import Texts
from forumgm.engines.votecount import vote_count_text
from forumgm.parsers.colors import normalize_color

FINAL_KIND = "vote_count_final"


def vote_rules_for(rules: VoteRules | None, vote_colors: Iterable[str], vote_policy: str | None,
                   opens: Any) -> VoteRules | None:
    """The engine's counting rules for a phase with the game config's overrides: its `vote_colors`
    and `vote_policy` win over the rule table's; the phase's opening bounds the votes when the
    engine names none."""
    if rules is None:
        return None
    colors = frozenset(filter(None, (normalize_color(c) for c in vote_colors)))
    return dataclasses.replace(rules, colors=colors or rules.colors, policy=vote_policy or rules.policy,
                               opens=rules.opens or opens)


@dataclass(frozen=True)
class DraftToBe:
    """A draft the resolution makes: the daemon composes it with [approval]; simulate lists it."""

    kind: str
    target: str
    body: str
    subject: str = ""
    report: bool = False       # a phase report: the first one carries the drawn maps


@dataclass(frozen=True)
class PhasePlay:
    outcome: Outcome
    drafts: tuple[DraftToBe, ...]

    @property
    def notices(self) -> list[str]:
        return [d.body for d in self.drafts if d.kind == NOTICE_KIND]


@dataclass(frozen=True)
class PlayedGame:
    """What of a game its phase's play reads: the engine, the texts, which game and its seed."""

    rules: Rules
    texts: Texts
    type: str
    id: str
    seed: int | str           # a TracedSeed in the daemon: the phase's rolls are kept with it
    post_url: Callable[[str], str | None]     # a thread post's link for the vote counts (None: none)
    time_zone: tzinfo = timezone.utc           # the game's clock as its players read it


@dataclass(frozen=True)
class ReadPm:
    """An order PM read: the phase it answers, the key it is filed under (the phase's own, or its
    late or early key, which no resolution reads), the verdict of each line and the receipt."""

    phase_key: str
    filed_as: str
    verdicts: tuple[Verdict, ...]
    receipt: str


def read_pm(game: PlayedGame, state: Any, phase: Phase, pm: OrderPm, earlier: Sequence[OrderPm],
            missed: str | None = None, opens: datetime | None = None,
            next_opens: datetime | None = None) -> ReadPm:
    """The PM read for the open `phase`, after the sender's `earlier` PMs of it. As the edge timed it:
    `opens` when it came after the deal and before the first phase opened (then), answered and never an
    order; `missed` the key of the phase whose deadline it came after before `phase` opened (at
    `next_opens`), answered as too late where the engine gives late verdicts, with when to write again
    (and read for `phase` where it gives none)."""
    if opens is not None:
        verdicts = [Rejected(line, NOT_STARTED) for line in split_lines(pm.text)]
        return ReadPm(phase.key, early_key(phase.key), tuple(verdicts),
                      receipt_text(game.type, pm.sender, verdicts, game.texts, NOT_STARTED_TEMPLATE,
                                   opens=shown(opens, game.time_zone)))
    late = None if missed is None else game.rules.late_verdicts(pm)
    if late is not None:
        template = receipt_template(game.type, game.texts, LATE_TEMPLATE)
        return ReadPm(missed, late_key(missed), tuple(late),
                      receipt_text(game.type, pm.sender, late, game.texts, template,
                                   opens=shown(next_opens, game.time_zone)))
    verdicts = game.rules.read_orders(state, phase, pm, earlier)
    return ReadPm(phase.key, phase.key, tuple(verdicts), receipt_text(game.type, pm.sender, verdicts, game.texts))


def play_phase(game: PlayedGame, state: Any, phase: Phase, inputs: PhaseInputs) -> PhasePlay:
    """Resolve the phase and list its drafts: the reports, the engine's PMs, the host's notices
    about the game's turns, and the final vote count when no report of the phase tells the votes.
    """
    outcome = game.rules.resolve(state, phase, inputs, game.seed, game.texts)
    drafts = [DraftToBe(f"{name}_report", "thread", body, report=True)
              for name, body in outcome.reports.items() if body]
    drafts += [DraftToBe(pm.kind, pm.to, pm.text, pm.subject) for pm in outcome.pms]
    # for the host's eyes first ([approval] cannot name it)
    drafts += [DraftToBe(NOTICE_KIND, "thread", body) for body in host_notices(game.type, game.id, game.texts, outcome.events)]
    # a phase report of its own tells the counted votes (Legends' lynch report, Mafia's round
    # report): the day ends in that one post, not in two near-identical ones
    if inputs.tally is not None and not any(outcome.reports.values()):
        drafts.append(DraftToBe(FINAL_KIND, "thread",
                                final_count(game, state, phase, inputs.tally)))
    return PhasePlay(outcome, tuple(drafts))


def final_count(game: PlayedGame, state: Any, phase: Phase, tally: Tally) -> str:
    """The day's final vote count as posted, from the tally and who was alive when it closed."""
    return vote_count_text(game.texts, tally, game.rules.alive(state), game.post_url, final=True, day=phase.number)
