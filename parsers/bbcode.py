"""BBCode → the post-body HTML phpBB 3.3 (prosilver) renders.

The local forum and `simulate` render posts with this so that the phpBB parser reads them exactly
as it reads a real board. Only phpBB's default BBCodes are known; anything else (e.g. [spoiler])
stays literal text, as on a stock board. An opening tag that is never closed stays literal too.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime, timezone
from html import escape

KNOWN = ("b", "i", "u", "color", "size", "quote", "code", "url", "img")
BLOCK = ("quote", "code")   # phpBB swallows one newline inside and after these (no <br>)

_TAG = re.compile(r"\[(/?)(" + "|".join(KNOWN) + r")(?:=([^\]\n]*))?\]", re.IGNORECASE)
_QUOTE_ATTR = re.compile(r"\s+(post_id|time|user_id)=(\d{1,10})(?!\d)")   # a longer time is no date
_SAFE_COLOR = re.compile(r"^(#[0-9a-fA-F]{3}|#[0-9a-fA-F]{6}|[a-zA-Z]+)$")
_SIZE = re.compile(r"^\d{1,3}$")           # phpBB allows at most 200 (%)
_SAFE_URL = re.compile(r"^(https?|ftp)://|^\./|^/", re.IGNORECASE)


@dataclass
class _Node:
    name: str                      # "" for the root
    arg: str | None
    raw_open: str
    children: list = field(default_factory=list)   # str | _Node


def to_phpbb_html(bbcode: str) -> str:
    text = bbcode.replace("\r\n", "\n")
    return _render_children(_parse(text).children)


def _parse(text: str) -> _Node:
    root = _Node("", None, "")
    stack = [root]
    opened: dict[str, int] = {}    # how many of each tag are open: a close tag is looked up, not searched for
    pos = 0
    for match in _TAG.finditer(text):
        if match.start() < pos:
            continue
        top = stack[-1]
        if top.name == "code" and not (match.group(1) and match.group(2).lower() == "code"):
            continue   # nothing is BBCode inside [code]
        top.children.append(text[pos:match.start()])
        pos = match.end()
        closing, name, arg = match.group(1), match.group(2).lower(), match.group(3)
        if not closing:
            node = _Node(name, arg, match.group(0))
            top.children.append(node)
            stack.append(node)
            opened[name] = opened.get(name, 0) + 1
        elif opened.get(name):
            while stack[-1].name != name:
                opened[stack[-1].name] -= 1
                _unwrap(stack)
            stack.pop()
            opened[name] -= 1
        else:
            top.children.append(match.group(0))
    stack[-1].children.append(text[pos:])
    while len(stack) > 1:
        _unwrap(stack)
    return root


def _unwrap(stack: list[_Node]) -> None:
    """An unclosed tag: put its opening text back as literal and keep its children in place."""
    node = stack.pop()
    parent = stack[-1]
    parent.children.pop()
    parent.children += [node.raw_open, *node.children]


class _Rendering:
    """One element's rendered children so far; `swallow` after a block (phpBB drops one newline)."""

    def __init__(self, node: _Node | None):
        self.node = node
        self.pending = list(reversed(node.children if node else []))
        self.out: list[str] = []
        self.swallow = False

    def add_text(self, text: str) -> None:
        if self.swallow and text.startswith("\n"):
            self.out.append("\n")
            text = text[1:]
        self.swallow = False
        self.out.append(_text(text))

    def add_element(self, node: _Node, html: str) -> None:
        self.out.append(html)
        self.swallow = node.name in BLOCK


def _render_children(children: list) -> str:
    """Depth first with a stack of its own: a post may nest hundreds of tags."""
    root = _Rendering(None)
    root.pending = list(reversed(children))
    stack = [root]
    while True:
        top = stack[-1]
        if top.pending:
            child = top.pending.pop()
            if isinstance(child, str):
                top.add_text(child)
            elif child.name == "code":      # nothing inside [code] is rendered
                top.add_element(child, _render_node(child, ""))
            else:
                stack.append(_Rendering(child))
            continue
        stack.pop()
        if not stack:
            return "".join(top.out)
        stack[-1].add_element(top.node, _render_node(top.node, "".join(top.out)))


