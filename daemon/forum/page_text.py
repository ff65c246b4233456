"""Small reads of forum pages the parsers do not cover: a form's error text, a meta refresh."""
from __future__ import annotations

import re

from selectolax.lexbor import LexborHTMLParser

_REFRESH = re.compile(r"<meta[^>]+http-equiv=[\"']refresh[\"'][^>]+url=([^\"'>]+)", re.IGNORECASE)


def first_text(html: str, selectors: str) -> str | None:
    node = LexborHTMLParser(html).css_first(selectors)
    if node is None:
        return None
    text = " ".join(node.text(deep=True, separator=" ").split())
    return text or None


def meta_refresh(html: str) -> str | None:
    found = _REFRESH.search(html)
    return found.group(1).replace("&amp;", "&").strip() if found else None
