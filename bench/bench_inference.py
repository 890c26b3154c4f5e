"""Fit the play models of inference (solver/analysis/inference.py) on the
project's own players, and score them on held-out hands.

Plays seat-swapped hands (lmodire) between ``greedy`` and a strong player
(``--strong``, default ``deal:0.05s``), and optionally the strong player
against itself (``--selfplay``), and logs every decision with two or more
distinct ranks in hand (the seat's view and the rank it chose). Even hands
fit, odd hands are held out. Models:

- ``uniform``: every distinct rank alike;
- ``greedy-softmax``: :data:`~solver.analysis.inference.FITTED` (softmax of
  a greedy score; its three parameters from a grid, the first fit);
- ``linear-greedy`` and ``linear-strong``: :class:`~solver.analysis.
  inference.LinearPlayModel` (a conditional logit over the play's
  features, noise on a grid) fitted on greedy's and on the strong
  player's decisions.

Prints the held-out mean log-likelihood per decision of each model on
each player's decisions, and the fitted weights as they are written in
solver/analysis/inference.py (``GREEDY_FITTED``, ``ENGINE_FITTED``).

Run: ``python bench/bench_inference.py [--hands N] [--strong SPEC] [--selfplay N]
[--save FILE | --load FILE]``.
"""

from __future__ import annotations

import argparse
import math
import pickle
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from solver.analysis.inference import (FEATURES, FITTED, MODELS, LinearPlayModel,  # noqa: E402
                                       decision, decision_setup, play_features)
from solver.games.match import play_match  # noqa: E402
from solver.games.players import make_player  # noqa: E402
from solver.rules import PRESETS  # noqa: E402


class Logged:
    """A player that records (hand number, view, chosen rank index)."""

    def __init__(self, spec: str, log: list, hand: list) -> None:
        self.inner = make_player(spec)
        self.name = self.inner.name
        self.log = log
        self.hand = hand

    def choose(self, view, rng):
        card = self.inner.choose(view, rng)
        if len({c.index for c in view.hands[view.turn]}) > 1:
            self.log.append((self.hand[0], view, card.index))
        return card


def collect(pairs: list[tuple[str, str]], hands: int) -> dict[str, list]:
    logs: dict[str, list] = {}
    hand = [0]
    t0 = time.monotonic()
    for a, b in pairs:
        for seed in range(hands):
            hand[0] = seed
            for order in ((a, b), (b, a)):
                players = [Logged(spec, logs.setdefault(f"{spec} (v {other})", []), hand)
                           for spec, other in (order, order[::-1])]
                play_match(PRESETS["lmodire"], players, seed=f"inference/{a}/{b}/{seed}",
                           max_hands=1)
            print(f"  {a} v {b}: {seed + 1} of {hands} hands, "
                  f"{time.monotonic() - t0:.0f} s", file=sys.stderr, flush=True)
    return logs


def feature_rows(log: list) -> list[tuple[np.ndarray, int]]:
    """Per decision: the features of each distinct rank (rows) and the
    chosen row."""
    out = []
    for _hand, view, rank in log:
        game, state, hand, unseen = decision_setup(view)
        ranks = sorted(set(hand))
        F = np.array([play_features(game, state, hand, unseen, r) for r in ranks])
        out.append((F, ranks.index(rank)))
    return out


def loglik(w: np.ndarray, rows, noise: float) -> float:
    total = 0.0
    for F, j in rows:
        s = F @ w
        s = s - s.max()
        p = np.exp(s)
        p /= p.sum()
        total += math.log((1 - noise) * p[j] + noise / len(p))
    return total / len(rows)


def fit_linear(rows, name: str) -> LinearPlayModel:
    """The conditional logit's weights by L-BFGS, the noise on a grid."""
    from scipy.optimize import minimize
    best = None
    for noise in (0.01, 0.03, 0.1, 0.2):
        def nll(w):
            total = 0.0
            grad = np.zeros_like(w)
            for F, j in rows:
                s = F @ w
                s = s - s.max()
                e = np.exp(s)
                p = e / e.sum()
                q = (1 - noise) * p + noise / len(p)
                total -= math.log(q[j])
                # d log q_j / dw = (1 - noise) p_j (F_j - p.F) / q_j
                grad -= (1 - noise) * p[j] * (F[j] - p @ F) / q[j]
            return total / len(rows) + 1e-3 * (w @ w), grad / len(rows) + 2e-3 * w
        res = minimize(nll, np.zeros(len(FEATURES)), jac=True, method="L-BFGS-B")
        if best is None or res.fun < best[0]:
            best = (res.fun, noise, res.x)
    _f, noise, w = best
    return LinearPlayModel(tuple(round(float(x), 4) for x in w), noise, name)


def held_out(model, log: list) -> float:
    return sum(math.log(decision(view, model)[rank]) for _h, view, rank in log) / len(log)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=100, help="seat-swapped hands a pairing")
    ap.add_argument("--strong", default="deal:0.05s")
    ap.add_argument("--selfplay", action="store_true", help="also the strong player v itself")
    ap.add_argument("--save", help="keep the logged decisions in this file")
    ap.add_argument("--load", help="logged decisions from --save (no self-play)")
    args = ap.parse_args()
    if args.load:
        with open(args.load, "rb") as f:
            logs = pickle.load(f)
    else:
        pairs = [("greedy", args.strong)]
        if args.selfplay:
            pairs.append((args.strong, args.strong))
        logs = collect(pairs, args.hands)
        if args.save:
            with open(args.save, "wb") as f:
                pickle.dump(logs, f)
    greedy = [x for k, log in logs.items() if k.startswith("greedy ") for x in log]
    strong = [x for k, log in logs.items() if not k.startswith("greedy ") for x in log]

    def split(log):
        return [x for x in log if x[0] % 2 == 0], [x for x in log if x[0] % 2 == 1]

    g_fit, g_test = split(greedy)
    s_fit, s_test = split(strong)
    print(f"decisions: greedy {len(greedy)} ({len(g_test)} held out), "
          f"{args.strong} {len(strong)} ({len(s_test)} held out)")
    lin_g = fit_linear(feature_rows(g_fit), "greedy")
    lin_s = fit_linear(feature_rows(s_fit), "engine")
    models = {"uniform": None, "greedy-softmax (FITTED)": FITTED, "linear-greedy": lin_g,
              "linear-strong": lin_s}
    for name, m in MODELS.items():
        models[f"shipped {name}"] = m
    print("held-out mean log-likelihood a decision (higher is better):")
    print(f"  {'model':28} {'greedy':>8} {args.strong:>12}")
    for name, m in models.items():
        if m is None:
            cols = [sum(-math.log(len({c.index for c in v.hands[v.turn]}))
                        for _h, v, _r in log) / len(log) for log in (g_test, s_test)]
        else:
            cols = [held_out(m, log) for log in (g_test, s_test)]
        print(f"  {name:28} {cols[0]:8.3f} {cols[1]:12.3f}")
    print("fitted (solver/analysis/inference.py):")
    for m in (lin_g, lin_s):
        print(f"  LinearPlayModel({m.weights}, noise={m.noise}, name={m.name!r})")


if __name__ == "__main__":
    main()
