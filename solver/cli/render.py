"""Pictures of positions and analyses for the terminal (rich). Nothing here
computes a value; the JSON form is :mod:`solver.analysis.document`."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..analysis.evaluation import Analysis

from contextlib import contextmanager

from rich.console import Console, Group
from rich.markup import escape
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from ..analysis.document import exact_values, pv_text
from ..analysis.words import legend_lines, summary_line
from ..cards import RANKS, Card
from ..notation import unwritten_piles
from ..numbers import fraction_text, percent, percent_gap, points_gap, signed
from ..position import Position, side_names, seat_names


def _cards(cards: list[Card | None]) -> str:
    if not cards:
        return "-"
    return " ".join("?" if c is None else str(c) for c in cards)


#: the board's mark on the seat that leads the deal, and its legend line
LEADS = "(leads)"
LEADS_LEGEND = "(leads): plays first in each round of this deal (the seat after the dealer)"


def position_panel(pos: Position, title: str = "") -> Panel:
    """A readable drawing of a position: table, hands, stock, scores."""
    grid = Table.grid(padding=(0, 2))
    grid.add_column(style="bold")
    grid.add_column()
    grid.add_row("table", _cards(list(pos.table)) + (f"   (just played: {pos.prev})" if pos.prev else ""))
    names = seat_names(pos.players)
    leader = pos.leader()
    for seat, hand in enumerate(pos.hands):
        mark = "  ← to play" if seat == pos.turn else ""
        role = f" {LEADS}" if seat == leader and pos.players > 1 else ""
        grid.add_row(names[seat], _cards(list(hand)) + role + mark)
    if pos.stock_kind == "known":
        stock = f"{len(pos.stock)} cards, known order: {_cards(list(pos.stock))}" if pos.stock else "empty"
    elif pos.stock_kind == "shuffled":
        stock = f"{len(pos.stock)} cards, unknown order: {_cards(sorted(pos.stock, key=lambda c: c.index))}"
    else:
        stock = f"{pos.stock_count()} cards, the cards not seen"
    grid.add_row("stock", stock)
    sides = side_names(pos.players)
    grid.add_row("score", "  ".join(f"{s} {v}" for s, v in zip(sides, pos.scores()))
                 + f"   target {pos.rules.target}")
    missing = unwritten_piles(pos)
    if missing:
        piles = (f"not written ({missing} cards): the values count the cards still "
                 "to be won")
    else:
        piles = "  ".join(f"{s} {v}" for s, v in zip(sides, pos.pile_sizes()))
    last = f", last capture {names[pos.last]}" if pos.last is not None else ""
    grid.add_row("piles", piles + last)
    if pos.show:
        grid.add_row("on show", f"{pos.show.size} × {pos.show.rank}")
    grid.add_row("rules", pos.preset + (" " + " ".join(f"{k}={v}" for k, v in pos.overrides.items())
                                        if pos.overrides else ""))
    return Panel(grid, title=title, title_align="left")


def table_columns(a: Analysis, exact: bool = False) -> list[str]:
    """The columns of :func:`analysis_table` for ``a``, in order (the
    names :data:`solver.analysis.words.LEGEND` explains)."""
    cols = ["play"]
    if a.objective == "match":
        cols.append("win match")
        if a.chance_stderr is not None:
            cols.append("± %")
        cols.append("lost")
    cols.append("value")
    if a.values is not None:
        cols.append("seats")
    if exact and exact_values(a):
        cols.append("exact")
    if a.stderr is not None or a.method == "determinised":
        cols.append("± s.e.")
        if any(mv.best_rate is not None for mv in a.moves):
            cols.append("best in")      # not the fast mode's draws: no rate to show
    cols += ["loss", "effect"]
    return cols


def analysis_table(a: Analysis, exact: bool = False) -> Table:
    """Every play, best first: under the match objective its chance of
    winning the match and the chance lost against the best; its value in
    points, the points lost against the best value, and its effect; with
    ``exact``, an ``exact`` column holding each value as a fraction (exact
    and expectimax methods); sampled: the standard error and how often
    the play was best."""
    cols = table_columns(a, exact)
    sampled = "± s.e." in cols
    fractions = exact_values(a) if "exact" in cols else {}
    t = Table(show_edge=False, header_style="bold", pad_edge=False)
    for col in cols:
        if col == "seats":
            for name in seat_names(a.position.players):
                t.add_column(name, justify="right")
        else:
            t.add_column(col, justify="left" if col in ("play", "effect") else "right")
    for mv in a.moves:
        loss = a.value - mv.value
        row: list = []
        for col in cols:
            if col == "play":
                row.append(Text(mv.move, style="bold green" if mv.move in a.best else ""))
            elif col == "win match":
                row.append(percent(mv.chance))
            elif col == "± %":
                row.append("" if mv.chance_stderr is None else percent(mv.chance_stderr))
            elif col == "lost":
                row.append(percent_gap(a.chance or 0.0, mv.chance or 0.0))
            elif col == "value":
                row.append(signed(mv.value, ".2f") if sampled else _points(mv.value, a.method))
            elif col == "seats":
                row.extend(_entry(x, sampled) for x in (mv.values or []))
            elif col == "exact":
                f = fractions.get(mv.move)
                row.append("?" if f is None else _fraction(f))
            elif col == "± s.e.":
                row.append("-" if mv.stderr is None else f"{mv.stderr:.2f}")
            elif col == "best in":
                row.append("" if mv.best_rate is None else f"{100 * mv.best_rate:.0f}%")
            elif col == "loss":
                if mv.move in points_close(a) and loss > 1e-9:
                    row.append("close")     # within the estimate's error of the best
                else:
                    row.append(_loss(a.value, mv.value, a.method, sampled))
            elif col == "effect":
                row.append(mv.effect)
        t.add_row(*row)
    return t


def points_close(a: Analysis) -> list[str]:
    """The plays a loss cannot be told for points: the deal search's close
    plays (within the estimate's error of the best value: its ``close``,
    every play when no error was measured) and an equilibrium's whose
    deal ends at a learned value (within its error), under either
    objective (``best`` is the match's under the match objective); none
    for another method (its losses are established)."""
    if a.method in ("deal", "equilibrium"):
        return list(a.extra.get("close", a.best if a.method == "deal" else []))
    return []


def _loss(best: float, value: float, method: str, sampled: bool) -> str:
    """The loss column: exact half-points in full (``2.5``); otherwise the
    difference of the two printed values (:func:`solver.numbers.points_gap`,
    whole points without decimals as the value column writes them), so that
    a loss never reads 0.01 between two values printed alike: "<0.01"
    there, or nothing when sampled (a tie within the sampling error)."""
    if best - value <= 1e-9:
        return ""
    if method == "exact":
        return _points(best - value, method, sign=False)
    gap = points_gap(best, value)
    if gap == "<0.01":
        return "" if sampled else gap
    return gap[:-3] if gap.endswith(".00") and not sampled else gap


def _points(x: float, method: str, sign: bool = True) -> str:
    """A value in points as the method gives it: exact half-points in full
    (``+4``, ``-2.5``, ``0``); an expectation or an equilibrium value to two
    decimals unless whole (``-2.64``; ``--exact`` and JSON have it all).
    Signed (:func:`solver.numbers.signed`: zero has no sign) unless not
    ``sign`` (a loss)."""
    if abs(x - round(x)) < 1e-9:
        x = float(round(x))     # a float's noise about a whole value (-4.4e-16) is the value
    spec = "g" if method == "exact" or x == round(x) else ".2f"
    return signed(x, spec) if sign else format(x, spec)


def _fraction(f) -> str:
    """An exact value for the ``exact`` column, signed as the ``value``
    column is (``+257/84``, ``-11/4``, ``0``)."""
    text = fraction_text(f)
    return "+" + text if f > 0 else text


def _unit(shown: str) -> str:
    """"point" after a value shown as one (``+1``, ``-1``), else "points"."""
    return "point" if shown.lstrip("+-") == "1" else "points"


def _entry(x: float, sampled: bool) -> str:
    return f"{x:.2f}" if sampled or x != int(x) else f"{x:g}"


def position_title(pos: Position, line: int, suffix: str = "") -> str:
    """The title of a position's panel: ``line N``, its id (markup-safe),
    who is to play, then ``suffix``."""
    title = f"line {line}"
    name = pos.opcode("id")
    if name:
        title += f"  {escape(name)}"
    return title + f"  ·  {pos.seat_name(pos.turn)} to play" + suffix


def analysis_renderable(a: Analysis, line: int, verdicts: list[str],
                        exact: bool = False, *, verbose: bool = False,
                        explained: set[str] | None = None) -> Group:
    """The whole human report of one analysed position line: the
    position, the plays (:func:`analysis_table`), the best play and its
    value (under the match objective its chance of winning the match, and
    the play points alone would choose when it differs), the principal
    variation, why the objective (one line), the answer in a player's
    words (:func:`solver.analysis.words.summary_line`), a legend for the
    board's ``(leads)`` and each column not yet in ``explained`` (which
    receives them: a whole run explains each once), and with ``verbose`` the engineering
    note, nodes and time."""
    pos = a.position
    match = a.objective == "match"
    title = position_title(pos, line, "  ·  playing for the match" if match else "")
    parts = [position_panel(pos, title), analysis_table(a, exact)]
    best = ", ".join(a.best)
    value = (f"{signed(a.value, '.2f')} ± {a.stderr:.2f}" if a.stderr is not None
             else _points(a.value, a.method))
    summary = Text()
    summary.append("best ", style="bold")
    summary.append(best, style="bold green")
    side = f"{pos.seat_name(pos.turn)}'s side" if pos.players != 3 else pos.seat_name(pos.turn)
    if match:
        summary.append(f"   {percent(a.chance)} to win the match for {side}\n")
        top = max(mv.value for mv in a.moves)
        by_points = [mv for mv in a.moves if abs(mv.value - top) <= 1e-9]
        if not {mv.move for mv in by_points} & set(a.best):
            summary.append(f"by points alone: {', '.join(mv.move for mv in by_points)} "
                           f"({_points(top, a.method)} {_unit(_points(top, a.method))} "
                           f"against {_points(a.moves[0].value, a.method)})\n",
                           style="yellow")
    elif a.values is not None:
        vec = "  ".join(f"{n} {_entry(x, a.stderr is not None)}"
                        for n, x in zip(seat_names(pos.players), a.values))
        summary.append(f"   value {value} {_unit(value)} for {side} ({vec})\n")
    else:
        summary.append(f"   value {value} {_unit(value)} for {side}\n")
    if a.pv:
        summary.append("pv    ", style="bold")
        summary.append(pv_text(pos, a.pv) + "\n")
    # what kind of answer it is first, then why the objective is what it is
    summary.append(summary_line(a), style="bold" if a.partial else "")
    if a.objective_note:
        summary.append("\n" + a.objective_note, style="cyan")
    if a.partial:
        summary.append("\npartial: interrupted, the answer so far", style="bold red")
    parts.append(summary)
    if verbose:
        workers = f", {a.workers} workers" if a.workers > 1 else ""
        parts.append(Text(f"{a.method}: {a.note}; {a.nodes:,} nodes, {a.seconds:.3f} s{workers}",
                          style="dim"))
    seen = explained if explained is not None else set()
    legend = []
    if LEADS not in seen:          # the board's marker (position_panel), once a run
        seen.add(LEADS)
        legend.append(LEADS_LEGEND)
    legend += legend_lines(table_columns(a, exact), seen)
    if legend:
        parts.append(Text("\n".join(legend), style="dim"))
    for v in verdicts:
        parts.append(Text(v, style="green" if "agrees" in v else "bold red"))
    return Group(*parts)


@contextmanager
def sampling_progress(console: Console, samples: int):
    """A progress callback for determinised search, drawn on ``console``
    (stderr) only when it is a terminal: samples done, the current best
    play, its lead in standard errors. Yields the callback."""
    if not console.is_terminal:
        yield None
        return
    progress = Progress(TextColumn("[bold]sampling"), BarColumn(),
                        TextColumn("{task.completed}/{task.total}"),
                        TextColumn("{task.fields[best]}"), TimeElapsedColumn(),
                        console=console, transient=True)
    task = progress.add_task("sampling", total=samples, best="")

    def update(result) -> None:
        moves = result.moves
        lead = ""
        if len(moves) > 1 and moves[1].lead_z == float("inf"):
            lead = ", ahead in every sample"
        elif len(moves) > 1 and moves[1].lead_z is not None:
            lead = f", lead {moves[1].lead_z:.1f} s.e."
        progress.update(task, completed=result.samples,
                        best=f"best so far: {RANKS[moves[0].move]}{lead}")

    with progress:
        yield update
