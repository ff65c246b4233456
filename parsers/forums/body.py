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

from selectolax.lexbor import LexborHTMLParser, LexborNode, create_tag

from forumgm.parsers.colors import normalize_color, style_color
from forumgm.parsers.forums.base import ColoredFragment
from forumgm.parsers.forums.layout import BodyMarkup
from forumgm.parsers.forums.queries import every, first

BLOCK_TAGS = frozenset({
    "p", "div", "blockquote", "li", "ul", "ol", "pre", "h1", "h2", "h3", "h4", "h5", "h6",
    "tr", "table", "details", "summary", "cite", "dl", "dt", "dd", "hr", "section", "article",
    "header", "footer", "aside", "figure",
})
SKIPPED_TAGS = frozenset({"script", "style", "noscript", "template", "-comment"})
_LITERAL_SPOILER = re.compile(r"\[(/?)spoiler[^\]]*\]", re.IGNORECASE)
_SPACES = re.compile(r"\s+")
_BLANK_LINES = re.compile(r"\n{3,}")      # (in stripped lines) two blank lines or more


@dataclass(frozen=True)
class BodyReading:
    text: str
    text_unquoted: str
    colored: tuple[ColoredFragment, ...]
    flagged: tuple[ColoredFragment, ...]


def read_body(body: LexborNode, markup: BodyMarkup, marks: Marks | None = None) -> BodyReading:
    """`marks`: the special blocks found for all the posts of the body's page at once (None:
    for this body alone)."""
    walk = _Walk((marks or Marks(body, markup)).find())
    walk.read(body)
    colored, flagged = [], []
    for fragment in walk.fragments:
        words = " ".join("".join(fragment.pieces).split())
        if words:
            (flagged if fragment.where else colored).append(ColoredFragment(fragment.color, words, fragment.where))
    text = _tidy("".join(walk.full))
    unquoted_text = _tidy("".join(walk.unquoted)) if walk.quotes else text     # nothing quoted: the same
    return BodyReading(text, unquoted_text, tuple(colored), tuple(flagged))


class Marks:
    """The elements the walk must look at closely (identity, attributes) in the bodies under
    `root`: quotes, spoilers, code blocks, ignored blocks, and every element that may set a
    colour (a superset). Reading those on every element would cost more than the walk's own
    work on it.

    Found under the root with one query each, when a walk first asks: the root is a body, or
    the common ancestor of a page's posts, so that all of the page's bodies share the queries
    (each costs a fixed few microseconds, more than matching a small page). A node of a body
    under the root matches a selector there exactly when it matches in the body's own query:
    lexbor matches against the whole document, whatever node a query starts from.
    """

    def __init__(self, root: LexborNode, markup: BodyMarkup):
        self._root, self._markup = root, markup
        self.quotes = self.spoilers = self.codes = self.ignored = self.any = _NONE
        self._colored: dict[int, LexborNode] = {}
        self._found = False

    def find(self) -> Marks:
        """Every special block and colour candidate (once: the page's bodies share them)."""
        if not self._found:
            self._found = True
            root, markup = self._root, self._markup
            self._colored = {node.mem_id: node for node in every(root, _COLOR_CANDIDATES)}
            # (no cheaper query first for "any of them?": a page of 20 posts nearly always quotes)
            self.quotes, self.spoilers = _ids(root, markup.quote), _ids(root, markup.spoiler)
            self.codes, self.ignored = _ids(root, markup.code), _ids(root, markup.ignore)
            self.any = self.quotes | self.spoilers | self.codes | self.ignored | self._colored.keys()
        return self

    def color(self, node_id: int) -> str | None:
        """The text colour the element `node_id` (found under the root) sets, if any."""
        node = self._colored.get(node_id)
        return None if node is None else element_color(node, "font" if node.tag_id == _FONT_ID else "")


def element_color(node: LexborNode, tag: str) -> str | None:
    """The text colour an element (whose tag is `tag`) sets: inline `color:` style or `<font color>`."""
    attributes = node.attrs        # read one by one: building the dict of all of them costs more
    color = style_color(attributes.get("style"))
    if color is None and tag == "font":
        color = normalize_color(attributes.get("color"))
    return color


# every element element_color may find a colour on (a superset: `Marks.color` reads each one)
_COLOR_CANDIDATES = "[style], font"
_NONE: frozenset[int] = frozenset()


def _ids(root: LexborNode, selector: str | None) -> frozenset[int]:
    return frozenset(node.mem_id for node in every(root, selector)) if selector else _NONE


def _tag_ids(names) -> frozenset[int]:
    return frozenset(create_tag(name).tag_id for name in names)


# The walk compares lexbor's tag ids, not names: a name is decoded anew on each read. Ids are
# per local name, whatever the namespace, as the names the walk compared before were.
_sample = first(LexborHTMLParser("<p>text<!--comment--></p>").root, "p")
_TEXT_ID, _COMMENT_ID = _sample.first_child.tag_id, _sample.last_child.tag_id
_BLOCK_IDS = _tag_ids(BLOCK_TAGS)
_SKIPPED_IDS = _tag_ids(SKIPPED_TAGS - {"-comment"}) | {_COMMENT_ID}
_BR_ID, _IMG_ID, _FONT_ID = (create_tag(name).tag_id for name in ("br", "img", "font"))
_PREFORMATTED_IDS = _tag_ids(("pre", "code"))
del _sample


