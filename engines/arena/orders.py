"""Stacks, refills and replacements from PMs: read for the receipt, applied before a step.

The receipt and the resolution use the same functions on the same state, so a receipt says
exactly which cards became rests and why (an invalid card, a clash of hands and legs, a
rating's or a wound's rest, a missing refill).
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Iterable, Sequence

from forumgm.engines.arena.cards import (BETWEEN, HAND_NAMES, REST, Note, build, insert_rests, rest, rests_after,
                                         stack_text, validate)
from forumgm.engines.arena.state import ArenaState, Card, Fighter
from forumgm.engines.arena.table import HANDS
from forumgm.engines.base import Accepted, Event, OrderPm, Rejected, Verdict
from forumgm.parsers.names import Roster
from forumgm.parsers.orders.arena import Item, StackLine, parse_orders


@dataclass(frozen=True)
class FighterOrders:
    stacks: dict[str, StackLine]               # hand -> the last stack line for it
    replacements: dict[str, StackLine]         # hand -> the last replacement for it


def roster(state: ArenaState) -> Roster:
    """The fighters' names (and the game's aliases for them) that a card may name as its target."""
    return Roster(tuple(f.nick for f in state.fighters), {alias: f.nick for f in state.fighters for alias in f.aliases})


def _lines(state: ArenaState, pms: Iterable[OrderPm], nick: str) -> tuple[FighterOrders, list[list[Verdict]]]:
    vocab, names = state.table.vocabulary, roster(state)
    stacks: dict[str, StackLine] = {}
    replacements: dict[str, StackLine] = {}
    per_pm = []
    for pm in pms:
        if pm.sender != nick:
            continue
        verdicts = []
        # a replaced fighter by the account holding him then, too
        for verdict in parse_orders(pm.text, vocab, names.also_named(pm.seat_names)):
            if verdict.ok:
                refusal = _refusal(state, state.fighter(nick), verdict.order)
                if refusal:
                    verdict = Rejected(verdict.line, refusal)
                else:
                    (replacements if verdict.order.replacement else stacks)[verdict.order.hand] = verdict.order
            verdicts.append(verdict)
        per_pm.append(verdicts)
    return FighterOrders(stacks, replacements), per_pm


def _refusal(state: ArenaState, fighter: Fighter, line: StackLine) -> str | None:
    if state.result is not None:
        return "бой окончен"
    if fighter.out:
        return f"вы выбыли из боя ({fighter.out})"
    aim = next(filter(None, (_aim_problem(state, fighter, item) for item in line.items)), None)
    if aim:
        return aim
    if line.hand in fighter.removed:
        return f"стопки «{HAND_NAMES[line.hand]}» больше нет (ранение)"
    if line.replacement:
        return None
    if fighter.sent and not fighter.refill_due:
        return "стопки уже выложены, а пополнение не запрошено"
    return None


def _aim_problem(state: ArenaState, fighter: Fighter, item: Item) -> str | None:
    """Whom the item aims at: a named opponent still in the fight; no name is the only opponent,
    and an attack must name one while there are more (a defense then guards against them all;
    a parry's riposte goes at the one whose lunge it stopped)."""
    table = state.table
    opponents = [f.nick for f in state.opponents(fighter.nick)]
    codes = (item.code,) if item.code else tuple(c.strip("()") for c in table.sequences[item.sequence].cards)
    if item.target == fighter.nick:
        return "нельзя целить в самого себя"
    if item.target is not None and item.target not in opponents:
        return f"{item.target} уже вне боя"
    aims = any(table.kind(code) == "attack" and code != table.riposte for code in codes)
    if item.target is None and aims and len(opponents) > 1:
        return (f"против кого? В бою несколько соперников ({', '.join(opponents)}): назовите одного в скобках, "
                f"например «(голова, {opponents[0]})»")
    return None


def collect(state: ArenaState, pms: Sequence[OrderPm]) -> dict[str, FighterOrders]:
    return {f.nick: _lines(state, pms, f.nick)[0] for f in state.fighters}


# ---------------------------------------------------------------- applying them

def _fill(state: ArenaState, fighter: Fighter, hand: str, line: StackLine | None, size: int) -> tuple[Fighter, list[Note], str]:
    table = state.table
    stack = fighter.stack(hand)
    carry = stack[-1] if stack else None
    after_rest = carry is None or (carry.code == REST and not carry.ahead)
    if line is None:
        kind = "missed" if fighter.sent else "none"
        cards, notes = [rest("refill_missed" if fighter.sent else "not_sent") for _ in range(size)], []
    else:
        kind = "sent"
        cards, notes = build(line.items, size, table, hand, carry, after_rest)
    cards = insert_rests(cards, rests_after(fighter, state.opponents(fighter.nick), hand, table))
    return fighter.with_stack(hand, stack + tuple(cards)), notes, kind


def _between(cards: Sequence[Card]) -> int:
    """The rests a rating or a light wound put after the sequences of a stack."""
    return sum(card.added in BETWEEN for card in cards)


def _replace(state: ArenaState, fighter: Fighter, hand: str, line: StackLine) -> tuple[Fighter, list[Note]]:
    """«Замена последовательности»: the current sequence, if it executed nothing but rests, gives
    way to a quick parry, quick block, surrender or jump; a shorter one is padded with rests."""
    table = state.table
    stack = fighter.stack(hand)
    if not stack:
        return fighter, [Note(hand, None, "", "замена невозможна: стопка пуста", "refused")]
    if hand in fighter.acted and not stack[0].first:
        return fighter, [Note(hand, None, "", "замена невозможна: в последовательности уже выполнено "
                                              "действие, отличное от отдыха", "refused")]
    cards, notes = build(line.items, None, table, hand, None, True, replacing=True)
    allowed = [s.name for s in table.sequences.values() if s.replacement]
    if notes or not cards or any(not table.sequences[c.seq].replacement for c in cards) or sum(c.first for c in cards) != 1:
        return fighter, notes + [Note(hand, None, "", "на замену играется одна последовательность из: "
                                                      + ", ".join(allowed), "refused")]
    current = 1
    while current < len(stack) and not stack[current].first:
        current += 1
    cards += [rest("replacement") for _ in range(current - len(cards))]
    note = Note(hand, None, "", "«" + stack_text(stack[:current], table) + "» заменено на «" + stack_text(cards, table) + "»")
    return fighter.with_stack(hand, tuple(cards) + stack[current:]), [note]


def apply_orders(state: ArenaState, orders: dict[str, FighterOrders]) -> tuple[ArenaState, list[Event], dict[str, list[Note]]]:
    events: list[Event] = []
    all_notes: dict[str, list[Note]] = {}
    for fighter in state.fighters:
        mine = orders.get(fighter.nick, FighterOrders({}, {}))
        had = {hand: _between(fighter.stack(hand)) for hand in HANDS}
        notes: list[Note] = []
        laid: list[dict] = []
        if not fighter.sent or fighter.refill_due:
            size = state.table.stack_size if not fighter.sent else fighter.refill_due
            for hand in fighter.active_hands():
                fighter, produced, kind = _fill(state, fighter, hand, mine.stacks.get(hand), size)
                notes += produced
                laid.append({"nick": fighter.nick, "hand": hand, "kind": kind,
                             "opening": not fighter.sent, "size": size})
            fighter = replace(fighter, sent=True, refill_due=0)
        for hand, line in mine.replacements.items():
            if hand in fighter.active_hands():
                fighter, produced = _replace(state, fighter, hand, line)
                notes += produced
                events += [Event("replacement", {"nick": fighter.nick, **n.as_json()}) for n in produced]
        fighter, invalid = validate(fighter, state.table)
        notes += invalid
        for hand in (info["hand"] for info in laid):
            # counted once the refused cards are rests: the rests after their sequences went with them
            added = _between(fighter.stack(hand)) - had[hand]
            if added > 0:
                notes.append(Note(hand, None, "", f"добавлено отдыхов после последовательностей (рейтинг, лёгкие раны): {added}"))
        # The stacks as they will play: after the cards the rules refused became rests.
        events += [Event("stack", {**info, "cards": stack_text(fighter.stack(info["hand"]), state.table)})
                   for info in laid]
        events += [Event("card_rest", {"nick": fighter.nick, **n.as_json()}) for n in notes if n.kind == "rest"]
        state = state.put(fighter)
        all_notes[fighter.nick] = notes
    return state, events, all_notes


def read_pm(state: ArenaState, pm: OrderPm, earlier: Sequence[OrderPm]) -> list[Verdict]:
    """This PM's lines as understood, then what the program did to the stacks they fill, as it
    will be done at the step (with the earlier PMs of this step applied first)."""
    mine, per_pm = _lines(state, list(earlier) + [pm], pm.sender)
    verdicts = per_pm[-1]
    if not any(v.ok for v in verdicts):
        return verdicts
    applied, _, notes = apply_orders(state, {pm.sender: mine})
    fighter = applied.fighter(pm.sender)
    hands = {v.order.hand for v in verdicts if v.ok}
    # a line whose whole stack was refused («замена невозможна») is not accepted: its reason is its answer
    whole = {note.hand: note for note in notes[pm.sender] if note.refused and note.index is None}
    out: list[Verdict] = []
    for verdict in verdicts:
        if verdict.ok and verdict.order.hand in whole:
            verdict = Rejected(verdict.line, whole[verdict.order.hand].reason)
        elif verdict.ok:
            hand = verdict.order.hand
            verdict = Accepted(verdict.line, verdict.order,
                               verdict.canonical + " → стопка: " + stack_text(fighter.stack(hand), state.table))
        out.append(verdict)
    for note in notes[pm.sender]:
        if note.hand in hands and whole.get(note.hand) is not note:
            where = f"{HAND_NAMES[note.hand]}" + (f", карта {note.index}" if note.index else "")
            where += " (" + note.card + ")" if note.card else ""
            out.append(Rejected(where, note.reason) if note.refused else Accepted(where, None, where + ": " + note.reason))
    return out
