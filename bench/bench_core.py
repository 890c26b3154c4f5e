"""Benchmark of the compiled search core: every row of issue 8's table.

Each row runs in a fresh process (so its peak resident memory is its own)
on seeded positions, and prints the median and max time, the nodes and the
peak RSS:

- ``exact2``: exact solve of a whole two-player hand, known stock (root
  value, then every root move scored), best of 3 runs per hand;
- ``exact4``: the same for a whole four-player pagat hand;
- ``em12``: exact expectimax, 12 unseen cards, both hands known (start of
  deal 4 of 6), every root move scored, with ``--workers`` threads;
- ``em18``: the same with 18 unseen cards (start of deal 3 of 6), each
  position stopped at ``--cap`` seconds, each in a fresh process of its
  own (as ``ronda-solve`` solves one: the gigabytes of table a position
  frees are not the next one's to fault in again, and its peak memory is
  its own);
- ``pimc``: determinised search of the player's view at the start of a
  hand (the other hand and the stock hidden), 1000 samples, no early stop;
- ``annotate``: ``annotate`` of positions/games/engine-v-greedy.txt in the
  player view, one run per seed;
- ``startup``: ``ronda-solve`` on a one-line file, warm cache (wall time of
  the whole command).

Run: ``python bench/bench_core.py [--rows exact2,em12,...] [--positions N]
[--cap S] [--workers W]``.
"""

from __future__ import annotations

import argparse
import json
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

ROWS = ("exact2", "exact4", "em12", "em18", "pimc", "annotate", "startup")


def whole_hand(seed: int, preset: str, players: int):
    from solver.engine.hand import Hand
    from solver.rules import PRESETS
    rng = random.Random(f"core-{preset}-{players}-{seed}")
    deck = [r for r in range(10) for _ in range(4)]
    rng.shuffle(deck)
    n = 3
    hands = [deck[4 + n * i:4 + n * (i + 1)] for i in range(players)]
    game = Hand(PRESETS[preset], players, 0, deck[4 + n * players:])
    return game, game.initial_state(deck[:4], hands, 0)


def start_of_deal(unseen: int, seed: int):
    """Two players at the start of a deal, hands known, ``unseen`` cards in
    a shuffled stock (the expectimax bench's positions)."""
    from solver.engine.hand import Hand
    from solver.rules import PRESETS
    from solver.games.seeded import seeded_deal
    d = seeded_deal(f"em{unseen}-{seed}", unseen)
    game = Hand(PRESETS["lmodire"], 2, 0, d.stock, shuffled=True)
    return game, game.initial_state(d.table, [d.rest[:3], d.rest[3:6]], 0, last=0)


def row_exact(players: int, positions: int) -> dict:
    from solver.search.compiled import Searcher, ensure_compiled
    ensure_compiled()
    preset = "lmodire" if players == 2 else "pagat"
    value_t, all_t, nodes = [], [], []
    for seed in range(positions):
        game, state = whole_hand(seed, preset, players)
        P, D = game.P, game.D
        st = state
        best_v = best_a = None
        for _ in range(3):
            s = Searcher(P, D, 8.0)
            t = time.perf_counter()
            s.value(st)
            dt = time.perf_counter() - t
            best_v = dt if best_v is None else min(best_v, dt)
            n = s.nodes
            s = Searcher(P, D, 8.0)
            t = time.perf_counter()
            s.root_values(st)
            dt = time.perf_counter() - t
            best_a = dt if best_a is None else min(best_a, dt)
        value_t.append(best_v)
        all_t.append(best_a)
        nodes.append(n)
    return {"times": value_t, "times_all_moves": all_t, "nodes": nodes}


def row_em(unseen: int, positions: int, workers: int, cap: float, split: str = "outcomes",
           save: str | None = None, seeds: list[int] | None = None) -> dict:
    from solver.search.compiled import SearchAborted, Searcher, ensure_compiled
    ensure_compiled()
    times, cpus, nodes, stopped, entries, chance = [], [], [], [], [], []
    for seed in (seeds if seeds is not None else range(positions)):
        game, state = start_of_deal(unseen, seed)
        P, D = game.P, game.D
        s = Searcher(P, D, 3500.0, workers)
        s.split = split
        t = time.perf_counter()
        c = time.process_time()
        try:
            values = s.root_values(state, deadline=time.monotonic() + cap)
            times.append(time.perf_counter() - t)
            cpus.append(time.process_time() - c)
        except SearchAborted:
            stopped.append(seed)
            values = None
        st = s.stats()
        nodes.append(st["nodes"])
        chance.append(st["chance_nodes"])
        entries.append(st["tt_entries"])
        print(f"    {unseen} unseen, seed {seed}: "
              + (f"{times[-1]:.3f} s ({cpus[-1]:.3f} s cpu)" if seed not in stopped
                 else f"stopped at {cap:g} s")
              + f", {st['nodes']:,} nodes, {st['chance_nodes']:,} chance nodes, "
              f"{st['tt_entries']:,} entries"
              + (f", values {_fmt_values(values)}" if values else ""), file=sys.stderr,
              flush=True)
        if save and values is not None:
            save_values(save, unseen, seed, s, state, values, st, times[-1], cpus[-1])
    return {"times": times, "cpu": cpus, "nodes": nodes, "chance": chance, "entries": entries,
            "stopped": stopped}


