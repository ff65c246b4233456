"""What a resolved phase produces besides the new state: first effective actions, the regime
switch, the winner, eliminations, PMs and the three reports — all derived from events."""
from __future__ import annotations

from dataclasses import replace
from typing import Mapping

from forumgm.engines.base import Elimination, Event, Outcome, OutgoingPm, Phase, PhaseRng, Tally
from forumgm.engines.legends.reports import render_reports
from forumgm.engines.legends.state import LegendsState
from forumgm.engines.phrases import Agreement

SPELL_RECEIPTS = {"spell_exchange", "spell_transfer", "spell_inherited"}


def mark_first_effective(game: LegendsState, events: list[Event]) -> tuple[LegendsState, list[Event]]:
    """The first effective action of each player in the game (rules §4), in processing order."""
    revealed, marked = set(game.revealed), []
    for event in events:
        first = [nick for nick in event.data.get("effective_for", ()) if nick not in revealed]
        revealed.update(first)
        marked.append(Event(event.type, {**event.data, "first_effective": first}) if first else event)
    return replace(game, revealed=frozenset(revealed)), marked


def winner(game: LegendsState) -> str | None:
    clans = {p.clan for p in game.living()}
    return game.table.clans[clans.pop()].name if len(clans) == 1 else None


def regime_and_victory(game: LegendsState) -> tuple[LegendsState, list[Event]]:
    """Rules §8: when nobody alive can be lynched the game goes continuous (the host is told).
    When the last players fall together the game ends with no winner."""
    if not game.living():
        return game, [Event("no_survivors", {})]
    events = []
    if not game.continuous and not any(game.lynchable(p.nick) for p in game.living()):
        game = replace(game, continuous=True)
        events.append(Event("continuous_regime", {}))
    clan = winner(game)
    if clan:
        events.append(Event("victory", {"clan": clan}))
    return game, events


def eliminations(events: list[Event]) -> tuple[Elimination, ...]:
    return tuple(Elimination(e.data["nick"], e.data["cause"]) for e in events if e.type == "killed") + tuple(
        Elimination(e.data["nick"], "lynch") for e in events if e.type == "lynched")


def phase_pms(game: LegendsState, events: list[Event], texts) -> tuple[OutgoingPm, ...]:
    pms = []
    for event in events:
        for nick in event.data.get("first_effective", ()):
            player = game.player(nick)
            pms.append(OutgoingPm(nick, "role_reveal", texts.render(
                "legends/pm_role_reveal.j2", nick=nick, role=player.role,
                clan=game.table.clans[player.clan].name, rank=game.table.ranks[player.rank].name)))
        if event.type == "spy" and event.data["effective"]:
            target = event.data["target"]
            pms.append(OutgoingPm(event.data["nick"], "spy_result", texts.render(
                "legends/pm_spy_result.j2", nick=event.data["nick"], target=target, role=game.player(target).role)))
        pms += [OutgoingPm(nick, "spell", texts.render("legends/pm_spell.j2", nick=nick, event=event.as_json(),
                                                       spell=spell, agreement=Agreement.of_players(game.players)))
                for nick, spell in _spell_receivers(event)]
    return tuple(pms)


def _spell_receivers(event: Event) -> list[tuple[str, str]]:
    data = event.data
    if event.type not in SPELL_RECEIPTS or not data.get("ok", True) or data.get("to", "") is None:
        return []
    if event.type == "spell_exchange":
        return [(data["nick"], data["take"]), (data["partner"], data["give"])]
    return [(data["to"], data["spell"])]


def finish(before: LegendsState, game: LegendsState, phase: Phase, events: list[Event], rng: PhaseRng,
           texts, tally: Tally | None = None, post_urls: Mapping[str, str] | None = None) -> Outcome:
    """`post_urls` (post id -> link, from the daemon) lets the lynch report link each vote to its post."""
    game, events = mark_first_effective(game, events)
    game, closing = regime_and_victory(game)
    events += closing
    lynched = next((e.data for e in events if e.type == "lynched"), None)
    verdict = next((e.data for e in events if e.type in ("lynched", "no_lynch")), {})
    extra = {
        "lynched": lynched["nick"] if lynched else None,
        "immune_leader": verdict.get("immune_leader"),
        "spells": dict(game.spells),
    }
    if tally is not None:
        extra["counted_votes"] = {vote.voter: vote.target for vote in tally.counted}
        extra["discarded_votes"] = [vote.as_json() for vote in tally.discarded]
    return Outcome(
        state=game, events=tuple(events), eliminated=eliminations(events), pms=phase_pms(game, events, texts),
        reports=render_reports(before, phase, events, tally, rng, texts, post_urls), extra=extra,
    )
