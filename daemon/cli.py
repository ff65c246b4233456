"""The `forumgm` command: one sub-command per module in forumgm.daemon.commands.

Each command module has `register(subparsers)` and `run(args) -> int`. Modules are imported
when the parser is built, one by one, so a command whose module is missing or broken is left
out with a warning instead of taking the whole CLI down.
"""
from __future__ import annotations

import argparse
import importlib
import sys
from types import ModuleType

COMMANDS = (
    "run",
    "status",
    "drafts",
    "check_config",
    "resolve",
    "rules",
    "signup",
    "simulate",
    "check_orders",
    "parse_page",
    "demo",
    "localforum",
    "web",
    "votes",
    "finish",
)


def _load(name: str) -> ModuleType | None:
    try:
        return importlib.import_module(f"forumgm.daemon.commands.{name}")
    except ModuleNotFoundError as error:
        if error.name == f"forumgm.daemon.commands.{name}":
            return None          # not written yet: the command simply does not exist
        print(f"forumgm: command {name!r} is unavailable: {error}", file=sys.stderr)
    except Exception as error:   # a broken module must not break the other commands
        print(f"forumgm: command {name!r} is unavailable: {error}", file=sys.stderr)
    return None


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="forumgm", description="Hosts play-by-post forum games for a human host.")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMANDS:
        module = _load(name)
        if module is None:
            continue
        before = set(subparsers.choices)
        module.register(subparsers)
        for added in set(subparsers.choices) - before:
            subparsers.choices[added].set_defaults(handler=module.run)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    handler = getattr(args, "handler", None)
    if handler is None:
        parser.print_help()
        return 2
    return handler(args)


if __name__ == "__main__":
    sys.exit(main())
