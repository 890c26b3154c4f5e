"""One answer for a position, whatever the objective: what the command
line, the web API and the board all call, so that they give the same best
play and values on the same line.

:func:`analyse` chooses the objective (:func:`.evaluate.objective_choice`:
points unless a score is written and the target can be reached in this
hand, with a table shipped), always evaluates the points
(:func:`solver.analysis.evaluation.evaluate`: ``value`` and each play's
``value`` are points under both objectives) and, for the match, adds each
play's chance of winning it (:func:`.evaluate.evaluate_match`), orders the
plays by that chance and takes the match's best plays and principal
variation. The result is one :class:`~solver.analysis.evaluation.Analysis`
either way; its ``objective`` says which was searched.

>>> from solver.notation import parse_position
>>> a = analyse(parse_position("1.7 7.7.2/7.12 - S prev=7 taken=15,18 last=N score=38,40"))
>>> a.objective, a.best, [(mv.move, mv.value, round(mv.chance, 4)) for mv in a.moves]
('match', ['2'], [('2', 0.0, 0.0863), ('7', 4.0, 0.0)])
>>> b = analyse(parse_position("1.7 7.7.2/7.12 - S prev=7 taken=15,18 last=N"))
>>> b.objective, b.best, b.value
('points', ['7'], 4.0)
"""

from __future__ import annotations


from ..numbers import counted
from ..runtime import clock
from ..analysis.evaluation import Analysis, BudgetError, evaluate
from ..position import Position
from .evaluate import (MATCH_SHARE, MatchAnalysis, SearchTooBig, evaluate_match, match_method,
                       objective_choice, preload)


def analyse(pos: Position, objective: str = "auto", method: str = "auto",
            samples: int = 1000, seed: int = 0, *, workers: int = 1,
            time_budget: float = 10.0, memory_mb: float = 2048.0, progress=None,
            inference: bool = True, search: str = "maxn",
            cluster=None, fast: int | None = None) -> Analysis:
    """The answer for ``pos``: :func:`~solver.analysis.evaluation.evaluate`'s
    points analysis (every option passed on), and under the match
    objective each play's chance of winning the match too (the match
    search samples at most ``samples`` times too, and stops earlier when
    the best chance is separated).
    ``objective``: ``auto``, ``points`` or ``match``
    (:func:`.evaluate.objective_choice`). ``objective_note`` says why the
    objective (one line, "" when points were never in question).

    One ``--time`` for both searches under the match objective: the match
    search, the answer, runs first with :data:`.evaluate.MATCH_SHARE` of
    it; the points search (a column) has what is left, and when a method
    named for it cannot finish there, the points come from ``auto``'s
    answer in the time left (its note says so) rather than no answer.

    Raises :class:`.evaluate.ObjectiveError` when ``match`` is asked for
    and cannot be searched, and what ``evaluate`` and ``evaluate_match``
    raise (CompileError, BudgetError, SearchTooBig with ``match``)."""
    choice = objective_choice(pos, objective, method)
    opts = dict(samples=samples, seed=seed, workers=workers, memory_mb=memory_mb,
                progress=progress, inference=inference, search=search, cluster=cluster,
                fast=fast)
    if choice.objective == "points":
        a = evaluate(pos, method=method, time_budget=time_budget, **opts)
        a.objective_note = choice.note
        return a
    preload()           # start-up: before the clock the two searches share
    started = clock.now()
    share = max(0.05, MATCH_SHARE * time_budget)
    try:
        m = evaluate_match(pos, method=match_method(method),
                           samples=max(1, samples), seed=seed,
                           points=False, memory_mb=memory_mb, workers=workers,
                           time_budget=share, inference=inference)
    except SearchTooBig as e:
        of = f"(its {share:g} s of --time {time_budget:g}; the points search has the rest)"
        if objective == "match":
            raise SearchTooBig(f"{e} {of}") from None
        a = evaluate(pos, method=method, time_budget=_left(time_budget, started), **opts)
        a.objective_note = f"points: {e} {of}"
        return a
    if m.partial:       # interrupted: the points at once (auto's answer in a moment)
        a = evaluate(pos, method="auto", time_budget=0.05, **opts)
    else:
        a = _points(pos, method, time_budget, started, opts)
    a = with_match(a, m, choice.note)
    a.partial = a.partial or m.partial
    return a


def _left(time_budget: float, started: float) -> float:
    """What is left of ``time_budget`` since ``started`` (at least 0.05 s:
    an answer, even a one-ply one, needs a moment)."""
    return max(0.05, time_budget - (clock.now() - started))


def _points(pos: Position, method: str, time_budget: float, started: float,
            opts: dict) -> Analysis:
    """The points column under the match objective, in what is left of
    ``time_budget`` since ``started``: ``method``'s analysis, or ``auto``'s
    in what is left after it when a named method does not finish."""
    try:
        return evaluate(pos, method=method, time_budget=_left(time_budget, started), **opts)
    except BudgetError as e:
        if method == "auto":
            raise
        a = evaluate(pos, method="auto", time_budget=_left(time_budget, started), **opts)
        a.note = f"{method} for points: {e}; points by {a.method}: {a.note}"
        return a


def with_match(a: Analysis, m: MatchAnalysis, note: str = "") -> Analysis:
    """The points analysis ``a`` with the match answer ``m`` of the same
    position: each play's ``chance`` (and ``chance_stderr``), the plays
    ordered by chance (then points, then rank), the match's ``best`` and
    ``pv``, ``objective`` match. ``value`` stays the points value of the
    position (its best play for points), so each play's points loss is
    ``value - play.value``."""
    chances = {mm.rank: mm for mm in m.moves}
    for mv in a.moves:
        mm = chances[mv.rank]
        mv.chance, mv.chance_stderr = mm.chance, mm.stderr
    a.moves.sort(key=lambda mv: (-mv.chance, -mv.value, mv.rank))
    top = a.moves[0].chance
    a.best = [mv.move for mv in a.moves if mv.chance >= top - 1e-12]
    a.objective = "match"
    a.objective_note = note
    a.chance = top
    a.chance_stderr = a.moves[0].chance_stderr
    a.match_samples = m.samples
    a.match_ess = m.ess
    a.match_method = m.method
    a.match_stopped = m.stopped
    a.table = dict(m.table)
    a.pv = m.pv
    a.nodes += m.nodes
    a.seconds += m.seconds
    t = m.table
    sampled = f", {m.samples} determinisations" if m.samples else ""
    if m.ess is not None:
        sampled += (" weighted by the other seats' plays this deal (inference: worth "
                    f"{counted(round(m.ess), 'unweighted sample')})")
    a.note = (f"match objective: {m.method} search of the chance of winning the match "
              f"(the compiled core, {m.nodes:,} nodes{sampled}), the end of the hand valued by "
              f"the "
              f"{t['rules']} {t['players']}-player table to {t['target']} "
              f"({t['hands']:,} self-play hands of {t['player']}); points by {a.method}: "
              f"{a.note}")
    return a
