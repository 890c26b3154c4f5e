"""How far is determinised search from exact expectimax?

On two-player positions where exact expectimax is feasible (both hands
known, 12 cards in a stock of unknown order, lmodire), compare the
determinised best play (100 and 1000 samples, no early stop) with the
exact best play, and the determinised value with the exact value.
Prints a table: agreement of the best play, mean and max absolute value
error, mean loss of the determinised choice (exact value of the exact best
play less exact value of the sampled best play).

Run: ``python bench/bench_sampling_error.py [--positions N]``.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from solver.analysis.evaluation import evaluate  # noqa: E402
from solver.notation import parse_position  # noqa: E402


def line_for(seed: int) -> str:
    from solver.games.seeded import cards_text, seeded_deal
    d = seeded_deal(f"err-{seed}", 12, table=3)
    s_hand, n_hand, gone = d.rest[:3], d.rest[3:6], d.rest[6:]
    t0 = len(gone) // 2
    return (f"{cards_text(d.table)} {cards_text(s_hand)}/{cards_text(n_hand)} "
            f"~{cards_text(d.stock)} S taken={t0},{len(gone) - t0} last=N "
            f"gone={cards_text(gone)}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--positions", type=int, default=20)
    args = ap.parse_args()
    rows = {100: [], 1000: []}
    for seed in range(args.positions):
        pos = parse_position(line_for(seed))
        exact = evaluate(pos, method="expectimax")
        exact_of = {m.move: m.value for m in exact.moves}
        for n in rows:
            d = evaluate(pos, method="determinised", samples=n, seed=seed, z=None,
                         time_budget=1e9, workers=1)
            chosen = d.best[0]
            rows[n].append((chosen in exact.best, abs(d.value - exact.value),
                            exact.value - exact_of[chosen]))
        print(f"position {seed + 1}/{args.positions} done", file=sys.stderr)
    print(f"determinised v exact expectimax, {args.positions} positions, 12 unseen cards")
    print("| samples | same best play | mean value error | max value error | mean loss of the sampled choice |")
    print("|---|---|---|---|---|")
    for n, rs in rows.items():
        same = sum(r[0] for r in rs)
        print(f"| {n} | {same}/{len(rs)} ({100 * same / len(rs):.0f}%) | "
              f"{statistics.mean(r[1] for r in rs):.3f} | {max(r[1] for r in rs):.3f} | "
              f"{statistics.mean(r[2] for r in rs):.3f} |")


if __name__ == "__main__":
    main()
