"""Tables for played games: annotations, arena and self-play summaries
(rich). Nothing here computes a value."""

from __future__ import annotations

from rich.console import Group
from rich.table import Table
from rich.markup import escape
from rich.text import Text

from ..games.annotate import Annotation, shown_loss
from ..numbers import points_gap, signed
from ..position import seat_names

MARK_STYLE = {"??": "bold red", "?": "red", "?!": "yellow", "!": "green", "!!": "bold green"}


def full_width(*parts) -> Group:
    """``parts`` with each table's caption moved under it as a line of its
    own: a caption is only as wide as its table, a line the whole
    terminal (80 columns read better than a narrow column of words)."""
    out: list = []
    for part in parts:
        if isinstance(part, Group):
            out.extend(full_width(*part.renderables).renderables)
        elif isinstance(part, Table) and part.caption:
            caption = str(part.caption)
            part.caption = None
            out += [part, Text(caption, style="dim")]
        else:
            out.append(part)
    return Group(*out)


def annotation_renderable(an: Annotation, title: str = "", all_plays: bool = False) -> Group:
    """The plays of an annotated game (those with a choice; every play
    when ``all_plays``), one table a hand, then the per-player summary and
    the luck."""
    g = an.record
    names = seat_names(g.players)
    parts: list = []
    if title:
        parts.append(Text(title, style="bold"))
    tags = g.tags
    parts.append(Text("players: " + ", ".join(f"{s} {n}" for s, n in zip(names, g.names))))
    parts.append(Text(f"rules {g.rules.system()}, target {g.target}, view {an.view}"
                      + (f", {an.samples} determinisations" if an.view == "player" else "")
                      + f", result {tags.get('Result', '*')}", style="dim"))
    hands = sorted({n.hand for n in an.notes})
    for i, h in enumerate(hands):
        t = Table(title=f"hand {h}", title_justify="left", show_edge=False,
                  header_style="bold")
        if i == 0:      # the columns, explained once
            t.caption = ("value: points for the mover's side to the end of the hand; best, "
                         "best value, loss: the best play when the play made gave up points; "
                         "note: a play that misses or gives away the match; close: a loss "
                         "within the estimate's error, so not marked")
            t.caption_justify = "left"
        for col, just in (("deal.play", "left"), ("seat", "left"), ("card", "left"),
                          ("value", "right"), ("best", "left"), ("best value", "right"),
                          ("loss", "right"), ("note", "left")):
            t.add_column(col, justify=just)  # type: ignore[arg-type]
        forced = 0
        for n in an.notes:
            if n.hand != h:
                continue
            if n.forced:
                forced += 1
                if not all_plays:
                    continue
                t.add_row(f"{n.deal}.{n.number}", names[n.seat], n.card, "", "", "", "",
                          Text("forced", style="dim"))
                continue
            style = MARK_STYLE.get(n.mark, "")
            # another best only for a loss that shows; sampled, not between two
            # values printed alike (a tie within the error, as ronda-solve's table)
            gap = points_gap(n.best_value, n.value) if n.best_value is not None else ""
            named = shown_loss(n.loss) and not (gap == "<0.01" and n.stderr is not None)
            cut = ("*" if n.method == "one-ply" else
                   "~" if n.cut and an.time_budget is not None else "")
            t.add_row(f"{n.deal}.{n.number}", names[n.seat], Text(n.card + n.mark, style=style),
                      f"{cut}{signed(n.value, '.2f')}", (n.best or "") if named else "",
                      signed(n.best_value, ".2f") if named else "",
                      # the printed values' difference (points_gap): never 0.01
                      # between two values that print alike
                      Text(gap, style=style) if named else "",
                      n.match_note or ("close" if n.close and named else ""))
        parts.append(t)
        if forced and not all_plays:
            parts.append(Text(f"  ({forced} forced plays not shown)", style="dim"))
    parts.append(summary_table(an))
    if g.players == 4:
        parts.append(side_table(an))
    if an.time_budget is not None:
        parts.append(Text(budget_line(an)))
    elif an.one_ply_plays():
        k = len(an.one_ply_plays())
        parts.append(Text(f"{k} play{'s' * (k != 1)} {ONE_PLY}"))
    return full_width(*parts)


#: the legend of a one-ply value's mark
ONE_PLY = "not searched (*: one ply: no search finished in the time)"


def budget_line(an: Annotation) -> str:
    """What ``--time`` cut short: the plays whose search it stopped (their
    values estimates, ``~`` in the tables; ``*``: no search finished, the
    values one ply deep) and the deals the luck drew
    (``--time 2 s a play and a deal's luck: 1 of 20 plays cut short (~: an
    estimate); each deal's luck from 3 to 24 of the 24 draws asked
    (--luck-samples), a new hand's expectation from 10 of 48``).
    """
    plays = sum(1 for n in an.notes if not n.forced)
    one_ply = len(an.one_ply_plays())
    text = (f"--time {an.time_budget:g} s a play and a deal's luck: "
            f"{sum(1 for n in an.cut_plays() if n.method != 'one-ply')} of {plays} plays cut "
            "short (~: an estimate)")
    if one_ply:
        text += f", {one_ply} {ONE_PLY}"
    drawn = [d.draws for d in an.luck if d.draws is not None]
    if drawn:
        low, high = min(drawn), max(drawn)
        span = f"{low}" if low == high else f"{low} to {high}"
        # (the draws asked, not the deals there could be: "of 2 possible
        # deals" read as if only two deals could come)
        text += (f"; each deal's luck from {span} of the {an.luck_samples} draws asked "
                 "(--luck-samples)")
        if an.opening_draws is not None:
            text += (f", a new hand's expectation from {an.opening_draws} of "
                     f"{2 * an.luck_samples}")
    short = sum(1 for d in an.luck if not d.searched)
    if short:
        text += (f"; {short} of {len(an.luck)} deals' luck counts their declarations only "
                 "(no time to value their cards)")
    return text


