"""Evaluating positions the compiled core does not take (Ronda voleur) on
the pure-Python searches over the reference engine: exact alpha-beta
(:mod:`solver.search.alphabeta`), expectimax with Star1 at chance nodes
(:mod:`solver.search.expectimax`) and determinised search
(:mod:`solver.search.pimc`). Same methods, units and notes as
:func:`solver.analysis.evaluation.evaluate`, which sends such positions here; no
equilibrium (``auto`` samples a hidden hand), no inference weighting.

Values are points for the side to move, ``taken=`` counted, as in
:mod:`solver.analysis.evaluation`.
"""

from __future__ import annotations

import time

from ..cards import RANKS
from ..engine.compile import (CompileError, compile_known, compile_shuffled,
                             is_perfect_information, pile_margin, sampler, sampler_from_line,
                             unseen_count)
from ..notation import format_position
from ..position import Position
from ..search.alphabeta import AlphaBeta
from ..search.expectimax import Expectimax
from ..search.guard import Guarded, Stopped, entries_for
from ..search.pimc import determinised

#: auto runs expectimax when at most this many cards' places are unknown
#: (one deal to come in a two-player endgame), else determinised search
EXPECTIMAX_UNSEEN = 8
def evaluate_pure(pos: Position, method: str, samples: int, seed: int,
                  time_budget: float, z, min_samples: int, progress=None,
                  memory_mb: float | None = None):
    """:func:`solver.analysis.evaluation.evaluate` on the pure-Python searches (see
    the module docstring). ``method``: ``auto``, ``exact``, ``expectimax``,
    ``determinised``. ``time_budget`` is kept inside every search (the
    clock is read every few thousand nodes), ``memory_mb`` caps the
    tables (:mod:`solver.search.guard`). Raises CompileError for what
    cannot be searched (and for ``equilibrium``), BudgetError when a
    method asked for by name does not finish in ``time_budget`` seconds;
    ``auto`` always answers (:func:`solver.analysis.evaluation.one_ply`
    when no search finished)."""
    from .evaluation import BudgetError, one_ply
    cap = entries_for(memory_mb)
    t0 = time.perf_counter()
    deadline = time.monotonic() + time_budget
    why_pure = "Ronda voleur: pure-Python search (the compiled core does not take it)"
    if method == "equilibrium":
        raise CompileError("the equilibrium does not take Ronda voleur "
                           "(use --method auto or determinised)")
    auto = method == "auto"
    if auto:
        if is_perfect_information(pos):
            method = "exact"
        elif any(c is None for h in pos.hands for c in h):
            method = "determinised"
        elif unseen_count(pos) <= EXPECTIMAX_UNSEEN:
            method = "expectimax"
        else:
            method = "determinised"
            why_pure += (f"; stock order unknown, {unseen_count(pos)} unseen cards: more than "
                         f"the {EXPECTIMAX_UNSEEN} the pure-Python expectimax takes")
    if method == "exact":
        if not is_perfect_information(pos):
            raise CompileError("exact search needs every card known (stock order and hands)")
        try:
            return _exact(pos, deadline, t0, why_pure + "; every card is known: exact alpha-beta",
                          cap)
        except Stopped:
            if auto:
                return one_ply(pos, t0, f"exact search did not finish in {time_budget:g} s")
            raise BudgetError(f"exact search did not finish in {time_budget:g} s") from None
    if method == "expectimax":
        share = time.monotonic() + (0.6 * time_budget if auto else time_budget)
        try:
            return _expectimax(pos, share, t0,
                               why_pure + "; stock order unknown: exact expectimax", cap)
        except Stopped:
            if not auto:
                raise BudgetError(f"expectimax did not finish in {time_budget:g} s "
                                  f"({unseen_count(pos)} unseen cards)") from None
            why_pure += (f"; expectimax did not finish in {0.6 * time_budget:.2g} s "
                         f"({unseen_count(pos)} unseen cards)")
    try:
        return _sampled(pos, deadline, t0, why_pure + "; determinised search", samples, seed,
                        z, min_samples, progress, memory_mb)
    except Stopped:
        if auto:
            return one_ply(pos, t0, f"no determinisation finished in {time_budget:g} s")
        raise BudgetError(f"no determinisation finished in {time_budget:g} s: raise --time, "
                          "or use --method auto") from None


def _exact(pos: Position, deadline: float, t0: float, note: str, cap: int | None = None):
    from .evaluation import Analysis, _exact_moves
    game, state = compile_known(pos)
    guarded = Guarded(game, deadline, max_entries=cap)
    ab = AlphaBeta(guarded)
    guarded.watch(ab.tt)
    values = ab.root_values(state)
    pv = ab.principal_variation(state)
    moves = _exact_moves(pos, game, state, values, pile_margin(pos))
    top = moves[0].value
    return Analysis(pos, "exact", top, moves, [mv.move for mv in moves if mv.value == top],
                    [str(RANKS[m]) for m in pv], ab.stats.nodes, time.perf_counter() - t0,
                    note=note)


def _expectimax(pos: Position, deadline: float, t0: float, note: str, cap: int | None = None):
    from .evaluation import Analysis, _exact_moves
    game, state = compile_shuffled(pos)
    guarded = Guarded(game, deadline, max_entries=cap)
    ex = Expectimax(guarded)
    guarded.watch(ex.tt)
    values = ex.root_values(state)
    pv = ex.principal_variation(state)
    moves = _exact_moves(pos, game, state, values, pile_margin(pos))
    top = moves[0].value
    return Analysis(pos, "expectimax", top, moves,
                    [mv.move for mv in moves if abs(mv.value - top) <= 1e-9],
                    [str(RANKS[m]) for m in pv], ex.stats.nodes + ex.stats.chance,
                    time.perf_counter() - t0, note=note + "; pv up to the next deal")


def _sampled(pos: Position, deadline: float, t0: float, why: str, samples: int, seed: int,
             z, min_samples: int, progress, memory_mb: float | None = None):
    from .evaluation import Analysis, sampled_moves
    sampler(pos)            # raises CompileError before any sampling
    line = format_position(pos)
    result = determinised(sampler_from_line, line, samples, seed, z=z,
                          min_samples=min_samples,
                          time_budget=max(0.0, deadline - time.monotonic()),
                          progress=progress, memory_mb=memory_mb)
    moves = sampled_moves(pos, result, seed)
    n = result.samples
    top = moves[0]
    note = f"{why}; {n} determinisations (seed {seed}), stopped: {result.stopped}"
    return Analysis(pos, "determinised", top.value, moves, [top.move], None, result.nodes,
                    time.perf_counter() - t0, n, seed, note, top.stderr,
                    partial=result.partial, stopped=result.stopped, workers=1)
