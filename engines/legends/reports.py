"""The three Legends reports, rendered from a phase's events with the host's templates."""
from __future__ import annotations

from typing import Mapping

from forumgm.engines.base import Event, Phase, PhaseRng, Tally
from forumgm.engines.legends.highlights import closings, highlights
from forumgm.engines.legends.state import LegendsState
from forumgm.engines.phrases import Agreement, Picker, russian_sorted
from forumgm.engines.votecount import discard_voter
from forumgm.parsers.orders.legends import SKILL_NAMES



def render_reports(before: LegendsState, phase: Phase, events: list[Event], tally: Tally | None,
                   rng: PhaseRng, texts, post_urls: Mapping[str, str] | None = None) -> dict[str, str | None]:
    agreement = Agreement.of_players(before.players)
    if phase.kind == "night":
        return {"technical": technical(phase, events, texts, agreement),
                "literary": literary(phase, events, rng, texts, agreement), "lynch": None}
    return {"technical": None, "literary": None,
            "lynch": lynch(before, phase, events, tally, texts, post_urls, agreement)}


def technical(phase: Phase, events: list[Event], texts, agreement: Agreement | None = None) -> str:
    return texts.render("legends/technical.j2", night=phase.number, events=[e.as_json() for e in events],
                        skills=SKILL_NAMES, agreement=agreement)


def literary(phase: Phase, events: list[Event], rng: PhaseRng, texts, agreement: Agreement | None = None) -> str:
    """The night's highlights told in the setting; the template draws its phrases with a seeded
    picker, so re-running the night gives the same text."""
    agreement = agreement or Agreement()
    picker = Picker.seeded(rng, agreement)
    told = [{**h, "skill": SKILL_NAMES[h["skill"]]} if "skill" in h else
            {**h, "spells": [f"«{spell}»" for spell in h["spells"]]} if "spells" in h else h for h in highlights(events)]
    return texts.render("legends/literary.j2", night=phase.number, highlights=told,
                        closings=closings(events), skills=SKILL_NAMES, picker=picker, agreement=agreement)


def lynch(before: LegendsState, phase: Phase, events: list[Event], tally: Tally | None, texts,
          post_urls: Mapping[str, str] | None = None, agreement: Agreement | None = None) -> str:
    """Each vote links to its post when `post_urls` knows it (else the post id is shown)."""
    urls = post_urls or {}
    rows = []
    for target, votes in (tally.by_target() if tally else {}).items():
        rows.append({"target": target, "voters": [{"voter": v.voter, "post_id": v.post_id, "url": urls.get(v.post_id),
                                                   "corrected": v.entered_by is not None} for v in votes]})
    rows.sort(key=lambda row: -len(row["voters"]))
    verdict = next((e.as_json() for e in events if e.type in ("lynched", "no_lynch", "no_lynch_day")), {})
    voted = {vote.voter for vote in tally.counted} if tally else set()
    not_voted = russian_sorted(p.nick for p in before.living() if p.nick not in voted)
    return texts.render("legends/lynch.j2", day=phase.number, rows=rows,
                        discarded=[{**d.as_json(), "voter": discard_voter(d), "detail": d.detail,
                                    "url": urls.get(d.post_id)}
                                   for d in (tally.discarded if tally else ())],
                        verdict=verdict, closing=[e.as_json() for e in events
                                                  if e.type in ("continuous_regime", "victory", "no_survivors")],
                        first_lynch_day=before.table.first_lynch_day, agreement=agreement, not_voted=not_voted)
