"""An answer in a player's words: one short line saying what kind of
answer it is, how precise, and which plays are close; and a one-line
legend for each column of the tables. The engineering detail (nodes,
estimated seconds, strategy fusion, clairvoyance) stays in
``Analysis.note`` (``--verbose`` and JSON ``note``).

>>> from solver.notation import parse_position
>>> from solver.analysis.evaluation import evaluate
>>> summary_line(evaluate(parse_position("1.7 7.7.2/7.12 - S prev=7 taken=15,18 last=N")))
'exact: every card is known'
"""

from __future__ import annotations

import math

from .evaluation import Analysis
from ..numbers import counted
from ..search.pimc import Z_99

#: the half-width of a 99% interval in standard errors (``ci99``)
Z_CI99 = 2.58


def _names(moves: list[str]) -> str:
    """``5``, ``5 and 1``, ``5, 1 and 7``."""
    if len(moves) == 1:
        return moves[0]
    return ", ".join(moves[:-1]) + " and " + moves[-1]


def _count(n: int, word: str) -> str:
    return f"{n:,} {word}{'s' * (n != 1)}"


def _spread(a: Analysis, plays: list[str]) -> float:
    """The points between the highest and lowest value of ``plays``."""
    values = [mv.value for mv in a.moves if mv.move in plays]
    return max(values) - min(values) if values else 0.0


def close_plays(a: Analysis) -> list[str]:
    """The plays the answer cannot tell from the best one: the best plays,
    and when the values are estimates every play whose gap to the best is
    within the sampling error (paired: a lead under 2.33 standard errors,
    the sampling's own stopping rule; unpaired 99% intervals where the
    paired lead is not known; none when the sampling stopped because its
    own paired test separated the best play). Under the match objective
    the chances decide (none beyond the best when the match's sampling
    stopped by its paired test). Empty when the best play is alone and
    clear."""
    if a.objective == "match":
        top = a.moves[0]
        out = [mv.move for mv in a.moves if mv.move in a.best]
        # separated: the match's sampling stopped by its own paired test
        if top.chance_stderr is not None and a.match_stopped != "separated":
            for mv in a.moves:
                if mv.move in out or mv.chance is None:
                    continue
                se = math.hypot(top.chance_stderr or 0.0, mv.chance_stderr or 0.0)
                if top.chance - mv.chance <= Z_CI99 * se:
                    out.append(mv.move)
        return out if len(out) > 1 else []
    if a.method == "equilibrium" and "close" in a.extra:
        # the deal's end valued by a learned model: plays within its error
        out = list(a.extra["close"])
        return out if len(out) > 1 else []
    out = list(a.best)
    if a.stderr is None and a.method in ("determinised", "expectimax-fast"):
        # one sample (or draw): no error to tell plays apart, but a play
        # whose value is the best's is at least as good as the best
        out += [mv.move for mv in a.moves
                if mv.move not in out and abs(mv.value - a.value) <= 1e-9]
    if a.stderr is not None and a.stopped != "separated":   # separated: by its paired test
        top = a.moves[0]
        for mv in a.moves[1:]:
            if mv.move in out:
                continue
            if mv.lead_z is not None:
                close = mv.lead_z < Z_99
            elif mv.stderr is not None and top.stderr is not None:
                close = top.value - mv.value <= Z_CI99 * math.hypot(top.stderr, mv.stderr)
            else:
                close = False
            if close:
                out.append(mv.move)
    return out if len(out) > 1 else []


#: said of an estimate with no standard error (a single sample or draw):
#: "±0" would claim a precision it does not have
_NO_ERROR = " (no error measured: at least 2 are needed)"


