"""The deal search of a position: what is hidden in the current deal is
completed (every hand the other seats may hold, weighted by inference), the
current deal is solved exactly for each completion, and the deals to come
are valued where the deal ends, by the learned boundary value
(:mod:`solver.value`), never by a drawn stock order.

Two players: every hand the other player may hold is enumerated (at most
a few hundred rank multisets), each weighted by the ways its cards can be
drawn and by the likelihood of its plays this deal
(:mod:`solver.analysis.inference`): the average is an exact expectation
over the hidden hand, with no sampling error. Four players: the three
other hands are drawn (:func:`solver.engine.sampling.draw`) and weighted
by their plays.

The values' remaining error is the model's, measured against exact
expectimax (``figures`` of the model file): two plays closer than that
error are *close* (:func:`close_plays`) and the search chooses among them
by a second, robust criterion: the less exposure to a hit or a missa by
the next player, then the higher value, then the lower rank.

>>> from solver.notation import parse_position
>>> fits(parse_position("1.6.7.10.12 6.2.3/4.5.11 ~1.1.2.3.4.5.11.12.12.10.10.7 S taken=7,10 last=N"))
True
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field
from math import comb

import numpy as np

from ..runtime import clock
from ..engine import core
from ..engine.compile import CompileError, build_problem, declared_fits, unseen_pool
from ..engine.scoring import cardset, ranks_of
from ..position import Position
from ..value.model import ValueModel, find
from .inference import Evidence

#: two plays are close when their values differ by less than this many
#: times the estimate's error (the model's measured error of a difference
#: between two plays, and the sampling error when hands are drawn)
TIE_Z = 2.0
#: Student's t at 97.5% (two-sided 95%) by degrees of freedom, for an
#: error measured from few hands or samples (:func:`tie_z`)
_T975 = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365, 8: 2.306,
         9: 2.262, 10: 2.228, 12: 2.179, 15: 2.131, 20: 2.086, 30: 2.042, 60: 2.000}


def tie_z(n: int) -> float:
    """The multiplier of an error measured from ``n`` hands or samples
    that makes two plays close: :data:`TIE_Z`, or Student's t (two-sided
    95%, ``n - 1`` degrees of freedom, the table's next smaller) where it
    is larger, so that a loss measured from 4 samples needs 3.18 of its
    errors to be established, not 2; infinite below 2 (no error measured).

    >>> tie_z(4), tie_z(14), tie_z(1000), tie_z(1)
    (3.182, 2.179, 2.0, inf)
    """
    if n < 2:
        return math.inf
    k = max(d for d in _T975 if d <= n - 1)
    return max(TIE_Z, _T975[k])


#: a search cut short (or a draw of hands) of fewer hands than this measures
#: no error of the differences between plays: every play is close (a loss
#: found in 1 of 35 hands, the heaviest, is no established loss)
MIN_MEASURED = 5
#: the model error of a difference between two plays assumed where the
#: model file has no measurement for the level: its boundary RMSE times this
DIFF_FROM_RMSE = 1.0
#: four players: hands drawn at most
MAX_DRAWS = 4000


def _stock_after_deal(pos: Position, hidden: int) -> int:
    """Cards still to deal when the current deal ends."""
    if pos.stock_kind == "unknown":
        return len(unseen_pool(pos)) - hidden
    return len(pos.stock)


def why_not(pos: Position) -> str | None:
    """Why the deal search cannot take ``pos`` (None when it can)."""
    if pos.players not in (2, 4):
        return "it takes two sides (2 players, or 4 in partnerships)"
    if pos.stock_kind == "known":
        return "the stock order is known: exact search"
    if pos.rules.voleur:
        # said before the model is looked for: no model, and in the last
        # deal (which needs none) its search does not take the piles' steals
        return "it does not take Ronda voleur (the piles change what a deal is worth)"
    if any(c is None for c in pos.hands[pos.turn]):
        return "the mover's hand must be known"
    hidden = sum(1 for h in pos.hands for c in h if c is None)
    try:
        left = _stock_after_deal(pos, hidden)
    except CompileError as e:
        return str(e)
    if left == 0:
        return None
    game = _game(pos, left)
    model = find(game.P)
    if model is None:
        if exact_end(game, left):
            return None
        return (f"no boundary-value model for these rules ({pos.rules.name}, "
                f"{pos.players} players)")
    if left not in model.levels and not exact_end(game, left):
        return f"the boundary-value model has no level for {left} cards to deal"
    return None


def fits(pos: Position) -> bool:
    """The deal search can take ``pos`` (:func:`why_not` is None)."""
    return why_not(pos) is None


def _last_deal_cards(game) -> int:
    """Cards in the stock when the last deal is due."""
    return min(game.next_deal)


def exact_end(game, left: int) -> bool:
    """The chance node at the deal's end (``left`` cards to deal) is
    searched exactly rather than valued by a model: the last deal of a
    two-player hand (6 cards: a few hundred deals, each a 6-card search).
    Four players' last deal (12 cards, three a seat: over 10**5 deals, each
    a 12-card search) is far too big for a decision."""
    return game.players == 2 and left <= _last_deal_cards(game)


def _game(pos: Position, left: int):
    from ..engine.hand import Hand
    return Hand(pos.rules, pos.players, pos.leader(), [0] * left, shuffled=True)


@dataclass
class Completion:
    """The hidden cards of the current deal completed: the hands (card
    sets, one a seat), the stock (card set), the weight (prior times
    likelihood)."""

    hands: tuple[int, int, int, int]
    stock: int
    weight: float


@dataclass
class DealResult:
    """The deal search of one position: ``values`` each rank index's value
    in half-points (piles not counted) for the side to move; ``stderr``
    each value's sampling error (0 when the hidden hands were enumerated);
    ``completions`` searched and their total weight share ``coverage`` (1
    when every hand was searched); ``enumerated``; ``model`` and the
    boundary ``level`` (cards to deal when the deal ends; 0 at the end of
    the hand); ``model_error`` the error in points of a difference between
    two plays; ``exposure`` the chance that the next player can hit or make
    a missa after each play; ``ess`` and ``evidence`` (the plays read)
    with inference, or of drawn hands (None and 0 with one hand: nothing
    weighed)."""

    values: dict[int, float]
    stderr: dict[int, float]
    diff_se: dict[int, float]
    completions: int
    total: int
    coverage: float
    enumerated: bool
    model: ValueModel | None
    level: int
    model_error: float
    exposure: dict[int, float] = field(default_factory=dict)
    nodes: int = 0
    ess: float | None = None
    evidence: int = 0


class DealProblem:
    """The completions of ``pos`` and the game they are searched in."""

    def __init__(self, pos: Position, inference: bool = True, seed: int = 0,
                 max_draws: int = MAX_DRAWS, model=None) -> None:
        reason = why_not(pos)
        if reason is not None:
            raise CompileError(reason)
        self.pos = pos
        self.seats = [s for s, h in enumerate(pos.hands) if any(c is None for c in h)]
        hidden = sum(1 for h in pos.hands for c in h if c is None)
        self.left = _stock_after_deal(pos, hidden)
        known = [[c.index for c in h if c is not None] for h in pos.hands]
        self.known = known
        pool = unseen_pool(pos) if (hidden or pos.stock_kind == "unknown") else []
        if pos.stock_kind == "shuffled":
            if hidden != len(pool):
                raise CompileError(f"{len(pool)} unseen cards cannot fill {hidden} hidden "
                                   "hand cards exactly")
            stock = [c.index for c in pos.stock]
        else:
            stock = pool[hidden:]       # a placeholder of the right size
        self.game = _game(pos, len(stock))
        prob = build_problem(pos, [k[:] for k in known], stock, shuffled=True)
        self.P, self.D = prob.P, prob.D
        self.base = np.array(prob.st, dtype=np.int64)
        self.model = find(self.P)
        self.evidence = Evidence(pos, model) if inference else None
        if self.evidence is not None and self.evidence.empty:
            self.evidence = None
        self.enumerated = True
        if not self.seats:
            self.completions = [Completion(tuple(int(x) for x in self.base[1:5]),
                                           int(self.base[9]), 1.0)]
        elif len(self.seats) == 1:
            self.completions = self._enumerate(pool, pos.stock_kind == "shuffled",
                                               [c.index for c in pos.stock])
        else:
            self.enumerated = False
            self.completions = self._draw(seed, max_draws)
        if not self.completions:
            raise CompileError("no hidden hand agrees with what is seen and declared")
        if self.evidence is not None:
            for c in self.completions:
                c.weight *= self.evidence.likelihood(
                    [ranks_of(c.hands[s]) for s in range(pos.players)])
            if sum(c.weight for c in self.completions) <= 0:
                raise CompileError("the plays recorded in hist= are impossible for every "
                                   "hand the other seats may hold")
        self.completions.sort(key=lambda c: -c.weight)

    def _deal_size(self) -> int:
        """The cards a player was dealt this deal."""
        from ..rules import dealt_this_deal
        return dealt_this_deal(self.pos.rules, self.pos.players, self.left)

    def _enumerate(self, pool: list[int], fixed_stock: bool, stock: list[int]):
        """Every hand the one hidden seat may hold (rank multisets), each
        weighted by the ways to draw it."""
        pos = self.pos
        seat = self.seats[0]
        k = sum(1 for c in pos.hands[seat] if c is None)
        counts = Counter(pool)
        ranks = sorted(counts)
        deal_size = self._deal_size()
        out = []
        for combo in _multisets([counts[r] for r in ranks], k):
            drawn = [r for r, n in zip(ranks, combo) for _ in range(n)]
            hand = self.known[seat] + drawn
            if not declared_fits(pos, seat, hand, deal_size):
                continue
            w = 1.0
            for r, n in zip(ranks, combo):
                w *= comb(counts[r], n)
            hands = [int(self.base[1 + s]) for s in range(4)]
            hands[seat] = cardset(hand)
            if fixed_stock:
                rest = cardset(stock)
            else:
                left = Counter(counts)
                left.subtract(drawn)
                rest = cardset(left.elements())
            out.append(Completion(tuple(hands), rest, w))
        return out

    def _draw(self, seed: int, count: int):
        """Draws of the hidden hands (four players), uniform among those
        that agree with what is seen and declared."""
        from ..engine.sampling import draw_python, draw_spec, sample_seed
        spec = draw_spec(self.pos)
        pool = cardset(int(r) for r in spec.pool)
        fixed = cardset(c.index for c in self.pos.stock)
        out = []
        for i in range(count):
            st, _order = draw_python(spec, sample_seed(seed, i))
            hands = tuple(int(st[1 + s]) for s in range(4))
            drawn = [hands[s] - int(self.base[1 + s]) for s in self.seats]
            rest = fixed if self.pos.stock_kind == "shuffled" else _cards_minus(pool, drawn)
            out.append(Completion(hands, rest, 1.0))
        return out

    def model_error(self) -> float:
        """The error in points of a difference between two plays from the
        model at the deal's end (0 where the rest is exact)."""
        if self.left == 0 or exact_end(self.game, self.left) or self.model is None:
            return 0.0
        return model_play_error(self.model)


