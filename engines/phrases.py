"""Russian agreement for the texts: whose grammatical gender a sentence follows, names declined
inside a phrase, and phrase banks drawn from without repeating a line.

A player's gender is the one the host gave (`gender = "f"` or `"m"` on [[players]]); without it,
the dictionary's reading of the nick when it knows it as a personal name («Жанна» → f); else it
is unknown and a template writes the sentence so that no gendered form is needed. A name that is
no player (a faction, a province, a people) agrees as the noun it is: «Галльская империя» is
feminine, «Вандалы» plural.
"""
from __future__ import annotations

import random
import re
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Any, Callable, Mapping, Sequence

from forumgm.engines.base import PhaseRng
from forumgm.parsers.names import CASE_NAMES, _morph, decline

GENDERS = ("m", "f")
# pymorphy's grammemes -> the keys a template uses: m, f, n (neuter), pl (plural).
_AGREEMENT = {"masc": "m", "femn": "f", "neut": "n"}
# A case a phrase names by pymorphy's short grammeme («{nick:gent}») or its Russian name.
_SHORT_CASES = {grammeme: name for name, grammeme in CASE_NAMES.items()}
_CYRILLIC = re.compile("[а-яё]", re.IGNORECASE)


@lru_cache(maxsize=4096)
def guess_gender(nick: str) -> str | None:
    """"m" or "f" when the dictionary knows the one-word nick as a personal name of one gender
    («Жанна», «Игорь»); None otherwise («Саша» is either, «Хан» or «Фея» name no person's sex)."""
    word = nick.casefold()
    if " " in word or not word.isalpha():
        return None
    found = {_AGREEMENT.get(p.tag.gender) for p in _morph().parse(word)
             if p.is_known and "Name" in p.tag and {"sing", "nomn"} <= p.tag.grammemes}
    found.discard(None)
    return found.pop() if len(found) == 1 else None


@lru_cache(maxsize=4096)
def noun_agreement(name: str) -> str | None:
    """How words agree with the name of a thing: the first noun of it in the nominative
    («Восточная Римская Империя» → f, «Вандалы» → pl, «Остготское королевство» → n)."""
    for word in name.casefold().split():
        parses = [p for p in _morph().parse(word) if p.tag.POS == "NOUN" and "nomn" in p.tag]
        if parses:
            tag = parses[0].tag
            return "pl" if "plur" in tag else _AGREEMENT.get(tag.gender)
    return None


class Name(str):
    """A name in a phrase of a bank: «{nick}» as it is, «{nick:gent}» (or «{nick:родительный}»)
    declined by the `decline` filter's rule, agreeing with the player's gender and shown as the
    account holding his seat (the `agreement` that filled the phrase in)."""

    agreement: "Agreement | None" = None

    def __format__(self, spec: str) -> str:
        agreement = self.agreement or Agreement()
        if not spec:
            return agreement.shown(self)
        return agreement.decline(str(self), _SHORT_CASES.get(spec, spec))


class Names(list):
    """Several names in a phrase, «{nicks}» → «Аскон, Кума и Хан», «{nicks:gent}» each declined."""

    agreement: "Agreement | None" = None

    def __format__(self, spec: str) -> str:
        words = [format(name if isinstance(name, Name) else _named(name, self.agreement), spec) for name in self]
        return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} и {words[-1]}"


def _named(value: Any, agreement: "Agreement | None") -> Any:
    """A phrase's value as a name declined by `agreement` (a list as several names); a Name made
    elsewhere (a Bellum place or people) declines by its own rule."""
    if isinstance(value, Name):
        return value
    if isinstance(value, str):
        name = Name(value)
    elif isinstance(value, (list, tuple)):
        name = Names(value)
    else:
        return value
    name.agreement = agreement
    return name


class Echo(str):
    """A text naming players, kept with its names («убить {target:accs}»: the phrase banks' syntax)
    so that a template writes it again by its own agreement (Texts.said): a seat as the account
    holding it now, a name as the host's declension table has it. As a str it is the text by the
    players' genders it was made with, the seats by their ids: what a receipt repeats of an order,
    and what the store keeps of it. `words` fill in as they are (a skill, a spell)."""

    segments: tuple[tuple[str, Mapping[str, str], Mapping[str, str]], ...]
    genders: Mapping[str, str | None]

    def __new__(cls, phrase: str, names: Mapping[str, str] | None = None,
                genders: Mapping[str, str | None] | None = None, **words: str) -> "Echo":
        return cls._joined(((phrase, dict(names or {}), words),), dict(genders or {}))

    @classmethod
    def _joined(cls, segments: tuple, genders: Mapping[str, str | None]) -> "Echo":
        echo = super().__new__(cls, _echoed(segments, Agreement(genders)))
        echo.segments, echo.genders = segments, genders
        return echo

    def seen(self, agreement: "Agreement") -> str:
        """The text with `agreement`'s seats and declension table, each name by its player's gender."""
        return _echoed(self.segments, Agreement(self.genders).seen(agreement.shown_as, agreement.holders,
                                                                   agreement.forms))

    def __add__(self, more: str) -> "Echo":
        return Echo._joined(self.segments + _segments(more), {**self.genders, **getattr(more, "genders", {})})

    def __radd__(self, more: str) -> "Echo":
        return Echo._joined(_segments(more) + self.segments, {**getattr(more, "genders", {}), **self.genders})


