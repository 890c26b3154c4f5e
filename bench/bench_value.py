"""The learned value of the deals to come (solver/value) against exact
expectimax, by deal.

Rows:

- ``boundary12``: boundary states with 12 cards to deal (before deal 5 of
  6, two players) from fresh self-play hands: the model's value against
  the compiled expectimax value; RMSE and bias in points;
- ``plays12``: decisions of deal 4 (its end leaves 12 cards to deal),
  every hand known: each play's value by the deal search (the deal exact,
  the model at its end) against exact expectimax: the RMSE of the values
  and of the differences between plays, how often the best plays agree;
- ``boundary18``: the same as ``boundary12`` with 18 cards to deal (before
  deal 4), a few states, each exact expectimax stopped at ``--cap`` s.

Run: ``python bench/bench_value.py [--rows boundary12,plays12,boundary18]
[--rules lmodire] [--players 2] [--n12 N] [--n18 N] [--cap S] [--model FILE]``.
Prints one JSON line a row; timings were taken on a shared machine.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from solver.engine.tables import params  # noqa: E402
from solver.rules import PRESETS  # noqa: E402
from solver.search import kernels as kn  # noqa: E402
from solver.search.compiled import SearchAborted, Searcher, ensure_compiled  # noqa: E402
from solver.value import net  # noqa: E402
from solver.value.model import _load, find, shuffled_game  # noqa: E402
from solver.value.train import (chance_state, diff_figures, features_of,  # noqa: E402
                                play_errors, selfplay_boundaries, selfplay_decisions)


def boundary_row(rules, players, vm, stock: int, n: int, cap: float, seed: str) -> dict:
    states = selfplay_boundaries(rules, players, max(n, 8) * 2, seed)[stock][:n]
    P, D = params(shuffled_game(rules, players))
    pred = net.predict(vm, features_of(rules, players, states), stock)
    exact, times, done = [], [], []
    for i, row in enumerate(states):
        s = Searcher(P, D, 1500.0 if stock > 12 else 512.0)
        t0 = time.perf_counter()
        try:
            v = s.value(chance_state(*row), deadline=time.monotonic() + cap)
        except SearchAborted:
            print(f"  {stock}: state {i} stopped at {cap:g} s", file=sys.stderr, flush=True)
            continue
        times.append(time.perf_counter() - t0)
        exact.append(v)
        done.append(i)
        if stock > 12:
            print(f"  {stock}: state {i}: exact {v / 2:+.3f}, model {pred[i] / 2:+.3f} "
                  f"({times[-1]:.0f} s, {s.nodes:,} nodes)", file=sys.stderr, flush=True)
    err = (pred[done] - np.array(exact)) / 2
    return {"row": f"boundary{stock}", "states": len(done), "stopped": len(states) - len(done),
            "rmse_points": float(np.sqrt(np.mean(err ** 2))),
            "bias_points": float(err.mean()),
            "exact_sd_points": float(np.std(exact) / 2),
            "exact_seconds_median": float(np.median(times)) if times else None}


def plays_row(rules, players, vm, stock: int, n: int, seed: str) -> dict:
    states = selfplay_decisions(rules, players, 4 * n, seed, stock)[:n]
    t0 = time.perf_counter()
    model, exact = play_errors(rules, players, states, vm)
    return {"row": f"plays{stock}", **diff_figures(model, exact),
            "seconds": round(time.perf_counter() - t0, 1)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", default="boundary12,plays12")
    ap.add_argument("--rules", default="lmodire")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--n12", type=int, default=300)
    ap.add_argument("--n18", type=int, default=4)
    ap.add_argument("--cap", type=float, default=900.0)
    ap.add_argument("--model", help="a model file (default: the shipped one)")
    ap.add_argument("--seed", default="bench")
    args = ap.parse_args()
    ensure_compiled()
    rules = PRESETS[args.rules]
    P, _D = params(shuffled_game(rules, args.players))
    model = _load(Path(args.model)) if args.model else find(P)
    if model is None:
        sys.exit(f"no model for {args.rules} with {args.players} players")
    for row in args.rows.split(","):
        if row == "boundary12":
            out = boundary_row(rules, args.players, model.vm, 12, args.n12, args.cap,
                               f"{args.seed}/b12")
        elif row == "boundary18":
            out = boundary_row(rules, args.players, model.vm, 18, args.n18, args.cap,
                               f"{args.seed}/b18")
        elif row == "plays12":
            out = plays_row(rules, args.players, model.vm, 12, args.n12 // 3, f"{args.seed}/p12")
        else:
            sys.exit(f"unknown row {row!r}")
        print(json.dumps(out), flush=True)
    del kn


if __name__ == "__main__":
    main()
