"""The case forms of the names of places and peoples (Bellum's provinces, regions and factions).

A scenario writes each name once, in the nominative («Паннония», «Верхняя Мёзия», «Пуны»); the
orders read, and the reports write, every other case from here. A word the dictionary (pymorphy3)
knows is declined as it says («Египет» → «Египта», «Армяне» → «армян»); a word it does not know —
most ancient place names and ethnonyms — follows the regular declension of its ending
(«Бетика» → «Бетики», «Лондиний» → «Лондиния», «Пуны» → «пунов»), since the dictionary's guesses
for unknown words are often wrong («Кидариты» read as a woman's name). In a name of several words
the adjectives before the first noun agree with it and the words after it stay as written
(«Страна басков» → «Страны басков», «Вал Антонина» → «Вала Антонина»).
"""
from __future__ import annotations

import re
from functools import lru_cache

from forumgm.parsers.names import _morph      # one dictionary a process

CASES = ("nomn", "gent", "datv", "accs", "ablt", "loct")
_OBLIQUE = CASES[1:]
_WORD = re.compile(r"[а-яё]+")
_VOWELS = frozenset("аеёиоуыэюя")
_VELAR = frozenset("гкх")
_HUSHING = frozenset("жшчщц")

# Regular endings: (what the nominative ends with, the stem's cut, endings of gent datv accs ablt loct).
# The first that fits wins, so the longer endings come first. Places are singular and inanimate.
_PLACE_ENDINGS = (
    ("ия", 1, ("и", "и", "ю", "ей", "и")),
    ("ье", 1, ("я", "ю", "е", "ем", "е")),
    ("ие", 1, ("я", "ю", "е", "ем", "и")),
    ("ий", 1, ("я", "ю", "й", "ем", "и")),
    ("й", 1, ("я", "ю", "й", "ем", "е")),
    ("я", 1, ("и", "е", "ю", "ей", "е")),
    ("ь", 1, ("и", "и", "ь", "ью", "и")),   # place names in -ь are feminine: Волынь, Гасконь
)
# Peoples are plural and animate (accusative = genitive).
_PEOPLE_ENDINGS = (
    ("ане", 1, ("", "ам", "", "ами", "ах")),
    ("яне", 1, ("", "ам", "", "ами", "ах")),
    ("цы", 1, ("ев", "ам", "ев", "ами", "ах")),
)
_ADJECTIVES = {    # the nominative's ending -> gent datv accs ablt loct (a place's accusative: inanimate)
    "ая": ("ой", "ой", "ую", "ой", "ой"),
    "яя": ("ей", "ей", "юю", "ей", "ей"),
    "ый": ("ого", "ому", "ый", "ым", "ом"),
    "ой": ("ого", "ому", "ой", "ым", "ом"),
    "ий": ("его", "ему", "ий", "им", "ем"),
    "ое": ("ого", "ому", "ое", "ым", "ом"),
    "ее": ("его", "ему", "ее", "им", "ем"),
    "ые": ("ых", "ым", "ые", "ыми", "ых"),
    "ие": ("их", "им", "ие", "ими", "их"),
}


def _regular_place(word: str) -> tuple[str, ...]:
    """gent datv accs ablt loct of a singular place name the dictionary does not know."""
    for ending, cut, endings in _PLACE_ENDINGS:
        if word.endswith(ending):
            return tuple(word[:-cut] + e for e in endings)
    last, before = word[-1], word[-2:-1]
    if last == "а":
        stem = word[:-1]
        return (stem + ("и" if before in _VELAR | _HUSHING - {"ц"} else "ы"), stem + "е", stem + "у",
                stem + ("ей" if before in _HUSHING else "ой"), stem + "е")
    if last in _VOWELS:
        return (word,) * 5            # Бордо, Картли, Толедо: indeclinable
    return (word + "а", word + "у", word, word + ("ем" if last in _HUSHING else "ом"), word + "е")