def _fmt_values(values: dict) -> str:
    from solver.cards import RANKS
    return ", ".join(f"{RANKS[m]}: {v / 2:.6f}" for m, v in sorted(values.items()))


def save_values(path: str, unseen: int, seed: int, searcher, state, values: dict,
                stats: dict, seconds: float, cpu: float) -> None:
    """Add one solved position to the regression file ``path`` (JSON: the
    position as the seeded deal that makes it, the root values in
    half-points for the mover, how long it took) with what a test can
    check cheaply: the value of each chance node of its first chance level
    (``chance``, in the order of :func:`solver.search.split.split`; the
    root values follow from them by the upper tree's negamax) and of the
    two most probable outcomes of the first (``outcomes``: solved again
    from scratch, 12 unseen cards each)."""
    from solver.cards import RANKS
    from solver.search import split as sp
    from solver.search.compiled import Searcher
    out = Path(path)
    st = state
    tree = sp.split(searcher.P, searcher.D, st)
    chance = [searcher.value(cn) for cn in tree.chance]     # in the table: exact entries
    cn, (probs, rows) = next(iter(tree.chance.items()))
    outcomes = [Searcher(searcher.P, searcher.D, 512.0).value(
        sp.outcome_child(searcher.P, cn, rows, i)) for i in range(2)]
    data = json.loads(out.read_text()) if out.exists() else {
        "about": "exact expectimax root values of bench/bench_core.py's start_of_deal "
                 "positions (lmodire, two players, hands known, the stock shuffled; cards as "
                 "rank indices 0-9 for 1-7, 10, 11, 12; state the core's tuple), by the card "
                 "played, in half-points for the mover; written by bench/bench_core.py --save",
        "positions": []}
    d = start_of_deal_cards(unseen, seed)
    entry = {"unseen": unseen, "seed": seed, "table": d["table"], "hands": d["hands"],
             "stock": d["stock"], "state": [int(x) for x in state],
             "values": {str(RANKS[m]): v for m, v in sorted(values.items())},
             "chance": chance, "outcomes": outcomes,
             "nodes": stats["nodes"], "seconds": round(seconds, 1), "cpu_seconds": round(cpu, 1),
             "threads": int(stats.get("threads", 1))}
    data["positions"] = [p for p in data["positions"]
                         if (p["unseen"], p["seed"]) != (unseen, seed)] + [entry]
    data["positions"].sort(key=lambda p: (p["unseen"], p["seed"]))
    out.parent.mkdir(parents=True, exist_ok=True)
    rows = ",\n  ".join(json.dumps(p, separators=(", ", ": ")) for p in data["positions"])
    out.write_text(f'{{"about": {json.dumps(data["about"])},\n "positions": [\n  {rows}\n ]}}\n')


def start_of_deal_cards(unseen: int, seed: int) -> dict:
    """The cards of :func:`start_of_deal` as rank-index lists."""
    from solver.games.seeded import seeded_deal
    d = seeded_deal(f"em{unseen}-{seed}", unseen)
    return {"table": d.table, "hands": [d.rest[:3], d.rest[3:6]], "stock": sorted(d.stock)}


def row_pimc(positions: int, workers: int) -> dict:
    from solver.analysis.evaluation import evaluate
    from solver.notation import parse_position
    from solver.search.compiled import ensure_compiled
    from solver.games.seeded import cards_text, seeded_deal
    ensure_compiled()
    times, nodes = [], []
    for seed in range(positions):
        d = seeded_deal(f"pimc-{seed}", 0)
        line = f"{cards_text(d.table)} {cards_text(d.rest[:3])}/?.?.? ? S"
        pos = parse_position(line)
        t = time.perf_counter()
        a = evaluate(pos, method="determinised", samples=1000, seed=seed, workers=workers,
                     z=None, time_budget=1e9)
        times.append(time.perf_counter() - t)
        nodes.append(a.nodes)
        assert a.samples == 1000
    return {"times": times, "nodes": nodes}


def row_annotate(positions: int) -> dict:
    from solver.games.annotate import annotate
    from solver.games.record import parse_games
    from solver.search.compiled import ensure_compiled
    ensure_compiled()
    game = parse_games((ROOT / "positions/games/engine-v-greedy.txt").read_text())[0]
    times = []
    for seed in range(positions):
        t = time.perf_counter()
        annotate(game, view="player", seed=seed)
        times.append(time.perf_counter() - t)
    return {"times": times}


