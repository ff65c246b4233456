"""The Legends order grammar: one command a line, in the forms the rules write them.

Every line becomes `Accepted(line, order, canonical)` or `Rejected(line, reason)`. The checks
made here are the ones that do not depend on the sender's (secret) role — a command his role
cannot perform is accepted and later reported as not executed, so a receipt never tells a
player what he is. Commands the rule table bans on night 1 are refused here.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Callable, Mapping, Sequence

from forumgm.engines.base import Accepted, Rejected, Verdict, read_lines
from forumgm.engines.phrases import Echo
from forumgm.engines.texts import plural
from forumgm.parsers.names import Resolved, Roster, resolve_name, split_name

# ---------------------------------------------------------------- order records


@dataclass(frozen=True)
class Attack:
    kind: str                 # attack | magic_attack
    target: str
    amount: int | None        # None: everything left of the skill

    @property
    def key(self) -> str:
        return self.kind


@dataclass(frozen=True)
class JointAttack:
    kind: str
    target: str
    amount: int | None
    partner: str
    partner_role: str         # as the sender named it; checked against the truth at night

    @property
    def key(self) -> str:
        return self.kind


@dataclass(frozen=True)
class Defend:
    kind: str                 # defense | magic_defense | spy_defense
    target: str               # the sender himself or the player he protects
    amount: int | None

    @property
    def key(self) -> str:
        return self.kind


@dataclass(frozen=True)
class Spy:
    target: str
    key = "spying"


@dataclass(frozen=True)
class Steal:
    skill: str                # one of table.STEALABLE
    victim: str
    recipient: str

    @property
    def key(self) -> str:
        return f"theft_{self.skill}"


@dataclass(frozen=True)
class Modify:
    skill: str                # a base skill or theft_<skill>
    target: str
    up: bool

    @property
    def key(self) -> str:
        return "mod_theft" if self.skill.startswith("theft_") else f"mod_{self.skill}"


@dataclass(frozen=True)
class Cast:
    spell: str
    target: str
    role: str
    key = "cast"


@dataclass(frozen=True)
class Transfer:
    spell: str
    to: str
    key = "transfer"


@dataclass(frozen=True)
class Exchange:
    partner: str
    give: str
    take: str
    key = "exchange"


Order = Attack | JointAttack | Defend | Spy | Steal | Modify | Cast | Transfer | Exchange


@dataclass(frozen=True)
class Context:
    """What a line is read against: who sent it, who plays, and the table's names and limits."""

    sender: str
    roster: Roster            # every player, the dead too (so their names still resolve)
    living: frozenset[str]
    night: int
    spells: tuple[str, ...]
    roles: tuple[str, ...]
    banned: frozenset[str]    # command keys refused this night
    theft_players: int
    spy_targets: int


class OrderError(Exception):
    """A line that cannot be accepted; the message is the reason the player reads."""


# ---------------------------------------------------------------- names of skills

SKILL_NAMES = {
    "attack": "Атака", "magic_attack": "Атака магией", "spying": "Шпионаж",
    "defense": "Защита", "magic_defense": "Защита от магии", "spy_defense": "Защита от шпионажа",
    "theft_attack": "Кража Атаки", "theft_magic_attack": "Кража Атаки магией",
    "theft_defense": "Кража Защиты", "theft_magic_defense": "Кража Защиты от магии",
    "theft_spy_defense": "Кража Защиты от шпионажа",
}
STEALABLE = ("attack", "magic_attack", "defense", "magic_defense", "spy_defense")

