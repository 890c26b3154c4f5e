"""The ``ronda-solve`` command: parse arguments, call the library, render.

``ronda-solve FILE...`` evaluates every position line of each file (``-``
reads standard input). Exit status: 0 when every line was evaluated and
every ``bm``/``am``/``v`` opcode agrees, 1 when a line could not be read or
searched, 2 for a usage error, 3 when a test-suite opcode disagrees, 130
when interrupted by Ctrl-C (SIGINT), 143 by SIGTERM, 129 by SIGHUP: the
search threads stop, the lines already answered and the answer so far
(marked partial) are printed, and stderr says it was interrupted.
"""

from __future__ import annotations

import json
import sys

import click

from .. import __version__
from ..analysis.methods import METHODS, OBJECTIVES
from ..runtime.interrupt import (Signals, exit_if_interrupted, exit_if_signalled,
                                 exit_interrupted)
from ..runtime.streams import stream_error
from .params import (INTEGER, MEGABYTES, NO_POSITION, POSITIVE, InputFile, WORKERS, Whole,
                     input_name)

# What a command needs is imported when it runs (and the other commands'
# modules when they are named): `--version`, `--help`, `met`, `db` and a
# line that does not parse never load the compiled core (docs/performance.md).


#: the commands defined in other modules, loaded when named: name ->
#: (module, attribute, the short help shown by ``ronda-solve --help``,
#: which tests/test_startup.py checks against the command's own)
LAZY = {
    "annotate": (".games", "annotate_command",
                 "Evaluate every play of the games in GAME (a record file, `-` for stdin): "
                 "value, best play, loss, marks ?! ? ??, match-deciding plays, a summary per "
                 "player with the luck of the deal."),
    "arena": (".games", "arena_command",
              "Player A against player B over seat-swapped pairs of hands: A's margin per "
              "hand with a 95 % confidence interval."),
    "batch": (".batch", "batch",
              "Annotate or mine whole game collections on a Dask cluster, keeping every "
              "result in an analysis store (SQLite)."),
    "db": (".batch", "db",
           "Read the analysis store: what it holds, and its contents as CSV or JSON lines."),
    "met": (".met", "met_command",
            "Print a match-equity table: P(side A wins the match) from each score (A's "
            "points down, B's across), built by self-play (docs/match.md)."),
    "play": (".games", "play_command",
             "Play whole games between PLAYERS (one per seat: S N, or S E N W) and write "
             "their records."),
    "puzzles": (".puzzles", "puzzles", "Teaching puzzles: generate, check, quiz, print."),
    "serve": (".serve", "serve",
              "Serve the analysis board, the game viewer, the puzzle trainer and the play "
              "page at http://HOST:PORT/ (nothing is opened: point a browser there)."),
}


def _shortened(text: str, limit: int) -> str:
    """``text`` cut at a word to at most ``limit`` characters, ``...``
    marking the cut (as click shortens a command's help in a list)."""
    if len(text) <= limit:
        return text
    words, out = text.split(), ""
    for w in words:
        if len(out) + len(w) + (1 if out else 0) + 3 > limit:
            break
        out = f"{out} {w}" if out else w
    return out + "..."


