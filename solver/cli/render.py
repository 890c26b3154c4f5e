"""Pictures of positions and analyses for the terminal (rich). Nothing here
computes a value; the JSON form is :mod:`solver.analysis.document`."""

from __future__ import annotations

from contextlib import contextmanager

from rich.console import Console, Group
from rich.markup import escape
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from ..analysis.evaluation import Analysis
from ..analysis.document import exact_values, pv_text
from ..cards import RANKS, Card, format_cards
from ..notation import format_position
from ..numbers import deal_denominator, exact_fraction, fraction_text, plain, tidy
from ..position import Position, side_names, seat_names


def _cards(cards: list[Card | None]) -> str:
    if not cards:
        return "-"
    return " ".join("?" if c is None else str(c) for c in cards)


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
        role = " (leads)" if seat == leader and pos.players > 1 else ""
        grid.add_row(names[seat], _cards(list(hand)) + role + mark)
    if pos.stock_kind == "known":
        stock = f"{len(pos.stock)} cards, known order: {_cards(list(pos.stock))}" if pos.stock else "empty"
    elif pos.stock_kind == "shuffled":
        stock = f"{len(pos.stock)} cards, unknown order: {format_cards(sorted(pos.stock, key=lambda c: c.index))}"
    else:
        stock = "unknown (every card not seen)"
    grid.add_row("stock", stock)
    sides = side_names(pos.players)
    grid.add_row("score", "  ".join(f"{s} {v}" for s, v in zip(sides, pos.scores()))
                 + f"   target {pos.rules.target}")
    piles = "  ".join(f"{s} {v}" for s, v in zip(sides, pos.pile_sizes()))
    last = f", last capture {names[pos.last]}" if pos.last is not None else ""
    grid.add_row("piles", piles + last)
    if pos.show:
        grid.add_row("on show", f"{pos.show.size} × {pos.show.rank}")
    grid.add_row("rules", pos.preset + (" " + " ".join(f"{k}={v}" for k, v in pos.overrides.items())
                                        if pos.overrides else ""))
    return Panel(grid, title=title, title_align="left")


def analysis_table(a: Analysis, exact: bool = False) -> Table:
    """Every play with its value, loss against the best, and effect; with
    ``exact``, an ``exact`` column holding each value as a fraction (exact
    and expectimax methods)."""
    sampled = a.method == "determinised"
    estimated = sampled or a.method == "deal"
    fractions = exact_values(a) if exact else {}
    t = Table(show_edge=False, header_style="bold")
    t.add_column("play")
    t.add_column("value", justify="right")
    vectors = a.values is not None      # three players: one column per seat
    if vectors:
        for name in seat_names(a.position.players):
            t.add_column(name, justify="right")
    if fractions:
        t.add_column("exact", justify="right")
    if sampled:
        t.add_column("± s.e.", justify="right")
        t.add_column("best in", justify="right")
    t.add_column("loss", justify="right")
    t.add_column("effect")
    for mv in a.moves:
        loss = a.value - mv.value
        row = [Text(mv.move, style="bold green" if mv.move in a.best else ""),
               f"{mv.value:+.2f}" if estimated else f"{mv.value:+g}"]
        if vectors:
            row.extend(_entry(x, sampled) for x in (mv.values or []))
        if fractions:
            f = fractions.get(mv.move)
            row.append("?" if f is None else ("+" if f > 0 else "") + fraction_text(f))
        if sampled:
            row.append("-" if mv.stderr is None else f"{mv.stderr:.2f}")
            row.append(f"{100 * (mv.best_rate or 0):.0f}%")
        if a.method == "deal" and mv.move in a.best:
            row.append("close" if loss > 1e-9 else "")
        else:
            row.append("" if loss <= 1e-9 else (f"{loss:.2f}" if estimated else f"{loss:g}"))
        row.append(mv.effect)
        t.add_row(*row)
    return t


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
                        exact: bool = False) -> Group:
    """The whole human report of one analysed position line (``exact``: the
    values as fractions too, see :func:`analysis_table`)."""
    pos = a.position
    parts = [position_panel(pos, position_title(pos, line)), analysis_table(a, exact)]
    best = ", ".join(a.best)
    value = (f"{a.value:+.2f} ± {a.stderr:.2f}" if a.stderr is not None else
             f"{a.value:+.2f}" if a.method == "deal" else f"{a.value:+g}")
    summary = Text()
    summary.append("best ", style="bold")
    summary.append(best, style="bold green")
    if a.values is not None:
        vec = "  ".join(f"{n} {_entry(x, a.method != 'exact')}"
                        for n, x in zip(seat_names(pos.players), a.values))
        summary.append(f"   value {value} points for {pos.seat_name(pos.turn)} ({vec})\n")
    else:
        summary.append(f"   value {value} points for {pos.seat_name(pos.turn)}'s side\n")
    if a.pv:
        summary.append("pv    ", style="bold")
        summary.append(pv_text(pos, a.pv) + "\n")
    workers = f", {a.workers} workers" if a.workers > 1 else ""
    summary.append(f"{a.method}: {a.note}; {a.nodes:,} nodes, {a.seconds:.3f} s{workers}",
                   style="dim")
    if a.partial:
        summary.append("\npartial: interrupted, the answer so far", style="bold red")
    parts.append(summary)
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
        if len(moves) > 1 and moves[1].lead_z is not None:
            lead = f", lead {moves[1].lead_z:.1f} s.e."
        progress.update(task, completed=result.samples,
                        best=f"best so far: {RANKS[moves[0].move]}{lead}")

    with progress:
        yield update
