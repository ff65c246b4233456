"""Benchmark (run by hand): engine resolution, vote counting and name resolution.

    python bench/resolve.py [rounds]        (default 5 timed runs of each, after a warm-up run)

Prints phases/second for the shipped 30-player Legends scenario, the full Mafia scenario, a
six-step Arena duel and a five-step Arena fight of three (all through `simulate`, so order
parsing and report rendering are included), votes/second
for counting a day of thread votes, and names/second for nickname resolution.
"""
from __future__ import annotations

import sys
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path

from forumgm.config import load_texts
from forumgm.daemon.offline.simulate import load_scenario, run_scenario
from forumgm.engines.tally import VoteRules, VotePostVersion, count_votes
from forumgm.parsers.forums.base import ColoredFragment
from forumgm.parsers.names import Roster, resolve_name

SCENARIOS = Path(__file__).resolve().parent.parent / "tests" / "scenarios"
ROUNDS = 5


def rate(label: str, unit: str, count: int, work, rounds: int) -> None:
    work()  # warm caches (pymorphy dictionaries, templates)
    start = time.perf_counter()
    for _ in range(rounds):
        work()
    seconds = (time.perf_counter() - start) / rounds
    print(f"{label:42s} {count / seconds:10.1f} {unit}/s   ({seconds * 1000:.1f} ms a run)")


def scenario(path: Path, rounds: int) -> None:
    texts = load_texts()
    table = load_scenario(path)
    phases = len(table["phases"])
    rate(f"simulate {path.parent.name}/{path.name}", "phases", phases, lambda: run_scenario(table, texts), rounds)


def votes(rounds: int) -> None:
    nicks = tuple(f"Игрок{i}" for i in range(30))
    roster = Roster(nicks)
    start = datetime(2026, 1, 1, 12, tzinfo=timezone.utc)
    versions = [
        VotePostVersion(post_id=str(i), author=nicks[i % 30], posted_at=start + timedelta(minutes=i),
                        version_at=start + timedelta(minutes=i),
                        colored=(ColoredFragment("#0000ff", nicks[(i * 7) % 30] + "а"),))
        for i in range(500)
    ]
    rules = VoteRules(colors=frozenset({"#0000ff"}), voters=frozenset(nicks), candidates=frozenset(nicks))
    rate("count_votes, 500 posts of 30 players", "posts", len(versions),
         lambda: count_votes(versions, roster, rules, start + timedelta(days=1)), rounds)


def names(rounds: int) -> None:
    roster = Roster(("Аскон", "gosha100", "Robozik", "Ильмаринен", "Кума", "Кум", "Гладиатор", "Тор", "Тора"))
    texts = ["Аскону", "Robozik'а", "Ильмаринена", "Куме", "Гладиатором", "Асконн", "Тору", "нечто"] * 25
    rate("resolve_name (mixed forms)", "names", len(texts), lambda: [resolve_name(t, roster) for t in texts], rounds)


def main(rounds: int = ROUNDS) -> None:
    for path in ("legends/game30.toml", "mafia/full_game.toml", "arena/heavy_arms_end.toml",
                 "arena/three_knockout_then_surrender.toml"):
        scenario(SCENARIOS / path, rounds)
    votes(rounds)
    names(rounds)


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else ROUNDS)
