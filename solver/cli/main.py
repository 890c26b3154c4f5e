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
from rich.console import Console
from rich.text import Text

from .. import __version__
from ..analysis.evaluation import METHODS
from ..engine.compile import CompileError
from ..runtime.interrupt import Signals
from ..notation import NotationError, parse_lines
from ..analysis.document import analysis_json
from .render import analysis_renderable, sampling_progress
from ..search.pimc import default_workers
from ..analysis.suite import verdicts
from ..match_equity.evaluate import OBJECTIVES
from ..match_equity.objective import analyse


class Positive(click.FloatRange):
    """A positive, finite number (``nan`` and ``inf`` are refused)."""

    name = "positive number"

    def convert(self, value, param, ctx):
        """The float, or a usage error naming the option."""
        import math
        v = super().convert(value, param, ctx)
        if not math.isfinite(v):
            self.fail(f"{value!r} is not a finite number", param, ctx)
        return v


POSITIVE = Positive(0, min_open=True)


class DefaultGroup(click.Group):
    """A group whose default command is ``solve``: ``ronda-solve FILE``
    means ``ronda-solve solve FILE``."""

    def parse_args(self, ctx, args):
        """Route arguments that name no command to ``solve``; no arguments
        show ``solve``'s help."""
        if args and args[0] not in self.commands and args[0] not in ("--help", "-h", "--version"):
            args = ["solve", *args]
        elif not args:
            args = ["solve", "--help"]
        return super().parse_args(ctx, args)


@click.group(cls=DefaultGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="ronda-solve")
def main() -> None:
    """Ronda analysis engine. `ronda-solve FILE` evaluates every position in FILE."""


@main.command()
@click.argument("files", nargs=-1, required=True, type=click.File("rb"))
@click.option("--json", "as_json", is_flag=True, help="Print one JSON document instead of tables.")
@click.option("--jsonl", "as_jsonl", is_flag=True,
              help="Print one JSON object a line, as each line is evaluated (streaming).")
@click.option("--method", type=click.Choice(METHODS), default="auto", show_default=True,
              help="exact: every card known; expectimax: hands known, stock order not; "
                   "equilibrium: the mover's view in the last two deals; determinised: sample "
                   "unknown cards; auto: the best that fits.")
@click.option("--samples", type=click.IntRange(1), default=1000, show_default=True,
              help="Most determinisations (it stops earlier once the best play is separated at 99%).")
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the sampling.")
@click.option("--workers", type=click.IntRange(1), default=None,
              help="Threads for the search (sampling, expectimax's root moves) "
                   "[default: the machine's cores].")
@click.option("--time", "time_budget", type=POSITIVE, default=10.0,
              show_default=True, help="Seconds a position may take, whatever the method.")
@click.option("--memory", "memory_mb", type=POSITIVE, default=2048.0,
              show_default=True, help="MB the search's tables may take, whatever the method.")
@click.option("--inference/--no-inference", default=True, show_default=True,
              help="Weigh the determinisations by the other seats' plays this deal (hist=).")
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
def solve(files, as_json, as_jsonl, method, samples, seed, workers, time_budget, memory_mb,
          inference, exact, objective, verbose, search) -> None:
    """Evaluate every position line in FILES (`-` for standard input), each
    as it is read."""
    if as_json and as_jsonl:
        raise click.UsageError("--json and --jsonl cannot be given together")
    out = Console(soft_wrap=False)
    err = Console(stderr=True, soft_wrap=True)
    workers = workers or default_workers()
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
            err.print(Text(text, style="bold red"))

    answered = 0
    partial = False
    with Signals() as sig:
        try:
            for f in files:
                name = getattr(f, "name", "-")
                name = "-" if name == "<stdin>" else name
                for lineno, item in parse_lines(f):
                    if isinstance(item, NotationError):
                        error({"file": name, "line": lineno, "error": str(item)},
                              f"{name}: {item}")
                        continue
                    try:
                        with sampling_progress(err, samples) as progress:
                            a = analyse(item, objective, method=method, samples=samples,
                                        seed=seed, workers=workers, time_budget=time_budget,
                                        memory_mb=memory_mb, progress=progress,
                                        inference=inference, search=search)
                    except (CompileError, ValueError) as e:
                        msg = f"line {lineno}, position: {e}"
                        error({"file": name, "line": lineno, "error": msg}, f"{name}: {msg}")
                        continue
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
        except KeyboardInterrupt as e:
            sig.caught(e)
            interrupted = True
        if as_json:
            json.dump({"positions": results, "errors": errors}, sys.stdout, indent=2)
            sys.stdout.write("\n")
        elif (agree or disagree) and not as_jsonl:
            style = "bold red" if disagree else "bold green"
            out.print(Text(f"test suite: {agree} agree, {disagree} disagree", style=style))
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


# Teaching puzzles (the commands live in solver/cli/puzzles.py).
from .puzzles import puzzles as _puzzles  # noqa: E402

main.add_command(_puzzles)


from .games import annotate_command, arena_command, play_command  # noqa: E402

for _command in (play_command, arena_command, annotate_command):
    main.add_command(_command)


# Whole collections on a Dask cluster, and the analysis store (solver/batch/).
from .batch import batch as _batch, db as _db  # noqa: E402

main.add_command(_batch)
from .met import met_command  # noqa: E402
main.add_command(met_command)
main.add_command(_db)


# The web app (solver/web/): the analysis board, game viewer, puzzle trainer.
from .serve import serve as _serve  # noqa: E402

main.add_command(_serve)


if __name__ == "__main__":  # pragma: no cover
    main()