def model_play_error(model: ValueModel) -> float:
    """The error in points of a difference between two plays' values from
    ``model`` at the deal's end: its measured figure, or
    :data:`DIFF_FROM_RMSE` times its held-out RMSE where it has none."""
    e = model.play_error()
    if e is None:
        r = model.rmse()
        e = DIFF_FROM_RMSE * (r if r is not None else 0.5)
    return float(e)


def _cards_minus(cards: int, parts: list[int]) -> int:
    """A card set less other card sets (each a subset)."""
    counts = Counter(ranks_of(cards))
    for p in parts:
        counts.subtract(ranks_of(p))
    return cardset(counts.elements())


def _multisets(avail: list[int], n: int):
    """Every count vector of ``n`` cards over ranks with ``avail`` copies."""
    if not avail:
        if n == 0:
            yield ()
        return
    first, rest = avail[0], avail[1:]
    for k in range(min(first, n), -1, -1):
        for tail in _multisets(rest, n - k):
            yield (k,) + tail


def search(problem: DealProblem, deadline: float | None = None, searcher=None):
    """Search every completion of ``problem`` (most probable first) until
    ``deadline``: a :class:`DealResult`."""
    from ..search.deal_search import DealSearcher
    from ..value.net import empty_model
    model = problem.model
    vm = model.vm if model is not None else empty_model()
    if searcher is None:
        searcher = DealSearcher(problem.P, problem.D, vm)
    comps = problem.completions
    hands = np.array([c.hands for c in comps], dtype=np.int64)
    stocks = np.array([c.stock for c in comps], dtype=np.int64)
    weights = np.array([c.weight for c in comps])
    n0 = searcher.nodes
    values, done = searcher.solve(problem.base, hands, stocks, deadline)
    ok = done == 1
    if not ok.any():
        # one completion is always searched, whatever the time
        values, done = searcher.solve(problem.base, hands[:1], stocks[:1], None)
        ok = np.zeros(len(comps), dtype=bool)
        ok[0] = True
        values = np.vstack([values, np.full((len(comps) - 1, 10), np.nan)])
    vals, w = values[ok], weights[ok]
    from ..search.deal_search import weighted_moves
    stats = weighted_moves(vals, w)
    complete = bool(ok.all())
    sampling = not problem.enumerated or not complete
    means = {m: s[0] for m, s in stats.items()}
    ses = {m: (s[1] if sampling else 0.0) for m, s in stats.items()}
    top = max(means, key=lambda m: (means[m], -m))
    diff_se = {}
    legal = [m for m in range(10) if not math.isnan(vals[0, m])]
    for m in legal:
        if not sampling or m == top:
            diff_se[m] = 0.0
            continue
        d = vals[:, top] - vals[:, m]       # a column a rank index
        mean = float((w * d).sum() / w.sum())
        n = len(d)
        diff_se[m] = (math.sqrt((w * w * (d - mean) ** 2).sum() * n / (n - 1)) / w.sum()
                      if n > 1 else 0.0)
    # one hand left (what is seen and declared leaves no other): nothing
    # weighed, no plays read
    read = len(problem.evidence.items) if problem.evidence and len(comps) > 1 else 0
    ess = None
    if (read or not problem.enumerated) and len(comps) > 1:
        ess = float(w.sum() ** 2 / (w * w).sum())
    return DealResult(means, ses, diff_se, int(ok.sum()), len(comps),
                      float(w.sum() / weights.sum()), problem.enumerated, model,
                      problem.left, problem.model_error(), nodes=searcher.nodes - n0, ess=ess,
                      evidence=read)


