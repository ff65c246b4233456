"""Every forum page is parsed here, its nesting held to MAX_DEPTH first.

An HTML parser looks through the elements still open at each block tag it meets (lexbor, as
browsers, for the tag's scope), so that a post of 10,000 nested quotes (20,000 open `<div>`s)
took seconds at every read of its page, and 40,000 a minute. Before parsing, one pass over the
tags drops the block tags (div, blockquote, …) that would open inside MAX_DEPTH others, with their
closing tags: their text stays where it was, inside the deepest block kept (a quote 300 deep is
still read as a quote), and so do the inline tags (a colour, bold): nothing a vote is read by is
lost, and the page costs its length times at most MAX_DEPTH. No board's own page comes near it
(phpBB's theme nests about 25 blocks around a post, and the boards' stock quote depth is 3 to 5).
"""
from __future__ import annotations

import re

from selectolax.lexbor import LexborHTMLParser

MAX_DEPTH = 256
# a close tag that is not the innermost open element is matched only this far down the stack:
# an unclosed <p> or <li> is closed by the parser, and a look through all of it would be the
# scan this module exists to avoid
_CLOSE_REACH = 8
_TAG = re.compile(r"<(/?)([A-Za-z][A-Za-z0-9]*)\b[^<>]*>")     # (HTML opens a <div/> as <div>)
_NAME = re.compile(r"<(/?)([A-Za-z][A-Za-z0-9]*)")
# elements that close nothing but themselves: the parser meets them without a look at the blocks
_LEFT_AS_THEY_ARE = frozenset({
    "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param", "source", "track", "wbr",
    "a", "abbr", "b", "bdi", "bdo", "cite", "code", "del", "dfn", "em", "font", "i", "ins", "kbd", "mark", "q",
    "s", "samp", "small", "span", "strike", "strong", "sub", "sup", "tt", "u", "var"})


def parse_html(html: str) -> LexborHTMLParser:
    return LexborHTMLParser(limit_depth(html))


def limit_depth(html: str, limit: int = MAX_DEPTH) -> str:
    """`html` without the block tags that open inside `limit` others (nor their closing tags)."""
    if html.count("<") <= limit or not _deeper_than(html, limit):
        return html
    open_tags: list[tuple[str, bool]] = []    # (name, kept) of each block open at this point
    kept_depth = 0
    out: list[str] = []
    last = 0
    for tag in _TAG.finditer(html):
        closing, name = tag.group(1), tag.group(2).lower()
        if name in _LEFT_AS_THEY_ARE:
            continue
        if not closing:
            kept = kept_depth < limit
            open_tags.append((name, kept))
            kept_depth += kept
            if kept:
                continue
        else:
            closed = _close(open_tags, name)
            if closed is None:
                continue                  # a stray close tag: the parser ignores it as it always did
            kept_depth -= sum(kept for _, kept in closed)
            if closed[0][1]:
                continue
        out.append(html[last:tag.start()])
        last = tag.end()
    out.append(html[last:])
    return "".join(out)


def _deeper_than(html: str, limit: int) -> bool:
    """Whether blocks nest deeper than `limit` (the names only: a page's usual thousands of tags
    cost a millisecond or two)."""
    open_tags: list[tuple[str, bool]] = []
    for closing, name in _NAME.findall(html):
        name = name.lower()
        if name in _LEFT_AS_THEY_ARE:
            continue
        if not closing:
            open_tags.append((name, True))
            if len(open_tags) > limit:
                return True
        else:
            _close(open_tags, name)
    return False


def _close(open_tags: list[tuple[str, bool]], name: str) -> list[tuple[str, bool]] | None:
    """The blocks a close tag of `name` ends (the one it names and those left open inside it), taken
    off `open_tags`; None when none of the innermost ones is a `name`."""
    for index in range(len(open_tags) - 1, max(-1, len(open_tags) - 1 - _CLOSE_REACH), -1):
        if open_tags[index][0] == name:
            closed = open_tags[index:]
            del open_tags[index:]
            return closed
    return None
