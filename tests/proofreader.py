"""A proofreader for the drafted texts: past-tense verbs and short forms right after a player's
nick (or a state's, a people's name) carry its gender and number, no «(а)» forms, no line said
twice in one text, and no name left in the nominative after a preposition where it declines."""
from __future__ import annotations

import re
from collections import Counter
from typing import Mapping

import pymorphy3

_MORPH = pymorphy3.MorphAnalyzer()
_WORD = re.compile(r"[А-Яа-яЁёA-Za-z0-9]+|[.;:!?—]")
_GENDERS = {"m": "masc", "f": "femn", "n": "neut"}
# the cases each preposition takes («у Аскона», «на Куму», «в Паннонии», «в Норик»)
PREPOSITIONS = {"у": ("gent",), "от": ("gent",), "до": ("gent",), "из": ("gent",), "для": ("gent",),
                "без": ("gent",), "к": ("datv",), "при": ("loct",), "о": ("loct",), "об": ("loct",),
                "над": ("ablt",), "под": ("ablt", "accs"), "с": ("ablt", "gent"), "в": ("accs", "loct"),
                "на": ("accs", "loct")}
REACH = 3      # words after the nick where the word agreeing with it stands («Жанна и не заметила»)


def _agreeing(word: str, number: str = "sing"):
    """The tag of a word that must agree with its subject (a past verb, a short adjective or
    participle) in the number (sing, plur), or None."""
    for parse in _MORPH.parse(word.casefold()):
        tag = parse.tag
        if number in tag and (({"VERB", "past"} <= tag.grammemes) or tag.POS in ("PRTS", "ADJS")):
            return tag
    return None


def _wrong(gender: str, word: str, listed: bool = False) -> bool:
    """Whether the agreeing word after a subject of `gender` (m, f, n, pl) disagrees with it; a
    subject `listed` last of several («gosha100 и Robozik сплели») takes a plural."""
    if gender == "pl":          # a people: a singular gendered form is wrong («Вандалы разбил»)
        return _agreeing(word, "plur") is None and _agreeing(word) is not None
    tag = _agreeing(word)
    if tag is None:             # a plural form after one player or state («империя вновь свободны»)
        return not listed and _agreeing(word, "plur") is not None
    # a neuter form agrees with no player («(стало 6)»): only the other gender is wrong
    return tag is not None and tag.gender in ("masc", "femn", "neut") and tag.gender != _GENDERS[gender] and (
        gender == "n" or tag.gender != "neut")


def _owned(before: str) -> bool:
    """Whether the nick stands after a noun that owns it («сила Фродо возросла»: the verb agrees
    with «сила») or after a preposition; a time phrase («в тот же час Мерлин») owns nothing."""
    words = _WORD.findall(before)[-2:]
    if not words or not words[-1][0].isalpha():
        return False
    parse = _MORPH.parse(words[-1].casefold())[0]
    if parse.tag.POS == "PREP":          # «побывал у Зорро и унёс»: the nick is no subject
        return True
    return parse.tag.POS == "NOUN" and "nomn" in parse.tag and not (len(words) == 2 and words[0] == "же")


def disagreements(text: str, genders: Mapping[str, str]) -> list[str]:
    """Each «nick word» pair where the word after a nick of known gender has the other gender."""
    found = []
    for nick, gender in genders.items():
        for match in re.finditer(re.escape(nick) + r"(?![А-Яа-яЁёA-Za-z0-9])", text):
            if _owned(text[:match.start()]):
                continue
            for word in _WORD.findall(text[match.end():])[:REACH]:
                if not word[0].isalpha() or word[0].isupper() or not re.match("[а-яё]", word):
                    break        # the clause ends, or another name begins («Аскон и Жанна ударили»)
                if _agreeing(word) is not None or _agreeing(word, "plur") is not None:
                    if _wrong(gender, word, _WORD.findall(text[:match.start()])[-1:] == ["и"]):
                        found.append(f"{nick} {word}")
                    break
    return found


def nominative_after_preposition(text: str, names: Mapping[str, Mapping[str, str]]) -> list[str]:
    """Each «preposition name» where the name (its nominative the key) stands as written although
    none of the forms that preposition asks for is the nominative (the values: case -> form):
    «у Аскон» for a man, «в Паннония»; «в Норик» is right, its accusative being «Норик»."""
    found = []
    for name, forms in names.items():
        for prep, cases in PREPOSITIONS.items():
            if any(forms.get(case, name) == name for case in cases):
                continue         # indeclinable («у Зорро»), or that case is the nominative («на Эборак»)
            pattern = r"(?<![А-Яа-яЁё])" + prep + " " + re.escape(name) + r"(?![А-Яа-яЁёA-Za-z0-9])"
            found += [f"{prep} {name}" for _ in re.finditer(pattern, text, re.IGNORECASE)]
    return found


def repeated_lines(text: str) -> list[str]:
    return [line for line, count in Counter(l for l in text.splitlines() if l.strip()).items() if count > 1]


def proofread(text: str, genders: Mapping[str, str]) -> None:
    assert "(а)" not in text, text
    assert disagreements(text, genders) == [], text
    assert repeated_lines(text) == [], text