def _kind(a: Analysis) -> str:
    """What kind of answer, and its precision."""
    hidden = any(c is None for h in a.position.hands for c in h)
    seat = a.position.seat_name(a.position.turn)
    what = "the hidden cards" if hidden else "the stock order"
    if a.objective == "match":
        if a.match_method == "exact":
            kind = "exact chance of winning the match (every card known)"
        elif a.match_method == "expectimax":
            kind = "exact chance of winning the match over the deals to come"
        elif a.chance_stderr is None:
            kind = (f"estimated chance from {_count(a.match_samples or 0, 'sample')} of "
                    f"{what}{_NO_ERROR}")
        else:
            se = a.chance_stderr
            kind = (f"estimated chance ±{100 * Z_CI99 * se:.1f}% (99%) from "
                    f"{_count(a.match_samples or 0, 'sample')} of {what}")
        return kind + _points_precision(a, seat)
    if a.method == "exact":
        return "exact: every card is known"
    if a.method == "one-ply":
        return ("no search finished in the time: each play valued only by what it takes "
                "and scores now (one ply)")
    if a.method == "expectimax":
        return "exact expectation over the deals to come"
    if a.method == "expectimax-fast":
        if a.stderr is None:
            return (f"FAST MODE estimate from {_count(a.samples or 0, 'draw')} of the next "
                    f"deal, later deals exact{_NO_ERROR}")
        return (f"FAST MODE estimate ±{Z_CI99 * a.stderr:.2g} (99%) from "
                f"{_count(a.samples or 0, 'draw')} of the next deal, later deals exact")
    if a.method == "equilibrium":
        err = a.extra.get("model_error")
        if err:
            return (f"exact within this deal for what {seat} knows (the other hand unseen); "
                    f"the deals to come a learned value (±{2 * err:.2g} between two plays)")
        return f"exact for what {seat} knows (the other hand unseen; the last two deals)"
    if a.method == "deal":
        err = a.extra.get("model_error") or 0.0
        cover = a.extra.get("coverage", 1.0)
        rest = (f"the deals to come a learned value (±{2 * err:.2g} between two plays)"
                if a.extra.get("deal_end_stock", 0) and err else "the deals to come exact")
        if not hidden:
            return f"this deal exact for the hands known; {rest}"
        if a.extra.get("enumerated") and a.extra.get("hands") == 1 and cover >= 1.0:
            # the cards not seen leave one hand: nothing is hidden in fact
            return f"this deal exact (what is seen and declared leaves one hand); {rest}"
        seen = _as_if_seen(a)
        if cover < 1.0:
            # the time ran out: say how much was searched, never "every hand"
            some = ("hands the other player may hold" if a.extra.get("enumerated")
                    else "drawn hands")
            what = (f"{a.extra.get('completions')} of the {a.extra.get('hands')} {some} "
                    f"({cover:.0%} of their weight; the time ran out)")
        else:
            what = (("every hand it may be" if seen.endswith("hand were seen")
                     else "every hand they may be") if a.extra.get("enumerated")
                    else "drawn hands")
        # each hand is solved with its cards seen by both players (strategy
        # fusion): an estimate of the mover's view, never called exact
        return f"{_deal_estimate(a)}: this deal {seen}, over {what}; {rest}"
    if a.stderr is None:
        return f"estimate from {_count(a.samples or 0, 'sample')} of {what}{_NO_ERROR}"
    return (f"estimate ±{Z_CI99 * a.stderr:.2g} (99%) from {_count(a.samples or 0, 'sample')} "
            f"of {what}")


def _deal_estimate(a: Analysis, word: str = "estimate") -> str:
    """``word``, and where the deal search stood in for the equilibrium
    that did not finish in the time (or did not fit), ``word (the exact
    equilibrium did not finish in the time)``."""
    failed = a.extra.get("instead_of")
    if failed == "equilibrium:time":
        return f"{word} (the exact equilibrium did not finish in the time)"
    if failed == "equilibrium:size":
        return f"{word} (the exact equilibrium did not fit)"
    if failed == "equilibrium:skip":
        return f"{word} (the equilibrium needs more time)"
    return word


def _as_if_seen(a: Analysis) -> str:
    """How the deal search solves the current deal for a hidden hand: as
    if it were seen (each hand completed, then solved by alpha-beta)."""
    pos = a.position
    hidden = [s for s, h in enumerate(pos.hands) if s != pos.turn and any(c is None for c in h)]
    return ("as if the other hands were seen" if len(hidden) > 1
            else "as if the other hand were seen")


def _points_precision(a: Analysis, seat: str) -> str:
    """Under the match objective, how precise the points column is (the
    points search's own method), "" when exact."""
    if a.stderr:
        return f"; points estimated ±{Z_CI99 * a.stderr:.2g}"
    if a.method == "equilibrium":
        err = a.extra.get("model_error")
        if err:
            return (f"; points exact within this deal for what {seat} knows, the deals to "
                    f"come learned (±{2 * err:.2g})")
        return f"; points exact for what {seat} knows"
    if a.method == "deal":
        err = a.extra.get("model_error") or 0.0
        learned = bool(a.extra.get("deal_end_stock", 0) and err)
        if not any(c is None for h in a.position.hands for c in h):
            if learned:
                return f"; points: this deal exact, the deals to come learned (±{2 * err:.2g})"
            return "; points: this deal exact for the hands known"
        out = f"; points {_deal_estimate(a, 'estimated')}: this deal {_as_if_seen(a)}"
        if a.extra.get("coverage", 1.0) < 1.0:
            return (out + f", for {a.extra.get('completions')} of {a.extra.get('hands')} "
                          "hands (the time ran out)")
        if learned:
            return out + f", the deals to come learned (±{2 * err:.2g})"
        return out
    if a.method == "one-ply":
        return "; points one ply only (no search finished in the time)"
    return ""


