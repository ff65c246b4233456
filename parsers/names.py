"""Nickname resolution shared by the vote tally and the order parsers.

Players write each other's nicknames however they like: in another grammatical case
("Аскону", "у Кумы"), in the wrong script ("Аскoн" with a Latin o), with a typo. The rules
are tried from the strictest to the loosest and the first rule that finds anything decides:
when it finds two nicknames the answer is "ambiguous" — a looser rule is never asked to pick
one, so the program never guesses.
"""
from __future__ import annotations

import itertools
import re
import unicodedata
from datetime import datetime
from dataclasses import dataclass, field
from functools import lru_cache
from types import MappingProxyType
from typing import Callable, Iterable, Mapping

import pymorphy3
from rapidfuzz import fuzz, process

# Letters (and digits) that read the same in both alphabets all map to one side, so a nickname
# typed in either script, or in a mix of both, gets the same key.
_LOOKALIKES = str.maketrans({
    "a": "а", "o": "о", "c": "с", "p": "р", "e": "е", "x": "х", "k": "к", "m": "м",
    "t": "т", "h": "н", "b": "в", "y": "у", "3": "з", "0": "о", "ё": "е", "і": "i",
})
# Invisible characters forum editors leave behind.
_INVISIBLE = str.maketrans({"\u200b": None, "\u00ad": None, "\ufeff": None, "\u00a0": " "})
_QUOTES = "\"'«»“”„<>()[]"
_TRAILING = ".,;:!?…"
_PREPOSITIONS = frozenset((
    "у", "к", "ко", "от", "ото", "с", "со", "за", "на", "в", "во", "о", "об", "обо", "про",
    "для", "против", "над", "под", "при", "без", "до", "по", "из", "перед", "через",
))

_CASES = ("gent", "datv", "accs", "ablt", "loct")
_CYRILLIC_WORD = re.compile(r"[а-яё-]+")
_CONSONANTS = frozenset("бвгджзклмнпрстфхцчшщ")
# Endings a Latin or digit-final nickname takes in Russian text ("Robozik'а", "gosha100у");
# the gender is unknown, so both declensions are accepted.
_LATIN_ENDINGS = ("а", "у", "ом", "е", "ой", "ы", "и", "ю", "я", "ем", "ей")
_ENDING_SEPARATORS = ("", "'", "’", "`", "-")
# Cyrillic nicknames pymorphy cannot read as a noun ("Ильмаринен" parses as a short adjective):
# final letter -> what replaces it; after a consonant the endings are added.
_CYRILLIC_FALLBACK = {
    "ь": ("я", "ю", "ем", "е"),
    "й": ("я", "ю", "ем", "е"),
    "а": ("ы", "и", "е", "у", "ой"),
    "я": ("и", "е", "ю", "ей"),
}
_CONSONANT_ENDINGS = ("а", "у", "ом", "е")

FUZZY_THRESHOLD = 80       # rapidfuzz ratio, 0..100
FUZZY_MARGIN = 10          # the best must beat the second best by this much
FUZZY_MIN_LENGTH = 4       # shorter texts are too close to everything
CANDIDATE_THRESHOLD = 60   # nicknames offered to the host for an unresolved text
MAX_CANDIDATES = 3


@dataclass(frozen=True)
class Resolved:
    nick: str
    how: str          # exact, case, fold, alias, case_form, fuzzy
    ok: bool = field(default=True, init=False)


@dataclass(frozen=True)
class Unresolved:
    text: str
    candidates: tuple[str, ...]
    reason: str       # empty, unknown, ambiguous
    ok: bool = field(default=False, init=False)


Resolution = Resolved | Unresolved


@dataclass(frozen=True)
class Holding:
    """A forum account holding a player's seat from `since` until `until` (None: open-ended)."""

    account: str
    player: str
    since: datetime | None = None
    until: datetime | None = None

    def holds_at(self, at: datetime | None) -> bool:
        if at is None:
            return self.until is None
        return (self.since is None or self.since <= at) and (self.until is None or at < self.until)


