"""Fit the play model of inference (solver/analysis/inference.py) on the project's own
players.

Plays seat-swapped hands between ``greedy`` and ``engine:K`` (lmodire), logs
every decision with two or more distinct ranks in hand (the seat's view and
the rank it chose), then scores a grid of PlayModel parameters by the mean
log-likelihood of the choices given the chooser's true hand, for each
player and both together, and prints the best. The model's FITTED
parameters in solver/analysis/inference.py come from this run.

Run: ``python bench/bench_inference.py [--hands N] [--engine K]``.
"""

from __future__ import annotations

import argparse
import itertools
import math
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from solver.analysis.inference import PlayModel, decision  # noqa: E402
from solver.games.match import play_match  # noqa: E402
from solver.games.players import make_player  # noqa: E402
from solver.rules import PRESETS  # noqa: E402


class Logged:
    """A player that records (view, chosen rank index) of its decisions."""

    def __init__(self, spec: str, log: list) -> None:
        self.inner = make_player(spec)
        self.name = self.inner.name
        self.log = log

    def choose(self, view, rng):
        card = self.inner.choose(view, rng)
        if len({c.index for c in view.hands[view.turn]}) > 1:
            self.log.append((view, card.index))
        return card


def collect(hands: int, engine: int) -> dict[str, list]:
    logs: dict[str, list] = {"greedy": [], f"engine:{engine}": []}
    for seed in range(hands):
        for order in ((0, 1), (1, 0)):
            specs = ["greedy", f"engine:{engine}"]
            players = [Logged(specs[i], logs[specs[i]]) for i in order]
            play_match(PRESETS["lmodire"], players, seed=seed, max_hands=1)
    return logs


def score(model: PlayModel, log: list) -> float:
    total = 0.0
    for view, rank in log:
        total += math.log(decision(view, model)[rank])
    return total / len(log)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=30)
    ap.add_argument("--engine", type=int, default=20)
    args = ap.parse_args()
    logs = collect(args.hands, args.engine)
    for name, log in logs.items():
        print(f"{name}: {len(log)} decisions")
    grid = itertools.product((0.1, 0.2, 0.3, 0.5, 0.75, 1.0, 1.5, 2.0),
                             (0.02, 0.05, 0.1, 0.2), (0.0, 0.5, 1.0, 1.5, 2.0))
    rows = []
    for t, noise, risk in grid:
        m = PlayModel(t, noise, risk)
        per = {name: score(m, log) for name, log in logs.items()}
        both = sum(per[n] * len(logs[n]) for n in logs) / sum(len(v) for v in logs.values())
        rows.append((both, t, noise, risk, per))
    rows.sort(reverse=True)
    uniform = sum(-math.log(len({c.index for c in v.hands[v.turn]}))
                  for log in logs.values() for v, _r in log) / sum(map(len, logs.values()))
    print(f"uniform play: mean log-likelihood {uniform:.3f}")
    print("best models (temperature, noise, hit_risk): mean log-likelihood both, per player")
    for both, t, noise, risk, per in rows[:8]:
        print(f"  {t:4} {noise:4} {risk:3}: {both:.3f}  "
              + ", ".join(f"{n} {v:.3f}" for n, v in per.items()))


if __name__ == "__main__":
    main()
