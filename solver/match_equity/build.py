"""Build a match-equity table (``data/<system>-<players>p.json``).

``python -m solver.match_equity.build --rules lmodire --players 2 --player
engine:10 --hands 20000 --seed a --seed b --limit 61 --db met-hands.db``

1. **Self-play** (:mod:`.hands`): the hands of every ``--seed`` (disjoint
   hands: each seed shuffles its own decks), ``--player`` on every seat,
   played on a Dask cluster (a local one of ``--workers`` processes, or
   ``--scheduler``) in chunks kept in the analysis store ``--db``: running
   the command again after an interruption plays only what is missing.
   With ``--greedy-hands N`` also N greedy hands (the first seed; the
   first ``--hands`` of them are dealt the same cards as the strong
   player's), for the strong-against-greedy comparison.
2. **The table** (:mod:`.table`, :mod:`.dp`): the dynamic program over the
   points each side needs, up to ``--limit``, from all the seeds' hands.
3. **Checks**, written into the file: standard errors by batch means (the
   table rebuilt from ``--batches`` disjoint slices of the hands) at a few
   scores; with two seeds or more, each seed's own table against the
   others' (the largest and the mean absolute difference, at the preset's
   target and over the whole limit); the greedy table against this one;
   and direct simulations of ``--check-matches`` whole matches from each
   checked score with the same player and the real win check.

Progress on stderr; the file records the command, the player, the hands
and every check.
"""

from __future__ import annotations

import json
import math
import os
import shlex
import sys
import time
from pathlib import Path

import click
import numpy as np

from ..cli.params import Whole
from ..rules import PRESETS
from .hands import (HandSet, MatchSet, default_chunk, line_progress, play_sets, read_matches,
                    read_traces)
from .system import rules_of
from .table import MAX_LIMIT, MIN_LIMIT, build, build3, data_name, pack3, scores_view

DEFAULT_DB = "met-hands.db"