def exposure(problem: DealProblem, moves: list[int]) -> dict[int, float]:
    """For each rank index in ``moves``: the weighted share of the
    completions in which, after it, the next player can score a hit or a
    missa with its next card."""
    P, D = problem.P, problem.D
    st0 = tuple(int(x) for x in problem.base)
    out = {}
    for m in moves:
        risk = 0.0
        total = 0.0
        for c in problem.completions:
            st = (st0[0], *c.hands, *st0[5:9], c.stock, *st0[10:])
            child, _g, _ev = core.play(P, D, st, m)
            total += c.weight
            if (child[1] | child[2] | child[3] | child[4]) == 0:
                continue            # the deal ends: no reply this deal
            seat = child[5]
            hand = core.hand_of(child[1], child[2], child[3], child[4], seat)
            for r in range(10):
                if (hand >> (4 * r)) & 1:
                    _c2, _g2, ev = core.play(P, D, child, r)
                    if ev & (core.EV_HIT | core.EV_MISSA):
                        risk += c.weight
                        break
        out[m] = risk / total if total > 0 else 0.0
    return out


def close_plays(values: dict[int, float], tolerance: dict[int, float]) -> list[int]:
    """The plays whose value is within ``tolerance[m]`` (half-points) of
    the best, and every play of a higher value than one of them (a play
    is not called a loss while a worse one is called close: each pair's
    error differs), best first.

    >>> close_plays({1: 0.0, 2: -0.6, 3: -1.2}, {1: 0.0, 2: 0.5, 3: 2.0})
    [1, 2, 3]
    >>> close_plays({1: 0.0, 2: -0.6, 3: -1.2}, {1: 0.0, 2: 0.5, 3: 1.0})
    [1]
    """
    top = max(values.values())
    near = [m for m, v in values.items() if top - v <= tolerance[m] + 1e-9]
    floor = min(values[m] for m in near)
    return sorted((m for m, v in values.items() if v >= floor - 1e-9),
                  key=lambda m: (-values[m], m))