@dataclass(frozen=True)
class Roster:
    """The game's players (canonical nicknames, or seats) and per-game aliases (alias -> nickname).

    Aliases pointing at someone who is not a player are ignored, so one alias table can serve
    a roster of the living players only. `forms` are (form, nickname) pairs of case forms the
    caller made itself (Bellum declines its place and people names, parsers/declension.py): when
    given, they are the only case forms, exact and for typos, and nothing is declined here.
    `holdings`, when given, say which forum account held each seat when (a player replaced by
    another account): account_player then answers by the moment of the post or PM; without them
    each player is his own account.
    """

    players: tuple[str, ...]
    aliases: Mapping[str, str] = field(default_factory=dict)
    forms: tuple[tuple[str, str], ...] = ()
    holdings: tuple[Holding, ...] = ()
    # the players' grammatical genders ("m", "f"; None: unknown), for the receipts' forms of their
    # nicks («убить Аскон» for a woman)
    genders: Mapping[str, str | None] = field(default_factory=dict)

    def __post_init__(self) -> None:
        object.__setattr__(self, "players", tuple(self.players))
        object.__setattr__(self, "aliases", MappingProxyType(dict(self.aliases)))
        object.__setattr__(self, "forms", tuple(self.forms))
        object.__setattr__(self, "holdings", tuple(self.holdings))
        object.__setattr__(self, "genders", MappingProxyType(dict(self.genders)))
        # every name lookup hashes the roster to find its index; a roster of a whole map's
        # provinces and their aliases is too big to hash again each time
        object.__setattr__(self, "_hash", hash((self.players, frozenset(self.aliases.items()), self.forms,
                                                self.holdings, frozenset(self.genders.items()))))

    def __hash__(self) -> int:
        return self._hash

    def also_named(self, names: Iterable[tuple[str, str]]) -> "Roster":
        """The roster with more (name, player) aliases, such as the accounts holding replaced seats
        (OrderPm.seat_names); a name the roster has already, or names twice, keeps its first player."""
        aliases = dict(self.aliases)
        for name, player in names:
            aliases.setdefault(name, player)
        if len(aliases) == len(self.aliases):
            return self
        return Roster(self.players, aliases, self.forms, self.holdings, self.genders)

    @property
    def _index(self) -> "_Index":
        return _index_of(self)


# ---------------------------------------------------------------- text keys

def clean(text: str) -> str:
    """The text as a nickname candidate: invisible characters, quotes and end punctuation gone."""
    text = " ".join(text.translate(_INVISIBLE).split())
    return text.strip(_QUOTES).rstrip(_TRAILING).strip(_QUOTES).strip()


def case_key(text: str) -> str:
    return " ".join(text.translate(_INVISIBLE).split()).casefold()


def _digits(text: str) -> str:
    return "".join(ch for ch in text if ch.isdigit())


def fold_key(text: str) -> str:
    """Case-free, ё-free key in which Latin and Cyrillic look-alikes coincide."""
    return case_key(text).translate(_LOOKALIKES)


# ---------------------------------------------------------------- Russian case forms

@lru_cache(maxsize=1)
def _morph() -> pymorphy3.MorphAnalyzer:
    # Building the analyzer loads the dictionaries; one per process is enough.
    return pymorphy3.MorphAnalyzer()


@lru_cache(maxsize=8192)
def _readings(word: str) -> tuple:
    """The dictionary's readings of a word, asked once a word: a nickname's forms ask for each of
    its words in every case for either gender, and a word the dictionary does not know (most
    nicknames) is its costliest answer, a guess from the ending."""
    return tuple(_morph().parse(word))


def _noun_parses(word: str) -> list:
    if not _CYRILLIC_WORD.fullmatch(word):
        return []
    return [p for p in _readings(word)
            if "nomn" in p.tag and p.tag.POS in ("NOUN", "ADJF")]


def _inflected(parses: list, case: str) -> set[str]:
    out = set()
    for parse in parses:
        form = parse.inflect({"sing", case})
        if form is not None:
            out.add(form.word)
    return out


def _suffixed(word: str) -> set[str]:
    """Declined forms of a word pymorphy does not read as a noun, by its final letter."""
    if not word:
        return set()
    if not _CYRILLIC_WORD.fullmatch(word):
        return {word + sep + ending for sep in _ENDING_SEPARATORS for ending in _LATIN_ENDINGS}
    if word[-1] in _CYRILLIC_FALLBACK:
        return {word[:-1] + ending for ending in _CYRILLIC_FALLBACK[word[-1]]}
    if word[-1] in _CONSONANTS:
        return {word + ending for ending in _CONSONANT_ENDINGS}
    return set()   # ends in о, е, и, у...: indeclinable ("Зорро")