_END = r"(?=$|[\s,.;:()])"
_SEPARATOR = r"\s*(?:[:–—-]\s+|\s+)"     # "Атака: 5", "Атака – 5"; "Атака -5" keeps its sign
_ATTACK = r"атак(?:а|у|и|е|ой)"
_DEFENSE = r"защит(?:а|у|ы|е|ой)"
_MAGIC = r"маги(?:ей|ею|и|ю|я)"
_SKILL_PHRASES = (
    ("magic_attack", _ATTACK + r"\s+" + _MAGIC),
    ("attack", _ATTACK),
    ("magic_defense", _DEFENSE + r"\s+от\s+маги(?:и|ю|я)"),
    ("spy_defense", _DEFENSE + r"\s+от\s+шпионажа"),
    ("defense", _DEFENSE),
    ("spying", r"шпионаж(?:а|у|ем)?"),
)
_THEFT = r"краж(?:а|у|и|е|ей)\s+"
_MODIFICATION = r"модификаци(?:я|ю|и|ей)"
_SELF_WORDS = ("себе", "себя", "свою", "свой", "своё", "свое", "(свою)", "(свой)", "(себе)", "у себя", "на себя")
_UNITS = r"(?:\s+единиц[аыу]?)?"
_NUMBER = re.compile(r"^(\d+)" + _UNITS + r"\s+(.+)$")
_TRAILING_NUMBER = re.compile(r"^(.+?)\s+(\d+)" + _UNITS + "$")
# A number as players write it, signs and fractions included, so that a wrong one is named.
_NUMBER_TOKEN = re.compile(r"[-−–]?\d+(?:[.,]\d+)?")
_PARENS = re.compile(r"^\(\s*([^)]+?)\s*\)[\s,;:]*(.*)$")
# No skill comes near it; a longer number is a typo or an attack on the parser (a 5,000-digit one
# is past Python's int-from-string limit), refused before it is converted.
MAX_AMOUNT = 9999


def _amount(digits: str) -> int:
    """An amount as written, refused with the limit when it is out of range."""
    if len(digits.lstrip("0")) > len(str(MAX_AMOUNT)) or int(digits) > MAX_AMOUNT:
        shown = digits if len(digits) <= 12 else digits[:12] + "…"
        raise OrderError(f"слишком большое число «{shown}»: навык не бывает больше {MAX_AMOUNT}")
    return int(digits)


def _low(text: str) -> str:
    """Lower case with ё as е and c/с unified; same length as the text, so spans carry over."""
    return text.lower().replace("ё", "е")


def _skill_at(low: str, allow_theft: bool) -> tuple[str, int] | None:
    """The skill phrase at the start of `low` ("атаку магией", "кражу атаки") and its end."""
    theft = re.match(_THEFT, low) if allow_theft else None
    start = theft.end() if theft else 0
    for skill, phrase in _SKILL_PHRASES:
        found = re.compile(phrase + _END).match(low, start)
        if found:
            return (f"theft_{skill}" if theft else skill), found.end()
    if re.match(_MODIFICATION + _END, low):
        raise OrderError("Модификацию модифицировать нельзя")
    return None


# ---------------------------------------------------------------- names, numbers, spells, roles

def _nick(text: str, ctx: Context, numbers: str = "в этой команде число не указывается") -> str:
    """The living player `text` names. A number in it that is not part of the nickname is
    refused with `numbers` (fuzzy matching would otherwise swallow "5gosha100" or "-5 gosha100")."""
    text = text.strip().rstrip(".,;!")
    found = resolve_name(text, ctx.roster)
    if not isinstance(found, Resolved):
        for token in _NUMBER_TOKEN.findall(text):
            bare = re.sub(r"^на\s+|\s+на$", "", text.replace(token, " ", 1).strip(), flags=re.IGNORECASE)
            if isinstance(resolve_name(bare, ctx.roster), Resolved):
                raise OrderError(f"непонятное число «{token}» в «{text}»: {numbers}")
        raise OrderError(_unresolved(text, found))
    stray = _stray_number(text, found.nick, ctx.roster)
    if stray:
        raise OrderError(f"непонятное число «{stray}» в «{text}»: {numbers}")
    if found.nick not in ctx.living:
        raise OrderError(f"игрок {found.nick} выбыл из игры")
    return found.nick


