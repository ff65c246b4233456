"""to_phpbb_html renders what a real phpBB 3.3 board rendered for the same BBCode (saved pages)."""
import re
from pathlib import Path

import pytest
from forumgm.parsers.bbcode import to_phpbb_html

PAGES = Path(__file__).parent / "fixtures" / "forums" / "phpbb"


def rendered_content(post_id: str) -> str:
    """The raw bytes of one post's content div, as the board sent them."""
    for page in sorted(PAGES.glob("thread_page*.html")):
        html = page.read_text(encoding="utf-8")
        start = html.find(f'id="post_content{post_id}"')
        if start >= 0:
            return re.compile(r'<div class="content">(.*?)</div>\n\n', re.S).search(html, start).group(1)
    raise LookupError(post_id)


# The stored BBCode of the fixture posts (phpBB's own quote button wraps multi-line text in newlines).
SOURCES = {
    "2": "Начинается [b]День 1[/b].\nГолосуем за подозреваемых в формате: Голосую за [color=blue]ник[/color]\n"
         "Голосование до 20:00 МСК. Удачи!",
    "4": "Странно, что меня сразу подозревают.\nГолосую за [color=blue]Robozik[/color]",
    "5": "[quote=gosha100 post_id=4 time=1796013781 user_id=59]\nСтранно, что меня сразу подозревают.\n"
         "Голосую за [color=blue]Robozik[/color]\n[/quote]\nНу конечно, стрелки переводишь. "
         "Голосую за [color=blue]gosha100[/color]",
    "8": "Голосую за [color=blue]Кума[/color]\n[spoiler]Мои заметки: Аскон скорее всего мирный, "
         "gosha100 под вопросом.[/spoiler]",
    "10": "[quote=Гладиатор post_id=8 time=1796013795 user_id=63]\nГолосую за [color=blue]Кума[/color]\n"
          "[spoiler]Мои заметки: Аскон скорее всего мирный, gosha100 под вопросом.[/spoiler]\n[/quote]\n"
          "Без доказательств обвиняешь. Голосую за [color=blue]Гладиатор[/color]",
    "12": "Подтверждаю свой голос: Голосую за [color=#0000FF]gosha100[/color]",
}


@pytest.mark.parametrize("post_id", sorted(SOURCES))
def test_byte_exact(post_id):
    assert to_phpbb_html(SOURCES[post_id]) == rendered_content(post_id)


def test_text_is_escaped_and_cannot_inject_markup():
    html = to_phpbb_html('<script>alert("x")</script> & [color=blue" onclick="x]Хан[/color]')
    assert "<script>" not in html
    assert "&lt;script&gt;" in html and "&amp;" in html
    assert "onclick" not in html.replace("[color=blue\" onclick=\"x]", "")


def test_nested_quotes():
    html = to_phpbb_html('[quote="Хан"][quote=Зорро]внутри[/quote]\nснаружи[/quote]\nсвоё')
    assert html == ("<blockquote><div><cite>Хан wrote:</cite><blockquote><div><cite>Зорро wrote:</cite>"
                    "внутри</div></blockquote>\nснаружи</div></blockquote>\nсвоё")


def test_uncited_quote_and_unknown_or_unclosed_tags_stay_literal():
    assert to_phpbb_html("[quote]x[/quote]") == '<blockquote class="uncited"><div>x</div></blockquote>'
    assert to_phpbb_html("[spoiler]a[/spoiler]") == "[spoiler]a[/spoiler]"
    assert to_phpbb_html("[b]жирный") == "[b]жирный"
    assert to_phpbb_html("a[/b]") == "a[/b]"


def test_code_keeps_bbcode_literal():
    html = to_phpbb_html("[code][color=blue]Хан[/color] <b>[/code]")
    assert '<pre><code>[color=blue]Хан[/color] &lt;b&gt;</code></pre>' in html
    assert '<span style="color:blue">' not in html


def test_inline_tags_and_urls():
    assert to_phpbb_html("[i]к[/i][u]п[/u][size=150]б[/size]") == (
        '<em class="text-italics">к</em><span style="text-decoration:underline">п</span>'
        '<span style="font-size:150%;line-height:116%">б</span>')
    assert to_phpbb_html("[url=https://x.org/?a=1&b=2]сайт[/url]") == (
        '<a href="https://x.org/?a=1&amp;b=2" class="postlink">сайт</a>')
    assert to_phpbb_html("[url]javascript:alert(1)[/url]") == "[url]javascript:alert(1)[/url]"