def _declined(words: list[str], joiner: str) -> set[str]:
    parses = [_noun_parses(word) for word in words]
    forms = {joiner.join(words)}
    for case in _CASES:
        options = [(_inflected(p, case) or {w}) for w, p in zip(words, parses)]
        forms |= {joiner.join(combo) for combo in itertools.product(*options)}
    # Players decline a nickname ending in a consonant even where the dictionary calls the
    # word indeclinable ("Эф" is a letter's name to pymorphy, yet players write "у Эфа").
    last_inflects = any(_inflected(parses[-1], case) - {words[-1]} for case in _CASES)
    if not last_inflects:
        head = words[:-1]
        forms |= {joiner.join((*head, tail)) for tail in _suffixed(words[-1])}
    return forms


# Rosters are rebuilt for every order PM; the forms of one nickname never change, and asking
# pymorphy for them is what a roster costs.
@lru_cache(maxsize=4096)
def declensions(nick: str) -> frozenset[str]:
    """The singular case forms of a nickname, lowercase (the nickname itself included)."""
    words = nick.casefold().split()
    if not words:
        return frozenset()
    forms = _declined(words, " ")
    # what the texts write of the nickname is read back too («у Мастера Йоды», «Тарвелю»)
    forms |= {decline(nick, case, gender).casefold() for case in CASE_NAMES for gender in (None, "m", "f")}
    if len(words) == 1 and "-" in words[0].strip("-"):
        # A hyphenated nickname declines part by part ("Серый-Волк" -> "Серого-Волка").
        forms |= _declined([part for part in words[0].split("-") if part], "-")
    return frozenset(forms)


# What a template names a case by -> pymorphy's grammeme.
CASE_NAMES = MappingProxyType({
    "именительный": "nomn", "родительный": "gent", "дательный": "datv",
    "винительный": "accs", "творительный": "ablt", "предложный": "loct",
})


# Final letters after which a nickname the dictionary does not know still declines regularly
# («Аскон» → «Аскона», «Эномай» → «Эномая», «Кумбала» → «Кумбалы»). After «ь» the gender, and so
# the declension, cannot be told from the word («Игорь» → «Игоря», «Ассоль» → «Ассоли»): it
# declines only for a player whose gender is known; other vowels do not decline.
_PREDICTED_ENDINGS = _CONSONANTS | {"й", "а", "я"}


def _person_parse(word: str, gender: str | None = None):
    """The dictionary's reading of a one-word nickname as a singular noun, a living being
    first (of the player's gender, "m" or "f", when known); for a word it does not know, its guess
    from the ending, where that ending declines regularly. None for a word it calls indeclinable
    or cannot read as a noun."""
    known = _morph().word_is_known(word)
    if not known and word[-1:] not in _PREDICTED_ENDINGS:
        return None
    parses = [p for p in _readings(word)
              if p.is_known == known and p.tag.POS == "NOUN" and {"sing", "nomn"} <= p.tag.grammemes
              and "Fixd" not in p.tag]
    if gender in _GRAMMEME_OF_GENDER:
        parses.sort(key=lambda p: _GRAMMEME_OF_GENDER[gender] not in p.tag)
    animate = [p for p in parses if "anim" in p.tag]
    return (animate or parses or [None])[0]


def _keeps_stem(word: str, form: str) -> bool:
    """A guessed form ends the nickname, never changes it: the guess may drop a vowel as a known
    word would («Астарот» → «Астарта»), and a nickname keeps every letter («Астарота»)."""
    return form.startswith(word if word[-1] in _CONSONANTS else word[:-1])


_GRAMMEME_OF_GENDER = {"m": "masc", "f": "femn"}
# Endings of a name the dictionary knows only as another word's form («Крикс» is the plural
# genitive of «крикса», «Мира» the genitive of «мир»), or does not know at all («Ильмаринен»),
# as «Феликс», «Эномай», «Вера», «Мария» decline; a people's plural the dictionary does not know
# («Гепиды») declines as «вандалы» do. gent, datv, accs, ablt, loct.
_REGULAR_ENDINGS = {
    "consonant": ("а", "у", "а", "ом", "е"), "й": ("я", "ю", "я", "ем", "е"),
    "а": ("ы", "е", "у", "ой", "е"), "я": ("и", "е", "ю", "ей", "е"), "ия": ("ии", "ии", "ию", "ией", "ии"),
    "ы": ("ов", "ам", "ов", "ами", "ах"),
    "ь m": ("я", "ю", "я", "ем", "е"), "ь f": ("и", "и", "ь", "ью", "и"),
}
_HUSHING = frozenset("жшчщц")
_VELAR_OR_HUSHING = frozenset("гкхжшчщ")


