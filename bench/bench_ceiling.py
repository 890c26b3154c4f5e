"""How much edge the game leaves: a clairvoyant player (every card known,
the stock order included, exact alpha-beta at every decision) against the
arena's players, on the arena's own seat-swapped deals.

A fair player cannot see the hidden cards, so this margin bounds what any
player of ours can hope for against the same opponent (not a strict bound:
the clairvoyant plays minimax, not the best answer to that opponent's
mistakes). It tells how far the targets of issue 9 (+2.5 a hand over
greedy, +1.0 over mc:200) are from what the cards allow.

Run: ``python bench/bench_ceiling.py greedy mc:200 [--pairs 1000] [--seed 0]``.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from solver.analysis.evaluation import evaluate  # noqa: E402
from solver.games.arena import deal_hand  # noqa: E402
from solver.games.match import HandState, hand_rng  # noqa: E402
from solver.games.players import card_of_rank, make_player  # noqa: E402
from solver.rules import PRESETS  # noqa: E402


def clairvoyant_hand(rules, table, stock, dealer, opponent, cheat_seat, rng_seed) -> float:
    """One hand: seat ``cheat_seat`` sees everything; returns its margin."""
    hs = HandState(rules, 2, dealer, table, stock=stock)
    rng = random.Random(rng_seed)
    while not hs.finished:
        if hs.awaiting_deal:
            hs.deal()
            continue
        if hs.turn == cheat_seat:
            full = hs.full_position()
            a = evaluate(full, method="exact", workers=1)
            card = card_of_rank(full, a.moves[0].rank)
            card = next(c for c in hs.hands[hs.turn] if c.index == card.index)
        else:
            card = opponent.choose(hs.view(), rng)
        hs.play(card)
    return hs.points[cheat_seat % 2] - hs.points[1 - cheat_seat % 2]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("opponents", nargs="+")
    ap.add_argument("--pairs", type=int, default=1000)
    ap.add_argument("--seed", default="0")
    args = ap.parse_args()
    rules = PRESETS["lmodire"]
    for spec in args.opponents:
        t0 = time.perf_counter()
        pair_means = []
        for k in range(args.pairs):
            table, stock = deal_hand(rules, 2, hand_rng(f"arena/{args.seed}", k))
            dealer = (1 + k) % 2
            margins = [clairvoyant_hand(rules, table, stock, dealer, make_player(spec), seat,
                                        f"ceiling/{args.seed}/{k}/{seat}")
                       for seat in (0, 1)]
            pair_means.append(sum(margins) / 2)
        m = statistics.mean(pair_means)
        ci = 1.96 * statistics.stdev(pair_means) / math.sqrt(len(pair_means))
        print(f"clairvoyant v {spec}: {m:+.3f} ± {ci:.3f} points a hand "
              f"({2 * args.pairs} hands, seed {args.seed}, {time.perf_counter() - t0:.0f} s)")


if __name__ == "__main__":
    main()
