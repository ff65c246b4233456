"""Hypothesis fuzzing of what players write: every order grammar and the post parser.

Whatever a PM says, every line of it gets a verdict (accepted, or refused with a reason) and
nothing raises; whatever a post nests, every post of the page is read. The grammars are found,
not listed: every game with an engine and a config/games/<type>.example.toml joins by itself
(its example players and first phases are used). Derandomised and bounded for CI.
"""
from __future__ import annotations

import importlib.util
import json
import re
from functools import lru_cache
from html import escape

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from forumgm.config import data_path
from forumgm.daemon.settings.game import load_game
from forumgm.daemon.settings.games import rules_for
from forumgm.daemon.settings.setup_files import with_setup_files
from forumgm.engines.base import Accepted, OrderPm, Rejected, split_lines
from forumgm.parsers.bbcode import KNOWN, to_phpbb_html
from forumgm.parsers.forums import phpbb
from forum_parser_fixtures import CAPTURED, page

FUZZ = settings(derandomize=True, max_examples=100, deadline=None, database=None,
                suppress_health_check=[HealthCheck.too_slow])
PHASES = 3       # the first phases of each game, nights and days alike


def games_with_a_grammar() -> list[str]:
    """Every example game whose engine is part of this forumgm."""
    found = []
    for path in sorted(data_path("games").glob("*.example.toml")):
        game_type = path.name.removesuffix(".example.toml")
        if importlib.util.find_spec(f"forumgm.engines.{game_type}") is not None:
            found.append(game_type)
    return found


# A game whose example has few players is fuzzed with a table as full as a real one: Bellum's 370
# scenario with the three free states, two captured ones and seven tribes.
ROSTERS = {
    "bellum": [{"nick": nick, "role": faction} for nick, faction in (
        ("Аскон", "Западная Римская империя"), ("Византиец", "ВРИ"), ("Шах", "Сассаниды"), ("Копт", "Копты"),
        ("Тигран", "Армяне"), ("Хан", "Вестготы"), ("Германарих", "Остготы"), ("Аттила", "Гунны"),
        ("Хлодвиг", "Франки"), ("Гейзерих", "Вандалы"), ("Саргон", "Аланы"), ("Хенгист", "Саксы"))],
}


@lru_cache(maxsize=None)
def started(game_type: str):
    """(rules, state, phases, players) of the example game, as the daemon would deal it."""
    config = load_game(data_path("games", f"{game_type}.example.toml"))
    rules = rules_for(config.type, config.rules)
    table = config.setup_table()
    table["players"] = ROSTERS.get(game_type, table["players"])
    state = rules.setup(with_setup_files(rules, table, config.source.parent), config.seed)
    phases = [rules.first_phase(state)]
    while len(phases) < PHASES and (following := rules.next_phase(state, phases[-1])) is not None:
        phases.append(following)
    return rules, state, tuple(phases), tuple(rules.alive(state))


# Words order grammars are written in, numbers players (and attackers) write, and the characters
# that broke parsers before: digits beyond int's limit, invisible and bidi characters, brackets.
HEADS = ("атака", "атакую", "атака магией", "защита", "защита от магии", "защита от шпионажа", "шпионить за",
         "краду атаку у", "передаю", "усилить", "ослабить", "колдую", "меняюсь с", "совместно с", "голос:",
         "голосую за", "не судить", "проверить", "лечить", "блокировать", "убить", "выстрел в",
         "ночное действие:", "1.", "-", "•",
         # Arena: stacks, replacements, sequence names with zones, codes
         "Правая рука:", "ПР:", "ЛР:", "Ноги:", "Н:", "замена ПР:", "Выпад(голова),", "X L(т) X", "Отдых ×",
         # Bellum: moves, stays, retreats, states' orders, kingdoms, events, the end of a turn
         "из", "в", ", атакуя", "атакуя всех", "мирно", "Паннония:", "Аланы: Сарматия:", "бездействовать",
         "встретить боем", "встретить боем всех приходящих", "атаковать всех", "отступать из", "присоединить",
         "оставить", "оставить регион", "ассимилировать", "сделать государством", "столица",
         "согласны стать государством", "объявить независимость в", "событие", "вариант", "ход готов")
NUMBERS = ("0", "5", "-5", "2,5", "٣", "9" * 30, "9" * 5000, "1" + "0" * 4400)
WORDS = ("у", "себе", "на", "за", "и", "(", ")", "«", "»", ",", ";", ":", "—", "\u200b", "\u202e", "\ufeff",
         "[b]", "[/quote]",
         # names orders give besides players': provinces and factions in their case forms and aliases
         "Паннонии", "Норик", "Италию", "Египте", "Иллирик", "Сарматии", "Дакию", "Фракия", "Асорестан",
         "Британия", "вестготов", "аланов", "ЗРИ", "Византии", "персов", "готов", "Рим", "Паннония\u0301")
PLAIN = st.text(st.characters(blacklist_categories=("Cs",)), max_size=40)


def order_text(players: tuple[str, ...]):
    """PMs of up to six lines: most shaped like orders (a command, numbers, names, in any order),
    some any words at all."""
    word = st.one_of(st.sampled_from(WORDS), st.sampled_from(NUMBERS), st.sampled_from(players), PLAIN)
    shaped = st.tuples(st.sampled_from(HEADS), st.lists(word, max_size=5)).map(
        lambda parts: " ".join((parts[0], *parts[1])))
    line = st.one_of(shaped, st.lists(word, max_size=8).map(" ".join))
    return st.lists(line, max_size=6).map("\n".join)


