"""The three Legends reports, rendered from a phase's events with the host's templates."""
from __future__ import annotations

from typing import Mapping

from forumgm.engines.base import Event, Phase, PhaseRng, Tally
from forumgm.engines.legends.state import LegendsState
from forumgm.parsers.orders.legends import SKILL_NAMES

# Event types the literary report tells (never who spied, never a living player's role).
LITERARY = ("killed", "defense_held", "spy", "spell_cast", "continuous_regime", "victory", "no_survivors")
VARIANTS = 1_000_000


def render_reports(before: LegendsState, phase: Phase, events: list[Event], tally: Tally | None,
                   rng: PhaseRng, texts, post_urls: Mapping[str, str] | None = None) -> dict[str, str | None]:
    if phase.kind == "night":
        return {"technical": technical(phase, events, texts), "literary": literary(phase, events, rng, texts),
                "lynch": None}
    return {"technical": None, "literary": None, "lynch": lynch(before, phase, events, tally, texts, post_urls)}


def technical(phase: Phase, events: list[Event], texts) -> str:
    return texts.render("legends/technical.j2", night=phase.number, events=[e.as_json() for e in events],
                        skills=SKILL_NAMES)


def literary(phase: Phase, events: list[Event], rng: PhaseRng, texts) -> str:
    """Each told event gets a seeded variant number; the template picks its phrasing with it."""
    stream = rng.stream("literary")
    items = [{"type": e.type, "data": _public(e), "variant": stream.randrange(VARIANTS)} for e in _told(events)]
    return texts.render("legends/literary.j2", night=phase.number, items=items,
                        opening=stream.randrange(VARIANTS))


def _told(events: list[Event]) -> list[Event]:
    """What the literary report tells: successes only, and a secret that leaked to two spies once."""
    told, spied = [], set()
    for event in events:
        if event.type not in LITERARY or not event.data.get("ok", True):
            continue
        if event.type == "spy":
            if not event.data["effective"] or event.data["target"] in spied:
                continue
            spied.add(event.data["target"])
        told.append(event)
    return told


def _public(event: Event) -> dict:
    """Only what the literary report may tell: who fell or held out, whose secrets leaked."""
    keep = {"killed": ("nick",), "defense_held": ("nick",), "spy": ("target",), "victory": ("clan",)}
    return {key: event.data[key] for key in keep.get(event.type, ())}


def lynch(before: LegendsState, phase: Phase, events: list[Event], tally: Tally | None, texts,
          post_urls: Mapping[str, str] | None = None) -> str:
    """Each vote links to its post when `post_urls` knows it (else the post id is shown)."""
    urls = post_urls or {}
    rows = []
    for target, votes in (tally.by_target() if tally else {}).items():
        rows.append({"target": target, "voters": [{"voter": v.voter, "post_id": v.post_id, "url": urls.get(v.post_id),
                                                   "corrected": v.entered_by is not None} for v in votes]})
    rows.sort(key=lambda row: -len(row["voters"]))
    verdict = next((e.as_json() for e in events if e.type in ("lynched", "no_lynch", "no_lynch_day")), {})
    return texts.render("legends/lynch.j2", day=phase.number, rows=rows,
                        discarded=[{**d.as_json(), "detail": d.detail, "url": urls.get(d.post_id)}
                                   for d in (tally.discarded if tally else ())],
                        verdict=verdict, closing=[e.as_json() for e in events
                                                  if e.type in ("continuous_regime", "victory", "no_survivors")],
                        first_lynch_day=before.table.first_lynch_day)