def joined(parts: Sequence[str], separator: str) -> str:
    """`separator.join(parts)` keeping the names of the Echo parts: what adding them up one by one
    gives (`parts[0] + separator + parts[1] + …`), made at once, not written out again at each
    part (a stack of twenty cards was written twenty times)."""
    if len(parts) <= 1:
        return parts[0] if parts else ""
    pieces = [parts[0]]
    for part in parts[1:]:
        pieces += (separator, part)
    echoes = [piece for piece in pieces if isinstance(piece, Echo)]
    if not echoes:
        return "".join(pieces)
    return Echo._joined(tuple(segment for piece in pieces for segment in _segments(piece)),
                        {nick: gender for echo in echoes for nick, gender in echo.genders.items()})


def _segments(text: str) -> tuple:
    return text.segments if isinstance(text, Echo) else (("{text}", {}, {"text": str(text)}),)


def _echoed(segments: tuple, agreement: "Agreement") -> str:
    return "".join(phrase.format(**words, **{key: _named(name, agreement) for key, name in names.items()})
                   for phrase, names, words in segments)


@dataclass
class Agreement:
    """The genders of a game's players (None: unknown); any other name agrees as a noun.

    A seat another account holds now (`shown`: seat -> that account's nick, Texts.showing) is
    written as that account and agrees with its holder's gender (`holders`: seat -> the gender the
    host gave the holder, else guessed from the account's nick). `forms` is the host's declension
    table (nick -> case name -> form), which wins over every rule where it names the case."""

    genders: Mapping[str, str | None] = field(default_factory=dict)
    shown_as: Mapping[str, str] = field(default_factory=dict)
    holders: Mapping[str, str | None] = field(default_factory=dict)
    forms: Mapping[str, Mapping[str, str]] = field(default_factory=dict)

    @classmethod
    def of_players(cls, players: Any) -> "Agreement":
        """Each player's (nick, gender): the host's, else the guess from the nick."""
        return cls.given({p.nick: p.gender for p in players})

    @classmethod
    def given(cls, genders: Mapping[str, str | None]) -> "Agreement":
        """Players' genders as the host gave them (None: guessed from the nick)."""
        return cls({nick: gender or guess_gender(nick) for nick, gender in genders.items()})

    def seen(self, shown_as: Mapping[str, str], holders: Mapping[str, str | None],
             forms: Mapping[str, Mapping[str, str]]) -> "Agreement":
        """The same players, their seats shown as the accounts holding them, with a declension table."""
        if not (shown_as or forms) or (shown_as, holders, forms) == (self.shown_as, self.holders, self.forms):
            return self
        return replace(self, shown_as=shown_as, holders=holders, forms=forms)

    def shown(self, name: Any) -> str:
        """The name as the players read it: a seat as the account holding it."""
        return self.shown_as.get(str(name), str(name))

    def player(self, name: Any) -> str | None:
        """A player's gender (m, f; None: unknown or no player)."""
        name = str(name)
        if name in self.shown_as:
            return self.holders.get(name) or guess_gender(self.shown_as[name])
        return self.genders.get(name)

    def of(self, name: Any) -> str | None:
        name = str(name)
        if name in self.genders or name in self.shown_as:
            return self.player(name)
        return noun_agreement(name)

    def decline(self, name: Any, case: str) -> str:
        """The name as shown, in the case (a Russian case name): the host's table's form, else
        the `decline` rule, by the player's gender."""
        shown = self.shown(name)
        given = self.forms.get(shown, {}).get(case)
        return given if given else decline(shown, case, self.player(name))

    def agree(self, name: Any, m: str, f: str, n: str | None = None, pl: str | None = None,
              other: str | None = None) -> str:
        """The form agreeing with `name`; `other` where its gender is unknown (a template gives
        a form no gender needs: «Хан: Линч» rather than «линчеван(а)»), else the masculine."""
        forms = {"m": m, "f": f, "n": n or m, "pl": pl or m}
        gender = self.of(name)
        if gender is None:
            return m if other is None else other
        return forms[gender]


