"""Bellum turn speed, run by hand: `python bench/bellum_turn.py [runs]`.

One turn of the shipped 370 AD scenario, every faction played, with 300 order lines (the
scripted orders of the 10-turn test, cut at 300). Prints the median time of: the turn's phases
alone; Rules.resolve (collecting the orders, the phases, reports and every player's PM); the
receipts of all order PMs. The first use of a process (the Russian dictionaries, the name
indexes of the map: setup and the first Rules.resolve) is timed once, wall and CPU, and left out
of the medians; so are two 1,500-line order PMs (names as written; a different typo on every
line), timed once each.
"""
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from forumgm.config import load_texts                                         # noqa: E402
from forumgm.engines.base import OrderPm, Phase, PhaseInputs, phase_rng       # noqa: E402
from forumgm.engines.bellum import RULES                                      # noqa: E402
from forumgm.engines.bellum.orders import collect                             # noqa: E402
from forumgm.engines.bellum.turn import resolve_turn                          # noqa: E402
from forumgm.engines.bellum.work import TurnOrders                            # noqa: E402
from tests.bellum_helpers import setup_of, shipped_scenario                  # noqa: E402
from forumgm.parsers.orders.bellum import inflect                             # noqa: E402
from tests.bellum_script import every_faction_played, scripted_orders        # noqa: E402

ORDERS = 300
SEED = 370


def three_hundred_orders(state) -> list[OrderPm]:
    pms, left = [], ORDERS
    for nick, text in scripted_orders(state, 1).items():
        lines = text.splitlines()[:left]
        left -= len(lines)
        if lines:
            pms.append(OrderPm(nick, "\n".join(lines)))
    assert left == 0, "the script gave fewer than 300 orders"
    return pms


def median_ms(run, runs: int) -> float:
    run()
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        run()
        times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times)


def long_pm_ms(state, phase) -> tuple[float, float]:
    """One 1,500-line order PM, timed once each (a name is resolved once per text, so a second run
    would only look up answers): lines naming the map's provinces as written, then 1,500 lines each
    with a different typo (a letter doubled), the worst case: every typo is compared with every
    form of the map's names."""
    nick = next(f.player for f in state.factions.values() if f.player)
    names = [p.name for p in state.world.provinces.values()]
    exact = [f"1 из {inflect(n, 'gent')} в {inflect(names[i - 1], 'accs')}" for i, n in enumerate(names)]
    typos = [f"1 из {n[:k]}{n[k]}{n[k:]} в Валахию" for k in range(1, 20) for n in names if k < len(n)]
    out = []
    for lines in ((exact * 11)[:1500], typos[:1500]):
        started = time.perf_counter()
        RULES.read_orders(state, phase, OrderPm(nick, "\n".join(lines)), [])
        out.append((time.perf_counter() - started) * 1000)
    return out[0], out[1]


def main(runs: int = 20) -> None:
    texts = load_texts()
    wall, cpu = time.perf_counter(), time.process_time()
    state = RULES.setup(setup_of({"scenario": "370", "players": every_faction_played(shipped_scenario().factions)}), SEED)
    pms = three_hundred_orders(state)
    phase = Phase("turn", 1)
    RULES.resolve(state, phase, PhaseInputs(orders=tuple(pms)), SEED, texts)
    first = ((time.perf_counter() - wall) * 1000, (time.process_time() - cpu) * 1000)
    orders = TurnOrders(collect(state, phase, pms))
    print(f"{len(state.world.provinces)} provinces, {len(state.factions)} factions, {len(pms)} PMs, "
          f"{sum(len(pm.text.splitlines()) for pm in pms)} order lines")
    phases = median_ms(lambda: resolve_turn(state, 1, orders, phase_rng(SEED, phase)), runs)
    whole = median_ms(lambda: RULES.resolve(state, phase, PhaseInputs(orders=tuple(pms)), SEED, texts), runs)
    receipts = median_ms(lambda: [RULES.read_orders(state, phase, pm, []) for pm in pms], runs)
    print(f"first use (setup + first resolve)     {first[0]:7.1f} ms (CPU {first[1]:.1f} ms)")
    print(f"turn phases (resolve_turn)            {phases:7.1f} ms")
    print(f"Rules.resolve (orders, phases, texts) {whole:7.1f} ms")
    print(f"receipts of all {len(pms)} PMs             {receipts:7.1f} ms")
    exact, typos = long_pm_ms(state, phase)
    print(f"a 1,500-line PM, names as written     {exact:7.1f} ms")
    print(f"a 1,500-line PM, 1,500 different typos {typos:6.1f} ms")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 20)
