"""Marks of a game annotated in the player's view, by method, and how many
marks of the last two deals the exact equilibrium confirms.

For every play with a choice of the games in FILE (default
positions/games/engine-v-greedy.txt), the mover's view (with ``hist=``)
is evaluated by determinised search (``--samples``, the engine of issue
9, marking every loss over the threshold) and by the deal search (marking
only losses established beyond its error), and, in the last two deals of a
two-player hand, by the equilibrium (exact for the mover's information).
Prints the marks of each (player-view thresholds 0.75, 1, 2), and for the
last two deals how many of each method's marks the equilibrium confirms
(its own loss for that play reaches the ``?!`` threshold).

Run: ``python bench/bench_marks.py [FILE] [--samples 32] [--seed 0]``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from solver.analysis.evaluation import evaluate  # noqa: E402
from solver.engine.view_game import fits  # noqa: E402
from solver.games.annotate import DEFAULT_THRESHOLDS, close_moves  # noqa: E402
from solver.games.record import Replay, parse_games  # noqa: E402


def loss_of(a, rank: int) -> tuple[float, bool]:
    """The loss of the play of ``rank`` and whether it is close (not
    established beyond the estimate's error)."""
    made = next(mv for mv in a.moves if mv.rank == rank)
    top = max(mv.value for mv in a.moves)
    close = close_moves(a)
    return top - made.value, close is not None and made.move in close


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("file", nargs="?", default=str(ROOT / "positions/games/engine-v-greedy.txt"))
    ap.add_argument("--samples", type=int, default=32)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    th = DEFAULT_THRESHOLDS["player"]
    rows = []
    t0 = time.monotonic()
    for game in parse_games(Path(args.file).read_text()):
        for step in Replay(game):
            hs = step.state
            where = hs.find(step.seat, step.play.card)
            if where is None or len(hs.legal_ranks()) < 2:
                continue
            rank = hs.hands[step.seat][where].index
            view = hs.view()
            seed = args.seed * 1000003 + step.index
            row = {"hand": step.hand, "deal_no": step.deal, "play": step.number,
                   "card": str(step.play.card)}
            d = evaluate(view, method="determinised", samples=args.samples, seed=seed)
            loss, close = loss_of(d, rank)
            row["determinised"] = (th.mark(loss), round(loss, 3), close)
            a = evaluate(view, method="deal", seed=seed)
            loss, close = loss_of(a, rank)
            row["deal"] = ("" if close else th.mark(loss), round(loss, 3), close)
            if fits(view):
                e = evaluate(view, method="equilibrium")
                loss, _c = loss_of(e, rank)
                row["equilibrium"] = (th.mark(loss), round(loss, 3), False)
            rows.append(row)
    print(f"{len(rows)} plays with a choice, {time.monotonic() - t0:.0f} s")
    for method in ("determinised", "deal"):
        marks = [r for r in rows if r[method][0]]
        late = [r for r in marks if "equilibrium" in r]
        confirmed = [r for r in late if r["equilibrium"][0]]
        print(f"{method}: {len(marks)} marks ({sum(1 for r in marks if r[method][0] == '??')} ??,"
              f" {sum(1 for r in marks if r[method][0] == '?')} ?, "
              f"{sum(1 for r in marks if r[method][0] == '?!')} ?!); in the last two deals "
              f"{len(late)}, of which the equilibrium confirms {len(confirmed)}")
        if method == "deal":
            held = [r for r in rows if r["deal"][2] and th.mark(r["deal"][1])]
            print(f"  plays over a threshold but close (not marked): {len(held)}")
    eq = [r for r in rows if "equilibrium" in r and r["equilibrium"][0]]
    print(f"equilibrium: {len(eq)} marks in the last two deals")
    print(json.dumps(rows))


if __name__ == "__main__":
    main()
