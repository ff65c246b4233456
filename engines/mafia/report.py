"""Texts drafted from a round's events: the 23:00 report, its literary story, the commissar's
PM, warnings.

Rendered from events alone. Attempts that failed (a blocked actor, a healed or armoured
target, a mafia tie) are never shown: the rules keep them out of the report.
"""
from __future__ import annotations

from typing import Any, Iterable, Sequence

from forumgm.engines.base import Event, OutgoingPm, PhaseRng
from forumgm.engines.mafia.story import story
from forumgm.engines.phrases import Agreement, Picker, russian_key
from forumgm.engines.texts import Texts

REPORT = "mafia/report.j2"
LITERARY = "mafia/literary.j2"
CHECK = "mafia/check_result.j2"
WARNING = "mafia/warning.j2"


def _of(events: Iterable[Event], kind: str) -> list[dict]:
    return [dict(e.data) for e in events if e.type == kind]


def report_context(events: Sequence[Event], number: int) -> dict[str, Any]:
    votes = _of(events, "votes")
    survivors = _of(events, "survivors")[-1]
    no_jail = _of(events, "no_jail")
    winner = _of(events, "winner")
    return {
        "round": number,
        "votes": sorted(votes[0]["table"], key=lambda row: russian_key(row["voter"])) if votes else [],
        "jailed": next(iter(_of(events, "jailed")), None),
        "no_jail": no_jail[0]["reason"] if no_jail else None,
        "killed": _of(events, "killed"),
        "warnings": _of(events, "missed_vote_warning"),
        "missed_out": _of(events, "missed_votes_out"),
        "alive": survivors["alive"],
        "roles": survivors["roles"],
        "winner": winner[0]["side"] if winner else None,
        "night": not (winner and winner[0]["after"] == "day"),
        "rules_forced": bool(_of(events, "rules_forced")),
    }


def round_report(events: Sequence[Event], number: int, texts: Texts, agreement: Agreement | None = None) -> str:
    """`agreement`: the players' genders, which the jailed and killed lines agree with."""
    return texts.render(REPORT, **report_context(events, number), agreement=agreement)


def literary_report(events: Sequence[Event], number: int, texts: Texts, rng: PhaseRng,
                    agreement: Agreement | None = None) -> str:
    """The round told as the town's story; its phrases drawn with the phase's seeded stream, so
    re-running the round gives the same text."""
    agreement = agreement or Agreement()
    picker = Picker(rng.stream("literary"), agreement, rng.game())
    return texts.render(LITERARY, round=number, **story(events), picker=picker, agreement=agreement)


def round_pms(events: Sequence[Event], number: int, texts: Texts) -> list[OutgoingPm]:
    """The commissar's check result and the missed-vote warnings, one PM each."""
    pms = [OutgoingPm(check["by"], "check_result", texts.render(CHECK, round=number, **check),
                      subject=f"Проверка, ночь {number}")
           for check in _of(events, "checked")]
    pms += [OutgoingPm(warning["nick"], "warning", texts.render(WARNING, round=number, **warning),
                       subject="Предупреждение: нет дневного голоса")
            for warning in _of(events, "missed_vote_warning")]
    return pms
