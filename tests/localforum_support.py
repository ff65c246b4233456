"""Shared by the forum HTTP, sync and publish tests: a fake clock, the games' month, a seeded local forum."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone
from zoneinfo import ZoneInfo

from forumgm.daemon.forum import open_forum
from forumgm.daemon.offline.localforum import Board, LocalForum

PLAYERS = ("Аскон", "gosha100", "Robozik", "Кума")
HOST = "Ведущий"
MSK = ZoneInfo("Europe/Moscow")


def msk(day: int, hour: int, minute: int = 0) -> datetime:
    """A moment of March 2026, Moscow time: the month the games of the tests are played in."""
    return datetime(2026, 3, day, hour, minute, tzinfo=MSK)


class FakeClock:
    """One time for the board and the client: the client's sleeps move it forward."""

    def __init__(self, start: datetime = datetime(2026, 11, 30, 12, 0, tzinfo=timezone.utc)):
        self.moment = start
        self.slept: list[float] = []

    def now(self) -> datetime:
        return self.moment

    def monotonic(self) -> float:
        return self.moment.timestamp()

    def sleep(self, seconds: float) -> None:
        self.slept.append(seconds)
        self.moment += timedelta(seconds=seconds)


def seeded_board(clock: FakeClock, replies: int = 0) -> Board:
    board = Board(clock=clock.now)
    board.add_user(HOST, "host-secret", admin=True)
    for nick in PLAYERS:
        board.add_user(nick, f"{nick}-pw")
    board.add_topic(HOST, "Игра №1: День 1", "Начинается [b]День 1[/b]. Голосуем [color=blue]ником[/color].")
    for n in range(replies):
        board.reply(PLAYERS[n % len(PLAYERS)], 2, f"Голосую за [color=blue]{PLAYERS[(n + 1) % len(PLAYERS)]}[/color]")
        clock.sleep(60)
    clock.slept.clear()
    return board


def host_forum(server: LocalForum, clock: FakeClock, password: str = "host-secret"):
    config = {"engine": "phpbb", "base_url": server.url, "username": HOST, "posts_per_page": 5}
    return open_forum(config, password, clock=clock.monotonic, sleep=clock.sleep)


def thread_url(server: LocalForum) -> str:
    return server.url + "viewtopic.php?t=2"


def game_store(tmp_path, server: LocalForum, clock: FakeClock, game_id: str = "g1"):
    from forumgm.daemon.store import Store
    store = Store(tmp_path / "forumgm.sqlite", now=clock.now)
    store.register_forum("local", "phpbb", server.url, HOST)
    store.register_game(game_id, "mafia", "local", thread_url(server), "UTC", 1,
                        {nick: [] for nick in PLAYERS})
    return store


class CountingForum:
    """Wraps a Forum to count thread page requests the sync makes."""

    def __init__(self, forum):
        self.forum = forum
        self.pages: list[int] = []

    def thread_page(self, url, page):
        self.pages.append(page)
        return self.forum.thread_page(url, page)

    def __getattr__(self, name):
        return getattr(self.forum, name)
