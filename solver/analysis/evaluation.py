"""Evaluating a position: every legal play with its value, the best plays,
the principal variation, what each play does. One path for every rule
system: :func:`evaluate` builds one compiled problem from the position
(:mod:`solver.engine.compile`) and runs the chosen method on it.

Values, two sides: game points for the side to move: the points its side
scores from now to the end of the hand less the other side's, card count of
the whole hand included (``taken=`` counts), declarations of deals still to
come included, those of the current deal not (already scored); the match
target is ignored. Three sides (three players): a vector, each seat's own
points to the end of the hand (``values``), ``value`` the mover's entry.
The match objective (``match=``): the mover's side's chance of winning the
match (:func:`solver.match_equity.evaluate.evaluate_match`).

>>> from solver.notation import parse_position
>>> a = evaluate(parse_position("5 5/7 - S taken=18,19 last=N gone=1.1.1.1.2.2.2.2.3.3.3.3.4.4.4.4.5.5.6.6.6.6.7.7.7.10.10.10.10.11.11.11.11.12.12.12.12"))
>>> [(m.move, m.value) for m in a.moves]
[('5', 2.0)]
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from typing import NamedTuple

import numpy as np

from ..runtime import clock
from ..cards import RANKS
from ..numbers import apportion, counted
from ..engine import core
from ..engine.compile import (CompileError, Problem, forced_hands, is_perfect_information,
                              known_problem, shuffled_problem, unseen_count)
from ..engine.sampling import draw_spec, sampled_problem
from ..engine.view_game import ViewGame
from ..engine.view_game import fits_any_deal as view_game_fits
from .effects import describe, move_text
from .inference import Evidence
from .deal import fits as deal_fits
from ..engine.scoring import ranks_of
from ..notation import unwritten_piles
from ..position import Position
from ..search.budget import outcome_cap
from ..search.compiled import (Budget, SearchAborted, Searcher, determinised,
                               ensure_compiled, summarise_array)
from ..search.pimc import Z_99
from ..search.vectors import (SEARCHES, VectorSearcher, determinised_vec,
                              mean_vectors, paranoid_choice, ranked)

from .methods import METHODS  # noqa: E402  (re-exported)


@dataclass
class MoveValue:
    """One legal play: ``move`` the card text (the rank, or the first
    suited card of that rank in the hand), ``value`` in points for the
    mover, ``stderr`` its standard error when sampled (else None),
    ``effect`` what the play does now (e.g. ``x5.6.7 +1 hit``), ``best_rate``
    the share of samples in which it was best, ``lead_z`` the best play's
    lead over it in paired standard errors (sampled only)."""

    move: str
    rank: int
    value: float
    stderr: float | None = None
    effect: str = ""
    best_rate: float | None = None
    lead_z: float | None = None
    #: three players: the value vector, one entry per seat (S, E, N)
    values: list[float] | None = None
    #: match objective: P(the mover's side wins the match) after this play
    #: (None when the match was not searched), and its standard error when
    #: sampled
    chance: float | None = None
    chance_stderr: float | None = None


@dataclass
class Analysis:
    """The evaluation of one position.

    ``method``: ``"exact"``, ``"expectimax"`` or ``"determinised"``;
    ``value``: the best
    play's value in points for the side to move; ``moves``: every legal play,
    best first; ``best``: the plays of the best value (within 1e-9 when
    exact; every play of the top mean when sampled); ``pv``: the principal variation as
    ranks when exact, else None; ``nodes``; ``seconds``; ``samples``: the
    number of determinisations (None when exact); ``note``: why this
    method; ``partial``: interrupted (Ctrl-C), the answer so far;
    ``stopped``: why the sampling stopped; ``workers``: threads used;
    ``ess``: with inference, the effective sample size of the weighted
    determinisations (else None).

    The objective (:func:`solver.match_equity.objective.analyse` fills
    these; :func:`evaluate` always answers in points): ``objective``
    ``"points"`` or ``"match"``, what ``best``, the order of ``moves`` and
    ``pv`` follow (``value`` and each play's ``value`` stay in points
    either way); ``objective_note`` one line in words saying why this
    objective ("" when points were never in question: no score written);
    ``chance`` the best play's P(the mover's side wins the match) and
    ``chance_stderr`` its standard error when sampled (None under
    points); ``match_method`` the match search's method (``exact``,
    ``expectimax`` or ``determinised``; ``method`` stays the points
    search's); ``match_samples`` the match search's determinisations
    (None when not sampled) and ``match_stopped`` why their sampling
    stopped (as ``stopped``); ``table`` the match-equity table used (``rules``,
    ``players``, ``target``, ``hands``), None under points.
    """

    position: Position
    method: str
    value: float
    moves: list[MoveValue]
    best: list[str]
    pv: list[str] | None
    nodes: int
    seconds: float
    samples: int | None = None
    seed: int | None = None
    note: str = ""
    stderr: float | None = None
    extra: dict = field(default_factory=dict)
    partial: bool = False
    stopped: str | None = None
    workers: int = 1
    ess: float | None = None
    #: three players: the best play's value vector, one entry per seat
    values: list[float] | None = None
    objective: str = "points"
    objective_note: str = ""
    chance: float | None = None
    chance_stderr: float | None = None
    match_method: str | None = None
    match_samples: int | None = None
    #: the match search's effective sample size with inference (as ``ess``)
    match_ess: float | None = None
    match_stopped: str | None = None
    table: dict | None = None


class CostGuess(NamedTuple):
    """:func:`estimate_expectimax`'s answer: ``seconds``; ``why``, the
    unseen cards, deals and nodes behind it; ``at_least``: the count
    stopped at its cap, so ``seconds`` is a lower bound."""

    seconds: float
    why: str
    at_least: bool


def estimate_expectimax(pos: Position, cap: float | None = None) -> CostGuess:
    """A quick guess of exact expectimax's cost for ``pos``
    (:class:`CostGuess`). Only ``auto`` reads it, and only to skip an attempt
    estimated at more than ``TRY_FACTOR`` times the time it may have; every
    other attempt is simply run under the budget.

    Two sides (fitted on 48 two-player positions with 6 and 12 unseen
    cards, within a factor of 5 mostly, 35 at worst): decision nodes ~
    ``NODE_SCALE`` times the product of the hand sizes times, for each
    deal to come, its number of outcomes (rank-multiset deals; the first
    counted on the real stock, later ones on a representative remainder)
    times ``DEAL_FACTOR``; ``SECONDS_PER_NODE`` each. Three sides (max^n
    does not prune): the orders of the cards in hand, each hand's to the
    power ``HAND_ORDERS3`` (the table merges orders that reach the same
    state), times, for each deal to come, its outcomes times
    ``NODES_PER_DEAL3``; ``SECONDS_PER_NODE3`` each (fitted on 42 french
    three-player positions with 9 unseen cards, one to three cards a hand:
    the guess over the nodes counted 0.39 to 5.6, median 0.84; with every
    order counted it was up to 36 times the count, and auto sampled where
    expectimax took 0.08 s). Counting stops past
    10**5 outcomes a level, and with ``cap`` (seconds) as soon as the guess
    passes it (then the seconds returned are a lower bound, ``at_least``,
    and ``why`` says "more than"): the guess must not spend the budget it guards (at
    27 unseen cards the full count took 90 ms)."""
    from ..engine.core import outcome_count
    from math import factorial
    prob = shuffled_problem(pos)
    P = prob.P
    stock = int(prob.st[9])
    counts = [((stock >> (4 * r)) & 15).bit_count() for r in range(10)]
    three = prob.nsides == 3
    nodes = 1.0 if three else NODE_SCALE
    for hand in pos.hands:
        nodes *= factorial(len(hand)) ** HAND_ORDERS3 if three else max(1, len(hand))
    # the deals to come, each its stock: the most frequent ranks go first
    stocks = []
    while sum(counts):
        stocks.append(list(counts))
        for _ in range(int(P[core.P_DEALN + sum(counts)]) * pos.players):
            counts[counts.index(max(counts))] -= 1
    factor = NODES_PER_DEAL3 if three else DEAL_FACTOR
    per_node = SECONDS_PER_NODE3 if three else SECONDS_PER_NODE
    over = False
    for level, left in enumerate(stocks, start=1):
        rest = 0
        for r in range(10):
            rest |= ((1 << left[r]) - 1) << (4 * r)
        limit = 10 ** 5
        if cap is not None:     # outcomes past which the guess is over cap
            # in floats first: a huge cap (--time 1e308) makes the quotient
            # infinite, which int() refuses
            limit = max(1, int(min(limit, cap / (per_node * nodes * factor) + 1)))
        k = outcome_count(P, rest, limit)
        nodes *= k * factor
        if cap is not None and nodes * per_node > cap:
            over = level < len(stocks) or k > limit
            break
        if nodes > 1e18:
            break
    seconds = nodes * per_node
    why = (f"{unseen_count(pos)} unseen cards, {len(stocks)} deal{'s' * (len(stocks) != 1)} "
           f"to come, {'more than' if over else 'about'} {nodes:.2g} nodes")
    return CostGuess(seconds, why, over)


#: auto gives expectimax this share of the time budget, the rest to sampling
EXPECTIMAX_SHARE = 0.6
#: auto tries expectimax unless its estimate exceeds this many times the
#: time it may have (the estimate is within a factor of 5 where measured)
TRY_FACTOR = 5.0
#: the cost model of estimate_expectimax (see its docstring)
NODE_SCALE = 14.0
DEAL_FACTOR = 0.3
NODES_PER_DEAL3 = 100.0
HAND_ORDERS3 = 0.65
SECONDS_PER_NODE = 4e-7
#: three sides' compiled max^n: 1.1-2.0e-7 s a node measured (a slow day)
SECONDS_PER_NODE3 = 2e-7


def choose_method(pos: Position) -> str:
    """The first method ``auto`` tries for ``pos``: ``exact`` when every
    card is known; when a hand is hidden (the mover's view),
    ``equilibrium`` in a two-player hand of 3-card deals, in the last two
    deals (exact) or an earlier one whose end a learned model values (the
    current deal as the game of hidden hands it is), else the deal search
    (``deal``: the current deal solved as if each hand were seen, a
    learned value of the deals to come) where a model covers the rules,
    else ``determinised``; when only the stock order is unknown, ``expectimax``
    (which falls back to the deal search, or determinised search, if it
    cannot finish in the budget)."""
    if is_perfect_information(pos):
        return "exact"
    if any(c is None for h in pos.hands for c in h):
        if view_game_fits(pos):
            return "equilibrium"
        return "deal" if deal_fits(pos) else "determinised"
    return "expectimax"


def _fallback(run: "_Run") -> str:
    """What ``auto`` runs when exact expectimax does not fit the budget:
    the deal search where a model covers the rules (points), else
    determinised search."""
    return "deal" if run.match is None and deal_fits(run.pos) else "determinised"


class BudgetError(ValueError):
    """An exact method could not finish within ``--time``/``--memory``.
    ``reason``: what did not finish, without the advice that follows it in
    the message (a caller without ``--time`` gives its own)."""

    def __init__(self, message: str, reason: str | None = None) -> None:
        super().__init__(message)
        self.reason = message if reason is None else reason

    def __reduce__(self):       # across processes (annotate --jobs) with its reason
        return type(self), (str(self), self.reason)


def evaluate(pos: Position, method: str = "auto", samples: int = 1000,
             seed: int = 0, *, workers: int = 1, time_budget: float = 10.0,
             memory_mb: float = 2048.0, z: float | None = Z_99,
             min_samples: int = 30, progress=None, inference: bool = True,
             search: str = "maxn", match=None, cluster=None,
             fast: int | None = None, play_model=None) -> Analysis:
    """Evaluate every legal play of ``pos`` on the compiled search core.

    ``method``: ``"exact"`` (perfect information: known stock order and
    hands; alpha-beta, or max^n/paranoid for three sides),
    ``"expectimax"`` (hands known, stock order not: exact expected values
    over the deals to come), ``"equilibrium"`` (two players, the last two
    deals of a hand, a hand hidden: the deal's sequence-form LP),
    ``"deal"`` (the deal search, :mod:`solver.analysis.deal`: the hidden
    hands of the current deal completed, the deal solved exactly for each,
    the deals to come valued by the learned boundary value),
    ``"determinised"`` (sample the unknown cards: at most ``samples``
    determinisations with ``seed``, stopping early when the best play is
    separated at ``z`` paired standard errors), or ``"auto"``: exact when
    every card is known; a hidden hand: the equilibrium where it applies,
    else the deal search where a model covers the rules, else
    determinised; else expectimax run under 60% of the budget (unless it
    is estimated at more than five times that) and, if it does not
    finish, the deal search (or determinised search) for the time left
    (the note says which ran and why).

    Budgets: ``time_budget`` seconds for the whole evaluation (every
    method returns within it, plus a few milliseconds); ``memory_mb`` for
    the search's tables. ``workers`` threads share the sampling (the
    result does not depend on their number). ``progress`` gets the
    sampling result after each batch. ``inference``: weigh the
    determinisations by how likely the other seats' plays of this deal
    (``hist=``) are under ``play_model`` (a name of
    :data:`solver.analysis.inference.MODELS`, a model, or None for
    :data:`~solver.analysis.inference.FITTED`).
    ``cluster``: with ``"expectimax"``, the search runs split over a
    cluster (:class:`solver.batch.expectimax.Cluster`: ``solve(P, D,
    state, deadline)``) instead of this machine's threads. ``fast``: with
    ``"expectimax"``, the fast mode (method ``"expectimax-fast"``,
    approximate): the next deal drawn ``fast`` times by probability, every
    later deal exact, each value with its standard error and the error
    measured on the bench in the note (both: two sides playing for points).

    Three players: value vectors, one entry per seat, searched by
    ``search`` (``"maxn"`` or ``"paranoid"``); ``search`` is ignored (with
    a note) for two sides. ``match``: the match objective's leaves
    (:func:`solver.match_equity.table.equity_array`): every value is then
    the mover's side's chance of winning the match.

    Raises CompileError when the position cannot be searched that way
    (exact asked with unknown cards; expectimax with a hidden hand;
    equilibrium with three players, Ronda voleur or the match objective),
    BudgetError when an exact method asked for by name does not finish
    within the budget.
    """
    if method not in METHODS:
        raise ValueError(f"unknown method {method!r} (expected one of {', '.join(METHODS)})")
    if search not in SEARCHES:
        raise ValueError(f"unknown search {search!r} (expected maxn or paranoid)")
    three = pos.players == 3
    if match is not None and three:
        raise CompileError("the match objective takes two sides (three players: no "
                           "match-equity table of win chances per seat yet)")
    if (cluster is not None or fast is not None) and (three or match is not None):
        raise CompileError("the cluster and the fast mode take two sides playing for points")
    if isinstance(play_model, str):
        from .inference import MODELS
        if play_model not in MODELS:
            raise ValueError(f"unknown play model {play_model!r} (expected one of "
                             f"{', '.join(MODELS)})")
        play_model = MODELS[play_model]
    # hidden cards the cards seen leave no choice for: every card known
    forced = forced_hands(pos) if method in ("auto", "exact", "expectimax") else None
    if forced is not None:
        pos = forced
    # loading the compiled core (the first search of a process) is start-up,
    # not search: the clock starts after it; only what the method needs
    chosen = choose_method(pos) if method == "auto" else method
    parts = {"exact": ("exact",), "expectimax": ("search", "samples"),
             # the last deal's exact values (the view game's leaves)
             "equilibrium": ("search", "samples"),
             "determinised": ("samples",)}.get(chosen, ("samples",))
    if match is not None and chosen == "exact":
        parts += ("search",)        # the match's exact values: root_values, then its line
    ensure_compiled(parts=("vectors",) if three else parts)
    # auto's fallback from expectimax or the equilibrium: the deal search
    if chosen == "deal" or (chosen in ("expectimax", "equilibrium") and method == "auto"
                            and not three):
        from ..search.deal_search import warm
        warm()
    a = _evaluate(_Run(pos, samples, seed, workers, Budget(time_budget, memory_mb), z,
                       min_samples, progress, inference, search if three else "maxn", match,
                       cluster, fast, play_model), method)
    if three:       # the search the vectors come from (words.summary_line, JSON)
        a.extra["search"] = search
    if forced is not None:
        a.note += ("; the hidden cards are forced: the cards seen (the stock's included) "
                   "leave them no other")
    if search != "maxn" and not three:
        a.note += f"; --search {search} ignored (two sides: alpha-beta is exact)"
    missing = unwritten_piles(pos)
    if missing and three:
        a.note += ("; taken= not given: every pile counts from 0 cards (the card "
                   "count over 20 needs the real piles)")
    elif missing and match is None:
        a.note += (f"; taken= not given ({missing} cards in piles not written): the values "
                   "count only the cards still to be won")
    return a


@dataclass
class _Run:
    """One evaluation's settings."""

    pos: Position
    samples: int
    seed: int
    workers: int
    budget: Budget
    z: float | None
    min_samples: int
    progress: object
    inference: bool
    search: str
    match: object
    cluster: object = None
    fast: int | None = None
    play_model: object = None
    t0: float = field(default_factory=time.perf_counter)

    @property
    def label(self) -> str:
        """The search's name for the notes."""
        if self.pos.players != 3:
            return "alpha-beta"
        return "max^n" if self.search == "maxn" else "paranoid alpha-beta"


def _evaluate(run: _Run, method: str) -> Analysis:
    pos = run.pos
    budget = run.budget
    chosen = choose_method(pos) if method == "auto" else method
    if chosen == "equilibrium":
        why = _equilibrium_refusal(run)
        failed = None
        share = EXPECTIMAX_SHARE * max(0.0, budget.deadline - clock.now())
        guess = _equilibrium_guess(pos) if why is None and method == "auto" else 0.0
        if guess > share:
            # an earlier deal's game too big for the time: the deal search
            # answers in a fraction of it (a first deal: 0.03 s against 0.8 s)
            why = (f"the equilibrium would take about {guess:.1f} s, more than its "
                   f"{share:.2g} s of --time")
            failed = "skip"
        elif why is None:
            try:
                # auto keeps 40% of the time for the method it falls back to
                return _equilibrium(run, EXPECTIMAX_SHARE if method == "auto" else 1.0)
            except (SearchAborted, CompileError) as e:
                if method == "equilibrium":
                    if isinstance(e, SearchAborted):
                        raise BudgetError(f"the equilibrium did not finish in "
                                          f"{budget.seconds:g} s: raise --time, or use "
                                          "--method auto") from None
                    raise
                if isinstance(e, SearchAborted):
                    why = f"the equilibrium did not finish in its {share:.2g} s of --time"
                    failed = "time"
                else:
                    why = f"the equilibrium did not fit ({e})"
                    failed = "size"
        elif method == "equilibrium":
            raise CompileError(why)
        if _fallback(run) == "deal":
            a = _deal(run, f"a hand is hidden; {why}: the deal search")
            if failed is not None:      # its words say so (an estimate)
                a.extra["instead_of"] = f"equilibrium:{failed}"
            return a
        return _sampled(run, f"a hand is hidden; {why}: determinised search")
    if chosen == "deal" and method == "auto" and run.match is not None:
        return _sampled(run, "a hand is hidden: determinised search (the mover's view; "
                             "the deal search plays for points)")
    if chosen == "deal":
        from .deal import why_not
        reason = why_not(pos) if run.match is None else "it plays for points"
        if reason is not None:
            raise CompileError(f"the deal search cannot take this position: {reason}")
        why = ("a hand is hidden: the deal search (the mover's view)" if method == "auto"
               else "the deal search")
        return _deal(run, why)
    if chosen == "exact":
        if not is_perfect_information(pos):
            raise CompileError("exact search needs every card known (stock order and hands)")
        try:
            return _exact(run, known_problem(pos, match=run.match), "exact",
                          f"every card is known: exact {run.label}", budget.deadline)
        except SearchAborted as e:
            why = f"exact search did not finish in {budget.seconds:g} s ({e.nodes:,} nodes)"
            if method == "auto" and run.match is None:
                return one_ply(run, why)
            if method == "auto":        # the match objective has no one-ply answer
                raise BudgetError(why + ": raise --time") from None
            raise BudgetError(why + ": raise --time, or use --method auto for an answer "
                                    "in the time") from None
    if chosen == "determinised" and is_perfect_information(pos):
        # nothing hidden, the stock order written: every determinisation is
        # the position itself, so its one exact search is the answer
        return _exact_known(run, "nothing to sample")
    if chosen == "determinised":
        why = ("a hand is hidden: determinised search (the mover's view)" if method == "auto"
               else "determinised search")
        return _sampled(run, why, named=method == "determinised")
    # expectimax
    label = "exact expectimax" + ("" if pos.players != 3 else f" of {run.label} vectors")
    if method == "expectimax" and is_perfect_information(pos):
        # the stock order is written: no chance node is left, expectimax is
        # the exact search
        return _exact_known(run, "expectimax has no chance node left")
    if method == "expectimax":
        try:
            if run.cluster is not None:
                return _expectimax_cluster(run)
            if run.fast is not None:
                return _expectimax_fast(run)
            return _exact(run, shuffled_problem(pos, match=run.match), "expectimax",
                          f"stock order unknown: {label}", budget.deadline)
        except SearchAborted as e:
            kept = f"; {run.cluster.kept()}" if run.cluster is not None else ""
            # a chance node too large waits for no time: only memory helps
            more = "--memory" if e.reason == "outcomes" else "--time or --memory"
            raise BudgetError(_unfinished(pos, e, budget) + kept + f": raise {more}, or use "
                              "--method auto to sample instead") from None
    prob = shuffled_problem(pos, match=run.match)     # raises CompileError now
    allotted = EXPECTIMAX_SHARE * budget.seconds
    seconds, why, at_least = estimate_expectimax(pos, cap=TRY_FACTOR * allotted)
    if seconds > TRY_FACTOR * allotted:
        guess = "more than" if at_least else "about"
        note = (f"stock order unknown; expectimax would take {guess} {seconds:.2g} s ({why}), "
                f"far over the {allotted:.2g} s it may have")
        if _fallback(run) == "deal":
            return _deal(run, note + ": the deal search")
        return _sampled(run, note + ": determinised search")
    try:
        return _exact(run, prob, "expectimax",
                      f"stock order unknown: {label}, finished within the budget",
                      budget.start + allotted)
    except SearchAborted as e:
        if _fallback(run) == "deal":
            return _deal(run, _unfinished(pos, e, budget, allotted) + "; the deal search for "
                         "the time left", expectimax_nodes=e.nodes)
        return _sampled(run, _unfinished(pos, e, budget, allotted) + "; determinised search "
                        "for the time left", expectimax_nodes=e.nodes)


def one_ply(run: _Run, why: str) -> Analysis:
    """``auto``'s answer when its time ran out before any search finished
    (a budget smaller than one search of the position): each play valued
    by what it scores at once (the cards it takes and its points: a
    search one ply deep; three players, each seat's points of the play),
    method ``one-ply``, the note saying so. Keeps ``auto``'s promise to
    answer within ``--time``."""
    pos = run.pos
    prob = sampled_problem(pos, run.seed)
    values = {}
    vectors = {}
    hand = prob.st[1 + prob.st[5]]
    for m in range(10):
        if not (hand >> (4 * m)) & 1:
            continue
        child, gain, ev = core.play(prob.P, prob.D, prob.st, m)
        values[m] = float(gain)
        if prob.nsides == 3:
            vectors[m] = tuple(float(g) for g in core.play_points(prob.P, prob.D, prob.st,
                                                                   child, ev))
    if prob.nsides == 3:
        moves = _moves_vector(prob, vectors, "maxn")
    else:
        moves = _moves_scalar(prob, values)
    top = moves[0]
    note = (f"{why}: each play valued by what it takes and scores now only (one ply, no "
            f"look-ahead); raise --time for a search")
    return Analysis(pos, "one-ply", top.value, moves,
                    [mv.move for mv in moves if abs(mv.value - top.value) <= 1e-9], None,
                    len(moves), time.perf_counter() - run.t0, note=note,
                    values=list(top.values) if prob.nsides == 3 else None)


def _equilibrium_refusal(run: _Run) -> str | None:
    """Why the equilibrium does not apply to ``run``, or None."""
    pos = run.pos
    if pos.players == 3:
        return ("the equilibrium takes two players (a zero-sum game; three players: "
                "use exact, expectimax or determinised)")
    if run.match is not None:
        return "the equilibrium takes the points objective (the match: determinised)"
    return None


def _equilibrium(run: _Run, share: float = 1.0) -> Analysis:
    """The player's-view values of the current deal (exact in the last two
    deals, the deal's end valued by a learned model before them): the deal
    as a game with imperfect information (:class:`solver.engine.view_game.
    ViewGame`), solved by its sequence-form LP; one LP, solved for the
    game and again with each distinct play imposed. ``share`` of the time left (``auto`` keeps the
    rest for the method it falls back to); the game's building and the
    LP solver keep to it, and SearchAborted says it ran out."""
    from ..search.equilibrium import solve_root_moves
    pos = run.pos
    deadline = clock.now() + share * (run.budget.deadline - clock.now())

    def check() -> float:
        left = deadline - clock.now()
        if left <= 0:
            raise SearchAborted("time", 0, time.perf_counter() - run.t0)
        return left

    # the other player's plays this deal read as the deal search reads
    # them (inference): chance deals each hand by its ways to draw it times
    # the likelihood of those plays from it
    vg = ViewGame(pos, check=check,
                  evidence=Evidence(pos, run.play_model) if run.inference else None)
    # one LP, solved again with each play imposed (its value)
    sol, values = solve_root_moves(vg.tree, check=check)
    prob = sampled_problem(pos, run.seed)
    moves = _moves_scalar(prob, values)
    top = moves[0].value
    mixed = [(m, p) for m, p in sorted(sol.root_policy.items()) if p > 1e-6]
    shares = apportion([p for _, p in mixed], 100)      # adding up to 100% as printed
    policy = ", ".join(f"{RANKS[m]} {s}%" for (m, _), s in zip(mixed, shares))
    extra = {"policy": {str(RANKS[m]): p for m, p in sol.root_policy.items()},
             "hidden_hands": vg.hands_dealt, "lp_variables": sol.variables}
    dealt = (f"the other hand dealt by chance from the {vg.hands_dealt} hands it may be"
             if vg.hands_dealt > 1 else
             "the other hand the one that what is seen and declared leaves")
    if vg.model is None:
        note = (f"the mover's view in the last two deals: the exact value for what the mover "
                f"knows ({dealt}, each player knowing its own; the last deal exact), a "
                f"zero-sum game "
                f"solved by its sequence-form LP ({sol.variables:,} variables, {vg.leaves:,} "
                f"end-of-deal states); equilibrium policy {policy}")
    else:
        # the deal's end valued by the learned model: exact within the deal,
        # the model's error from its end on; plays within that error are close
        from .deal import TIE_Z, close_plays, model_play_error
        err = model_play_error(vg.model)
        tol = TIE_Z * err
        close = close_plays({mv.move: mv.value for mv in moves},
                            {mv.move: tol for mv in moves})
        extra.update(model=vg.model.name, model_error=err,
                     deal_end_stock=vg.stock_after, close=close,
                     tolerance={mv.move: tol for mv in moves})
        rmse = vg.model.rmse()
        note = (f"the mover's view of this deal: the exact value within the deal for what the "
                f"mover knows ({dealt}, each player knowing its own), a zero-sum game "
                f"solved by its "
                f"sequence-form LP ({sol.variables:,} variables); the deals to come "
                f"({vg.stock_after} cards, order unknown to both players) valued at the "
                f"deal's {vg.leaves:,} ends by the learned model (its held-out error against "
                f"exact expectimax: {rmse:.2f} point; of a difference between two plays: "
                f"{err:.2f}; plays within {tol:.2f} are close); equilibrium policy {policy}")
    if vg.read:
        note += (f"; each hand the other player may hold weighed by the ways to draw it and "
                 f"by the likelihood of its {counted(vg.read, 'play')} this deal (inference; "
                 f"worth {counted(round(vg.ess), 'unweighted hand')})")
        extra["read"] = vg.read
    best = [mv.move for mv in moves if abs(mv.value - top) <= 1e-9]
    if vg.model is not None:
        # as the deal search: every play within the model's error is best
        # (value order), the table marking the others of them close
        best += [mv.move for mv in moves if mv.move in close and mv.move not in best]
    return Analysis(pos, "equilibrium", top, moves, best, None,
                    vg.leaves, time.perf_counter() - run.t0, note=note, extra=extra,
                    ess=vg.ess)


#: seconds of the equilibrium of an earlier deal per hidden hand and play
#: order (the mover's cards' orders times the other's): the first deal of
#: ``1.3.5.11 2.2.7/?.?.? ? S``, 219 hands of 3 cards against 3, took
#: 0.8 s (tree 0.27 s, LPs 0.52 s) on 2026-12-05, 1.0e-4 s per line
EQUILIBRIUM_SECONDS_PER_LINE = 1.2e-4


def _equilibrium_guess(pos: Position) -> float:
    """The seconds the equilibrium of an earlier deal of ``pos`` would
    take (0 in the last two deals, where it was always tried): its hidden
    hands (rank multisets) times the orders the two hands can be played
    in, at :data:`EQUILIBRIUM_SECONDS_PER_LINE`."""
    from math import factorial
    from ..engine.view_game import deal_model, hidden_hands
    if deal_model(pos) is None:
        return 0.0
    lines = factorial(len(pos.hands[pos.turn])) * factorial(len(pos.hands[1 - pos.turn]))
    return EQUILIBRIUM_SECONDS_PER_LINE * len(hidden_hands(pos)) * lines



def _exact_known(run: _Run, why: str) -> Analysis:
    """Every card known, the stock order too, under a method that would
    sample or take expectations: its one exact search is the answer, the
    note saying ``why``."""
    try:
        return _exact(run, known_problem(run.pos, match=run.match), "exact",
                      f"every card is known, the stock order too: {why}, exact {run.label}",
                      run.budget.deadline)
    except SearchAborted as e:
        raise BudgetError(f"exact search did not finish in {run.budget.seconds:g} s "
                          f"({e.nodes:,} nodes): raise --time") from None


def _unfinished(pos: Position, e: SearchAborted, budget: Budget,
                given: float | None = None) -> str:
    """Why expectimax stopped, in words; ``given``: the seconds it was
    given (the budget's when None). Not the aborted call's own time (a
    root move's search, under a millisecond at times)."""
    why = {"time": f"in the {budget.seconds if given is None else given:.2g} s it had",
           "outcomes": (f"within {budget.memory_mb:g} MB (a chance node has more than "
                        f"{outcome_cap(budget.memory_mb):,} outcomes, the most it allows)"),
           "nodes": "within its node budget"}.get(e.reason, "")
    return (f"expectimax did not finish {why} at {unseen_count(pos)} unseen cards "
            f"({e.nodes:,} nodes)")


def _points(prob: Problem, v: float) -> float:
    """A two-sided search value in the answer's unit: points (with the
    piles' margin), or the chance of winning the match."""
    if prob.match:
        return (v / core.EQ_SCALE + 1) / 2
    return (v + prob.base) / 2


def _moves_scalar(prob: Problem, values: dict, errs: dict | None = None,
                  rates: dict | None = None, leads: dict | None = None) -> list[MoveValue]:
    """Every play of a two-sided problem as MoveValues (``values`` in the
    search's unit), best first."""
    pos = prob.pos
    scale = (1 / (2 * core.EQ_SCALE)) if prob.match else 0.5
    moves = []
    for m, v in values.items():
        se = None if errs is None or errs.get(m) is None else errs[m] * scale
        moves.append(MoveValue(move_text(pos, m), m, _points(prob, v), se,
                               describe(prob, prob.st, m),
                               None if rates is None else rates.get(m),
                               None if leads is None else leads.get(m)))
    moves.sort(key=lambda mv: (-mv.value, mv.rank))
    return moves


def _moves_vector(prob: Problem, values: dict, search: str, scalars: dict | None = None,
                  errs: dict | None = None, rates: dict | None = None,
                  leads: dict | None = None) -> list[MoveValue]:
    """Every play of a three-sided problem, the one the rule picks first:
    max^n, by the tie rule; paranoid, by the paranoid value (then the tie
    rule)."""
    pos = prob.pos
    side = pos.turn
    if search == "paranoid" and scalars:
        order = sorted(values, key=lambda m: (-round(scalars[m], 9),
                                              -round(values[m][side], 9),
                                              round(sum(values[m]) - values[m][side], 9), m))
        first = paranoid_choice(values, scalars, side, side)
        order.remove(first)
        order.insert(0, first)
    else:
        order = ranked(values, side)
    out = []
    for m in order:
        v = values[m]
        own = scalars[m] if (search == "paranoid" and scalars) else v[side]
        se = None if errs is None or errs.get(m) is None else errs[m]
        out.append(MoveValue(move_text(pos, m), m, float(own), se,
                             describe(prob, prob.st, m),
                             None if rates is None else rates.get(m),
                             None if leads is None else leads.get(m),
                             values=[float(x) for x in v]))
    return out


def _best(moves: list[MoveValue], method: str, three: bool, search: str) -> list[str]:
    """The best plays: exact two sides (sampled: every play of the top
    mean, plays whose every sample gave the same value being equal), every
    play of the top value; max^n, the plays equal under the tie rule's (1)
    and (2); paranoid, every play of the best paranoid value."""
    top = moves[0]
    if three and search == "maxn":
        others = sum(top.values) - top.value
        return [mv.move for mv in moves if abs(mv.value - top.value) <= 1e-9
                and abs(sum(mv.values) - mv.value - others) <= 1e-9]
    return [mv.move for mv in moves if abs(mv.value - top.value) <= 1e-9]


def _exact(run: _Run, prob: Problem, method: str, note: str, deadline: float) -> Analysis:
    """Exact search (alpha-beta, or max^n/paranoid) of ``prob``: with a
    known stock the whole hand, with a shuffled one expectimax."""
    pos = run.pos
    three = prob.nsides == 3
    mem = run.budget.memory_mb if method == "expectimax" else min(run.budget.memory_mb, 64.0)
    extra: dict = {}
    if three:
        vs = VectorSearcher(prob.P, prob.D, mem, run.search, workers=run.workers)
        values = vs.root_values(prob.st, deadline)
        scalars = vs.scalars
        nodes = vs.nodes
        pv = vs.principal_variation(prob.st, deadline)
        moves = _moves_vector(prob, values, run.search, scalars)
        stats = vs.stats()
    else:
        searcher = Searcher(prob.P, prob.D, mem,
                            run.workers if method == "expectimax" else 1)
        if method == "exact" and not prob.match:
            # the values and the line in one kernel call
            raw, pv = searcher.root_values_and_pv(prob.st, deadline)
        else:
            raw = searcher.root_values(prob.st, deadline)
            pv = (_match_pv(searcher, prob, deadline) if prob.match
                  else searcher.principal_variation(prob.st, deadline))
        nodes = searcher.nodes
        stats = searcher.stats()
        moves = _moves_scalar(prob, raw)
    if method == "expectimax":
        extra = dict(stats, tt_mb=round(stats["tt_entries"] * 32 / 2 ** 20, 1),
                     peak_rss_mb=_peak_rss_mb())
        nodes = stats["nodes"] + stats["chance_nodes"]
        note += "; pv up to the next deal"
    top = moves[0]
    return Analysis(pos, method, top.value, moves, _best(moves, method, three, run.search),
                    [str(RANKS[m]) for m in pv], nodes, time.perf_counter() - run.t0,
                    note=note, extra=extra, workers=stats["threads"],
                    values=list(top.values) if three else None)


def _match_pv(searcher: Searcher, prob: Problem, deadline: float) -> list[int]:
    """The match objective's principal variation: at each ply the play of
    the best chance (the lowest rank on a tie), up to the end of the hand,
    the end of the match (a play that wins it) or the next chance node."""
    st = prob.st
    pv: list[int] = []
    while not core.is_terminal(prob.P, st) and not core.is_chance(prob.P, st) and len(pv) < 80:
        values = searcher.root_values(st, deadline)
        top = max(values.values())
        m = min(m for m, v in values.items() if v >= top - 1e-6)
        pv.append(m)
        st, _gain, ev = core.play(prob.P, prob.D, st, m)
        if ev & core.EV_WON:
            break
    return pv


def _expectimax_cluster(run: _Run) -> Analysis:
    """Exact expectimax split at the first chance level over a cluster."""
    prob = shuffled_problem(run.pos)
    values, pv, stats = run.cluster.solve(prob.P, prob.D, prob.st, run.budget.deadline)
    moves = _moves_scalar(prob, values)
    top = moves[0].value
    return Analysis(run.pos, "expectimax", top, moves,
                    [mv.move for mv in moves if abs(mv.value - top) <= 1e-9],
                    [str(RANKS[m]) for m in pv], stats["nodes"], time.perf_counter() - run.t0,
                    note=("stock order unknown: exact expectimax, its first chance level's "
                          f"{stats['outcomes']:,} outcomes solved on {run.cluster.where}; "
                          "pv up to the next deal"),
                    extra={"cluster": stats})


#: the fast mode's largest error of a value (points) measured on the bench
#: (bench/bench_fast.py, docs/performance.md): deals drawn -> (unseen
#: cards, error) over the positions measured
FAST_ERROR = {100: (12, 0.47), 300: (12, 0.28), 1000: (12, 0.15)}


def _expectimax_fast(run: _Run) -> Analysis:
    """The fast mode: :func:`solver.search.split.sampled_root_values`."""
    from ..search.split import sampled_root_values
    prob = shuffled_problem(run.pos)
    samples = run.fast
    values, stderr, solved, nodes = sampled_root_values(prob.P, prob.D, prob.st, samples,
                                                        run.seed, run.budget.memory_mb,
                                                        run.workers, run.budget.deadline)
    moves = _moves_scalar(prob, values)
    for mv in moves:
        se = stderr.get(mv.rank)
        mv.stderr = None if se is None else se / 2
    top = moves[0].value
    near = min(FAST_ERROR, key=lambda n: abs(n - samples))
    unseen, err = FAST_ERROR[near]
    note = (f"FAST MODE, approximate: the next deal drawn {samples} times by probability "
            f"({solved:,} deals solved), every later deal exact; ± is the standard error "
            f"over the deals drawn; on the bench with {near} deals at {unseen} unseen cards "
            f"the values were off by at most {err:g} points (bench/bench_fast.py)")
    return Analysis(run.pos, "expectimax-fast", top, moves,
                    [mv.move for mv in moves if abs(mv.value - top) <= 1e-9], None, nodes,
                    time.perf_counter() - run.t0, samples=samples, stderr=moves[0].stderr,
                    note=note, seed=run.seed)


def _peak_rss_mb() -> float:
    import resource
    return round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)


