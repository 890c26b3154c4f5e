"""Where the deal player's strength comes from, deal by deal: its choices
against the determinised engine's, and both against the exact equilibrium
where one exists.

For every two-player decision with a choice in the games of FILE (default
positions/games/collection-60.txt, lmodire), the mover's view (``hist=``
given) is answered as the two arena players answer it before the last two
deals: the deal search (``deal:Ts``: its robust choice among the close
plays) and determinised search (``engine:Ts``: its top play), each with
``--time`` seconds on one thread (of CPU time by default, ``--clock``). Printed by deal:

- how often the two choose different plays;
- the gain of the deal player's choice over the engine's as the deal
  search values them, and as determinised search values them (points;
  a decision, and summed over a hand's decisions of one seat: what each
  method expects the deal player to gain a hand by playing that seat);
- in the last two deals (where the arena's players both play the
  equilibrium instead), each choice's loss against the exact equilibrium
  of the mover's information: what each method gives up there when the
  deals to come are exact (deal 5: the deal search's end value is exact
  expectimax), i.e. the cost of solving each possible hand of the other
  player as if it were seen.

Run: ``python bench/bench_strength.py [FILE] [--hands 60] [--time 0.05]``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from solver.analysis.deal import fits as deal_fits  # noqa: E402
from solver.analysis.evaluation import BudgetError, evaluate  # noqa: E402
from solver.engine.view_game import fits as eq_fits  # noqa: E402
from solver.games.record import Replay, parse_games  # noqa: E402
from solver.runtime import clock  # noqa: E402


def value_of(a, rank: int) -> float:
    return next(mv.value for mv in a.moves if mv.rank == rank)


def deal_choice(a) -> int:
    """The deal player's play: its robust choice among the close plays."""
    return next(mv.rank for mv in a.moves if mv.move == a.best[0])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("file", nargs="?", default=str(ROOT / "positions/games/collection-60.txt"))
    ap.add_argument("--hands", type=int, default=60, help="two-player hands to read")
    ap.add_argument("--time", type=float, default=0.05, help="seconds a decision")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--json", action="store_true", help="print every row as JSON too")
    ap.add_argument("--clock", choices=["cpu", "wall"], default="cpu",
                    help="the clock of --time (cpu: this process's CPU time, as on an idle core)")
    args = ap.parse_args()
    clock.use(args.clock)
    rows = []
    hands = set()
    skipped = 0         # equilibria over their 300 s
    t0 = time.monotonic()
    for g, game in enumerate(parse_games(Path(args.file).read_text())):
        for step in Replay(game):
            hs = step.state
            if hs.players != 2:
                continue
            if (g, step.hand) not in hands:
                if len(hands) >= args.hands:
                    break
                hands.add((g, step.hand))
            if len(hs.legal_ranks()) < 2:
                continue
            view = hs.view()
            if not deal_fits(view):
                continue
            seed = args.seed * 1000003 + g * 1009 + step.index
            d = evaluate(view, method="deal", seed=seed, time_budget=args.time, workers=1)
            e = evaluate(view, method="determinised", samples=1_000_000, seed=seed,
                         time_budget=args.time, workers=1)
            rd, re_ = deal_choice(d), e.moves[0].rank
            row = {"game": g, "hand": step.hand, "deal": step.deal, "differ": rd != re_,
                   "gain_by_deal": value_of(d, rd) - value_of(d, re_),
                   "gain_by_determinised": value_of(e, rd) - value_of(e, re_)}
            q = None
            if eq_fits(view):
                try:
                    q = evaluate(view, method="equilibrium", time_budget=300)
                except BudgetError:
                    skipped += 1
            if q is not None:
                top = max(mv.value for mv in q.moves)
                row["loss_deal"] = top - value_of(q, rd)
                row["loss_determinised"] = top - value_of(q, re_)
            rows.append(row)
        if len(hands) >= args.hands:
            break
    seconds = time.monotonic() - t0
    print(f"{len(rows)} decisions with a choice in {len(hands)} hands, {seconds:.0f} s "
          f"(--time {args.time:g} a decision and method; {skipped} equilibria over 300 s "
          "left out)")
    by = defaultdict(list)
    for r in rows:
        by[r["deal"]].append(r)
    n_hands = max(1, len(hands))
    print("deal | decisions | differ | gain a decision: by deal search / by determinised | "
          "a hand, one seat | loss v equilibrium: deal / determinised")
    total = [0.0, 0.0]
    for k in sorted(by):
        rs = by[k]
        n = len(rs)
        gd = sum(r["gain_by_deal"] for r in rs)
        ge = sum(r["gain_by_determinised"] for r in rs)
        total[0] += gd
        total[1] += ge
        eq = [r for r in rs if "loss_deal" in r]
        loss = (f"{sum(r['loss_deal'] for r in eq) / len(eq):.3f} / "
                f"{sum(r['loss_determinised'] for r in eq) / len(eq):.3f} ({len(eq)})"
                if eq else "-")
        print(f"{k} | {n} | {sum(r['differ'] for r in rs) / n:.0%} | "
              f"{gd / n:+.3f} / {ge / n:+.3f} | {gd / (2 * n_hands):+.3f} / {ge / (2 * n_hands):+.3f} | "
              f"{loss}")
    print(f"all | {len(rows)} | {sum(r['differ'] for r in rows) / max(1, len(rows)):.0%} | | "
          f"{total[0] / (2 * n_hands):+.3f} / {total[1] / (2 * n_hands):+.3f} |")
    if args.json:
        print(json.dumps(rows))


if __name__ == "__main__":
    main()
