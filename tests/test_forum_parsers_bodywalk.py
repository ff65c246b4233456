"""The compiled body walker (parsers/forums/_bodywalk.pyx) reads every body exactly as the Python
walker does, is what the parsers use, and gives way to the Python walker where it can't be used.

CI builds the extension (gcc and the Python headers are there): a missing build fails here.
"""
import logging
import random
import sys

import pytest
import selectolax
from selectolax.lexbor import LexborHTMLParser

from forumgm.parsers import forums
from forumgm.parsers.forums import ENGINES, body
from forumgm.parsers.forums.layout import BodyMarkup
from forumgm.parsers.forums.queries import Posts, every
from forum_parser_fixtures import CAPTURED, FIXTURES, page

try:
    from forumgm.parsers.forums import _bodywalk
except ImportError as error:     # an install from before the extension existed, or a failed build
    raise ImportError(f"the compiled body walker is not built ({error}): reinstall, `pip install -e .`, "
                      "with a C compiler and the Python headers") from error

COMPILED = body._choose_walker()


def both(node, marks):
    """Each walker's reading of `node`: its text's pieces, the text outside quotes (None where
    nothing is quoted stands for the whole text), its fragments as plain tuples."""
    readings = []
    for walker in (COMPILED, body._read_in_python):
        full, unquoted, fragments = walker(node, marks)
        outside = "".join(full if unquoted is None else unquoted)
        readings.append((full, outside, [(f.color, f.where, f.pieces) for f in fragments]))
    return readings


def test_the_parsers_read_bodies_with_the_compiled_walker_built_for_this_selectolax():
    assert _bodywalk.BUILT_FOR_SELECTOLAX == selectolax.__version__
    in_use = body._walker()
    assert isinstance(getattr(in_use, "__self__", None), _bodywalk.BodyWalk) and in_use.__name__ == "read"


THREAD_PAGES = sorted((path.parent.name, path.stem) for path in FIXTURES.glob("*/thread_page*.html"))


@pytest.mark.parametrize("engine, name", THREAD_PAGES)
def test_both_walkers_read_every_fixture_body_alike(engine, name):
    layout = ENGINES[engine].LAYOUT
    containers = every(LexborHTMLParser(page(engine, name)).root, layout.thread.post)
    posts = Posts(containers)
    page_marks = body.Marks(posts.root, layout.body)       # as the reader finds them, for the page
    bodies = [posts.first(container, layout.thread.body) for container in containers]
    assert bodies and all(node is not None for node in bodies)
    for node in bodies:
        for marks in (page_marks, body.Marks(node, layout.body)):      # and found for the body alone
            compiled, python = both(node, marks)
            assert compiled == python


# Markup of the generated bodies: every kind of special block, each in two spellings; the compiled
# walker matches the first markup's selectors itself, and takes the second's spoilers and ignored
# blocks from the page's queries.
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


def bodies(seed: int):
    """1,000 generated bodies: (parsed body, whether it is one of the deep ones)."""
    rng = random.Random(seed)
    for _ in range(1000):
        is_deep = rng.random() < 0.02
        html = deep(rng, rng.randint(200, 600)) if is_deep else generated(rng)
        doctype = "<!DOCTYPE html>" if rng.random() < 0.5 else ""      # class names match in any case without it
        yield LexborHTMLParser(f"{doctype}<div id=post>{html}</div>").css_first("#post"), is_deep


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("markup", [MARKUP, QUERIED], ids=["matched", "queried"])
def test_both_walkers_read_generated_bodies_alike(seed, markup):
    for node, _ in bodies(seed):
        compiled, python = both(node, body.Marks(node, markup))
        assert compiled == python, node.html


def test_generated_bodies_reach_every_path_of_the_walk():
    """(so that the comparison above says something)"""
    fragments, readings, depths = [], [], []
    for node, is_deep in bodies(0):
        reading = body.read_body(node, MARKUP)
        fragments += reading.colored + reading.flagged
        readings.append(reading)
        if is_deep:
            depths += [sum(1 for _ in ancestors(element)) for element in node.css("*")]
    assert {f.where for f in fragments} == {"", "quote", "spoiler", "code"}
    assert {f.color for f in fragments} >= {"#0000ff", "#ff0000"}
    assert any("smile :)" in r.text for r in readings)
    assert sum(r.text != r.text_unquoted for r in readings) > 100
    assert max(depths) > 300         # far beyond what a recursive walk in Python could take


def ancestors(node):
    while (node := node.parent) is not None:
        yield node


def test_a_selectolax_other_than_the_built_one_falls_back_to_the_python_walker(monkeypatch, caplog):
    monkeypatch.setattr(_bodywalk, "BUILT_FOR_SELECTOLAX", "0.0.1")
    with caplog.at_level(logging.INFO, logger=body.__name__):
        assert body._choose_walker() is body._read_in_python
    assert f"built for selectolax 0.0.1, this is {selectolax.__version__}" in caplog.text


def test_without_the_extension_bodies_are_read_in_python_with_the_same_posts(monkeypatch, caplog):
    expected = ENGINES["xenforo"].posts(page("xenforo", "thread_page2"), "UTC", CAPTURED)
    monkeypatch.setitem(sys.modules, "forumgm.parsers.forums._bodywalk", None)   # as if never built
    monkeypatch.delattr(forums, "_bodywalk")
    with caplog.at_level(logging.INFO, logger=body.__name__):
        fallback = body._choose_walker()
    assert fallback is body._read_in_python
    assert "the compiled walker is not built" in caplog.text
    monkeypatch.setattr(body, "_walker", lambda: fallback)
    assert ENGINES["xenforo"].posts(page("xenforo", "thread_page2"), "UTC", CAPTURED) == expected
    assert any(post.colored or post.flagged for post in expected)
