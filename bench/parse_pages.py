"""Parser speed, run by hand: `python bench/parse_pages.py [rounds] [posts]`.

For each engine, the saved thread pages (tests/fixtures/forums) are read page → posts, and the
same pages are parsed by a bare `lxml.html.fromstring` as the yardstick and read by a peer: the
reader a scraper written the usual way has (requests' `response.text` into BeautifulSoup with
its default parser, the posts and their fields found with the same CSS selectors, each body's
text, quotes and coloured elements read from the tree). Each round times the three on every
page, one after the other, in this thread's CPU time (time.thread_time: waiting for a core
shared with other work does not count); the ratios (lxml's or the peer's time / our time: 1.0
would mean reading every post costs no more than building lxml's tree of the page) are taken
per round, and the median of the rounds is printed with their range and our pages/s (best round).
"scrub" is what blanking the page's session ids before it is stored (`scrub_page`) costs, as a
share of our reading of it (median of the rounds).

With `posts` (e.g. 20, what boards show by default), each saved page is first grown to that many
posts by repeating its own posts after the last one: the saved pages hold 2–5 posts, so their
figures are mostly the fixed cost of a page, and a full page shows the cost of the posts.
"""
import importlib
import statistics
import sys
import time
from datetime import datetime, timezone
from pathlib import Path

import lxml.html
from bs4 import BeautifulSoup
from selectolax.lexbor import LexborHTMLParser
from soupsieve import SelectorSyntaxError

from forumgm.parsers.forums import ENGINES, engine_functions
from forumgm.parsers.forums.scrub import scrub_page

FIXTURES = Path(__file__).resolve().parent.parent / "tests" / "fixtures" / "forums"
GENERIC_CONFIG = Path(__file__).resolve().parent.parent / "config" / "forums" / "generic.example.toml"
NOW = datetime(2026, 11, 30, 5, 0, tzinfo=timezone.utc)
REPEAT = 20      # pages read per timing, so that one timing is well above the clock's resolution


def cpu_time(work, pages, repeat: int | None = None) -> float:
    """This thread's CPU time for `work` over every page, `repeat` (else REPEAT) times, per page."""
    repeat = repeat or REPEAT
    started = time.thread_time()
    for _ in range(repeat):
        for html in pages:
            work(html)
    return (time.thread_time() - started) / (repeat * len(pages))


def measure(engine: str, rounds: int, posts: int | None = None) -> tuple[float, list[float], list[float], list[float]] | None:
    """(our pages/s, lxml time / our time, the peer's time / our time (none where the peer's
    selector engine refuses the layout's selectors) and scrub time / our time in each round) for
    an engine's saved thread pages (grown to `posts` posts each, if given); None without pages."""
    source = "phpbb" if engine == "generic" else engine
    pages = [p.read_text(encoding="utf-8") for p in sorted((FIXTURES / source).glob("thread_page*.html"))]
    if not pages:
        return None
    functions = engine_functions(engine, GENERIC_CONFIG if engine == "generic" else None)
    if posts is not None:
        selector = layout_of(engine).thread.post
        pages = [grown(html, selector, posts) for html in pages]
    layout = layout_of(engine)
    peer = peer_posts
    try:
        peer(pages[0], layout)
    except SelectorSyntaxError:      # vBulletin 3's `:has(> table td.alt2)`: lexbor reads it, soupsieve does not
        peer = None
    ours, to_lxml, to_peer, scrub = float("inf"), [], [], []
    for _ in range(rounds):          # alternated: a busy moment of the machine hits all alike
        our_time = cpu_time(lambda html: functions.posts(html, "UTC", NOW), pages)
        to_lxml.append(cpu_time(lxml_tree, pages) / our_time)
        scrub.append(cpu_time(scrub_page, pages) / our_time)
        # (a peer's page takes long enough to time once)
        if peer is not None:
            to_peer.append(cpu_time(lambda html: peer(html, layout), pages, repeat=1) / our_time)
        ours = min(ours, our_time)
    return 1 / ours, to_lxml, to_peer, scrub


def lxml_tree(html: str):
    return lxml.html.fromstring(html)


def peer_posts(html: str, layout) -> list[dict]:
    """The posts of a page as the peer reads them (`html`: requests' `response.text`)."""
    thread, markup = layout.thread, layout.body
    posts = []
    for post in BeautifulSoup(html, "html.parser").select(thread.post):
        body = post.select_one(thread.body)
        author = post.select_one(thread.author.selector) if thread.author.selector else post
        quotes = body.select(markup.quote) if body is not None else []
        colored = body.select("[style*=color], font[color]") if body is not None else []
        posts.append({
            "id": post.get(thread.post_id.attr) if thread.post_id.attr else None,
            "author": author.get_text(" ", strip=True) if author is not None else None,
            "text": body.get_text("\n", strip=True) if body is not None else "",
            "quotes": [quote.get_text(" ", strip=True) for quote in quotes],
            "colored": [(element.get("style") or element.get("color"), element.get_text(" ", strip=True))
                        for element in colored],
        })
    return posts


def layout_of(engine: str):
    source = "phpbb" if engine == "generic" else engine
    return importlib.import_module(f"forumgm.parsers.forums.{source}").LAYOUT


def grown(html: str, post_selector: str, posts: int) -> str:
    """The page with its posts repeated, in turn, after its last post until it holds `posts`."""
    tree = LexborHTMLParser(html)
    found = tree.css(post_selector)
    last = found[-1]
    for i in range(posts - len(found)):
        copy = found[i % len(found)].clone()
        last.insert_after(copy, move=True)
        last = copy
    return tree.html


def main(rounds: int = 30, posts: int | None = None) -> None:
    grown_to = f", pages grown to {posts} posts" if posts else ""
    print(f"{'engine':12} {'pages/s':>8} {'vs lxml':>8} {'':13} {'vs peer':>8} {'':13} {'scrub':>6}"
          f"  (range of {rounds} rounds{grown_to})")
    for engine in sorted(ENGINES):
        result = measure(engine, rounds, posts)
        if result is not None:
            pages_per_second, to_lxml, to_peer, scrub = result
            print(f"{engine:12} {pages_per_second:8.0f} {spread(to_lxml)}  {spread(to_peer)}  {statistics.median(scrub):5.2f}x")


def spread(ratios: list[float]) -> str:
    """The median of the rounds' ratios, with their range."""
    if not ratios:
        return f"{'—':>8} {'':13}"
    return f"{statistics.median(ratios):7.2f}x ({min(ratios):5.2f}–{max(ratios):5.2f})"


if __name__ == "__main__":
    numbers = [int(arg) for arg in sys.argv[1:]]
    main(numbers[0] if numbers else 30, numbers[1] if len(numbers) > 1 else None)
