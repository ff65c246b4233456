"""Probe campaign (run by hand): `python bench/probe.py [faults] [pms_per_game] [pages]`,
and `python bench/probe.py kills [kills] [seed] [phase_seconds] [max_phases] [examples]` (bench/kills.py:
a real daemon stopped again and again; defaults 150, 1, 60, 60, legends,mafia).

Measures, at a size a loaded 2-core machine runs in a few minutes (defaults 40, 300, 300):
- proxy faults (5xx, 429, hang, reset, cut body) between the publisher and the local forum, one
  per draft's POST, each draft then published again as the next tick does: every approved post
  and PM counted on the board exactly once / twice / never;
- fuzzed order PMs through every engine's read_orders: every line gets a verdict, nothing raises;
- fuzzed thread pages (BBCode rendered, and raw post HTML) through the phpBB parser: nothing
  raises, every post of the page is still read.
The generators are the suite's own (tests/test_fuzz_hostile_input.py, tests/fault_proxy.py);
here they run many more examples than CI affords. Prints a table; docs/reliability.md keeps it.
Not here: the receipts' escaping.
"""
from __future__ import annotations

import sys
import tempfile
from itertools import cycle
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from fault_proxy import FaultProxy  # noqa: E402
from localforum_support import FakeClock, HOST, PLAYERS, game_store, seeded_board  # noqa: E402
import test_fuzz_hostile_input as fuzz  # noqa: E402

from forumgm.daemon.drafts.publish import publish_approved  # noqa: E402
from forumgm.daemon.forum import open_forum  # noqa: E402
from forumgm.daemon.offline.localforum import LocalForum  # noqa: E402
from forumgm.engines.base import OrderPm, split_lines  # noqa: E402
from forumgm.parsers.bbcode import to_phpbb_html  # noqa: E402
from forumgm.parsers.forums import phpbb  # noqa: E402

FAULTS = (("502", "status", {"status": 502}), ("503", "status", {"status": 503}),
          ("429", "status", {"status": 429}), ("hang", "delay", {"seconds": 1.0}), ("reset", "reset", {}),
          ("cut body", "cut", {"cut": lambda body: len(body) // 2}))


def faults(count: int) -> dict[str, list[int]]:
    """Per fault: [drafts, on the board once, twice, never]."""
    figures = {name: [0, 0, 0, 0] for name, _, _ in FAULTS}
    clock = FakeClock()
    with tempfile.TemporaryDirectory() as folder, LocalForum(seeded_board(clock)) as server, \
            FaultProxy(server.url) as proxy:
        store = game_store(Path(folder), server, clock)
        config = {"engine": "phpbb", "base_url": proxy.url, "username": HOST, "posts_per_page": 5,
                  "timeout": 0.5, "retries": 0}
        forum = open_forum(config, "host-secret", clock=clock.monotonic, sleep=clock.sleep)
        for n, (name, kind, details) in zip(range(count), cycle(FAULTS)):
            target = "thread" if n % 2 else PLAYERS[n % len(PLAYERS)]
            text = f"Проба {n}: {name}."
            store.approve(store.insert_draft("g1", "result", target, text, f"p{n}", True, subject=f"Проба {n}"), HOST)
            proxy.inject("POST", "posting.php" if target == "thread" else "ucp.php", kind, **details)
            for _ in range(3):      # the faulted tick, then the ticks after it
                publish_approved(forum, store, clock.now())
                proxy.settle()
                clock.sleep(120)
            board = server.board
            texts = [p.bbcode for p in board.posts.values()] if target == "thread" else \
                [m.bbcode for m in board.pms.values()]
            found = texts.count(text)
            figures[name][0] += 1
            figures[name][1 + {1: 0, 2: 1, 0: 2}.get(found, 1)] += 1
    return figures


SETTINGS = dict(derandomize=True, deadline=None, database=None, suppress_health_check=list(HealthCheck))


def order_pms(per_game: int) -> dict[str, list[int]]:
    """Per game: [PMs, lines, lines without a verdict, exceptions]."""
    figures = {}
    for game_type in fuzz.games_with_a_grammar():
        rules, state, phases, players = fuzz.started(game_type)
        row = figures[game_type] = [0, 0, 0, 0]

        @settings(max_examples=per_game, **SETTINGS)
        @given(text=fuzz.order_text(players), sender=st.sampled_from(players), phase=st.sampled_from(phases))
        def read(text, sender, phase):
            row[0] += 1
            lines = split_lines(text)
            row[1] += len(lines)
            try:
                verdicts = rules.read_orders(state, phase, OrderPm(sender, text), [])
            except Exception:
                row[3] += 1
                return
            answered = {v.line for v in verdicts}
            row[2] += sum(1 for line in lines if line.strip() and line not in answered)

        read()
    return figures


def pages(count: int) -> dict[str, list[int]]:
    """Per kind of fuzzed post: [pages, exceptions, pages whose posts were not all read]."""
    expected = [p.id for p in phpbb.posts(fuzz.PAGE, "UTC", fuzz.CAPTURED)]
    figures = {"BBCode post": [0, 0, 0], "raw post HTML": [0, 0, 0]}

    def check(name: str, body: str) -> None:
        row = figures[name]
        row[0] += 1
        html = fuzz.BODY.sub(lambda m: m.group(1) + body + m.group(3), fuzz.PAGE, count=1)
        try:
            read = [p.id for p in phpbb.posts(html, "UTC", fuzz.CAPTURED)]
        except Exception:
            row[1] += 1
            return
        row[2] += read != expected

    @settings(max_examples=count, **SETTINGS)
    @given(post=fuzz.bbcode())
    def bbcode(post):
        check("BBCode post", to_phpbb_html(post))

    @settings(max_examples=count, **SETTINGS)
    @given(body=fuzz.html())
    def raw(body):
        check("raw post HTML", body)

    bbcode()
    raw()
    return figures


def table(title: str, heads: tuple[str, ...], rows: dict[str, list[int]]) -> None:
    print(f"\n{title}\n| {' | '.join(heads)} |\n|{'---|' * len(heads)}")
    for name, figures in rows.items():
        print(f"| {name} | {' | '.join(map(str, figures))} |")


def main(fault_count: int = 40, per_game: int = 300, page_count: int = 300) -> None:
    sent, read, parsed = faults(fault_count), order_pms(per_game), pages(page_count)
    table("Proxy faults at a draft's POST", ("fault", "drafts", "once", "twice", "never"), sent)
    table("Fuzzed order PMs", ("game", "PMs", "lines", "lines without a verdict", "exceptions"), read)
    table("Fuzzed thread pages (phpBB parser)", ("post", "pages", "exceptions", "posts not all read"), parsed)
    wrong = (sum(row[2] + row[3] for row in sent.values()) + sum(row[2] + row[3] for row in read.values())
             + sum(row[1] + row[2] for row in parsed.values()))
    print(f"\nlost, doubled, unanswered or unread: {wrong}")


if __name__ == "__main__":
    if sys.argv[1:2] == ["kills"]:
        from kills import report
        args = sys.argv[2:7] + ["150", "1", "60", "60", "legends,mafia"][len(sys.argv[2:7]):]
        sys.exit(1 if report(int(args[0]), int(args[1]), float(args[2]), int(args[3]), tuple(args[4].split(","))) else 0)
    main(*map(int, sys.argv[1:4]))