def _ending_kind(word: str, gender: str | None = None) -> str | None:
    if word.endswith("ия"):
        return "ия"
    if word[-1] in _CONSONANTS:
        return "consonant"
    if word[-1] == "ь":
        return f"ь {gender}" if gender in _GRAMMEME_OF_GENDER else None
    return word[-1] if word[-1] in _REGULAR_ENDINGS else None


def _regular_form(word: str, grammeme: str, plural: bool = False, gender: str | None = None) -> str | None:
    """A word declined by its final letter alone (a name the dictionary reads only as another
    word's form or does not know, a people's plural it does not know); None where no regular
    ending fits."""
    kind = _ending_kind(word, gender)
    if kind is None or (kind == "ы") != plural:
        return None
    if grammeme == "nomn":
        return word
    ending = _REGULAR_ENDINGS[kind][_CASES.index(grammeme)]
    if kind == "consonant":
        return word + ("ем" if ending == "ом" and word[-1] in _HUSHING else ending)
    stem = word[:-len(kind.split()[0])]
    if kind == "а" and ending == "ы" and stem[-1:] in _VELAR_OR_HUSHING:
        ending = "и"
    if kind == "а" and ending == "ой" and stem[-1:] in _HUSHING:
        ending = "ей"           # «Маша» → «Машей», the ending unstressed as in most names
    return stem + ending


def _plural_people(word: str):
    """The reading of a one-word name as a plural noun («Вандалы», «Гепиды»), or None."""
    if not word.endswith(("ы", "и")) or _has_singular(word):
        return None
    parses = [p for p in _readings(word) if p.tag.POS == "NOUN" and {"plur", "nomn"} <= p.tag.grammemes]
    return parses[0] if parses else None


def _has_singular(word: str) -> bool:
    return any({"sing", "nomn"} <= p.tag.grammemes for p in _readings(word) if p.is_known)


def _phrase_forms(words: list[str], grammeme: str) -> list[str] | None:
    """A name of adjectives and one noun the dictionary knows, all in the nominative and agreeing
    («Восточная Римская Империя», «Серый Волк»), each word in the case; None for any other."""
    parses = []
    for word in words:
        found = [p for p in _readings(word) if p.is_known and "nomn" in p.tag
                 and p.tag.POS in ("ADJF", "NOUN") and "Fixd" not in p.tag]
        if not found:
            return None
        parses.append(found)
    nouns = [i for i, found in enumerate(parses) if found[0].tag.POS == "NOUN"]
    if len(nouns) != 1 or nouns[0] != len(words) - 1:
        return None
    head = parses[-1][0].tag
    number = "plur" if "plur" in head else "sing"
    animate = "anim" in head
    out = []
    for found in parses:
        parse = next((p for p in found if number in p.tag and (number == "plur" or head.gender in p.tag)), None)
        if parse is None:
            return None
        wanted = {number, grammeme}
        if parse.tag.POS == "ADJF" and grammeme == "accs" and number == "sing" and head.gender == "masc":
            wanted = {number, "gent" if animate else "nomn", "masc"}
        elif parse.tag.POS == "ADJF" and grammeme == "accs" and number == "plur":
            wanted = {number, "gent" if animate else "nomn"}
        form = parse.inflect(wanted)
        if form is None:
            return None
        out.append(form.word)
    return out


def _head_forms(words: list[str], grammeme: str) -> list[str] | None:
    """A noun with a complement no word of which reads as a singular nominative («Атака магией»,
    «Защита от магии», «Кража Атаки», «Слуга Народа»; not «Кума Лиса»): the noun alone takes the case."""
    if any(_has_singular(word) or not _morph().word_is_known(word) for word in words[1:]):
        return None
    heads = [p for p in _readings(words[0]) if p.is_known and p.tag.POS == "NOUN"
             and {"sing", "nomn"} <= p.tag.grammemes and "Fixd" not in p.tag]
    form = heads[0].inflect({"sing", grammeme}) if heads else None
    return None if form is None else [form.word, *words[1:]]


