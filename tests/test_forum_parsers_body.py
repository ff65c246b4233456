"""Reading one rendered body (phpBB markup): colours, nested quotes, spoilers, code."""
import pytest

from forumgm.parsers.forums.phpbb import post_body

QUOTE = '<blockquote><div><cite>{who} wrote:</cite>{inner}</div></blockquote>'


def colored(html):
    return [(f.color, f.text) for f in post_body(html)[2]]


@pytest.mark.parametrize("html", [
    '<span style="color:blue">Ник</span>', '<span style="color: blue">Ник</span>',
    '<span style="COLOR : #00F;">Ник</span>', '<span style="color:#0000FF">Ник</span>',
    '<span style="color: rgb(0, 0, 255)">Ник</span>', '<font color="blue">Ник</font>',
    '<font color=#0000ff>Ник</font>', '<span style="color:blue"><b>Ник</b></span>',
    '<span style="color:blue"> <strong class="text-strong">Ник</strong> </span>',
    '<b><span style="color:blue">Ник</span></b>',
])
def test_every_blue_spelling_gives_one_stripped_fragment(html):
    assert colored(f"Голосую за {html}!") == [("#0000ff", "Ник")]


def test_red_is_kept_as_red_and_page_order_is_kept():
    assert colored('<span style="color:red">Один</span> и <span style="color:blue">Два</span>') == [
        ("#ff0000", "Один"), ("#0000ff", "Два")]


@pytest.mark.parametrize("html, fragments", [
    ('<span style="color:blue">Ас</span><span style="color:#00f">кон</span>', ["Аскон"]),
    ('<span style="color:blue">Ас</span><b><span style="color:blue">кон</span></b>', ["Аскон"]),
    ('<span style="color:blue">Кума</span> <span style="color:blue">Тор</span>', ["Кума", "Тор"]),
    ('<span style="color:blue">Кума</span><br><span style="color:blue">Тор</span>', ["Кума", "Тор"]),
    ('<span style="color:blue">Кума</span><span style="color:red">!</span><span style="color:blue">Тор</span>',
     ["Кума", "Тор"]),
])
def test_touching_spans_of_one_colour_are_one_fragment_and_a_gap_separates_them(html, fragments):
    assert [text for color, text in colored(html) if color == "#0000ff"] == fragments


def test_background_colour_is_not_text_colour():
    assert colored('<span style="background-color: blue">Ник</span>') == []


def test_nested_colour_inside_colour_is_its_own_fragment():
    html = '<span style="color:blue">Голос: <span style="color:red">Ник</span></span>'
    assert colored(html) == [("#0000ff", "Голос:"), ("#ff0000", "Ник")]


def test_nested_quotes_are_all_removed_and_their_votes_flagged_as_quoted():
    inner = QUOTE.format(who="A", inner='Голосую за <span style="color:blue">Первый</span>')
    outer = QUOTE.format(who="B", inner=inner + 'и я за <span style="color:blue">Второй</span>')
    text, unquoted, fragments, flagged = post_body(outer + 'Мой голос: <span style="color:blue">Третий</span>')
    assert "Первый" in text and "Второй" in text
    assert unquoted == "Мой голос: Третий"
    assert [f.text for f in fragments] == ["Третий"]
    assert [(f.text, f.where) for f in flagged] == [("Первый", "quote"), ("Второй", "quote")]


def test_code_and_spoiler_blocks_are_flagged_not_counted():
    html = ('<div class="codebox"><p>Code:</p><pre><code><span style="color:blue">Код</span></code></pre></div>'
            '<div class="spoiler"><span style="color:blue">Спойлер</span></div>'
            'Голосую за <span style="color:blue">Ник</span>')
    _, _, fragments, flagged = post_body(html)
    assert [f.text for f in fragments] == ["Ник"]
    assert [(f.text, f.where) for f in flagged] == [("Код", "code"), ("Спойлер", "spoiler")]


def test_literal_spoiler_text_is_treated_as_a_spoiler():
    html = ('[spoiler]думаю про <span style="color:blue">Аскон</span>[/spoiler]<br>\n'
            'Голосую за <span style="color:blue">Кума</span>')
    _, _, fragments, flagged = post_body(html)
    assert [f.text for f in fragments] == ["Кума"]
    assert [(f.text, f.where) for f in flagged] == [("Аскон", "spoiler")]


def test_line_breaks_and_whitespace():
    text = post_body("Первая<br>\n   вторая   строка<br>\n<br>\n<br>\nчетвёртая")[0]
    assert text == "Первая\nвторая строка\n\nчетвёртая"


def test_empty_coloured_span_is_no_fragment():
    assert colored('<span style="color:blue">  </span>текст') == []


def test_every_kind_of_whitespace_is_one_space_and_single_spaces_stay():
    assert post_body("a\u00a0\u00a0b\tc \u2003 d\u3000e f")[0] == "a b c d e f"


def test_a_processing_instruction_in_a_body_is_read_as_nothing():
    # lexbor keeps `<?php … ?>` as a node of its own (a browser makes it a comment): no text,
    # and no error that would stop the game over one post
    assert post_body('Голосую за <?php echo 1 ?><span style="color:blue">Кума</span>')[:3] == (
        "Голосую за Кума", "Голосую за Кума", post_body('Голосую за <span style="color:blue">Кума</span>')[2])