def _sampled(run: _Run, why: str, expectimax_nodes: int = 0, named: bool = False) -> Analysis:
    """Determinised search: the unknown cards drawn by the compiled game,
    every play solved exactly in each drawing, the values averaged (with
    inference, weighted). When no drawing finished within the budget:
    ``auto`` (not ``named``) answers with :func:`one_ply` (points), else
    BudgetError."""
    try:
        return _determinised(run, why, expectimax_nodes)
    except SearchAborted:
        budget = run.budget
        stop = f"no determinisation finished in {budget.seconds:g} s"
        if not named and run.match is None:
            return one_ply(run, f"{why}: {stop}")
        raise BudgetError(f"{stop}: raise --time, or use fewer cards", reason=stop) from None


def _determinised(run: _Run, why: str, expectimax_nodes: int = 0) -> Analysis:
    pos = run.pos
    spec = draw_spec(pos, match=run.match)      # raises CompileError before any sampling
    weigh = None
    evidence = Evidence(pos, run.play_model) if run.inference else None
    if evidence is not None and not evidence.empty:
        players = pos.players

        def likelihood(hands):
            return evidence.likelihood([ranks_of(int(h)) for h in hands[:players]])
        weigh = likelihood
    budget = run.budget
    prob = sampled_problem(pos, run.seed, match=run.match)
    three = prob.nsides == 3
    if three:
        rows, weights, nodes, stopped, partial, _secs = determinised_vec(
            spec, run.samples, run.seed, workers=run.workers, search=run.search,
            min_samples=run.min_samples, z=run.z, time_budget=budget.left(),
            memory_mb=min(budget.memory_mb, 64.0), weigh=weigh,
            progress=run.progress)
        n = rows.shape[0]
        means = mean_vectors(rows, weights)
        w = np.ones(n) if weights is None else weights
        stats = summarise_array(rows[:, :, pos.turn], weights)
        errs = {s.move: s.stderr for s in stats}
        leads = {s.move: s.lead_z for s in stats}
        # best in a sample: the mover's highest entry, every tied play
        # counted (as for two sides; the tie rule only picks one to play)
        rates = {s.move: s.best / n for s in stats}
        moves = _moves_vector(prob, means, "maxn", None, errs, rates, leads)
        ess = None if weights is None else float(w.sum() ** 2 / (w * w).sum())
        workers = run.workers
        label = f"each solved by {run.label}, vectors averaged"
    else:
        result = determinised(spec, run.samples, run.seed, workers=run.workers, z=run.z,
                              min_samples=run.min_samples, time_budget=budget.left(),
                              memory_mb=min(budget.memory_mb, 64.0), weigh=weigh,
                              progress=run.progress)
        n = result.samples
        values = {sm.move: sm.mean for sm in result.moves}
        errs = {sm.move: sm.stderr for sm in result.moves}
        rates = {sm.move: sm.best / n for sm in result.moves}
        leads = {sm.move: sm.lead_z for sm in result.moves}
        moves = _moves_scalar(prob, values, errs, rates, leads)
        nodes, stopped, partial, ess, workers = (result.nodes, result.stopped,
                                                 result.partial, result.ess, result.workers)
        label = ""
    top = moves[0]
    hidden = any(c is None for h in pos.hands for c in h)
    sep = ("separated (the best play leads every other by 2.33 paired standard errors"
           + (" on the mover's entry" if three else "") + ": a bound on sampling error only)")
    stop = {"separated": sep, "samples": "the sample budget", "time": "the time budget",
            "interrupted": "interrupted"}.get(stopped, stopped)
    note = f"{why}; {n} determinisations (seed {run.seed})"
    if label:
        note += f" {label}"
    note += f", stopped: {stop}"
    if ess is not None:
        note += (f"; weighted by the likelihood of {counted(len(evidence.items), 'play')} of "
                 f"the hidden hands this deal (inference): worth "
                 f"{counted(round(ess), 'unweighted sample')}")
    if hidden:
        note += ("; an estimate for the mover's information, not an exact value "
                 "(strategy fusion)")
    else:
        note += ("; each determinisation sees the stock order (clairvoyance), so the "
                 "estimate can favour plays that need the deal to fall right")
    return Analysis(pos, "determinised", top.value, moves,
                    _best(moves, "determinised", three, run.search if three else "maxn"), None,
                    nodes + expectimax_nodes, time.perf_counter() - run.t0, n, run.seed, note,
                    top.stderr, partial=partial, stopped=stopped, workers=workers, ess=ess,
                    values=list(top.values) if three else None)


