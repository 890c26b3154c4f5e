"""Evaluating a position: every legal play with its value, the best plays,
the principal variation, what each play does.

Values are in game points for the side to move: the points its side scores
from now to the end of the hand less the other side's, card count of the
whole hand included (``taken=`` counts), declarations of deals still to
come included, those of the current deal not (already scored); the match
target is ignored.

>>> from solver.notation import parse_position
>>> a = evaluate(parse_position("5 5/7 - S taken=18,19 last=N gone=1.1.1.1.2.2.2.2.3.3.3.3.4.4.4.4.5.5.6.6.6.6.7.7.7.10.10.10.10.11.11.11.11.12.12.12.12"))
>>> [(m.move, m.value) for m in a.moves]
[('5', 2.0)]
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field

from ..cards import RANKS
from ..engine.compile import (CompileError, compile_known, compile_shuffled,
                             is_perfect_information, pile_margin, sampler, unseen_count)
from ..engine.game import (EV_ANSWER10, EV_ANSWER5, EV_CAPTURE, EV_HIT, EV_MISSA, Game,
                          State, event_points, ranks_of)
from ..engine.sampling import draw_spec
from ..engine.view_game import ViewGame
from ..engine.view_game import fits as view_game_fits
from .inference import Evidence
from ..engine.tables import core_state, params
from ..notation import unwritten_piles
from ..position import Position
from ..search.compiled import (Budget, SearchAborted, Searcher, determinised,
                              ensure_compiled)
from ..search.pimc import Z_99

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
    exact; the top mean when sampled); ``pv``: the principal variation as
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
    (None when not sampled); ``table`` the match-equity table used (``rules``,
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
    table: dict | None = None


def move_text(pos: Position, rank_index: int) -> str:
    """The card text of playing rank index ``rank_index`` from the mover's
    hand: the first suited card of that rank, or the bare rank."""
    rank = RANKS[rank_index]
    for c in pos.hands[pos.turn]:
        if c is not None and c.rank == rank and c.suit:
            return str(c)
    return str(rank)


def describe(game: Game, state: State, move: int) -> str:
    """What playing rank index ``move`` does now: ``x5.6.7.10`` for the
    cards it takes (its own card first), then the points of each event
    (``+1 hit``, ``+5 answer``, ``+1 missa``, ``+1 capture``), or ``lays``
    when it stays on the table; Ronda voleur: ``steals 12`` for a pile of
    12 cards taken."""
    _child, _gain, ev = game.play(state, move)
    rules = game.rules
    rank = str(RANKS[move])
    if ev & EV_ANSWER5:
        parts = ["x" + ".".join([rank] * 3)]
    elif ev & EV_ANSWER10:
        parts = ["x" + ".".join([rank] * 4)]
    elif ev & EV_CAPTURE:
        stolen = 0
        if rules.voleur:
            from ..engine.voleur import steals, table_take
            stolen = steals(state, game.sides, move)
            taken = ranks_of(table_take(rules, state[0], move, bool(stolen)))
        else:
            taken = ranks_of(game.capture(state[0], move))
        parts = ["x" + ".".join([rank] + [str(RANKS[r]) for r in taken])]
        if stolen:
            parts.append(f"steals {stolen}")
    else:
        parts = ["lays"]
    if ev & (EV_ANSWER5 | EV_ANSWER10) and rules.voleur:
        from ..engine.voleur import steals
        stolen = steals(state, game.sides, move)
        if stolen:
            parts = ["x" + rank, f"steals {stolen}"]
    for bit, name in ((EV_CAPTURE, "capture"), (EV_HIT, "hit"), (EV_ANSWER5, "answer"),
                      (EV_ANSWER10, "answer"), (EV_MISSA, "missa")):
        pts = event_points(rules, bit) if ev & bit else 0
        if pts:
            parts.append(f"+{pts} {name}")
    return " ".join(parts)


def estimate_expectimax(pos: Position) -> tuple[float, str]:
    """A quick guess of exact expectimax's cost for ``pos``:
    ``(seconds, why)``. Only ``auto`` reads it, and only to skip an attempt
    estimated at more than ``TRY_FACTOR`` times the time it may have; every
    other attempt is simply run under the budget.

    The model, fitted on 48 two-player positions with 6 and 12 unseen
    cards, at and after the start of a deal (within a factor of 5 mostly,
    35 at worst): decision nodes ~ ``NODE_SCALE`` times the product of
    the hand sizes times, for each deal to come, its number of outcomes
    (rank-multiset deals; the first counted on the real stock, later ones
    on a representative remainder) times ``DEAL_FACTOR``;
    ``SECONDS_PER_NODE`` each. Counting stops past 10**5 outcomes a level,
    so the guess itself takes milliseconds (four players included)."""
    from ..engine.core import outcome_count
    game, state = compile_shuffled(pos)
    P, _D = params(game)
    stock = state[6]
    counts = [((stock >> (4 * r)) & 15).bit_count() for r in range(10)]
    nodes = NODE_SCALE
    for hand in pos.hands:
        nodes *= max(1, len(hand))
    levels = 0
    while sum(counts):
        n = game.next_deal[sum(counts)]
        rest = 0
        for r in range(10):
            rest |= ((1 << counts[r]) - 1) << (4 * r)
        k = outcome_count(P, rest, 10 ** 5)
        nodes *= k * DEAL_FACTOR
        levels += 1
        for _ in range(n * pos.players):     # the most frequent ranks go first
            counts[counts.index(max(counts))] -= 1
        if nodes > 1e18:
            break
    seconds = nodes * SECONDS_PER_NODE
    why = (f"{unseen_count(pos)} unseen cards, {levels} deal(s) to come, "
           f"about {nodes:.2g} nodes")
    return seconds, why


#: auto gives expectimax this share of the time budget, the rest to sampling
EXPECTIMAX_SHARE = 0.6
#: auto tries expectimax unless its estimate exceeds this many times the
#: time it may have (the estimate is within a factor of 5 where measured)
TRY_FACTOR = 5.0
#: the cost model of estimate_expectimax (two players; see its docstring)
NODE_SCALE = 14.0
DEAL_FACTOR = 0.3
SECONDS_PER_NODE = 4e-7


def choose_method(pos: Position) -> str:
    """The first method ``auto`` tries for ``pos``: ``exact`` when every
    card is known; when a hand is hidden (the mover's view),
    ``equilibrium`` in the last two deals of a two-player hand, else
    ``determinised``; when only the stock order is unknown, ``expectimax``
    (each falls back to determinised search if it cannot finish in the
    budget)."""
    if is_perfect_information(pos):
        return "exact"
    if any(c is None for h in pos.hands for c in h):
        return "equilibrium" if view_game_fits(pos) else "determinised"
    return "expectimax"


class BudgetError(ValueError):
    """An exact method could not finish within ``--time``/``--memory``."""


def _exact_moves(pos: Position, game: Game, state: State, values: dict,
                 base: int) -> list[MoveValue]:
    """Every play with its exact value in points (``values`` in
    half-points, ``base`` the piles' card margin), best first."""
    moves = [MoveValue(move_text(pos, m), m, (v + base) / 2,
                       effect=describe(game, state, m)) for m, v in values.items()]
    moves.sort(key=lambda mv: (-mv.value, mv.rank))
    return moves


def evaluate(pos: Position, method: str = "auto", samples: int = 1000,
             seed: int = 0, *, workers: int = 1, time_budget: float = 10.0,
             memory_mb: float = 2048.0, z: float | None = Z_99,
             min_samples: int = 30, progress=None, inference: bool = True,
             search: str = "maxn", cluster=None, fast: int | None = None) -> Analysis:
    """Evaluate every legal play of ``pos`` on the compiled search core.

    ``method``: ``"exact"`` (perfect information: known stock order and
    hands; alpha-beta), ``"expectimax"`` (hands known, stock order not:
    exact expected values over the deals to come), ``"determinised"``
    (sample the unknown cards: at most ``samples`` determinisations with
    ``seed``, stopping early when the best play is separated at ``z``
    paired standard errors), or ``"auto"``: exact when every card is
    known, determinised when a hand is hidden, else expectimax run under
    60% of the budget (unless it is estimated at more than five times
    that) and, if it does not finish, determinised search for the time left
    (the note says which ran and why).

    Budgets: ``time_budget`` seconds for the whole evaluation (every
    method returns within it, plus a few milliseconds); ``memory_mb`` for
    the search's tables. ``workers`` threads share the sampling (the
    result does not depend on their number). ``progress`` gets the
    sampling result after each batch. ``inference``: weigh the
    determinisations by how likely the other seats' plays of this deal
    (``hist=``) are under :data:`solver.analysis.inference.FITTED`
    (:mod:`solver.analysis.inference`). ``cluster``: with ``"expectimax"``,
    the search runs split over a cluster
    (:class:`solver.batch.expectimax.Cluster`: ``solve(P, D, state,
    deadline)``) instead of this machine's threads. ``fast``: with
    ``"expectimax"``, the fast mode (method ``"expectimax-fast"``,
    approximate): the next deal drawn ``fast`` times by probability, every
    later deal exact, each value with its standard error and the error
    measured on the bench in the note.

    Three players: value vectors, one entry per seat, searched by
    ``search`` (``"maxn"`` or ``"paranoid"``), see
    :func:`solver.analysis.threep.evaluate3`; ``search`` is ignored (with
    a note) for two sides.

    Raises CompileError when the position cannot be searched that way
    (exact asked with unknown cards; expectimax with a hidden hand;
    equilibrium with three players), BudgetError when an exact method
    asked for by name does not finish within the budget.
    """
    if method not in METHODS:
        raise ValueError(f"unknown method {method!r} (expected one of {', '.join(METHODS)})")
    if pos.players == 3:
        from .threep import evaluate3
        a = evaluate3(pos, method, samples, seed, time_budget=time_budget, search=search,
                      min_samples=min_samples, z=z, memory_mb=memory_mb)
        if unwritten_piles(pos):
            a.note += ("; taken= not given: every pile counts from 0 cards (the card "
                       "count over 20 needs the real piles)")
        return a
    a = _evaluate(pos, method, samples, seed, workers, time_budget, memory_mb, z,
                  min_samples, progress, inference, cluster, fast)
    if search != "maxn":
        a.note += f"; --search {search} ignored (two sides: alpha-beta is exact)"
    missing = unwritten_piles(pos)
    if missing:
        a.note += (f"; taken= not given ({missing} cards in piles not written): the values "
                   "count only the cards still to be won")
    return a


def _evaluate(pos, method, samples, seed, workers, time_budget, memory_mb, z, min_samples,
              progress, inference, cluster=None, fast=None) -> Analysis:
    if pos.rules.voleur:
        from .pure import evaluate_pure
        return evaluate_pure(pos, method, samples, seed, time_budget, z, min_samples, progress,
                             memory_mb)
    chosen = choose_method(pos) if method == "auto" else method
    # loading the compiled core (the first search of a process) is start-up,
    # not search: the clock starts after it; only what the method needs
    ensure_compiled(parts={"exact": ("exact",), "expectimax": ("search", "samples"),
                           "determinised": ("samples",)}.get(chosen, ("samples",)))
    budget = Budget(time_budget, memory_mb)
    t0 = time.perf_counter()
    if chosen == "exact":
        if not is_perfect_information(pos):
            raise CompileError("exact search needs every card known (stock order and hands)")
        try:
            return _exact(pos, budget, t0, "every card is known: exact alpha-beta")
        except SearchAborted as e:
            if method == "auto":
                return one_ply(pos, t0, f"exact search did not finish in {time_budget:g} s "
                                        f"({e.nodes:,} nodes)")
            raise BudgetError(f"exact search did not finish in {time_budget:g} s "
                              f"({e.nodes:,} nodes)") from None
    if chosen == "equilibrium":
        try:
            return _equilibrium(pos, budget, t0)
        except (SearchAborted, CompileError) as e:
            if method == "equilibrium":
                if isinstance(e, SearchAborted):
                    raise BudgetError(f"the equilibrium did not finish in {time_budget:g} s: "
                                      "raise --time, or use --method auto") from None
                raise
            why = f"a hand is hidden; the equilibrium did not fit ({e}): determinised search"
            return _sampled(pos, budget, t0, why, samples, seed, workers, z, min_samples,
                            progress, inference=inference)
    if chosen == "determinised":
        why = ("a hand is hidden: determinised search (the mover's view)" if method == "auto"
               else "determinised search")
        return _sampled(pos, budget, t0, why, samples, seed, workers, z, min_samples,
                        progress, inference=inference)
    # expectimax
    if method == "expectimax":
        try:
            if cluster is not None:
                return _expectimax_cluster(pos, budget, t0, cluster)
            if fast is not None:
                return _expectimax_fast(pos, budget, t0, fast, seed, workers)
            return _expectimax(pos, budget, budget.deadline, t0,
                               "stock order unknown: exact expectimax", workers)
        except SearchAborted as e:
            kept = f"; {cluster.kept()}" if cluster is not None else ""
            raise BudgetError(_unfinished(pos, e, budget) + kept + ": raise --time or --memory, "
                              "or use --method auto to sample instead") from None
    compile_shuffled(pos)       # raises CompileError now for what it cannot take
    seconds, why = estimate_expectimax(pos)
    allotted = EXPECTIMAX_SHARE * time_budget
    if seconds > TRY_FACTOR * allotted:
        note = (f"stock order unknown; expectimax would take about {seconds:.2g} s "
                f"({why}), far over the {allotted:.2g} s it may have: determinised search")
        return _sampled(pos, budget, t0, note, samples, seed, workers, z, min_samples,
                        progress)
    try:
        return _expectimax(pos, budget, budget.start + allotted, t0,
                           "stock order unknown: exact expectimax, finished within the budget",
                           workers)
    except SearchAborted as e:
        note = _unfinished(pos, e, budget) + "; determinised search for the time left"
        return _sampled(pos, budget, t0, note, samples, seed, workers, z, min_samples,
                        progress, expectimax_nodes=e.nodes)


def one_ply(pos: Position, t0: float, why: str) -> Analysis:
    """``auto``'s answer when its time ran out before any search finished
    (a budget smaller than one search of the position): each play valued
    by what it scores at once (the cards it takes and its points: a
    search one ply deep), method ``one-ply``, the note saying so. Keeps
    ``auto``'s promise to answer within ``--time``."""
    game, state = sampler(pos)(random.Random(0))
    values = {m: game.play(state, m)[1] for m in game.moves(state)}
    moves = _exact_moves(pos, game, state, values, pile_margin(pos))
    top = moves[0].value
    note = (f"{why}: each play valued by what it takes and scores now only (one ply, no "
            f"look-ahead); raise --time for a search")
    return Analysis(pos, "one-ply", top, moves, [mv.move for mv in moves if mv.value == top],
                    None, len(moves), time.perf_counter() - t0, note=note)


def _equilibrium(pos: Position, budget: Budget, t0: float) -> Analysis:
    """The exact player's-view values of the last two deals: the deal as a
    game with imperfect information (:class:`solver.engine.view_game.
    ViewGame`), solved by its sequence-form LP; one LP for the game and one
    for each distinct play."""
    from ..search.equilibrium import solve
    vg = ViewGame(pos)
    sol = solve(vg.tree)
    values = {}
    for m in sol.root_policy:
        if time.monotonic() > budget.deadline:
            raise SearchAborted("time", 0, time.perf_counter() - t0)
        values[m] = solve(vg.tree, fix_root=m).value
    game, state = sampler(pos)(random.Random(0))
    moves = _exact_moves(pos, game, state, values, pile_margin(pos))
    top = moves[0].value
    policy = ", ".join(f"{RANKS[m]} {p:.0%}" for m, p in sorted(sol.root_policy.items())
                       if p > 1e-6)
    note = (f"the mover's view in the last two deals: the exact value for what the mover "
            f"knows (the other hand dealt by chance from the {vg.hands_dealt} hands it may "
            f"be, each player knowing its own; the last deal exact), a zero-sum game solved "
            f"by its sequence-form LP ({sol.variables} variables, {vg.leaves} end-of-deal "
            f"states); equilibrium policy {policy}")
    return Analysis(pos, "equilibrium", top, moves,
                    [mv.move for mv in moves if abs(mv.value - top) <= 1e-9], None,
                    vg.leaves, time.perf_counter() - t0, note=note,
                    extra={"policy": {str(RANKS[m]): p for m, p in sol.root_policy.items()},
                           "hidden_hands": vg.hands_dealt, "lp_variables": sol.variables})


def _unfinished(pos: Position, e: SearchAborted, budget: Budget) -> str:
    why = {"time": f"in {e.seconds:.2g} s",
           "outcomes": f"within {budget.memory_mb:g} MB (a chance node too large)",
           "nodes": "within its node budget"}.get(e.reason, "")
    return (f"expectimax did not finish {why} at {unseen_count(pos)} unseen cards "
            f"({e.nodes:,} nodes)")


def _exact(pos: Position, budget: Budget, t0: float, note: str) -> Analysis:
    game, state = compile_known(pos)
    P, D = params(game)
    searcher = Searcher(P, D, min(budget.memory_mb, 8.0))
    st = core_state(state)
    values, pv = searcher.root_values_and_pv(st, budget.deadline)
    nodes = searcher.nodes
    moves = _exact_moves(pos, game, state, {m: int(v) for m, v in values.items()},
                         pile_margin(pos))
    top = moves[0].value
    return Analysis(pos, "exact", top, moves, [mv.move for mv in moves if mv.value == top],
                    [str(RANKS[m]) for m in pv], nodes, time.perf_counter() - t0, note=note)


def _expectimax(pos: Position, budget: Budget, deadline: float, t0: float,
                note: str, workers: int = 1) -> Analysis:
    game, state = compile_shuffled(pos)
    P, D = params(game)
    searcher = Searcher(P, D, budget.memory_mb, workers)
    st = core_state(state)
    values = searcher.root_values(st, deadline)
    stats = searcher.stats()
    pv = searcher.principal_variation(st, deadline)
    moves = _exact_moves(pos, game, state, values, pile_margin(pos))
    top = moves[0].value
    peak = _peak_rss_mb()
    extra = dict(stats, tt_mb=round(stats["tt_entries"] * 32 / 2 ** 20, 1), peak_rss_mb=peak)
    return Analysis(pos, "expectimax", top, moves,
                    [mv.move for mv in moves if abs(mv.value - top) <= 1e-9],
                    [str(RANKS[m]) for m in pv], stats["nodes"] + stats["chance_nodes"],
                    time.perf_counter() - t0, note=note + "; pv up to the next deal",
                    extra=extra)


def _expectimax_cluster(pos: Position, budget: Budget, t0: float, cluster) -> Analysis:
    """Exact expectimax split at the first chance level over a cluster."""
    game, state = compile_shuffled(pos)
    P, D = params(game)
    values, pv, stats = cluster.solve(P, D, core_state(state), budget.deadline)
    moves = _exact_moves(pos, game, state, values, pile_margin(pos))
    top = moves[0].value
    return Analysis(pos, "expectimax", top, moves,
                    [mv.move for mv in moves if abs(mv.value - top) <= 1e-9],
                    [str(RANKS[m]) for m in pv], stats["nodes"], time.perf_counter() - t0,
                    note=("stock order unknown: exact expectimax, its first chance level's "
                          f"{stats['outcomes']:,} outcomes solved on {cluster.where}; "
                          "pv up to the next deal"),
                    extra={"cluster": stats})


#: the fast mode's largest error of a value (points) measured on the bench
#: (bench/bench_fast.py, docs/performance.md): deals drawn -> (unseen
#: cards, error) over the positions measured
FAST_ERROR = {100: (12, 0.47), 300: (12, 0.28), 1000: (12, 0.15)}


def _expectimax_fast(pos: Position, budget: Budget, t0: float, samples: int, seed: int,
                     workers: int) -> Analysis:
    """The fast mode: :func:`solver.search.split.sampled_root_values`."""
    from ..search.split import sampled_root_values
    game, state = compile_shuffled(pos)
    P, D = params(game)
    values, stderr, solved, nodes = sampled_root_values(P, D, core_state(state), samples,
                                                        seed, budget.memory_mb, workers,
                                                        budget.deadline)
    moves = _exact_moves(pos, game, state, values, pile_margin(pos))
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
    return Analysis(pos, "expectimax-fast", top, moves,
                    [mv.move for mv in moves if abs(mv.value - top) <= 1e-9], None, nodes,
                    time.perf_counter() - t0, samples=samples, stderr=moves[0].stderr,
                    note=note, seed=seed)


def _peak_rss_mb() -> float:
    import resource
    return round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)


def sampled_moves(pos: Position, result, seed: int) -> list[MoveValue]:
    """The plays of a determinised ``result`` (:func:`solver.search.pimc`
    results, half-points without the piles) as MoveValues in points, best
    first, each with its effect read off one sampled deal (seed ``seed``)."""
    game, state = sampler(pos)(random.Random(seed))
    effects = {m: describe(game, state, m) for m in game.moves(state)}
    base = pile_margin(pos)
    n = result.samples
    return [MoveValue(move_text(pos, sm.move), sm.move, (sm.mean + base) / 2,
                      None if sm.stderr is None else sm.stderr / 2,
                      effects.get(sm.move, ""), sm.best / n, sm.lead_z)
            for sm in result.moves]


def _sampled(pos: Position, budget: Budget, t0: float, why: str, samples: int, seed: int,
             workers: int, z: float | None, min_samples: int, progress,
             expectimax_nodes: int = 0, inference: bool = True) -> Analysis:
    spec = draw_spec(pos)           # raises CompileError before any sampling
    weigh = None
    evidence = Evidence(pos) if inference else None
    if evidence is not None and not evidence.empty:
        players = pos.players

        def weigh(hands):
            return evidence.likelihood([ranks_of(int(h)) for h in hands[:players]])
    result = determinised(spec, samples, seed, workers=workers, z=z,
                          min_samples=min_samples, time_budget=budget.left(),
                          memory_mb=min(budget.memory_mb, 64.0), weigh=weigh,
                          progress=progress)
    moves = sampled_moves(pos, result, seed)
    n = result.samples
    top = moves[0]
    hidden = any(c is None for h in pos.hands for c in h)
    stopped = {"separated": "separated (the best play leads every other by 2.33 paired "
                            "standard errors: a bound on sampling error only)",
               "samples": "the sample budget", "time": "the time budget",
               "interrupted": "interrupted"}.get(result.stopped, result.stopped)
    note = f"{why}; {n} determinisations (seed {seed}), stopped: {stopped}"
    if result.ess is not None:
        note += (f"; weighted by the likelihood of {len(evidence.items)} play(s) of the "
                 f"hidden hands this deal (inference): worth {result.ess:.0f} unweighted "
                 f"samples")
    if hidden:
        note += ("; an estimate for the mover's information, not an exact value "
                 "(strategy fusion)")
    else:
        note += ("; each determinisation sees the stock order (clairvoyance), so the "
                 "estimate can favour plays that need the deal to fall right")
    return Analysis(pos, "determinised", top.value, moves, [top.move], None,
                    result.nodes + expectimax_nodes, time.perf_counter() - t0, n, seed, note,
                    top.stderr, partial=result.partial, stopped=result.stopped,
                    workers=result.workers, ess=result.ess)
