"""`forumgm localforum`: the board a host tries a config on — real time, the host's players, no secrets in argv."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone

from forumgm.daemon.cli import build_parser, main
from forumgm.daemon.cli.localforum import local_board


def test_the_board_runs_on_real_time_with_the_players_named():
    board = local_board(["Аскон", "Бук"], "host-pw", "player-pw")
    before = datetime.now(timezone.utc)
    post = board.reply("Бук", 2, "Голосую за [color=blue]Аскон[/color]")
    assert before <= post.posted_at <= before + timedelta(seconds=5)     # the daemon's SystemClock agrees
    assert [u.name for u in board.users.values()] == ["Ведущий", "Аскон", "Бук"]
    assert board.login("Аскон", "player-pw") and board.login("Ведущий", "host-pw")


def test_passwords_are_not_command_line_options():
    options = {action.dest for action in build_parser()._subparsers._group_actions[0].choices["localforum"]._actions}
    assert not [name for name in options if "password" in name]


def test_a_player_listed_twice_is_refused(capsys):
    assert main(["localforum", "--port", "0", "--player", "Бук", "--player", "бук"]) == 2
    assert "every --player must be a different name" in capsys.readouterr().err
