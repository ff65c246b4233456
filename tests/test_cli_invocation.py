"""How `forumgm` is invoked: README's own command lines parse as written, and a command whose
output is closed (`| head -1`) ends quietly instead of in a BrokenPipeError traceback."""
from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from forumgm.daemon.cli import build_parser, main
from forumgm.daemon.store import Store
from mafia_walk_support import GAME

README = Path(__file__).resolve().parent.parent / "README.md"
SIGPIPE_STATUS = 141            # 128 + SIGPIPE: what a shell shows for a tool killed by a closed pipe


def readme_command_lines() -> list[str]:
    """README's indented `forumgm …` lines, comments cut, each alternative (`list|show`, `pause / resume`) on its own."""
    lines = []
    for raw in README.read_text(encoding="utf-8").splitlines():
        text = raw.strip()
        if not raw.startswith("    ") or not text.startswith("forumgm"):
            continue
        text = re.sub(r"\s+#.*$", "", text)
        first, _, other = text.partition(" / ")
        words = first.split()
        lines.append(first)
        if other:                       # «pause --config … GAME / resume …»: the same words for the other command
            lines.append(" ".join([words[0], other.split()[0], *words[2:]]))
    expanded = []
    for line in lines:
        choice = next((word for word in line.split() if "|" in word), None)
        expanded += [line.replace(choice, option) for option in choice.split("|")] if choice else [line]
    return expanded


def argv_of(line: str) -> list[str]:
    """The words a host types for README's line: placeholders filled, `[OPTIONAL]` brackets taken off."""
    argv, words = [], shlex.split(line)[1:]
    for before, word in zip([None, *words], words):
        word = word.strip("[]")
        if word == "…":
            if before == "--config":
                argv.append("forumgm.toml")
            continue                    # «--player A --player B …»: more of the same
        argv.append("3" if word == "ID" else word.lower() if re.fullmatch(r"[A-Z_]+", word) else word)
    return argv


def test_readme_lists_the_host_commands():
    commands = {argv_of(line)[0] for line in readme_command_lines()}
    assert {"drafts", "correct", "resolve", "deadline", "pause", "resume", "replace", "votes", "simulate"} <= commands


@pytest.mark.parametrize("line", readme_command_lines())
def test_every_readme_command_line_parses_as_written(line, capsys):
    argv = argv_of(line)
    try:
        args = build_parser().parse_args(argv)
    except SystemExit as exit_:
        assert exit_.code == 0, f"{line!r} → {argv}: {capsys.readouterr().err}"     # --version
        return
    assert args.command == argv[0]


def test_options_before_the_draft_id_still_give_the_id():
    args = build_parser().parse_args(["drafts", "show", "--config", "forumgm.toml", "3"])
    assert (args.action, args.id, args.config) == ("show", 3, Path("forumgm.toml"))


def closed_pipe() -> int:
    """A pipe's write end whose reader has gone: the first write to it fails with EPIPE."""
    read_end, write_end = os.pipe()
    os.close(read_end)
    return write_end


def run_into_closed_pipe(argv: list[str]) -> int:
    stdout, sys.stdout = sys.stdout, os.fdopen(closed_pipe(), "w", encoding="utf-8")
    try:
        return main(argv)
    finally:
        sys.stdout.close()
        sys.stdout = stdout


@pytest.mark.parametrize("command", sorted(build_parser()._subparsers._group_actions[0].choices))
def test_every_command_ends_quietly_when_its_help_has_no_reader(command, capsys):
    assert run_into_closed_pipe([command, "--help"]) == SIGPIPE_STATUS
    assert capsys.readouterr().err == ""


@pytest.fixture
def with_drafts(played, monkeypatch):
    monkeypatch.setenv("FORUMGM_WEB_PASSWORD", "long secret")    # check-config wants every secret of the file
    installation, config = played
    storage = installation.storage
    store = Store(storage)
    draft_id = store.drafts(status=None)[0]["id"]
    store.close()
    return config, draft_id


@pytest.mark.parametrize("argv", [
    ["status", "--config", "{config}"],
    ["drafts", "list", "--all", "--config", "{config}"],
    ["drafts", "show", "--config", "{config}", "{draft}"],
    ["votes", "--config", "{config}", GAME, "--phase", "round-2"],
    ["check-config", "{config}"],
])
def test_a_command_printing_to_a_closed_pipe_ends_quietly(argv, with_drafts, capsys):
    config, draft_id = with_drafts
    argv = [word.format(config=config, draft=draft_id) for word in argv]
    assert main(argv) == 0, capsys.readouterr().err           # it prints something when someone reads
    assert capsys.readouterr().out
    assert run_into_closed_pipe(argv) == SIGPIPE_STATUS
    assert capsys.readouterr().err == ""


def test_drafts_show_piped_into_head_leaves_no_traceback(with_drafts):
    config, draft_id = with_drafts
    write_end = closed_pipe()
    try:
        done = subprocess.run([sys.executable, "-m", "forumgm.daemon.cli", "drafts", "show", "--config", str(config),
                               str(draft_id)], stdout=write_end, stderr=subprocess.PIPE, text=True,
                              check=False)
    finally:
        os.close(write_end)
    assert (done.returncode, done.stderr) == (SIGPIPE_STATUS, "")
