"""The `forumgm` command (`main`): one sub-command per module of this package (common.py: what they share).

Each command module has `register(subparsers)` and `run(args) -> int`; a command module
imports what it works with inside `run`, so building the parser stays cheap.
"""
from __future__ import annotations

import argparse
import functools
import importlib
import os
import signal
import sqlite3
import sys
import threading
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
    "rehearse",
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
    "export",
    "verify",
)


class CommandParser(argparse.ArgumentParser):
    """A command's parser that takes its options and positionals in any order.

    Plain argparse fills an optional positional (`drafts show [ID]`) from the words before the
    first option only, so README's `drafts show --config FILE 3` was refused («unrecognized
    arguments: 3»); intermixed parsing reads the options first, then every positional left.
    """

    _intermixing = False

    def parse_known_args(self, args=None, namespace=None):
        # parse_known_intermixed_args calls back here for each of its two passes; a command with
        # sub-commands of its own (`rules accept`) cannot be intermixed, and its sub-command's parser is
        if self._intermixing or any(a.nargs == argparse.PARSER for a in self._get_positional_actions()):
            return super().parse_known_args(args, namespace)
        self._intermixing = True
        try:
            return self.parse_known_intermixed_args(args, namespace)
        finally:
            self._intermixing = False


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="forumgm", description="Hosts play-by-post forum games for a human host.")
    parser.add_argument("--version", action="version", version=f"forumgm {version('forumgm')}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=CommandParser)
    for name in COMMANDS:
        module = importlib.import_module(f"forumgm.daemon.cli.{name}")
        before = set(subparsers.choices)
        module.register(subparsers)
        for added in set(subparsers.choices) - before:
            subparsers.choices[added].set_defaults(handler=module.run)
    return parser


# One parser for the process: building it costs ~6 ms of CPU, paid by every `main()` of the daemon's
# host commands and of the tests. Intermixed parsing changes the parser's actions while it reads, so
# one thread parses at a time.
_parser = functools.cache(build_parser)
_parsing = threading.Lock()


def main(argv: list[str] | None = None) -> int:
    try:
        try:
            return _command(argv)
        finally:
            sys.stdout.flush()      # a reader gone shows at the last flush too: here, not at the interpreter's exit
    except BrokenPipeError:
        # `forumgm … | head`: nobody reads the rest. Point stdout at /dev/null so the interpreter's own
        # flush at exit does not fail a second time, and end as a tool killed by SIGPIPE would.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 128 + signal.SIGPIPE


def _command(argv: list[str] | None) -> int:
    parser = _parser()
    with _parsing:
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

