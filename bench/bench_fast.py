"""The fast mode's error (issue 24): exact expectimax with the first
chance level sampled (:func:`solver.search.split.sampled_root_values`)
against exact expectimax, on the bench's start-of-deal positions.

For each position and sample size: the largest error of a root move's
value (points), whether the best play is one of the exact best plays, the
loss (points) of the fast mode's choice, the time against the exact
search's. The 12-unseen positions are solved exactly here; at 18 unseen
the exact values come from the regression file (bench/data/em18.json).

Run: ``python bench/bench_fast.py [--unseen 12] [--positions 10]
[--samples 100,300,1000] [--workers 2]``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))


def main() -> None:
    from bench_core import start_of_deal
    from solver.cards import RANKS
    from solver.search.compiled import Searcher, ensure_compiled
    from solver.search.split import sampled_root_values
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--unseen", type=int, default=12)
    ap.add_argument("--positions", type=int, default=10)
    ap.add_argument("--samples", default="100,300,1000")
    ap.add_argument("--workers", type=int, default=2)
    args = ap.parse_args()
    ensure_compiled()
    sizes = [int(x) for x in args.samples.split(",")]
    stored = {}
    if args.unseen == 18:
        data = json.loads((ROOT / "bench/data/em18.json").read_text())
        stored = {p["seed"]: p for p in data["positions"] if p["unseen"] == 18}
    rows = {n: [] for n in sizes}
    for seed in range(args.positions):
        game, state = start_of_deal(args.unseen, seed)
        P, D = game.P, game.D
        st = state
        if args.unseen == 18:
            if seed not in stored:
                continue
            exact = {m: stored[seed]["values"][str(RANKS[m])] for m in range(10)
                     if str(RANKS[m]) in stored[seed]["values"]}
            t_exact = stored[seed]["seconds"]
        else:
            s = Searcher(P, D, 3500.0, args.workers)
            t = time.perf_counter()
            exact = s.root_values(st)
            t_exact = time.perf_counter() - t
        top = max(exact.values())
        for n in sizes:
            t = time.perf_counter()
            values, stderr, solved, _n = sampled_root_values(P, D, st, n, seed=seed,
                                                         workers=args.workers)
            dt = time.perf_counter() - t
            err = max(abs(values[m] - exact[m]) for m in exact) / 2
            choice = max(values, key=lambda m: (values[m], -m))
            loss = (top - exact[choice]) / 2
            z = max(abs(values[m] - exact[m]) / stderr[m] for m in exact) if stderr else 0
            rows[n].append((err, loss, dt, t_exact, z, solved))
            print(f"  seed {seed}, {n} deals: max error {err:.4f} points, loss {loss:.4f}, "
                  f"{dt:.2f} s against {t_exact:.2f} s exact, {solved} deals solved, "
                  f"worst error / stderr {z:.2f}", file=sys.stderr, flush=True)
    print(f"fast mode at {args.unseen} unseen, {args.workers} workers")
    for n in sizes:
        r = rows[n]
        if not r:
            continue
        print(f"{n:5d} deals: max error {max(x[0] for x in r):.4f} points (median "
              f"{statistics.median(x[0] for x in r):.4f}); best play kept "
              f"{sum(1 for x in r if x[1] == 0)}/{len(r)}, mean loss "
              f"{statistics.mean(x[1] for x in r):.4f}; time median "
              f"{statistics.median(x[2] for x in r):.2f} s against "
              f"{statistics.median(x[3] for x in r):.2f} s exact; worst error in standard "
              f"errors {max(x[4] for x in r):.2f}")


if __name__ == "__main__":
    main()
