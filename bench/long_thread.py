"""Benchmark (run by hand): the first sync of a long thread from the local forum, and a restart halfway.

    python bench/long_thread.py [pages]        (default 1000 pages of 20 posts)

The local forum runs in a child process (its CPU is not the daemon's). The sync reads with
no pause between requests (the polite limit, 1 s a request, would add `pages` seconds of
waiting and no CPU). Prints the sync's CPU and wall time, the process's RSS at every tenth
of the thread, the SQLite file's size, and how a sync killed halfway resumes.
"""
from __future__ import annotations

import sys
import tempfile
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path

from forumgm.daemon.forum import open_forum
from forumgm.daemon.offline.localforum import Board
from forumgm.daemon.offline.localforum.board import system_clock
from forumgm.daemon.store import Store
from forumgm.daemon.tick.sync import sync_game

from measure import ForumProcess, cpu_seconds, machine, rss_mb

PER_PAGE = 20
HOST, PASSWORD = "Ведущий", "host-secret"
PLAYERS = [f"Игрок{n:02d}" for n in range(30)]
STARTED = datetime(2026, 10, 1, 12, tzinfo=timezone.utc)


def long_board(pages: int) -> Board:
    """A month-old thread: one post a minute, now and then a coloured vote and a quote."""
    moment = [STARTED]

    def clock() -> datetime:
        return moment[0]

    # form keys on real time from the start, as the demo's: the frozen building clock made every
    # log-in form 0 s old, which the board refuses as submitted in its own second
    board = Board(clock=clock, posts_per_page=PER_PAGE, form_clock=time.time)
    board.add_user(HOST, PASSWORD, admin=True)
    for nick in PLAYERS:
        board.add_user(nick, "pw")
    board.add_topic(HOST, "Игра: длинная тема", "Начинаем. Голосуем [color=blue]ником[/color].")
    for n in range(pages * PER_PAGE - 1):
        moment[0] += timedelta(minutes=1)
        author, target = PLAYERS[n % 30], PLAYERS[(n * 7 + 3) % 30]
        text = (f"Сообщение {n}: думаю, что {target} ведёт себя странно, а вот [b]{author}[/b] — нет.\n"
                + (f"[color=blue]{target}[/color]" if n % 10 == 0 else "Пока без голоса."))
        if n % 25 == 0:
            text = f"[quote=\"{target}\"]Это было вчера[/quote]\n" + text
        board.reply(author, 2, text)
    board.clock = system_clock      # built: from now on the board runs on real time
    return board


class Killed(BaseException):
    """The daemon killed at a page (a BaseException, as a signal would stop everything)."""


class Observed:
    """The forum as the sync sees it; notes RSS every tenth of the thread, may die at a page."""

    def __init__(self, forum, pages: int, kill_at: int | None = None):
        self.forum, self.pages, self.kill_at = forum, pages, kill_at
        self.read: list[int] = []
        self.rss: list[tuple[int, float]] = []

    def thread_page(self, url, page):
        if page == self.kill_at:
            raise Killed(page)
        self.read.append(page)
        if page % max(1, self.pages // 10) == 0 or page == 1:
            self.rss.append((page, rss_mb()))
        return self.forum.thread_page(url, page)

    def __getattr__(self, name):
        return getattr(self.forum, name)


def host_forum(url: str):
    config = {"engine": "phpbb", "base_url": url, "username": HOST, "posts_per_page": PER_PAGE,
              "min_interval": 0}
    return open_forum(config, PASSWORD)


def game(store: Store, url: str) -> dict:
    store.register_forum("local", "phpbb", url, HOST)
    store.register_game("long", "mafia", "local", url + "viewtopic.php?t=2", "UTC", 1, {n: [] for n in PLAYERS})
    return {**store.game("long"), "edit_window": timedelta(hours=1)}


def first_sync(url: str, pages: int, folder: Path) -> None:
    store = Store(folder / "first.sqlite")
    row = game(store, url)
    forum = Observed(host_forum(url), pages)
    forum.thread_page(row["thread_url"], 1)        # log in and warm up outside the measurement
    forum.read.clear()
    forum.rss.clear()
    now = datetime.now(timezone.utc)
    cpu, wall = cpu_seconds(), time.perf_counter()
    report = sync_game(row, forum, store, now)
    cpu, wall = cpu_seconds() - cpu, time.perf_counter() - wall
    assert report.ok and len(report.new_posts) == pages * PER_PAGE, report.error
    print(f"first sync of {pages} pages ({pages * PER_PAGE} posts): CPU {cpu:.1f} s, wall {wall:.1f} s, "
          f"{cpu / pages * 1000:.1f} ms CPU a page")
    print("RSS (MB) by page: " + ", ".join(f"{page}: {mb:.0f}" for page, mb in forum.rss))
    store.close()
    print(f"SQLite file: {(folder / 'first.sqlite').stat().st_size / 2**20:.0f} MB "
          f"(raw pages {pages}, posts {pages * PER_PAGE})")


def restart_halfway(url: str, pages: int, folder: Path) -> None:
    store = Store(folder / "restart.sqlite")
    row = game(store, url)
    now = datetime.now(timezone.utc)
    try:
        sync_game(row, Observed(host_forum(url), pages, kill_at=pages // 2), store, now)
    except Killed:
        pass
    store.close()
    store = Store(folder / "restart.sqlite")           # a new process on the same file
    again = Observed(host_forum(url), pages)
    report = sync_game(row, again, store, now + timedelta(minutes=1))
    assert report.ok and len(store.posts("long")) == pages * PER_PAGE
    print(f"killed at page {pages // 2}; the restarted sync read pages {again.read[0]}..{again.read[-1]} "
          f"({len(again.read)} requests), {len(report.new_posts)} new posts, every post stored once")


def main(pages: int = 1000) -> None:
    print(machine())
    with ForumProcess(lambda: long_board(pages)) as server, tempfile.TemporaryDirectory() as folder:
        first_sync(server.url, pages, Path(folder))
        restart_halfway(server.url, pages, Path(folder))


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 1000)
