"""Decode a forum page: charset from the Content-Type header, else the page's <meta>, else UTF-8.

Russian boards on windows-1251 exist; requests guesses ISO-8859-1 for text/html without a
charset, which would turn Cyrillic into mojibake, so the guess is never used.
"""
from __future__ import annotations

import codecs
import re

_HEADER = re.compile(r"charset\s*=\s*[\"']?([\w.:-]+)", re.IGNORECASE)
_META = re.compile(rb"<meta[^>]+charset\s*=\s*[\"']?([\w.:-]+)", re.IGNORECASE)


def page_charset(content_type: str | None, body: bytes) -> str:
    for found in (_HEADER.search(content_type or ""), _META.search(body[:4096])):
        if found:
            name = found.group(1) if isinstance(found.group(1), str) else found.group(1).decode("ascii")
            try:
                return codecs.lookup(name).name
            except LookupError:
                continue
    return "utf-8"


def decode_page(content_type: str | None, body: bytes) -> str:
    return body.decode(page_charset(content_type, body), errors="replace")
