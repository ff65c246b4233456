"""Rendering player-facing texts from editable Jinja2 templates, without I/O.

The daemon loads the template sources (shipped defaults under config/templates, overridden
by the host's own folder) and hands a `Texts` to the engines. Every value interpolated into a
template is BBCode-escaped by default, so a nickname or an order line written by a player can
never open a tag in a forum post, and loses the invisible characters (zero-width, bidi) that
could hide text; a template that needs to pass markup through marks it with the `raw` filter,
one that shows the host an account name as it is uses `visible`.
"""
from __future__ import annotations

import copy
import re
from typing import Any, Mapping

import jinja2
from jinja2.filters import make_attrgetter, sync_do_join
from markupsafe import Markup

from forumgm.engines.phrases import Agreement, Echo, Picker, ordinal, russian_sorted
from forumgm.parsers.names import decline

# Invisible characters never reach a post: boards drop them (FluxBB everywhere, MyBB at the end)
# or show them as U+FFFD (SMF 2.1), and a player could hide text in them. So do the control
# characters but tab and newline (NUL, ESC, a terminal's OSC sequences): the host reads drafts in
# his terminal (`forumgm drafts show`), where ESC would act instead of being shown.
INVISIBLE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f"
                       "\u00ad\u061c\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffd]")
# A player's "[" becomes the fullwidth bracket: it reads the same and opens no tag on any board.
# (An invisible character after "[" does not survive FluxBB, which strips it before parsing.)
_BRACKET = "\uff3b"


class Account(str):
    """A forum account's name as it is: never shown as the seat a template names (Texts.showing)."""


def show_invisible(value: Any) -> str:
    """For the host's eyes: each invisible character as <U+XXXX>, so that «gosha100<U+200B>» is
    told apart from the player gosha100."""
    return Account(INVISIBLE.sub(lambda found: f"<U+{ord(found.group()):04X}>", str(value)))


def escape_bbcode(value: Any) -> str:
    return INVISIBLE.sub("", str(value)).replace("[", _BRACKET)


def plural(count: int, one: str, few: str, many: str) -> str:
    """The word form Russian puts after `count`: 1, 21 -> one; 2-4, 22 -> few; 0, 5-20, 111 -> many.

    A template writes `{{ n }} {{ n | plural("минута", "минуты", "минут") }}`; the same rule
    agrees a verb with the number («осталась», «осталось»).
    """
    last_two = abs(count) % 100
    if 11 <= last_two <= 14:
        return many
    last = last_two % 10
    if last == 1:
        return one
    return few if 2 <= last <= 4 else many


def number(value: float, sign: bool = False) -> str:
    """A number as Russian text writes it: a decimal comma and a true minus («1,5», «−1»);
    `sign` writes the plus too («+1»). Every float a template prints is written so; a template
    writes `{{ x | number(sign=True) }}` for a signed one."""
    return format(value, "+.10g" if sign else ".10g").replace(".", ",").replace("-", "\u2212")


# the templates' globals naming the seats shown by another account's nick and that account's gender
# (Texts.showing), and the host's declension table: globals, so that macros of imported templates
# see them too
SHOWN, HOLDERS, FORMS = "_shown_as", "_holders", "_forms"


def _shown(context: Any, value: Any) -> Any:
    """A seat's id shown as the nick of the account holding it now (a replaced player)."""
    shown = context.get(SHOWN) or {}
    return shown.get(value, value) if isinstance(value, str) and not isinstance(value, Account) else value


@jinja2.pass_context
def _finalize(context: Any, value: Any) -> Any:
    if value is None:
        return ""
    if isinstance(value, Markup):
        return str(value)
    if isinstance(value, float):
        return number(value)
    if isinstance(value, int):
        return value
    if isinstance(value, Echo):
        return escape_bbcode(value.seen(_agreement(context)))
    return escape_bbcode(_shown(context, value))


def _seen(agreement: Agreement | None, values: Mapping[str, Any]) -> Agreement:
    """The engine's agreement with the seats shown as their holders and the host's declension table."""
    return (agreement or Agreement()).seen(values.get(SHOWN) or {}, values.get(HOLDERS) or {}, values.get(FORMS) or {})


def _agreement(context: Any) -> Agreement:
    return _seen(context.get("agreement"), context)


@jinja2.pass_context
def _decline(context: Any, nick: Any, case: str = "именительный") -> str:
    """`{{ nick | decline("родительный") }}`: the seat's nick as shown now, declined
    (forumgm.parsers.names.decline) by the player's gender, or as the host's table has it;
    `{{ nick | decline }}` the nick itself."""
    if isinstance(nick, Account):
        return decline(nick, case)
    return _agreement(context).decline(nick, case)


