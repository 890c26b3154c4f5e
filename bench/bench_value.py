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
- ``boundary18``: the model against exact expectimax with 18 cards to deal
  (before deal 4), on the bench's exact 18-unseen values (exact expectimax
  there takes minutes to an hour a state, so they are stored, not
  recomputed): the held-out boundary states of ``bench/data/boundary18.json``
  and the chance nodes at the end of the current deal of the 18-unseen
  positions of ``bench/data/em18.json`` (their values are in that file);
- ``plays18``: the 18-unseen positions of ``bench/data/em18.json`` (start of
  deal 3, hands known): each play's value by the deal search (the deal
  exact, the model at its end) against the stored exact expectimax values;
- ``boundary18-fresh``: as ``boundary12`` with 18 cards to deal, fresh
  self-play states, each exact expectimax stopped at ``--cap`` s.

Run: ``python bench/bench_value.py [--rows boundary12,plays12,boundary18,plays18]
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

from solver.rules import PRESETS  # noqa: E402
from solver.search.compiled import SearchAborted, Searcher, ensure_compiled  # noqa: E402
from solver.value import net  # noqa: E402
from solver.value.model import _load, find, shuffled_game  # noqa: E402
from solver.value.train import (chance_state, diff_figures, features_of,  # noqa: E402
                                play_errors, selfplay_boundaries, selfplay_decisions)


def boundary_row(rules, players, vm, stock: int, n: int, cap: float, seed: str) -> dict:
    states = selfplay_boundaries(rules, players, max(n, 8) * 2, seed)[stock][:n]
    g = shuffled_game(rules, players)
    P, D = g.P, g.D
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


def stored18(rules, players, vm) -> dict:
    """The model against the stored exact values at 18 cards to deal."""
    from solver.search import split as sp
    g = shuffled_game(rules, players)
    P, D = g.P, g.D
    X = net.scratch(vm)
    got, want, where = [], [], []
    for row in json.loads((DATA / "boundary18.json").read_text())["states"]:
        got.append(net.boundary_value(P, vm, X, chance_state(*row["row"])))
        want.append(row["value"])
        where.append("held-out boundary")
    for pos in json.loads((DATA / "em18.json").read_text())["positions"]:
        if pos["unseen"] != 18:
            continue
        tree = sp.split(P, D, tuple(pos["state"]))
        for cn, v in zip(tree.chance, pos["chance"]):
            got.append(net.boundary_value(P, vm, X, tuple(int(x) for x in cn)))
            want.append(v)
            where.append(f"em18 seed {pos['seed']}")
    err = (np.array(got) - np.array(want)) / 2
    return {"row": "boundary18", "states": len(err),
            "from": {w: where.count(w) for w in dict.fromkeys(where)},
            "rmse_points": float(np.sqrt(np.mean(err ** 2))), "bias_points": float(err.mean()),
            "max_abs_points": float(np.abs(err).max()),
            "exact_sd_points": float(np.std(want) / 2),
            "errors_points": [round(float(e), 3) for e in err]}


def plays18(rules, players, vm) -> dict:
    """The deal search's play values against the stored exact ones at 18
    unseen cards (hands known)."""
    from solver.cards import RANKS
    from solver.search.deal_search import DealSearcher
    g = shuffled_game(rules, players)
    ds = DealSearcher(g.P, g.D, vm)
    model, exact = [], []
    t0 = time.perf_counter()
    for pos in json.loads((DATA / "em18.json").read_text())["positions"]:
        if pos["unseen"] != 18:
            continue
        st = np.array(pos["state"], dtype=np.int64)
        vals, _done = ds.solve(st, st[None, 1:5], st[None, 9])
        row = np.full(10, np.nan)
        for text, v in pos["values"].items():
            row[RANKS.index(int(text))] = v
        model.append(vals[0])
        exact.append(row)
    return {"row": "plays18", **diff_figures(np.array(model), np.array(exact)),
            "seconds": round(time.perf_counter() - t0, 2)}


DATA = ROOT / "bench" / "data"


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
    P = shuffled_game(rules, args.players).P
    model = _load(Path(args.model)) if args.model else find(P)
    if model is None:
        sys.exit(f"no model for {args.rules} with {args.players} players")
    for row in args.rows.split(","):
        if row == "boundary12":
            out = boundary_row(rules, args.players, model.vm, 12, args.n12, args.cap,
                               f"{args.seed}/b12")
        elif row == "boundary18":
            out = stored18(rules, args.players, model.vm)
        elif row == "plays18":
            out = plays18(rules, args.players, model.vm)
        elif row == "boundary18-fresh":
            out = boundary_row(rules, args.players, model.vm, 18, args.n18, args.cap,
                               f"{args.seed}/b18")
        elif row == "plays12":
            out = plays_row(rules, args.players, model.vm, 12, args.n12 // 3, f"{args.seed}/p12")
        else:
            sys.exit(f"unknown row {row!r}")
        print(json.dumps(out), flush=True)


if __name__ == "__main__":
    main()
