"""Start-up and small calls: what a user waits for before any search.

Prints, as medians (and the 90th percentile) over ``--runs`` runs, the
wall time and the CPU time (user + system) of:

- ``ronda-solve --version``, ``--help``, ``met``, and a line that does not
  parse (none of them loads numba or the compiled core);
- a warm one-line solve: ``ronda-solve FILE`` of one exact position (the
  compiled core already in numba's cache);

and, in this process, ``evaluate()`` of an exact whole two-player hand
(every card known, the whole stock in order: every play's value and the
principal variation to the end of the hand), over ``--hands`` seeded
hands, the best of three calls each.

On a shared machine the wall times follow the load; the CPU times are the
steadier figure. docs/performance.md quotes both.

Run: ``python bench/bench_startup.py [--runs 10] [--hands 40]``
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
EXE = Path(sys.executable).with_name("ronda-solve")
ONE = "1.7 7.7.2/7.12 - S prev=7 taken=15,18 last=N\n"


def _children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def timed(args: list[str], runs: int, stdin: str = "") -> tuple[list[float], list[float]]:
    """Wall and CPU seconds of ``ronda-solve ARGS``, ``runs`` times (after
    one run not counted)."""
    walls, cpus = [], []
    for i in range(runs + 1):
        c0 = _children_cpu()
        t0 = time.perf_counter()
        subprocess.run([str(EXE), *args], input=stdin, capture_output=True, text=True)
        wall = time.perf_counter() - t0
        if i:
            walls.append(wall)
            cpus.append(_children_cpu() - c0)
    return walls, cpus


def p90(xs: list[float]) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(0.9 * len(xs)))]


def whole_hand_lines(n: int) -> list[str]:
    """``n`` seeded lines: a two-player hand dealt, every card known."""
    from solver.notation import NotationError, parse_position
    ranks = [1, 2, 3, 4, 5, 6, 7, 10, 11, 12]
    out, seed = [], 0
    while len(out) < n:
        rng = random.Random(f"startup-{seed}")
        seed += 1
        deck = [r for r in ranks for _ in range(4)]
        rng.shuffle(deck)
        cards = lambda xs: ".".join(map(str, xs))  # noqa: E731
        line = f"{cards(deck[:4])} {cards(deck[4:7])}/{cards(deck[7:10])} {cards(deck[10:])} S"
        try:
            parse_position(line)        # lmodire: the opening table's ranks differ
        except NotationError:
            continue
        out.append(line)
    return out


def bench_evaluate(hands: int) -> list[float]:
    from solver.analysis.evaluation import evaluate
    from solver.notation import parse_position
    from solver.search.compiled import ensure_compiled
    ensure_compiled()
    times = []
    for line in whole_hand_lines(hands):
        pos = parse_position(line)
        best = None
        for _ in range(3):
            t0 = time.perf_counter()
            a = evaluate(pos)
            dt = time.perf_counter() - t0
            best = dt if best is None else min(best, dt)
        assert a.method == "exact" and a.pv and len(a.moves) >= 1
        times.append(best)
    return times


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=10)
    ap.add_argument("--hands", type=int, default=40)
    args = ap.parse_args()
    print(f"machine: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f} "
          f"(wall times follow the load; CPU times are steadier)")
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
        f.write(ONE)
    rows = [("--version", ["--version"], ""), ("--help", ["--help"], ""),
            ("met", ["met"], ""), ("a line that does not parse", ["-"], "5.8 5.7/3.3 - S\n"),
            ("warm one-line solve", ["--objective", "points", f.name], "")]
    print(f"{'command':30s} {'wall median':>12s} {'wall p90':>9s} {'CPU median':>11s}")
    for name, argv, stdin in rows:
        walls, cpus = timed(argv, args.runs, stdin)
        print(f"{name:30s} {statistics.median(walls):11.3f}s {p90(walls):8.3f}s "
              f"{statistics.median(cpus):10.3f}s")
    os.unlink(f.name)
    times = bench_evaluate(args.hands)
    print(f"evaluate() of an exact whole hand ({len(times)} hands, values and pv): median "
          f"{1000 * statistics.median(times):.3f} ms, p90 {1000 * p90(times):.3f} ms, "
          f"max {1000 * max(times):.3f} ms")


if __name__ == "__main__":
    main()