def _stray_number(text: str, nick: str, roster: Roster) -> str | None:
    spellings = [nick, *(alias for alias, owner in roster.aliases.items() if owner == nick)]
    for token in _NUMBER_TOKEN.findall(text):
        if not any(token.casefold() in spelling.casefold() for spelling in spellings):
            return token
    return None


def _unresolved(text: str, found) -> str:
    if found.reason == "ambiguous":
        return f"«{text}» подходит нескольким игрокам: {', '.join(found.candidates)}; напишите ник точнее"
    if found.candidates:
        return f"не найден игрок «{text}» (возможно: {', '.join(found.candidates)})"
    return f"не найден игрок «{text}»"


def _split_nick(text: str, ctx: Context) -> tuple[str, str]:
    found, rest = split_name(text, ctx.roster)
    if not isinstance(found, Resolved):
        raise OrderError(_unresolved(text.split(",")[0].split("(")[0].strip(), found))
    if found.nick not in ctx.living:
        raise OrderError(f"игрок {found.nick} выбыл из игры")
    return found.nick, rest


def _is_self(text: str) -> bool:
    return _low(text).strip() in _SELF_WORDS


def _target_amount(text: str, ctx: Context) -> tuple[str, int | None]:
    """`N ник`, `ник N` or `ник` (the nickname may be declined; "на" may precede it)."""
    text = _strip_on(text)
    readings = []
    numbered = _NUMBER.match(text)
    if numbered:
        readings.append((_strip_on(numbered.group(2)), _amount(numbered.group(1))))
    trailing = _TRAILING_NUMBER.match(text)
    if trailing:
        readings.append((trailing.group(1), _amount(trailing.group(2))))
    amounts = "количество пишется целым числом отдельно от ника, например «5 Аскон»"
    for name, amount in readings:
        if isinstance(resolve_name(name, ctx.roster), Resolved):
            return _nick(name, ctx, amounts), amount
    if isinstance(resolve_name(text, ctx.roster), Resolved) or not readings:
        return _nick(text, ctx, amounts), None
    return _nick(readings[0][0], ctx, amounts), readings[0][1]


def _attack_amount(text: str, ctx: Context) -> tuple[str, int | None]:
    target, amount = _target_amount(text, ctx)
    if amount == 0:
        raise OrderError("атака силой 0 ничего не делает: напишите число больше нуля "
                         "или не пишите числа (тогда — весь оставшийся навык)")
    return target, amount


def _strip_on(text: str) -> str:
    return re.sub(r"^(?:на|по)\s+", "", text.strip(), flags=re.IGNORECASE)


def _spell_at(text: str, ctx: Context) -> tuple[str, str]:
    """A spell name at the start of `text` in any case form ("Силу природы", «Ярость»), and what follows."""
    text = re.sub(r"^заклинани(?:е|я|ем)\s+", "", text.strip(), flags=re.IGNORECASE)
    found, rest = split_name(text, Roster(ctx.spells))
    if not isinstance(found, Resolved):
        raise OrderError(f"неизвестное заклинание в «{text}» (заклинания: {', '.join(ctx.spells)})")
    return found.nick, rest


def _role_in_parens(text: str, ctx: Context, what: str) -> tuple[str, str]:
    found = _PARENS.match(text.strip().lstrip(",;: "))
    if not found:
        raise OrderError(f"укажите в скобках роль {what}, например: (Монах)")
    role = resolve_name(found.group(1), Roster(ctx.roles))
    if not isinstance(role, Resolved):
        raise OrderError(f"неизвестная роль «{found.group(1)}»")
    return role.nick, found.group(2)


# ---------------------------------------------------------------- one command each

