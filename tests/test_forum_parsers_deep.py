"""Hostile nesting: hundreds of nested quotes or colours in one post must not stop a page.

300 nested [quote] or 500 nested [color] once raised RecursionError in the body reader and the
BBCode renderer: the day never resolved. Every post of the page is still read, the deep one too.
"""
import re

from forumgm.parsers.bbcode import to_phpbb_html
from forumgm.parsers.forums import phpbb
from forum_parser_fixtures import CAPTURED, page

QUOTES, COLORS = 300, 500


def deep_quotes(inner: str) -> str:
    return '<blockquote><div><cite>x wrote:</cite>' * QUOTES + inner + "</div></blockquote>" * QUOTES


def deep_colors(inner: str) -> str:
    return '<span style="color:blue">' * COLORS + inner + "</span>" * COLORS


def with_bodies(html: str, *bodies: str) -> str:
    """The fixture page with its first posts' bodies replaced, in page order."""
    parts = re.split(r'(<div class="content">)(.*?)(</div>\s*\n)', html, flags=re.S)
    out, index = [], 0
    for i in range(0, len(parts) - 1, 4):
        out.append(parts[i])
        body = bodies[index] if index < len(bodies) else parts[i + 2]
        out += [parts[i + 1], body, parts[i + 3]]
        index += 1
    out.append(parts[-1])
    return "".join(out)


def test_a_page_with_deeply_nested_posts_is_read_whole():
    original = phpbb.posts(page("phpbb", "thread_page1"), "UTC", CAPTURED)
    html = with_bodies(page("phpbb", "thread_page1"), deep_quotes('<span style="color:blue">Robozik</span>'),
                       "Голосую за " + deep_colors("Аскон"))
    posts = phpbb.posts(html, "UTC", CAPTURED)
    assert [p.id for p in posts] == [p.id for p in original]
    quoted, colored = posts[0], posts[1]
    assert [(f.where, f.text) for f in quoted.flagged] == [("quote", "Robozik")] and not quoted.colored
    assert [(f.color, f.text) for f in colored.colored] == [("#0000ff", "Аскон")]
    assert posts[2:] == original[2:]


def test_the_bbcode_renderer_takes_deep_nesting():
    quotes = to_phpbb_html("[quote]" * QUOTES + "голос" + "[/quote]" * QUOTES)
    assert quotes.count("<blockquote") == QUOTES and "голос" in quotes
    colors = to_phpbb_html("[color=blue]" * COLORS + "Аскон" + "[/color]" * COLORS)
    assert colors.count('<span style="color:blue">') == COLORS


def test_a_deep_post_from_the_renderer_reads_back():
    body = to_phpbb_html("[quote]" * QUOTES + "[color=blue]Robozik[/color]" + "[/quote]" * QUOTES
                         + "\nГолосую за " + "[color=blue]" * COLORS + "Аскон" + "[/color]" * COLORS)
    (post, *_) = phpbb.posts(with_bodies(page("phpbb", "thread_page1"), body), "UTC", CAPTURED)
    assert [f.text for f in post.flagged] == ["Robozik"]
    assert [f.text for f in post.colored] == ["Аскон"]


def test_huge_numbers_in_tag_arguments_stay_text():
    huge = "9" * 5000
    assert to_phpbb_html(f"[size={huge}]x[/size]") == f"[size={huge}]x[/size]"
    quoted = to_phpbb_html(f"[quote=Аскон time={huge}]голос[/quote]")
    assert "<blockquote>" in quoted and "голос" in quoted
