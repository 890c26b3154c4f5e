"""Are the determinised confidence intervals calibrated?

On positions whose stock (6 cards, one deal to come) has only 720 orders,
the quantity determinised search estimates (the mean over stock orders of
the perfect-information value) is computed exhaustively. Then the search is
run ``--runs`` times with different seeds and ``--samples`` samples each,
and we count how often the 95% (1.96 s.e.) and 99% (2.58 s.e.) intervals of
every play contain the exhaustive value. Calibrated intervals cover about
95% and 99% of the time.

Run: ``python bench/bench_calibration.py [--runs N] [--samples N]``.
"""

from __future__ import annotations

import argparse
import sys
from itertools import permutations
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from solver.analysis.evaluation import evaluate  # noqa: E402
from solver.engine.compile import known_problem  # noqa: E402
from solver.notation import parse_position  # noqa: E402
from solver.search.compiled import Searcher, ensure_compiled  # noqa: E402

LINES = [
    "1.4.11 2.6.12/3.3.10 ~5.7.7.10.12.11 S taken=13,12 last=N",
    "2.5.12 1.7.10/4.4.11 ~3.6.6.12.1.5 S taken=12,13 last=S",
]


def exhaustive(line: str) -> dict[int, float]:
    pos = parse_position(line)
    stock = list(pos.stock)
    totals: dict[int, float] = {}
    orders = list(permutations(range(len(stock))))
    pos.stock_kind = "known"
    for order in orders:
        pos.stock = [stock[i] for i in order]
        prob = known_problem(pos)
        for m, v in Searcher(prob.P, prob.D, 8.0).root_values(prob.st).items():
            totals[m] = totals.get(m, 0) + v
    taken = pos.pile_sizes()
    base = taken[0] - taken[1]
    return {m: (t / len(orders) + base) / 2 for m, t in totals.items()}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=200)
    ap.add_argument("--samples", type=int, default=50)
    args = ap.parse_args()
    ensure_compiled()
    for line in LINES:
        truth = exhaustive(line)
        pos = parse_position(line)
        n = c95 = c99 = 0
        for seed in range(args.runs):
            a = evaluate(pos, method="determinised", samples=args.samples, seed=10_000 + seed,
                         z=None, time_budget=1e9, workers=1)
            for mv in a.moves:
                err = abs(mv.value - truth[mv.rank])
                n += 1
                c95 += err <= 1.96 * mv.stderr
                c99 += err <= 2.58 * mv.stderr
        print(f"{line}\n  {args.runs} runs x {args.samples} samples, {n} intervals: "
              f"95% interval covers {100 * c95 / n:.1f}%, 99% interval covers {100 * c99 / n:.1f}%")


if __name__ == "__main__":
    main()
