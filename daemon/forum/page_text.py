"""Small reads of forum pages the parsers do not cover: a form's error text, a meta refresh."""
from __future__ import annotations

import re

from selectolax.lexbor import LexborHTMLParser

# the document's own end: its closing tag, then at most comments (MyBB's "<!-- end: showthread -->")
_CLOSED = re.compile(r"</html\s*>(?:\s|<!--.*?-->)*\Z", re.IGNORECASE | re.DOTALL)
_REFRESH = re.compile(r"<meta[^>]+http-equiv=[\"']refresh[\"'][^>]+url=([^\"'>]+)", re.IGNORECASE)


def first_text(html: str, selectors: str) -> str | None:
    node = LexborHTMLParser(html).css_first(selectors)
    if node is None:
        return None
    text = " ".join(node.text(deep=True, separator=" ").split())
    return text or None


def whole_page(html: str) -> bool:
    """Whether the page ends as a whole page does: with its closing `</html>` (every board's layout
    writes one after its footer). A page cut between two posts parses as a page with fewer posts,
    a PM cut inside its text as a shorter PM: only the end of the document tells them apart."""
    tail = html[-4096:]     # the closing tag and the comments after it, not the page: a linear read
    return _CLOSED.search(tail) is not None


def meta_refresh(html: str) -> str | None:
    found = _REFRESH.search(html)
    return found.group(1).replace("&amp;", "&").strip() if found else None


# what boards write when they refuse a post, PM or login for coming too soon after the last one
_FLOOD = re.compile(r"\bwait\b|too (?:soon|quickly|fast|often)|so soon|\bflood|less than \d+ seconds|"
                    r"подожд|слишком (?:часто|быстро)", re.IGNORECASE)
# MyBB names what is left: "Please wait 59 more seconds"
_SECONDS = re.compile(r"(\d+(?:\.\d+)?)\s*(?:more\s+|ещё\s+)?(?:seconds?|secs?\b|s\b|сек)", re.IGNORECASE)


# a limit per hour (SMF: "You have exceeded the limit of 20 personal messages per hour."): a place
# frees when the oldest text of the hour turns an hour old, which the board does not say
_HOURLY = re.compile(r"per hour|в час", re.IGNORECASE)
HOURLY_PAUSE = 600.0


def flood_wait(message: str, default: float) -> float | None:
    """The pause a board's flood refusal asks for: the seconds it names, else `default` (ten
    minutes for a limit per hour); None when the message is not a flood refusal."""
    hourly = hourly_limit(message)
    if not hourly and not _FLOOD.search(message):
        return None
    named = _SECONDS.search(message)
    return float(named.group(1)) if named else HOURLY_PAUSE if hourly else default


def hourly_limit(message: str | None) -> bool:
    """Whether the refusal is a limit of texts per hour, not a pause between two texts."""
    return bool(message and _HOURLY.search(message))
