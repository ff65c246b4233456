"""The turn report (a literary summary and the technical list) and each player's PM, rendered
from the turn's events and the state after it.

Each event's line is rendered once (bellum/lines.j2) and shared by the technical report and
every PM that mentions it: with some fifty players a turn, rendering per PM would cost more
than resolving the turn.
"""
from __future__ import annotations

from typing import Any, Sequence

from markupsafe import Markup

from forumgm.engines.base import Event, OutgoingPm, PhaseRng
from forumgm.engines.bellum.authority import authority_table
from forumgm.engines.bellum.chronicle import chronicle
from forumgm.engines.bellum.state import BellumState
from forumgm.engines.phrases import Agreement, Name, Picker, russian_key
from forumgm.engines.texts import Texts
from forumgm.parsers.declension import is_plural
from forumgm.parsers.orders.bellum import inflect

LINES = "bellum/lines.j2"
LITERARY = "bellum/literary.j2"
TECHNICAL = "bellum/technical.j2"
PLAYER = "bellum/pm_turn.j2"
SEP = "\x1e"

SECTIONS = (
    ("События", ("host_event",)),
    ("Ассимиляция", ("assimilated", "assimilation_failed")),
    ("Королевства и провинции", ("kingdom", "kingdom_failed", "independence", "independence_failed", "annexed",
                                 "annex_failed", "abandoned", "abandon_failed")),
    ("Перемещения", ("moved", "move_void")),
    ("Бои", ("battle", "battle_losses")),
    ("Отступления", ("fell_back", "retreated", "retreat_lost", "held", "captured")),
    ("Племена", ("subjugated", "not_subjugated", "freed", "split")),
    ("Государства", ("capital_lost", "secession")),
)
# Faction ids an event is about (who reads of it in his PM).
_ABOUT = ("faction", "state", "tribe", "master", "target", "new")


class Place(Name):
    """A province's or region's name in a chronicle phrase («в {province:loct}» → «в Паннонии»)."""

    def __format__(self, spec: str) -> str:
        return inflect(str(self), spec) if spec else str(self)


class People(Name):
    """A faction's name in a chronicle phrase («{losers:accs}» → «вандалов»)."""

    def __format__(self, spec: str) -> str:
        return inflect(str(self), spec, place=False) if spec else str(self)


_PLACES = {"province": "P", "origin": "P", "dest": "P", "capital": "P", "region": "R"}
_PEOPLES = ("winners", "losers", "faction", "tribe", "master", "state", "new")


class TurnTexts:
    """The names, the event lines and the authority table of one resolved turn."""

    def __init__(self, state: BellumState, events: Sequence[Event], number: int, texts: Texts,
                 rng: PhaseRng) -> None:
        self.state, self.number, self.texts, self.rng = state, number, texts, rng
        self.events = [{"type": e.type, **e.data} for e in events]
        self.names = {
            "P": {p.id: p.name for p in state.world.provinces.values()},
            "R": {r.id: r.name for r in state.world.regions.values()},
            "F": {f.id: f.name for f in state.factions.values()},
        }
        rendered = texts.render(LINES, events=self.events, sep=SEP, **self.names).split(SEP)
        # the lines are escaped already: marked safe so that the reports do not escape them twice
        self.lines = [Markup(line.strip()) for line in rendered[:len(self.events)]]
        self.authority = authority_table(state)
        section_of = {kind: index for index, (_, kinds) in enumerate(SECTIONS) for kind in kinds}
        self._placed = [(section_of.get(e["type"]), _about(e), line) for e, line in zip(self.events, self.lines)]

    def context(self) -> dict[str, Any]:
        state = self.state
        return {
            "turn": self.number,
            "year": state.year(self.number),
            **self.names,
            "authority": self.authority,
            "years": state.rules.years_per_turn,
            "at": lambda name: inflect(name, "loct"),
            "of": lambda name, case: inflect(name, case, place=False),
            "verb": lambda ids, one, many: many if len(ids) > 1 or is_plural(state.factions[ids[0]].name) else one,
            # the texts' subjects are states and peoples, which agree as their names do; a template
            # naming a player agrees with the gender given on his [[players]] entry
            "agreement": Agreement.given({f.player: f.player_gender for f in state.factions.values() if f.player}),
        }

    def of(self, *kinds: str) -> list[dict[str, Any]]:
        return [e for e in self.events if e["type"] in kinds]

    def sections(self, about: set[str] | None = None) -> list[tuple[str, list[Markup]]]:
        """The report's sections with their lines; only the lines about `about` when given."""
        buckets: list[list[Markup]] = [[] for _ in SECTIONS]
        for section, concerned, line in self._placed:
            if section is not None and line and (about is None or concerned & about):
                buckets[section].append(line)
        return [(title, lines) for (title, _), lines in zip(SECTIONS, buckets) if lines]

    def told(self) -> list[dict[str, Any]]:
        """The chronicle's happenings with their names ready for the phrases: places and peoples
        decline as such; `nick`, the phrase's subject, is whoever acts."""
        out = []
        for h in chronicle(self.state, self.events):
            item = dict(h)
            for key, kind in _PLACES.items():
                if key in h:
                    item[key] = Place(self.names[kind][h[key]])
            for key in _PEOPLES:
                if isinstance(h.get(key), list):
                    item[key] = [People(self.names["F"][f]) for f in h[key]]
                elif key in h:
                    item[key] = People(self.names["F"][h[key]])
            item["nick"] = next(item[key] for key in ("winners", "tribe", "state", "faction") if key in item)
            out.append(item)
        return out


def _about(event: dict[str, Any]) -> set[str]:
    found = {event.get(key) for key in _ABOUT}
    if event["type"] == "battle":
        found |= {m for side in event["sides"] for m in side["members"]}
    return found


def turn_reports(turn: TurnTexts) -> dict[str, str]:
    context = turn.context()
    picker = Picker.seeded(turn.rng, context["agreement"])
    literary = turn.texts.render(LITERARY, told=turn.told(), picker=picker, **context)
    return {"literary": literary, "technical": turn.texts.render(TECHNICAL, sections=turn.sections(), **context)}


def player_pms(turn: TurnTexts) -> list[OutgoingPm]:
    """Each player's own situation after the turn: his factions' people and provinces, his
    authority, and every event that touched them."""
    state, context = turn.state, turn.context()
    pms = []
    for nick in state.players():
        mine = set(state.controlled_by(nick)) | {state.own_faction(nick)}
        # provinces as players read them: by name in Russian alphabetical order, not by id
        by_name = lambda ids: sorted(ids, key=lambda p: russian_key(turn.names["P"][p]))      # noqa: E731
        factions = [{"id": f, "people": {p: state.count(p, f) for p in by_name(state.provinces_of(f))},
                     "owned": by_name(state.owned_by(f)), "captured": state.factions[f].captured,
                     "master": state.factions[f].master, "authority": turn.authority.get(f)}
                    for f in sorted(mine)]
        text = turn.texts.render(PLAYER, nick=nick, factions=factions, sections=turn.sections(mine), **context)
        pms.append(OutgoingPm(nick, "turn_pm", text, subject=f"Bellum: итоги хода {turn.number} ({context['year']} г.)"))
    return pms
