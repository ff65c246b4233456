"""Post bodies read alike whether their special blocks were found for the whole page at once
(as the reader does: the page's bodies share the queries) or for each body alone; generated
bodies of every kind of markup, nested hundreds of levels deep, are read whole.
"""
import random

import pytest
from selectolax.lexbor import LexborHTMLParser

from forumgm.parsers.forums import ENGINES, body
from forumgm.parsers.forums.layout import BodyMarkup
from forumgm.parsers.forums.queries import Posts, every
from forum_parser_fixtures import FIXTURES, page

THREAD_PAGES = sorted((path.parent.name, path.stem) for path in FIXTURES.glob("*/thread_page*.html"))


@pytest.mark.parametrize("engine, name", THREAD_PAGES)
def test_every_fixture_body_reads_alike_with_the_page_s_marks_and_its_own(engine, name):
    layout = ENGINES[engine].LAYOUT
    containers = every(LexborHTMLParser(page(engine, name)).root, layout.thread.post)
    posts = Posts(containers)
    page_marks = body.Marks(posts.root, layout.body)       # as the reader finds them, for the page
    bodies = [posts.first(container, layout.thread.body) for container in containers]
    assert bodies and all(node is not None for node in bodies)
    for node in bodies:
        assert body.read_body(node, layout.body, page_marks) == body.read_body(node, layout.body)


# Markup of the generated bodies: every kind of special block, each in two spellings, named by
# plain selectors and by queried ones (attributes, :not()).
MARKUP = BodyMarkup(quote="blockquote, div.q", spoiler="div.sp, span.isp", code="div.cb, code.x",
                    ignore="div.ig, span.ig")
QUERIED = BodyMarkup(quote="blockquote, div.q", spoiler="div[class~=sp], span.isp", code="div.cb, code.x",
                     ignore="div.ig, span.ig:not(.keep)")
OPENINGS = [
    "<b>", "<i>", "<span>", "<p>", "<div>", "<li>", "<ul>", "<pre>", "<code>", "<h3>", "<td>",
    "<blockquote>", '<div class="q">', '<div class="sp">', '<span class="isp">', '<div class="cb">',
    '<code class="x">', '<div class="ig">', '<span class="ig">', "<font color=blue>", '<font color="#00f">',
    "<font color=nonsense>", '<span style="color: blue">', '<span style="color:#FF0000">',
    '<span style="background-color: blue">', '<span style="color: rgb(0, 0, 255)">',
    '<div style="color:red;font-weight:bold">', '<b style="color: blue" class="q">', "<x-custom>",
    '<div class="Q">', '<div class="x  q\tother">', '<DIV CLASS=" sp\n">', '<div class="qq">', '<div class="sp cb">',
    '<span class="ig keep">', '<font color=blue style="color: red">', '<font style>', '<span style="">',
    "<summary>", "<details>", "<table><tr><td>", "<svg><text>", "<noscript>",
]
LEAVES = [
    "", " ", "  ", "\t\n ", "\u00a0", "word", "Голосую за", "Ник", "  two  spaces  ", "a\tb\nc",
    "&amp; &lt;b&gt; &nbsp;x&nbsp;", "&#x1F600;", "[spoiler]", "[/spoiler]", "[SPOILER=title]", "[/Spoiler]",
    "[b]", "x[", "<br>", "<br/>", '<img alt="smile :)">', "<img>", '<img alt="">', '<img alt="  ">',
    "<!-- a comment -->", "<script>var x = '<b>';</script>", "<style>p {color: blue}</style>",
    "<?php echo 1 ?>", "<hr>", "<wbr>", "\u200b", "\r\n", "<![CDATA[x]]>", "é\u0301", "\ud7ff",
    "\u2003em\u3000wide\u2028line", "\x85\x1c\x0b\x0c", " \u00a0 ", "\u00ad", "x\u00a0\u00a0y", "\U0001f600 [",
]


def generated(rng: random.Random, depth: int = 0) -> str:
    parts = []
    for _ in range(rng.randint(0, 4)):
        if depth < 6 and rng.random() < 0.45:
            opening = rng.choice(OPENINGS)
            parts.append(opening + generated(rng, depth + 1) + ("" if rng.random() < 0.1 else closing(opening)))
        else:
            parts.append(rng.choice(LEAVES))
    return "".join(parts)


def closing(opening: str) -> str:
    return "".join(f"</{tag.split('>')[0].split()[0]}>" for tag in reversed(opening[1:].split("<")))


def deep(rng: random.Random, levels: int) -> str:
    """A few hundred nested special blocks and colours, words at every level."""
    openings = [rng.choice(OPENINGS) for _ in range(levels)]
    return ("".join(f"{o}{rng.choice(LEAVES)}" for o in openings) + "Ник"
            + "".join(f"{rng.choice(LEAVES)}{closing(o)}" for o in reversed(openings)))


def pages(seed: int, count: int = 100, posts: int = 10):
    """Generated pages of posts (`div.post`), each post's body a generated one, one in fifty of
    them hundreds of levels deep: (the page's posts' common ancestor, their bodies)."""
    rng = random.Random(seed)
    for _ in range(count):
        doctype = "<!DOCTYPE html>" if rng.random() < 0.5 else ""      # class names match in any case without it
        html = "".join(f"<div class=post><div class=body>{deep(rng, rng.randint(200, 600)) if rng.random() < 0.02 else generated(rng)}"
                       "</div></div>" for _ in range(posts))
        root = LexborHTMLParser(f"{doctype}<div id=page>{html}</div>").css_first("#page")
        yield root, root.css("div.body")


@pytest.mark.parametrize("seed", range(2))
@pytest.mark.parametrize("markup", [MARKUP, QUERIED], ids=["plain", "queried"])
def test_generated_bodies_read_alike_with_the_page_s_marks_and_their_own(seed, markup):
    for root, bodies in pages(seed):
        page_marks = body.Marks(root, markup)
        for node in bodies:
            assert body.read_body(node, markup, page_marks) == body.read_body(node, markup), node.html


def test_generated_bodies_are_read_at_every_depth_and_in_every_kind_of_block():
    fragments, readings, depths = [], [], []
    for _, bodies in pages(0):
        for node in bodies:
            reading = body.read_body(node, MARKUP)
            fragments += reading.colored + reading.flagged
            readings.append(reading)
            if len(node.html) > 5000:        # a deep one
                depths += [sum(1 for _ in ancestors(element)) for element in node.css("*")]
    assert {f.where for f in fragments} == {"", "quote", "spoiler", "code"}
    assert {f.color for f in fragments} >= {"#0000ff", "#ff0000"}
    assert any("smile :)" in r.text for r in readings)
    assert sum(r.text != r.text_unquoted for r in readings) > 100
    assert max(depths) > 300         # far beyond what a recursive walk in Python could take


def ancestors(node):
    while (node := node.parent) is not None:
        yield node
