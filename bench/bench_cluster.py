"""Exact expectimax of a hand's start on a cluster: what a LocalCluster
measures, and the projection to N workers from the measured outcomes.

The root (two players, lmodire, hands known, ``--unseen`` cards in a
shuffled stock: 24 is the start of deal 2 of 6, 30 the hand's start) is
split at its first chance level (solver/search/split.py). Its outcome
children are sent to a LocalCluster of ``--workers`` processes for
``--time`` seconds, the way ``ronda-solve --method expectimax --cluster
N`` sends them (solver/batch/expectimax.py: one table a worker, kept
between tasks, finished outcomes kept in ``--db``). The bench prints the
split's sizes, the outcomes finished, the worker-seconds of each, and
the projected time of the whole root on 2, 100 and 1,000 workers: the
outcomes left times the measured mean a finished outcome took.

At 30 unseen an outcome child has 24 cards to come and is split again:
the projection multiplies the root's outcomes by one 24-unseen child's
projection (its own outcomes times the mean measured here).

Run: ``python bench/bench_cluster.py [--unseen 24] [--seed 0] [--workers 2]
[--time 1200] [--db PATH] [--memory MB]``. Figures: docs/performance.md.
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))


def _fmt_time(s: float) -> str:
    if s < 120:
        return f"{s:.0f} s"
    if s < 2 * 3600:
        return f"{s / 60:.0f} min"
    if s < 3 * 86400:
        return f"{s / 3600:.1f} h"
    if s < 2 * 365 * 86400:
        return f"{s / 86400:.0f} days"
    return f"{s / (365 * 86400):.2g} years"


def _children(P, D, st, k: int | None = None):
    """The outcome children of ``st``'s first chance level, the most
    probable of each chance node first, interleaved; their count."""
    from solver.search import split as sp
    tree = sp.split(P, D, st)
    lists = []
    for cn, (probs, rows) in tree.chance.items():
        order = sorted(range(len(probs)), key=lambda i: -probs[i])
        lists.append([(cn, rows, i) for i in order])
    out = [x for group in zip(*lists) for x in group]
    return [sp.outcome_child(P, cn, rows, i) for cn, rows, i in out[:k]], tree.outcomes()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--unseen", type=int, default=24, help="12, 18, 24 or 30")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--time", type=float, default=1200.0, help="seconds of cluster work")
    ap.add_argument("--db", help="keep finished outcomes here (a re-run resumes)")
    ap.add_argument("--memory", type=float, default=3000.0, help="MB of table a worker")
    args = ap.parse_args()

    from bench_core import start_of_deal
    from solver.batch.expectimax import Cluster
    from solver.search.compiled import SearchAborted, ensure_compiled
    ensure_compiled()

    game, root = start_of_deal(args.unseen, args.seed)
    P, D = game.P, game.D
    levels = []             # outcome children a level, from the root down
    st = root
    for u in range(args.unseen, 6, -6):
        kids, n = _children(P, D, st, 1)
        levels.append(n)
        print(f"{u} unseen, seed {args.seed}: {n:,} outcome children of {u - 6} unseen")
        if u - 6 <= 18:
            break
        st = kids[0]
    cluster = Cluster(None, args.workers, args.db, memory_mb=args.memory)
    deadline = time.monotonic() + args.time
    t0 = time.perf_counter()
    if args.unseen <= 18:
        targets, what = [root], f"the {args.unseen}-unseen root"
    else:
        # the 18-unseen positions one level above the cluster's tasks
        targets, _n = _children(P, D, st)
        what = "18-unseen outcome children"
    walls, works = [], []
    try:
        for t in targets:
            t1 = time.perf_counter()
            cluster.solve(P, D, t, deadline)
            walls.append(time.perf_counter() - t1)
            works.append(cluster.last.stats.worker_seconds)
            print(f"    solved one in {walls[-1]:.1f} s of wall clock, "
                  f"{works[-1]:.1f} worker-seconds, {cluster.last.stats.tasks} tasks", flush=True)
    except SearchAborted:
        pass
    finally:
        cluster.close()
    wall = time.perf_counter() - t0
    print(f"LocalCluster of {args.workers} workers, {wall:.0f} s: {len(walls)} of {what} "
          f"solved")
    if not works:
        st = cluster.last.stats if cluster.last else None
        if not st or not st.done:
            print("no outcome finished in --time: nothing to project from")
            return
        # the unfinished position: its outcomes so far, the dearest (the
        # tables start empty), scaled to all of them: an upper estimate
        est = st.worker_seconds * st.total / st.done
        print(f"the first one unfinished: {st.done:,} of its {st.total:,} outcomes in "
              f"{st.worker_seconds:.0f} worker-seconds: about {est:,.0f} worker-seconds for "
              f"all of them (an upper estimate: the first outcomes, on empty tables, cost "
              f"the most)")
        works = [est]
        walls = [float("nan")]
    mean = statistics.fmean(works)
    size = min(args.unseen, 18)
    what_size = f"{'an' if size in (8, 11, 18) else 'a'} {size}"
    wall_part = (f"wall median {statistics.median(walls):.1f} s, "
                 if not math.isnan(walls[0]) else "")
    print(f"{what_size}-unseen position on the cluster: {wall_part}"
          f"worker-seconds mean {mean:.1f}, min {min(works):.1f}, max {max(works):.1f}")
    work = mean
    for u, n in zip(range(args.unseen, 18, -6)[::-1], levels[::-1]):
        if u <= 18:
            continue
        work *= n
        print(f"projection for a {u}-unseen position: {n:,} children x {work / n:,.0f} "
              f"worker-seconds = {work:.3g} worker-seconds")
        for k in (args.workers, 100, 1000):
            print(f"    on {k:,} workers: {_fmt_time(work / k)}")


if __name__ == "__main__":
    main()
