"""The large cross-check of issue 20: the one compiled engine against the
plain references of tests/ (``reference.py``, ``reference3.py``) on
thousands of random positions of every rule system (tests/systems.py),
values and best-play sets; prints a count per system and per group.

    python bench/bench_crosscheck.py [--positions 2000] [--only voleur] [--seed 0]

``--positions`` is per group (two, three and four players; voleur with
each; the house rules; the match objective; each with a known and a
shuffled stock), shared evenly by the group's systems. The match
objective's leaves are random tables, every other one arranged monotone
(where the search bounds a state by its group). Mismatches are
printed with their position line; the exit status is 1 if any.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from systems import (agree, best_plays, engine_values, random_leaves,  # noqa: E402
                     random_position, reference_values, systems)
from solver.notation import format_position  # noqa: E402


def group_of(system) -> str:
    """The report group of a system."""
    stock = "shuffled" if system.shuffled else "known"
    if system.match:
        return f"match objective, {stock} stock"
    if system.rules.voleur:
        return f"voleur, {system.players} players, {stock} stock"
    name = system.name.split("-")[0]
    if name in ("cumulative", "no", "online", "answers"):
        return f"house rules, {system.players} players, {stock} stock"
    return f"{system.players} players, {stock} stock"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--positions", type=int, default=2000, help="positions a group")
    ap.add_argument("--only", default="", help="systems whose name contains this")
    ap.add_argument("--seed", default="0")
    args = ap.parse_args()
    chosen = [s for s in systems() if args.only in s.name]
    groups = defaultdict(list)
    for s in chosen:
        groups[group_of(s)].append(s)
    bad = 0
    # the plain three-player expectimax takes seconds a position: last
    order = sorted(groups, key=lambda g: ("3 players, shuffled" in g, g))
    for group in order:
        members = groups[group]
        t0 = time.perf_counter()
        n_each = -(-args.positions // len(members))
        done = wrong = 0
        for system in members:
            rng = random.Random(f"bench-{args.seed}-{system}")
            for _ in range(n_each):
                pos = random_position(rng, system)
                leaves = leaf = None
                if system.match:
                    # every other position a monotone table (the group
                    # bounds on, solver.engine.core.dominance)
                    leaves, leaf = random_leaves(rng, system.rules.target, monotone=done % 2 == 1)
                ref = reference_values(pos, system, leaf)
                got = engine_values(pos, system, leaves)
                ok = agree(ref, got) and best_plays(ref, pos.turn) == best_plays(got, pos.turn)
                done += 1
                if not ok:
                    wrong += 1
                    print(f"  MISMATCH {system}: {format_position(pos)}\n    reference {ref}"
                          f"\n    engine    {got}", flush=True)
        bad += wrong
        names = ", ".join(s.name for s in members)
        print(f"{group}: {done} positions, {done - wrong} identical, {wrong} different "
              f"({time.perf_counter() - t0:.0f} s; {names})", flush=True)
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
