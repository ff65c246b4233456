"""What `forumgm demo` tells the host to type next is a command the real CLI accepts."""
from __future__ import annotations

import io
import shlex
from types import SimpleNamespace

from forumgm.daemon.cli import build_parser
from forumgm.daemon.demo import DemoClock, _summary, demo_board
from forumgm.daemon.store import Store


def test_the_commands_the_demo_prints_parse_with_the_real_cli(tmp_path):
    clock = DemoClock(speed=1)
    store = Store(tmp_path / "forumgm.sqlite", now=clock.now)
    out = io.StringIO()
    _summary(store, SimpleNamespace(board=demo_board(clock, "pw")), tmp_path / "forumgm.toml", False, out)
    commands = [line.split(":", 1)[1].split("(")[0].strip() for line in out.getvalue().splitlines()
                if ": " in line and "forumgm " in line]
    assert len(commands) == 4
    assert "forumgm demo --auto-approve" in commands        # approving after the demo would post nothing
    assert not any(" approve " in command for command in commands)
    parser = build_parser()
    for command in commands:
        argv = shlex.split(command.replace("ID", "7"))
        assert argv[0] == "forumgm"
        args = parser.parse_args(argv[1:])          # exits (fails the test) on a command the CLI refuses
        assert args.handler is not None
