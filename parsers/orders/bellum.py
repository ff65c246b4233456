"""The Bellum order grammar: one order a line, in the canonical forms of the rules and the
Russian case forms and aliases players really write («3 из Паннонии в Норик, атакуя вестготов»).

Parsing checks syntax and names only; whether the sender may give the order (his people are
there, the provinces are neighbours) is judged against the game state in engines.bellum.orders.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Iterable, Mapping

from forumgm.engines.base import Accepted, Rejected, Verdict
from forumgm.parsers.declension import people_case, people_forms, place_case, place_forms
from forumgm.parsers.names import MAX_CANDIDATES, Resolved, Roster, fold_key, resolve_name

MAX_DIGITS = 6          # more people than any scenario holds; longer numbers are refused unread

# ---------------------------------------------------------------- order records

PEACE, ATTACK, ATTACK_ALL = "peace", "attack", "attack_all"
IDLE, MEET, MEET_ALL = "idle", "meet", "meet_all"


@dataclass(frozen=True)
class Move:
    count: int
    origin: str
    dest: str
    faction: str | None           # None: the sender's own faction
    stance: str = PEACE           # peace | attack | attack_all
    targets: tuple[str, ...] = ()


@dataclass(frozen=True)
class Stay:
    province: str
    faction: str | None
    stance: str = IDLE            # idle | meet | meet_all | attack_all
    targets: tuple[str, ...] = ()


@dataclass(frozen=True)
class Retreat:
    origin: str
    dest: str
    faction: str | None


@dataclass(frozen=True)
class Annex:
    province: str


@dataclass(frozen=True)
class Abandon:
    province: str


@dataclass(frozen=True)
class AbandonRegion:
    region: str


@dataclass(frozen=True)
class Assimilate:
    target: str
    province: str


@dataclass(frozen=True)
class MakeState:
    tribe: str
    capital: str


@dataclass(frozen=True)
class Consent:
    pass


@dataclass(frozen=True)
class Independence:
    province: str


@dataclass(frozen=True)
class EventChoice:
    number: int
    option: str


@dataclass(frozen=True)
class Ready:
    pass


Order = (Move | Stay | Retreat | Annex | Abandon | AbandonRegion | Assimilate | MakeState | Consent
         | Independence | EventChoice | Ready)


class OrderError(Exception):
    """A line that cannot be read; the message is the reason the player reads."""


# ---------------------------------------------------------------- names

@dataclass(frozen=True)
class Names:
    """One kind of name (provinces, factions or regions): canonical name -> id, plus a roster
    that reads case forms, aliases and typos."""

    what: str                     # «провинция», «народ», «регион» for the reasons
    roster: Roster
    ids: Mapping[str, str]        # canonical name -> id
    names: Mapping[str, str]      # id -> canonical name
    words: Mapping[str, tuple[str, ...]] = field(default_factory=dict)   # a word of a form -> the names
    # a PM names the same few provinces line after line: each text is resolved once (a typo
    # is compared with every form of the map's names)
    _answers: dict[str, str | OrderError] = field(default_factory=dict, compare=False, repr=False)

    def find(self, text: str) -> str:
        text = text.strip().strip(",.;:")
        if text not in self._answers:
            try:
                self._answers[text] = self._resolve(text)
            except OrderError as error:
                self._answers[text] = error
        answer = self._answers[text]
        if isinstance(answer, OrderError):
            raise OrderError(str(answer))
        return answer

    def _resolve(self, text: str) -> str:
        found = resolve_name(text, self.roster)
        if isinstance(found, Resolved):
            return self.ids[found.nick]
        if found.reason == "ambiguous":
            raise OrderError(f"«{text}» — неоднозначно: {', '.join(found.candidates)}")
        # «в Мезию» where the map has only «Верхняя Мёзия» and «Нижняя Мёзия»: names it is a word of
        partial = [name for word in fold_key(text).split() for name in self.words.get(word, ())]
        candidates = tuple(dict.fromkeys((*partial, *found.candidates)))[:MAX_CANDIDATES]
        hint = f"; возможно: {', '.join(candidates)}" if candidates else ""
        raise OrderError(f"неизвестная {self.what} «{text}»{hint}" if self.what != "народ"
                         else f"неизвестный народ «{text}»{hint}")


def names_of(what: str, entries: Iterable[tuple[str, str, Iterable[str]]], people: bool = False) -> Names:
    """Names from (id, canonical name, aliases); the id is an alias too (hosts write it). Every
    case form of the name and of each alias (parsers/declension.py) is read exactly; a form two
    entries share names neither, so that it is refused as ambiguous, never read as the first."""
    ids, names, aliases, owners = {}, {}, {}, {}
    derive = people_forms if people else place_forms
    for ident, name, extra in entries:
        ids[name] = ident
        names[ident] = name
        for alias in (ident, *extra):
            aliases.setdefault(alias, name)
        for written in (name, *extra):
            for form in derive(written):
                owners.setdefault(form, set()).add(name)
    aliases = {alias: name for alias, name in aliases.items() if alias not in ids}
    forms = tuple((form, name) for form, owned in owners.items() for name in sorted(owned))
    words: dict[str, list[str]] = {}
    for form, name in forms:
        for word in fold_key(form).split() if " " in form else ():
            if name not in words.setdefault(word, []):
                words[word].append(name)
    return Names(what, Roster(tuple(ids), aliases, forms), ids, names,
                 {word: tuple(sorted(found)) for word, found in words.items()})


@dataclass(frozen=True)
class Book:
    """Every name an order may use."""

    provinces: Names
    factions: Names
    regions: Names
    events: Mapping[int, tuple[str, ...]] = field(default_factory=dict)   # event number -> option letters


# ---------------------------------------------------------------- the grammar

_IN = r"(?:в|во|на)"
_MOVE = re.compile(
    r"^(?P<n>[-−–+]?\d+)\s+(?:(?P<who>.+?)\s+)?из\s+(?P<src>.+?)\s+" + _IN + r"\s+(?P<dst>.+?)"
    r"(?:\s*[,;]?\s+(?P<stance>мирно|атакуя\s+(?P<targets>.+)))?\s*$")
_RETREAT = re.compile(r"^отступ\w*\s+из\s+(?P<src>.+?)\s+" + _IN + r"\s+(?P<dst>.+?)\s*$")
_ANNEX = re.compile(r"^присоедин\w*\s+(?P<p>.+?)\s*$")
_ABANDON_REGION = re.compile(r"^остав\w*\s+регион\w*\s+(?P<r>.+?)\s*$")
_ABANDON = re.compile(r"^остав\w*\s+(?P<p>.+?)\s*$")
_ASSIMILATE = re.compile(r"^ассимил\w*\s+(?:1\s+)?(?P<who>.+?)\s+" + _IN + r"\s+(?P<p>.+?)\s*$")
_MAKE_STATE = re.compile(r"^сдела\w*\s+(?:государством|королевством)\s+(?P<who>.+?)\s*[,;]?\s*столиц\w*\s*[:–—-]?\s*(?P<p>.+?)\s*$")
_CONSENT = re.compile(r"^(?:мы\s+)?соглас\w*\s+стать\s+(?:государством|королевством)\s*[.!]?$")
_INDEPENDENCE = re.compile(r"^объяв\w*\s+независимость\s+" + _IN + r"\s+(?P<p>.+?)\s*$")
_EVENT = re.compile(r"^событи\w*\s*№?\s*(?P<n>\d+)\s*[:.,–—-]?\s*вариант\w*\s*[:–—-]?\s*(?P<o>[а-яa-z0-9])\s*[.!]?$")
_READY = re.compile(r"^ход\s+готов\s*[.!]?$")
_STAY = re.compile(r"^(?P<where>[^:]+?)\s*:\s*(?P<what>.+?)\s*$")
_ALL = re.compile(r"^всех(?:\s+приходящих)?\s*\.?$|^\(?всех\s*\(приходящих\)\s*\.?$")
_NUMBER = re.compile(r"\d+")
_ORDER_AFTER_FACTION = re.compile(r"^(?:[-−–+]?\d+\s|отступ)")    # a move or a retreat of that faction


def _low(text: str) -> str:
    """Lower case with ё as е; same length as the text, so match spans carry over."""
    return text.lower().replace("ё", "е")


def _count(text: str) -> int:
    if not re.fullmatch(r"\+?\d+", text):
        raise OrderError(f"число людей «{text}» должно быть целым и не меньше 1")
    digits = text.lstrip("+").lstrip("0") or "0"
    if len(digits) > MAX_DIGITS:
        raise OrderError(f"число людей слишком велико ({len(digits)} цифр)")
    count = int(digits)
    if count < 1:
        raise OrderError("число людей должно быть не меньше 1")
    return count


def _targets(text: str, book: Book) -> tuple[str, ...]:
    parts = [part for part in re.split(r"\s*,\s*|\s+и\s+", text.strip().rstrip(".")) if part]
    if not parts:
        raise OrderError("не указано, кого атаковать")
    return tuple(dict.fromkeys(book.factions.find(part) for part in parts))


def _stance(text: str, book: Book) -> tuple[str, tuple[str, ...]]:
    low = _low(text).strip().rstrip(".")
    if low == "бездействовать":
        return IDLE, ()
    if low.startswith("атаковать "):
        if _ALL.match(low[len("атаковать "):].strip()):
            return ATTACK_ALL, ()
        raise OrderError("оставшиеся в провинции могут «атаковать всех»; конкретный народ — «встретить боем <народ>»")
    found = re.match(r"^встретить\s+боем\s+(?P<who>.+)$", low)
    if found:
        who = text.strip().rstrip(".")[found.start("who"):]
        return (MEET_ALL, ()) if _ALL.match(_low(who)) else (MEET, _targets(who, book))
    raise OrderError("непонятный приказ оставшимся: бездействовать, встретить боем <народ>, "
                     "встретить боем всех или атаковать всех")


def _group(text: str, book: Book) -> str | None:
    """A faction named before a moved number («3 аланов из …»); None when not named."""
    return book.factions.find(text) if text else None


def _read(line: str, book: Book, faction: str | None) -> Order:
    low = _low(line)
    if _READY.match(low):
        return Ready()
    if _CONSENT.match(low):
        return Consent()
    if (m := _EVENT.match(low)):
        return _event(int(m["n"][:MAX_DIGITS + 1]), m["o"], book)
    if (m := _MOVE.match(low)):
        count = _count(line[m.start("n"):m.end("n")])
        who = _group(line[m.start("who"):m.end("who")], book) if m["who"] else faction
        stance, targets = PEACE, ()
        if m["stance"] and m["stance"] != "мирно":
            raw = line[m.start("targets"):m.end("targets")]
            stance, targets = (ATTACK_ALL, ()) if _ALL.match(_low(raw).strip()) else (ATTACK, _targets(raw, book))
        return Move(count, book.provinces.find(line[m.start("src"):m.end("src")]),
                    book.provinces.find(line[m.start("dst"):m.end("dst")]), who, stance, targets)
    if re.match(r"^[-−–+]?\d+\s", low):
        raise OrderError("непонятное перемещение: «<число> из <провинции> в <провинцию> [мирно | атакуя <народ> | атакуя всех]»")
    if (m := _RETREAT.match(low)):
        return Retreat(book.provinces.find(line[m.start("src"):m.end("src")]),
                       book.provinces.find(line[m.start("dst"):m.end("dst")]), faction)
    if (m := _MAKE_STATE.match(low)):
        return MakeState(book.factions.find(line[m.start("who"):m.end("who")]),
                         book.provinces.find(line[m.start("p"):m.end("p")]))
    if (m := _INDEPENDENCE.match(low)):
        return Independence(book.provinces.find(line[m.start("p"):m.end("p")]))
    if (m := _ASSIMILATE.match(low)):
        return Assimilate(book.factions.find(line[m.start("who"):m.end("who")]),
                          book.provinces.find(line[m.start("p"):m.end("p")]))
    if (m := _ANNEX.match(low)):
        return Annex(book.provinces.find(line[m.start("p"):m.end("p")]))
    if (m := _ABANDON_REGION.match(low)):
        return AbandonRegion(book.regions.find(line[m.start("r"):m.end("r")]))
    if (m := _ABANDON.match(low)):
        return Abandon(book.provinces.find(line[m.start("p"):m.end("p")]))
    if (m := _STAY.match(line)):
        stance, targets = _stance(m["what"], book)
        return Stay(book.provinces.find(m["where"]), faction, stance, targets)
    raise OrderError("непонятная команда")


def _event(number: int, option: str, book: Book) -> EventChoice:
    options = book.events.get(number)
    if options is None:
        raise OrderError(f"события {number} в этом ходу нет")
    if option not in options:
        raise OrderError(f"у события {number} нет варианта «{option}» (есть: {', '.join(options)})")
    return EventChoice(number, option)


def _faction_prefix(line: str, book: Book) -> tuple[str | None, str]:
    """«Аланы: отступать из …», «Аланы: Паннония: бездействовать»: the named faction and the rest.
    Told from a stay order («Паннония: бездействовать») by what follows the colon, never by
    trying the name as a province first: a name may be both («Иудеи» is a case form of «Иудея»)."""
    head, sep, rest = line.partition(":")
    rest = rest.strip()
    if not sep or not rest or (":" not in rest and not _ORDER_AFTER_FACTION.match(_low(rest))):
        return None, line
    return book.factions.find(head), rest


def parse_line(line: str, book: Book) -> Verdict:
    try:
        faction, rest = _faction_prefix(line, book)
        order = _read(rest, book, faction)
    except OrderError as error:
        return Rejected(line, str(error))
    if faction is not None and isinstance(order, Move) and order.faction is None:
        order = Move(order.count, order.origin, order.dest, faction, order.stance, order.targets)
    return Accepted(line, order, canonical(order, book))


# ---------------------------------------------------------------- canonical forms

def inflect(name: str, case: str, place: bool = True) -> str:
    """A province name (place) or a people's name in a case («Паннония», gent -> «Паннонии»;
    «Вестготы», accs -> «Вестготов»), keeping its capitals."""
    return place_case(name, case) if place else people_case(name, case)


def _list(ids: Iterable[str], names: Names) -> str:
    """The peoples in the accusative, as a sentence lists them: «Остготов, Франков и Аланов»."""
    words = [inflect(names.names[i], "accs", place=False) for i in ids]
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} и {words[-1]}"


def canonical(order: Order, book: Book) -> str:
    p, f = book.provinces.names, book.factions
    match order:
        case Move():
            who = f" {inflect(f.names[order.faction], 'gent', place=False)}" if order.faction else ""
            tail = {PEACE: "мирно", ATTACK_ALL: "атакуя всех"}.get(order.stance) or f"атакуя {_list(order.targets, f)}"
            return f"{order.count}{who} из {inflect(p[order.origin], 'gent')} в {inflect(p[order.dest], 'accs')}, {tail}"
        case Stay():
            who = f"{f.names[order.faction]}: " if order.faction else ""
            tail = {IDLE: "бездействовать", MEET_ALL: "встретить боем всех приходящих",
                    ATTACK_ALL: "атаковать всех"}.get(order.stance) or f"встретить боем {_list(order.targets, f)}"
            return f"{who}{p[order.province]}: {tail}"
        case Retreat():
            who = f"{f.names[order.faction]}: " if order.faction else ""
            return f"{who}отступать из {inflect(p[order.origin], 'gent')} в {inflect(p[order.dest], 'accs')}"
        case Annex():
            return f"присоединить {inflect(p[order.province], 'accs')}"
        case Abandon():
            return f"оставить {inflect(p[order.province], 'accs')}"
        case AbandonRegion():
            return f"оставить регион {book.regions.names[order.region]}"
        case Assimilate():
            return f"ассимилировать {inflect(f.names[order.target], 'accs', place=False)} в {inflect(p[order.province], 'loct')}"
        case MakeState():
            return f"сделать государством {inflect(f.names[order.tribe], 'accs', place=False)}, столица {p[order.capital]}"
        case Consent():
            return "согласны стать государством"
        case Independence():
            return f"объявить независимость в {inflect(p[order.province], 'loct')}"
        case EventChoice():
            return f"событие {order.number}: вариант {order.option}"
        case Ready():
            return "ход готов"
    raise TypeError(order)
