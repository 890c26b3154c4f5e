"""Arena benchmark: player A against player B over seat-swapped pairs of hands.

Prints A's margin per hand (A's points less B's, game points) with its 95 %
confidence interval over the pairs, the points per hand of each, hands
won/drawn/lost and the thinking time per hand. Run::

    python bench/bench_arena.py engine:20 greedy --pairs 500 --seed 1
    python bench/bench_arena.py engine:20 mc:200 --pairs 500 --seed 2

(500 pairs = 1000 hands). ``--jobs N`` uses N processes (same result).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from solver.games.arena import run_arena  # noqa: E402
from solver.rules import PRESETS  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("a")
    ap.add_argument("b")
    ap.add_argument("--pairs", type=int, default=500)
    ap.add_argument("--seed", default="0")
    ap.add_argument("--rules", default="lmodire", choices=sorted(PRESETS))
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    t0 = time.time()

    def progress(done: int, total: int) -> None:
        if done % 25 == 0 or done == total:
            print(f"  {done}/{total} pairs, {time.time() - t0:.0f} s", file=sys.stderr, flush=True)

    r = run_arena(args.a, args.b, pairs=args.pairs, rules=PRESETS[args.rules],
                  players=args.players, seed=args.seed, jobs=args.jobs, progress=progress)
    s = r.summary()
    if args.json:
        print(json.dumps(s, indent=2))
        return
    print(f"arena {s['a']} (A) v {s['b']} (B), {s['rules']}, {s['players']} players, "
          f"seed {s['seed']}: {s['pairs']} seat-swapped pairs = {s['hands']} hands")
    print(f"A's margin per hand   {s['margin']:+.3f} ± {s['margin_ci95']:.3f} points (95 % CI over pairs)")
    print(f"points per hand       A {s['a_points']:.3f} ± {s['a_points_ci95']:.3f}   "
          f"B {s['b_points']:.3f} ± {s['b_points_ci95']:.3f}")
    print(f"hands A won/drawn/lost {s['won']}/{s['drawn']}/{s['lost']}")
    print(f"thinking per hand     A {s['a_seconds_per_hand']:.3f} s   B {s['b_seconds_per_hand']:.3f} s"
          f"   (wall {s['wall_seconds']:.0f} s, {args.jobs} job(s))")


if __name__ == "__main__":
    main()
