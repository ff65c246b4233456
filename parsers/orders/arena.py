"""The order grammar of Arena: a fighter's stacks of action cards, one stack a line of a PM.

    Правая рука: Выпад(голова), Блок(тело)
    ПР: X L(голова) X B(тело)
    Ноги: Шаг вперёд, Шаг вперёд
    замена ЛР: Быстрый блок(тело)

A stack line is a hand (правая рука / ПР, левая рука / ЛР, ноги / Н), a colon and its items,
each a sequence name or an action code with its target zone or direction in brackets (or as
the next words), separated by commas or spaces; `Отдых ×2` repeats an item. In a fight of more
than two, the brackets also name the opponent an attack or a defense is meant for:
`Выпад(голова, Куме)`, `B(Кума, тело)` — any form the game's name matching reads (another case,
an alias). The grammar knows shapes and words only (the words come from the game's tables
through `Vocabulary`, the fighters' names through a `Roster`); whether the weapon allows a
sequence, whom a card may aim at, and how the cards line up in steps, is the engine's business.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Mapping

from forumgm.engines.base import Accepted, Rejected, Verdict, read_lines
from forumgm.engines.phrases import Echo, joined
from forumgm.parsers.names import Roster, resolve_name

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
    """One item of a stack line: a code or a sequence, its zone or direction, repeated `count`
    times, and the opponent it is meant for when the line names one."""

    code: str | None
    sequence: int | None
    arg: str | None
    count: int = 1
    target: str | None = None


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


def parse_line(line: str, vocab: Vocabulary, roster: Roster | None = None) -> Verdict:
    match = _HEAD.match(line)
    hand = _hand(match["hand"]) if match else None
    if hand is None:
        return Rejected(line, "строка не распознана: ожидается «Правая рука: …», «Левая рука: …», «Ноги: …» "
                              "(или ПР, ЛР, Н) либо «замена ПР: …»")
    try:
        items = tuple(_items(match["rest"], vocab, roster))
    except _Malformed as error:
        return Rejected(line, str(error))
    if not items:
        return Rejected(line, "после двоеточия нет ни одного действия")
    order = StackLine(hand, items, bool(match["replace"]))
    return Accepted(line, order, canonical_line(order, vocab))


def parse_orders(text: str, vocab: Vocabulary, roster: Roster | None = None) -> list[Verdict]:
    return read_lines(text, lambda line: parse_line(line, vocab, roster))


def canonical_line(order: StackLine, vocab: Vocabulary) -> str:
    names = {number: name for name, number in vocab.sequences.items()}
    parts = []
    for item in order.items:
        word = names[item.sequence].capitalize() if item.sequence is not None else item.code
        text = item_text(word, arg_text(item.arg, vocab), item.target)
        parts.append(text if item.count == 1 else text + f" ×{item.count}")
    head = ("замена " if order.replacement else "") + HAND_NAMES[order.hand]
    return head + ": " + joined(parts, ", ")


def item_text(word: str, arg: str, target: str | None) -> str:
    """«Выпад(голова, Кума)», «B(тело)», «X»: the target is a name the texts write by the account
    holding its seat (an Echo)."""
    if not target:
        return f"{word}({arg})" if arg else word
    return Echo("{word}({arg}{target})", {"target": target}, word=word, arg=f"{arg}, " if arg else "")


# ---------------------------------------------------------------- items

_COUNT = re.compile(r"^(?P<body>.*?)\s*[×xXхХ*]\s*(?P<count>\d+)\s*$", re.S)
_TOKEN = re.compile(r"\s*(?P<word>[^\s(),]+)(?:\s*\((?P<arg>[^()]*)\))?")


def _chunks(rest: str) -> list[str]:
    """The text split at the commas outside brackets («Выпад(голова, Кума), Блок(тело)»)."""
    chunks, depth, start = [], 0, 0
    for at, char in enumerate(rest):
        depth += (char == "(") - (char == ")")
        if char == "," and depth <= 0:
            chunks.append(rest[start:at])
            start = at + 1
    return chunks + [rest[start:]]


def _items(rest: str, vocab: Vocabulary, roster: Roster | None):
    if rest.count("(") != rest.count(")"):
        raise _Malformed("непарные скобки")
    for chunk in _chunks(rest):
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
        yield from _chunk_items(chunk, vocab, roster, count)


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


def _chunk_items(chunk: str, vocab: Vocabulary, roster: Roster | None, count: int):
    tokens = _tokens(chunk)
    at = 0
    items = []
    while at < len(tokens):
        item, at = _one_item(tokens, at, vocab, roster)
        items.append(item)
    if count != 1 and len(items) != 1:
        raise _Malformed(f"повтор «×{count}» относится к одному действию: «{_show(chunk)}»")
    for item in items:
        yield Item(item.code, item.sequence, item.arg, count, item.target)


def _one_item(tokens: list[tuple[str, str | None]], at: int, vocab: Vocabulary,
              roster: Roster | None) -> tuple[Item, int]:
    # a sequence name of up to three words, longest first
    for width in (3, 2, 1):
        words = tokens[at:at + width]
        if len(words) < width or any(arg is not None for _, arg in words[:-1]):
            continue
        name = " ".join(word for word, _ in words).lower().replace("ё", "е")
        number = next((n for key, n in vocab.sequences.items() if key.replace("ё", "е") == name), None)
        if number is not None:
            arg, target, after = _arg(tokens, at + width, words[-1][1], vocab, roster)
            return _checked(Item(None, number, arg, target=target), vocab), after
    word, arg = tokens[at]
    code = word.translate(_LOOKALIKE).upper()
    if code not in vocab.codes:
        raise _Malformed(f"неизвестное действие «{_show(word)}»")
    arg, target, after = _arg(tokens, at + 1, arg, vocab, roster)
    return _checked(Item(code, None, arg, target=target), vocab), after


def _arg(tokens: list, at: int, bracketed: str | None, vocab: Vocabulary,
         roster: Roster | None) -> tuple[str | None, str | None, int]:
    """The zone or direction and the opponent named in brackets, or a zone or direction written
    as the next words («Шаг вперёд», «в голову»)."""
    if bracketed is not None:
        return *_bracket(bracketed, vocab, roster), at
    skip = 1 if at < len(tokens) and tokens[at][0].lower() in ("в", "на") and tokens[at][1] is None else 0
    for width in (2, 1):
        words = tokens[at + skip:at + skip + width]
        if len(words) == width and all(arg is None for _, arg in words):
            text = " ".join(word for word, _ in words)
            if _known_arg(text, vocab):
                return _word_arg(text, vocab), None, at + skip + width
    return None, None, at


_ARG_WORDS = 3      # the longest zone or direction, with «в»/«на» before it: «в левую руку»


def _bracket(text: str, vocab: Vocabulary, roster: Roster | None) -> tuple[str | None, str | None]:
    """(zone or direction, opponent) of a bracket: «голова», «голова, Кума», «Кума, голова»,
    «голова Кума», «Куме в голову», or a name alone (an item that needs a zone then says so)."""
    parts = [" ".join(part.split()) for part in re.split(r"[,;]", text)]
    if len(parts) > 2:
        raise _Malformed(f"в скобках — цель и, если нужно, соперник: «(голова, Кума)», а написано «({_show(text)})»")
    if len(parts) == 2:
        known = [_known_arg(part, vocab) for part in parts]
        if all(known):
            raise _Malformed(f"в скобках две цели: «({_show(text)})»")
        if not any(known):
            raise _Malformed(f"неизвестная цель или направление «{_show(parts[0])}»")
        arg, name = parts if known[0] else parts[::-1]
        return _word_arg(arg, vocab), _target(name, roster)
    text = parts[0]
    if _known_arg(text, vocab) or not text:
        return _word_arg(text, vocab), None
    words = text.split()
    for width in range(min(_ARG_WORDS, len(words) - 1), 0, -1):
        for arg, name in ((words[:width], words[width:]), (words[-width:], words[:-width])):
            if _known_arg(" ".join(arg), vocab):
                return _word_arg(" ".join(arg), vocab), _target(" ".join(name), roster)
    found = resolve_name(text, roster) if roster is not None else None
    if found is not None and found.ok:
        return None, found.nick
    raise _Malformed(f"неизвестная цель или направление «{_show(text)}»")


def _target(name: str, roster: Roster | None) -> str:
    """The fighter a name in brackets means, by the game's name matching."""
    found = resolve_name(name, roster) if roster is not None else None
    if found is not None and found.ok:
        return found.nick
    if found is not None and found.reason == "ambiguous":
        raise _Malformed(f"«{_show(name)}» подходит нескольким бойцам: {', '.join(found.candidates)}")
    hint = f"; возможно: {', '.join(found.candidates)}" if found is not None and found.candidates else ""
    raise _Malformed(f"неизвестный боец «{_show(name)}»{hint}")


def _known_arg(text: str, vocab: Vocabulary) -> bool:
    return _arg_value(text, vocab) is not None


def _folded(words: Mapping[str, str]) -> dict[str, str]:
    return {word.replace("ё", "е"): value for word, value in words.items()}


def _arg_value(text: str, vocab: Vocabulary) -> str | None:
    """The zone or direction key the words name («в голову», «на тело», «направо»), or None."""
    key = text.lower().replace("ё", "е")
    key = key[2:] if key.startswith(("в ", "на ")) and key[2:] in _folded(vocab.zones) else key
    key = key[3:] if key.startswith("на ") else key
    zones, directions = _folded(vocab.zones), _folded(vocab.directions)
    return zones.get(key) or directions.get(key)


def _word_arg(text: str, vocab: Vocabulary) -> str:
    value = _arg_value(text, vocab)
    if value is None:
        raise _Malformed(f"неизвестная цель или направление «{_show(text)}»")
    return value


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
        if item.arg is not None or item.target is not None:
            raise _Malformed(f"«{what}» не имеет цели, а указано «{_show(item.arg or item.target)}»")
        return item
    if item.target is not None and "zone" not in needs:
        raise _Malformed(f"«{what}» не направлено на соперника, а указано «{_show(item.target)}»")
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
