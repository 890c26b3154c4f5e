"""The deal search's speed in the mover's view (solver/analysis/deal.py).

Decisions with a choice in deals 1 to 4 of greedy self-play hands
(lmodire, two players), the mover's view with ``hist=`` (the other hand
hidden, the stock unknown): each evaluated by ``evaluate(view,
method="deal", time_budget=--time)`` on one thread. Prints, per deal, the
hands the other player may hold (the completions), the share of them
searched within the budget, decision nodes, seconds and nodes a second
(medians, and the slowest), one JSON line a deal.

Run: ``python bench/bench_deal.py [--per-deal 20] [--time 10] [--seed bench]``.
Timings were taken on a shared machine.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from solver.analysis.evaluation import evaluate  # noqa: E402
from solver.games.match import HandState, deal_hand  # noqa: E402
from solver.games.players import GreedyPlayer  # noqa: E402
from solver.rules import PRESETS  # noqa: E402
from solver.search.compiled import ensure_compiled  # noqa: E402
from solver.search.deal_search import warm  # noqa: E402


def views(deal_no: int, count: int, seed: str, rules):
    """The mover's views at decisions with a choice in deal ``deal_no``."""
    rng = random.Random(f"{seed}/{deal_no}")
    greedy = GreedyPlayer()
    out = []
    while len(out) < count:
        table, stock = deal_hand(rules, 2, rng)
        hs = HandState(rules, 2, rng.randrange(2), table, stock=stock)
        while not hs.finished:
            if hs.awaiting_deal:
                hs.deal()
                continue
            if hs.deal_no == deal_no and len(hs.legal_ranks()) > 1 and rng.random() < 0.4:
                out.append(hs.view())
                break
            hs.play(greedy.choose(hs.view(), rng))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--per-deal", type=int, default=20)
    ap.add_argument("--time", type=float, default=10.0)
    ap.add_argument("--seed", default="bench")
    args = ap.parse_args()
    ensure_compiled()
    warm()
    rules = PRESETS["lmodire"]
    for deal_no in (1, 2, 3, 4):
        rows = []
        for view in views(deal_no, args.per_deal, args.seed, rules):
            a = evaluate(view, method="deal", time_budget=args.time, workers=1)
            rows.append((a.extra["hands"], a.extra["completions"], a.extra["coverage"],
                         a.nodes, a.seconds))
        secs = [r[4] for r in rows]
        print(json.dumps({
            "deal": deal_no, "decisions": len(rows),
            "hands_median": statistics.median(r[0] for r in rows),
            "hands_max": max(r[0] for r in rows),
            "all_searched": sum(1 for r in rows if r[1] == r[0]),
            "nodes_median": statistics.median(r[3] for r in rows),
            "seconds_median": round(statistics.median(secs), 4),
            "seconds_max": round(max(secs), 4),
            "nodes_per_second_median": round(statistics.median(
                r[3] / r[4] for r in rows if r[4] > 0)),
        }), flush=True)


if __name__ == "__main__":
    main()
