"""The Russian plural rule templates call as a filter, and the time-left phrase built on it."""
from __future__ import annotations

import pytest

from forumgm.config import data_path, read_templates
from forumgm.engines.texts import Texts, plural

FORMS = ("минута", "минуты", "минут")


@pytest.mark.parametrize("count, form", [
    (1, "минута"), (21, "минута"), (101, "минута"), (1001, "минута"),
    (2, "минуты"), (3, "минуты"), (4, "минуты"), (22, "минуты"), (104, "минуты"),
    (0, "минут"), (5, "минут"), (10, "минут"), (11, "минут"), (12, "минут"), (14, "минут"),
    (19, "минут"), (20, "минут"), (111, "минут"), (112, "минут"), (-1, "минута"), (-12, "минут"),
])
def test_plural_picks_the_form_russian_puts_after_the_number(count, form):
    assert plural(count, *FORMS) == form


def test_templates_call_it_as_a_filter():
    texts = Texts({"t.j2": '{{ n }} {{ n | plural("час", "часа", "часов") }}'})
    assert [texts.render("t.j2", n=n) for n in (1, 3, 7, 24)] == ["1 час", "3 часа", "7 часов", "24 часа"]


@pytest.fixture(scope="module")
def left():
    sources = read_templates(data_path("templates"))
    texts = Texts({**sources, "t.j2": '{% import "common/time_left.j2" as time %}{{ time.left(minutes) }}'})
    return lambda minutes: texts.render("t.j2", minutes=minutes)


@pytest.mark.parametrize("minutes, phrase", [
    (1, "осталась 1 минута"), (2, "осталось 2 минуты"), (5, "осталось 5 минут"), (21, "осталась 21 минута"),
    (60, "остался 1 час"), (61, "остался 1 час 1 минута"), (90, "остался 1 час 30 минут"),
    (125, "осталось 2 часа 5 минут"), (180, "осталось 3 часа"), (300, "осталось 5 часов"),
    (1260, "остался 21 час"), (1320, "осталось 22 часа"),
])
def test_time_left_agrees_the_verb_and_the_units_with_the_numbers(left, minutes, phrase):
    assert left(minutes) == phrase