def unmeasured(result: DealResult) -> bool:
    """Whether the search measured no error of the differences between
    plays: the hands were sampled or the time cut their enumeration short,
    and fewer than :data:`MIN_MEASURED` were searched."""
    return sampled(result) and result.completions < MIN_MEASURED


def tolerance(result: DealResult) -> dict[int, float]:
    """Each play's tie tolerance in half-points: TIE_Z (:func:`tie_z` of
    the hands searched when they were sampled) times the error of its
    difference with the best play (sampling and model together);
    unbounded (every play close) when the search measured no error
    (:func:`unmeasured`)."""
    if unmeasured(result):
        return {m: math.inf for m in result.values}
    model = 2 * result.model_error
    z = tie_factor(result)
    return {m: z * math.sqrt(result.diff_se.get(m, 0.0) ** 2 + model ** 2)
            for m in result.values}


def tie_factor(result: DealResult) -> float:
    """How many errors apart two plays are close: :func:`tie_z` of the
    hands searched when they were sampled, else :data:`TIE_Z`."""
    return tie_z(result.completions) if sampled(result) else TIE_Z


def sampled(result: DealResult) -> bool:
    """Whether the hands were drawn or their enumeration cut short (the
    values then carry a sampling error)."""
    return not result.enumerated or result.coverage < 1.0


def choose(problem: DealProblem, result: DealResult) -> tuple[int, list[int]]:
    """``(chosen, close)``: the close plays and the one chosen among them:
    the least exposure to a hit or a missa, then the higher value, then
    the lower rank; the higher value alone when no error was measured
    (:func:`unmeasured`: every play is close)."""
    close = close_plays(result.values, tolerance(result))
    if len(close) == 1 or unmeasured(result):
        # no error measured: the hands searched choose the play (the higher
        # value), though none of the others is an established loss
        return close[0], close
    exp = exposure(problem, close)
    result.exposure = exp
    chosen = min(close, key=lambda m: (round(exp[m], 9), -result.values[m], m))
    return chosen, close


def now() -> float:
    """The budget clock (solver.runtime.clock), for deadlines."""
    return clock.now()


__all__ = ["DealProblem", "DealResult", "search", "choose", "close_plays", "tolerance",
           "model_play_error",
           "unmeasured", "sampled", "tie_factor", "tie_z", "exposure", "fits", "why_not"]
