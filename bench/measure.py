"""Shared by the benchmarks that run the daemon against the local forum: the process's own
resources, and a local forum served from a child process so that its CPU is not counted."""
from __future__ import annotations

import multiprocessing
import os
import platform
import resource
import threading
from typing import Any, Callable

from forumgm.daemon.offline.localforum import Board, LocalForum


def cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def rss_mb() -> float:
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS in /proc/self/status")


def machine() -> str:
    cpu = next((line.split(":", 1)[1].strip() for line in open("/proc/cpuinfo", encoding="utf-8")
                if line.startswith("model name")), platform.processor())
    return f"{cpu}, {os.cpu_count()} cores, Python {platform.python_version()}, {platform.system()} {platform.release()}"


def _serve(build: Callable[[], Board], commands: Callable[[Board, Any], None] | None, channel) -> None:
    board = build()
    server = LocalForum(board)
    channel.send(server.url)
    if commands is not None:      # the players' acts, done on the board as they come
        threading.Thread(target=server.serve_forever, daemon=True).start()
        while True:
            commands(board, channel.recv())
            channel.send(None)
    server.serve_forever()


class ForumProcess:
    """`build()` makes the board in a child process (fork) that serves it until `stop()`;
    `send(command)` has `commands(board, command)` carried out there (and waits for it)."""

    def __init__(self, build: Callable[[], Board], commands: Callable[[Board, Any], None] | None = None):
        context = multiprocessing.get_context("fork")
        self.channel, child = context.Pipe()
        self.process = context.Process(target=_serve, args=(build, commands, child), daemon=True)
        self.process.start()
        self.url = self.channel.recv()

    def send(self, command: Any) -> None:
        self.channel.send(command)
        self.channel.recv()

    def stop(self) -> None:
        self.process.terminate()
        self.process.join(5)

    def __enter__(self) -> "ForumProcess":
        return self

    def __exit__(self, *exc) -> None:
        self.stop()
