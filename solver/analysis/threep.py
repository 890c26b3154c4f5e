"""Evaluating a three-player position: every play with its value vector.

A value is a vector, one entry per seat (S, E, N): the game points that
seat scores from now to the end of the hand, its own card count over 20
included (``max(0, pile - 20)`` on the whole pile, ``taken=`` included);
declarations of deals still to come count, those of the current deal not.
The mover's best play maximises its own entry; ties go to the lower sum
of the other two, then the lowest rank (docs/rules.md, decision 9).

Methods: ``exact`` (every card known: max^n, or paranoid, on the known
stock), ``expectimax`` (hands known, stock order not: chance nodes average
the vectors over the deals), ``determinised`` (sample the unknown cards
consistently with the position, solve each sample exactly, average the
vectors), ``auto``: exact when every card is known, expectimax when the
hands are known and at most one deal is to come (unless
:func:`estimate_nodes` says it cannot finish; falling back to
determinised search past 60% of the time budget), else determinised.
"""

from __future__ import annotations

import math
import random
import time

from ..cards import RANKS
from ..engine.compile import CompileError, is_perfect_information, sampler
from ..engine.game import EV_ANSWER10, EV_ANSWER5, EV_CAPTURE, EV_HIT, EV_MISSA, \
    event_points, ranks_of
from ..engine.game3 import Game3, State3
from ..position import Position
from ..search.maxn import Aborted, MaxN, Paranoid, average_vectors, choose
from ..engine.compile3 import build_known, compile_known3, compile_shuffled3

SEARCHES = ("maxn", "paranoid")
#: auto runs expectimax when the stock holds at most this many cards (one
#: deal to come); two deals to come (18 cards) are far too many outcomes
EXPECTIMAX_STOCK = 9
#: auto gives expectimax this share of the time budget
EXPECTIMAX_SHARE = 0.6
#: a determinised search stops once the best play leads every other by
#: this many paired standard errors (99% one-sided), after MIN_SAMPLES
Z_99 = 2.33
MIN_SAMPLES = 30


#: pure-Python max^n speed the auto method plans with (bench/bench_threep.py)
NODES_PER_SECOND = 150_000
#: decision nodes a deal's game tree takes once dealt, on average (three
#: hands of three: at most 6**3 orders, fewer with equal ranks and the table)
NODES_PER_DEAL = 100
#: auto skips expectimax when the estimate exceeds this many times what
#: its share of the budget allows (the estimate is rough; the table
#: shares the states that different orders of the current deal reach)
TRY_FACTOR = 5.0


def estimate_nodes(pos: Position) -> float:
    """A rough count of the nodes expectimax needs for a three-player
    position whose hands are known and whose stock holds at most one
    deal: the orders of the cards in hand (product of the factorials of
    the hand sizes) times the distinct deals of the stock times
    :data:`NODES_PER_DEAL`."""
    game, state = compile_shuffled3(pos)
    paths = 1
    for h in pos.hands:
        paths *= math.factorial(len(h))
    deals = len(game._deal_outcomes(state[6])) if state[6] else 1
    return paths * deals * (NODES_PER_DEAL if state[6] else 1)


def solve(game: Game3, state: State3, search: str = "maxn",
          deadline: float | None = None, pv: bool = True,
          max_entries: int | None = None) -> tuple[dict, int, list[int]]:
    """Every root play's vector: ``({move: vector}, nodes, pv)`` with
    ``search`` ``"maxn"`` or ``"paranoid"`` (for the mover). ``pv``: the
    chosen plays up to the end of the hand or the next deal from a
    shuffled stock (empty when not asked for). Raises
    :class:`~solver.search.maxn.Aborted` past ``deadline``
    (``time.monotonic()``); ``max_entries`` caps the tables (the chance
    nodes' deals included)."""
    if max_entries is not None:
        game.max_outcomes = max_entries
    game.stop_at = deadline
    if search == "maxn":
        s = MaxN(game, deadline=deadline, **({} if max_entries is None
                                             else {"max_entries": max_entries}))
        values = s.root_values(state)
        if not pv:
            return values, s.nodes, []
        pv, st = [], state
        while not game.is_terminal(st) and not game.is_chance(st):
            m = choose(s.root_values(st) if pv else values, game.mover(st))
            pv.append(m)
            st = game.play(st, m)[0]
        return values, s.nodes, pv
    if search == "paranoid":
        p = Paranoid(game, game.mover(state), deadline=deadline, max_entries=max_entries)
        values = p.root_values(state)
        if not pv:
            return values, p.nodes, []
        pv, st = [choose(values, game.mover(state))], None
        st = game.play(state, pv[0])[0]
        while not game.is_terminal(st) and not game.is_chance(st):
            m = p._pick(st)[0]
            pv.append(m)
            st = game.play(st, m)[0]
        return values, p.nodes, pv
    raise ValueError(f"unknown search {search!r} (expected maxn or paranoid)")


