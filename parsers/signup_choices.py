"""A sign-up post that names choices (Bellum's factions) in order of preference, plus wishes.

Players write lists however they like: «1. Вестготы 2. Франки 3. Гунны», «вестготы, франки
или гунны», «Хочу за вестготов, потом франков, ну или гуннов», then «Пожелания: …». Names are
resolved like nicknames (parsers/names.py: any case form, aliases, one typo); an item of a list
that names nothing known is reported as an unknown choice with the nearest names, so the player
can be told. Prose lines without a list ("всем привет") are not items.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterable, Mapping

from forumgm.parsers.names import Roster, resolve_name
from forumgm.parsers.signup import post_action

MAX_NAME_WORDS = 4
MIN_NAME_LETTERS = 3                    # «ну», «да» between the names are not names
_SENTENCE = re.compile(r"(?<=[.!?])\s+")
_WISHES = re.compile(r"^\s*пожелани[еяй]\w*\s*[:\-—–]?\s*", re.I)
_MARKER = re.compile(r"^\s*(?:\d+\s*[.)]|[-•*–—])\s*")
_SEPARATORS = re.compile(r"\s*(?:[,;/]|\s(?:или|либо|потом|затем|и)\s)\s*", re.I)
_EDGE = " \t.!?:»«\"'()"


@dataclass(frozen=True)
class ChoiceNames:
    """The choices a post may name: id -> (name, aliases)."""

    roster: Roster
    ids: Mapping[str, str]              # name -> id

    @classmethod
    def of(cls, entries: Iterable[tuple[str, str, Iterable[str]]]) -> "ChoiceNames":
        entries = list(entries)
        aliases = {alias: name for _, name, names in entries for alias in names if alias.casefold() != name.casefold()}
        return cls(Roster(tuple(name for _, name, _ in entries), aliases), {name: cid for cid, name, _ in entries})

    def name_of(self, choice_id: str) -> str:
        return next(name for name, cid in self.ids.items() if cid == choice_id)


@dataclass(frozen=True)
class UnknownChoice:
    text: str
    nearest: tuple[str, ...]            # names of the nearest choices


@dataclass(frozen=True)
class ChoicePost:
    choices: tuple[str, ...]            # ids, in order of preference, each once
    unknown: tuple[UnknownChoice, ...]
    wishes: str


def read_choices(text: str, names: ChoiceNames) -> ChoicePost:
    choices: list[str] = []
    unknown: list[UnknownChoice] = []
    lines = text.splitlines()
    wishes: list[str] = []
    for number, line in enumerate(lines):
        if _WISHES.match(line):
            wishes = [_WISHES.sub("", line, count=1)] + lines[number + 1:]
            break
        listed = bool(_MARKER.match(line))
        items = [item.strip(_EDGE) for sentence in _SENTENCE.split(_MARKER.sub("", line))
                 for item in _SEPARATORS.split(sentence)]
        found = [(item, _choice(item, names)) for item in items if item]
        if not listed and not any(cid for _, cid in found):
            continue                    # prose, not a list
        for item, cid in found:
            if cid is not None:
                if cid not in choices:
                    choices.append(cid)
            elif len(item.split()) <= MAX_NAME_WORDS and len(item) >= MIN_NAME_LETTERS and post_action(item) is None:
                nearest = tuple(getattr(resolve_name(item, names.roster), "candidates", ()))
                if listed or nearest:   # a list item, or a word that looks like a name
                    unknown.append(UnknownChoice(item, nearest))
    return ChoicePost(tuple(choices), tuple(unknown), "\n".join(wishes).strip())


def _choice(item: str, names: ChoiceNames) -> str | None:
    """The choice an item names: all of it (a typo forgiven), or its last few words exactly
    in some case form («хочу играть за вестготов»)."""
    words = item.split()
    resolution = resolve_name(item, names.roster) if len(words) <= MAX_NAME_WORDS else None
    if resolution is not None and resolution.ok:
        return names.ids[resolution.nick]
    for start in range(1, len(words)):
        tail = " ".join(words[start:])
        if len(words) - start > MAX_NAME_WORDS:
            continue
        resolution = resolve_name(tail, names.roster)
        if resolution.ok and resolution.how != "fuzzy":
            return names.ids[resolution.nick]
    return None
