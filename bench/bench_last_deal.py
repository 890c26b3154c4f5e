"""The last deal without the transposition table, measured alone: exact
expectimax at the bench's start-of-deal positions (bench_core's em12 and
em18), one thread (node counts deterministic), for several ``C_LEAN``
settings (the last-deal alpha-beta of :func:`solver.search.kernels.last_deal`
at states with at most that many cards left; a suffix ``x``: every chance
node that deals the last deal solved exactly through it, a new search's
default; ``0`` is the general kernel throughout, as before),
printing per position the decision nodes (of which in the
last-deal solver), chance nodes, CPU seconds, and checking that every
setting gives the same root values (to 1e-9).

Run: ``python bench/bench_last_deal.py [--unseen 12] [--seeds 0-9]
[--lean 0,64x]``.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))


def seeds_of(text: str) -> list[int]:
    out = []
    for part in text.split(","):
        a, _, b = part.partition("-")
        out += list(range(int(a), int(b or a) + 1))
    return out


def main() -> None:
    from bench_core import start_of_deal
    from solver.search import kernels as kn
    from solver.search.compiled import Searcher, ensure_compiled
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--unseen", type=int, default=12)
    ap.add_argument("--seeds", default="0-9")
    ap.add_argument("--lean", default="0,64x",
                    help="C_LEAN settings to compare; a suffix x also solves the chance nodes "
                         "of the last deal exactly (C_LEXACT)")
    ap.add_argument("--memory", type=float, default=3500.0, help="table budget, MB")
    args = ap.parse_args()
    ensure_compiled()
    leans = args.lean.split(",")
    cpu = {k: [] for k in set(leans)}
    nodes = {k: [] for k in set(leans)}
    for seed in seeds_of(args.seeds):
        game, state = start_of_deal(args.unseen, seed)
        ref = None
        for lean in leans:
            s = Searcher(game.P, game.D, args.memory, 1)
            s.C[kn.C_LEAN] = int(lean.rstrip("x"))
            s.C[kn.C_LEXACT] = 64 if lean.endswith("x") else 0
            c = time.process_time()
            t = time.perf_counter()
            values = s.root_values(state)
            dc = time.process_time() - c
            dt = time.perf_counter() - t
            st = s.stats()
            cpu[lean].append(dc)
            nodes[lean].append(st["nodes"])
            if ref is None:
                ref = values
            same = (values.keys() == ref.keys()
                    and all(abs(values[m] - ref[m]) <= 1e-9 for m in ref))
            print(f"{args.unseen} unseen seed {seed} lean {lean:>3s}: {st['nodes']:>12,} nodes "
                  f"({int(s.C[kn.C_LNODES]):,} last-deal), {st['chance_nodes']:,} chance, "
                  f"{st['tt_entries']:,} entries, {dc:.3f} s cpu, {dt:.3f} s wall, "
                  f"values {'same' if same else 'DIFFER ' + repr((values, ref))}", flush=True)
            if not same:
                sys.exit(1)
    for lean in dict.fromkeys(leans):
        runs = leans.count(lean)
        print(f"lean {lean:>3s}: cpu total {sum(cpu[lean]) / runs:.3f} s a run, median "
              f"{statistics.median(cpu[lean]):.3f} s, max {max(cpu[lean]):.3f} s; nodes "
              f"{sum(nodes[lean]) // runs:,} a run")


if __name__ == "__main__":
    main()
