"""A small phpBB-compatible forum on localhost for the demo and end-to-end tests."""
from forumgm.daemon.offline.localforum.board import Board, BoardError
from forumgm.daemon.offline.localforum.server import LocalForum

__all__ = ["Board", "BoardError", "LocalForum"]