def _deal(run: _Run, why: str, expectimax_nodes: int = 0) -> Analysis:
    """The deal search (:mod:`solver.analysis.deal`): the current deal
    solved exactly for every completion of what is hidden in it, the deals
    to come valued at its end by the learned boundary value; close plays
    (within the estimate's error) are listed as best, the one chosen among
    them first."""
    from .deal import DealProblem, choose, sampled, search, tie_factor, tolerance, unmeasured
    pos = run.pos
    problem = DealProblem(pos, inference=run.inference, seed=run.seed, model=run.play_model)
    result = search(problem, run.budget.deadline)
    chosen, close = choose(problem, result)
    prob = sampled_problem(pos, run.seed)
    # one hand searched measures no error (None, not a claimed 0)
    errs = ({m: (result.stderr[m] if result.completions > 1 else None) for m in result.values}
            if sampled(result) else None)
    moves = _moves_scalar(prob, result.values, errs)
    tol = tolerance(result)
    best = [move_text(pos, chosen)] + [move_text(pos, m) for m in close if m != chosen]
    note = f"{why}; {_deal_note(pos, problem, result)}"
    if len(close) > 1:
        names = ", ".join(str(RANKS[m]) for m in close)
        spread = max(result.values[m] for m in close) - min(result.values[m] for m in close)
        # as the summary line says it: equal values are "equal", not "close"
        how = ("are equal in the hands searched" if spread <= 1e-9
               else f"cannot be told apart in the {counted(result.completions, 'hand')} "
                    "searched (no error measured)" if unmeasured(result)
               else f"are close (within {tie_factor(result):g} times the estimate's error)")
        note += f"; {names} {how}: {RANKS[chosen]} chosen"
        if result.exposure:
            note += (f" (the next player can hit or make a missa after it in "
                     f"{result.exposure[chosen]:.0%} of the hands, "
                     + ", ".join(f"{RANKS[m]} {result.exposure[m]:.0%}" for m in close
                                 if m != chosen) + ")")
    top = max(mv.value for mv in moves)
    extra = {"close": [move_text(pos, m) for m in close], "chosen": move_text(pos, chosen),
             # null: no error measured (every play close)
             "tolerance": {move_text(pos, m): None if math.isinf(tol[m]) else tol[m] / 2
                           for m in tol},
             "model": None if result.model is None else result.model.name,
             "deal_end_stock": result.level, "model_error": result.model_error,
             "completions": result.completions, "hands": result.total,
             "coverage": result.coverage, "enumerated": result.enumerated,
             "exposure": {move_text(pos, m): p for m, p in result.exposure.items()}}
    return Analysis(pos, "deal", top, moves, best, None, result.nodes + expectimax_nodes,
                    time.perf_counter() - run.t0, result.completions, run.seed, note,
                    None, extra=extra, stopped="time" if result.coverage < 1.0 else None,
                    ess=result.ess)