def describe3(game: Game3, state: State3, move: int) -> str:
    """What playing rank index ``move`` does now: ``x5.6.7`` for the cards
    it takes from the table (its own card first), ``+pile E`` for each
    pile it steals (voleur), then the points of each event, or ``lays``."""
    child, _g, ev = game.play(state, move)
    rank = str(RANKS[move])
    if ev & EV_ANSWER5:
        parts = ["x" + ".".join([rank] * 3)]
    elif ev & EV_ANSWER10:
        parts = ["x" + ".".join([rank] * 4)]
    elif ev & EV_CAPTURE:
        taken = ranks_of(game.capture(state[0], move))
        parts = ["x" + ".".join([rank] + [str(RANKS[r]) for r in taken])]
    else:
        parts = ["lays"]
    if ev & EV_CAPTURE:
        for seat in range(3):
            if seat != state[2] and state[7][seat] and not child[7][seat]:
                parts.append(f"+pile {'SEN'[seat]}({state[7][seat]})")
    for bit, name in ((EV_CAPTURE, "capture"), (EV_HIT, "hit"), (EV_ANSWER5, "answer"),
                      (EV_ANSWER10, "answer"), (EV_MISSA, "missa")):
        pts = event_points(game.rules, bit) if ev & bit else 0
        if pts:
            parts.append(f"+{pts} {name}")
    return " ".join(parts)


def _moves(pos: Position, game: Game3, state: State3, values: dict,
           errs: dict | None = None, best_rate: dict | None = None):
    from .evaluation import MoveValue, move_text
    seat = pos.turn
    order = sorted(values, key=lambda m: m != choose(values, seat))
    rest = sorted(order[1:], key=lambda m: (-values[m][seat], sum(values[m]), m))
    out = []
    for m in order[:1] + rest:
        v = values[m]
        se = None if errs is None or errs.get(m) is None else errs[m][seat]
        out.append(MoveValue(move_text(pos, m), m, v[seat], se, describe3(game, state, m),
                             None if best_rate is None else best_rate[m],
                             values=[float(x) for x in v]))
    return out


def _analysis(pos, method, moves, pv, nodes, t0, note, **kw):
    from .evaluation import Analysis
    top = moves[0]
    if method == "determinised":
        best = [top.move]
    else:       # equal under the tie rule's (1) and (2): the lowest rank listed first
        others = sum(top.values) - top.value
        best = [mv.move for mv in moves if abs(mv.value - top.value) <= 1e-9
                and abs(sum(mv.values) - mv.value - others) <= 1e-9]
    return Analysis(pos, method, top.value, moves, best,
                    None if pv is None else [str(RANKS[m]) for m in pv], nodes,
                    time.perf_counter() - t0, note=note, values=list(top.values), **kw)