# Titles a name follows in a nickname («Мастер Йода», «Капитан Америка», «Король Лир»): what comes
# after one is a name and declines as a name, even where the dictionary reads it as another word's
# genitive («Йода» of «йод»), as it would a complement («Слуга Народа»). Such a word after a title
# cannot be told from a complement («Мастер Меча» would read «Мастера Мечи»): the host's declension
# table says those. «Брат», «Сестра» are left out: «Брат Ветра», «Сестра Милосердия» are complements.
_TITLES = frozenset((
    "мастер", "магистр", "капитан", "доктор", "профессор", "король", "королева", "принц", "принцесса",
    "царь", "царица", "князь", "княгиня", "граф", "графиня", "барон", "баронесса", "лорд", "сэр", "мистер",
    "агент", "кот", "дядя", "тётя", "баба", "дед", "дедушка", "бабушка", "сержант", "лейтенант", "майор",
    "генерал", "полковник", "адмирал",
))


def _reads_as_name(word: str) -> bool:
    """A word that may be a name in the nominative: the dictionary reads it so, or does not know it."""
    return not _morph().word_is_known(word) or _has_singular(word)


def _name_words(words: list[str], grammeme: str, gender: str | None) -> list[str] | None:
    """A nickname of several words that are each a name or a title («Кума Лиса», «Робин Гуд»,
    «Мастер Йода»): each word declines as a one-word nickname would; None for any other."""
    low = [w.casefold() for w in words]
    if low[0] in _TITLES or all(_reads_as_name(w) for w in low):
        # a neuter noun after the first word is a name that stays («Доктора Зло»)
        return [w if i and _neuter(low[i]) else _word(w, grammeme, gender) for i, w in enumerate(words)]
    return None


def _neuter(word: str) -> bool:
    genders = {p.tag.gender for p in _readings(word) if p.is_known and p.tag.POS == "NOUN"
               and {"sing", "nomn"} <= p.tag.grammemes}
    return genders == {"neut"}


def _capitalised(form: str, like: str) -> str:
    return form[:1].upper() + form[1:] if like[:1].isupper() else form


def _word(nick: str, grammeme: str, gender: str | None) -> str:
    """One Cyrillic word of a nickname in the case (see decline)."""
    word = nick.casefold()
    if grammeme == "nomn" or not _CYRILLIC_WORD.fullmatch(word) or "-" in word:
        return nick
    people = _plural_people(word)
    if people is not None:
        known = people.inflect({"plur", "gent" if grammeme == "accs" else grammeme}) if people.is_known else None
        form = known.word if known is not None else _regular_form(word, grammeme, plural=True)
        return nick if form is None else _capitalised(form, nick)
    if gender == "f" and word[-1] in _CONSONANTS:
        return nick             # a woman's name ending in a consonant does not decline («у Кармен»)
    known = _morph().word_is_known(word)
    if known and not _has_singular(word):
        form = _regular_form(word, grammeme, gender=gender)
        return nick if form is None else _capitalised(form, nick)
    parse = _person_parse(word, gender)
    if parse is None:
        # a word the dictionary does not read as a noun at all («Ильмаринен» is a short adjective
        # to it) declines by its ending, as a name would
        form = None if known else _regular_form(word, grammeme, gender=gender)
        return nick if form is None else _capitalised(form, nick)
    # A nickname names a person: a masculine noun takes the animate accusative (= genitive)
    # even where the dictionary's only reading is a thing («на Тора», not «на Тор»).
    wanted = "gent" if grammeme == "accs" and "masc" in parse.tag and "anim" not in parse.tag else grammeme
    form = parse.inflect({"sing", wanted})
    if form is not None and (parse.is_known or _keeps_stem(parse.word, form.word)):
        return _capitalised(form.word, nick)
    form = None if parse.is_known else _regular_form(word, grammeme, gender=gender)
    return nick if form is None else _capitalised(form, nick)


