"""Parser speed, run by hand: `python bench/parse_pages.py [rounds]`.

For each engine, the saved thread pages (tests/fixtures/forums) are read page → posts, and the
same pages are parsed by a bare `lxml.html.fromstring` as the yardstick. The two are timed in
alternation and the best round of each is kept, so that other work on the machine disturbs the
ratio as little as possible. Prints pages/s and the ratio (lxml time / our time: 1.0 would
mean reading every post costs no more than building lxml's tree of the page).
"""
import sys
import time
from datetime import datetime, timezone
from pathlib import Path

import lxml.html

from forumgm.parsers.forums import ENGINES, engine_functions

FIXTURES = Path(__file__).resolve().parent.parent / "tests" / "fixtures" / "forums"
GENERIC_CONFIG = Path(__file__).resolve().parent.parent / "config" / "forums" / "generic.example.toml"
NOW = datetime(2026, 11, 30, 5, 0, tzinfo=timezone.utc)
REPEAT = 20      # pages read per timing, so that one timing is well above the clock's resolution


def best_time(work, pages, rounds: int) -> float:
    """The fastest of `rounds` timings of `work` over every page, per page."""
    best = float("inf")
    for _ in range(rounds):
        started = time.perf_counter()
        for _ in range(REPEAT):
            for html in pages:
                work(html)
        best = min(best, (time.perf_counter() - started) / (REPEAT * len(pages)))
    return best


def measure(engine: str, rounds: int) -> tuple[float, float] | None:
    """(our pages/s, lxml time / our time) for an engine's saved thread pages; None without pages."""
    source = "phpbb" if engine == "generic" else engine
    pages = [p.read_text(encoding="utf-8") for p in sorted((FIXTURES / source).glob("thread_page*.html"))]
    if not pages:
        return None
    functions = engine_functions(engine, GENERIC_CONFIG if engine == "generic" else None)
    ours = lxml = float("inf")
    for _ in range(rounds):          # alternated: a busy moment of the machine hits both alike
        ours = min(ours, best_time(lambda html: functions.posts(html, "UTC", NOW), pages, 1))
        lxml = min(lxml, best_time(lxml_tree, pages, 1))
    return 1 / ours, lxml / ours


def lxml_tree(html: str):
    return lxml.html.fromstring(html)


def main(rounds: int = 15) -> None:
    print(f"{'engine':12} {'pages/s':>8} {'vs lxml':>8}")
    for engine in sorted(ENGINES):
        result = measure(engine, rounds)
        if result is not None:
            print(f"{engine:12} {result[0]:8.0f} {result[1]:7.2f}x")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 15)
