"""The `forumgm` command (`main`): one sub-command per module of this package (common.py: what they share).

Each command module has `register(subparsers)` and `run(args) -> int`; a command module
imports what it works with inside `run`, so building the parser stays cheap.
"""
from __future__ import annotations

import argparse
import importlib
import sqlite3
import sys
from importlib.metadata import version

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
    "correct",
    "deadline",
    "pause",
    "replace",
    "accept_thread",
    "map",
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="forumgm", description="Hosts play-by-post forum games for a human host.")
    parser.add_argument("--version", action="version", version=f"forumgm {version('forumgm')}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMANDS:
        module = importlib.import_module(f"forumgm.daemon.cli.{name}")
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
    try:
        return handler(args)
    except sqlite3.Error as error:    # a store gone read-only or full mid-command: one line, not a traceback
        print(f"forumgm {args.command}: the store cannot be used: {error} (a read-only file or folder, "
              "or a full disk? forumgm must be able to write there)", file=sys.stderr)
        return 2