def evaluate3(pos: Position, method: str = "auto", samples: int = 1000, seed: int = 0, *,
              time_budget: float = 10.0, search: str = "maxn",
              min_samples: int = MIN_SAMPLES, z: float | None = Z_99,
              memory_mb: float | None = None):
    """Evaluate every play of a three-player position (see the module
    docstring for the methods). Returns a :class:`solver.analysis.evaluation.Analysis`
    whose ``values`` (and each move's) is the vector per seat, ``value``
    the mover's own entry.

    Raises CompileError for a method the position cannot take (exact with
    unknown cards; expectimax with a hidden hand; equilibrium, which takes
    two players), ValueError for an unknown ``search``, and
    :class:`~solver.analysis.evaluation.BudgetError` when a method asked for by
    name does not finish within ``time_budget`` seconds. Every search
    keeps ``time_budget`` (the clock is read every 1024 nodes, and before
    each chance node's deals) and ``memory_mb`` (the tables are emptied
    when full: :func:`solver.search.guard.entries_for`); ``auto`` always
    answers (:func:`one_ply3` when no search finished in time)."""
    from .evaluation import BudgetError
    from ..search.guard import entries_for
    cap = entries_for(memory_mb)
    auto = method == "auto"
    if search not in SEARCHES:
        raise ValueError(f"unknown search {search!r} (expected maxn or paranoid)")
    t0 = time.perf_counter()
    start = time.monotonic()
    deadline = start + time_budget
    hidden = any(c is None for h in pos.hands for c in h)
    label = "max^n" if search == "maxn" else "paranoid alpha-beta"
    if method == "equilibrium":
        raise CompileError("the equilibrium takes two players (zero-sum); three players: "
                           "use exact, expectimax or determinised")
    if method == "auto":
        if is_perfect_information(pos):
            method = "exact"
        elif hidden or len(pos.stock) > EXPECTIMAX_STOCK or pos.stock_kind == "unknown":
            method = "determinised"
        elif (est := estimate_nodes(pos)) > (TRY_FACTOR * NODES_PER_SECOND
                                             * EXPECTIMAX_SHARE * time_budget):
            method = "determinised"
            why = (f"stock order unknown; expectimax would take about {est:.2g} nodes, over "
                   f"the time budget: determinised search")
            return _sampled_or_one_ply(pos, search, samples, seed, deadline, t0, why,
                                       min_samples, z, cap, time_budget)
        else:
            try:
                return _expectimax(pos, search, start + EXPECTIMAX_SHARE * time_budget, t0,
                                   f"stock order unknown: expectimax of {label} vectors", cap)
            except Aborted as e:
                return _sampled_or_one_ply(pos, search, samples, seed, deadline, t0,
                                           f"expectimax did not finish ({e}); determinised "
                                           f"search", min_samples, z, cap, time_budget)
    if method == "exact":
        if not is_perfect_information(pos):
            raise CompileError("exact search needs every card known (stock order and hands)")
        game, state = compile_known3(pos)
        try:
            values, nodes, pv = solve(game, state, search, deadline, max_entries=cap)
        except Aborted:
            if auto:
                return one_ply3(pos, t0, f"exact search did not finish in {time_budget:g} s")
            raise BudgetError(f"exact search did not finish in {time_budget:g} s") from None
        return _analysis(pos, "exact", _moves(pos, game, state, values), pv, nodes, t0,
                         f"every card is known: {label} on three value vectors")
    if method == "expectimax":
        try:
            return _expectimax(pos, search, deadline, t0,
                               f"stock order unknown: expectimax of {label} vectors", cap)
        except Aborted:
            raise BudgetError(f"expectimax did not finish in {time_budget:g} s: raise --time, "
                              "or use --method auto to sample instead") from None
    if method == "determinised":
        why = ("a hand is hidden: determinised search" if hidden
               else "determinised search")
        if not auto:
            try:
                return _sampled(pos, search, samples, seed, deadline, t0, why, min_samples, z,
                                cap)
            except Aborted:
                raise BudgetError(f"no determinisation finished in {time_budget:g} s: raise "
                                  "--time, or use --method auto") from None
        return _sampled_or_one_ply(pos, search, samples, seed, deadline, t0, why,
                                   min_samples, z, cap, time_budget)
    raise ValueError(f"unknown method {method!r}")


def _sampled_or_one_ply(pos, search, samples, seed, deadline, t0, why, min_samples, z, cap,
                        time_budget):
    """auto's sampling: the determinisations that fit in the time, or,
    when not one does, :func:`one_ply3`."""
    try:
        return _sampled(pos, search, samples, seed, deadline, t0, why, min_samples, z, cap)
    except Aborted:
        return one_ply3(pos, t0, f"{why}: no determinisation finished in {time_budget:g} s")