class DefaultGroup(click.Group):
    """A group whose default command is ``solve``: ``ronda-solve FILE``
    means ``ronda-solve solve FILE``. The other commands' modules are
    loaded only when named (:data:`LAZY`). Whatever happens, no
    traceback: a signal before a command took charge of it exits with 128
    plus its number, an I/O error that no command caught (standard output
    on a full disk) is one line and exit 2."""

    def list_commands(self, ctx):
        """Every command's name, none loaded."""
        return sorted({*self.commands, *LAZY})

    def get_command(self, ctx, name):
        """The command ``name``, its module loaded now."""
        if name not in self.commands and name in LAZY:
            import importlib
            module, attr, _short = LAZY[name]
            self.add_command(getattr(importlib.import_module(module, __package__), attr), name)
        return self.commands.get(name)

    def format_commands(self, ctx, formatter):
        """The command list of ``--help`` from :data:`LAZY`'s short helps
        (loading no command's module)."""
        names = self.list_commands(ctx)
        limit = formatter.width - 6 - max(len(n) for n in names)
        rows = [(name, _shortened(LAZY[name][2], limit) if name in LAZY
                 else self.commands[name].get_short_help_str(limit)) for name in names]
        with formatter.section("Commands"):
            formatter.write_dl(rows)

    def parse_args(self, ctx, args):
        """Route arguments that name no command to ``solve``; no arguments
        show the help of the whole program (its usage, then every command)."""
        if args and args[0] not in self.list_commands(ctx) and args[0] not in ("--help", "-h", "--version"):
            _no_such_command(args[0], self.list_commands(ctx))
            args = ["solve", *args]
            ctx.meta[IMPLICIT] = True
        elif not args:
            args = ["--help"]
        return super().parse_args(ctx, args)

    def make_context(self, *args, **kwargs):
        try:
            return super().make_context(*args, **kwargs)
        except KeyboardInterrupt as e:
            exit_interrupted(e)

    def invoke(self, ctx):
        try:
            out = super().invoke(ctx)
            exit_if_signalled()     # a signal a library swallowed
            return out
        except KeyboardInterrupt as e:      # a command that keeps nothing
            exit_interrupted(e)
        except (ImportError, RuntimeError) as e:
            # a signal that landed in a module's import (a command loads
            # its engine lazily) fails that import with the interruption
            # as its context, or a class being made with it as the cause
            # ("Error calling __set_name__"): an interruption, not a crash
            exit_if_interrupted(e)
            raise

    def main(self, *args, **kwargs):
        """Run the command; then flush standard output, so that a full disk
        is reported here in one line rather than by Python at exit."""
        try:
            try:
                return super().main(*args, **kwargs)
            finally:
                if sys.stdout is not None:
                    sys.stdout.flush()
        except OSError as e:
            stream_error(e)


#: ``ctx.meta`` key: the command line named no command (``solve`` is implied)
IMPLICIT = "ronda-solve.implicit-solve"


class SolveCommand(click.Command):
    """``solve``, whose usage line is the one typed: ``ronda-solve [OPTIONS]
    FILES...`` when no command was named (the hint still points to
    ``ronda-solve solve --help``, which lists its options)."""

    def format_usage(self, ctx, formatter):
        if ctx.meta.get(IMPLICIT) and ctx.parent is not None:
            formatter.write_usage(ctx.parent.command_path,
                                  " ".join(self.collect_usage_pieces(ctx)))
        else:
            super().format_usage(ctx, formatter)


def _no_such_command(word: str, commands: list[str]) -> None:
    """A first argument that is neither a file nor a command but looks like
    a command's name (a word, no path, no dot): one line and exit 2,
    rather than solve's 'no such file'."""
    import os
    import re
    if os.path.exists(word) or not re.fullmatch(r"[A-Za-z][A-Za-z0-9_-]{0,39}", word):
        return
    import difflib
    close = difflib.get_close_matches(word, commands, n=1)
    hint = f"; did you mean '{close[0]}'?" if close else ""
    click.echo(f"error: no such file or command {word!r} (commands: {', '.join(commands)}"
               f"{hint})", err=True)
    sys.exit(2)


@click.group(cls=DefaultGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="ronda-solve")
def main() -> None:
    """Ronda analysis engine. `ronda-solve FILE` evaluates every position in FILE."""


@main.command(cls=SolveCommand)
@click.argument("files", nargs=-1, required=True, type=InputFile("rb"))
@click.option("--json", "as_json", is_flag=True, help="Print one JSON document instead of tables.")
@click.option("--jsonl", "as_jsonl", is_flag=True,
              help="Print one JSON object a line, as each line is evaluated (streaming).")
@click.option("--method", type=click.Choice(METHODS), default="auto", show_default=True,
              help="exact: every card known; expectimax: hands known, stock order not; "
                   "equilibrium: the mover's view in the last two deals; determinised: sample "
                   "unknown cards; auto: the best that fits.")
@click.option("--samples", type=Whole(1), default=1000, show_default=True,
              help="Most determinisations (it stops earlier once the best play is separated at 99%).")
@click.option("--seed", type=INTEGER, default=0, show_default=True, help="Seed of the sampling.")
@click.option("--workers", type=WORKERS, default=None,
              help="Threads for the search (sampling, expectimax's root moves) "
                   "[default: the machine's cores].")
@click.option("--time", "time_budget", type=POSITIVE, default=10.0,
              show_default=True, help="Seconds a position may take, whatever the method.")