def _text(text: str) -> str:
    return escape(text, quote=False).replace("\n", "<br>\n")


def _render_node(node: _Node, inner: str) -> str:
    """The element around its children's HTML `inner`."""
    if node.name == "code":
        body = "".join(c if isinstance(c, str) else c.raw_open for c in node.children)
        return ('<div class="codebox"><p>Code: <a href="#" onclick="selectCode(this); return false;">'
                f'Select all</a></p><pre><code>{escape(body.strip(chr(10)), quote=False)}</code></pre></div>')
    if node.name == "quote":
        return _render_quote(node, inner)
    if node.name == "b":
        return f'<strong class="text-strong">{inner}</strong>'
    if node.name == "i":
        return f'<em class="text-italics">{inner}</em>'
    if node.name == "u":
        return f'<span style="text-decoration:underline">{inner}</span>'
    if node.name == "color" and node.arg and _SAFE_COLOR.match(node.arg.strip()):
        return f'<span style="color:{node.arg.strip()}">{inner}</span>'
    if node.name == "size" and node.arg and _SIZE.match(node.arg.strip()):
        return f'<span style="font-size:{int(node.arg)}%;line-height:116%">{inner}</span>'
    if node.name == "url":
        return _render_url(node, inner)
    if node.name == "img":
        src = "".join(c for c in node.children if isinstance(c, str)).strip()
        if node.arg is None and _SAFE_URL.match(src) and len(node.children) == 1:
            return f'<img src="{escape(src)}" class="postimage" alt="Image" />'
    return _text(node.raw_open) + inner + _text(f"[/{node.name}]")


def _render_url(node: _Node, inner: str) -> str:
    if node.arg is not None:
        href = node.arg.strip().strip('"')
    else:
        href = "".join(c for c in node.children if isinstance(c, str)).strip()
    if not _SAFE_URL.match(href):
        return _text(node.raw_open) + inner + _text("[/url]")
    return f'<a href="{escape(href)}" class="postlink">{inner}</a>'


def _render_quote(node: _Node, body: str) -> str:
    if body.startswith("<br>\n"):
        body = body[len("<br>"):]
    if body.endswith("<br>\n"):
        body = body[: -len("<br>\n")] + "\n"
    if not node.arg:
        return f'<blockquote class="uncited"><div>{body}</div></blockquote>'
    name, attrs = _quote_author(node.arg)
    post_id, user_id, when = attrs.get("post_id"), attrs.get("user_id"), attrs.get("time")
    who = escape(name, quote=False)
    if user_id:
        who = f'<a href="./memberlist.php?mode=viewprofile&amp;u={user_id}">{who}</a>'
    cite = f"{who} wrote:"
    if post_id:
        cite += (f' <a href="./viewtopic.php?p={post_id}#p{post_id}" data-post-id="{post_id}" '
                 'onclick="if(document.getElementById(hash.substr(1)))href=hash">↑</a>')
    if when:
        cite += f'<span class="responsive-hide">{phpbb_date(int(when))}</span>'
    opening = f'<blockquote cite="./viewtopic.php?p={post_id}#p{post_id}">' if post_id else "<blockquote>"
    return f"{opening}<div><cite>{cite}</cite>{body}</div></blockquote>"


def _quote_author(arg: str) -> tuple[str, dict[str, str]]:
    """`Name post_id=4 time=… user_id=59` or `"Name with spaces"` → (name, attributes)."""
    arg = arg.strip()
    if arg.startswith('"') and '"' in arg[1:]:
        end = arg.index('"', 1)
        name, rest = arg[1:end], arg[end + 1:]
    else:
        first = _QUOTE_ATTR.search(arg)
        name, rest = (arg[: first.start()], arg[first.start():]) if first else (arg, "")
    return name.strip(), dict(_QUOTE_ATTR.findall(rest))


def phpbb_date(unix_time: int) -> str:
    """phpBB's default `D M d, Y g:i a` in UTC, e.g. `Mon Nov 30, 2026 4:43 am`."""
    moment = datetime.fromtimestamp(unix_time, timezone.utc)
    hour = moment.hour % 12 or 12
    return moment.strftime(f"%a %b %d, %Y {hour}:%M ") + ("am" if moment.hour < 12 else "pm")
