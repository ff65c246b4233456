"""Parser speed, run by hand: `python bench/parse_pages.py [rounds] [posts] [--python-walker]`.

For each engine, the saved thread pages (tests/fixtures/forums) are read page → posts, and the
same pages are parsed by a bare `lxml.html.fromstring` as the yardstick. Each round times both
on every page, one after the other, in this thread's CPU time (time.thread_time: waiting for a
core shared with other work does not count); the ratio (lxml time / our time: 1.0 would mean
reading every post costs no more than building lxml's tree of the page) is taken per round,
and the median of the rounds is printed with their range and our pages/s (best round).

With `posts` (e.g. 20, what boards show by default), each saved page is first grown to that many
posts by repeating its own posts after the last one: the saved pages hold 2–5 posts, so their
figures are mostly the fixed cost of a page, and a full page shows the cost of the posts.

`--python-walker` reads the bodies with the Python walker, as an install without the compiled
one (no C compiler) does.
"""
import importlib
import statistics
import sys
import time
from datetime import datetime, timezone
from pathlib import Path

import lxml.html
from selectolax.lexbor import LexborHTMLParser

from forumgm.parsers.forums import ENGINES, body, engine_functions

FIXTURES = Path(__file__).resolve().parent.parent / "tests" / "fixtures" / "forums"
GENERIC_CONFIG = Path(__file__).resolve().parent.parent / "config" / "forums" / "generic.example.toml"
NOW = datetime(2026, 11, 30, 5, 0, tzinfo=timezone.utc)
REPEAT = 20      # pages read per timing, so that one timing is well above the clock's resolution


def cpu_time(work, pages) -> float:
    """This thread's CPU time for `work` over every page, REPEAT times, per page."""
    started = time.thread_time()
    for _ in range(REPEAT):
        for html in pages:
            work(html)
    return (time.thread_time() - started) / (REPEAT * len(pages))


def measure(engine: str, rounds: int, posts: int | None = None) -> tuple[float, float, float, float] | None:
    """(our pages/s, median, lowest and highest lxml time / our time) for an engine's saved
    thread pages (grown to `posts` posts each, if given); None without pages."""
    source = "phpbb" if engine == "generic" else engine
    pages = [p.read_text(encoding="utf-8") for p in sorted((FIXTURES / source).glob("thread_page*.html"))]
    if not pages:
        return None
    functions = engine_functions(engine, GENERIC_CONFIG if engine == "generic" else None)
    if posts is not None:
        selector = layout_of(engine).thread.post
        pages = [grown(html, selector, posts) for html in pages]
    ours, ratios = float("inf"), []
    for _ in range(rounds):          # alternated: a busy moment of the machine hits both alike
        our_time = cpu_time(lambda html: functions.posts(html, "UTC", NOW), pages)
        ratios.append(cpu_time(lxml_tree, pages) / our_time)
        ours = min(ours, our_time)
    return 1 / ours, statistics.median(ratios), min(ratios), max(ratios)


def lxml_tree(html: str):
    return lxml.html.fromstring(html)


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


def main(rounds: int = 30, posts: int | None = None, python_walker: bool = False) -> None:
    if python_walker:
        body._walker = lambda: body._read_in_python
    grown_to = f", pages grown to {posts} posts" if posts else ""
    walker = "Python walker" if body._walker() is body._read_in_python else "compiled walker"
    print(f"{'engine':12} {'pages/s':>8} {'vs lxml':>8}  (range of {rounds} rounds{grown_to}; {walker})")
    for engine in sorted(ENGINES):
        result = measure(engine, rounds, posts)
        if result is not None:
            pages_per_second, median, low, high = result
            print(f"{engine:12} {pages_per_second:8.0f} {median:7.2f}x  ({low:.2f}–{high:.2f})")


if __name__ == "__main__":
    numbers = [int(arg) for arg in sys.argv[1:] if arg != "--python-walker"]
    main(numbers[0] if numbers else 30, numbers[1] if len(numbers) > 1 else None, "--python-walker" in sys.argv)
