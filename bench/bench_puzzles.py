"""Pass rates of puzzle candidates: for every theme, how many composed
(CP-SAT) candidates pass the exact verification (only-move margin and the
theme's predicate), the levels of those that pass, the time; the same for
self-play candidates (solver.games.match / solver.games.players, ``--agents``) and
candidates mined from greedy playouts (any theme, one puzzle a hand).

    python bench/bench_puzzles.py [--candidates 300] [--seed 0] [--margin 2] [--agents mc:10]
                                  [--rules pagat --players 4]

Prints one table row per theme; the figures in docs/puzzles.md come from
this script.
"""

from __future__ import annotations

import argparse
import collections
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from solver.puzzles.puzzle import generate  # noqa: E402
from solver.puzzles.themes import THEMES  # noqa: E402


def row(gen, levels, themes=None) -> str:
    rej = gen.rejected
    cells = [gen.theme or "any", gen.source, str(gen.candidates), str(len(gen.puzzles)),
             f"{100 * gen.pass_rate:.0f}%", str(gen.illegal),
             str(rej.get("tie", 0)), str(rej.get("margin", 0)), str(rej.get("theme", 0)),
             str(rej.get("same game", 0)), str(gen.duplicates),
             "/".join(str(levels.get(k, 0)) for k in (1, 2, 3)),
             f"{gen.seconds:.1f}",
             f"{1000 * gen.seconds / max(1, gen.candidates):.0f}"]
    return "| " + " | ".join(cells) + " |"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--candidates", type=int, default=200)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--margin", type=float, default=2.0)
    ap.add_argument("--themes", default=",".join(THEMES))
    ap.add_argument("--agents", default="mc:10", help="self-play players (solver.games.players specs)")
    ap.add_argument("--rules", default="lmodire", help="rules preset")
    ap.add_argument("--players", type=int, default=2, choices=(2, 4))
    args = ap.parse_args()
    print("| theme | source | candidates | verified | pass | illegal | tie | margin | "
          "no theme | same game | dup | levels 1/2/3 | seconds | ms/cand |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    totals = collections.Counter()
    for theme in args.themes.split(","):
        gen = generate(theme, count=10 ** 6, seed=args.seed, margin=args.margin,
                       source="composed", max_candidates=args.candidates,
                       rules_name=args.rules, players=args.players)
        levels = collections.Counter(p.level for p in gen.puzzles)
        print(row(gen, levels), flush=True)
        totals["candidates"] += gen.candidates
        totals["verified"] += len(gen.puzzles)
    tags = {}
    for source in ("selfplay", "mined"):
        gen = generate(None, count=10 ** 6, seed=args.seed, margin=args.margin, source=source,
                       agents=args.agents, max_candidates=args.candidates,
                       rules_name=args.rules, players=args.players)
        levels = collections.Counter(p.level for p in gen.puzzles)
        gen.source = f"{source} ({args.agents})" if source == "selfplay" else f"{source} (greedy)"
        print(row(gen, levels), flush=True)
        tags[source] = collections.Counter(t for p in gen.puzzles for t in p.themes)
    for source, counts in tags.items():
        print(f"\n{source}: themes of the verified puzzles: "
              + ", ".join(f"{k} {v}" for k, v in counts.most_common()))
    print(f"composed total: {totals['verified']} verified of {totals['candidates']} candidates")


if __name__ == "__main__":
    main()
