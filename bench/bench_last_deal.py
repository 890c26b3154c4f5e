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

``--system voleur`` and ``--system match`` take bench_systems.py's
voleur12 and match12 positions instead (12 unseen, seeds ``v12-N`` and
``m12-N``; ``--unseen`` is then ignored), ``--system match2`` its match2
positions (a whole two-player hand, the stock known: the last deal is
reached from decision nodes, ``C_LEAN``; ``--deal N`` from the start of
deal N instead). The first search of a position
in a process is often slower: compare settings in the orders A,B,B,A.

Run: ``python bench/bench_last_deal.py [--unseen 12] [--seeds 0-9]
[--lean 0,64x] [--system points|voleur|match|match2] [--deal 1]``.
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


def position(system: str, unseen: int, seed: int, deal: int = 1):
    """``(P, D, state)`` of one bench position of ``system`` (match2: from
    the start of deal ``deal``)."""
    if system == "points":
        from bench_core import start_of_deal
        game, state = start_of_deal(unseen, seed)
        return game.P, game.D, state
    from bench_systems import _problem, at_deal
    from solver.rules import PRESETS
    if system == "voleur":
        rules = PRESETS["french"].with_overrides({"voleur": "yes"})
        prob = _problem(at_deal(rules, 2, f"v12-{seed}", 4).full_position(), shuffled=True)
    else:
        from solver.match_equity.table import equity_array
        rules = PRESETS["lmodire"]
        whole = system == "match2"
        pos = at_deal(rules, 2, f"m{0 if whole else 12}-{seed}", deal if whole else 4
                      ).full_position()
        pos.score = (30, 30) if whole else (33, 35)
        prob = _problem(pos, shuffled=not whole, match=equity_array(rules, 2))
    return prob.P, prob.D, prob.st


def main() -> None:
    from solver.search import kernels as kn
    from solver.search.compiled import Searcher, ensure_compiled
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--unseen", type=int, default=12)
    ap.add_argument("--seeds", default="0-9")
    ap.add_argument("--lean", default="0,64x",
                    help="C_LEAN settings to compare; a suffix x also solves the chance nodes "
                         "of the last deal exactly (C_LEXACT)")
    ap.add_argument("--memory", type=float, default=3500.0, help="table budget, MB")
    ap.add_argument("--deal", type=int, default=1,
                    help="match2: the positions from the start of this deal (1: whole hands)")
    ap.add_argument("--system", default="points",
                    choices=("points", "voleur", "match", "match2"))
    args = ap.parse_args()
    ensure_compiled()
    leans = args.lean.split(",")
    cpu = {k: [] for k in set(leans)}
    nodes = {k: [] for k in set(leans)}
    for seed in seeds_of(args.seeds):
        P, D, state = position(args.system, args.unseen, seed, args.deal)
        ref = None
        for lean in leans:
            s = Searcher(P, D, args.memory, 1)
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
                    and all(abs(values[m] - ref[m]) <= 1e-9 * max(1.0, abs(ref[m])) for m in ref))
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