@lru_cache(maxsize=4096)
def decline(nick: str, case: str, gender: str | None = None) -> str:
    """`nick` in the case a sentence needs («замахивается на Куму», «стопка Аскона», «под власть
    Восточной Римской Империи»), where the dictionary knows it as a declinable noun (or a phrase
    of adjectives and a noun, or of names: «Мастера Йоды»), or its ending declines regularly
    («Крикс» → «Крикса», «Ильмаринен» → «Ильмаринена»); any other name (Latin, with digits,
    hyphenated, indeclinable) stays as written, since a wrong guess would misname a player.
    `gender` ("m", "f") is the player's, where known: a woman's nick ending in a consonant stays
    as written («у Кармен»), one in «ь» declines as «Ассоль» («у Ассоли»), a man's as «Игорь»."""
    if case not in CASE_NAMES:
        raise ValueError(f"decline: the case must be one of {', '.join(f'«{c}»' for c in CASE_NAMES)}, "
                         f"not «{case}»")
    grammeme = CASE_NAMES[case]
    words = nick.split()
    if len(words) <= 1:
        return _word(nick, grammeme, gender)
    if not all(_CYRILLIC_WORD.fullmatch(w.casefold()) and "-" not in w for w in words):
        return nick
    low = [w.casefold() for w in words]
    forms = _phrase_forms(low, grammeme)
    if forms is None and low[0] not in _TITLES:
        forms = _head_forms(low, grammeme)
    if forms is not None:
        return " ".join(_capitalised(f, w) for f, w in zip(forms, words))
    named = _name_words(words, grammeme, gender)
    return nick if named is None else " ".join(named)


# ---------------------------------------------------------------- the index of a roster

def _group(pairs: Iterable[tuple[str, str]]) -> dict[str, frozenset[str]]:
    out: dict[str, set[str]] = {}
    for key, nick in pairs:
        out.setdefault(key, set()).add(nick)
    return {key: frozenset(nicks) for key, nicks in out.items()}


@dataclass(frozen=True)
class _Index:
    players: frozenset[str]
    by_account: Mapping[str, str]               # NFC account name -> nickname
    by_case: Mapping[str, frozenset[str]]
    by_fold: Mapping[str, frozenset[str]]
    by_alias: Mapping[str, frozenset[str]]
    by_form: Mapping[str, frozenset[str]]
    by_form_case: Mapping[str, frozenset[str]]
    form_digits: Mapping[str, frozenset[str]]   # folded form -> the digits of the names it is a form of
    word_counts: tuple[int, ...]

    @classmethod
    def build(cls, roster: Roster) -> "_Index":
        players = frozenset(roster.players)
        aliases = {alias: nick for alias, nick in roster.aliases.items() if nick in players}
        names = [(nick, nick) for nick in players] + list(aliases.items())
        if roster.forms:
            forms = {(name, nick): frozenset({" ".join(name.casefold().split())}) for name, nick in names}
        else:
            forms = _forms(names)
        for form, nick in roster.forms:
            if nick in players and (form, nick) not in forms:
                forms[form, nick] = frozenset({" ".join(form.casefold().split())})
                names.append((form, nick))
        return cls(
            players=players,
            by_account={unicodedata.normalize("NFC", nick): nick for nick in players},
            by_case=_group((case_key(nick), nick) for nick in players),
            by_fold=_group((fold_key(nick), nick) for nick in players),
            by_alias=_group((fold_key(alias), nick) for alias, nick in aliases.items()),
            by_form=_group((fold_key(form), nick) for name, nick in names for form in forms[name, nick]),
            by_form_case=_group((form, nick) for name, nick in names for form in forms[name, nick]),
            form_digits=_group((fold_key(form), _digits(name)) for name, nick in names for form in forms[name, nick]),
            word_counts=tuple(sorted({len(name.split()) for name, _ in names}, reverse=True)),
        )


def _forms(names: list[tuple[str, str]]) -> dict[tuple[str, str], frozenset[str]]:
    """The case forms of each name (nicknames first, then aliases). An alias that is already a case
    form of its player's earlier names («Вестготов» of «Вестготы») is not declined again: its
    forms of forms add nothing a player writes, and asking pymorphy for them is what a map of
    hundreds of names costs."""
    known: dict[str, set[str]] = {}
    out = {}
    for name, nick in names:
        seen = known.setdefault(nick, set())
        key = " ".join(name.casefold().split())
        out[name, nick] = frozenset({key}) if key in seen else declensions(name)
        seen |= out[name, nick]
    return out


# Order parsers build a Roster for every PM, always of the same few players; the index of
# equal rosters is shared.
@lru_cache(maxsize=64)
def _index_of(roster: Roster) -> _Index:
    return _Index.build(roster)