def check_scores(target: int, players: int,
                 early: bool = True) -> list[tuple[tuple[int, ...], int]]:
    """The scores given an interval and a direct simulation: ``(scores by
    side, the seat dealing next)``. Two sides: A (S or S+N) and B. Without
    ``early`` only the scores near the end (a match from 0-0 costs the most
    hands)."""
    T = target
    if players == 3:
        out = [((0, 0, 0), 2), ((T - 10, T - 5, T - 15), 0), ((T - 3, T - 8, T - 5), 1),
               ((T - 1, T - 2, T - 6), 2)]
        return out if early else out[1:]
    out = [((0, 0), 0), ((T // 2, T // 2), 1), ((T - 11, T - 6), 0),
           ((T - 3, T - 11), 1), ((T - 5, T - 5), 0), ((T - 1, T - 2), 1)]
    return out if early else out[2:]


def _table_value(D, players: int, scores, dealer: int, target: int):
    """The built table's chance(s) at ``scores`` with seat ``dealer`` dealing."""
    from .table import MatchTable, MatchTable3
    if players == 3:
        Dm, E = D
        t = MatchTable3("", 3, Dm.shape[0] - 1, "end_of_hand", Dm, E, target)
        return list(t.chances(scores, dealer))
    t = MatchTable("", players, D.shape[0] - 1, "immediate", D, target)
    a_deals = dealer % 2 == 0
    return [t.equity_of(scores[0], scores[1], a_deals)]


def _build(traces, players: int, limit: int, win_check: str):
    if players == 3:
        return build3(traces, limit)
    return build(traces, limit, win_check)


def _diff(A: np.ndarray, B: np.ndarray, players: int, target: int) -> dict:
    """The largest and mean absolute difference of two tables at every score
    below ``target`` (both dealers; three players: every seat's chance),
    and where the largest is."""
    if players == 3:
        L = target
        a = A[0][1:L + 1, 1:L + 1, 1:L + 1]
        b = B[0][1:L + 1, 1:L + 1, 1:L + 1]
        d = np.abs(a - b)
        i = np.unravel_index(int(d.argmax()), d.shape)
        return {"target": target, "max": round(float(d.max()), 5),
                "mean": round(float(d.mean()), 6),
                "at": {"needs": [int(i[0]) + 1, int(i[1]) + 1, int(i[2]) + 1],
                       "seat": ["dealer", "leader", "third"][int(i[3])]}}
    VA, _ = scores_view(A, target)
    VB, _ = scores_view(B, target)
    d = np.abs(VA - VB)
    i = np.unravel_index(int(d.argmax()), d.shape)
    return {"target": target, "max": round(float(d.max()), 5), "mean": round(float(d.mean()), 6),
            "at": {"a": int(i[1]), "b": int(i[2]), "a_deals": bool(i[0] == 0),
                   "this": round(float(VA[i]), 5), "other": round(float(VB[i]), 5)}}


def _regions(A: np.ndarray, B: np.ndarray, target: int) -> list[dict]:
    """Mean and largest absolute difference of two-sided tables by how close
    the leading side is to the target (thirds of the target)."""
    VA, _ = scores_view(A, target)
    VB, _ = scores_view(B, target)
    d = np.abs(VA - VB)
    lead = np.maximum.outer(np.arange(target), np.arange(target))
    out = []
    edges = [0, target // 3, 2 * target // 3, target]
    for lo, hi in zip(edges, edges[1:]):
        m = (lead >= lo) & (lead < hi)
        sel = d[:, m]
        out.append({"leader_score": [lo, hi - 1], "mean": round(float(sel.mean()), 6),
                    "max": round(float(sel.max()), 5)})
    return out


def _play(client, store, groups, sig) -> None:
    """Play every group of chunk sets, saying how far each got; exit with
    the signal's status when one stops it (``sig``: the chunks finished
    are stored) and 1 when a chunk fails."""
    for label, group in groups:
        if not group:
            continue
        s = play_sets(group, store, client, progress=line_progress(label))
        click.echo(f"{label}: {s.done} chunks played, {s.skipped} already stored", err=True)
        for line in s.failed:
            click.echo(f"error: {line}", err=True)
        if s.store_error:
            click.echo(f"error: {s.store_error}", err=True)
            sys.exit(2)
        if s.failed:
            sys.exit(1)
        if s.interrupted:
            sig.caught()
            sig.exit("the chunks finished are in the store; the same command carries on")


def command_line(argv: list[str]) -> str:
    """The command as run, for the file; the store (``--db``) by its file
    name only (where it lay on the building machine means nothing to a
    reader)."""
    out = []
    for i, a in enumerate(argv):
        if i and argv[i - 1] == "--db":
            a = os.path.basename(a)
        elif a.startswith("--db="):
            a = "--db=" + os.path.basename(a[5:])
        out.append(a)
    return "python -m solver.match_equity.build " + " ".join(shlex.quote(a) for a in out)


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--rules", "rules_name", type=click.Choice(sorted(PRESETS)), required=True)
@click.option("--set", "settings", multiple=True, metavar="NAME=VALUE",
              help="A rule parameter other than the preset's (repeatable).")
@click.option("--players", type=click.Choice(["2", "3", "4"]), default="2")
@click.option("--player", default="greedy", show_default=True)
@click.option("--hands", type=Whole(100), default=100_000, show_default=True,
              help="Hands a seed.")
@click.option("--seed", "seeds", multiple=True, default=("0",), show_default=True,
              help="A seed of disjoint hands (repeatable: each seed's table is compared "
                   "with the others').")
@click.option("--greedy-hands", type=Whole(0), default=0, show_default=True,
              help="Greedy hands (first seed) for the strong-against-greedy comparison.")
@click.option("--limit", type=Whole(2, MAX_LIMIT), default=MIN_LIMIT, show_default=True,
              help="The largest target the table serves.")
@click.option("--batches", type=Whole(2), default=8, show_default=True)
@click.option("--check-matches", type=Whole(0), default=1000, show_default=True)
@click.option("--check-early/--check-late", default=True, show_default=True,
              help="Check the early scores (0-0, half the target) too, or only the late ones.")
@click.option("--check-target", type=Whole(2), default=None,
              help="The target of the direct simulations [default: the preset's].")
@click.option("--db", default=DEFAULT_DB, show_default=True)
@click.option("--scheduler", default=None)
@click.option("--workers", type=Whole(1), default=1, show_default=True)
@click.option("--chunk", type=Whole(1), default=None)
@click.option("--out", type=click.Path(dir_okay=False), default=None)
def main(rules_name, settings, players, player, hands, seeds, greedy_hands, limit, batches,
         check_matches, check_early, check_target, db, scheduler, workers, chunk, out):
    """Play the hands, build the table, check it, write the JSON file."""
    from ..batch.run import connect
    from ..batch.store import Store, StoreError
    from ..cli.batch import _system
    from ..games.players import make_player
    players = int(players)
    try:
        system = _system(rules_name, settings, players)
        make_player(player)
    except ValueError as e:
        raise click.UsageError(str(e))
    rules = rules_of(system)
    if players == 3 and rules.win_check != "end_of_hand":
        raise click.UsageError("three players: tables are built for win_check=end_of_hand only")
    if player == "greedy":
        greedy_hands = 0
    T = check_target or min(rules.target, limit)
    chunk = chunk or default_chunk(player)
    command = command_line(sys.argv[1:])
    t0 = time.time()
    sets = [HandSet(system, players, player, s, hands, chunk) for s in seeds]
    greedy = HandSet(system, players, "greedy", seeds[0], greedy_hands, 2000) \
        if greedy_hands else None
    sims = [MatchSet(system, players, player, seeds[0], T, sc, dealer, check_matches,
                     max(1, min(chunk, 50)))
            for sc, dealer in check_scores(T, players, check_early)] \
        if check_matches else []
    try:
        store = Store(db)
    except StoreError as e:
        raise click.UsageError(str(e))
    from ..runtime.interrupt import Signals
    client, cluster = connect(scheduler, workers)
    try:
        with Signals() as sig:
            _play(client, store, [("greedy hands", [greedy] if greedy else []),
                                  (f"{player} hands", sets), ("check matches", sims)], sig)
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
    got = [read_traces(store, hs) for hs in sets]
    traces = [t for g in got for t in g.traces]
    cpu = sum(g.cpu for g in got)
    click.echo(f"{len(traces):,} hands read ({cpu:,.0f} worker CPU s, "
               f"{len(traces) / max(cpu, 1e-9):.2f} hands/s per core)", err=True)
    wc = rules.win_check
    D = _build(traces, players, limit, wc)
    click.echo(f"table built ({time.time() - t0:.0f} s)", err=True)
    checks: dict = {}
    # standard errors by batch means
    size = len(traces) // batches
    reps = [_build(traces[i * size:(i + 1) * size], players, limit, wc) for i in range(batches)]
    intervals = []
    for scores, dealer in check_scores(T, players, check_early):
        v = _table_value(D, players, scores, dealer, T)
        rv = np.array([_table_value(r, players, scores, dealer, T) for r in reps])
        se = rv.std(axis=0, ddof=1) / math.sqrt(batches)
        e: dict = {"scores": list(scores), "dealer": dealer, "target": T,
                   "equity": [round(x, 4) for x in v], "se": [round(float(x), 4) for x in se]}
        if players != 3:
            e.update({"a": scores[0], "b": scores[1], "a_deals": dealer % 2 == 0})
            e["equity"], e["se"] = e["equity"][0], e["se"][0]
            e["ci95"] = [round(e["equity"] - 1.96 * e["se"], 4),
                         round(e["equity"] + 1.96 * e["se"], 4)]
        intervals.append(e)
    for e, ms in zip(intervals, sims):
        m = read_matches(store, ms)
        n = len(m.winners)
        if players == 3:
            p = [sum(w == k for w in m.winners) / n for k in range(3)]
            se_ = [math.sqrt(max(x * (1 - x), 1e-12) / n) for x in p]
            e["simulated"] = {"player": player, "matches": n, "equity": [round(x, 4) for x in p],
                              "se": [round(x, 4) for x in se_], "hands": m.hands,
                              "undecided": sum(w is None for w in m.winners)}
        else:
            p = sum(w == 0 for w in m.winners) / n
            e["simulated"] = {"player": player, "matches": n, "equity": round(p, 4),
                              "se": round(math.sqrt(max(p * (1 - p), 1e-12) / n), 4),
                              "hands": m.hands, "undecided": sum(w is None for w in m.winners)}
        click.echo(f"check {e['scores']} dealer {e['dealer']}: table {e['equity']}, "
                   f"simulated {e['simulated']['equity']} ± {e['simulated']['se']}", err=True)
    if len(sets) > 1:
        per = [_build(g.traces, players, limit, wc) for g in got]
        checks["seeds"] = []
        for i in range(len(per)):
            for j in range(i + 1, len(per)):
                checks["seeds"].append({
                    "seeds": [seeds[i], seeds[j]], "hands": [hands, hands],
                    "at_target": _diff(per[i], per[j], players, T),
                    "at_limit": _diff(per[i], per[j], players, limit)})
    if greedy is not None:
        g = read_traces(store, greedy)
        G = _build(g.traces, players, limit, wc)
        checks["greedy"] = {"hands": len(g.traces), "seed": seeds[0],
                            "hands_per_second_per_core": round(g.rate(), 2),
                            "at_target": _diff(D, G, players, T),
                            "at_limit": _diff(D, G, players, limit)}
        if players != 3:
            checks["greedy"]["by_lead"] = _regions(D, G, T)
    store.close()
    doc: dict = {"system": system, "players": players, "limit": limit, "win_check": wc,
                 "hands": len(traces), "player": player,
                 "seeds": list(seeds), "hands_per_seed": hands,
                 "worker_cpu_seconds": round(cpu, 1),
                 "hands_per_second_per_core": round(len(traces) / max(cpu, 1e-9), 3),
                 "command": command, "se_method": f"batch means: {batches} batches of "
                                                  f"{size:,} hands",
                 "intervals": intervals, "checks": checks}
    path = Path(out) if out else Path(__file__).parent / "data" / data_name(system, players)
    path.parent.mkdir(parents=True, exist_ok=True)
    if players == 3:
        Dm, E = D
        packed = path.with_suffix(".u16.xz")
        packed.write_bytes(pack3(Dm))
        doc["dealer_file"] = packed.name
        doc["dealer_encoding"] = ("each seat's chance (dealer, leader; the third's is the rest) "
                                  "at needs 1..limit, times 65535 as uint16, differences along "
                                  "the 2nd and 3rd needs modulo 2**16, lzma "
                                  "(solver.match_equity.table.unpack3)")
        doc["ties"] = np.round(E, 6).tolist()
    else:
        doc["dealer"] = np.round(D, 6).tolist()
    path.write_text(json.dumps(doc, separators=(",", ":")) + "\n", encoding="utf-8")
    click.echo(f"wrote {path} ({time.time() - t0:.0f} s)", err=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
