"""A proofreader for the drafted texts: past-tense verbs and short forms right after a player's
nick carry the player's gender, no «(а)» forms, no line said twice in one text."""
from __future__ import annotations

import re
from collections import Counter
from typing import Mapping

import pymorphy3

_MORPH = pymorphy3.MorphAnalyzer()
_WORD = re.compile(r"[А-Яа-яЁёA-Za-z0-9]+|[.;:!?—]")
_GENDERS = {"m": "masc", "f": "femn"}
REACH = 3      # words after the nick where the word agreeing with it stands («Жанна и не заметила»)


def _agreeing(word: str):
    """The tag of a word that must agree in gender with its subject (a past verb, a short
    adjective or participle, singular), or None."""
    for parse in _MORPH.parse(word.casefold()):
        tag = parse.tag
        if "sing" in tag and (({"VERB", "past"} <= tag.grammemes) or tag.POS in ("PRTS", "ADJS")):
            return tag
    return None


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
                tag = _agreeing(word)
                if tag is not None:
                    # a neuter form agrees with no player («(стало 6)»): only the other gender is wrong
                    if tag.gender in ("masc", "femn") and tag.gender != _GENDERS[gender]:
                        found.append(f"{nick} {word}")
                    break
    return found


def repeated_lines(text: str) -> list[str]:
    return [line for line, count in Counter(l for l in text.splitlines() if l.strip()).items() if count > 1]


def proofread(text: str, genders: Mapping[str, str]) -> None:
    assert "(а)" not in text, text
    assert disagreements(text, genders) == [], text
    assert repeated_lines(text) == [], text