# ---------------------------------------------------------------- resolution

def _lookup(table: Mapping[str, frozenset[str]], key: str, text: str, how: str) -> Resolution | None:
    found = table.get(key)
    if not found:
        return None
    if len(found) == 1:
        return Resolved(next(iter(found)), how)
    return Unresolved(text, tuple(sorted(found)), "ambiguous")


def _without_preposition(key: str) -> str | None:
    first, _, rest = key.partition(" ")
    return rest if first in _PREPOSITIONS and rest else None


def _by_exact(text: str, index: _Index) -> Resolution | None:
    return Resolved(text, "exact") if text in index.players else None


def _by_case(text: str, index: _Index) -> Resolution | None:
    return _lookup(index.by_case, case_key(text), text, "case")


def _by_fold(text: str, index: _Index) -> Resolution | None:
    return _lookup(index.by_fold, fold_key(text), text, "fold")


def _by_alias(text: str, index: _Index) -> Resolution | None:
    return _lookup(index.by_alias, fold_key(text), text, "alias")


def _by_case_form(text: str, index: _Index) -> Resolution | None:
    # A written ё is meant ("Лёву" is Лёва's form), a missing one is not ("Леву" may be Лев's too).
    lookups = ((index.by_form_case, case_key(text)),) if "ё" in case_key(text) else ()
    for table, key in (*lookups, (index.by_form, fold_key(text))):
        found = _lookup(table, key, text, "case_form")
        bare = _without_preposition(key)
        if found is None and bare is not None:
            found = _lookup(table, bare, text, "case_form")
        if found is not None:
            return found
    return None


def _scores(text: str, forms: Mapping[str, frozenset[str]],
            digits_of: Mapping[str, frozenset[str]] | None = None) -> list[tuple[str, float]]:
    """Each nickname's best similarity to the text over all its forms, best first; nicknames
    scoring under CANDIDATE_THRESHOLD on every form are left out (no rule asks for them: a typo
    needs FUZZY_THRESHOLD, and a runner-up under it never decides the margin).

    digits_of (form -> the digits of its nicknames): when given, a form whose nickname has other
    digits than the text scores nothing — "gosha101" is not a typo of "gosha100", numbered
    nicknames are different people.
    """
    key = fold_key(text)
    digits = _digits(case_key(text))
    best: dict[str, float] = {}
    # rapidfuzz compares against every form in one call: a map's names have thousands of forms,
    # and a PM of a thousand lines may ask for as many typos
    for form, score, _ in process.extract(key, list(forms), scorer=fuzz.ratio, limit=None,
                                          score_cutoff=CANDIDATE_THRESHOLD):
        if digits_of is not None and digits not in digits_of.get(form, ()):
            continue
        for nick in forms[form]:
            best[nick] = max(best.get(nick, 0.0), score)
    return sorted(best.items(), key=lambda item: (-item[1], item[0]))


def _fuzzy(text: str, forms: Mapping[str, frozenset[str]], index: _Index) -> Resolution | None:
    if len(fold_key(text)) < FUZZY_MIN_LENGTH:
        return None
    scores = _scores(text, forms, index.form_digits)
    if not scores or scores[0][1] < FUZZY_THRESHOLD:
        return None
    runner_up = scores[1][1] if len(scores) > 1 else 0.0
    if scores[0][1] - runner_up >= FUZZY_MARGIN:
        return Resolved(scores[0][0], "fuzzy")
    close = tuple(nick for nick, score in scores if scores[0][1] - score < FUZZY_MARGIN)
    return Unresolved(text, close, "ambiguous")


def _by_fuzzy(text: str, index: _Index) -> Resolution | None:
    return _fuzzy(text, index.by_form, index)


def _by_fuzzy_words(count: int) -> Callable[[str, _Index], Resolution | None]:
    """Fuzzy matching against forms of `count` words only, so a typo never swallows the next word."""
    def rule(text: str, index: _Index) -> Resolution | None:
        return _fuzzy(text, {form: nicks for form, nicks in index.by_form.items()
                             if len(form.split()) == count}, index)
    return rule


_RULES: tuple[Callable[[str, _Index], Resolution | None], ...] = (
    _by_exact, _by_case, _by_fold, _by_alias, _by_case_form, _by_fuzzy,
)


