"""Match-equity tables: what self-play costs and how much the player changes
the table.

``rate``: hands a second per core of each player (worker CPU time, one
process), with the points a hand of the dealer's and the leader's side::

    python bench/bench_met.py rate greedy mc:20 engine:10 engine:0.05s --hands 20
    python bench/bench_met.py rate greedy engine:10 --rules pagat --players 4

``compare``: two players' hands of one seed in a store (``batch selfplay``
or ``solver.match_equity.build``; the same decks for hand i of a seed):
the paired difference of the points a hand, and of the two tables built
from them (largest and mean absolute difference at the target, the
standard error of the difference by batch means, and the mean of
|difference / se|, about 0.8 when the players do not differ)::

    python bench/bench_met.py compare engine:10 greedy --db met-hands.db --seed cmp
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from solver.match_equity.selfplay import chunk_source, play_traces, rules_of  # noqa: E402
from solver.match_equity.table import build, scores_view  # noqa: E402


def _points(traces) -> np.ndarray:
    return np.array([[sum(a[0] for a in t), sum(a[1] for a in t)] for t in traces], dtype=float)


def rate(args) -> None:
    rules = rules_of(args.system)
    print(f"{args.system}, {args.players} players, {args.hands} hands each "
          f"(one process; CPU seconds of this process)")
    for spec in args.player:
        play_traces(rules, args.players, 1, "warm", spec)    # compile, load the model
        c0, w0 = time.process_time(), time.perf_counter()
        tr = play_traces(rules, args.players, args.hands, args.seed, spec)
        cpu, wall = time.process_time() - c0, time.perf_counter() - w0
        p = _points(tr) if args.players != 3 else None
        pts = (f"; dealer's side {p[:, 0].mean():.2f}, leader's {p[:, 1].mean():.2f} points a hand"
               if p is not None else "")
        print(f"  {spec:14s} {cpu / args.hands:7.3f} CPU s a hand = "
              f"{args.hands / cpu:8.2f} hands/s per core (wall {wall / args.hands:.3f} s){pts}",
              flush=True)


def _stored(db: str, system: str, players: int, player: str, seed: str) -> list:
    import sqlite3
    c = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    out: list = []
    for (r,) in c.execute("SELECT result FROM games WHERE job='selfplay' AND source=? "
                          "ORDER BY number", (chunk_source(system, players, player, seed),)):
        r = json.loads(r)
        if r["first"] != len(out):
            break
        out += [[tuple(a) for a in t] for t in r["traces"]]
    return out


def compare(args) -> None:
    rules = rules_of(args.system)
    T = rules.target
    A = _stored(args.db, args.system, args.players, args.player[0], args.seed)
    B = _stored(args.db, args.system, args.players, args.player[1], args.seed)
    n = min(len(A), len(B))
    A, B = A[:n], B[:n]
    pa, pb = _points(A), _points(B)
    d = pa - pb
    print(f"{args.player[0]} v {args.player[1]}: {n} hands of {args.system} {args.players}p, "
          f"seed {args.seed} (the same decks)")
    print(f"  points a hand: dealer's side {pa[:, 0].mean():.2f} v {pb[:, 0].mean():.2f} "
          f"(paired difference {d[:, 0].mean():+.2f} ± {d[:, 0].std() / np.sqrt(n):.2f}), "
          f"leader's {pa[:, 1].mean():.2f} v {pb[:, 1].mean():.2f} "
          f"({d[:, 1].mean():+.2f} ± {d[:, 1].std() / np.sqrt(n):.2f})")
    wc = rules.win_check
    VA = scores_view(build(A, T, wc), T)[0]
    VB = scores_view(build(B, T, wc), T)[0]
    k = args.batches
    size = n // k
    reps = np.array([scores_view(build(A[i * size:(i + 1) * size], T, wc), T)[0]
                     - scores_view(build(B[i * size:(i + 1) * size], T, wc), T)[0]
                     for i in range(k)])
    se = reps.std(axis=0, ddof=1) / np.sqrt(k)
    diff = VA - VB
    z = np.abs(diff) / np.maximum(se, 1e-6)
    i = np.unravel_index(int(np.abs(diff).argmax()), diff.shape)
    print(f"  tables to {T}: largest difference {100 * np.abs(diff).max():.2f}% at "
          f"{i[1]}-{i[2]} ({'A' if i[0] == 0 else 'B'} deals), "
          f"mean {100 * np.abs(diff).mean():.3f}%;"
          f" se of the difference (batch means, {k} batches) median {100 * np.median(se):.3f}%;"
          f" mean |diff/se| {z.mean():.2f}, share above 2: {(z > 2).mean():.2f}")
    for a, b in [(0, 0), (T // 2, T // 2), (T - 6, T - 6), (T - 2, T - 2)]:
        print(f"  {a}-{b} A deals: {100 * VA[0, a, b]:.2f}% v {100 * VB[0, a, b]:.2f}% "
              f"(se of the difference {100 * se[0, a, b]:.2f})")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("what", choices=["rate", "compare"])
    ap.add_argument("player", nargs="+")
    ap.add_argument("--rules", dest="system", default="lmodire",
                    help="a rule system: a preset, or e.g. french+voleur=yes")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--hands", type=int, default=20)
    ap.add_argument("--seed", default="rate")
    ap.add_argument("--db", default="met-hands.db")
    ap.add_argument("--batches", type=int, default=10)
    args = ap.parse_args()
    if args.what == "rate":
        rate(args)
    else:
        if len(args.player) != 2:
            ap.error("compare takes two players")
        compare(args)


if __name__ == "__main__":
    main()