def _joint(line: str, low: str, ctx: Context) -> Order | None:
    head = re.match(r"^(?:совместно|вместе)\s+(?:с|c|со)\s+", low)
    if not head:
        return None
    partner, rest = _split_nick(line[head.end():], ctx)
    if partner == ctx.sender:
        raise OrderError("напарником в совместной атаке должен быть другой игрок")
    role, rest = _role_in_parens(rest, ctx, "напарника")
    verb = re.match(r"^(?:атакую|атакуем|атаковать|атака)(\s+" + _MAGIC + r")?" + _END + r"\s*", _low(rest))
    if not verb:
        raise OrderError("после напарника ожидается «атакую» или «атакую магией» и цель")
    if not rest[verb.end():].strip(" .,;!"):
        raise OrderError("укажите, кого атакуете вместе с напарником")
    target, amount = _attack_amount(rest[verb.end():], ctx)
    if target in (ctx.sender, partner):
        raise OrderError("цель совместной атаки — третий игрок, не вы и не напарник")
    return JointAttack("magic_attack" if verb.group(1) else "attack", target, amount, partner, role)


def _attack(line: str, low: str, ctx: Context) -> Order | None:
    head = re.match(r"^(?:атака|атакую|атаковать|атакуем)(\s+" + _MAGIC + r")?" + _SEPARATOR, low)
    if not head:
        return None
    target, amount = _attack_amount(line[head.end():], ctx)
    if target == ctx.sender:
        raise OrderError("нельзя атаковать самого себя")
    return Attack("magic_attack" if head.group(1) else "attack", target, amount)


def _trailing_number(text: str) -> tuple[str, str | None]:
    """The words of `text` and the number it ends with (None: it ends with none), in one pass from
    the end: the pattern it replaces, `^(.*?)\\s*(\\d+)?$`, tried every split of a run of digits
    (18 s on 19,000 of them)."""
    end = len(text)
    while end and text[end - 1].isdecimal():      # what \d matches
        end -= 1
    return text[:end].rstrip(), text[end:] or None


def _defend(line: str, low: str, ctx: Context) -> Order | None:
    head = re.match(r"^(?:защита|защиту|защитить|защищаю)(?:\s+от\s+(маги(?:и|ю|я)|шпионажа))?" + _END, low)
    if not head:
        return None
    kind = {None: "defense", "шпионажа": "spy_defense"}.get(head.group(1), "magic_defense")
    rest = re.sub(r"^[:–—-]\s+", "", line[head.end():].strip()).rstrip(".,;!")
    amount_only = re.match(r"^(\d+)?$", rest)
    if amount_only:
        return Defend(kind, ctx.sender, _amount(rest) if rest else None)
    who, digits = _trailing_number(rest)
    if _is_self(who):
        return Defend(kind, ctx.sender, _amount(digits) if digits else None)
    numbered = _NUMBER.match(rest)
    if numbered and _is_self(numbered.group(2)):
        return Defend(kind, ctx.sender, _amount(numbered.group(1)))
    target, amount = _target_amount(rest, ctx)
    return Defend(kind, target, amount)


def _spy(line: str, low: str, ctx: Context) -> Order | None:
    head = re.match(r"^(?:шпионить|шпионю|шпионим|шпионаж|следить|слежу)(?:\s+(?:за|на))?\s+", low)
    if not head:
        return None
    text = line[head.end():]
    if _is_self(text):
        raise OrderError("шпионить за самим собой нельзя")
    names = re.split(r"\s*[,;]\s*|\s+и\s+", text.strip().rstrip(".,;!"))
    if len(names) > 1 and all(isinstance(resolve_name(n, ctx.roster), Resolved) for n in names):
        fix = "напишите одного" if ctx.spy_targets == 1 else "каждого — отдельной строкой"
        raise OrderError(f"за одну ночь можно шпионить не больше чем за {_players(ctx.spy_targets)}; {fix}")
    target = _nick(text, ctx, "величину Шпионажа указывать не нужно")
    if target == ctx.sender:
        raise OrderError("шпионить за самим собой нельзя")
    return Spy(target)