@pytest.mark.parametrize("game_type", games_with_a_grammar())
def test_every_line_of_any_pm_gets_a_verdict(game_type):
    rules, state, phases, players = started(game_type)

    @FUZZ
    @given(text=order_text(players), sender=st.sampled_from(players), phase=st.sampled_from(phases),
           earlier=st.lists(order_text(players), max_size=2))
    def check(text, sender, phase, earlier):
        verdicts = rules.read_orders(state, phase, OrderPm(sender, text), [OrderPm(sender, e) for e in earlier])
        lines = split_lines(text)
        for verdict in verdicts:
            assert isinstance(verdict, (Accepted, Rejected))
            assert verdict.line in lines
            if not verdict.ok:
                assert isinstance(verdict.reason, str) and verdict.reason.strip()
                assert len(verdict.reason) < 400 + len(verdict.line)
            json.dumps(verdict.as_json(), ensure_ascii=False)      # what the store keeps
        assert {v.line for v in verdicts} <= set(lines)

    check()


def test_the_registry_finds_the_games_that_have_an_engine():
    assert {"legends", "mafia", "bellum", "arena"} <= set(games_with_a_grammar())


def test_bellum_is_fuzzed_with_a_full_table_of_the_370_scenario():
    rules, state, phases, players = started("bellum")
    assert len(players) == len(ROSTERS["bellum"]) == 12
    # each player commands his faction where the scenario puts it: Хан's Visigoths are 6 in Moldavia
    ordered = rules.read_orders(state, phases[0], OrderPm("Хан", "3 из Молдавии в Валахию, атакуя всех\n"
                                                                "9 из Молдавии в Валахию"), [])
    assert [(v.ok, v.canonical if v.ok else v.reason) for v in ordered] == [
        (True, "3 из Молдавии в Валахию, атакуя всех"),
        (False, "в Молдавии 6 чел. (Вестготы), из них ещё не отправлено 3")]


# ---------------------------------------------------------------- the post parser

TAGS = st.sampled_from(KNOWN)
ARGS = st.one_of(st.none(), st.sampled_from(("blue", "#0000ff", "red", "150", "x", "9" * 5000,
                                             '"Аскон" post_id=1 time=99999999999', "http://x", "javascript:x")))


@st.composite
def bbcode(draw, depth: int = 0):
    pieces = []
    for _ in range(draw(st.integers(0, 4))):
        kind = draw(st.integers(0, 3))
        if kind == 0 or depth > 6:
            pieces.append(draw(st.one_of(PLAIN, st.sampled_from(("Аскон", "gosha100", "\n", "[", "]", "[/color]")))))
        elif kind == 1:          # hundreds deep: the nesting that once raised RecursionError
            tag = draw(st.sampled_from(("quote", "color=blue", "b")))
            count = draw(st.sampled_from((1, 2, 3, 300, 500)))
            pieces.append(f"[{tag}]" * count + "Аскон" + f"[/{tag.split('=')[0]}]" * draw(st.integers(0, count)))
        else:
            tag, arg = draw(TAGS), draw(ARGS)
            opening = f"[{tag}={arg}]" if arg is not None else f"[{tag}]"
            closing = f"[/{tag}]" if draw(st.booleans()) else ""
            pieces.append(opening + draw(bbcode(depth + 1)) + closing)
    return "".join(pieces)


PAGE = page("phpbb", "thread_page1")
BODY = re.compile(r'(<div class="content">)(.*?)(</div>\s*\n)', re.S)


@FUZZ
@given(post=bbcode())
def test_any_post_renders_and_every_post_of_its_page_is_read(post):
    html = BODY.sub(lambda m: m.group(1) + to_phpbb_html(post) + m.group(3), PAGE, count=1)
    posts = phpbb.posts(html, "UTC", CAPTURED)
    assert len(posts) == len(phpbb.posts(PAGE, "UTC", CAPTURED))
    assert all(isinstance(f.text, str) for p in posts for f in p.colored + p.flagged)


HTML_TAGS = ("blockquote", "div", "span", "b", "font", "details", "pre", "code", "p", "cite")


@st.composite
def html(draw, depth: int = 0):
    pieces = []
    for _ in range(draw(st.integers(0, 4))):
        if depth > 5 or draw(st.booleans()):
            # a board escapes what its users type: text arrives as text, tags only as it renders them
            pieces.append(draw(st.one_of(PLAIN.map(escape), st.sampled_from(("&lt;", "&amp;", "<br>", "&#8238;")))))
            continue
        tag = draw(st.sampled_from(HTML_TAGS))
        attrs = draw(st.sampled_from(("", ' style="color:blue"', ' style="color:' + "9" * 300 + '"',
                                      ' color="#00f"', ' class="codebox"')))
        times = draw(st.sampled_from((1, 1, 2, 600)))
        pieces.append(f"<{tag}{attrs}>" * times + draw(html(depth + 1)) + f"</{tag}>" * times)
    return "".join(pieces)


@FUZZ
@given(body=html())
def test_any_post_html_is_read_and_the_rest_of_the_page_counts(body):
    page_html = BODY.sub(lambda m: m.group(1) + body + m.group(3), PAGE, count=1)
    posts = phpbb.posts(page_html, "UTC", CAPTURED)
    original = phpbb.posts(PAGE, "UTC", CAPTURED)
    assert [p.id for p in posts] == [p.id for p in original]
    assert posts[1:] == original[1:]