def _regular_people(word: str) -> tuple[str, ...]:
    """gent datv accs ablt loct of a plural ethnonym the dictionary does not know."""
    for ending, cut, endings in _PEOPLE_ENDINGS:
        if word.endswith(ending):
            return tuple(word[:-cut] + e for e in endings)
    stem, before = word[:-1], word[-2:-1]
    if word.endswith("ы") or (word.endswith("и") and before in _VELAR):
        return (stem + "ов", stem + "ам", stem + "ов", stem + "ами", stem + "ах")
    if word.endswith("и") and before in _VOWELS:                 # Евреи, Ромеи
        return (stem + "ев", stem + "ям", stem + "ев", stem + "ями", stem + "ях")
    if word.endswith("и"):
        soft = before not in _HUSHING
        return (stem + "ей", stem + ("ям" if soft else "ам"), stem + "ей", stem + ("ями" if soft else "ами"),
                stem + ("ях" if soft else "ах"))
    return _regular_place(word)        # not a plural: a people named like a place («Химьяр»)


def _known(word: str, numbers: tuple[str, ...], people: bool):
    """The dictionary's reading of a word it knows as a nominative noun: for a people a plural
    living being that is no person's name («Юты» is not the plural of the name «Юта»); for a place
    a toponym first, a thing before a person («Десятинные поля», not the name «Поля»). None when
    it has none."""
    if not _morph().word_is_known(word):
        return None
    parses = [p for p in _morph().parse(word) if p.tag.POS == "NOUN" and "nomn" in p.tag
              and p.tag.number in numbers and "Fixd" not in p.tag]
    if people:
        parses = [p for p in parses if "anim" in p.tag and not {"Name", "Surn", "Patr"} & p.tag.grammemes]
    parses.sort(key=lambda p: ("Geox" not in p.tag, "anim" in p.tag, p.tag.number != "sing"))
    return parses[0] if parses else None


def _dictionary(parse, animate: bool) -> tuple[str, ...] | None:
    out = []
    for case in _OBLIQUE:
        wanted = {case, parse.tag.number} | ({"anim"} if animate and case == "accs" else set())
        form = parse.inflect(wanted) or parse.inflect({case, parse.tag.number})
        if form is None:
            return None
        out.append(form.word)
    if not animate and "masc" in parse.tag and parse.tag.number == "sing":
        out[2] = parse.word           # a place is a thing: «в Норик», «в Дон», never «в Дона»
    return tuple(out)


def _noun(word: str, people: bool) -> tuple[str, ...]:
    """gent datv accs ablt loct of a lowercase noun: a people's (plural, animate) or a place's."""
    if people:
        parse = _known(word, ("plur",), people=True)
        return (_dictionary(parse, True) if parse else None) or _regular_people(word)
    parse = _known(word, ("sing", "plur"), people=False)
    return (_dictionary(parse, False) if parse else None) or _regular_place(word)


def _adjective(word: str, plural_head: bool = False, animate: bool = False) -> tuple[str, ...] | None:
    """gent datv accs ablt loct of an adjective agreeing with its noun, or None for no adjective."""
    ending = word[-2:]
    if ending in ("ов", "ев", "ин") and word[:1].isupper():        # «Полемонов Понт»
        return (word + "а", word + "у", word, word + "ым", word + "ом")
    word = word.lower()
    if ending not in _ADJECTIVES or len(word) < 4:
        return None
    if not any(p.tag.POS == "ADJF" and "nomn" in p.tag for p in _morph().parse(word)):
        return None
    stem = word[:-2]
    # «Кимврский» → «Кимврского» (after г, к, х), «Верхний» → «Верхнего»
    endings = ("ого", "ому", "ий", "им", "ом") if ending == "ий" and stem[-1:] in _VELAR else _ADJECTIVES[ending]
    forms = [stem + e for e in endings]
    if animate and (plural_head or ending in ("ый", "ой", "ий")):
        forms[2] = forms[0]           # a people's accusative is its genitive
    return tuple(forms)


