"""The play page's levels, each against the one below it, with the arena.

For each level k from 2 to 5, ``ronda-solve arena LEVEL_k LEVEL_k-1``
(and level 1 against ``random``, the floor), lmodire, two players; prints
the markdown table of docs/web.md: A's margin a hand with its 95 %
interval over the seat-swapped pairs, the points a hand, hands won /
drawn / lost, thinking seconds a hand. Run::

    python bench/bench_levels.py --pairs 500 --jobs 1
    python bench/bench_levels.py --only 5 --pairs 1000 --seed 25

or format arena runs already made (``ronda-solve arena A B --json``, one
file a row)::

    python bench/bench_levels.py --from runs/*.json

Long on a shared machine (``engine:0.05s`` thinks about 1 s a hand): run it
with ``nice`` and ``--jobs 1``.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from solver.games.arena import run_arena  # noqa: E402
from solver.games.levels import LEVELS  # noqa: E402

HEADER = ("| A v B | pairs (seed) | A's margin a hand (95 %) | A / B points a hand "
          "| won / drawn / lost | thinking a hand, A / B |\n|---|---|---|---|---|---|")


def label(spec: str) -> str:
    """``level 3 club (mc:50)``, or the spec itself."""
    for lv in LEVELS:
        if lv.spec == spec:
            return f"{lv.number} {lv.name} (`{spec}`)"
    return f"`{spec}`"


def row(s: dict) -> str:
    """One table row from an arena summary (``--json``)."""
    part = " (partial)" if s.get("partial") else ""
    return (f"| {label(s['a'])} v {label(s['b'])} | {s['pairs']}{part} ({s['seed']}) "
            f"| **{s['margin']:+.3f} ± {s['margin_ci95']:.3f}** "
            f"| {s['a_points']:.3f} / {s['b_points']:.3f} "
            f"| {s['won']} / {s['drawn']} / {s['lost']} "
            f"| {s['a_seconds_per_hand']:.3f} / {s['b_seconds_per_hand']:.3f} s |")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pairs", type=int, default=500)
    ap.add_argument("--seed", default="levels")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--only", type=int, help="just level N against level N-1 (1: against random)")
    ap.add_argument("--from", dest="files", nargs="+", help="arena --json files to format")
    args = ap.parse_args()
    print(HEADER)
    if args.files:
        for f in args.files:
            print(row(json.loads(Path(f).read_text())))
        return
    specs = ["random"] + [lv.spec for lv in LEVELS]
    for k in range(1, len(specs)):
        if args.only is not None and args.only != k:
            continue
        r = run_arena(specs[k], specs[k - 1], pairs=args.pairs, seed=f"{args.seed}/{k}",
                      jobs=args.jobs)
        print(row(r.summary()), flush=True)


if __name__ == "__main__":
    main()