def _single(a: Analysis) -> str | None:
    """``"sample"`` or ``"draw"`` when the answer is an estimate from one
    sample or draw (no error measured: :data:`_NO_ERROR`), else None; the
    same answers :func:`_kind` says it of, under either objective."""
    if a.objective == "match":
        if a.match_method in ("exact", "expectimax") or a.chance_stderr is not None:
            return None
        return "sample"
    if a.stderr is not None or a.method in ("exact", "one-ply", "expectimax", "equilibrium",
                                            "deal"):
        return None
    return "draw" if a.method == "expectimax-fast" else "sample"


def summary_line(a: Analysis) -> str:
    """The answer in one short line: what kind of answer (exact, exact
    expectation, estimate), its precision, and which plays are close
    (``estimate ±0.5 (99%) from 1,000 samples of the stock order; 5 and 1
    are close``; from a single sample, whose ties are only that sample's,
    ``1 and 6 are tied in this sample``, under the points objective and the
    match objective alike). A partial answer (interrupted) says so first."""
    out = _kind(a)
    if a.extra.get("search") == "paranoid":
        # the values assume the other two against the mover: say so up front
        pos = a.position
        others = [pos.seat_name(s) for s in range(pos.players) if s != pos.turn]
        out += f" (paranoid: {' and '.join(others)} play against {pos.seat_name(pos.turn)})"
    single = _single(a)
    # the deal method names its ties and close plays itself (its best)
    deal = a.method == "deal" and len(a.best) > 1
    close = [] if deal else close_plays(a)
    if single and len(set(close) | set(a.best)) > 1:
        # one sample (or draw) measures no error: its ties are neither
        # "close" (within an error) nor "equal" (a claim about the position)
        tied = close or a.best
        out += f"; {_names(tied)} are tied in this {single}"
    elif deal:
        values = {mv.move: mv.value for mv in a.moves}
        if max(values[m] for m in a.best) - min(values[m] for m in a.best) <= 1e-9:
            # equal over every hand, or only over the hands searched in the time
            partial = a.extra.get("coverage", 1.0) < 1.0
            out += f"; {_names(a.best)} are " + ("tied in these hands" if partial else "equal")
        elif None in a.extra.get("tolerance", {}).values():
            # too few hands searched to measure an error: the value there chose
            hands = counted(a.extra.get("completions", 0), "hand")
            out += (f"; {_names(a.best)} cannot be told apart in {hands}: {a.best[0]} chosen "
                    "(the higher value)")
        else:
            out += f"; {_names(a.best)} are close: {a.best[0]} chosen (less exposure)"
    elif close and (set(close) != set(a.best) or _spread(a, close) > 1e-9):
        # (the equilibrium of an earlier deal lists its close plays as best)
        out += f"; {_names(close)} are close"
    elif len(a.best) > 1 and a.method in ("determinised", "expectimax-fast"):
        # the same mean (the same value in each sample): equal as far as
        # the samples tell, not a claim about the position
        out += f"; {_names(a.best)} are tied in these samples"
    elif len(a.best) > 1:
        out += f"; {_names(a.best)} are equal"
    if a.partial:
        out = "partial (interrupted): " + out
    return out


#: the legend of each column of the analysis tables, once on screen
LEGEND = {
    "value": "value: points for the side to move, from now to the end of the hand",
    "loss": "loss: points given up against the best play",
    "exact": "exact: the value as an exact fraction",
    "± s.e.": "± s.e.: the value's standard error (sampling)",
    "best in": "best in: share of the samples in which the play was best",
    "effect": "effect: what the play does now (x: the cards it takes; +N: its points)",
    "seats": "S E N: each seat's own points to the end of the hand (three players)",
    "win match": "win match: the chance that the mover's side wins the match",
    "± %": "± %: the chance's standard error (sampling)",
    "lost": "lost: chance of winning the match given up against the best play",
}


def legend_lines(columns: list[str], explained: set[str]) -> list[str]:
    """The legend of the ``columns`` not yet in ``explained`` (which
    receives them): each column is explained once on screen."""
    out = []
    for col in columns:
        if col in LEGEND and col not in explained:
            explained.add(col)
            out.append(LEGEND[col])
    return out


__all__ = ["LEGEND", "close_plays", "legend_lines", "summary_line"]
