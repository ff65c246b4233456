"""Texts drafted from a step's events alone: the technical step log, the literary account for
the thread, the state summary, refill requests and forced reveals (PMs)."""
from __future__ import annotations

from typing import Any, Sequence

from forumgm.engines.arena.state import ArenaState
from forumgm.engines.base import Elimination, Event, Outcome, OutgoingPm, PhaseRng
from forumgm.engines.phrases import Agreement, Picker
from forumgm.engines.texts import Texts

TECHNICAL = "arena/technical.j2"
LITERARY = "arena/literary.j2"
SUMMARY = "arena/summary.j2"
REFILL = "arena/refill.j2"
REVEAL = "arena/reveal.j2"


def _of(events: Sequence[Event], kind: str) -> list[dict]:
    return [dict(e.data) for e in events if e.type == kind]


def context(events: Sequence[Event], number: int, rows: list[dict], game: ArenaState, rng: PhaseRng) -> dict[str, Any]:
    """What the templates see: the step's events (and the table's names of the actions), the
    fighters' genders, and a seeded picker for the commentary's phrases."""
    summary = _of(events, "summary")[-1]
    agreement = Agreement.of_players(game.fighters)
    return {
        "agreement": agreement,
        "picker": Picker.seeded(rng, agreement),
        "step": number,
        "events": [e.as_json() for e in events],
        "rows": rows,
        "stacks": _of(events, "stack"),
        "card_rests": _of(events, "card_rest"),
        "replacements": _of(events, "replacement"),
        "fighters": summary["fighters"],
        "distances": summary["distances"],
        "result": summary["result"],
        "actions": {code: name for code, (name, _) in game.table.actions.items()},
    }


def outcome(before: ArenaState, game: ArenaState, number: int, events: list[Event], rows: list[dict],
            texts: Texts, deadline: str | None, rng: PhaseRng) -> Outcome:
    ctx = context(events, number, rows, game, rng)
    pms = [OutgoingPm(r["nick"], "refill", texts.render(REFILL, step=number, deadline=deadline, **r),
                      subject=f"Арена: пополните стопки после шага {number}")
           for r in _of(events, "refill_request")]
    pms += [OutgoingPm(r["to"], "reveal", texts.render(REVEAL, step=number, **r),
                       subject=f"Арена: карты соперника перед шагом {number + 1}")
            for r in _of(events, "forced_reveal")]
    out_before = {f.nick for f in before.fighters if f.out}
    return Outcome(
        state=game,
        events=tuple(events),
        eliminated=tuple(Elimination(f.nick, f.out) for f in game.fighters if f.out and f.nick not in out_before),
        pms=tuple(pms),
        # step 0 (stacks laid down, nothing played) has nothing to narrate in the thread
        reports={"technical": texts.render(TECHNICAL, **ctx),
                 "literary": texts.render(LITERARY, **ctx) if number else None,
                 "summary": texts.render(SUMMARY, **ctx)},
        extra={"steps": rows, "result": game.result},
    )