class _Context(NamedTuple):       # one per element that changes it: a tuple is made faster than a dataclass
    quoted: bool = False
    where: str = ""                        # "", "spoiler" or "code"
    preformatted: bool = False
    fragment: "_Fragment | None" = None


class _Fragment:
    def __init__(self, color: str, where: str):
        self.color, self.where, self.pieces = color, where, []


class _Walk:

    def __init__(self, marks: Marks):
        self.marks = marks
        self.quotes, self.spoilers, self.codes, self.ignored = marks.quotes, marks.spoilers, marks.codes, marks.ignored
        self.marked = marks.any   # only these elements may give their children another context than their own
        self.full: list[str] = []
        self.unquoted: list[str] = []
        self.fragments: list[_Fragment] = []
        self.literal_spoilers = 0   # depth of literal [spoiler] text seen so far
        self.last_written: _Fragment | None = None   # the fragment the latest text went to, if any

    def read(self, body: LexborNode) -> None:
        """The body's nodes depth first, in page order, with a stack of its own: hundreds of
        nested quotes or colours (a player can post them) must not reach Python's recursion limit.

        One loop with everything inline: it runs once per node of every post read, and a call
        per node cost more than the reading itself. The stack holds nodes, and a marker below
        the children of an element that is a block (its closing newline) or reads them in
        another context than its own (the context to return to). Most elements are neither.
        """
        full, unquoted = self.full, self.unquoted
        marked, ignored, has_quotes = self.marked, self.ignored, bool(self.quotes)
        text_id, skipped, br_id, img_id, blocks, preformatted = (
            _TEXT_ID, _SKIPPED_IDS, _BR_ID, _IMG_ID, _BLOCK_IDS, _PREFORMATTED_IDS)
        spaces, node_class = _SPACES.sub, LexborNode
        context = _Context()
        quoted, pre, fragment = False, False, None
        pending: list = []
        push, pop = pending.append, pending.pop
        child = body.last_child
        while child is not None:       # last first, so that they pop in page order
            push(child)
            child = child.prev
        while pending:
            node = pop()
            if node.__class__ is not node_class:
                if node.__class__ is tuple:      # the end of a block: its newline, in its own context
                    inner, context = node
                    value, value_quoted, value_fragment = "\n", inner.quoted, inner.fragment
                    quoted, pre, fragment = context.quoted, context.preformatted, context.fragment
                else:                             # the end of an element read in a context of its own
                    context = node
                    quoted, pre, fragment = context.quoted, context.preformatted, context.fragment
                    continue
            else:
                tag = node.tag_id
                if tag == text_id:         # most nodes: their own text, read directly
                    value = node.text_content
                    if not value:
                        continue
                    if not pre:            # whitespace runs to one space (the checks cost less than the regex)
                        if value.isspace():
                            value = " "
                        elif "  " in value or not value.isprintable():
                            value = spaces(" ", value)
                    if "[" in value:
                        for found in _LITERAL_SPOILER.finditer(value):
                            self.literal_spoilers = max(0, self.literal_spoilers + (-1 if found.group(1) else 1))
                elif tag in skipped:
                    continue
                elif tag == br_id:
                    if marked and node.mem_id in ignored:
                        continue
                    value = "\n"
                elif tag == img_id:
                    if marked and node.mem_id in ignored:
                        continue
                    value = node.attrs.get("alt")
                    if not value:
                        continue
                else:
                    inner = context
                    if marked and (node_id := node.mem_id) in marked:
                        if node_id in ignored:
                            continue
                        inner = self.enter(node, node_id, tag, context)
                    elif not pre and tag in preformatted:
                        inner = context._replace(preformatted=True)
                    block = tag in blocks
                    if block:
                        push((inner, context))
                    elif inner is not context:
                        push(context)
                    child = node.last_child
                    while child is not None:
                        push(child)
                        child = child.prev
                    if inner is not context:
                        context = inner
                        quoted, pre, fragment = context.quoted, context.preformatted, context.fragment
                    if not block:
                        continue
                    value = "\n"          # what a block shows before its children
                value_quoted, value_fragment = quoted, fragment
            full.append(value)
            if has_quotes and not value_quoted:
                unquoted.append(value)
            if value_fragment is not None:
                value_fragment.pieces.append(value)
            self.last_written = value_fragment

    def enter(self, node: LexborNode, node_id: int, tag: int, context: _Context) -> _Context:
        entering_quote = node_id in self.quotes
        quoted = context.quoted or entering_quote
        where = "quote" if quoted else context.where or (
            "spoiler" if node_id in self.spoilers else "code" if node_id in self.codes else "")
        preformatted = context.preformatted or tag in _PREFORMATTED_IDS or node_id in self.codes
        # a quote never continues the replier's own coloured text around it
        fragment = None if entering_quote else context.fragment
        color = self.marks.color(node_id)
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


def _tidy(text: str) -> str:
    """Strip each line and keep at most one blank line between paragraphs."""
    return _BLANK_LINES.sub("\n\n", "\n".join([line.strip() for line in text.split("\n")])).strip()