def _cased(word: str, forms: tuple[str, ...]) -> tuple[str, ...]:
    """Forms spelt with the word's own capital letter."""
    return tuple(f[:1].upper() + f[1:] if word[:1].isupper() else f for f in forms)


def _word_forms(word: str, people: bool) -> tuple[str, ...]:
    low = word.lower()
    if not _WORD.fullmatch(low):
        return (word,) * 5
    return _cased(word, _noun(low, people))


def _hyphenated(word: str, people: bool) -> tuple[str, ...]:
    """«Сарматы-аланы»: each part declines."""
    parts = [_word_forms(part, people) if part else ("",) * 5 for part in word.split("-")]
    return tuple("-".join(part[i] for part in parts) for i in range(5))


@lru_cache(maxsize=8192)
def _declension(name: str, people: bool) -> tuple[str, ...]:
    """nomn gent datv accs ablt loct of a whole name, spelt as the name is."""
    if " и " in name:                 # «Каледония и Гиберния»: each part declines
        parts = [_declension(part, people) for part in name.split(" и ")]
        return tuple(" и ".join(part[case] for part in parts) for case in range(6))
    words = name.split()
    if not words:
        return (name,) * 6
    head = 0
    while head < len(words) - 1 and _adjective(words[head]) is not None:
        head += 1
    noun = _head(words[head], people)
    # adjectives agree on both sides of the noun («Кесария Каппадокийская»); other words after
    # it are a genitive that stays («Страна басков»)
    agreeing = [_adjective(w, people, people) if i != head and (i < head or w[-2:] in _ADJECTIVES) else None
                for i, w in enumerate(words)]
    out = [name]
    for case in range(5):
        out.append(" ".join(noun[case] if i == head else _cased(w, forms)[case] if forms else w
                            for i, (w, forms) in enumerate(zip(words, agreeing))))
    return tuple(out)


def _head(word: str, people: bool) -> tuple[str, ...]:
    """The name's noun: «Сарматы-аланы» declines each part, a place only its last («Аль-Хира»);
    a lone feminine adjective is declined as one («Ситифенская»)."""
    if "-" in word.strip("-"):
        if people:
            return _hyphenated(word, people)
        first, _, last = word.rpartition("-")
        return tuple(f"{first}-{form}" for form in _word_forms(last, people))
    if word[-2:] in ("ая", "яя") and (forms := _adjective(word.lower())) is not None:
        return _cased(word, forms)
    return _word_forms(word, people)


def place_case(name: str, case: str) -> str:
    """A place's name in a case («Паннония», "gent" -> «Паннонии»)."""
    return _declension(name, False)[CASES.index(case)]


def people_case(name: str, case: str) -> str:
    """A people's (or a state's) name in a case («Пуны», "accs" -> «Пунов»; «Восточная Римская
    империя», "accs" -> «Восточную Римскую империю»)."""
    return _declension(name, is_plural(name))[CASES.index(case)]


@lru_cache(maxsize=1024)
def is_plural(name: str) -> bool:
    """A plural name is a people's («Пуны»); a singular one is a state's, declined as a place."""
    words = name.split()
    if not words:
        return False
    last = words[-1].lower().split("-")[-1]
    return last.endswith(("ы", "и", "ане", "яне")) and _known(last, ("sing",), people=False) is None


def place_forms(name: str) -> frozenset[str]:
    """Every case form of a place's name, lowercase, the name itself included."""
    return frozenset(form.casefold() for form in _declension(name, False))


def people_forms(name: str) -> frozenset[str]:
    """Every case form of a people's name, lowercase: the dictionary's and, where it differs,
    the regular one («мадьяр» and «мадьяров»)."""
    people = is_plural(name)
    forms = set(_declension(name, people))
    if people and _WORD.fullmatch(name.lower()):
        forms |= set(_regular_people(name.lower()))
    return frozenset(form.casefold() for form in forms)