@click.option("--memory", "memory_mb", type=MEGABYTES, default=2048.0,
              show_default=True, help="MB the search's tables may take, whatever the method.")
@click.option("--inference/--no-inference", default=True, show_default=True,
              help="Weigh the determinisations, the deal search's and the equilibrium's "
                   "hands by the other seats' plays this deal (hist=).")
@click.option("--exact", "exact", is_flag=True,
              help="Also give each value as an exact fraction (exact and expectimax methods).")
@click.option("--objective", type=click.Choice(OBJECTIVES), default="auto", show_default=True,
              help="points: the points of the hand; match: the chance of winning the match "
                   "(docs/match.md); auto: points, unless the line writes a score= and the "
                   "target can be reached in this hand (then the match, and it says so).")
@click.option("-v", "--verbose", is_flag=True,
              help="Also print the engineering detail of each answer: how the method ran, "
                   "nodes, seconds.")
@click.option("--search", type=click.Choice(("maxn", "paranoid")), default="maxn",
              show_default=True,
              help="Three players: maxn (each seat maximises its own points) or paranoid "
                   "(the other two minimise the mover's); ignored, with a note, for two sides.")
@click.option("--scheduler", default=None, metavar="tcp://HOST:PORT",
              help="With --method expectimax: split the search over this Dask cluster "
                   "(its first chance level's outcomes, each solved on a worker).")
@click.option("--cluster", "cluster_workers", type=WORKERS, default=None,
              metavar="N", help="With --method expectimax: the same on a local cluster of "
                                "N worker processes.")
@click.option("--db", default=None, metavar="PATH",
              help="With --scheduler or --cluster: keep each finished outcome in this "
                   "analysis store, so that a stopped search resumes where it was.")
@click.option("--fast", type=Whole(2), default=None, metavar="DEALS",
              help="With --method expectimax: the FAST MODE, approximate: the next deal drawn "
                   "DEALS times by probability, every later deal exact; values with their "
                   "standard errors and the error measured on the bench.")
