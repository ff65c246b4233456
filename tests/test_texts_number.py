"""Numbers in player texts as Russian writes them: a decimal comma («1,5») and a true minus."""
from __future__ import annotations

import pytest

from forumgm.engines.texts import Texts, number


@pytest.mark.parametrize("value, sign, text", [
    (1.5, False, "1,5"), (0.75, False, "0,75"), (4.0, False, "4"), (24.33, False, "24,33"),
    (-0.5, False, "−0,5"), (1234567.25, False, "1234567,25"), (3, False, "3"),
    (1, True, "+1"), (-1, True, "−1"), (0.5, True, "+0,5"),
])
def test_a_number_is_written_the_russian_way(value, sign, text):
    assert number(value, sign=sign) == text


def test_every_float_a_template_prints_has_the_comma_and_whole_numbers_stay_as_they_are():
    texts = Texts({"t.j2": "{{ a }} / {{ b }} / {{ c }} / {{ d | number(sign=True) }}"})
    assert texts.render("t.j2", a=2.25, b=6.0, c=370, d=-1) == "2,25 / 6 / 370 / −1"
