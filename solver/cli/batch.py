"""``ronda-solve batch annotate|mine`` and ``ronda-solve db stats|export``."""

from __future__ import annotations

import csv
import json
import os
import sys

import click
from rich.console import Console
from rich.progress import (BarColumn, MofNCompleteColumn, Progress, TextColumn,
                           TimeElapsedColumn, TimeRemainingColumn)
from rich.table import Table

from ..numbers import counted, tidy
from ..batch.inputs import InputError, files_of, games_of
from ..batch.store import Store, StoreError
from .params import INTEGER, POSITIVE, Number, WORKERS, Whole

_SETTINGS = {"help_option_names": ["-h", "--help"]}
DEFAULT_DB = "ronda-analysis.db"


def _fail(message: str, code: int = 2) -> None:
    click.echo(f"error: {message}", err=True)
    sys.exit(code)


def _open(db: str, readonly: bool = False) -> Store:
    try:
        return Store(db, readonly=readonly)
    except StoreError as e:
        _fail(str(e))
    raise AssertionError  # pragma: no cover


@click.group("batch", context_settings=_SETTINGS)
def batch() -> None:
    """Annotate or mine whole game collections on a Dask cluster, keeping
    every result in an analysis store (SQLite)."""


def _common(f):
    f = click.option("--db", default=DEFAULT_DB, show_default=True,
                     help="The analysis store (SQLite; created when absent).")(f)
    f = click.option("--scheduler", default=None,
                     help="An existing Dask scheduler, tcp://HOST:8786 "
                          "[default: a local cluster on this machine's cores].")(f)
    f = click.option("--workers", type=WORKERS, default=None,
                     help="Worker processes of the local cluster [default: the cores].")(f)
    f = click.option("--resume", is_flag=True,
                     help="Skip the games already in the store with the same options.")(f)
    f = click.option("--dashboard", default="127.0.0.1:0", show_default=True,
                     help="HOST:PORT of the local cluster's Dask dashboard (it shows the "
                          "workers, their logs and stacks: 127.0.0.1 unless you mean "
                          "others to see it; port 0 picks a free one).")(f)
    f = click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON.")(f)
    f = click.option("-q", "--quiet", is_flag=True, help="No progress on stderr.")(f)
    f = click.argument("paths", nargs=-1, required=True)(f)
    return f


@batch.command("annotate", context_settings=_SETTINGS)
@_common
@click.option("--view", type=click.Choice(["player", "full"]), default="player",
              show_default=True)
@click.option("--samples", type=Whole(1), default=32, show_default=True)
@click.option("--seed", type=INTEGER, default=0, show_default=True)
@click.option("--method", default="auto", show_default=True)
@click.option("--luck-samples", type=Whole(0), default=24, show_default=True)
@click.option("--thresholds", default=None, help="Losses for ?!, ? and ?? (as annotate).")
@click.option("--time", "time_budget", type=POSITIVE, default=None,
              help="Seconds a play's evaluation and a deal's luck may take (as annotate).")
def annotate_cmd(paths, db, scheduler, workers, resume, dashboard, as_json, quiet, view,
                 samples, seed, method, luck_samples, thresholds, time_budget) -> None:
    """Annotate every game of PATHS (files, directories of *.txt, globs) as
    `ronda-solve annotate` does, on a Dask cluster; each result goes to the
    store as its game finishes. Evaluations already in the store are not
    searched again."""
    from ..analysis.evaluation import METHODS
    from ..games.annotate import Thresholds
    if method not in METHODS:
        _fail(f"--method: {method!r} is not one of {', '.join(METHODS)}")
    if thresholds:
        try:
            Thresholds.parse(thresholds)
        except ValueError as e:
            _fail(f"--thresholds: {e}")
    options = {"view": view, "samples": samples, "seed": seed, "method": method,
               "luck_samples": luck_samples, "thresholds": thresholds or ""}
    if time_budget is not None:     # a batch without it keeps its stored options
        options["time_budget"] = time_budget
    _run("annotate", paths, options, db, scheduler, workers, resume, as_json, quiet, dashboard)


