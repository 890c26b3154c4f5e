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
from math import factorial
from dataclasses import dataclass, field

from .cards import RANKS
from .engine.compile import (CompileError, compile_known, compile_shuffled,
                      is_perfect_information, pile_margin, sampler,
                      sampler_from_line, unseen_count)
from .engine.game import _multisets, count
from .engine.game import (EV_ANSWER10, EV_ANSWER5, EV_CAPTURE, EV_HIT, EV_MISSA, Game,
                   State, event_points, ranks_of)
from .position import Position
from .search.alphabeta import solve
from .notation import format_position
from .search.expectimax import Expectimax
from .search.pimc import Z_99, determinised

METHODS = ("auto", "exact", "expectimax", "determinised")


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
    ``stopped``: why the sampling stopped; ``workers``: processes used.
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
    when it stays on the table."""
    _child, _gain, ev = game.play(state, move)
    rules = game.rules
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
    for bit, name in ((EV_CAPTURE, "capture"), (EV_HIT, "hit"), (EV_ANSWER5, "answer"),
                      (EV_ANSWER10, "answer"), (EV_MISSA, "missa")):
        pts = event_points(rules, bit) if ev & bit else 0
        if pts:
            parts.append(f"+{pts} {name}")
    return " ".join(parts)


def estimate_expectimax(pos: Position) -> tuple[float, float, str]:
    """A rough cost of exact expectimax for ``pos``: ``(seconds, MB, why)``.

    The model, calibrated on two-player positions at the start of a deal
    (bench/bench_expectimax.py): decision nodes ~ 20 x the product, over
    the deals to come, of their outcome counts (the first from the actual
    stock, deeper ones from a representative remainder) and their lines of
    play relative to a two-player deal of 3 cards (and so for the current
    deal's hands); 5 microseconds a node with two players, 20 with four;
    ~180 bytes of table a node."""
    game, state = compile_shuffled(pos)
    counts = [count(state[6], r) for r in range(10)]
    # lines of play of the current deal and of each deal to come, against
    # the 36 of a two-player deal of 3 cards the model was calibrated on
    product = 1.0
    for hand in pos.hands:
        product *= factorial(len(hand))
    product /= 36
    levels = 0
    while sum(counts):
        n = game.next_deal[sum(counts)]
        if product < 1e15:          # past the cap only the deals are counted
            product *= _deal_outcome_count(counts, n, pos.players) * factorial(n) ** pos.players / 36
        levels += 1
        # a representative remainder: deal the most frequent ranks first
        for _ in range(n * pos.players):
            counts[counts.index(max(counts))] -= 1
    nodes = 20.0 * max(product, 1.0)
    seconds = nodes * (5e-6 if pos.players == 2 else 2e-5)
    mb = nodes * 180 / 1e6
    why = (f"{unseen_count(pos)} unseen cards, {levels} deal(s) to come: "
           f"{'more than' if product >= 1e15 else 'about'} {nodes:.2g} nodes, "
           f"{seconds:.2g} s, {mb:.2g} MB")
    return seconds, mb, why


def _deal_outcome_count(counts: list[int], n: int, seats: int) -> int:
    """How many rank-multiset deals of ``n`` cards to each of ``seats``
    seats a stock with ``counts`` per rank allows (no enumeration of
    states; memoised on the remaining counts)."""
    from functools import lru_cache

    @lru_cache(maxsize=None)
    def ways(rem: tuple[int, ...], seat: int) -> int:
        if seat == seats:
            return 1
        total = 0
        for combo in _multisets(list(rem), n):
            total += ways(tuple(a - b for a, b in zip(rem, combo)), seat + 1)
        return total

    return ways(tuple(counts), 0)


def choose_method(pos: Position, time_budget: float, memory_mb: float) -> tuple[str, str]:
    """The method ``auto`` runs for ``pos`` and why: ``exact`` when every
    card is known; ``determinised`` when a hand is hidden (the mover's
    view) or when expectimax would not fit ``time_budget`` seconds and
    ``memory_mb``; else ``expectimax``."""
    if is_perfect_information(pos):
        return "exact", "every card is known: exact alpha-beta"
    if any(c is None for h in pos.hands for c in h):
        return "determinised", "a hand is hidden: determinised search (the mover's view)"
    seconds, mb, why = estimate_expectimax(pos)
    if seconds <= time_budget and mb <= memory_mb:
        return "expectimax", f"stock order unknown, expectimax fits the budget ({why})"
    return "determinised", (f"stock order unknown, expectimax would not fit "
                            f"{time_budget:g} s / {memory_mb:g} MB ({why})")


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
             min_samples: int = 30, progress=None) -> Analysis:
    """Evaluate every legal play of ``pos``.

    ``method``: ``"exact"`` (perfect information: known stock order and
    hands; alpha-beta), ``"expectimax"`` (hands known, stock order not:
    exact expected values over the deals to come), ``"determinised"``
    (sample the unknown cards: at most ``samples`` determinisations with
    ``seed``, stopping early when the best play is separated at ``z``
    standard errors, or after ``time_budget`` seconds), or ``"auto"``
    (see :func:`choose_method`, with ``time_budget`` seconds and
    ``memory_mb``). ``workers`` processes share the sampling (the result
    does not depend on their number). ``progress`` gets the sampling
    result after each batch. Raises CompileError when the position cannot
    be searched that way (three players; exact asked with unknown cards;
    expectimax with a hidden hand).
    """
    if method not in METHODS:
        raise ValueError(f"unknown method {method!r} (expected one of {', '.join(METHODS)})")
    note = ""
    if method == "auto":
        method, note = choose_method(pos, time_budget, memory_mb)
    t0 = time.perf_counter()
    base = pile_margin(pos)
    if method == "exact":
        if not is_perfect_information(pos):
            raise CompileError("exact search needs every card known (stock order and hands)")
        game, state = compile_known(pos)
        values, pv, stats = solve(game, state)
        moves = _exact_moves(pos, game, state, values, base)
        top = moves[0].value
        return Analysis(pos, "exact", top, moves,
                        [mv.move for mv in moves if mv.value == top],
                        [str(RANKS[m]) for m in pv], stats.nodes,
                        time.perf_counter() - t0,
                        note=note or "every card is known: exact alpha-beta")
    if method == "expectimax":
        game, state = compile_shuffled(pos)
        em = Expectimax(game)
        values = em.root_values(state)
        nodes = em.stats.nodes + em.stats.chance
        pv = em.principal_variation(state)
        moves = _exact_moves(pos, game, state, values, base)
        top = moves[0].value
        return Analysis(pos, "expectimax", top, moves,
                        [mv.move for mv in moves if abs(mv.value - top) <= 1e-9],
                        [str(RANKS[m]) for m in pv], nodes, time.perf_counter() - t0,
                        note=(note or "stock order unknown: exact expectimax")
                        + "; pv up to the next deal",
                        extra={"chance_nodes": em.stats.chance,
                               "star1_cutoffs": em.stats.cutoffs,
                               "tt_entries": em.stats.tt_size})
    # determinised
    sampler(pos)        # raises CompileError now, not in a worker
    line = format_position(pos)
    result = determinised(sampler_from_line, line, samples, seed, workers=workers,
                          z=z, min_samples=min_samples, time_budget=time_budget,
                          progress=progress)
    game, state = sampler(pos)(random.Random(seed))
    effects = {m: describe(game, state, m) for m in game.moves(state)}
    n = result.samples
    moves = [MoveValue(move_text(pos, sm.move), sm.move, (sm.mean + base) / 2,
                       None if sm.stderr is None else sm.stderr / 2,
                       effects.get(sm.move, ""), sm.best / n, sm.lead_z)
             for sm in result.moves]
    top = moves[0]
    hidden = any(c is None for h in pos.hands for c in h)
    why = note or "unknown cards: determinised search"
    note = (f"{why}; {n} determinisations (seed {seed}), stopped: {result.stopped}"
            + ("; an estimate for the mover's information, not an exact value "
               "(strategy fusion)" if hidden else ""))
    return Analysis(pos, "determinised", top.value, moves, [top.move], None,
                    result.nodes, time.perf_counter() - t0, n, seed, note,
                    top.stderr, partial=result.partial, stopped=result.stopped,
                    workers=result.workers)
