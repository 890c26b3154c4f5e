"""The last deal solved by the game itself: once the stock is empty every
card is known and a few plies remain (two players: 3 cards each, the last
round forced; four: 12 plies), so a plain alpha-beta on the state tuple,
with the moves generated and ordered on the spot, is several times cheaper
a node than the general kernel (no children rows, no transposition table).

It covers the rule systems that :func:`solver.engine.core.play` plays
(``P_GENERAL`` 0: two sides playing for points, two or four players, every
preset and house rule of those); :func:`covers` says so, and the search
(:func:`solver.search.kernels.last_deal`) plays the others (Ronda voleur,
three sides, the match objective) through ``gen_children``. Values are
:func:`solver.search.kernels.negamax`'s: half-points for the mover's side,
integers, fail-soft alpha-beta (exact inside the window, a bound on the
right side outside); checked against the general kernel and the plain
reference in tests/test_last_deal.py.
"""

from __future__ import annotations

from numba import njit

from .core import NRANKS, P_GENERAL, hand_of, lowest_rank, play, popcount

#: the most moves a hand can have (one per rank)
MAX_LEAN_MOVES = NRANKS


@njit(cache=True)
def covers(P):
    """Whether :func:`value` plays this rule system (else the search's
    general last-deal alpha-beta does)."""
    return P[P_GENERAL] == 0


@njit(cache=True)
def forced(P, D, st):
    """The value of ``st`` for the mover when every hand holds at most one
    card and the stock is empty (the rest of the hand is forced)."""
    total = 0
    sign = 1
    while (st[1] | st[2] | st[3] | st[4]) != 0:
        r = lowest_rank(hand_of(st[1], st[2], st[3], st[4], st[5]))
        st, g, _ev = play(P, D, st, r)
        total += sign * g
        sign = -sign
    return total


@njit("int64(int64[::1], int64[:, ::1], int64[:, :, ::1], int64[::1], int64, int64, "
      "UniTuple(int64, 11), int64, int64)", cache=True)
def value(P, D, S, C, count, ply, st, alpha, beta):
    """The value of ``st`` (the stock empty) for the mover, fail-soft in
    ``(alpha, beta)``; ``S[ply, 0, :MAX_LEAN_MOVES]`` scratch for the
    plies from ``ply`` on, ``C[count]`` counts the nodes. Moves in the
    general kernel's order: the gain (a lone card the next player could
    hit at once less 3; a move that ends the hand or forces the rest, the
    whole rest), then the gain, then the higher rank."""
    seat = st[5]
    hand = hand_of(st[1], st[2], st[3], st[4], seat)
    if popcount(hand) <= 1:
        return forced(P, D, st)
    C[count] += 1
    n = 0
    tail = True         # every child ends the hand or forces the rest
    top = -(1 << 40)    # the best of those children
    for m in range(NRANKS):
        if not (hand >> (4 * m)) & 1:
            continue
        child, gain, ev = play(P, D, st, m)
        order = gain
        nh = hand_of(child[1], child[2], child[3], child[4], child[5])
        if (child[1] | child[2] | child[3] | child[4]) == 0:
            pass
        elif popcount(nh) == 1:
            order = gain - forced(P, D, child)
        else:
            tail = False
            if ev == 0 and (nh >> (4 * m)) & 1:
                order = gain - 3
        if order > top:
            top = order
        # sorted descending on (order, gain, rank): one word
        key = ((order + 4096) << 24) | ((gain + 4096) << 8) | m
        j = n
        while j > 0 and S[ply, 0, j - 1] < key:
            S[ply, 0, j] = S[ply, 0, j - 1]
            j -= 1
        S[ply, 0, j] = key
        n += 1
    if tail:            # every child's value is known: no second pass
        return top
    best = -(1 << 40)
    for i in range(n):
        key = S[ply, 0, i]
        m = key & 255
        child, gain, ev = play(P, D, st, m)
        nh = hand_of(child[1], child[2], child[3], child[4], child[5])
        if (child[1] | child[2] | child[3] | child[4]) == 0:
            v = gain
        elif popcount(nh) == 1:
            v = ((key >> 24) - 4096)        # the forced rest, computed above
        else:
            v = gain - value(P, D, S, C, count, ply + 1, child, gain - beta, gain - alpha)
        if v > best:
            best = v
            if v > alpha:
                alpha = v
                if alpha >= beta:
                    break
    return best