@batch.command("mine", context_settings=_SETTINGS)
@_common
@click.option("--margin", type=Number(0, unit="points"), default=2.0, show_default=True,
              help="Points the best play must beat every other by.")
def mine_cmd(paths, db, scheduler, workers, resume, dashboard, as_json, quiet, margin) -> None:
    """Puzzle candidates from every game of PATHS: positions of each hand's
    last deal where one play beats every other by MARGIN, verified with
    the exact method as `puzzles generate` does: points puzzles, written
    without the game's score (`puzzles check` judges them in points).
    `db export --what puzzles` writes them as a puzzle file."""
    _run("mine", paths, {"margin": margin}, db, scheduler, workers, resume, as_json, quiet,
         dashboard)


@batch.command("selfplay", context_settings=_SETTINGS)
@click.option("--rules", "rules_name", default="lmodire", show_default=True,
              help="The preset.")
@click.option("--set", "settings", multiple=True, metavar="NAME=VALUE",
              help="A rule parameter other than the preset's (repeatable): decl_cumulative=yes.")
@click.option("--players", type=click.Choice(["2", "3", "4"]), default="2", show_default=True)
@click.option("--player", default="greedy", show_default=True,
              help="Who plays every seat: greedy, mc:N, engine:K, engine:Ts.")
@click.option("--hands", type=Whole(1), default=10_000, show_default=True)
@click.option("--seed", default="0", show_default=True)
@click.option("--chunk", type=Whole(1), default=None,
              help="Hands a job [default: 2000 for greedy, 50 otherwise].")
@click.option("--db", default=DEFAULT_DB, show_default=True,
              help="The analysis store (SQLite; created when absent).")
@click.option("--scheduler", default=None,
              help="An existing Dask scheduler, tcp://HOST:8786 "
                   "[default: a local cluster on this machine's cores].")
@click.option("--workers", type=WORKERS, default=None,
              help="Worker processes of the local cluster [default: the cores].")
@click.option("--dashboard", default="127.0.0.1:0", show_default=True,
              help="HOST:PORT of the local cluster's Dask dashboard.")
@click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON.")
@click.option("-q", "--quiet", is_flag=True, help="No progress on stderr.")
def selfplay_cmd(rules_name, settings, players, player, hands, seed, chunk, db, scheduler,
                 workers, dashboard, as_json, quiet) -> None:
    """Self-play hands for a match-equity table: every seat played by
    PLAYER, each hand's score awards kept in the store in chunks. A chunk
    already stored is not played again, so running the same command after
    an interruption (or with more --hands) carries on. `python -m
    solver.match_equity.build` turns the hands into a table (docs/match.md)."""
    from ..games.players import is_human, make_player
    from ..match_equity.hands import HandSet, default_chunk, play_hands, read_traces
    try:
        system = _system(rules_name, settings, int(players))
        make_player(player)
    except ValueError as e:
        _fail(str(e))
    if is_human(player):
        _fail("--player human: the self-play plays its hands without a person "
              "(greedy, mc:N, engine:K, engine:Ts): use `play` to play as human")
    hs = HandSet(system, int(players), player, seed, hands, chunk or default_chunk(player))
    store = _open(db)
    summary = _on_cluster("selfplay", f"{hands:,} hands of {system} {players}p by {player} "
                          f"(seed {seed}, {hs.chunks()} chunks)", store, scheduler, workers,
                          quiet, "chunks", dashboard,
                          lambda client, progress: play_hands(hs, store, client,
                                                              progress=progress))
    for line in summary.failed:
        click.echo(f"error: {line}", err=True)
    if summary.store_error:
        click.echo(f"error: {summary.store_error}; the self-play stopped "
                   f"({summary.done} chunks written now)", err=True)
        sys.exit(2)
    store = _open(db, readonly=True)
    try:
        got = read_traces(store, hs)
    except ValueError:
        got = None
    store.close()
    doc = summary.as_dict()
    doc.pop("games_per_minute", None)
    doc.update({"db": db, "source": hs.source, "hands": hands, "chunk": hs.chunk,
                "chunks_done": summary.done, "chunks_stored_before": summary.skipped,
                "complete": got is not None})
    if got is not None:
        doc.update({"worker_cpu_seconds": round(got.cpu, 3),
                    "worker_wall_seconds": round(got.wall, 3),
                    "hands_per_second_per_core": round(got.rate(), 3)})
    if as_json:
        click.echo(json.dumps(doc, indent=2))
    else:
        rate = (f"; {got.rate():.2f} hands a second per core ({got.cpu:,.0f} worker CPU s)"
                if got is not None else "")
        Console().print(f"selfplay: {summary.done} chunks played, {summary.skipped} already in "
                        f"the store, {len(summary.failed)} failed{rate}; store {db}",
                        highlight=False)
    if summary.interrupted:
        _exit_interrupted(f"{summary.done} chunks finished are in the store; the same "
                          f"command carries on")
    if summary.failed:
        sys.exit(1)


