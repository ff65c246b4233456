"""Stacks of action cards: items of a PM line into cards grouped in sequences, the rests the
rules add between sequences, and the validation that turns an invalid card and the rest of its
stack into rests (rules: «Все некорректные действия будут заменены на отдых…»)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Sequence

from forumgm.engines.arena.state import Card, Fighter
from forumgm.engines.arena.table import HANDS, ArenaTable
from forumgm.engines.phrases import joined
from forumgm.engines.texts import plural
from forumgm.parsers.orders.arena import Item, arg_text, item_text

REST = "X"
BETWEEN = ("rating", "wound")         # the rests a rating or a light wound puts after a sequence
AIMED = ("attack", "defense")         # the card types that may name an opponent
HAND_NAMES = {"right": "Правая рука", "left": "Левая рука", "legs": "Ноги"}


@dataclass(frozen=True)
class Note:
    """What the program did to a stack, for the receipt and the log."""

    hand: str
    index: int | None             # 1-based position in the stack, None for the stack as a whole
    card: str
    reason: str
    kind: str = "info"            # rest: a card and the rest of its stack became rests; refused; info

    def as_json(self) -> dict:
        return {"hand": self.hand, "index": self.index, "card": self.card, "reason": self.reason}

    @property
    def refused(self) -> bool:
        return self.kind != "info"


def card_text(card: Card, table: ArenaTable) -> str:
    return item_text(card.code, arg_text(card.arg, table.vocabulary), card.target)


def stack_text(cards: Iterable[Card], table: ArenaTable) -> str:
    return joined([card_text(card, table) for card in cards], " ") or "—"


def rest(added: str) -> Card:
    return Card(REST, added=added)


# ---------------------------------------------------------------- items -> cards

@dataclass(frozen=True)
class _Raw:
    code: str
    arg: str | None
    seq: int | None               # a sequence written by name: its number
    group: int                    # cards of one named sequence share a group
    target: str | None = None     # the opponent named for an attack or defense


def _raw(items: Sequence[Item], table: ArenaTable, replacing: bool) -> list[_Raw]:
    out: list[_Raw] = []
    group = 0
    for item in items:
        for _ in range(item.count):
            group += 1
            if item.code is not None:
                out.append(_raw_card(item.code, item, None, group, table))
                continue
            for code in table.sequences[item.sequence].variants(after_rest=False, replacing=replacing)[0]:
                out.append(_raw_card(code, item, item.sequence, group, table))
    return out


def _raw_card(code: str, item: Item, seq: int | None, group: int, table: ArenaTable) -> _Raw:
    """A card of the item: a zone or direction where its type takes one, the opponent where it
    aims at one (the rests of «Выпад(голова, Кума)» take neither)."""
    kind = table.kind(code)
    return _Raw(code, item.arg if kind not in ("rest", "surrender") else None, seq, group,
                item.target if kind in AIMED else None)


def _name(table: ArenaTable, number: int) -> str:
    return table.sequences[number].name


def _segment(raw: list[_Raw], table: ArenaTable, carry: Card | None, after_rest: bool,
             replacing: bool) -> tuple[list[Card], tuple[int, str] | None]:
    """Cards grouped into sequences; the first problem as (0-based index, reason)."""
    cards: list[Card] = []
    at = 0
    if carry is not None and carry.ahead:
        for offset, code in enumerate(carry.ahead):
            if at >= len(raw):
                return cards, None
            if raw[at].code != code:
                return cards, (at, f"начатая последовательность «{_name(table, carry.seq)}» должна быть "
                                   f"завершена: ожидается {code}")
            cards.append(Card(code, raw[at].arg, carry.seq, False, carry.ahead[offset + 1:], target=raw[at].target))
            at += 1
        after_rest = cards[-1].code == REST
    while at < len(raw):
        if raw[at].seq is not None:
            group = [r for r in raw[at:] if r.group == raw[at].group]
            sequence = table.sequences[raw[at].seq]
            codes = sequence.variants(after_rest=False, replacing=replacing)[0]   # as _raw laid it out
            if sequence.replacement == "only" and not replacing:
                return cards, (at, f"«{sequence.name}» играется только на замену другой последовательности")
            cards += [Card(r.code, r.arg, sequence.number, i == 0, codes[i + 1:], target=r.target)
                      for i, r in enumerate(group)]
            at += len(group)
        else:
            end = at
            while end < len(raw) and raw[end].seq is None:
                end += 1
            chosen, problem = _match([r.code for r in raw[at:end]], table, after_rest, replacing, end == len(raw))
            if problem:
                return cards, (at, problem)
            number, codes = chosen
            taken = raw[at:min(end, at + len(codes))]
            cards += [Card(r.code, r.arg, number, i == 0, tuple(codes[i + 1:]), target=r.target)
                      for i, r in enumerate(taken)]
            at += len(taken)
        after_rest = cards[-1].code == REST and not cards[-1].ahead
    return cards, None


def _match(codes: list[str], table: ArenaTable, after_rest: bool, replacing: bool,
           at_end: bool) -> tuple[tuple[int, tuple[str, ...]] | None, str | None]:
    """The longest sequence the codes open with, as (number, its codes); at the end of the input
    a sequence may be unfinished (the refill completes it)."""
    best: tuple[int, tuple[str, ...]] | None = None
    partial: tuple[int, tuple[str, ...]] | None = None
    for sequence in table.sequences.values():
        for variant in sequence.variants(after_rest, replacing):
            if tuple(codes[:len(variant)]) == variant and (best is None or len(variant) > len(best[1])):
                best = (sequence.number, variant)
            elif at_end and len(codes) < len(variant) and tuple(codes) == variant[:len(codes)] and partial is None:
                partial = (sequence.number, variant)
    # "X L" closing a stack opens a lunge (finished by the refill) rather than a rest and a stray L;
    # trailing rests alone stay rests
    if partial and any(code != REST for code in codes) and len(codes) > len(best[1] if best else ()):
        best = None
    chosen = best or partial
    if chosen is None:
        shown = " ".join(codes[:7]) + (" …" if len(codes) > 7 else "")
        return None, f"«{shown}» не складывается ни в одну последовательность"
    if table.sequences[chosen[0]].replacement == "only" and not replacing:
        return None, f"«{_name(table, chosen[0])}» играется только на замену другой последовательности"
    return chosen, None


def became_rests(reason: str, count: int) -> str:
    """Why a card was refused, and that it and the `count` − 1 cards after it are rests now."""
    if count == 1:
        return f"{reason}; эта карта, последняя в стопке, стала отдыхом"
    return f"{reason}; отдыхом стали эта и следующие карты, всего {count}"


def build(items: Sequence[Item], size: int | None, table: ArenaTable, hand: str, carry: Card | None,
          after_rest: bool, replacing: bool = False) -> tuple[list[Card], list[Note]]:
    """The cards of one stack line: at most `size` cards (padded with rests up to it), grouped
    into sequences; a card that does not fit and the rest of the line become rests."""
    raw = _raw(items, table, replacing)
    notes: list[Note] = []
    if size is not None and len(raw) > size:
        extra = len(raw) - size
        left_out = plural(extra, "лишняя карта не принята", "лишние карты не приняты", "лишних карт не принято")
        notes.append(Note(hand, None, "", f"{extra} {left_out}: в стопке {size} {plural(size, 'карта', 'карты', 'карт')}"))
        raw = raw[:size]
    if size is not None and len(raw) < size:
        padding = size - len(raw)
        notes.append(Note(hand, None, "", f"в конец {plural(padding, 'добавлен', 'добавлены', 'добавлено')} {padding} "
                                          f"{plural(padding, 'отдых', 'отдыха', 'отдыхов')}"))
        raw += [_Raw(REST, None, None, -1 - i) for i in range(padding)]
    cards, problem = _segment(raw, table, carry, after_rest, replacing)
    if problem:
        index, reason = problem
        shown = raw[index]
        notes.append(Note(hand, index + 1, card_text(Card(shown.code, shown.arg, target=shown.target), table),
                          became_rests(reason, len(raw) - index), "rest"))
        cards = cards[:index] + [rest("invalid") for _ in raw[index:]]
    return cards, notes


# ---------------------------------------------------------------- rests between sequences

def insert_rests(cards: Sequence[Card], count_after) -> list[Card]:
    """After each finished sequence other than a rest, `count_after(card)` rests (rules:
    ratings and light wounds), each marked with why."""
    out: list[Card] = []
    for card in cards:
        out.append(card)
        if not card.ahead and not card.added:
            out += [rest(reason) for reason in count_after(card)]
    return out


def rests_after(fighter: Fighter, opponents: Sequence[Fighter], hand: str, table: ArenaTable):
    """The reasons for the rests this fighter must put after a sequence in this stack."""
    zones = _zones_of(hand, table)
    light = sum(1 for w in fighter.wounds if w.level == 1 and w.zone in zones)
    best = {name: max((getattr(o, name) for o in opponents), default=0)
            for name in ("attack_rating", "defense_rating", "speed_rating")}
    rating_of = {"attack": "attack_rating", "defense": "defense_rating", "move": "speed_rating"}

    def reasons(card: Card) -> list[str]:
        sequence = table.sequences[card.seq]
        if all(table.kind(code.strip("()")) == "rest" for code in sequence.cards):
            return []
        out = ["wound"] * light
        rating = rating_of.get(sequence.kind)
        if rating and getattr(fighter, rating) < best[rating]:
            out.append("rating")
        return out
    return reasons


def _zones_of(hand: str, table: ArenaTable) -> tuple[str, ...]:
    """The zones whose light wounds slow this stack: its own limb(s), the head and the body."""
    body = table.body
    own = {"right": (body["right_arm"],), "left": (body["left_arm"],),
           "legs": (body["left_leg"], body["right_leg"])}[hand]
    return own + (body["head"], body["body"])


# ---------------------------------------------------------------- validation

def _stack_problem(fighter: Fighter, hand: str, cards: Sequence[Card], table: ArenaTable) -> tuple[int, str] | None:
    weapon = table.weapons[fighter.weapon_of(hand)]
    other_arm = table.body["right_arm"] if hand == "left" else table.body["left_arm"]
    for index, card in enumerate(cards):
        kind = table.kind(card.code)
        sequence = table.sequences[card.seq]
        if kind == "rest" and card.first and not card.ahead:
            continue
        if kind in ("move", "turn") and hand != "legs":
            return index, "перемещение можно играть только на ноги"
        if not sequence.every_weapon and sequence.number not in weapon.sequences:
            # the natural weapons are no weapon a player would call so («оружие «рука»»)
            what = ("ноги не позволяют" if hand == "legs" else "пустая рука не позволяет" if weapon.name == "рука"
                    else f"оружие «{weapon.name}» не позволяет")
            return index, f"{what} последовательность «{sequence.name}»"
        if weapon.shield and kind == "defense" and card.arg == other_arm:
            return index, "щит не может защищать вторую руку"
    return None


def _acts(card: Card | None, table: ArenaTable) -> bool:
    return card is not None and table.kind(card.code) in ("attack", "defense")


def _same_aim(a: Card, b: Card) -> bool:
    """Two cards at one opponent's body: the same name, or one naming nobody (the only opponent,
    or a defense against all)."""
    return a.target is None or b.target is None or a.target == b.target


def _clash(fighter: Fighter, table: ArenaTable) -> tuple[str, int, str] | None:
    """The first step where legs and a hand both attack or defend (the legs give way), or both
    hands aim at opposite zones of one opponent (the left hand gives way)."""
    stacks = {hand: fighter.stack(hand) for hand in HANDS}
    for index in range(max(len(s) for s in stacks.values())):
        top = {hand: cards[index] if index < len(cards) else None for hand, cards in stacks.items()}
        if _acts(top["legs"], table) and (_acts(top["right"], table) or _acts(top["left"], table)):
            return "legs", index, "нельзя атаковать или защищаться одновременно ногами и руками"
        if (_acts(top["right"], table) and _acts(top["left"], table) and _same_aim(top["right"], top["left"])
                and table.is_opposite(top["right"].arg, top["left"].arg)):
            return "left", index, "две руки не могут быть направлены на противоположные части тела"
    return None


def validate(fighter: Fighter, table: ArenaTable) -> tuple[Fighter, list[Note]]:
    """The fighter with every invalid card (and the rest of its stack) turned into rests; a
    note's position counts from the top of the stack."""
    notes: list[Note] = []
    while True:
        found = None
        for hand in HANDS:
            problem = _stack_problem(fighter, hand, fighter.stack(hand), table)
            if problem:
                found = (hand, *problem)
                break
        found = found or _clash(fighter, table)
        if found is None:
            return fighter, notes
        hand, index, reason = found
        cards = fighter.stack(hand)
        # The refused cards are rests now, and a rest takes no rest after it: those that a rating
        # or a light wound put after the sequences they ended go with those sequences.
        refused = [card for card in cards[index:] if card.added not in BETWEEN]
        notes.append(Note(hand, index + 1, card_text(cards[index], table),
                          became_rests(reason, len(refused)), "rest"))
        fighter = fighter.with_stack(hand, list(cards[:index]) + [rest("invalid") for _ in refused])