def _steal(line: str, low: str, ctx: Context) -> Order | None:
    head = re.match(r"^(?:краду|украду|украсть|кража|ворую|своровать)\s+", low)
    if not head:
        return None
    found = _skill_at(low[head.end():], allow_theft=False)
    if found is None and re.match(r"у\s", low[head.end():]):
        raise OrderError("сначала навык, потом игрок: «Краду <навык> у <ник>, передаю <ник или себе>»")
    if found is None:
        raise OrderError("укажите навык: Атаку, Атаку магией, Защиту, Защиту от магии или Защиту от шпионажа")
    skill, end = found
    if skill == "spying":
        raise OrderError("Кража навыка Шпионаж невозможна")
    rest = line[head.end() + end:]
    parts = re.match(r"^\s*у\s+(.+?)\s*[,;]?\s+(?:и\s+)?(?:передаю|передать|отдаю|отдать|->|→)\s+(.+)$",
                     rest, flags=re.IGNORECASE)
    if not parts:
        raise OrderError("ожидается «Краду <навык> у <ник>, передаю <ник или себе>»")
    if _is_self(parts.group(1)):
        raise OrderError("красть навыки у себя нельзя")
    victim = _nick(parts.group(1), ctx, "величину Кражи указывать не нужно")
    if victim == ctx.sender:
        raise OrderError("красть навыки у себя нельзя")
    recipient = (ctx.sender if _is_self(parts.group(2).rstrip(".,;!"))
                 else _nick(parts.group(2), ctx, "величину Кражи указывать не нужно"))
    return Steal(skill, victim, recipient)


def _modify(line: str, low: str, ctx: Context) -> Order | None:
    head = re.match(r"^(усилить|усиливаю|усилю|ослабить|ослабляю|ослаблю)\s+(?:(свою|свой|себе)\s+)?", low)
    if not head:
        return None
    found = _skill_at(low[head.end():], allow_theft=True)
    if found is None:
        raise OrderError("укажите навык: Атаку, Атаку магией, Шпионаж, Защиту, Защиту от магии, "
                         "Защиту от шпионажа или Кражу одного из них")
    skill, end = found
    if skill == "theft_spying":
        raise OrderError("навыка «Кража Шпионажа» нет")
    rest = re.sub(r"^(?:у|для)\s+", "", line[head.end() + end:].strip().rstrip(".,;!"), flags=re.IGNORECASE)
    target = (ctx.sender if head.group(2) or not rest or _is_self(rest)
              else _nick(rest, ctx, "величину модификации указывать не нужно, она берётся из таблицы навыков"))
    return Modify(skill, target, head.group(1).startswith("усил"))


def _cast(line: str, low: str, ctx: Context) -> Order | None:
    head = re.match(r"^(?:колдую|колдовать|наколдовать|применяю|применить)\s+", low)
    if not head:
        return None
    spell, rest = _spell_at(line[head.end():], ctx)
    on = re.match(r"^на\s+", _low(rest))
    if not on:
        raise OrderError("ожидается «Колдую <заклинание> на <ник> (<роль>)»")
    target, rest = _split_nick(rest[on.end():], ctx)
    role, rest = _role_in_parens(rest, ctx, "игрока")
    return Cast(spell, target, role)


def _transfer(line: str, low: str, ctx: Context) -> Order | None:
    head = re.match(r"^(?:передать|передаю|отдать|отдаю)\s+", low)
    if not head:
        return None
    spell, rest = _spell_at(line[head.end():], ctx)
    to = _nick(re.sub(r"^(?:игроку|для|->|→)\s+", "", rest.strip(), flags=re.IGNORECASE), ctx)
    if to == ctx.sender:
        raise OrderError("передать заклинание можно только другому игроку")
    return Transfer(spell, to)


