"""Annotate benchmark: time, loss distributions, sampling noise.

    python bench/bench_annotate.py positions/games/engine-v-greedy.txt
    python bench/bench_annotate.py --self-play 6 --players engine:20,greedy --seeds 2

For each game (files, or ``--self-play N`` new games between
``--players``), annotates in the player view (``--samples``,
``--luck-samples``, ``--jobs``) and prints: hands, plays, plays with a
choice, the wall time and the time per evaluated play. Then, over all
games, the distribution of the losses per player (quantiles and the share
of plays at or over 0.5, 1 and 2 points), and with ``--seeds 2`` the
sampling noise: the spread of one play's loss between two seeds (what a
``?!`` threshold must stand above). ``--view full`` does the same with
every card known (exact: no noise).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from solver.games.annotate import annotate  # noqa: E402
from solver.games.arena import play_games  # noqa: E402
from solver.games.record import from_match, parse_games  # noqa: E402


#: the loss thresholds (points) whose share of plays is printed
SHARES = (0.5, 0.75, 1, 2, 3, 4)


def quantiles(xs: list[float], qs=(0.5, 0.75, 0.9, 0.95, 0.99)) -> list[float]:
    s = sorted(xs)
    return [s[min(len(s) - 1, int(q * len(s)))] for q in qs] if s else [0.0] * len(qs)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("games", nargs="*")
    ap.add_argument("--self-play", type=int, default=0)
    ap.add_argument("--players", default="engine:20,greedy")
    ap.add_argument("--seed", default="bench")
    ap.add_argument("--view", default="player", choices=["player", "full"])
    ap.add_argument("--samples", type=int, default=32)
    ap.add_argument("--luck-samples", type=int, default=24)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--seeds", type=int, default=1, help="annotate each game with 1 or 2 seeds")
    args = ap.parse_args()
    games = []
    for path in args.games:
        games += [g for g in parse_games(Path(path).read_text()) if not isinstance(g, Exception)]
    if args.self_play:
        logs, _rows = play_games(args.players.split(","), games=args.self_play, seed=args.seed)
        games += [loads_log(log) for log in logs]
    losses: dict[str, list[float]] = {}
    noise: list[float] = []
    print(f"annotate, {args.view} view, {args.samples} samples, {args.luck_samples} luck "
          f"samples, {args.jobs} job(s)")
    for i, g in enumerate(games, start=1):
        t0 = time.perf_counter()
        an = annotate(g, view=args.view, samples=args.samples, luck_samples=args.luck_samples,
                      jobs=args.jobs, seed=0)
        wall = time.perf_counter() - t0
        chosen = [n for n in an.notes if not n.forced]
        print(f"game {i}: {len(g.hands)} hands, {len(an.notes)} plays, {len(chosen)} with a "
              f"choice, {wall:.1f} s ({1000 * wall / max(1, len(chosen)):.0f} ms a play), "
              f"{' v '.join(g.names)} {g.tags.get('Result', '*')}", flush=True)
        for n in chosen:
            losses.setdefault(g.names[n.seat], []).append(n.loss)
        if args.seeds > 1:
            other = annotate(g, view=args.view, samples=args.samples, luck_samples=0,
                             jobs=args.jobs, seed=1)
            noise += [abs(a.loss - b.loss) for a, b in zip(an.notes, other.notes)
                      if not a.forced]
    print("\nloss per play with a choice (points): quantiles 50/75/90/95/99 %, "
          "share >= " + "/".join(f"{t:g}" for t in SHARES))
    for name, xs in sorted(losses.items()):
        q = " ".join(f"{v:.2f}" for v in quantiles(xs))
        share = " ".join(f"{100 * sum(1 for x in xs if x >= t - 1e-9) / len(xs):.1f}%"
                         for t in SHARES)
        print(f"  {name:12s} {len(xs):5d} plays   {q}   {share}")
    if noise:
        q = " ".join(f"{v:.2f}" for v in quantiles(noise))
        print(f"  seed noise   {len(noise):5d} plays   {q}   "
              f"(|loss seed 0 - loss seed 1|)")


def loads_log(log):
    return from_match(log)


if __name__ == "__main__":
    main()