def _system(rules_name: str, settings: tuple[str, ...], players: int) -> str:
    """The rule system text of a preset and ``NAME=VALUE`` settings; ValueError
    naming a bad one, or a player count the preset does not know."""
    from ..match_equity.system import system_of
    from ..rules import check_players, preset
    from .params import settings_of
    over = settings_of(settings)
    rules = preset(rules_name).with_overrides(over)
    check_players(rules, players, "--set" if "players" in over else None, "use --players {}")
    return system_of(rules)


def _run(job, paths, options, db, scheduler, workers, resume, as_json, quiet,
         dashboard="127.0.0.1:0") -> None:
    from ..batch.run import plan_batch, run_batch
    try:
        files = files_of(paths)
    except InputError as e:
        _fail(str(e))
    store = _open(db)
    items = list(games_of(files))
    planned = plan_batch(job, items, options, store, resume=resume)
    if planned[1] or planned[0].store_error:
        # a file with no game is not a game: said apart
        empty = sum(item.no_game for item in items)
        what = (f"{counted(len(items) - empty, 'game')} from {counted(len(files), 'file')}"
                + (f" ({empty} with no game)" if empty else ""))
        summary = _on_cluster(job, what, store,
                              scheduler, workers, quiet, "games", dashboard,
                              lambda client, progress: run_batch(job, items, options, store,
                                                                 client, progress=progress,
                                                                 planned=planned))
    else:           # nothing left to do: no cluster to start
        store.close()
        summary = planned[0]
    # the files with no game (as annotate says it), then the games that failed
    for line in summary.no_game + summary.failed:
        click.echo(f"error: {line}", err=True)
    if summary.store_error:
        click.echo(f"error: {summary.store_error}; the batch stopped "
                   f"({summary.done} games written now)", err=True)
    doc = summary.as_dict()
    doc["db"] = db
    if as_json:
        click.echo(json.dumps(doc, indent=2))
    else:
        Console().print(_said(job, summary, doc, db), highlight=False)
    if summary.interrupted:
        _exit_interrupted(f"{summary.done} games finished are in the store; --resume carries on")
    if summary.store_error:
        sys.exit(2)
    if summary.failed or summary.no_game:
        sys.exit(1)


