"""Are ``--time`` and ``--memory`` kept over a played game?

Replays shipped records and evaluates every decision as the mover saw it
(the player's view: the other hands hidden) with ``--time`` (default
0.5 s) and ``--memory`` (default 64 MB), as ``ronda-solve`` would: the
two-player engine (lmodire), three players (french), Ronda voleur, and
the match objective late in a hand. Prints, per record, the decisions,
the methods used, and the percentiles of the time taken over the budget
(the promise: at most 1.1 plus start-up, here nothing: the process is
warm), wall clock and this process's CPU time (on a shared, overloaded
machine the wall time also counts the waits for a core: the CPU time
says what the search itself took), and the peak resident size.

Run: ``python bench/bench_budgets.py [--time 0.5] [--memory 64] [--every 1]``
"""

from __future__ import annotations

import argparse
import collections
import resource
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

RECORDS = [("two players (lmodire)", "positions/games/engine-v-greedy.txt", "points"),
           ("three players (french)", "positions/games/french-3p.txt", "points"),
           ("Ronda voleur", "positions/games/voleur-short.txt", "points"),
           ("match objective (lmodire)", "positions/games/long-game.txt", "match")]


def pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def decisions(path: str, every: int):
    from solver.games.record import Replay, parse_games
    game = parse_games((ROOT / path).read_text(encoding="utf-8"))[0]
    for k, step in enumerate(Replay(game)):
        if k % every == 0:
            yield step.state.view(step.seat)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--time", type=float, default=0.5)
    ap.add_argument("--memory", type=float, default=64.0)
    ap.add_argument("--every", type=int, default=1, help="every Nth decision")
    args = ap.parse_args()
    from solver.analysis.evaluation import BudgetError, evaluate
    from solver.engine.compile import CompileError
    from solver.match_equity.evaluate import SearchTooBig, evaluate_match, target_reachable
    from solver.search.compiled import ensure_compiled
    ensure_compiled()
    import os
    print(f"--time {args.time:g} --memory {args.memory:g}; time over the budget, per decision; "
          f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    for name, path, objective in RECORDS:
        ratios, cpu, methods, errors = [], [], collections.Counter(), 0
        for pos in decisions(path, args.every):
            if sum(1 for c in pos.hands[pos.turn] if c is not None) < 2:
                continue                            # a forced play
            t0 = time.perf_counter()
            c0 = time.process_time()
            try:
                if objective == "match":
                    if not target_reachable(pos):
                        continue
                    try:
                        a = evaluate_match(pos, time_budget=args.time, memory_mb=args.memory)
                    except SearchTooBig:
                        left = max(0.05, args.time - (time.perf_counter() - t0))
                        a = evaluate(pos, time_budget=left, memory_mb=args.memory)
                else:
                    a = evaluate(pos, time_budget=args.time, memory_mb=args.memory)
                methods[a.method] += 1
            except (BudgetError, CompileError, ValueError):
                errors += 1
            ratios.append((time.perf_counter() - t0) / args.time)
            cpu.append((time.process_time() - c0) / args.time)
        if not ratios:
            print(f"{name:28s} no decision")
            continue
        used = ", ".join(f"{m} {n}" for m, n in methods.most_common())
        print(f"{name:28s} {len(ratios):4d} decisions: wall p50 {pct(ratios, .5):.2f} "
              f"p95 {pct(ratios, .95):.2f} max {max(ratios):.2f}, CPU p50 {pct(cpu, .5):.2f} "
              f"p95 {pct(cpu, .95):.2f} max {max(cpu):.2f} x the budget; {used}"
              + (f"; {errors} errors" if errors else ""))
    print(f"peak resident size {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB")


if __name__ == "__main__":
    main()