def _exchange(line: str, low: str, ctx: Context) -> Order | None:
    head = re.match(r"^(?:меняюсь|меняемся|обмен)\s+(?:с|c|со)\s+", low)
    if not head:
        return None
    partner, rest = _split_nick(line[head.end():], ctx)
    if partner == ctx.sender:
        raise OrderError("меняться можно только с другим игроком")
    give, rest = _spell_at(rest.lstrip(" ,:;"), ctx)
    on = re.match(r"^на\s+", _low(rest))
    if not on:
        raise OrderError("ожидается «Меняюсь с <ник>, <своё заклинание> на <нужное заклинание>»")
    take, tail = _spell_at(rest[on.end():], ctx)
    if tail.strip(" .,;!"):
        raise OrderError(f"лишний текст после заклинания: «{tail.strip()}»")
    return Exchange(partner, give, take)


# Tried in turn; the joint attack first because it also contains "атакую".
_GRAMMAR: tuple[Callable[[str, str, Context], Order | None], ...] = (
    _joint, _attack, _defend, _spy, _steal, _modify, _cast, _transfer, _exchange,
)


# ---------------------------------------------------------------- limits that hold for any role

def _limit_problem(order: Order, accepted: Sequence[Order], ctx: Context) -> str | None:
    if order.key in ctx.banned:
        return "в первую ночь эта команда запрещена"
    if isinstance(order, (Attack, JointAttack)):
        if any(isinstance(o, (Attack, JointAttack)) and o.kind == order.kind and o.target == order.target
               for o in accepted):
            return f"{order.target} уже атакован этим видом атаки этой ночью; дважды нельзя"
    if isinstance(order, Spy) and len([o for o in accepted if isinstance(o, Spy)]) >= ctx.spy_targets:
        return f"за одну ночь можно шпионить не больше чем за {_players(ctx.spy_targets)}"
    if isinstance(order, Steal):
        return _theft_problem(order, [o for o in accepted if isinstance(o, Steal)], ctx)
    if isinstance(order, Modify):
        for other in accepted:
            if isinstance(other, Modify) and other.skill == order.skill:
                return ("этот навык уже модифицирован этой ночью" if other.target == order.target
                        else "нельзя модифицировать один и тот же навык у разных игроков")
    return None


def _players(count: int) -> str:
    """«не больше N игроков» with N from the rule table: «1 игрока», «2 игроков», «21 игрока»."""
    return f"{count} {plural(count, 'игрока', 'игроков', 'игроков')}"


def _theft_problem(order: Steal, thefts: list[Steal], ctx: Context) -> str | None:
    for other in thefts:
        if other.skill == order.skill:
            return ("этот навык у этого игрока уже украден этой ночью" if other.victim == order.victim
                    else "нельзя красть один и тот же навык у разных игроков")
    victims = {o.victim for o in thefts}
    if order.victim not in victims and len(victims) >= ctx.theft_players:
        return f"за одну ночь можно обокрасть не больше {_players(ctx.theft_players)}"
    return None


# ---------------------------------------------------------------- canonical form (receipts)

