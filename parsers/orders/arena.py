"""The order grammar of Arena: a fighter's stacks of action cards, one stack a line of a PM.

    Правая рука: Выпад(голова), Блок(тело)
    ПР: X L(голова) X B(тело)
    Ноги: Шаг вперёд, Шаг вперёд
    замена ЛР: Быстрый блок(тело)

A stack line is a hand (правая рука / ПР, левая рука / ЛР, ноги / Н), a colon and its items,
each a sequence name or an action code with its target zone or direction in brackets (or as
the next words), separated by commas or spaces; `Отдых ×2` repeats an item. The grammar knows
shapes and words only (the words come from the game's tables through `Vocabulary`); whether
the weapon allows a sequence, and how the cards line up in steps, is the engine's business.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Mapping

from forumgm.engines.base import Accepted, Rejected, Verdict, split_lines

HAND_WORDS = {
    "right": ("правая рука", "правая", "пр", "п.р.", "пр.", "правой рукой"),
    "left": ("левая рука", "левая", "лр", "л.р.", "лр.", "левой рукой"),
    "legs": ("ноги", "н", "ногами", "нога"),
}
HAND_NAMES = {"right": "Правая рука", "left": "Левая рука", "legs": "Ноги"}
REPLACE_WORDS = ("замена", "заменить", "заменяю")
MAX_COUNT = 6
# Codes written in Cyrillic letters that look like Latin ones (the rules themselves write С).
_LOOKALIKE = str.maketrans("ХСКТРВЕОхсктрвео", "XCKTPBEOXCKTPBEO")
_SHOW = 24          # a token longer than this is quoted cut short in a reason


@dataclass(frozen=True)
class Vocabulary:
    """The words of one game's tables: action codes with their types, sequence names with their
    codes, zone names and aliases, direction words."""

    codes: Mapping[str, str]                   # code -> type (rest, attack, defense, move, turn, surrender)
    sequences: Mapping[str, int]               # lowercased name -> number
    sequence_codes: Mapping[int, tuple[str, ...]]
    zones: Mapping[str, str]                   # lowercased name or alias -> zone
    directions: Mapping[str, str]              # lowercased word -> forward | back | left | right


@dataclass(frozen=True)
class Item:
    """One item of a stack line: a code or a sequence, its zone or direction, repeated `count` times."""

    code: str | None
    sequence: int | None
    arg: str | None
    count: int = 1


@dataclass(frozen=True)
class StackLine:
    hand: str                                  # right | left | legs
    items: tuple[Item, ...]
    replacement: bool = False


class _Malformed(ValueError):
    pass


def _show(text: str) -> str:
    return text if len(text) <= _SHOW else text[:_SHOW] + "…"


_HEAD = re.compile(r"^\s*(?:[-–—*]+|\d{1,2}[.)])?\s*(?P<replace>(?:" + "|".join(REPLACE_WORDS) + r")\s+)?"
                   r"(?P<hand>[^:]{1,30}?)\s*[:\-—–]\s*(?P<rest>.*)$", re.I | re.S)


def _hand(word: str) -> str | None:
    word = " ".join(word.lower().split())
    return next((hand for hand, words in HAND_WORDS.items() if word in words), None)


def parse_line(line: str, vocab: Vocabulary) -> Verdict:
    match = _HEAD.match(line)
    hand = _hand(match["hand"]) if match else None
    if hand is None:
        return Rejected(line, "строка не распознана: ожидается «Правая рука: …», «Левая рука: …», «Ноги: …» "
                              "(или ПР, ЛР, Н) либо «замена ПР: …»")
    try:
        items = tuple(_items(match["rest"], vocab, hand))
    except _Malformed as error:
        return Rejected(line, str(error))
    if not items:
        return Rejected(line, "после двоеточия нет ни одного действия")
    order = StackLine(hand, items, bool(match["replace"]))
    return Accepted(line, order, canonical_line(order, vocab))


def parse_orders(text: str, vocab: Vocabulary) -> list[Verdict]:
    return [parse_line(line, vocab) for line in split_lines(text)]


def canonical_line(order: StackLine, vocab: Vocabulary) -> str:
    names = {number: name for name, number in vocab.sequences.items()}
    parts = []
    for item in order.items:
        word = names[item.sequence].capitalize() if item.sequence is not None else item.code
        text = f"{word}({arg_text(item.arg, vocab)})" if item.arg else word
        parts.append(text if item.count == 1 else f"{text} ×{item.count}")
    head = ("замена " if order.replacement else "") + HAND_NAMES[order.hand]
    return f"{head}: {', '.join(parts)}"


# ---------------------------------------------------------------- items

_COUNT = re.compile(r"^(?P<body>.*?)\s*[×xXхХ*]\s*(?P<count>\d+)\s*$", re.S)
_TOKEN = re.compile(r"\s*(?P<word>[^\s(),]+)(?:\s*\((?P<arg>[^()]*)\))?")


def _items(rest: str, vocab: Vocabulary, hand: str):
    if rest.count("(") != rest.count(")"):
        raise _Malformed("непарные скобки")
    for chunk in rest.split(","):
        chunk = chunk.strip()
        if not chunk:
            continue
        count = 1
        counted = _COUNT.match(chunk)
        if counted and counted["body"]:
            digits = counted["count"]
            if len(digits) > 2 or not 1 <= int(digits) <= MAX_COUNT:
                raise _Malformed(f"число повторов «{_show(digits)}» вне диапазона 1–{MAX_COUNT}")
            chunk, count = counted["body"], int(digits)
        yield from _chunk_items(chunk, vocab, count)


def _tokens(chunk: str) -> list[tuple[str, str | None]]:
    tokens, at = [], 0
    while at < len(chunk):
        match = _TOKEN.match(chunk, at)
        if match is None or match.end() == at:
            if chunk[at:].strip():
                raise _Malformed(f"не разобрано: «{_show(chunk[at:].strip())}»")
            break
        arg = match["arg"]
        tokens.append((match["word"], None if arg is None else " ".join(arg.split())))
        at = match.end()
    return tokens


def _chunk_items(chunk: str, vocab: Vocabulary, count: int):
    tokens = _tokens(chunk)
    at = 0
    items = []
    while at < len(tokens):
        item, at = _one_item(tokens, at, vocab)
        items.append(item)
    if count != 1 and len(items) != 1:
        raise _Malformed(f"повтор «×{count}» относится к одному действию: «{_show(chunk)}»")
    for item in items:
        yield Item(item.code, item.sequence, item.arg, count)


def _one_item(tokens: list[tuple[str, str | None]], at: int, vocab: Vocabulary) -> tuple[Item, int]:
    # a sequence name of up to three words, longest first
    for width in (3, 2, 1):
        words = tokens[at:at + width]
        if len(words) < width or any(arg is not None for _, arg in words[:-1]):
            continue
        name = " ".join(word for word, _ in words).lower().replace("ё", "е")
        number = next((n for key, n in vocab.sequences.items() if key.replace("ё", "е") == name), None)
        if number is not None:
            arg, after = _arg(tokens, at + width, words[-1][1], vocab)
            return _checked(Item(None, number, arg), vocab), after
    word, arg = tokens[at]
    code = word.translate(_LOOKALIKE).upper()
    if code not in vocab.codes:
        raise _Malformed(f"неизвестное действие «{_show(word)}»")
    arg, after = _arg(tokens, at + 1, arg, vocab)
    return _checked(Item(code, None, arg), vocab), after


def _arg(tokens: list, at: int, bracketed: str | None, vocab: Vocabulary) -> tuple[str | None, int]:
    """The bracketed zone or direction, or one written as the next words («Шаг вперёд», «в голову»)."""
    if bracketed is not None:
        return _word_arg(bracketed, vocab), at
    skip = 1 if at < len(tokens) and tokens[at][0].lower() in ("в", "на") and tokens[at][1] is None else 0
    for width in (2, 1):
        words = tokens[at + skip:at + skip + width]
        if len(words) == width and all(arg is None for _, arg in words):
            text = " ".join(word for word, _ in words)
            if _known_arg(text, vocab):
                return _word_arg(text, vocab), at + skip + width
    return None, at


def _known_arg(text: str, vocab: Vocabulary) -> bool:
    key = text.lower().replace("ё", "е")
    return key in _folded(vocab.zones) or key in _folded(vocab.directions)


def _folded(words: Mapping[str, str]) -> dict[str, str]:
    return {word.replace("ё", "е"): value for word, value in words.items()}


def _word_arg(text: str, vocab: Vocabulary) -> str:
    key = text.lower().replace("ё", "е")
    key = key[2:] if key.startswith(("в ", "на ")) and key[2:] in _folded(vocab.zones) else key
    key = key[3:] if key.startswith("на ") else key
    zones, directions = _folded(vocab.zones), _folded(vocab.directions)
    if key in zones:
        return zones[key]
    if key in directions:
        return directions[key]
    raise _Malformed(f"неизвестная цель или направление «{_show(text)}»")


_NEEDS = {"attack": "zone", "defense": "zone", "move": "direction", "turn": "turn"}


def _checked(item: Item, vocab: Vocabulary) -> Item:
    """An attack or defense needs a zone, a move a direction, a turn влево/вправо; rests and
    surrender take nothing."""
    codes = (item.code,) if item.code else vocab.sequence_codes[item.sequence]
    kinds = {vocab.codes[code.strip("()")] for code in codes}
    needs = {_NEEDS[kind] for kind in kinds if kind in _NEEDS}
    what = item.code or next(name for name, n in vocab.sequences.items() if n == item.sequence)
    zones = set(vocab.zones.values())
    if not needs:
        if item.arg is not None:
            raise _Malformed(f"«{what}» не имеет цели, а указано «{_show(item.arg)}»")
        return item
    if "zone" in needs:
        if item.arg not in zones:
            raise _Malformed(f"для «{what}» нужна цель: {', '.join(sorted(zones))}")
        return item
    if item.arg is None or item.arg in zones:
        raise _Malformed(f"для «{what}» нужно направление: вперёд, назад, влево или вправо")
    if "turn" in needs and "direction" not in needs and item.arg not in ("left", "right"):
        raise _Malformed(f"поворот «{what}» только влево или вправо")
    return item


def arg_text(arg: str | None, vocab: Vocabulary) -> str:
    """A zone as it is, a direction key in the first word the tables give for it."""
    if arg is None:
        return ""
    return next((word for word, key in vocab.directions.items() if key == arg), arg)