def row_startup(positions: int) -> dict:
    exe = Path(sys.executable).with_name("ronda-solve")
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
        f.write("1.7 7.7.2/7.12 - S prev=7 taken=15,18 last=N\n")
    times = []
    for _ in range(positions):
        t = time.perf_counter()
        subprocess.run([str(exe), f.name], check=True, capture_output=True)
        times.append(time.perf_counter() - t)
    os.unlink(f.name)
    return {"times": times}


def run_row(name: str, args) -> dict:
    if name == "exact2":
        out = row_exact(2, args.positions * 2)
    elif name == "exact4":
        out = row_exact(4, args.positions)
    elif name in ("em12", "em18"):
        unseen = int(name[2:])
        seeds = [int(x) for x in args.seeds.split(",")] if args.seeds else None
        out = row_em(unseen, args.positions if unseen == 12 else args.positions18,
                     args.workers, args.cap, args.split, args.save, seeds)
    elif name == "pimc":
        out = row_pimc(args.positions, args.workers)
    elif name == "annotate":
        out = row_annotate(args.positions)
    else:
        out = row_startup(args.positions)
    who = resource.RUSAGE_CHILDREN if name == "startup" else resource.RUSAGE_SELF
    out["peak_mb"] = resource.getrusage(who).ru_maxrss / 1024
    return out


def fmt_row(name: str, r: dict) -> str:
    ts = r["times"]
    parts = [f"{name:9s}"]
    if ts:
        scale, unit = (1e3, "ms") if max(ts) < 1 else (1.0, "s")
        parts.append(f"median {statistics.median(ts) * scale:.3g} {unit}, "
                     f"max {max(ts) * scale:.3g} {unit} ({len(ts)} positions)")
    if r.get("cpu"):
        parts.append(f"cpu median {statistics.median(r['cpu']):.3g} s")
    if r.get("times_all_moves"):
        ta = r["times_all_moves"]
        parts.append(f"every root move: median {statistics.median(ta) * 1e3:.3g} ms, "
                     f"max {max(ta) * 1e3:.3g} ms")
    if r.get("nodes"):
        parts.append(f"nodes median {statistics.median(r['nodes']):,.0f}, "
                     f"max {max(r['nodes']):,}")
    if r.get("chance"):
        parts.append(f"chance nodes median {statistics.median(r['chance']):,.0f}")
    if r.get("entries"):
        parts.append(f"table entries max {max(r['entries']):,}")
    if r.get("stopped"):
        parts.append(f"stopped at the cap: {len(r['stopped'])}")
    parts.append(f"peak RSS {r['peak_mb']:.0f} MB")
    return "; ".join(parts)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", default=",".join(ROWS))
    ap.add_argument("--positions", type=int, default=10)
    ap.add_argument("--positions18", type=int, default=10)
    ap.add_argument("--cap", type=float, default=120.0, help="seconds a position may take")
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--split", choices=("outcomes", "moves"), default="outcomes",
                    help="how two threads share an expectimax root (em12, em18)")
    ap.add_argument("--seeds", help="em12/em18: these seeds (comma-separated) instead of "
                                    "the first --positions")
    ap.add_argument("--save", help="em12/em18: add each solved position's root values to "
                                   "this JSON regression file (bench/data/em18.json)")
    ap.add_argument("--row", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.row:
        print(json.dumps(run_row(args.row, args)))
        return
    print(f"compiled core, {args.workers} worker(s), {os.cpu_count()} cores")
    for name in args.rows.split(","):
        cmd = [sys.executable, __file__, "--row", name, "--positions", str(args.positions),
               "--positions18", str(args.positions18), "--cap", str(args.cap),
               "--workers", str(args.workers), "--split", args.split]
        cmd += ["--save", args.save] if args.save else []
        if name == "em18":      # a process a position
            seeds = args.seeds.split(",") if args.seeds else \
                [str(s) for s in range(args.positions18)]
            runs = [cmd + ["--seeds", s] for s in seeds]
        else:
            runs = [cmd + (["--seeds", args.seeds] if args.seeds else [])]
        rows = []
        for run in runs:
            done = subprocess.run(run, stdout=subprocess.PIPE, text=True)    # stderr live
            if done.returncode:
                print(f"{name}: failed")
                break
            rows.append(json.loads(done.stdout.strip().splitlines()[-1]))
        else:
            print(fmt_row(name, merge_rows(rows)), flush=True)


def merge_rows(rows: list[dict]) -> dict:
    """One row from the rows of its positions' processes: the lists
    joined, the largest peak memory."""
    out: dict = {}
    for r in rows:
        for key, v in r.items():
            if isinstance(v, list):
                out.setdefault(key, []).extend(v)
            else:
                out[key] = max(out.get(key, v), v)
    return out


if __name__ == "__main__":
    main()
