"""Benchmark (run by hand): drawing the Bellum map of the full 370 AD scenario.

    python bench/bellum_map.py

Prints the time to draw the start position (137 provinces, 297 links, 157 stacks of people,
58 factions in the legend) as PNG and as SVG, the best of several runs after a warm-up (the
first drawing also loads matplotlib's fonts), the picture sizes and the machine's load around
the runs (on a shared machine the wall clock also counts other processes' turns).
"""
from __future__ import annotations

import os
import time

from forumgm.daemon.settings.setup_files import with_setup_files
from forumgm.engines.bellum import RULES
from forumgm.engines.bellum.mapdraw import draw_map, start_position
from forumgm.engines.bellum.setup import game_scenario

ROUNDS = 5


def main() -> None:
    print("load average before: %.1f %.1f %.1f" % os.getloadavg())
    scenario = game_scenario(with_setup_files(RULES, {"scenario": "370"})["scenario"])     # read as a game would
    position = start_position(scenario)
    for fmt in ("png", "svg"):
        picture = draw_map(scenario, fmt=fmt, **position)          # warm-up: fonts, marker paths
        times, cpu = [], []
        for _ in range(ROUNDS):
            start, start_cpu = time.perf_counter(), time.process_time()
            draw_map(scenario, fmt=fmt, **position)
            times.append(time.perf_counter() - start)
            cpu.append(time.process_time() - start_cpu)
        # CPU time too: on a shared machine the wall clock also counts other processes' turns
        print(f"370 map {fmt}: wall best {min(times) * 1000:.0f} ms, median {sorted(times)[ROUNDS // 2] * 1000:.0f} ms; "
              f"CPU best {min(cpu) * 1000:.0f} ms; {len(picture) // 1024} KB")
    print("load average after: %.1f %.1f %.1f" % os.getloadavg())


if __name__ == "__main__":
    main()
