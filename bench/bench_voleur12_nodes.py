"""voleur12's positions (``bench_systems.py``'s row) position by position:
decision nodes, chance nodes, Star1 cutoffs and table hits, and the root
values as hex floats, to compare two versions of the search bit for bit.

    python bench/bench_voleur12_nodes.py [--workers 1] [--seeds 0-9]
        [--out values.json] [--compare values.json]

Node counts are deterministic with one worker (the primary measure on a
shared machine); the CPU time printed includes the first search's
loading of the compiled code. ``--compare`` exits 1 when any root value
differs from the file's (written by ``--out`` from another version).
Figures: docs/performance.md.
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


def main() -> int:
    from bench_systems import _problem, at_deal
    from solver.rules import PRESETS
    from solver.search.compiled import Searcher
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--seeds", default="0-9", help="first-last")
    ap.add_argument("--out", help="write the root values (hex) here")
    ap.add_argument("--compare", help="compare the root values with this file")
    args = ap.parse_args()
    lo, _, hi = args.seeds.partition("-")
    rules = PRESETS["french"].with_overrides({"voleur": "yes"})
    values: dict[str, dict[str, str]] = {}
    nodes = []
    for seed in range(int(lo), int(hi or lo) + 1):
        hs = at_deal(rules, 2, f"v12-{seed}", 4)
        prob = _problem(hs.full_position(), shuffled=True)
        s = Searcher(prob.P, prob.D, 2048.0, args.workers)
        t = time.process_time()
        got = s.root_values(prob.st)
        dt = time.process_time() - t
        st = s.stats()
        values[str(seed)] = {str(m): v.hex() for m, v in sorted(got.items())}
        nodes.append(st["nodes"])
        print(f"seed {seed}: {st['nodes']:,} nodes, {st['chance_nodes']:,} chance, "
              f"{st['star1_cutoffs']:,} Star1 cuts, {st['tt_hits']:,} hits, "
              f"{dt:.3f} s CPU", flush=True)
    print(f"total {sum(nodes):,} nodes, median {statistics.median(nodes):,.0f}")
    if args.out:
        Path(args.out).write_text(json.dumps(values, indent=1))
    if args.compare:
        want = json.loads(Path(args.compare).read_text())
        diff = [(k, want.get(k), v) for k, v in values.items() if want.get(k) != v]
        for k, a, b in diff:
            print(f"seed {k}: {a} != {b}")
        print("root values " + ("identical" if not diff else f"differ at {len(diff)} seeds"))
        return 1 if diff else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
