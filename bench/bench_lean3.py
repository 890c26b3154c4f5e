"""The three-sided last two deals measured alone: :func:`lean2_state`
(solver/engine/endgame3.py: the deal before the last by max^n on a few
words, the last deal's roots memoised and solved by ``lean3``) from the
start of the next-to-last deal of seeded three-player hands (french, the
stock known, bench_systems.py's ``at_deal``), the arrays borrowed as the
searches pass them. This is the part of a determinisation of pimc3 that
holds most of its time (docs/performance.md, "Fifth session"). Prints
the least CPU time of the runs, the decision nodes and the time a node.

Run: ``python bench/bench_lean3.py [--positions 40] [--runs 15]``.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from numba import njit  # noqa: E402

from bench_systems import at_deal  # noqa: E402
from solver.engine.compile import known_problem  # noqa: E402
from solver.engine.endgame3 import covers2, lean2_state, new_memo  # noqa: E402
from solver.rules import PRESETS  # noqa: E402
from solver.search.kernels import borrow  # noqa: E402


@njit(cache=False)
def _solve(P, D, M, gen, st):
    return lean2_state(borrow(P), borrow(D), borrow(M), gen, st)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--positions", type=int, default=40)
    ap.add_argument("--runs", type=int, default=15)
    args = ap.parse_args()
    probs = []
    for seed in range(args.positions):
        prob = known_problem(at_deal(PRESETS["french"], 3, f"p3-{seed}", 3).full_position())
        if covers2(prob.P, prob.D, prob.st):
            probs.append(prob)
    if not probs:
        sys.exit("no position reached the deal before the last with a known stock")
    M = new_memo()
    gen = 1
    for prob in probs[:2]:          # compiled and warm
        _solve(prob.P, prob.D, M, gen, prob.st)
        gen += 1
    best = float("inf")
    nodes = 0
    for _ in range(args.runs):
        t = time.process_time()
        nodes = 0
        for prob in probs:
            nodes += _solve(prob.P, prob.D, M, gen, prob.st)[3]
            gen += 1                 # a new game: the memo starts empty
        best = min(best, time.process_time() - t)
    print(f"lean2_state, {len(probs)} positions at the next-to-last deal: least CPU "
          f"{best * 1e3:.2f} ms of {args.runs} runs, {nodes:,} decision nodes, "
          f"{best / nodes * 1e9:.0f} ns a node")


if __name__ == "__main__":
    main()
