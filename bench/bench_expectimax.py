"""Benchmark of exact expectimax and of determinised sampling.

Part 1: two-player positions at the start of a deal, both hands known, the
stock order unknown, with 6, 12 and 18 unseen cards (1, 2, 3 deals to come),
lmodire rules: median and max time, decision and chance nodes, distinct
states stored, peak memory (each solve in a fresh process; ru_maxrss), and
for 6 and 12 unseen the reachable states (full enumeration) so the share
visited is known. A solve over ``--cap`` seconds is stopped and reported.

Part 2: determinised samples per second at the start of a hand (30 cards in
the stock), with 1 and 2 workers.

Run: ``python bench/bench_expectimax.py [--seeds N] [--cap S] [--skip18]``.
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import resource
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from solver.engine.game import Game  # noqa: E402
from solver.rules import PRESETS  # noqa: E402
from solver.search.expectimax import Expectimax  # noqa: E402


def position(unseen: int, seed: int):
    from solver.games.seeded import seeded_deal
    d = seeded_deal(f"em{unseen}-{seed}", unseen)
    game = Game(PRESETS["lmodire"], 2, 0, d.stock, shuffled=True)
    return game, game.initial_state(d.table, [d.rest[:3], d.rest[3:6]], 0, last=0)


def reachable(game, state) -> int:
    """Distinct decision and chance states of the full tree."""
    seen = set()
    stack = [state]
    while stack:
        s = stack.pop()
        if s in seen or game.is_terminal(s):
            continue
        seen.add(s)
        if game.is_chance(s):
            stack.extend(c for _p, _g, c in game.outcomes(s))
        else:
            for m in game.moves(s):
                stack.append(game.play(s, m)[0])
    return len(seen)


def _solve(unseen, seed, count_reachable, queue):
    game, state = position(unseen, seed)
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    t = time.perf_counter()
    em = Expectimax(game)
    em.value(state)
    dt = time.perf_counter() - t
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    reach = reachable(game, state) if count_reachable else None
    queue.put((dt, em.stats.nodes, em.stats.chance, em.stats.tt_size,
               (peak - before) / 1024, peak / 1024, reach))


def run_one(unseen, seed, cap, count_reachable):
    queue = mp.Queue()
    p = mp.Process(target=_solve, args=(unseen, seed, count_reachable, queue))
    p.start()
    p.join(cap)
    if p.is_alive():
        p.terminate()
        p.join()
        return None
    return queue.get()


def part1(seeds: int, cap: float, skip18: bool) -> None:
    print(f"exact expectimax, two players, start of a deal, stock order unknown "
          f"({seeds} positions each, cap {cap:g} s)")
    for unseen in (6, 12, 18):
        if unseen == 18 and skip18:
            continue
        rows = []
        for seed in range(seeds if unseen < 18 else 1):
            r = run_one(unseen, seed, cap, count_reachable=unseen <= 12)
            if r is None:
                print(f"  {unseen} unseen, seed {seed}: stopped after {cap:g} s")
                continue
            rows.append(r)
        if not rows:
            continue
        ts = [r[0] for r in rows]
        line = (f"  {unseen:2d} unseen: time median {statistics.median(ts):.3f} s, "
                f"max {max(ts):.3f} s; decision nodes median "
                f"{statistics.median(r[1] for r in rows):,.0f}; chance nodes median "
                f"{statistics.median(r[2] for r in rows):,.0f}; states stored median "
                f"{statistics.median(r[3] for r in rows):,.0f}; peak RSS max "
                f"{max(r[5] for r in rows):.0f} MB")
        if rows[0][6] is not None:
            share = [r[3] / r[6] for r in rows]
            line += (f"; reachable states median {statistics.median(r[6] for r in rows):,.0f}"
                     f", stored/reachable median {100 * statistics.median(share):.1f}%")
        print(line)


def part2(samples: int) -> None:
    from solver.notation import parse_position
    from solver.analysis.evaluation import evaluate
    line = "3.6.10.12 1.5.5/2.7.11 ? S"
    pos = parse_position(line)
    print(f"determinised search at the start of a hand ({line!r}), {samples} samples, no early stop")
    for workers in (1, 2):
        t = time.perf_counter()
        a = evaluate(pos, method="determinised", samples=samples, seed=0,
                     workers=workers, z=None, time_budget=1e9)
        dt = time.perf_counter() - t
        print(f"  {workers} worker(s): {samples / dt:.0f} samples/s ({dt:.2f} s for {a.samples})")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, default=5)
    ap.add_argument("--cap", type=float, default=600.0)
    ap.add_argument("--skip18", action="store_true")
    ap.add_argument("--samples", type=int, default=1000)
    args = ap.parse_args()
    part1(args.seeds, args.cap, args.skip18)
    part2(args.samples)


if __name__ == "__main__":
    main()
