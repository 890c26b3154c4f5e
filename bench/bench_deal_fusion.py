"""What the deal search's strategy fusion costs its values and its marks,
against the equilibrium of the deal (solver/search/equilibrium.py, the
game of solver/engine/view_game.py): in the second-to-last deal of
two-player hands, where both value the last deal exactly (expectimax) and
the equilibrium is the exact answer for the mover's view; and in each
earlier deal, where both value the deal's end by the same learned model
(solver/value), so that what differs is the current deal solved once for
each hand as if it were seen (the deal search) or as the game of hidden
hands it is (the equilibrium). Both weigh each hand the other player may
hold by the ways to draw it (the deal search without inference, as the
equilibrium reads no play of the deal).

For each play, its loss against the equilibrium's best play as each
method values it (the deal search's values, the equilibrium's); the error
of the deal search's loss is their difference. Printed: that error's
mean, root mean square and largest, and how annotate's marks (its
thresholds, the deal search's close plays unmarked) differ: a play the
deal search marks that the equilibrium does not (a false mark), one the
equilibrium marks that the deal search does not, and a grade apart.

Positions: every decision with two or more distinct ranks of seeded
greedy self-play hands (lmodire; ``hist=`` the plays of the deal), grouped
by the cards left to deal after the current deal (6: the second-to-last
deal); the equilibrium's seconds a position (every play's value).

Run: ``python bench/bench_deal_fusion.py [--hands N] [--per-level K]``.
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from solver.analysis.evaluation import evaluate  # noqa: E402
from solver.engine.compile import unseen_pool  # noqa: E402
from solver.engine.view_game import fits_any_deal  # noqa: E402
from solver.games.annotate import Thresholds, close_moves  # noqa: E402
from solver.games.match import play_match  # noqa: E402
from solver.games.players import GreedyPlayer  # noqa: E402
from solver.notation import format_position, parse_position  # noqa: E402
from solver.rules import PRESETS  # noqa: E402


def positions(hands: int) -> dict[int, list[str]]:
    """The decisions of ``hands`` seeded greedy hands the equilibrium
    takes, by the cards left to deal after the current deal."""
    found: dict[int, list[str]] = {}

    class Spy(GreedyPlayer):
        def choose(self, view, rng):
            if fits_any_deal(view) and len({c.index for c in view.hands[view.turn]}) > 1:
                other = view.hands[1 - view.turn]
                left = len(unseen_pool(view)) - sum(1 for c in other if c is None)
                found.setdefault(left, []).append(format_position(view))
            return super().choose(view, rng)

    for seed in range(hands):
        play_match(PRESETS["lmodire"], [Spy(), Spy()], seed=f"pv-{seed}", max_hands=1)
    return found


def compare(lines: list[str]) -> str:
    """The figures of one group of positions, in words."""


    marks = Thresholds()
    errors: list[float] = []
    seconds: list[float] = []
    false_mark = missed = graded = agree = plays = 0
    for line in lines:
        pos = parse_position(line)
        t = time.perf_counter()
        eq = evaluate(pos, method="equilibrium", time_budget=1e9)
        seconds.append(time.perf_counter() - t)
        # no inference: the equilibrium weighs every hand by the ways to
        # draw it, so the deal search does too (what differs is the fusion)
        deal = evaluate(pos, method="deal", time_budget=1e9, inference=False)
        e = {mv.move: mv.value for mv in eq.moves}
        d = {mv.move: mv.value for mv in deal.moves}
        b = max(e, key=e.get)
        errors += [(d[b] - d[m]) - (e[b] - e[m]) for m in e if m != b]
        dclose = set(close_moves(deal) or [])
        eclose = set(close_moves(eq) or [])
        dtop, etop = max(d.values()), max(e.values())
        for m in e:
            plays += 1
            want = "" if m in eclose else marks.mark(etop - e[m])
            got = "" if m in dclose else marks.mark(dtop - d[m])
            if want == got:
                agree += 1
            elif want == "":
                false_mark += 1
            elif got == "":
                missed += 1
            else:
                graded += 1
    rms = math.sqrt(statistics.mean(x * x for x in errors)) if errors else 0.0
    return (f"{len(lines)} positions, equilibrium median {statistics.median(seconds):.2f} s, "
            f"max {max(seconds):.2f} s; error of the deal search's loss over {len(errors)} "
            f"plays: mean {statistics.mean(errors) if errors else 0:+.3f}, rms {rms:.3f}, "
            f"largest {max(errors, key=abs) if errors else 0:+.3f} point; annotate's marks "
            f"of {plays} plays: the same {agree}, the deal search's only {false_mark}, the "
            f"equilibrium's only {missed}, a grade apart {graded}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=60)
    ap.add_argument("--per-level", type=int, default=100,
                    help="at most this many positions a group")
    args = ap.parse_args()
    found = positions(args.hands)
    # the first equilibrium loads the compiled searches: not a position's time
    evaluate(parse_position(found[max(found)][0]), method="equilibrium", time_budget=1e9)
    print(f"{args.hands} seeded greedy hands (lmodire), the mover's view")
    for left in sorted(found):
        if left == 0:
            continue        # the last deal: no hidden card to a card counter
        lines = found[left][:args.per_level]
        print(f"{left} cards to deal after this deal: {compare(lines)}", flush=True)


if __name__ == "__main__":
    main()
