"""Rebuild a shipped match-equity table (``data/*.json``).

``python -m solver.match_equity.build --rules lmodire --players 2
--hands 100000 --seed 0 --jobs 1`` plays the hands (greedy self-play,
:mod:`.selfplay`), runs the dynamic program (:mod:`.table`), adds
standard errors by batch means and a direct match simulation at a few scores, and
writes ``data/<rules>-<players>p-<target>.json``. Progress on stderr.
"""

from __future__ import annotations

import json
import math
import random
import sys
import time
from dataclasses import replace
from pathlib import Path

import click
import numpy as np

from ..rules import PRESETS
from .selfplay import play_traces, simulate_match
from .table import Traces, _build, data_name

PLAYER = ("greedy (solver.games.players.GreedyPlayer's policy, solver.match_equity.selfplay."
          "greedy_rank) on every seat")


def check_scores(target: int) -> list[tuple[int, int, bool]]:
    """The scores given an interval and a direct simulation: ``(a, b, A
    deals next)``."""
    T = target
    return [(0, 0, True), (T // 2, T // 2, False), (T - 11, T - 6, True),
            (T - 3, T - 11, False), (T - 5, T - 5, True), (T - 1, T - 2, False)]


def _traces_job(args):
    rules_name, players, target, hands, seed = args
    rules = replace(PRESETS[rules_name], target=target)
    return play_traces(rules, players, hands, seed)


def _simulate(rules, players, a, b, a_deals, matches, seed) -> tuple[float, float]:
    rng = random.Random(f"met-check/{seed}/{a}/{b}/{a_deals}")
    wins = sum(simulate_match(rules, players, a, b, a_deals, rng) == 0 for _ in range(matches))
    p = wins / matches
    return p, math.sqrt(max(p * (1 - p), 1e-12) / matches)


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--rules", "rules_name", type=click.Choice(sorted(PRESETS)), required=True)
@click.option("--players", type=click.Choice(["2", "4"]), default="2")
@click.option("--target", type=click.IntRange(2), default=None)
@click.option("--hands", type=click.IntRange(100), default=100_000)
@click.option("--seed", default="0")
@click.option("--jobs", type=click.IntRange(1), default=1)
@click.option("--batches", type=click.IntRange(2), default=8)
@click.option("--check-matches", type=click.IntRange(0), default=4000)
@click.option("--out", type=click.Path(dir_okay=False), default=None)
def main(rules_name, players, target, hands, seed, jobs, batches, check_matches, out):
    """Play the hands, build the table, write the JSON file."""
    players = int(players)
    rules = PRESETS[rules_name]
    T = target or rules.target
    rules = replace(rules, target=T)
    command = (f"python -m solver.match_equity.build --rules {rules_name} --players {players} "
               f"--target {T} --hands {hands} --seed {seed} --jobs {jobs} "
               f"--batches {batches} --check-matches {check_matches}")
    t0 = time.time()
    chunk = -(-hands // (jobs * 4))
    parts = [(rules_name, players, T, min(chunk, hands - i), f"{seed}/{i}")
             for i in range(0, hands, chunk)]
    traces: list = []
    if jobs == 1:
        for p in parts:
            traces += _traces_job(p)
            click.echo(f"{len(traces)} hands", err=True)
    else:
        from ..runtime.workers import process_pool
        with process_pool(jobs) as pool:
            for got in pool.map(_traces_job, parts):
                traces += got
                click.echo(f"{len(traces)} hands", err=True)
    t_play = time.time() - t0
    tr = [Traces.from_lists(traces, 0), Traces.from_lists(traces, 1)]
    eoh = rules.win_check == "end_of_hand"
    V, tie = _build(tr, T, eoh, np.ones(len(traces)))
    click.echo(f"table built ({time.time() - t0:.0f} s)", err=True)
    # standard errors by batch means: the table rebuilt from each of
    # `batches` disjoint slices of the hands; se = sd(slices) / sqrt(batches)
    reps = []
    size = len(traces) // batches
    for i in range(batches):
        part = traces[i * size:(i + 1) * size]
        tp = [Traces.from_lists(part, 0), Traces.from_lists(part, 1)]
        reps.append(_build(tp, T, eoh, np.ones(len(part)))[0])
        click.echo(f"batch {i + 1}/{batches}", err=True)
    intervals = []
    for a, b, a_deals in check_scores(T):
        d = 0 if a_deals else 1
        v = float(V[d, a, b])
        se = float(np.std([r[d, a, b] for r in reps], ddof=1) / math.sqrt(batches))
        entry = {"a": a, "b": b, "a_deals": a_deals, "equity": round(v, 4),
                 "se": round(se, 4), "ci95": [round(v - 1.96 * se, 4), round(v + 1.96 * se, 4)]}
        if check_matches:
            p, sep = _simulate(rules, players, a, b, a_deals, check_matches, seed)
            entry["simulated"] = {"matches": check_matches, "equity": round(p, 4),
                                  "se": round(sep, 4)}
            click.echo(f"check {a}-{b}: table {v:.4f} ± {se:.4f}, "
                       f"simulated {p:.4f} ± {sep:.4f}", err=True)
        intervals.append(entry)
    doc = {"rules": rules_name, "se_method": f"batch means: {batches} batches of {size:,} hands", "players": players, "target": T, "win_check": rules.win_check,
           "hands": len(traces), "player": PLAYER, "command": command,
           "seconds": {"self-play": round(t_play), "total": round(time.time() - t0)},
           "intervals": intervals, "tie": [round(float(x), 4) for x in tie],
           "equity": [[[round(float(x), 4) for x in row] for row in V[d]] for d in (0, 1)]}
    path = Path(out) if out else Path(__file__).parent / "data" / data_name(rules_name, players, T)
    path.write_text(json.dumps(doc, separators=(",", ":")) + "\n", encoding="utf-8")
    click.echo(f"wrote {path}", err=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
