"""Exact expectimax over deals still to come (stock order unknown).

Inside a deal every card is known to both sides and play is negamax
alpha-beta; at the end of a deal a *chance node* averages over every way
the stock can deal the next hands (rank multisets with their exact
probabilities, from the game). Pruning at chance nodes is Ballard's Star1:
with sure bounds ``L <= x <= U`` on every outcome's value (from the rules,
``game.bounds``), the window searched for the i-th outcome is narrowed so
that the chance node's value can still fall inside ``(alpha, beta)``, and
the node is cut as soon as it cannot. The transposition table is keyed on
the state, whose stock field is the stock's card *multiset*, and stores
bounds for decision and chance nodes alike.

The game interface: ``children``, ``is_chance``, ``outcomes``, ``bounds``,
``tt_key``/``state_is_key`` (see :class:`solver.engine.game.Game` built with
``shuffled=True``). Values are floats in the game's unit.
"""

from __future__ import annotations

from dataclasses import dataclass

from .alphabeta import MARGIN, make_negamax

INF = float("inf")


@dataclass
class ExpectimaxStats:
    """``nodes`` decision nodes entered, ``chance`` chance nodes entered,
    ``cutoffs`` chance nodes cut by Star1, ``tt_size`` entries stored."""

    nodes: int = 0
    chance: int = 0
    cutoffs: int = 0
    tt_size: int = 0


class Expectimax:
    """Expectimax with alpha-beta inside deals and Star1 at chance nodes.

    ``game``: a game with chance nodes. The table lives with this object:
    scoring every root move, then the principal variation, share it.
    """

    def __init__(self, game, star1: bool = True) -> None:
        self.game = game
        self.tt: dict = {}
        self.stats = ExpectimaxStats()
        self.star1 = star1
        self._decision, self._chance = self._compile()

    def _compile(self):
        game = self.game
        outcomes_of = game.outcomes
        bounds_of = game.bounds
        tt = self.tt
        get = tt.get
        stats = self.stats
        star1 = self.star1
        counter = [0, 0, 0, 0]      # decision nodes, table cutoffs, chance, Star1 cuts
        decision = None             # the negamax below, made once chance exists

        def chance(state, alpha, beta):
            counter[2] += 1
            big_l, big_u = bounds_of(state)
            entry = get(state)
            if entry is not None:
                lo, hi, _ = entry
                if lo >= beta or lo == hi:
                    return lo
                if hi <= alpha:
                    return hi
                if lo > alpha:
                    alpha = lo
                if hi < beta:
                    beta = hi
            else:
                lo, hi = big_l, big_u
                if hi <= alpha:
                    return hi
                if lo >= beta:
                    return lo
            if beta - alpha < 1e-7:
                # a window narrower than the rounding of the Star1 windows
                # below could invert them: widening is always safe
                alpha -= 1e-7
                beta += 1e-7
            total = 0.0
            rest = 1.0
            result = None
            for p, g, child in outcomes_of(state):
                rest -= p
                if rest < 1e-12:
                    rest = 0.0
                if star1:
                    # x = g + value(child) must exceed a_i for the node to
                    # exceed alpha, and reaching b_i makes it reach beta
                    a_i = (alpha - total - rest * big_u) / p
                    b_i = (beta - total - rest * big_l) / p
                    if a_i >= big_u:        # even x = U leaves the node <= alpha
                        counter[3] += 1
                        result = total + (p + rest) * big_u
                        if result < hi:
                            hi = result
                        result = result if result < alpha else alpha
                        break
                    if b_i <= big_l:        # even x = L lifts it to >= beta
                        counter[3] += 1
                        result = total + (p + rest) * big_l
                        if result > lo:
                            lo = result
                        result = result if result > beta else beta
                        break
                    cut_low = a_i > big_l       # the window's ends are cuts,
                    cut_high = b_i < big_u      # else they are sure bounds
                    lo_c = (a_i if cut_low else big_l) - g
                    hi_c = (b_i if cut_high else big_u) - g
                    if lo_c >= hi_c:            # rounding: search it exactly
                        cut_low = cut_high = False
                        lo_c, hi_c = big_l - g, big_u - g
                    cr = decision(child, lo_c - MARGIN, hi_c + MARGIN)
                    # judge the child in its own frame (no rounding in g + cr)
                    if cr >= hi_c:
                        if cut_high:            # x >= b_i: the node >= beta
                            counter[3] += 1
                            result = total + p * (g + cr) + rest * big_l
                            if result > lo:
                                lo = result
                            result = result if result > beta else beta
                            break
                        x = big_u               # a sure upper bound reached
                    elif cr <= lo_c:
                        if cut_low:             # x <= a_i: the node <= alpha
                            counter[3] += 1
                            result = total + p * (g + cr) + rest * big_u
                            if result < hi:
                                hi = result
                            result = result if result < alpha else alpha
                            break
                        x = big_l               # a sure lower bound reached
                    else:
                        x = g + cr
                else:
                    x = g + decision(child, -INF, INF)
                total += p * x
            if result is None:
                result = total
                lo = hi = total
            tt[state] = (lo, hi, -1)
            return result

        decision = make_negamax(game, tt, counter, chance)

        def sync():
            stats.nodes, _hits, stats.chance, stats.cutoffs = counter
            stats.tt_size = len(tt)

        self._sync = sync
        return decision, chance

    def value(self, state, alpha: float = -INF, beta: float = INF) -> float:
        """The expected value of ``state`` for the side to move (exact when
        inside the window; fail-soft bounds otherwise)."""
        game = self.game
        if game.is_terminal(state):
            return 0.0
        if game.is_chance(state):
            v = self._chance(state, alpha, beta)
        else:
            v = self._decision(state, alpha, beta)
        self._sync()
        return v

    def root_values(self, state) -> dict[int, float]:
        """Every legal move of ``state`` with its exact expected value."""
        out = {}
        game = self.game
        for _order, gain, m, child in game.children(state):
            if child is None:
                out[m] = float(gain)
            else:
                out[m] = gain - self.value(child)
        self._sync()
        return out

    def principal_variation(self, state) -> list[int]:
        """One optimal line from ``state`` to the next chance node or the
        end of the hand (beyond it the deal is not known)."""
        pv = []
        game = self.game
        while not game.is_terminal(state) and not game.is_chance(state):
            values = self.root_values(state)
            target = max(values.values())
            m = next(m for m, v in values.items() if abs(v - target) <= 1e-9)
            pv.append(m)
            state = game.play(state, m)[0]
        return pv

