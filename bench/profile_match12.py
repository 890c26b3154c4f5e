"""The match12 search of seeds 0, 2 and 5 (the match objective, 12 unseen,
scores 33-35), repeated: a steady workload to profile with
``bench/perf_map.py``. Prints the least CPU time of the three positions
together.

Run: ``python bench/profile_match12.py [REPEATS]`` (default 12).
"""
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from bench_systems import _problem, at_deal  # noqa: E402

from solver.match_equity.table import equity_array  # noqa: E402
from solver.rules import PRESETS  # noqa: E402
from solver.search.compiled import Searcher, ensure_compiled  # noqa: E402


def main() -> None:
    repeats = int(sys.argv[1]) if len(sys.argv) > 1 else 12
    ensure_compiled()
    rules = PRESETS["lmodire"]
    leaves = equity_array(rules, 2)
    probs = []
    for seed in (0, 2, 5):
        pos = at_deal(rules, 2, f"m12-{seed}", 4).full_position()
        pos.score = (33, 35)
        probs.append(_problem(pos, shuffled=True, match=leaves))
    best = float("inf")
    for _ in range(repeats):
        t = time.process_time()
        for prob in probs:
            Searcher(prob.P, prob.D, 2048.0, 1).root_values(prob.st)
        best = min(best, time.process_time() - t)
    print(f"match12 seeds 0, 2, 5: least CPU {best:.3f} s of {repeats} runs")


if __name__ == "__main__":
    main()