def one_ply3(pos: Position, t0: float, why: str):
    """Three players: auto's answer when no search finished in time: each
    play's points now (one ply), as :func:`solver.analysis.evaluation.one_ply`."""
    draw = sampler(pos, build=build_known)
    game, state = draw(random.Random(0))
    values = {m: tuple(float(x) for x in game.play(state, m)[1]) for m in game.moves(state)}
    note = (f"{why}: each play valued by what it takes and scores now only (one ply, no "
            f"look-ahead); raise --time for a search")
    return _analysis(pos, "one-ply", _moves(pos, game, state, values), None, len(values), t0,
                     note)


def _expectimax(pos, search, deadline, t0, note, cap=None):
    game, state = compile_shuffled3(pos)
    values, nodes, pv = solve(game, state, search, deadline, max_entries=cap)
    return _analysis(pos, "expectimax", _moves(pos, game, state, values), pv, nodes, t0,
                     note + "; pv up to the next deal")


def _sampled(pos, search, samples, seed, deadline, t0, why, min_samples, z, cap=None):
    if any(c is None for c in pos.hands[pos.turn]):
        raise CompileError(
            f"the hand of the player to move ({pos.seat_name(pos.turn)}) must be known: "
            "its plays are what is evaluated")
    draw = sampler(pos, build=build_known)
    seat = pos.turn
    per_sample: list[dict] = []
    nodes = 0
    stopped = "samples"
    for i in range(samples):
        if time.monotonic() > deadline:
            stopped = "time"
            break
        game, state = draw(random.Random(f"{seed}:{i}"))
        try:
            # every sample, the first included, keeps the deadline
            values, n, _pv = solve(game, state, search, deadline, pv=False, max_entries=cap)
        except Aborted:
            stopped = "time"
            break
        nodes += n
        per_sample.append(values)
        if z is not None and len(per_sample) >= min_samples and _separated(per_sample, seat, z):
            stopped = "separated"
            break
    n = len(per_sample)
    if not n:
        raise Aborted("time")
    moves = list(per_sample[0])
    means, errs = average_vectors(per_sample)
    rate = {m: 0 for m in moves}
    for s in per_sample:
        rate[choose(s, seat)] += 1
    game, state = draw(random.Random(f"{seed}:0"))     # the effects of the plays
    mv = _moves(pos, game, state, means, errs, {m: rate[m] / n for m in moves})
    stop = {"separated": f"separated (the best play leads every other by {z} paired "
                         "standard errors on the mover's entry)",
            "samples": "the sample budget", "time": "the time budget"}[stopped]
    note = (f"{why}; {n} determinisations (seed {seed}) each solved by "
            f"{'max^n' if search == 'maxn' else 'paranoid alpha-beta'}, vectors averaged; "
            f"stopped: {stop}")
    if pos.hist is not None:
        note += "; hist= not weighed (inference is fitted for two players)"
    note += ("; an estimate for the mover's information, not an exact value (strategy fusion)"
             if any(c is None for h in pos.hands for c in h) else
             "; each determinisation sees the stock order (clairvoyance)")
    return _analysis(pos, "determinised", mv, None, nodes, t0, note, samples=n, seed=seed,
                     stderr=mv[0].stderr, stopped=stopped)


def _stderr(xs: list[float]) -> float:
    n = len(xs)
    mu = sum(xs) / n
    return math.sqrt(sum((x - mu) ** 2 for x in xs) / (n - 1) / n)


def _separated(per_sample: list[dict], seat: int, z: float) -> bool:
    """The best play (highest mean own entry) leads every other play by
    more than ``z`` paired standard errors of the mover's entry."""
    n = len(per_sample)
    if not n:
        raise Aborted("time")
    moves = list(per_sample[0])
    if len(moves) == 1:
        return True
    mean = {m: sum(s[m][seat] for s in per_sample) / n for m in moves}
    top = max(moves, key=lambda m: mean[m])
    for m in moves:
        if m == top:
            continue
        d = [s[top][seat] - s[m][seat] for s in per_sample]
        mu = sum(d) / n
        se = _stderr(d)
        if se == 0 and mu > 0:
            continue
        if se == 0 or mu / se <= z:
            return False
    return True