def summary_table(an: Annotation) -> Table:
    """Per player: plays with a choice, marks, total and average loss, and
    the side's points and luck (the players' names are in the line above
    the tables; the luck's standard error, the same for every side, is in
    the caption), narrow enough for 80 columns."""
    t = Table(title="summary", title_justify="left", show_edge=False, header_style="bold")
    for col in ("seat", "plays", "?! ? ??", "match", "loss", "per play", "points", "luck"):
        t.add_column(col, justify="left" if col == "seat" else "right")
    se = an.luck_stderr()
    for row in an.summary():
        t.add_row(row["seat"], str(row["plays"]),
                  f"{row['?!']} {row['?']} {row['??']}", str(row["match"]),
                  f"{row['total_loss']:.1f}", f"{row['average_loss']:.2f}",
                  str(row["points"]), signed(row["luck"], ".1f") if an.luck else "-")
    luck = (f"luck: the side's cards dealt less their expectation, summed over the deals "
            f"(± {se:.1f}, one standard error); " if an.luck else "")
    t.caption = (f"plays: with a choice; loss: points against the best play ({an.view} "
                 f"view), marks from ?! {an.thresholds.dubious:g}, ? "
                 f"{an.thresholds.mistake:g}, ?? {an.thresholds.blunder:g}; match: plays "
                 f"that miss or give away the match; points: the side's in this game; "
                 f"{luck}{an.seconds:.1f} s")
    t.caption_justify = "left"
    return t


def side_table(an: Annotation) -> Table:
    """Four players: the summary per side (partners' plays summed)."""
    t = Table(title="sides", title_justify="left", show_edge=False, header_style="bold")
    for col in ("side", "plays", "?! ? ??", "match", "loss", "per play", "points"):
        t.add_column(col, justify="left" if col == "side" else "right")
    for row in an.side_summary():
        t.add_row(row["side"], str(row["plays"]),
                  f"{row['?!']} {row['?']} {row['??']}", str(row["match"]),
                  f"{row['total_loss']:.1f}", f"{row['average_loss']:.2f}",
                  str(row["points"]))
    t.caption = "values and losses are points for the mover's side (S+N: SN, E+W: EW)"
    t.caption_justify = "left"
    return t


def _pm(mean: float | None, ci: float | None, fmt: str) -> str:
    """``mean ± ci`` as a player reads it: "none finished" without a mean,
    "(one: no interval)" without an interval."""
    if mean is None:
        return "none finished"
    text = signed(mean, fmt.lstrip("+")) if fmt.startswith("+") else format(mean, fmt)
    return text + (" (one: no interval)" if ci is None else f" ± {ci:{fmt.lstrip('+')}}")


def arena_table(s: dict) -> Table:
    """The arena summary (see :meth:`solver.games.arena.ArenaResult.summary`)."""
    t = Table(title=f"arena: {escape(s['a'])} (A) v {escape(s['b'])} (B), {s['rules']}, "
                    f"{s['players']} players, "
                    f"{s['pairs']} seat-{'rotated triples' if s['players'] == 3 else 'swapped pairs'}"
                    f" = {s['hands']} hands (seed {s['seed']})",
              title_justify="left", show_edge=False, header_style="bold")
    t.add_column("measure")
    t.add_column("value", justify="right")
    t.add_row("A's margin per hand", _pm(s["margin"], s["margin_ci95"], "+.3f"))
    if "adjusted" in s:
        t.add_row("A's margin less its luck", _pm(s["adjusted"], s["adjusted_ci95"], "+.3f"))
        t.add_row("A's luck per hand (0 expected)", _pm(s["luck"], s["luck_ci95"], "+.3f"))
    t.add_row("A's points per hand", _pm(s["a_points"], s["a_points_ci95"], ".3f"))
    t.add_row("B's points per hand", _pm(s["b_points"], s["b_points_ci95"], ".3f"))
    t.add_row("hands won / drawn / lost by A", f"{s['won']} / {s['drawn']} / {s['lost']}")
    cpu = " (CPU)" if s.get("clock") == "cpu" else ""
    t.add_row("thinking per hand, A / B",
              f"{s['a_seconds_per_hand']:.3f} s / {s['b_seconds_per_hand']:.3f} s{cpu}")
    over = "triples" if s["players"] == 3 else "pairs"
    t.caption = f"points; ± is the 95 % confidence interval over the {over}"
    if s.get("luck_note"):
        t.caption += "\n" + s["luck_note"]
    t.caption_justify = "left"
    return t


def play_table(rows: list[dict], swapped: bool = False) -> Table:
    """The self-play summary: per player (command-line order) its seat in
    the first game, games won and points per hand with a 95 % CI
    (``swapped``: the seats changed between the games, said in the caption)."""
    t = Table(title="self-play", title_justify="left", show_edge=False, header_style="bold")
    for col in ("seat", "player", "games", "won", "hands", "points per hand"):
        t.add_column(col, justify="left" if col in ("seat", "player") else "right")
    for r in rows:
        t.add_row(r["seat"], Text(r["player"]), str(r["games"]), str(r["won"]),
                  str(r["hands"]), _pm(r["points_per_hand"], r["ci95"], ".2f"))
    if swapped:
        t.caption = "seat: in game 1 (the seats rotate between games)"
        t.caption_justify = "left"
    return t
