"""What one PM or page may cost: every reader linear in its input, or held to a limit the player
is told of.

The probe campaign stalled every tick with a 19,000-digit PM (18 s: Legends' `_defend` tried every
split of the digits), a 1,500-line Bellum PM (6.4 s of name matching) and a post of 10,000 nested
quotes (6.8 s in the HTML parser). The inputs here are sizes a quadratic reader would spend
minutes on; what is asserted is behaviour and the work done (lines read, depth parsed), never time.
"""
from __future__ import annotations

import re

import pytest

from forumgm.engines.base import (LINE_TOO_LONG, MAX_LINE_LENGTH, MAX_LINES, TOO_MANY_LINES, OrderPm, Phase,
                                  split_lines)
from forumgm.engines.legends.orders import order_context
from forumgm.parsers.forums import phpbb
from forumgm.parsers.forums.html import MAX_DEPTH, limit_depth, parse_html
from forumgm.parsers.orders import arena, bellum, legends, mafia
from forum_parser_fixtures import CAPTURED, page
from test_forum_parsers_deep import with_bodies
from test_fuzz_hostile_input import games_with_a_grammar, started
from test_legends_grammar import STATE as LEGENDS

GRAMMARS = {"legends": legends, "mafia": mafia, "arena": arena, "bellum": bellum}
HUGE = 200_000


@pytest.mark.parametrize("game_type", games_with_a_grammar())
def test_a_huge_line_or_a_huge_pm_is_answered_line_by_line_and_read_only_up_to_the_limits(game_type, monkeypatch):
    rules, state, phases, players = started(game_type)
    read = []
    grammar = GRAMMARS[game_type]
    parse_line = grammar.parse_line
    monkeypatch.setattr(grammar, "parse_line", lambda line, *args: read.append(line) or parse_line(line, *args))
    monkeypatch.setattr(f"forumgm.engines.{game_type}.orders.parse_line", grammar.parse_line, raising=False)
    digits, spaces = "Защита " + "1" * HUGE + "x", "голос:" + " " * HUGE + "x" + " " * HUGE + "1"
    many = [f"строка {n}" for n in range(1, 1500)]
    text = "\n".join([digits, spaces, *many])
    verdicts = rules.read_orders(state, phases[0], OrderPm(players[0], text), [])
    lines = split_lines(text)
    assert [v.line for v in verdicts] == lines and len(lines) == 1501        # every line answered
    assert lines[1] == "голос: x 1"                                          # a run of spaces is one space
    assert (verdicts[0].ok, verdicts[0].reason) == (False, LINE_TOO_LONG)
    assert all(not v.ok and v.reason == TOO_MANY_LINES for v in verdicts[MAX_LINES:])
    assert all(v.reason not in (LINE_TOO_LONG, TOO_MANY_LINES) for v in verdicts[1:MAX_LINES])
    assert len(read) == MAX_LINES - 1 and max(map(len, read)) <= MAX_LINE_LENGTH


def test_the_limits_are_said_in_the_receipt():
    assert LINE_TOO_LONG == "строка длиннее 500 знаков не читается: один приказ — одна короткая строка"
    assert TOO_MANY_LINES == ("не прочитано: в одном сообщении читаются первые 200 строк; "
                              "пришлите остальные приказы отдельным сообщением")


def test_legends_reads_a_defence_ending_in_a_run_of_digits_in_one_pass():
    """The grammar itself, below the line limit: `^(.*?)\\s*(\\d+)?$` took 18 s on 19,000 digits and
    would take half an hour on these 200,000."""
    context = order_context(LEGENDS, Phase("night", 2), OrderPm("Кума", ""))
    verdict = legends.parse_line("Защита " + "1" * HUGE + "x", context, [])
    assert not verdict.ok and verdict.reason.startswith("не найден игрок «111")
    assert legends.parse_line("Защита себя 5", context, []).order == legends.Defend("defense", "Кума", 5)
    assert legends.parse_line("Защита себе", context, []).order == legends.Defend("defense", "Кума", None)


QUOTES = 10_000


def deepest(node) -> int:
    """The nesting of the deepest element under `node` (walked with a stack of its own)."""
    depth, stack = 0, [(node, 0)]
    while stack:
        node, level = stack.pop()
        depth = max(depth, level)
        child = node.child
        while child is not None:
            stack.append((child, level + 1))
            child = child.next
    return depth


def test_a_post_of_ten_thousand_nested_quotes_is_read_whole_and_parsed_to_a_bounded_depth():
    """The parser's cost per tag grows with the elements open around it: held to MAX_DEPTH blocks,
    a page costs its length times a constant. What the deep post says is still read, in its quote."""
    deep = ('<blockquote><div><cite>x wrote:</cite>' * QUOTES + '<span style="color:blue">Robozik</span>'
            + "</div></blockquote>" * QUOTES)
    html = with_bodies(page("phpbb", "thread_page1"), deep, 'Голосую за <span style="color:blue">Аскон</span>')
    assert deepest(parse_html(html).root) <= MAX_DEPTH + 2 * 40     # the theme's own blocks, inline tags
    original = phpbb.posts(page("phpbb", "thread_page1"), "UTC", CAPTURED)
    posts = phpbb.posts(html, "UTC", CAPTURED)
    assert [p.id for p in posts] == [p.id for p in original] and posts[2:] == original[2:]
    assert [(f.where, f.text) for f in posts[0].flagged] == [("quote", "Robozik")]
    assert [(f.color, f.text) for f in posts[1].colored] == [("#0000ff", "Аскон")]
    assert posts[0].text.count("x wrote:") == QUOTES            # no text of the dropped tags' content lost


def test_a_page_within_the_depth_is_left_as_it_is():
    html = page("phpbb", "thread_page1")
    assert limit_depth(html) is html
    nested = "<div>" * 300 + "<b>x</b>" + "</div>" * 300
    kept = limit_depth(nested)
    assert kept == "<div>" * MAX_DEPTH + "<b>x</b>" + "</div>" * MAX_DEPTH
    assert re.sub("<[^>]*>", "", kept) == "x"