def _deal_note(pos: Position, problem, result) -> str:
    """What the deal search did, in words."""
    hidden = problem.seats
    names = "/".join(pos.seat_name(s) for s in hidden)
    if not hidden:
        what = "every hand is known: the current deal solved exactly (alpha-beta)"
    elif result.enumerated and result.total == 1:
        what = (f"the current deal solved exactly (alpha-beta) for the one hand {names} "
                "may hold (what is seen and declared leaves no other)")
    elif result.enumerated:
        what = (f"the current deal solved exactly (alpha-beta) for each of the "
                f"{result.total} hands {names} may hold, weighted by the ways to draw it")
    else:
        what = (f"the current deal solved exactly (alpha-beta) for {result.completions} "
                f"draws of the hands of {names}")
    if result.evidence:
        what += (f" and by the likelihood of {counted(result.evidence, 'play')} this deal "
                 f"(inference; worth {counted(round(result.ess), 'unweighted hand')})")
    if result.coverage < 1.0:
        what += (f"; the time ran out after {result.completions} of {result.total} "
                 f"({result.coverage:.0%} of the weight)")
    left = result.level
    if left == 0:
        rest = "the hand ends with this deal"
    elif result.model_error == 0.0:
        rest = (f"the last deal ({left} cards) searched exactly over every way it can "
                "be dealt (expectimax)")
    else:
        model = result.model
        rmse = model.rmse() if model is not None else None
        where = model.exact_level if model is not None else None
        rest = (f"the deals to come ({left} cards, order unknown to both players) valued "
                f"at the deal's end by a learned model (its held-out error against exact "
                f"expectimax: {rmse:.2f} point at {where} cards to deal; of a difference "
                f"between two plays: {result.model_error:.2f})" if rmse is not None else
                f"the deals to come ({left} cards) valued at the deal's end by a learned "
                f"model")
    return f"{what}; {rest}; no drawn stock order (no clairvoyance)"
