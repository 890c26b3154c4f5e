"""What strategy fusion costs: in the second-to-last deal of two-player
hands, how often plain determinised search picks another play than the exact
player's-view solution (the equilibrium of the deal, solver/engine/
view_game.py), and how many points that choice loses by the equilibrium's
values.

Positions: every decision with two or more distinct ranks in the
second-to-last deal (six cards in the stock) of seeded greedy self-play
hands, the mover's view. Determinised search: ``--samples`` samples, no
early stop, with and without inference.

Run: ``python bench/bench_player_view.py [--hands N] [--samples K]``.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from solver.analysis.evaluation import evaluate  # noqa: E402
from solver.engine.view_game import ViewGame, fits  # noqa: E402
from solver.games.match import play_match  # noqa: E402
from solver.notation import format_position, parse_position  # noqa: E402
from solver.games.players import GreedyPlayer  # noqa: E402
from solver.rules import PRESETS  # noqa: E402
from solver.search.equilibrium import solve_root_moves  # noqa: E402


def positions(hands: int) -> list[str]:
    found: list[str] = []

    class Spy(GreedyPlayer):
        def choose(self, view, rng):
            unseen_stock = 40 - len(view.table) - len(view.gone or []) \
                - sum(len(h) for h in view.hands)
            if (fits(view) and unseen_stock == 6
                    and len({c.index for c in view.hands[view.turn]}) > 1):
                found.append(format_position(view))
            return super().choose(view, rng)

    for seed in range(hands):
        play_match(PRESETS["lmodire"], [Spy(), Spy()], seed=f"pv-{seed}", max_hands=1)
    return found


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=100)
    ap.add_argument("--samples", type=int, default=1000)
    args = ap.parse_args()
    lines = positions(args.hands)
    print(f"{len(lines)} positions in the second-to-last deal ({args.hands} hands)")
    stats = {"plain": [], "inference": []}
    eq_seconds = []
    for line in lines:
        pos = parse_position(line)
        t = time.perf_counter()
        _sol, values = solve_root_moves(ViewGame(pos).tree)
        eq_seconds.append(time.perf_counter() - t)
        top = max(values.values())
        for name, inference in (("plain", False), ("inference", True)):
            a = evaluate(pos, method="determinised", samples=args.samples, z=None,
                         time_budget=1e9, workers=2, inference=inference)
            pick = a.moves[0].rank
            stats[name].append((top - values[pick]) / 2)     # half-points to points
    print(f"equilibrium: median {statistics.median(eq_seconds):.2f} s, "
          f"max {max(eq_seconds):.2f} s a position (every play's value)")
    for name, losses in stats.items():
        wrong = [x for x in losses if x > 1e-9]
        print(f"determinised ({name}, {args.samples} samples): another play than the "
              f"equilibrium's best in {len(wrong)}/{len(losses)} "
              f"({100 * len(wrong) / max(1, len(losses)):.1f}%); mean loss "
              f"{statistics.mean(losses):.3f} point a decision, "
              f"{statistics.mean(wrong) if wrong else 0:.3f} when it differs, "
              f"max {max(losses):.3f}")


if __name__ == "__main__":
    main()
