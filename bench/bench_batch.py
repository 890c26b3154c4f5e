"""Batch annotation throughput and the cost of a store hit (issue 14).

For 1 and 2 workers of a local Dask cluster: games a minute annotating the
first ``--games`` games of positions/games/collection-60.txt into a fresh
store (player view, annotate's defaults unless told); then the same run
again on the filled store, where every search is a store hit; then the
cost of one store lookup against one search.

Run: ``python bench/bench_batch.py [--games 12] [--view player]``.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from solver.batch.inputs import files_of, games_of  # noqa: E402
from solver.batch.run import connect, run_batch  # noqa: E402
from solver.batch.store import Store  # noqa: E402

COLLECTION = Path(__file__).resolve().parent.parent / "positions/games/collection-60.txt"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=12)
    ap.add_argument("--view", default="player", choices=["player", "full"])
    ap.add_argument("--samples", type=int, default=32)
    ap.add_argument("--luck-samples", type=int, default=24)
    args = ap.parse_args()
    items = list(games_of(files_of((str(COLLECTION),))))[:args.games]
    options = {"view": args.view, "samples": args.samples, "seed": 0, "method": "auto",
               "luck_samples": args.luck_samples, "thresholds": ""}
    print(f"{len(items)} games of {COLLECTION.name}, view {args.view}, "
          f"{args.samples} samples, {args.luck_samples} luck samples")
    with tempfile.TemporaryDirectory() as tmp:
        for workers in (1, 2):
            db = Path(tmp) / f"w{workers}.db"
            for label in ("fresh store", "filled store"):
                store = Store(db)
                client, cluster = connect(None, workers, dashboard=False)
                client.run(lambda: __import__("solver.search.compiled").search.compiled
                           .ensure_compiled())
                try:
                    s = run_batch("annotate", items, options, store, client)
                finally:
                    client.close()
                    cluster.close()
                    store.close()
                print(f"{workers} worker(s), {label}: {s.done} games in {s.seconds:.1f} s, "
                      f"{60 * s.done / s.seconds:.1f} games a minute; "
                      f"{s.searched} searched, {s.hits} store hits")
        # one lookup against one search (the same evaluations, searched again)
        from solver.analysis.evaluation import evaluate
        from solver.notation import parse_position
        store = Store(Path(tmp) / "w1.db")
        evals = [e for e in store.evaluations() if e["kind"] == "eval"]
        keys = [e["key"] for e in evals]
        t = time.perf_counter()
        for k in keys:
            store.lookup([k])
        per_hit = (time.perf_counter() - t) / len(keys)
        store.close()
        searched = []
        for e in evals[::max(1, len(evals) // 40)]:
            pos = parse_position(e["position"])
            t = time.perf_counter()
            evaluate(pos, method=e["method"], samples=e["samples"], seed=e["seed"], workers=1)
            searched.append(time.perf_counter() - t)
        print(f"store hit: {1e3 * per_hit:.3f} ms a lookup ({len(keys)} keys); "
              f"search: median {1e3 * statistics.median(searched):.1f} ms, "
              f"mean {1e3 * statistics.mean(searched):.1f} ms an evaluation "
              f"({len(searched)} of them, one thread)")

if __name__ == "__main__":
    main()
