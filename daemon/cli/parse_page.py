"""`forumgm parse-page`: read one saved forum thread page with an engine's parser, print JSON."""
from __future__ import annotations

import json
import sys
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError


def register(subparsers) -> None:
    from forumgm.parsers.forums import ENGINES

    parser = subparsers.add_parser("parse-page", help="parse a saved thread page and print its posts as JSON")
    parser.add_argument("--engine", required=True, choices=sorted(ENGINES), help="the forum engine")
    parser.add_argument("--tz", default="UTC", help="the forum account's timezone (default UTC)")
    parser.add_argument("--now", default=None,
                        help="ISO time the page was fetched, for relative dates (default: now)")
    parser.add_argument("--config", type=Path, default=None,
                        help="selector TOML for --engine generic (see docs/generic-forum.md)")
    parser.add_argument("file", type=Path, help="the saved HTML page")


def run(args) -> int:
    from forumgm.parsers.forums import parse_page
    from forumgm.parsers.forums.base import PageLayoutError

    try:
        tz = ZoneInfo(args.tz)
        now = datetime.fromisoformat(args.now) if args.now else datetime.now(tz)
        if now.tzinfo is None:
            now = now.replace(tzinfo=tz)
        html = args.file.read_text(encoding="utf-8", errors="replace")
        result = parse_page(args.engine, html, tz, now, config=args.config)
    except (ZoneInfoNotFoundError, ValueError, OSError) as error:   # PageLayoutError is a ValueError
        kind = "page layout not understood" if isinstance(error, PageLayoutError) else "error"
        print(f"forumgm parse-page: {kind}: {error}", file=sys.stderr)
        return 2
    json.dump(result, sys.stdout, ensure_ascii=False, indent=2)
    sys.stdout.write("\n")
    return 0
