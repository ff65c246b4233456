"""`forumgm verify ARCHIVE.json [--commitment DIGEST]`: check a finished game's archive with no store
and no forum: its commitments, its deal, every phase replayed (exit 1 on any difference, 2 when the
file cannot be checked)."""
from __future__ import annotations

import json
import sys
from importlib.metadata import version
from pathlib import Path


def register(subparsers) -> None:
    parser = subparsers.add_parser("verify", help="check a finished game's archive: commitment, deal, every phase")
    parser.add_argument("archive", type=Path, help="the archive (forumgm export, or the game's final post)")
    parser.add_argument("--commitment", help="the commitment posted in the thread at the deal")


def run(args) -> int:
    from forumgm.daemon.record.verify import ArchiveError, verify

    try:
        archive = json.loads(args.archive.read_text(encoding="utf-8"))
        checks = verify(archive, args.commitment)
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        print(f"forumgm verify: {args.archive}: cannot be read: {error}", file=sys.stderr)
        return 2
    except (ArchiveError, KeyError, TypeError) as error:
        print(f"forumgm verify: {args.archive}: {_what(error)}", file=sys.stderr)
        return 2
    made_by = archive.get("forumgm")
    if made_by != version("forumgm"):
        print(f"note: the archive was made by forumgm {made_by}, this is forumgm {version('forumgm')}: "
              "an engine changed since may differ")
    for check in checks:
        print(f"{'ok ' if check.ok else 'DIFFERS'} {check.part} ({check.name})")
        for problem in check.problems:
            print(f"    {problem}")
    differing = [check.part for check in checks if not check.ok]
    if differing:
        print(f"{args.archive}: differs in {', '.join(differing)}")
        return 1
    print(f"{args.archive}: the commitment, the deal and all {len(checks) - 2} phase(s) check out")
    return 0


def _what(error: Exception) -> str:
    if isinstance(error, KeyError):
        return f"not a complete archive (no {error.args[0]!r})"
    return str(error)
