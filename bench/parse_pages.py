"""Rough parser speed, run by hand: `python bench/parse_pages.py [seconds]` prints pages/second per engine."""
import sys
import time
from datetime import datetime, timezone
from pathlib import Path

from forumgm.parsers.forums import ENGINES, engine_functions

FIXTURES = Path(__file__).resolve().parent.parent / "tests" / "fixtures" / "forums"
GENERIC_CONFIG = Path(__file__).resolve().parent.parent / "config" / "forums" / "generic.example.toml"
NOW = datetime(2026, 11, 30, 5, 0, tzinfo=timezone.utc)


def pages_per_second(functions, pages, seconds):
    done, started = 0, time.perf_counter()
    while time.perf_counter() - started < seconds:
        for html in pages:
            functions.posts(html, "UTC", NOW)
            functions.page_info(html)
        done += len(pages)
    return done / (time.perf_counter() - started)


def main(seconds=2.0):
    for engine in sorted(ENGINES):
        source = "phpbb" if engine == "generic" else engine
        pages = [p.read_text(encoding="utf-8") for p in sorted((FIXTURES / source).glob("thread_page*.html"))]
        if not pages:
            continue
        functions = engine_functions(engine, GENERIC_CONFIG if engine == "generic" else None)
        print(f"{engine:12} {pages_per_second(functions, pages, seconds):8.1f} pages/s")


if __name__ == "__main__":
    main(float(sys.argv[1]) if len(sys.argv) > 1 else 2.0)