def _first_answer(rules, text: str, index: _Index) -> Resolution | None:
    # The text as written first, then cleaned of quotes and end punctuation ("Хана,").
    for rule in rules:
        for attempt in dict.fromkeys((text.strip(), clean(text))):
            found = rule(attempt, index) if attempt else None
            if found is not None:
                return found
    return None


def _unknown(text: str, index: _Index) -> Unresolved:
    candidates = tuple(nick for nick, score in _scores(text, index.by_form)
                       if score >= CANDIDATE_THRESHOLD)
    return Unresolved(clean(text), candidates[:MAX_CANDIDATES], "unknown")


def _named_inside(text: str, index: _Index) -> tuple[str, ...]:
    """Players a run of words inside the text names ("Голосую за Аскона" all in blue), by every
    rule but fuzzy: hints for the host, never a resolution."""
    words = [clean(word) for word in text.split()]
    named: list[str] = []
    for size in index.word_counts:
        for start in range(len(words) - size + 1):
            found = _first_answer(_RULES[:-1], " ".join(words[start:start + size]), index)
            if found is not None:
                named += [found.nick] if found.ok else list(found.candidates)
    return tuple(dict.fromkeys(named))


def resolve_name(text: str, roster: Roster) -> Resolution:
    """The player a written nickname means, with the rule that found him, or why not."""
    if not clean(text):
        return Unresolved(text, (), "empty")
    index = roster._index
    found = _first_answer(_RULES, text, index) or _unknown(text, index)
    if found.ok or found.reason != "unknown" or len(text.split()) < 2:
        return found
    hints = tuple(dict.fromkeys(_named_inside(text, index) + found.candidates))
    return Unresolved(found.text, hints[:MAX_CANDIDATES], "unknown")


def account_player(account: str, roster: Roster, at: datetime | None = None) -> str | None:
    """The player a forum account (a post's author, a PM's sender) belongs to at `at`, or None.

    Only the exact account name counts, compared after Unicode normalisation (NFC: the same
    letters however the board stored their accents). Another case, look-alike letters, an
    invisible character (zero-width, bidi control) or a player's alias is another account,
    possibly someone posing as the player: aliases are for what players write about others.
    A roster with holdings answers by who held the seat at `at` (None: who holds it now).
    """
    account = unicodedata.normalize("NFC", account)
    if not roster.holdings:
        return roster._index.by_account.get(account)
    return next((held.player for held in roster.holdings
                 if unicodedata.normalize("NFC", held.account) == account and held.holds_at(at)
                 and held.player in roster._index.players), None)


# ---------------------------------------------------------------- a nickname at the start of a line

_WORD = re.compile(r"\S+")
_REST_LEAD = " \t,;:—–-"


def _prefix_resolution(text: str, spans: list, count: int, roster: Roster,
                       fuzzy: bool) -> tuple[Resolution, str]:
    prefix = text[: spans[count - 1].end()]
    rest = text[spans[count - 1].end():].lstrip(_REST_LEAD)
    rules = _RULES[:-1] + ((_by_fuzzy_words(count),) if fuzzy else ())
    return _first_answer(rules, prefix, roster._index) or _unknown(prefix, roster._index), rest


def split_name(text: str, roster: Roster) -> tuple[Resolution, str]:
    """The nickname at the start of `text` and what follows it ("Хана, передаю себе").

    The longest run of words that names a player without fuzzy matching wins; only when
    there is none is a typo allowed, over a run as long as some nickname is.
    """
    spans = list(_WORD.finditer(text))
    if not spans:
        return Unresolved(text, (), "empty"), ""
    ambiguous: tuple[Resolution, str] | None = None
    for count in range(len(spans), 0, -1):
        found, rest = _prefix_resolution(text, spans, count, roster, fuzzy=False)
        if found.ok:
            return found, rest
        if ambiguous is None and found.reason == "ambiguous":
            ambiguous = (found, rest)
    if ambiguous is not None:
        return ambiguous
    unknown = []
    for count in sorted({n for n in roster._index.word_counts if n <= len(spans)} | {1}, reverse=True):
        found, rest = _prefix_resolution(text, spans, count, roster, fuzzy=True)
        if found.ok or found.reason == "ambiguous":
            return found, rest
        unknown.append((len(found.candidates), -count, found, rest))
    # The shortest run with the most candidates says best what the player may have meant.
    _, _, found, rest = max(unknown, key=lambda item: item[:2])
    return found, rest