def _said(job: str, summary, doc: dict, db: str) -> str:
    """The one-line summary of a batch annotate or mine, in words: what
    was done now, what the store had, what failed (the errors are printed
    above it); what was searched (annotate) or found (mine) only when a
    game was done."""
    failures = [f"{len(summary.failed)} failed"]
    if summary.no_game:
        failures.append(f"{counted(len(summary.no_game), 'file')} with no game")
    failures = ", ".join(failures) + (" (above)" if summary.failed or summary.no_game else "")
    if not summary.workers and not summary.store_error and not summary.skipped:
        # every game failed before a search (none read, or none valid)
        return f"{job}: no game to run: {failures}; store {db}"
    if not summary.workers and not summary.store_error:
        return (f"{job}: nothing left to do: {counted(summary.skipped, 'game')} already in "
                f"the store, {failures}; store {db}")
    done = (f"{counted(summary.done, 'game')} done" if summary.done
            else "no game done")
    text = (f"{job}: {done}, {summary.skipped} already in the store"
            + (f" ({summary.changed} changed since, done again)" if summary.changed else "")
            + f", {failures}")
    if summary.done:        # what the games done cost, and found
        if job == "mine":
            found = counted(summary.puzzles, "puzzle") if summary.puzzles else "no puzzle"
            text += f"; {found} found"
        elif summary.searched:
            text += (f"; {counted(summary.searched, 'evaluation')} searched, "
                     f"{summary.hits} from the store")
        elif summary.hits:
            text += f"; no evaluation searched: all {summary.hits} from the store"
        else:
            text += "; no evaluation needed"
        text += (f"; {doc['games_per_minute']} games a minute on "
                 f"{counted(summary.workers, 'worker')}")
    return text + f"; store {db}"


def _on_cluster(job, what, store, scheduler, workers, quiet, unit, dashboard, work):
    """Connect to the cluster, run ``work(client, progress)`` with a progress
    bar on stderr (a terminal) and the signals turned into an interruption,
    close everything (the store too); returns the batch summary
    (``interrupted`` set by a signal, whose status :func:`_exit_interrupted`
    gives)."""
    from ..batch.run import connect
    err = Console(stderr=True)
    try:
        client, cluster = connect(scheduler, workers or os.cpu_count() or 1, dashboard)
    except (OSError, TimeoutError, ValueError) as e:
        store.close()
        _fail(f"--scheduler: cannot reach {scheduler}: {e}")
    if not quiet:
        link = getattr(client, "dashboard_link", None)
        where = scheduler or f"local cluster, {counted(len(client.nthreads()), 'worker')}"
        err.print(f"{job}: {what} on {where}"
                  + (f"; dashboard {link}" if link else ""), highlight=False)
    bar = None
    if not quiet and err.is_terminal:
        bar = Progress(TextColumn(f"[bold]{job}"), BarColumn(), MofNCompleteColumn(),
                       TextColumn("{task.fields[rate]}"), TimeElapsedColumn(),
                       TimeRemainingColumn(), console=err, transient=True)
        task = bar.add_task(job, total=None, rate="")
        bar.start()

    def progress(s, total) -> None:
        if bar is not None:
            rate = 60 * s.done / max(1e-9, _elapsed[0]()) if s.done else 0
            bar.update(task, total=total, completed=s.done + len(s.failed),
                       rate=f"{rate:.1f} {unit}/min")

    import time
    from ..runtime.interrupt import Signals
    t0 = time.perf_counter()
    _elapsed = [lambda: time.perf_counter() - t0]
    with Signals() as sig:
        try:
            summary = work(client, progress)
        finally:
            if bar is not None:
                bar.stop()
            client.close()
            if cluster is not None:
                cluster.close()
            store.close()
        if summary.interrupted:
            # the caller prints the summary of what is kept, then exits
            _SIGNAL[0] = sig.handled()
    return summary


#: the signal that interrupted the last batch of this process
_SIGNAL: list = [2]


def _exit_interrupted(kept: str) -> None:
    """Say the batch was interrupted, what it ``kept``, and exit with the
    signal's status."""
    from ..runtime.interrupt import exit_interrupted
    exit_interrupted(_SIGNAL[0], kept)


@click.group("db", context_settings=_SETTINGS)
def db() -> None:
    """Read the analysis store: what it holds, and its contents as CSV or
    JSON lines."""


