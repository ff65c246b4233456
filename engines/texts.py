"""Rendering player-facing texts from editable Jinja2 templates, without I/O.

The daemon loads the template sources (shipped defaults under config/templates, overridden
by the host's own folder) and hands a `Texts` to the engines. Every value interpolated into a
template is BBCode-escaped by default, so a nickname or an order line written by a player can
never open a tag in a forum post, and loses the invisible characters (zero-width, bidi) that
could hide text; a template that needs to pass markup through marks it with the `raw` filter,
one that shows the host an account name as it is uses `visible`.
"""
from __future__ import annotations

from typing import Any, Mapping

import re

import jinja2
from markupsafe import Markup

from forumgm.engines.phrases import Agreement, ordinal, russian_sorted
from forumgm.parsers.names import decline

# Invisible characters never reach a post: boards drop them (FluxBB everywhere, MyBB at the end)
# or show them as U+FFFD (SMF 2.1), and a player could hide text in them.
INVISIBLE = re.compile("[\u00ad\u061c\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffd]")
# A player's "[" becomes the fullwidth bracket: it reads the same and opens no tag on any board.
# (An invisible character after "[" does not survive FluxBB, which strips it before parsing.)
_BRACKET = "\uff3b"


def show_invisible(value: Any) -> str:
    """For the host's eyes: each invisible character as <U+XXXX>, so that «gosha100<U+200B>» is
    told apart from the player gosha100."""
    return INVISIBLE.sub(lambda found: f"<U+{ord(found.group()):04X}>", str(value))


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


def _finalize(value: Any) -> Any:
    if value is None:
        return ""
    if isinstance(value, Markup):
        return str(value)
    if isinstance(value, float):
        return number(value)
    if isinstance(value, int):
        return value
    return escape_bbcode(value)


def _agreement(context: Any) -> Agreement:
    return context.get("agreement") or Agreement()


@jinja2.pass_context
def _agree(context: Any, name: Any, m: str, f: str, n: str | None = None, pl: str | None = None,
           other: str | None = None) -> str:
    """`{{ nick | agree("пал", "пала", other="…") }}`: the form agreeing with the name, by the
    genders the engine passed as `agreement` (players), else as a noun (factions, provinces)."""
    return _agreement(context).agree(name, m, f, n, pl, other)


@jinja2.pass_context
def _gender(context: Any, name: Any) -> str:
    """m, f, n, pl, or "" when unknown (`{% if nick | gender %}`)."""
    return _agreement(context).of(name) or ""


class Texts:
    """A set of loaded templates: name -> source (e.g. "legends/technical.j2")."""

    def __init__(self, sources: Mapping[str, str]) -> None:
        self._env = jinja2.Environment(
            loader=jinja2.DictLoader(dict(sources)),
            finalize=_finalize,
            undefined=jinja2.StrictUndefined,
            trim_blocks=True,
            lstrip_blocks=True,
            keep_trailing_newline=False,
            autoescape=False,
        )
        self._env.filters["raw"] = Markup
        self._env.filters["bb"] = escape_bbcode
        self._env.filters["plural"] = plural
        self._env.filters["visible"] = show_invisible
        self._env.filters["decline"] = decline
        self._env.filters["number"] = number
        self._env.filters["agree"] = _agree
        self._env.filters["gender"] = _gender
        self._env.filters["russian_sort"] = russian_sorted
        self._env.filters["ordinal"] = ordinal

    def names(self) -> list[str]:
        return self._env.list_templates()

    def has(self, name: str) -> bool:
        return name in self._env.list_templates()

    def render(self, name: str, **context: Any) -> str:
        return self._env.get_template(name).render(**context).strip()

    def add_filter(self, name: str, function: Any) -> None:
        self._env.filters[name] = function