def canonical(order: Order, roles: bool = True, genders: Mapping[str, str | None] | None = None) -> Echo:
    """How a receipt repeats the command; `roles=False` drops the roles the sender named
    (for public reports, which never name a role of a living player); its nicks are names a
    template writes by its agreement (a seat as its holder), declined by their players' genders."""
    def said(phrase: str, names: Mapping[str, str], **words: Any) -> Echo:
        return Echo(phrase, names, genders, **{key: str(value) for key, value in words.items()})

    def amount(value: int | None, everything: str) -> str:
        return f" {value}" if value is not None else everything

    match order:
        case JointAttack():
            return said("Совместная {kind}{amount} → {target} (напарник: {partner}{role}){rest}",
                        {"target": order.target, "partner": order.partner},
                        kind=SKILL_NAMES[order.kind].lower(), amount=amount(order.amount, ""),
                        role=", " + order.partner_role if roles else "",
                        rest="" if order.amount is not None else ", весь оставшийся навык")
        case Attack():
            return said("{kind}{amount} → {target}{rest}", {"target": order.target},
                        kind=SKILL_NAMES[order.kind], amount=amount(order.amount, ""),
                        rest="" if order.amount is not None else " (весь оставшийся навык)")
        case Defend():
            return said("{kind}{amount} → {target}{rest}", {"target": order.target},
                        kind=SKILL_NAMES[order.kind], amount=amount(order.amount, ""),
                        rest="" if order.amount is not None else " (весь оставшийся потенциал)")
        case Spy():
            return said("Шпионаж → {target}", {"target": order.target})
        case Steal():
            return said("Кража: {skill} у {victim:родительный} → {recipient}",
                        {"victim": order.victim, "recipient": order.recipient}, skill=SKILL_NAMES[order.skill])
        case Modify():
            return said("{verb}: {skill} → {target}", {"target": order.target},
                        verb="Усилить" if order.up else "Ослабить", skill=SKILL_NAMES[order.skill])
        case Cast():
            return said("Колдую «{spell}» на {target:винительный}{role}", {"target": order.target},
                        spell=order.spell, role=f" ({order.role})" if roles else "")
        case Transfer():
            return said("Передать «{spell}» → {to}", {"to": order.to}, spell=order.spell)
        case Exchange():
            return said("Обмен с {partner:творительный}: «{give}» на «{take}»", {"partner": order.partner},
                        give=order.give, take=order.take)
    raise TypeError(order)


# ---------------------------------------------------------------- lines and messages

_REMARK = re.compile(r"^(.*?)\s*[-–—]?\s*\([^()]*\)[.,;!]*$")


def parse_line(line: str, ctx: Context, accepted: Sequence[Order]) -> Verdict:
    """A line that does not parse but ends in a remark in parentheses ("Защита от магии Аскон 5
    (весь потенциал использован)") is read again without the remark."""
    verdict = _parse_command(line, line, ctx, accepted)
    remark = _REMARK.match(line.strip())
    if not verdict.ok and remark:
        retry = _parse_command(line, remark.group(1), ctx, accepted)
        return retry if retry.ok else verdict
    return verdict


_LIST_MARK = re.compile(r"^(?:\d{1,2}[.)]|[-–—•*])\s+")
_COMMANDS = ("Атака, Атака магией, Совместно с, Защита, Шпионить, Краду, Усилить, Ослабить, "
             "Колдую, Передать, Меняюсь с")
_BARE_VERB = re.compile(r"^(?:атак\w*|совместно|шпион\w*|краду|кража|усил\w*|ослаб\w*|колдую|передать|передаю"
                        r"|меняюсь)$")


def _unknown_command(low: str) -> str:
    if _BARE_VERB.match(low):
        return "команда не закончена: укажите, на кого она направлена"
    return f"команда не распознана: строка должна начинаться с команды ({_COMMANDS})"


def _parse_command(line: str, command: str, ctx: Context, accepted: Sequence[Order]) -> Verdict:
    text = _LIST_MARK.sub("", command.strip()).rstrip(".,;!").strip()
    low = _low(text)
    try:
        for rule in _GRAMMAR:
            order = rule(text, low, ctx)
            if order is not None:
                problem = _limit_problem(order, accepted, ctx)
                if problem:
                    return Rejected(line, problem)
                return Accepted(line, order, canonical(order, genders=ctx.roster.genders))
    except OrderError as error:
        return Rejected(line, str(error))
    return Rejected(line, _unknown_command(low))


def parse_orders(text: str, ctx: Context, earlier: Sequence[str] = ()) -> list[Verdict]:
    """Verdicts on the lines of one PM; `earlier` are the sender's previous PMs this night,
    whose accepted commands count against the night's limits."""
    accepted: list[Order] = []

    def read(line: str) -> Verdict:
        verdict = parse_line(line, ctx, accepted)
        if verdict.ok:
            accepted.append(verdict.order)
        return verdict

    for old in earlier:
        read_lines(old, read)
    return read_lines(text, read)