@dataclass
class Picker:
    """Draws phrases from a template's banks with a seeded stream: a report never repeats a line,
    and an opening or closing (`cycle`) of report N is another than those of reports N-1..N-3."""

    stream: random.Random
    agreement: Agreement
    game: PhaseRng                           # game-wide (not per phase): the order of openings
    used: set[str] = field(default_factory=set)

    @classmethod
    def seeded(cls, rng: PhaseRng, agreement: Agreement) -> "Picker":
        """The picker of a phase's report: its phrases are no rolls of the game (they follow the
        host's templates), so their draws are kept in no log of the game's rolls."""
        quiet = rng.untraced()
        return cls(quiet.stream("literary"), agreement, quiet.game())

    def seen(self, agreement: Agreement) -> "Picker":
        """The same draw (stream, phrases used) under another agreement (Texts.render)."""
        return self if agreement is self.agreement else replace(self, agreement=agreement)

    def pool(self, bank: Mapping[str, Sequence[str]] | Sequence[str], subject: Any = None) -> list[str]:
        """The phrases fit for the subject: a bank is a list, or {"m": […], "f": […], "n": […],
        "pl": […], "any": […]} where "any" needs no gendered form and serves every subject (a list of
        several subjects takes "pl")."""
        if not isinstance(bank, Mapping):
            return list(bank)
        if isinstance(subject, (list, tuple)):          # several subjects: a plural verb
            subject = subject[0] if len(subject) == 1 else None
            gender = "pl" if subject is None else self.agreement.of(subject)
        else:
            gender = self.agreement.of(subject) if subject is not None else None
        return list(bank.get(gender, [])) + list(bank.get("any", [])) if gender else list(bank.get("any", []))

    def pick(self, bank: Any, names: Mapping[str, Any] | None = None, lead: str | None = None,
             **more: Any) -> str:
        """One phrase of the bank, not yet used in this report where one is left, with the names
        filled in («{nick}», «{target:gent}»); its gender follows `nick` when given. A `lead`
        («Тем временем») opens it, the phrase's first letter then lowercase unless a name."""
        names = {**(names or {}), **more}
        pool = self.pool(bank, names.get("nick"))
        if not pool:
            raise ValueError(f"a phrase bank without a phrase for {names.get('nick')!r}: {bank!r}")
        fresh = [phrase for phrase in pool if phrase not in self.used] or pool
        phrase = self.stream.choice(fresh)
        self.used.add(phrase)
        if lead and not phrase.startswith("{"):
            phrase = phrase[:1].lower() + phrase[1:]
        return f"{lead} {_filled(phrase, names, self.agreement)}" if lead else _filled(phrase, names, self.agreement)

    def cycle(self, bank: Sequence[str], number: int, **names: Any) -> str:
        """The `number`-th phrase of a game-wide seeded order of the bank: with four phrases or
        more, four reports in a row never share one."""
        phrase = self.game.shuffle(bank, "texts", *bank)[number % len(bank)]
        self.used.add(phrase)
        return _filled(phrase, names, self.agreement)


_UNITS = ("", "первый", "второй", "третий", "четвёртый", "пятый", "шестой", "седьмой", "восьмой", "девятый")
_TEENS = ("десятый", "одиннадцатый", "двенадцатый", "тринадцатый", "четырнадцатый", "пятнадцатый",
          "шестнадцатый", "семнадцатый", "восемнадцатый", "девятнадцатый")
_TENS = ("", "", "двадцать", "тридцать", "сорок", "пятьдесят", "шестьдесят", "семьдесят", "восемьдесят", "девяносто")
_TENS_ORDINAL = ("", "", "двадцатый", "тридцатый", "сороковой", "пятидесятый", "шестидесятый", "семидесятый",
                 "восьмидесятый", "девяностый")


def ordinal(number: int, case: str = "именительный", gender: str = "m") -> str:
    """The ordinal in words, as a title writes it («Итоги второго игрового дня»): agreeing with
    a noun of the gender (m, f, n) in the case; from 100 on in digits («101-го»)."""
    grammeme = CASE_NAMES[case]
    if not 0 < number < 100:
        endings = {"nomn": "-й", "gent": "-го", "datv": "-му", "accs": "-й", "ablt": "-м", "loct": "-м"}
        return f"{number}{'-я' if gender == 'f' and grammeme == 'nomn' else endings[grammeme]}"
    tens, units = divmod(number, 10)
    if tens == 1:
        head, last = "", _TEENS[units]
    elif units == 0:
        head, last = "", _TENS_ORDINAL[tens] if tens else ""
    else:
        head = _TENS[tens]
        last = _UNITS[units]
    parse = next(p for p in _morph().parse(last) if p.tag.POS == "ADJF")
    wanted = {"sing", grammeme, {"m": "masc", "f": "femn", "n": "neut"}[gender]}
    if grammeme == "accs" and gender == "m":
        wanted = {"sing", "nomn", "masc"}        # an inanimate noun: «во второй день»
    word = parse.inflect(wanted).word
    return f"{head} {word}" if head else word


def _filled(phrase: str, names: Mapping[str, Any], agreement: "Agreement") -> str:
    return phrase.format(**{key: _named(value, agreement) for key, value in names.items()})


def ranked(found: Sequence[Any], interest: Callable[[Any], int], most: int) -> list:
    """The `most` most interesting of the happenings (`interest` of each), kept in the order they
    happened: what a literary report tells, the rest being the technical report's."""
    kept = sorted(enumerate(found), key=lambda item: (-interest(item[1]), item[0]))[:most]
    return [h for _, h in sorted(kept, key=lambda item: item[0])]


def russian_key(name: str) -> tuple:
    """Russian alphabetical order (ё with е, case ignored), Latin after Cyrillic."""
    return not _CYRILLIC.match(name), name.casefold().replace("ё", "е"), name


def russian_sorted(names: Sequence[str]) -> list[str]:
    return sorted(names, key=russian_key)
