"""Exact perfect-information search: negamax alpha-beta with a
transposition table storing bounds and the best move, move ordering by the
immediate gain, every root move scored exactly, principal variation.

The game interface (see :class:`solver.engine.game.Game`): ``moves(s)``,
``play(s, m) -> (child, gain, ev)``, ``children(s) -> [(order, gain, m,
child or None at the end)]``, ``is_terminal(s)``, ``tt_key(s)``; the side to
move alternates every ply (two players, or two partnerships), so
``value(s) = max_m gain(s, m) - value(child)``.
"""

from __future__ import annotations

from dataclasses import dataclass

from .tt import INF

#: the window margin with chance nodes (see make_negamax)
MARGIN = 1e-9


@dataclass
class SearchStats:
    """Counters of one search: ``nodes`` (states entered), ``tt_hits``
    (table entries that ended a node), ``tt_size`` (entries stored)."""

    nodes: int = 0
    tt_hits: int = 0
    tt_size: int = 0


class AlphaBeta:
    """Negamax alpha-beta over one perfect-information game.

    ``game``: an object with the search interface. The transposition table
    lives as long as this object, so several searches of one game (every
    root move, the principal variation) share it.
    """

    def __init__(self, game) -> None:
        self.game = game
        self.tt: dict = {}
        self.stats = SearchStats()
        self._negamax = self._compile()

    def _compile(self):
        tt = self.tt
        stats = self.stats
        counter = [0, 0]

        def sync():
            stats.nodes = counter[0]
            stats.tt_hits = counter[1]
            stats.tt_size = len(tt)

        self._sync = sync
        return make_negamax(self.game, tt, counter)

    def value(self, state, alpha: int = -INF, beta: int = INF) -> int:
        """The negamax value of ``state`` for the side to move, in the game's
        unit, exact when it lies strictly inside (alpha, beta); otherwise a
        bound on the right side (fail-soft)."""
        if self.game.is_terminal(state):
            return 0
        v = self._negamax(state, alpha, beta)
        self._sync()
        return v

    def root_values(self, state) -> dict[int, int]:
        """Every legal move of ``state`` with its exact value (DDS
        "solutions = 3"): ``{move: gain - value(child)}``."""
        out = {}
        for m in self.game.moves(state):
            child, gain, _ev = self.game.play(state, m)
            out[m] = gain - self.value(child)
        return out

    def principal_variation(self, state, max_plies: int = 200) -> list[int]:
        """The moves of one optimal line from ``state`` to the end of the
        hand: at each ply the best move, the lowest on a tie (so the line
        depends on exact values only, not on move ordering). Uses exact
        searches, sharing the table."""
        pv = []
        game = self.game
        while not game.is_terminal(state) and len(pv) < max_plies:
            values = self.root_values(state)
            target = max(values.values())
            m = min(m for m, v in values.items() if v == target)
            pv.append(m)
            state = game.play(state, m)[0]
        return pv


def make_negamax(game, tt: dict, counter: list[int], chance=None):
    """The negamax alpha-beta function of ``game``: ``negamax(state, alpha,
    beta)`` fail-soft, storing ``(lower, upper, best move)`` in ``tt``,
    counting nodes in ``counter[0]`` and table cutoffs in ``counter[1]``.

    With ``chance`` (expectimax), a child that is a chance node is valued
    by ``chance(child, alpha, beta)``, from the side of the player who
    moves after the deal."""
    children_of = game.children
    is_chance = game.is_chance if chance is not None else None
    # a game whose states are their own keys says so (no call per node)
    tt_key = None if getattr(game, "state_is_key", False) else game.tt_key
    get = tt.get
    margin = MARGIN if chance is not None else 0

    def negamax(state, alpha, beta):
        counter[0] += 1
        key = state if tt_key is None else tt_key(state)
        entry = get(key)
        if entry is not None:
            lo, hi, first = entry
            if lo >= beta or lo == hi:
                counter[1] += 1
                return lo
            if hi <= alpha:
                counter[1] += 1
                return hi
            if lo > alpha:
                alpha = lo
            if hi < beta:
                beta = hi
        else:
            lo, hi, first = -INF, INF, -1
        kids = children_of(state)
        if len(kids) > 1:
            kids.sort(reverse=True)
            if first >= 0 and kids[0][2] != first:
                for i, kid in enumerate(kids):
                    if kid[2] == first:
                        del kids[i]
                        kids.insert(0, kid)
                        break
        alpha0 = alpha
        best = -INF
        best_move = -1
        for _order, gain, m, child in kids:
            if child is None:
                v = gain
            else:
                # the window the child needs, in its frame; with chance
                # nodes (float values) it searches one MARGIN wider and is
                # judged against the one it needs, so that rounding never
                # passes a bound off as an exact value at a window's edge
                c_lo, c_hi = gain - beta, gain - alpha
                if is_chance is not None and is_chance(child):
                    r = chance(child, c_lo - margin, c_hi + margin)
                else:
                    r = negamax(child, c_lo - margin, c_hi + margin)
                v = gain - r
                if r <= c_lo:
                    if v < beta:
                        v = beta
                elif r >= c_hi:
                    if v > alpha:
                        v = alpha
            if v > best:
                best = v
                best_move = m
                if v > alpha:
                    alpha = v
                    if alpha >= beta:
                        break
        if best <= alpha0:
            if best < hi:
                hi = best
        elif best >= beta:
            if best > lo:
                lo = best
        else:
            lo = hi = best
        tt[key] = (lo, hi, best_move)
        return best

    return negamax


def solve(game, state) -> tuple[dict[int, int], list[int], SearchStats]:
    """Score every root move exactly and give a principal variation.

    Returns ``(values, pv, stats)``: values in the game's unit per move,
    stats of the scoring (the PV walk not counted).
    """
    ab = AlphaBeta(game)
    values = ab.root_values(state)
    stats = SearchStats(ab.stats.nodes, ab.stats.tt_hits, ab.stats.tt_size)
    pv = ab.principal_variation(state)
    return values, pv, stats
