"""The order grammar of classic Mafia: one order a line of a PM to the host.

Canonical forms (what receipts repeat back): `голос: <ник>`, `не судить`, `проверить <ник>`,
`лечить <ник>`, `блокировать <ник>`, `убить <ник>`. The grammar knows the shape of a line
only; whether the sender's role may give that order is the engine's business.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Mapping

from forumgm.engines.base import Accepted, Rejected, Verdict, read_lines
from forumgm.engines.phrases import Echo
from forumgm.parsers.names import Resolved, Roster, Unresolved, resolve_name

NO_TRIAL = "не судить"


@dataclass(frozen=True)
class Vote:
    target: str


@dataclass(frozen=True)
class NoTrial:
    """The once-per-game «не судить» instead of a candidate."""


@dataclass(frozen=True)
class NightOrder:
    action: str          # check | heal | block | kill
    target: str


CANONICAL_VERB = {"vote": "голос:", "check": "проверить", "heal": "лечить",
                  "block": "блокировать", "kill": "убить"}

# The words a line may start with, per command.
HEADS = {
    "vote": ("голосую за", "голосую", "голос за", "голос", "дневной голос", "мой голос"),
    "check": ("проверить", "проверка", "проверяю", "проверю", "проверь"),
    "heal": ("вылечить", "лечение", "лечить", "лечу", "вылечу", "вылечи", "лечи"),
    "block": ("блокировать", "блокирую", "блокировка", "заблокировать", "заблокирую", "блок"),
    "kill": ("выстрел в", "выстрел", "выстрелить в", "стрелять в", "стреляю в", "убийство", "убить", "убиваю"),
}
_SEPARATOR = r"(?:\s*[:\-—–]\s*|\s+)"
# What players write before the order itself: a list marker («-», «*», «1.», «2)») and the rules'
# own words «ночное действие:» in front of a night order. Not «•»: receipts list orders with it,
# and a reply quoting an old receipt must not re-send the orders it lists.
_LEAD = re.compile(r"^(?:[-–—*]+|\d{1,2}[.)])?\s*(?:ночное\s+действие\s*[:\-—–]?\s*)?", re.I)


def _head_pattern(head: str) -> re.Pattern:
    words = r"\s+".join(re.escape(word) for word in head.split())
    return re.compile(f"^{words}{_SEPARATOR}(?P<rest>.+)$", re.I | re.S)


# Longest heads first across all commands, so that "выстрел в" wins over "выстрел".
_PATTERNS = tuple(
    (command, _head_pattern(head))
    for head, command in sorted(((h, c) for c, heads in HEADS.items() for h in heads),
                                key=lambda pair: len(pair[0]), reverse=True)
)
_NO_TRIAL = re.compile(r"^(?:(?:(?:мой|дневной)\s+)?голос(?:ую)?(?:\s+за)?\s*[:\-—–]?\s*)?"
                       r"[«\"“']?не\s+судить[»\"”']?[\s.!]*$", re.I)
_SELF = {"себя", "себе", "сам", "сама", "сам себя", "самого себя", "самой себя"}
_TRIM = " \t.,;:!?«»\"'“”„"


def _body(line: str) -> str:
    """The order as written, without the list marker or «ночное действие:» in front of it."""
    text = line.strip()
    return text[_LEAD.match(text).end():]


def command_of(line: str) -> str | None:
    """Which command a line is written as (vote, no_trial, check, …), or None."""
    text = _body(line)
    if _NO_TRIAL.match(text):
        return "no_trial"
    return next((command for command, pattern in _PATTERNS if pattern.match(text)), None)


def canonical(order: Vote | NoTrial | NightOrder, genders: Mapping[str, str | None] | None = None) -> str:
    """The order as the receipt echoes it: the target a name a template writes by its agreement
    (a seat as its holder), declined by its player's gender (`genders`)."""
    if isinstance(order, NoTrial):
        return NO_TRIAL
    if isinstance(order, Vote):
        return Echo("{verb} {target}", {"target": order.target}, genders, verb=CANONICAL_VERB["vote"])
    return Echo("{verb} {target:винительный}", {"target": order.target}, genders, verb=CANONICAL_VERB[order.action])


def _target(rest: str, sender: str, roster: Roster) -> Resolved | Unresolved:
    name = rest.strip(_TRIM)
    if name.lower() in _SELF:
        return Resolved(sender, "self")
    return resolve_name(name, roster)


def _unknown(found: Unresolved) -> str:
    hint = f"; возможно: {', '.join(found.candidates)}" if found.candidates else ""
    return f"неизвестный игрок «{found.text}»{hint}"


def parse_line(line: str, sender: str, roster: Roster) -> Verdict:
    text = _body(line)
    if _NO_TRIAL.match(text):
        return Accepted(line, NoTrial(), NO_TRIAL)
    for command, pattern in _PATTERNS:
        match = pattern.match(text)
        if match:
            target = _target(match["rest"], sender, roster)
            if not isinstance(target, Resolved):
                return Rejected(line, _unknown(target))
            order = Vote(target.nick) if command == "vote" else NightOrder(command, target.nick)
            return Accepted(line, order, canonical(order, roster.genders))
    return Rejected(line, "команда не распознана (голос: <ник>, не судить, проверить, лечить, "
                          "блокировать или убить <ник>)")


def parse_orders(text: str, sender: str, roster: Roster) -> list[Verdict]:
    return read_lines(text, lambda line: parse_line(line, sender, roster))
