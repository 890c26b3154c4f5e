"""Benchmark of the exact search on whole two-player hands.

Prints, for 20 seeded random hands at the start of a hand (4 on the table,
3 in each hand, 30 cards in a known stock, lmodire rules): the median and
max time and node count of the exact solve of the root value, of scoring
every root move, and the time per determinised sample (stock order unknown)
at the start of a hand. Run: ``python bench/bench_exact.py [--hands N]``.
Times are the best of ``--repeat`` runs of each solve (less noise from a
busy machine); nodes do not vary.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from solver.engine.game import Game  # noqa: E402
from solver.rules import PRESETS  # noqa: E402
from solver.search.alphabeta import AlphaBeta  # noqa: E402


def random_hand(seed: int, preset: str = "lmodire"):
    """A whole hand: (game, state) with the stock order known."""
    rng = random.Random(seed)
    deck = [r for r in range(10) for _ in range(4)]
    rng.shuffle(deck)
    game = Game(PRESETS[preset], 2, 0, deck[10:])
    return game, game.initial_state(deck[:4], [deck[4:7], deck[7:10]], 0)


def timed(fn, repeat: int):
    best = None
    for _ in range(repeat):
        t = time.perf_counter()
        out = fn()
        dt = time.perf_counter() - t
        best = dt if best is None else min(best, dt)
    return best, out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=20)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--preset", default="lmodire")
    args = ap.parse_args()

    v_times, v_nodes, r_times, r_nodes, s_times = [], [], [], [], []
    for seed in range(args.hands):
        game, state = random_hand(seed, args.preset)

        def value():
            ab = AlphaBeta(game)
            ab.value(state)
            return ab.stats.nodes

        def roots():
            ab = AlphaBeta(game)
            ab.root_values(state)
            return ab.stats.nodes

        dt, nodes = timed(value, args.repeat)
        v_times.append(dt)
        v_nodes.append(nodes)
        dt, nodes = timed(roots, args.repeat)
        r_times.append(dt)
        r_nodes.append(nodes)
        # one determinised sample: a fresh stock order, every root move scored
        rng = random.Random(1000 + seed)
        stock = list(game.stock)
        rng.shuffle(stock)
        g2 = Game(game.rules, 2, 0, stock)
        dt, _ = timed(lambda: AlphaBeta(g2).root_values(state), args.repeat)
        s_times.append(dt)

    def row(name, xs, unit=1000.0, fmt="{:.2f}"):
        print(f"{name:38s} median {fmt.format(statistics.median(xs) * unit):>9s}"
              f"   max {fmt.format(max(xs) * unit):>9s}")

    print(f"exact solve of {args.hands} whole two-player hands ({args.preset}, "
          f"30 cards in a known stock), best of {args.repeat}")
    row("root value: time (ms)", v_times)
    row("root value: nodes", v_nodes, 1, "{:.0f}")
    row("every root move scored: time (ms)", r_times)
    row("every root move scored: nodes", r_nodes, 1, "{:.0f}")
    row("determinised sample, start of hand (ms)", s_times)
    print(f"determinised samples per second (one core): {1 / statistics.mean(s_times):.0f}")


if __name__ == "__main__":
    main()