@db.command("stats", context_settings=_SETTINGS)
@click.option("--db", "path", default=DEFAULT_DB, show_default=True)
@click.option("--json", "as_json", is_flag=True)
def stats_cmd(path, as_json) -> None:
    """Counts of the store: evaluations by kind, games by job, size."""
    store = _open(path, readonly=True)
    try:
        s = store.stats()
        s["integrity"] = store.check()
    except StoreError as e:
        _fail(str(e))
    finally:
        store.close()
    if as_json:
        click.echo(json.dumps(s, indent=2))
        return
    t = Table(title=path, show_edge=False)
    t.add_column("what")
    t.add_column("count", justify="right")
    for kind, n in sorted(s["evaluations"].items()):
        t.add_row(f"evaluations ({kind})", f"{n:,}")
    for job, n in sorted(s["games"].items()):
        t.add_row(f"games ({job})", f"{n:,}")
    t.add_row("worker seconds", f"{s['worker_seconds']:,.1f}")
    t.add_row("bytes", f"{s['bytes']:,}")
    t.add_row("integrity", s["integrity"])
    Console().print(t)


@db.command("export", context_settings=_SETTINGS)
@click.option("--db", "path", default=DEFAULT_DB, show_default=True)
@click.option("--what", type=click.Choice(["games", "evaluations", "puzzles"]),
              default="games", show_default=True)
@click.option("--format", "fmt", type=click.Choice(["jsonl", "csv"]), default=None,
              help="jsonl (the default for games and evaluations) or csv. Puzzles are "
                   "written as a puzzle file (puzzle lines) unless --format is given: "
                   "then one JSON object or csv row a puzzle, its fields.")
@click.option("-o", "--output", default=None,
              help="Write to this file, whole or not at all (default: standard output).")
@click.option("--force", is_flag=True, help="Overwrite the -o file.")
def export_cmd(path, what, fmt, output, force) -> None:
    """Write the store's games (one per annotated or mined game), its
    evaluations, or the mined puzzles (a puzzle file: puzzle lines; with
    --format jsonl or csv, one object or row a puzzle: line, position and
    each puzzle field) to standard output or to the -o file."""
    import io
    from ..runtime.output import OutputError, check_output, is_stdout, write_output
    to_file = not is_stdout(output)
    if to_file:
        try:
            check_output(output, force)
        except OutputError as e:
            _fail(str(e))
    store = _open(path, readonly=True)
    out = io.StringIO() if to_file else sys.stdout
    try:
        _export(store, what, fmt, out)
    except StoreError as e:
        _fail(str(e) + ("" if to_file else "; the output stops there"))
    finally:
        store.close()
    if to_file:
        try:
            write_output(output, out.getvalue(), force)
        except OutputError as e:
            _fail(str(e))


def _export(store: Store, what: str, fmt: str, out) -> None:
    """Write ``what`` of ``store`` as ``fmt`` to the text stream ``out``
    (``fmt`` None: puzzle lines for puzzles, else jsonl)."""
    if what == "puzzles":
        lines = (line for g in store.games("mine") for line in g["result"].get("puzzles", []))
        if fmt is None:
            for line in lines:
                out.write(line + "\n")
            return
        from ..puzzles.mine import puzzle_row
        rows = (puzzle_row(line) for line in lines)
    else:
        rows = store.games() if what == "games" else store.evaluations()
    fmt = fmt or "jsonl"
    writer = None
    for row in rows:
        if fmt == "jsonl" and isinstance(row.get("params"), str):
            # a game's options as the JSON object they are (the store keeps
            # their canonical text, which the csv column keeps as it is)
            row = {**row, "params": _json_or_text(row["params"])}
        row = tidy(row)
        if fmt == "jsonl":
            out.write(json.dumps(row) + "\n")
            continue
        flat = {k: (json.dumps(v) if isinstance(v, (dict, list)) else v)
                for k, v in row.items()}
        if writer is None:
            from ..puzzles.mine import PUZZLE_FIELDS
            fields = PUZZLE_FIELDS if what == "puzzles" else list(flat)
            writer = csv.DictWriter(out, fieldnames=fields)
            writer.writeheader()
        writer.writerow(flat)


def _json_or_text(text: str):
    """``text`` read as JSON; the text itself when it is not JSON."""
    try:
        return json.loads(text)
    except ValueError:
        return text
