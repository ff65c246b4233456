"""A phase of Arena is one step: the stacks, refills and replacements of its PMs are laid
down, the step table runs, and what the next step needs is drafted (refill requests, forced
reveals). Step 0, when there is one, plays no card: it exists so step 1's cards can be revealed. After a surrender the winner's started sequences are played out («доигрываются»)."""
from __future__ import annotations

from dataclasses import replace
from typing import Sequence

from forumgm.engines.arena.cards import stack_text
from forumgm.engines.arena.dice import Dice
from forumgm.engines.arena.fight import STEP, StepState, distance, pairs
from forumgm.engines.arena.orders import apply_orders, collect
from forumgm.engines.arena.state import ArenaState
from forumgm.engines.base import Event, OrderPm, PhaseRng, run_steps

PLAYOUT_LIMIT = 10      # a started sequence is at most 7 cards; the limit only guards bad tables


def _run(game: ArenaState, number: int, dice: Dice, rng: PhaseRng, forced_rest: tuple[str, ...] = ()):
    ss = StepState(game=game, number=number, dice=dice, forced_rest=forced_rest)
    start = len(dice.rolls)
    ss, events = run_steps(STEP, ss, None, rng)
    reveal = next(e for e in events if e.type == "reveal")
    row = {"step": number, "actions": reveal.data["cards"], "rolls": dice.rolls[start:], "hits": list(ss.hits)}
    if forced_rest:
        row["playout"] = True
    game = ss.game
    ripostes = {}
    for nick, hand, lunger in ss.ripostes:
        ripostes.setdefault(nick, []).append((hand, lunger))
    game = replace(game, fighters=tuple(replace(f, riposte=tuple(ripostes.get(f.nick, ()))) for f in game.fighters))
    return game, events, row


def _playout(game: ArenaState, number: int, dice: Dice, rng: PhaseRng):
    """The surrendered fighter only rests while the winner finishes his started sequences."""
    events, rows = [], []
    result = game.result or {}
    winner = result.get("winner")
    if result.get("kind") != "сдача" or winner is None:
        return game, events, rows
    loser = result["loser"]
    for extra in range(1, PLAYOUT_LIMIT + 1):
        fighter = game.fighter(winner)
        if not any(fighter.stack(h) and not fighter.stack(h)[0].first for h in fighter.active_hands()):
            break
        game, produced, row = _run(game, number, dice, rng.for_step("playout", extra), (loser,))
        events += produced
        rows.append(row)
    return game, events, rows


def reveals_before_first_step(game: ArenaState) -> bool:
    """A lower attack rating shows upcoming cards, step 1's too: then the fight opens with step 0,
    where the stacks are laid down and the reveal goes out before any card is played."""
    return game.step == 0 and len({f.attack_rating for f in game.fighters}) > 1


def _forced_reveals(game: ArenaState) -> list[Event]:
    """Each fighter with a lower attack rating shows (the difference) upcoming cards of each stack."""
    events = []
    for fighter in game.in_fight():
        for other in game.in_fight():
            shown = other.attack_rating - fighter.attack_rating
            if other.nick == fighter.nick or shown <= 0:
                continue
            cards = {hand: stack_text(fighter.stack(hand)[:shown], game.table) for hand in fighter.active_hands()}
            events.append(Event("forced_reveal", {"nick": fighter.nick, "to": other.nick, "count": shown,
                                                  "cards": cards}))
    return events


def _after_step(game: ArenaState) -> tuple[ArenaState, list[Event]]:
    """Refill requests (the stack shrank by stack size − speed rating) and forced reveals."""
    table, events = game.table, []
    if game.result is not None:
        return game, events
    for fighter in game.in_fight():
        due = table.stack_size - fighter.speed_rating
        if due >= 1 and fighter.played >= due:
            game = game.put(replace(fighter, refill_due=due, played=0))
            events.append(Event("refill_request", {"nick": fighter.nick, "cards": due,
                                                   "hands": list(fighter.active_hands())}))
    return game, events + _forced_reveals(game)


def summary(game: ArenaState) -> Event:
    table = game.table
    fighters = []
    for f in game.fighters:
        fighters.append({
            "nick": f.nick, "weapon": f.weapon, "left": f.left, "helmet": f.helmet,
            "attack_dice": f.attack_dice, "defense_dice": f.defense_dice, "move_dice": f.move_dice,
            "position": [f.x, f.y], "facing": f.facing,
            "wounds": [{"zone": w.zone, "level": w.level, "name": table.wound_levels[w.level - 1], "step": w.step}
                       for w in f.wounds],
            "stacks": {hand: stack_text(f.stack(hand), table) for hand in f.active_hands()},
            "cards_left": {hand: len(f.stack(hand)) for hand in f.active_hands()},
            "removed": list(f.removed), "severed": list(f.severed),
            "helmet_damage": f.helmet_damage, "shield_damage": f.shield_damage, "out": f.out,
        })
    distances = [{"between": [a.nick, b.nick], "distance": distance(a, b)} for a, b in pairs(game.in_fight())]
    return Event("summary", {"step": game.step, "fighters": fighters, "distances": distances, "result": game.result})


def resolve_step(state: ArenaState, number: int, pms: Sequence[OrderPm], rng: PhaseRng):
    """(new state, events, steps rows) of one step; step 0 only lays the stacks down and reveals."""
    game, events, _notes = apply_orders(state, collect(state, pms))
    if number == 0:
        return game, events + _forced_reveals(game) + [summary(game)], []
    dice = Dice(game.dice, rng, game.table.dice_sides)
    game, produced, row = _run(game, number, dice, rng.for_step("step"))
    events += produced
    rows = [row]
    game, produced, extra = _playout(game, number, dice, rng)
    events += produced
    rows += extra
    game = replace(game, step=number, dice=dice.left())
    game, produced = _after_step(game)
    events += produced
    return game, events + [summary(game)], rows