@jinja2.pass_context
def _join(context: Any, values: Any, separator: str = "", attribute: str | None = None) -> str:
    """Jinja's join, each item shown as a seat when it names one («Не проголосовали: …»)."""
    if attribute is not None:
        values = map(make_attrgetter(context.environment, attribute), values)
    return sync_do_join(context.eval_ctx, [_shown(context, value) for value in values], separator)


@jinja2.pass_context
def _agree(context: Any, name: Any, m: str, f: str, n: str | None = None, pl: str | None = None,
           other: str | None = None) -> str:
    """`{{ nick | agree("пал", "пала", other="…") }}`: the form agreeing with the name, by the
    genders the engine passed as `agreement` (players; a seat by its holder's), else as a noun
    (factions, provinces)."""
    return _agreement(context).agree(name, m, f, n, pl, other)


@jinja2.pass_context
def _gender(context: Any, name: Any) -> str:
    """m, f, n, pl, or "" when unknown (`{% if nick | gender %}`)."""
    return _agreement(context).of(name) or ""


class CompiledTemplates(jinja2.BytecodeCache):
    """The compiled code of every template source seen in this process, shared by every environment
    made with the same options (one instance for each set of options: the options, besides the
    source, shape the code). Each game run, re-run, simulation and overlay makes a `Texts` of its
    own, each host page an environment of its own, and compiling the same sources again for each was
    most of the time they took. Jinja keys a template by its name and checks the source's checksum,
    so an edited template compiles anew."""

    def __init__(self) -> None:
        self._code: dict[str, bytes] = {}

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        code = self._code.get(bucket.key)
        if code is not None:
            bucket.bytecode_from_string(code)

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        self._code[bucket.key] = bucket.bytecode_to_string()


_COMPILED = CompiledTemplates()     # for Texts.__init__'s options


class Texts:
    """A set of loaded templates: name -> source (e.g. "legends/technical.j2"), and the host's
    declension table: nick -> case name («родительный») -> the form to write where forumgm's own
    declension guesses wrong."""

    def __init__(self, sources: Mapping[str, str], forms: Mapping[str, Mapping[str, str]] | None = None) -> None:
        self._env = jinja2.Environment(
            loader=jinja2.DictLoader(dict(sources)),
            finalize=_finalize,
            undefined=jinja2.StrictUndefined,
            trim_blocks=True,
            lstrip_blocks=True,
            keep_trailing_newline=False,
            autoescape=False,
            bytecode_cache=_COMPILED,
        )
        self._env.filters["raw"] = Markup
        self._env.filters["bb"] = escape_bbcode
        self._env.filters["plural"] = plural
        self._env.filters["visible"] = show_invisible
        self._env.filters["decline"] = _decline
        self._env.filters["join"] = _join
        self._env.filters["number"] = number
        self._env.filters["agree"] = _agree
        self._env.filters["gender"] = _gender
        self._env.filters["russian_sort"] = russian_sorted
        self._env.filters["ordinal"] = ordinal
        self._env.globals[FORMS] = {nick: dict(cases) for nick, cases in (forms or {}).items()}

    def names(self) -> list[str]:
        return self._env.list_templates()

    def has(self, name: str) -> bool:
        return name in self._env.list_templates()

    def render(self, name: str, **context: Any) -> str:
        picker = context.get("picker")
        if isinstance(picker, Picker):
            # the phrases a picker fills in name the seats as shown, decline by the host's table
            context["picker"] = picker.seen(_seen(picker.agreement, self._env.globals))
        return self._env.get_template(name).render(**context).strip()

    def said(self, text: Any) -> Any:
        """An Echo (an order a receipt repeats) as these texts write its names: a seat as the account
        holding it now, a nick as the host's declension table has it; any other value as it is."""
        return text.seen(_seen(None, self._env.globals)) if isinstance(text, Echo) else text

    def showing(self, shown_as: Mapping[str, str], holders: Mapping[str, str | None] | None = None) -> "Texts":
        """The same templates showing each seat named in `shown_as` (seat id -> nick) by that nick:
        the engines name players by their seats, the players read the accounts holding them. A value
        shown whole, declined or joined that equals a seat's id is that seat; an `Account` never is.
        Words agree with the holder's gender: `holders` (seat id -> "m", "f"), the host's word, else
        the guess from the holder's nick."""
        holders = {seat: gender for seat, gender in (holders or {}).items() if seat in shown_as}
        if (dict(shown_as), holders) == (self._env.globals.get(SHOWN, {}), self._env.globals.get(HOLDERS, {})):
            return self
        texts = copy.copy(self)
        # an overlay has a template cache of its own for its own globals (the code is _COMPILED's);
        # made only for a replaced seat
        texts._env = self._env.overlay(cache_size=50)
        texts._env.globals = {**self._env.globals, SHOWN: dict(shown_as), HOLDERS: holders}
        return texts

    def add_filter(self, name: str, function: Any) -> None:
        self._env.filters[name] = function
