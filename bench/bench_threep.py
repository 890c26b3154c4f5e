"""Benchmark of the three-player searches (pure Python, french rules).

Part 1, exact max^n on a known stock: random positions at the start of a
deal (three cards a hand) with 0 to 3 deals to come (3: a whole hand); for each depth
the median and max time, nodes, nodes per second, shallow-pruning cuts,
and the same positions without pruning and without the table (node counts
only, where it finishes under the cap).

Part 2, paranoid alpha-beta on the same positions (nodes, time).

Part 3, expectimax of vectors with a shuffled stock of one deal (9 cards),
the current deal at 1, 2 and 3 cards a hand.

Part 4, determinised search: samples per second for a hidden-hands
position (East and North hidden, the stock unknown) at the start of the
last-but-one deal.

Run: ``python bench/bench_threep.py [--seeds N] [--cap S]``.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from solver.engine.game3 import Game3  # noqa: E402
from solver.rules import PRESETS  # noqa: E402
from solver.search.maxn import Aborted, MaxN, Paranoid  # noqa: E402

RULES = PRESETS["french"]


def position(seed: int, deals_to_come: int, hand: int = 3, shuffled: bool = False):
    """A random deal start: 4 table cards less what was taken, ``hand``
    cards a seat, ``9 * deals_to_come`` stock cards, the rest in piles."""
    rng = random.Random(f"3p-{seed}-{deals_to_come}-{hand}")
    deck = [r for r in range(10) for _ in range(4)]
    rng.shuffle(deck)
    nt = rng.randint(1, 4)
    table, deck = deck[:nt], deck[nt:]
    hands, deck = [deck[i * hand:(i + 1) * hand] for i in range(3)], deck[3 * hand:]
    stock = deck[:9 * deals_to_come]
    rest = 40 - nt - 3 * hand - len(stock)
    a = rng.randint(0, rest)
    b = rng.randint(0, rest - a)
    game = Game3(RULES, 0, stock, shuffled)
    return game, game.initial_state(table, hands, 0, last=0, piles=(a, b, rest - a - b))


def timed(make, cap: float):
    t0 = time.perf_counter()
    s = make(time.monotonic() + cap)
    try:
        s.root_values(s.state)
    except Aborted:
        return None, s
    return time.perf_counter() - t0, s


def part(title: str, runs) -> None:
    times = [t for t, _ in runs if t is not None]
    nodes = [s.nodes for t, s in runs if t is not None]
    capped = sum(1 for t, _ in runs if t is None)
    if not times:
        print(f"{title}: every run over the cap ({capped})")
        return
    rate = sum(nodes) / max(sum(times), 1e-9)
    cuts = sum(getattr(s, "cuts", 0) for t, s in runs if t is not None)
    print(f"{title}: {len(times)} solved, median {statistics.median(times):.3f} s, "
          f"max {max(times):.3f} s, median nodes {int(statistics.median(nodes)):,}, "
          f"{rate:,.0f} nodes/s, cuts {cuts}" + (f", {capped} over the cap" if capped else ""))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seeds", type=int, default=5)
    ap.add_argument("--cap", type=float, default=60.0)
    args = ap.parse_args()

    print("Part 1: exact max^n, known stock, start of a deal (3 cards a hand)")
    for deals in (0, 1, 2, 3):
        for label, kw in (("max^n", {}), ("no pruning", {"prune": False}),
                          ("no pruning, no table", {"prune": False, "table": False})):
            if deals >= 2 and "table" in kw or deals == 3 and kw:
                continue
            runs = []
            for seed in range(args.seeds):
                game, state = position(seed, deals)

                def make(deadline, game=game, state=state, kw=kw):
                    s = MaxN(game, deadline=deadline, **kw)
                    s.state = state
                    return s
                runs.append(timed(make, args.cap))
            part(f"  {deals} deal(s) to come, {label}", runs)

    print("Part 2: paranoid alpha-beta, known stock, start of a deal")
    for deals in (0, 1, 2, 3):
        runs = []
        for seed in range(args.seeds):
            game, state = position(seed, deals)

            def make(deadline, game=game, state=state):
                s = Paranoid(game, 0, deadline=deadline)
                s.state = state
                return s
            runs.append(timed(make, args.cap))
        part(f"  {deals} deal(s) to come", runs)

    print("Part 3: expectimax of vectors, a shuffled stock of one deal")
    for hand in (1, 2, 3):
        runs = []
        for seed in range(args.seeds):
            game, state = position(seed, 1, hand, shuffled=True)

            def make(deadline, game=game, state=state):
                s = MaxN(game, deadline=deadline)
                s.state = state
                return s
            runs.append(timed(make, args.cap))
        part(f"  {hand} card(s) a hand now", runs)

    print("Part 4: determinised search (hidden hands, unknown stock)")
    from solver.notation import parse_position
    from solver.analysis.threep import evaluate3
    line = ("1.5.11 5.7/?.?/?.? ? S rules=french taken=8,7,7 last=E "
            "gone=1.1.2.2.2.3.3.4.4.5.6.6.7.7.7.10.10.11.11.12.12.2")
    pos = parse_position(line)
    for n in (50, 200):
        a = evaluate3(pos, "determinised", samples=n, z=None, time_budget=args.cap)
        print(f"  {a.samples} samples in {a.seconds:.2f} s: {a.samples / a.seconds:.1f} "
              f"samples/s, {a.nodes / a.seconds:,.0f} nodes/s "
              f"(one deal to come, two cards a hand)")
    pos = parse_position("1.5.11 3.5.11/?.?.?/?.?.? ? S rules=french taken=4,3,3 last=E "
                         "gone=" + ".".join(str(r) for r in
                                            [1, 2, 2, 3, 4, 6, 7, 10, 12, 12]))
    a = evaluate3(pos, "determinised", samples=20, z=None, time_budget=args.cap)
    print(f"  {a.samples} samples in {a.seconds:.2f} s: {a.samples / a.seconds:.2f} "
          f"samples/s (two deals to come, three cards a hand)")


if __name__ == "__main__":
    main()
