"""Conditional GETs: a page the board sent with a validator is asked for again with
If-None-Match / If-Modified-Since, and the board's 304 answer stands for the copy kept.

None of the real boards tried sends one (docs/benchmarks.md): phpBB 3.3 and MyBB 1.8 no
validator at all, SMF 2.1 and FluxBB 1.5 a Last-Modified that is the moment of the answer on
every page — it tells nothing about the page, and sending it back would let a proxy answer "not
modified" for a thread that has new posts, so such a stamp is never sent back. A board that does
send an ETag (or sits behind a proxy that adds one) is spared rendering and sending a page that
has not changed; the poll still costs its one request.
"""
from __future__ import annotations

from collections import OrderedDict
from dataclasses import replace
from email.utils import parsedate_to_datetime
from typing import TYPE_CHECKING, Mapping

if TYPE_CHECKING:
    from forumgm.daemon.forum.http import Page

KEPT_PAGES = 32     # a thread's last page and the inbox's first per game: a few pages, not the thread
NOT_MODIFIED = 304


def validators(headers: Mapping[str, str]) -> dict[str, str]:
    """The headers a later GET of the same page sends to be answered 304 if it has not changed."""
    asked = {}
    if headers.get("ETag"):
        asked["If-None-Match"] = headers["ETag"]
    modified = headers.get("Last-Modified")
    if modified and _before_the_answer(modified, headers.get("Date")):
        asked["If-Modified-Since"] = modified
    return asked


def _before_the_answer(modified: str, date: str | None) -> bool:
    """A Last-Modified earlier than the answer's own Date names when the page changed; one equal
    to it (SMF, FluxBB) is only a stamp of the answer."""
    try:
        return date is not None and parsedate_to_datetime(modified) < parsedate_to_datetime(date)
    except (TypeError, ValueError):
        return False


class KeptPages:
    """The newest pages that came with validators, by the URL asked for (least recently used go first)."""

    def __init__(self, size: int = KEPT_PAGES):
        self.size = size
        self._pages: OrderedDict[str, Page] = OrderedDict()

    def ask(self, url: str) -> dict[str, str]:
        kept = self._pages.get(url)
        return dict(kept.validators) if kept is not None else {}

    def answer(self, url: str, page: Page) -> Page:
        """The page to use: the kept copy when the board said it has not changed."""
        kept = self._pages.get(url)
        if page.status == NOT_MODIFIED and kept is not None:
            self._pages.move_to_end(url)
            return replace(kept, unchanged=True)
        if page.status == 200 and page.validators:
            self._pages[url] = page
            self._pages.move_to_end(url)
            while len(self._pages) > self.size:
                self._pages.popitem(last=False)
        else:
            self._pages.pop(url, None)
        return page
