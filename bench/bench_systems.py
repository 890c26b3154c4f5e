"""Benchmark of the one compiled engine on every rule system (issue 20).

Each row runs in a fresh process on seeded positions reached by playing
seeded hands with the lowest legal card (the deals and piles of a real
hand) and prints the median and max time and the nodes:

- ``exact3``: three players (french), exact max^n of a whole hand, known
  stock, every root move's vector, best of 3 runs a hand, on ``--workers``
  threads (two: the second searches every node's children in the reverse
  order, sharing the table);
- ``paranoid3``: the same with the paranoid search;
- ``pimc3``: three players, the player's view with two deals to come
  (start of deal 2 of 4: three cards a hand, the other hands and the
  18-card stock hidden), 1000 determinisations solved by max^n, no early
  stop, ``--workers`` threads;
- ``voleur12``: Ronda voleur (french, two players), exact expectimax with
  12 unseen cards (start of deal 4 of 6: hands known, the 12-card stock's
  order not),
  every root move, ``--workers`` threads;
- ``match2``: the match objective (lmodire to 41, scores 30-30), exact
  whole two-player hand, every root move, next to the points objective on
  the same hands, best of 3 runs a hand; the ratio of the two medians,
  and the ratios position by position (each position's match time over
  its own points time: their median and range; the medians' ratio
  compares whichever positions fall in the middle of each list);
- ``match12``: the match objective, expectimax with 12 unseen cards (start
  of deal 4 of 6, scores 33-35), next to points on the same positions,
  best of 3 runs a position (one run each swung the ratio by 0.3-0.6 on
  a shared machine), twice ``--positions`` positions as match2 (with ten,
  the medians' ratio read 1.92-2.01x in five runs of the same code as
  positions fell in or out of the middle of each list; with twenty,
  1.58-1.69x).

Run: ``python bench/bench_systems.py [--rows exact3,...] [--positions N]
[--workers W] [--cpu]`` (``--cpu``: the process's CPU time instead of the
wall clock). Figures: docs/performance.md.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

#: the row's timer: wall clock, or with ``--cpu`` the process's CPU time
#: (every thread's; the steadier figure on a shared machine)
_clock = time.perf_counter

ROWS = ("exact3", "paranoid3", "pimc3", "voleur12", "match2", "match12")


def at_deal(rules, players: int, seed: str, deal: int):
    """The HandState of a seeded hand at the start of deal ``deal`` (1 =
    the first), every play so far the lowest legal card."""
    from solver.games.match import HandState, deal_hand
    table, stock = deal_hand(rules, players, random.Random(seed))
    hs = HandState(rules, players, 0, table, stock=list(stock))
    hs.deal()
    while hs.deal_no < deal or hs.awaiting_deal:
        if hs.awaiting_deal:
            hs.deal()
            continue
        hs.play(min(hs.legal_cards(), key=lambda c: c.index))
    return hs


def _problem(pos, shuffled: bool = False, match=None):
    from solver.engine.compile import known_problem, shuffled_problem
    if shuffled:
        pos.stock_kind = "shuffled"
        return shuffled_problem(pos, match=match)
    return known_problem(pos, match=match)


def row_three(positions: int, search: str, workers: int = 1) -> dict:
    from solver.rules import PRESETS
    from solver.search.vectors import VectorSearcher
    times, nodes = [], []
    for seed in range(positions):
        hs = at_deal(PRESETS["french"], 3, f"b3-{seed}", 1)
        prob = _problem(hs.full_position())
        best = None
        for _ in range(3):
            s = VectorSearcher(prob.P, prob.D, 64.0, search, workers=workers)
            t = _clock()
            s.root_values(prob.st)
            dt = _clock() - t
            best = dt if best is None else min(best, dt)
        times.append(best)
        nodes.append(s.nodes)
    return {"times": times, "nodes": nodes}


def row_pimc3(positions: int, workers: int) -> dict:
    from solver.analysis.evaluation import evaluate
    from solver.rules import PRESETS
    times, nodes = [], []
    for seed in range(positions):
        hs = at_deal(PRESETS["french"], 3, f"p3-{seed}", 2)
        view = hs.view()
        t = _clock()
        a = evaluate(view, method="determinised", samples=1000, seed=seed, workers=workers,
                     z=None, time_budget=1e9, inference=False)
        times.append(_clock() - t)
        nodes.append(a.nodes)
        assert a.samples == 1000, a.samples
    return {"times": times, "nodes": nodes}


def row_voleur12(positions: int, workers: int) -> dict:
    from solver.rules import PRESETS
    from solver.search.compiled import Searcher
    rules = PRESETS["french"].with_overrides({"voleur": "yes"})
    times, nodes = [], []
    for seed in range(positions):
        hs = at_deal(rules, 2, f"v12-{seed}", 4)
        prob = _problem(hs.full_position(), shuffled=True)
        s = Searcher(prob.P, prob.D, 2048.0, workers)
        t = _clock()
        s.root_values(prob.st)
        times.append(_clock() - t)
        nodes.append(s.nodes)
    return {"times": times, "nodes": nodes}


def row_match(positions: int, workers: int, unseen: int) -> dict:
    from solver.match_equity.table import equity_array
    from solver.rules import PRESETS
    from solver.search.compiled import Searcher
    rules = PRESETS["lmodire"]
    leaves = equity_array(rules, 2)
    out: dict[str, list] = {"times": [], "nodes": [], "points_times": [], "points_nodes": []}
    for seed in range(positions):
        deal = 1 if unseen == 0 else 4
        hs = at_deal(rules, 2, f"m{unseen}-{seed}", deal)
        for match in (None, leaves):
            pos = hs.full_position()
            pos.score = (30, 30) if unseen == 0 else (33, 35)
            prob = _problem(pos, shuffled=unseen > 0, match=match)
            best = None
            for _ in range(3):
                s = Searcher(prob.P, prob.D, 64.0 if unseen == 0 else 2048.0,
                             1 if unseen == 0 else workers)
                t = _clock()
                s.root_values(prob.st)
                dt = _clock() - t
                best = dt if best is None else min(best, dt)
            key = "" if match is not None else "points_"
            out[key + "times"].append(best)
            out[key + "nodes"].append(s.nodes)
    return out


def run_row(name: str, args) -> dict:
    global _clock
    from solver.search.compiled import ensure_compiled
    if args.cpu:
        _clock = time.process_time
    ensure_compiled()
    if name == "exact3":
        out = row_three(args.positions * 2, "maxn", args.workers)
    elif name == "paranoid3":
        out = row_three(args.positions * 2, "paranoid")
    elif name == "pimc3":
        out = row_pimc3(args.positions, args.workers)
    elif name == "voleur12":
        out = row_voleur12(args.positions, args.workers)
    elif name == "match2":
        out = row_match(args.positions * 2, args.workers, 0)
    else:
        out = row_match(args.positions * 2, args.workers, 12)
    out["peak_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return out


def _ms(ts: list[float]) -> str:
    scale, unit = (1e3, "ms") if max(ts) < 1 else (1.0, "s")
    return (f"median {statistics.median(ts) * scale:.3g} {unit}, "
            f"max {max(ts) * scale:.3g} {unit}")


def fmt_row(name: str, r: dict) -> str:
    parts = [f"{name:9s}", _ms(r["times"]) + f" ({len(r['times'])} positions)",
             f"nodes median {statistics.median(r['nodes']):,.0f}"]
    if r.get("points_times"):
        ratio = statistics.median(r["times"]) / statistics.median(r["points_times"])
        paired = [m / p for m, p in zip(r["times"], r["points_times"])]
        parts.append(f"points objective: {_ms(r['points_times'])}, nodes median "
                     f"{statistics.median(r['points_nodes']):,.0f}; match / points "
                     f"{ratio:.2f}x (medians); position by position median "
                     f"{statistics.median(paired):.2f}x, {min(paired):.2f}-{max(paired):.2f}x")
    parts.append(f"peak RSS {r['peak_mb']:.0f} MB")
    return "; ".join(parts)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", default=",".join(ROWS))
    ap.add_argument("--positions", type=int, default=10)
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--cpu", action="store_true",
                    help="time the process's CPU (every thread) instead of the wall clock")
    ap.add_argument("--row", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.row:
        print(json.dumps(run_row(args.row, args)))
        return
    print(f"compiled core, {args.workers} worker(s), {os.cpu_count()} cores, "
          f"load average {os.getloadavg()[0]:.1f}" + (", CPU time" if args.cpu else ""))
    for name in args.rows.split(","):
        cmd = [sys.executable, __file__, "--row", name, "--positions", str(args.positions),
               "--workers", str(args.workers)] + (["--cpu"] if args.cpu else [])
        done = subprocess.run(cmd, capture_output=True, text=True)
        if done.returncode:
            print(f"{name}: failed\n{done.stderr}")
            continue
        sys.stderr.write(done.stderr)
        print(fmt_row(name, json.loads(done.stdout.strip().splitlines()[-1])), flush=True)


if __name__ == "__main__":
    main()
