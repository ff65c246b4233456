"""Reading one post body: its text with and without quotes, and its coloured fragments.

A vote is coloured text in the author's own words. Coloured text inside a quote is someone
else's vote; inside a spoiler or a code block it is hidden or shown as code. All three are
reported as `flagged` (where = "quote", "spoiler" or "code") so that the tally can say why it
did not count them, never counted. Engines without a spoiler tag print
`[spoiler]…[/spoiler]` literally; that literal span is treated as a spoiler too.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import NamedTuple

from selectolax.lexbor import LexborNode

from forumgm.parsers.colors import normalize_color, style_color
from forumgm.parsers.forums.base import ColoredFragment
from forumgm.parsers.forums.layout import BodyMarkup

BLOCK_TAGS = frozenset({
    "p", "div", "blockquote", "li", "ul", "ol", "pre", "h1", "h2", "h3", "h4", "h5", "h6",
    "tr", "table", "details", "summary", "cite", "dl", "dt", "dd", "hr", "section", "article",
    "header", "footer", "aside", "figure",
})
SKIPPED_TAGS = frozenset({"script", "style", "noscript", "template", "-comment"})
_LITERAL_SPOILER = re.compile(r"\[(/?)spoiler[^\]]*\]", re.IGNORECASE)
_SPACES = re.compile(r"\s+")


@dataclass(frozen=True)
class BodyReading:
    text: str
    text_unquoted: str
    colored: tuple[ColoredFragment, ...]
    flagged: tuple[ColoredFragment, ...]


def read_body(body: LexborNode, markup: BodyMarkup) -> BodyReading:
    special = ", ".join(s for s in (markup.quote, markup.spoiler, markup.code, markup.ignore) if s)
    if special and body.css_first(special) is not None:
        walk = _Walk(
            quotes=_ids(body, markup.quote), spoilers=_ids(body, markup.spoiler),
            codes=_ids(body, markup.code), ignored=_ids(body, markup.ignore),
        )
    else:           # most posts quote nothing and hide nothing: one query instead of four
        walk = _Walk(quotes=frozenset(), spoilers=frozenset(), codes=frozenset(), ignored=frozenset())
    walk.children(body, _Context())
    fragments = [fragment.done() for fragment in walk.fragments]
    fragments = [fragment for fragment in fragments if fragment.text]
    text = _tidy("".join(walk.full))
    return BodyReading(
        text=text,
        text_unquoted=_tidy("".join(walk.unquoted)) if walk.quotes else text,   # without quotes, the same
        colored=tuple(f for f in fragments if not f.where),
        flagged=tuple(f for f in fragments if f.where),
    )


def element_color(node: LexborNode, tag: str) -> str | None:
    """The text colour an element (whose tag is `tag`) sets: inline `color:` style or `<font color>`."""
    attributes = node.attrs        # read one by one: building the dict of all of them costs more
    color = style_color(attributes.get("style"))
    if color is None and tag == "font":
        color = normalize_color(attributes.get("color"))
    return color


def _ids(body: LexborNode, selector: str | None) -> frozenset[int]:
    return frozenset(node.mem_id for node in body.css(selector)) if selector else frozenset()


class _Context(NamedTuple):       # one per element read: a tuple is made faster than a dataclass
    quoted: bool = False
    where: str = ""                        # "", "spoiler" or "code"
    preformatted: bool = False
    fragment: "_Fragment | None" = None


class _Fragment:
    def __init__(self, color: str, where: str):
        self.color, self.where, self.pieces = color, where, []

    def done(self) -> ColoredFragment:
        return ColoredFragment(self.color, " ".join("".join(self.pieces).split()), self.where)


class _Walk:
    def __init__(self, quotes, spoilers, codes, ignored):
        self.quotes, self.spoilers, self.codes, self.ignored = quotes, spoilers, codes, ignored
        self.full: list[str] = []
        self.unquoted: list[str] = []
        self.fragments: list[_Fragment] = []
        self.literal_spoilers = 0   # depth of literal [spoiler] text seen so far
        self.last_written: _Fragment | None = None   # the fragment the latest text went to, if any

    def children(self, node: LexborNode, context: _Context) -> None:
        """Depth first, in page order, with a stack of its own: hundreds of nested quotes or
        colours (a player can post them) must not reach Python's recursion limit."""
        pending: list[tuple[LexborNode | None, _Context]] = []
        _push_children(pending, node, context)
        while pending:
            child, context = pending.pop()
            if child is None:              # the end of a block element
                self.emit("\n", context)
                continue
            tag = child.tag                # read once: each read decodes the name anew
            if tag == "-text":             # most nodes: their own text, read directly
                self.text(child.text_content or "", context)
                continue
            inner = self.node(child, tag, context)
            if inner is None:
                continue
            if tag in BLOCK_TAGS:
                pending.append((None, inner))
            _push_children(pending, child, inner)

    def node(self, node: LexborNode, tag: str, context: _Context) -> _Context | None:
        """Emits what an element shows before its children; the context they are read in, or None
        when it has none to read."""
        if tag in SKIPPED_TAGS or node.mem_id in self.ignored:
            return None
        if tag == "br":
            self.emit("\n", context)
            return None
        if tag == "img":
            self.emit(node.attrs.get("alt") or "", context)
            return None
        context = self.enter(node, tag, context)
        if tag in BLOCK_TAGS:
            self.emit("\n", context)
        return context

    def enter(self, node: LexborNode, tag: str, context: _Context) -> _Context:
        node_id = node.mem_id
        entering_quote = node_id in self.quotes
        quoted = context.quoted or entering_quote
        where = "quote" if quoted else context.where or (
            "spoiler" if node_id in self.spoilers else "code" if node_id in self.codes else "")
        preformatted = context.preformatted or tag in ("pre", "code") or node_id in self.codes
        # a quote never continues the replier's own coloured text around it
        fragment = None if entering_quote else context.fragment
        color = element_color(node, tag)
        if color is not None and (fragment is None or fragment.color != color):
            fragment_where = where or ("spoiler" if self.literal_spoilers > 0 else "")
            touching = self.last_written
            if touching is not None and (touching.color, touching.where) == (color, fragment_where):
                # "[color=blue]Ас[/color][color=blue]кон[/color]": one word, one fragment
                fragment = touching
            else:
                fragment = _Fragment(color, fragment_where)
                self.fragments.append(fragment)
        return _Context(quoted, where, preformatted, fragment)

    def text(self, value: str, context: _Context) -> None:
        if not context.preformatted:
            value = _SPACES.sub(" ", value)
        if "[" in value:
            for marker in _LITERAL_SPOILER.finditer(value):
                self.literal_spoilers = max(0, self.literal_spoilers + (-1 if marker.group(1) else 1))
        self.emit(value, context)

    def emit(self, value: str, context: _Context) -> None:
        self.full.append(value)
        if not context.quoted:
            self.unquoted.append(value)
        if context.fragment is not None:
            context.fragment.pieces.append(value)
        if value:
            self.last_written = context.fragment


def _push_children(pending: list, node: LexborNode, context: _Context) -> None:
    """Stacks the node's children last first, so that they pop in page order."""
    child = node.last_child
    while child is not None:
        pending.append((child, context))
        child = child.prev


def _tidy(text: str) -> str:
    """Strip each line and keep at most one blank line between paragraphs."""
    lines = [line.strip() for line in text.split("\n")]
    kept: list[str] = []
    for line in lines:
        if line or (kept and kept[-1]):
            kept.append(line)
    return "\n".join(kept).strip()
