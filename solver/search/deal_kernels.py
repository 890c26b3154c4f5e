"""Compiled search of one deal: negamax alpha-beta to the end of the
current deal, where the deals to come are a chance node valued by a model.

The kernels reach the game through the interface of
:mod:`solver.engine.core` (``gen_children``, ``is_chance``,
``deal_outcomes``, ``state_key``) on a game with a *shuffled* stock (the
stock field of a state is the card set still to deal), and the value of a
chance node through :func:`solver.value.net.boundary_value`: a child of
kind ``KIND_CHANCE`` (a deal is due) is a leaf valued by the model. Where
the model has no level for the stock's size (the last deal, in practice)
the chance node is searched exactly: every deal outcome with its
probability, each dealt position by this same negamax to the end of the
hand.

Within the deal every hand is known (the caller draws or enumerates the
hidden ones); the stock order is never drawn: nobody sees it, so nobody
plays as if they did.

The transposition table is private to this module and to one thread:
``TK`` (uint64, rows ``key, check, best move + 1``) and ``TV`` (float64,
rows ``lower, upper``), one entry a slot, always replaced. A state is its
own key (hands and the stock's cards included), so entries stay true
across the hidden hands of a decision and the table is reused across them.

Counters ``C`` (int64, indices ``C_*``): decision nodes, model leaves,
exact chance nodes, table hits, and the abort flag another thread sets at
the deadline.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from ..engine.core import (K_GAIN, K_KIND, K_MOVE, KIND_CHANCE, KIND_LEAF,
                           MAX_MOVES, deal_outcomes, gen_children, is_chance, is_terminal,
                           state_key)
from ..engine.core import NSTATE
from ..value.net import boundary_value
from .kernels import kid_state, order_children, row_state

# the kernels build the core's state tuples field by field (numba needs
# their size): (table, h0, h1, h2, h3, seat, prev, show, last, stock, x)
assert NSTATE == 11, "the deal kernels build 11-field states: update them with the core"

INF = np.inf
MAXPLY = 64
#: a child searches a window this much wider than its parent needs and is
#: judged against the one needed (float values: rounding never turns a
#: bound into an "exact" value at a window's edge); see kernels.MARGIN
MARGIN = 1e-9
#: the largest exact chance node (outcomes) expanded
OUTCOME_LIMIT = 200_000

C_NODES = 0          # decision nodes entered
C_LEAVES = 1         # chance nodes valued by the model
C_CHANCE = 2         # chance nodes searched exactly
C_HITS = 3           # table entries that ended a node
C_ABORT = 4          # non-zero: stop (the result is void)
C_SIZE = 8


def new_counters() -> np.ndarray:
    """A fresh counter array."""
    return np.zeros(C_SIZE, dtype=np.int64)


def new_table(bits: int = 16) -> tuple[np.ndarray, np.ndarray]:
    """A transposition table ``(TK, TV)`` of ``2**bits`` entries."""
    n = 1 << bits
    return np.zeros((n, 3), dtype=np.uint64), np.zeros((n, 2), dtype=np.float64)


def new_scratch() -> np.ndarray:
    """Per-ply scratch for the children rows (and their order, row MAX_MOVES)."""
    from ..engine.core import K_COLS
    return np.zeros((MAXPLY, MAX_MOVES + 1, max(K_COLS, MAX_MOVES)), dtype=np.int64)


SIG = ("float64(int64[::1], int64[:, ::1], int64[:, :, ::1], uint64[:, ::1], float64[:, ::1], "
       "int64[::1], float64[::1], float64[::1], int64, UniTuple(int64, 11), float64, float64)")


@njit(SIG, cache=True)
def negamax(P, D, K, TK, TV, C, VM, X, ply, st, alpha, beta):
    """The value of ``st`` for the side to move, fail-soft: exact inside
    ``(alpha, beta)``, a bound on the right side outside. A chance node is
    the model's value of it, or its exact expectation where the model has
    no level."""
    if C[C_ABORT] != 0:
        return 0.0
    if is_terminal(P, st):
        return 0.0
    chance = is_chance(P, st)
    if chance:
        v = boundary_value(P, VM, X, st)
        if not math.isnan(v):
            C[C_LEAVES] += 1
            return v
    key, chk = state_key(st)
    slot = np.int64(key & np.uint64(TK.shape[0] - 1))
    first = -1
    lo = -INF
    hi = INF
    if TK[slot, 0] == key and TK[slot, 1] == chk:
        lo = TV[slot, 0]
        hi = TV[slot, 1]
        first = np.int64(TK[slot, 2]) - 1
        if lo >= beta or lo == hi:
            C[C_HITS] += 1
            return lo
        if hi <= alpha:
            C[C_HITS] += 1
            return hi
        if lo > alpha:
            alpha = lo
        if hi < beta:
            beta = hi
        if alpha >= beta:
            C[C_HITS] += 1
            return lo
    if chance:
        # the model has no level here: the exact expectation over the deals
        C[C_CHANCE] += 1
        probs, gains, kids = deal_outcomes(P, st, OUTCOME_LIMIT)
        total = 0.0
        for i in range(probs.shape[0]):
            kid = kid_state(kids, i)
            cv = negamax(P, D, K, TK, TV, C, VM, X, ply + 1, kid, -INF, INF)
            if C[C_ABORT] != 0:
                return 0.0
            total += probs[i] * (float(gains[i]) + cv)
        TK[slot, 0] = key
        TK[slot, 1] = chk
        TK[slot, 2] = 0
        TV[slot, 0] = total
        TV[slot, 1] = total
        return total

    C[C_NODES] += 1
    n = gen_children(P, D, K, ply, st)
    # order: the ordering guess, then the gain, then the higher rank; the
    # table's move first (as solver.search.kernels.negamax)
    pr = MAX_MOVES
    order_children(K, ply, n, first)
    alpha0 = alpha
    best = -INF
    best_move = -1
    for j in range(n):
        r = K[ply, pr, j]
        gain = float(K[ply, r, K_GAIN])
        if K[ply, r, K_KIND] == KIND_LEAF:
            v = gain
        else:
            child = row_state(K, ply, r)
            c_lo = gain - beta
            c_hi = gain - alpha
            cv = negamax(P, D, K, TK, TV, C, VM, X, ply + 1, child, c_lo - MARGIN,
                         c_hi + MARGIN)
            if C[C_ABORT] != 0:
                return 0.0
            v = gain - cv
            if cv <= c_lo:
                if v < beta:
                    v = beta
            elif cv >= c_hi:
                if v > alpha:
                    v = alpha
        if v > best:
            best = v
            best_move = K[ply, r, K_MOVE]
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
        lo = best
        hi = best
    TK[slot, 0] = key
    TK[slot, 1] = chk
    TK[slot, 2] = np.uint64(best_move + 1)
    TV[slot, 0] = lo
    TV[slot, 1] = hi
    return best


@njit(cache=True, nogil=True)
def root_values(P, D, K, TK, TV, C, VM, X, st, out):
    """Every legal move of ``st`` scored exactly (within the model):
    ``out[m]`` the value of playing rank index ``m`` for the side to move;
    other entries are left alone. Returns the number of legal moves."""
    n = gen_children(P, D, K, 0, st)
    for i in range(n):
        m = K[0, i, K_MOVE]
        gain = float(K[0, i, K_GAIN])
        if K[0, i, K_KIND] == KIND_LEAF:
            out[m] = gain
        else:
            child = row_state(K, 0, i)
            v = negamax(P, D, K, TK, TV, C, VM, X, 1, child, -INF, INF)
            if C[C_ABORT] != 0:
                return n
            out[m] = gain - v
    return n


@njit(cache=True, nogil=True)
def solve_hands(P, D, base, hands, stocks, K, TK, TV, C, VM, X, out, done, moves):
    """The deal searched once per row of ``hands`` (card sets, one a
    seat) with the stock ``stocks[i]`` (a card set), the rest of the
    state from ``base`` (int64 array of a core state): with ``moves``
    every root move into ``out[i, m]`` (NaN stays where illegal), else
    the position's value into ``out[i, 0]``; ``done[i] = 1`` when
    finished. Stops at ``C[C_ABORT]``."""
    for i in range(hands.shape[0]):
        if C[C_ABORT] != 0:
            return
        st = (base[0], hands[i, 0], hands[i, 1], hands[i, 2], hands[i, 3], base[5], base[6],
              base[7], base[8], stocks[i], base[10])
        if moves:
            root_values(P, D, K, TK, TV, C, VM, X, st, out[i])
        else:
            out[i, 0] = negamax(P, D, K, TK, TV, C, VM, X, 0, st, -INF, INF)
        if C[C_ABORT] != 0:
            return
        done[i] = 1


@njit(cache=True, nogil=True)
def deal_values(P, D, base, hands, stocks, gains, K, TK, TV, C, VM, X, out):
    """Labels for a boundary state ``base`` (a chance node): for each
    sampled deal ``i`` (the dealt hands, the stock left, the
    declarations' half-points ``gains[i]`` for the leader's side) the
    value for the leader's side of the dealt position, declarations
    included, into ``out[i]``."""
    for i in range(hands.shape[0]):
        st = (base[0], hands[i, 0], hands[i, 1], hands[i, 2], hands[i, 3], base[5], -1, 0,
              base[8], stocks[i], base[10])
        out[i] = float(gains[i]) + negamax(P, D, K, TK, TV, C, VM, X, 0, st, -INF, INF)