def solve(files, as_json, as_jsonl, method, samples, seed, workers, time_budget, memory_mb,
          inference, exact, objective, verbose, search, scheduler, cluster_workers, db,
          fast) -> None:
    """Evaluate every position line in FILES (`-` for standard input), each
    as it is read."""
    if as_json and as_jsonl:
        raise click.UsageError("--json and --jsonl cannot be given together")
    if (scheduler or cluster_workers) and method != "expectimax":
        raise click.UsageError("--scheduler and --cluster split an exact expectimax: "
                               "give --method expectimax")
    if scheduler and cluster_workers:
        raise click.UsageError("--scheduler and --cluster cannot be given together")
    if fast and method != "expectimax":
        raise click.UsageError("--fast samples expectimax's next deal: give --method expectimax")
    if fast and (scheduler or cluster_workers):
        raise click.UsageError("--fast runs on this machine: not with --scheduler or --cluster")
    if db and not (scheduler or cluster_workers):
        raise click.UsageError("--db keeps a cluster search's outcomes: give --scheduler "
                               "or --cluster")
    from rich.console import Console
    from rich.text import Text
    from ..notation import NotationError, field_error, parse_lines
    from ..search.pimc import default_workers
    out = Console(soft_wrap=False)
    err = Console(stderr=True, soft_wrap=True)
    workers = workers or default_workers()
    cluster = None
    if scheduler or cluster_workers:
        cluster = _cluster(scheduler, cluster_workers, db, memory_mb)
    results, errors = [], []
    failed = mismatch = interrupted = False
    agree = disagree = 0
    machine = as_json or as_jsonl
    explained: set[str] = set()     # the columns whose legend is on screen already

    def error(entry: dict, text: str) -> None:
        nonlocal failed
        failed = True
        if as_jsonl:
            _jsonl(entry)
        elif as_json:
            errors.append(entry)
        else:
            # every command's error lines begin alike: "error: FILE: line N, ..."
            err.print(Text(f"error: {text}", style="bold red"))

    answered = 0
    partial = False
    told_search = False
    with Signals() as sig:
        try:
            for f in files:
                name = input_name(f)
                lines = 0
                for lineno, item in parse_lines(f):
                    lines += 1
                    if isinstance(item, NotationError):
                        # JSON gives the line in its own key, not again in the text
                        error({"file": name, "line": lineno, "error": field_error(item)},
                              f"{name}: {item}")
                        continue
                    from ..analysis.document import analysis_json
                    from ..analysis.suite import verdicts
                    from ..engine.compile import CompileError
                    from ..match_equity.objective import analyse
                    from .render import analysis_renderable, sampling_progress
                    try:
                        with sampling_progress(err, samples) as progress:
                            a = analyse(item, objective, method=method, samples=samples,
                                        seed=seed, workers=workers, time_budget=time_budget,
                                        memory_mb=memory_mb, progress=progress,
                                        inference=inference, search=search,
                                        cluster=cluster, fast=fast)
                    except (CompileError, ValueError) as e:
                        error({"file": name, "line": lineno, "error": field_error(e)},
                              f"{name}: line {lineno}, {field_error(e)}")
                        continue
                    if search != "maxn" and item.players != 3 and not told_search:
                        # once a run (the option was ignored without a word but
                        # in --verbose's note)
                        click.echo(f"note: --search {search} is for three players; with two "
                                   "sides max^n and paranoid are the same minimax", err=True)
                        told_search = True
                    checks = verdicts(a)
                    agree += sum(1 for _op, ok, _s in checks if ok)
                    disagree += sum(1 for _op, ok, _s in checks if not ok)
                    mismatch = mismatch or disagree > 0
                    if machine:
                        doc = analysis_json(a, lineno, exact)
                        doc["file"] = name
                        doc["suite"] = [{"opcode": op, "agrees": ok, "text": s}
                                        for op, ok, s in checks]
                        if as_jsonl:
                            _jsonl(doc)
                        else:
                            results.append(doc)
                    else:
                        texts = [s for _op, _ok, s in checks]
                        out.print(analysis_renderable(a, lineno, texts, exact,
                                                      verbose=verbose, explained=explained))
                        out.print()
                    if getattr(a, "partial", False):
                        interrupted = partial = True
                        break
                    answered += 1
                if interrupted:
                    break
                if not lines:
                    error({"file": name, "line": None, "error": NO_POSITION},
                          f"{name}: {NO_POSITION}")
        except KeyboardInterrupt as e:
            sig.caught(e)
            interrupted = True
        if as_json:
            json.dump({"positions": results, "errors": errors}, sys.stdout, indent=2)
            sys.stdout.write("\n")
        elif (agree or disagree) and not as_jsonl:
            style = "bold red" if disagree else "bold green"
            out.print(Text(f"test suite: {agree} agree, {disagree} disagree", style=style))
        if cluster is not None:
            cluster.close()
        if interrupted:
            sig.caught()
            sig.exit(f"{answered} position{'s' * (answered != 1)} answered"
                     + (", then the answer so far (partial)" if partial else ""))
    if failed:
        sys.exit(1)
    if mismatch:
        sys.exit(3)


def _jsonl(doc: dict) -> None:
    sys.stdout.write(json.dumps(doc) + "\n")
    sys.stdout.flush()


def _cluster(scheduler, workers, db, memory_mb):
    """The cluster an expectimax search is split over, with a progress line
    on stderr every few seconds; a one-line error (exit 1) when the
    scheduler or the store cannot be opened."""
    import time
    from rich.console import Console
    from rich.text import Text
    from ..batch.expectimax import Cluster
    from ..batch.store import StoreError
    err = Console(stderr=True, soft_wrap=True)
    last = [0.0]

    def progress(p) -> None:
        now = time.monotonic()
        if now - last[0] < 5 and p.done < p.total:
            return
        last[0] = now
        left = ""
        if p.done > p.stored and p.seconds > 0:
            rate = (p.done - p.stored) / p.seconds
            left = f", about {(p.total - p.done) / rate:,.0f} s left at this rate"
        err.print(f"expectimax on the cluster: {p.done:,} of {p.total:,} outcomes "
                  f"({p.stored:,} from the store), {p.seconds:,.0f} s{left}", highlight=False)

    try:
        return Cluster(scheduler, workers or 1, db, memory_mb=memory_mb, progress=progress)
    except StoreError as e:
        err.print(Text(f"--db: {e}", style="bold red"))
    except (OSError, TimeoutError, ValueError) as e:
        err.print(Text(f"--scheduler: cannot reach {scheduler}: {e}", style="bold red"))
    sys.exit(1)


if __name__ == "__main__":  # pragma: no cover
    from solver.cli.entry import run
    run()
