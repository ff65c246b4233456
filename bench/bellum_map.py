"""Benchmark (run by hand): drawing the Bellum map of the full 370 AD scenario.

    python bench/bellum_map.py

Prints the time to draw the start position (137 provinces, 297 links, 157 stacks of people,
58 factions in the legend) on its real geography and, as a host's own scenario without one
would be drawn, as cells: as PNG and as SVG, the first drawing of a process (the geography
parsed, the provinces' areas and the sea routes computed, the fonts opened) and the best of several
after it, the picture sizes and the machine's load around the runs (on a shared machine the wall
clock also counts other processes' turns).
"""
from __future__ import annotations

import os
import time

from forumgm.daemon.settings.games import shipped_rules
from forumgm.daemon.settings.setup_files import with_setup_files
from forumgm.engines.bellum.mapdraw import draw_map, start_position
from forumgm.engines.bellum.setup import game_scenario

ROUNDS = 5


def timed(action) -> tuple[float, float, object]:
    start, start_cpu = time.perf_counter(), time.process_time()
    result = action()
    return time.perf_counter() - start, time.process_time() - start_cpu, result


def main() -> None:
    print("load average before: %.1f %.1f %.1f" % os.getloadavg())
    rules = shipped_rules("bellum")                                  # as the daemon gets it: geography read
    setup = with_setup_files(rules, {"scenario": "370"})
    wall, cpu, _ = timed(lambda: rules.maps.start(setup, "png"))
    print(f"first 370 map of a process (png, on its geography): wall {wall * 1000:.0f} ms, CPU {cpu * 1000:.0f} ms")
    scenario = game_scenario(setup["scenario"])
    position = start_position(scenario)
    geography, fonts = rules.maps.geography(scenario.geography), rules.maps.letters()
    for drawn_on, on in (("geography", geography), ("cells", None)):
        for fmt in ("png", "svg"):
            picture = draw_map(scenario, fonts=fonts, fmt=fmt, geography=on, **position)      # warm-up: layout
            runs = [timed(lambda: draw_map(scenario, fonts=fonts, fmt=fmt, geography=on, **position))
                    for _ in range(ROUNDS)]
            walls, cpus = sorted(run[0] for run in runs), sorted(run[1] for run in runs)
            print(f"370 map {fmt} on {drawn_on}: wall best {walls[0] * 1000:.0f} ms, median "
                  f"{walls[ROUNDS // 2] * 1000:.0f} ms; CPU best {cpus[0] * 1000:.0f} ms; {len(picture) // 1024} KB")
    print("load average after: %.1f %.1f %.1f" % os.getloadavg())


if __name__ == "__main__":
    main()
