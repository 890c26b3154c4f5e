"""Ronda voleur benchmark: what the searches cost on the compiled core.

    python bench/bench_voleur.py [--hands 3]

Prints, for ``positions/voleur.txt`` line by line, the method and time;
then for ``--hands`` self-dealt french voleur hands (two players, seeds
0..n-1): exact alpha-beta of the whole hand with the stock order known,
expectimax with 6 unseen cards (start of the last deal), determinised
search of the player's view at the start of the hand (50 samples), and
the same view with 12 unseen cards (start of the fifth deal, 200 samples).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from solver.analysis.evaluation import evaluate  # noqa: E402
from solver.games.match import HandState, deal_hand  # noqa: E402
from solver.notation import parse_file  # noqa: E402
from solver.rules import PRESETS  # noqa: E402


def _timed(pos, **kw):
    t = time.perf_counter()
    a = evaluate(pos, **kw)
    return a, time.perf_counter() - t


def _at_deal(rules, table, stock, deal):
    hs = HandState(rules, 2, 1, table, stock=list(stock))
    hs.deal()
    while hs.deal_no < deal or hs.awaiting_deal:
        if hs.awaiting_deal:
            hs.deal()
            continue
        hs.play(hs.legal_cards()[0])
    return hs


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=3)
    args = ap.parse_args()
    root = Path(__file__).resolve().parent.parent
    print("positions/voleur.txt")
    for number, pos in parse_file((root / "positions" / "voleur.txt").read_text()):
        a, s = _timed(pos, samples=200)
        print(f"  line {number:2}  {pos.opcode('id') or '':24} {a.method:12} "
              f"{s:7.3f} s  {a.nodes:8,} nodes")
    rules = PRESETS["french"].with_overrides({"voleur": "yes"})
    print(f"\nwhole french voleur hands, two players ({args.hands} seeds)")
    for seed in range(args.hands):
        table, stock = deal_hand(rules, 2, random.Random(seed))
        hs = _at_deal(rules, table, stock, 1)
        a, s = _timed(hs.full_position(), method="exact", time_budget=600)
        print(f"  seed {seed}: exact whole hand {s:7.3f} s ({a.nodes:,} nodes)")
        last = _at_deal(rules, table, stock, 6)
        full = last.full_position()
        full.stock_kind = "shuffled"
        a, s = _timed(full, method="expectimax")
        print(f"  seed {seed}: expectimax, 0 unseen at the last deal {s:7.3f} s")
        five = _at_deal(rules, table, stock, 5)
        full = five.full_position()
        full.stock_kind = "shuffled"
        a, s = _timed(full, method="expectimax", time_budget=120)
        print(f"  seed {seed}: expectimax, 6 unseen (fifth deal) {s:7.3f} s ({a.nodes:,} nodes)")
        a, s = _timed(hs.view(), method="determinised", samples=50, z=None, time_budget=600)
        print(f"  seed {seed}: determinised view at the hand's start, 50 samples {s:7.3f} s")
        four = _at_deal(rules, table, stock, 4)
        a, s = _timed(four.view(), method="determinised", samples=200, z=None, time_budget=600)
        print(f"  seed {seed}: determinised view, fourth deal, 200 samples {s:7.3f} s")


if __name__ == "__main__":
    main()
