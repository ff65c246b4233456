"""One phase played from its inputs: the pure core that the daemon's resolution and `forumgm simulate` share.

Everything here is a function of its arguments (no store, no forum, no clock: the inputs carry
their times), so the lab and the daemon cannot drift apart: the same verdicts, the same vote
counting with the game's colour overrides, the same resolution and the same drafts-to-be. The
daemon then stores what it returns and makes its drafts (forumgm.daemon.drafts.compose); simulate
prints it.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, Callable, Iterable

from forumgm.daemon.tick.notices import KIND as NOTICE_KIND, host_notices
from forumgm.engines.base import Outcome, Phase, PhaseInputs, Rules, Tally
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
