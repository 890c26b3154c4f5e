"""The last deal of three sides solved by the game itself (max^n, no
transposition table): once the stock is empty every card is known and at
most 9 plies remain (3 cards a hand, the last round forced), so a plain
recursion on the state's words (the table, three hands, the mover, the
card just laid, a hit on show, the last capturer and the three piles),
with the plays made on the spot, is cheaper a node than the general
kernel's (no children rows, no keys, no table).

It covers three players each playing alone for points without Ronda
voleur (:func:`covers3`: every preset and house rule); the vector of a
state is :func:`solver.search.kernels_vec.maxn`'s exactly (each seat its
own highest entry, ties to the lower sum of the others' entries, then to
the lowest move), checked against it in tests/test_last_deal3.py.
"""

from __future__ import annotations

from numba import njit

from .core import (BELOW, LOW, NRANKS, P_ANSWERS, P_BONUS, P_BRK, P_MATCH, P_MISSA_LAST,
                   P_MISSA_ROUND, P_NEXT, P_NSIDES, P_PLAYERS, P_PTS, P_SIDE, P_VOLEUR,
                   SENTINEL, pile_of, popcount)


@njit(cache=True)
def covers3(P):
    """Whether :func:`lean3` plays this rule system: three players, each
    seat its own side (seat ``s`` side ``s``, play 0, 1, 2), for points,
    without Ronda voleur."""
    if P[P_PLAYERS] != 3 or P[P_NSIDES] != 3 or P[P_VOLEUR] != 0 or P[P_MATCH] != 0:
        return False
    for s in range(3):
        if P[P_SIDE + s] != s or P[P_NEXT + s] != (s + 1) % 3:
            return False
    return True


@njit(cache=True)
def _play3(P, t, h0, h1, h2, seat, prev, show, last, p0, p1, p2, r):
    """Seat ``seat`` plays rank index ``r`` in the last deal (the stock
    empty): the child's words, the points of each seat, and whether the
    hand ended (the sweep, the bonus and the cards over 20 then counted)."""
    sh = 4 * r
    if seat == 0:
        h0 -= (((h0 >> sh) & 15) + 1) >> 1 << sh
    elif seat == 1:
        h1 -= (((h1 >> sh) & 15) + 1) >> 1 << sh
    else:
        h2 -= (((h2 >> sh) & 15) + 1) >> 1 << sh
    anyhand = h0 | h1 | h2
    added = 0
    if show != 0 and (show >> 2) == r:
        # an answer: the shown cards move from the hitter (the seat before)
        size = show & 3
        ev = 5 if size == 2 else 9
        hitter = (seat + 2) % 3
        if hitter == 0:
            p0 = max(p0 - size, 0)
        elif hitter == 1:
            p1 = max(p1 - size, 0)
        else:
            p2 = max(p2 - size, 0)
        added = size + 1
        show = ((r << 2) | (size + 1)) if size + 1 <= P[P_ANSWERS] else 0
        prev = -1
        last = seat
    elif (t >> sh) & 1:
        bl = BELOW[r]
        absent = (((~t) & LOW) | SENTINEL | P[P_BRK + r]) & ~bl
        taken = t & (((absent & -absent) - 1) ^ bl)
        t ^= taken
        if prev == r:
            ev = 3
            show = ((r << 2) | 2) if P[P_ANSWERS] > 1 else 0
        else:
            ev = 1
            show = 0
        if t == 0 and (P[P_MISSA_LAST] != 0 or anyhand != 0) and (
                P[P_MISSA_ROUND] != 0 or popcount(h0) + popcount(h1) + popcount(h2) >= 3):
            ev |= 16
        added = popcount(taken) + 1
        prev = -1
        last = seat
    else:
        t += (((t >> sh) & 15) + 1) << sh
        ev = 0
        prev = r
        show = 0
    pts = P[P_PTS + ev]
    g0 = 0
    g1 = 0
    g2 = 0
    if seat == 0:
        p0 += added
        g0 = pts
    elif seat == 1:
        p1 += added
        g1 = pts
    else:
        p2 += added
        g2 = pts
    end = anyhand == 0
    if end:
        if last >= 0:
            n = popcount(t)
            b = P[P_BONUS]
            if last == 0:
                p0 += n
                g0 += b
            elif last == 1:
                p1 += n
                g1 += b
            else:
                p2 += n
                g2 += b
            t = 0
        g0 += max(0, p0 - 20)
        g1 += max(0, p1 - 20)
        g2 += max(0, p2 - 20)
    return (t, h0, h1, h2, (seat + 1) % 3, prev, show, last, p0, p1, p2, g0, g1, g2, end)


@njit(cache=True)
def forced3(P, t, h0, h1, h2, seat, prev, show, last, p0, p1, p2):
    """The points of each seat to the end of the hand when every hand holds
    at most one card (the stock empty): the rest is forced."""
    v0 = 0
    v1 = 0
    v2 = 0
    while (h0 | h1 | h2) != 0:
        hand = h0 if seat == 0 else (h1 if seat == 1 else h2)
        low = hand & -hand
        r = popcount(low - 1) >> 2
        (t, h0, h1, h2, seat, prev, show, last, p0, p1, p2, g0, g1, g2,
         _end) = _play3(P, t, h0, h1, h2, seat, prev, show, last, p0, p1, p2, r)
        v0 += g0
        v1 += g1
        v2 += g2
    return v0, v1, v2


@njit("UniTuple(int64, 4)(int64[::1], int64, int64, int64, int64, int64, int64, int64, int64, "
      "int64, int64, int64)", cache=True)
def lean3(P, t, h0, h1, h2, seat, prev, show, last, p0, p1, p2):
    """The max^n vector of a last-deal state (the stock empty) of three
    sides, and the decision nodes searched: ``(v0, v1, v2, nodes)``, each
    seat's points to the end of the hand. Ties as
    :func:`solver.search.kernels_vec.maxn`: the mover's higher entry, then
    the lower sum of the others, then the lowest move (the moves are
    tried from the lowest, a later one taken only when strictly better)."""
    hand = h0 if seat == 0 else (h1 if seat == 1 else h2)
    if popcount(hand) <= 1:
        v0, v1, v2 = forced3(P, t, h0, h1, h2, seat, prev, show, last, p0, p1, p2)
        return v0, v1, v2, 0
    nodes = 1
    have = False
    b0 = 0
    b1 = 0
    b2 = 0
    bo = 0
    bs = 0
    hb = hand & LOW
    while hb != 0:
        low = hb & -hb
        hb ^= low
        m = popcount(low - 1) >> 2
        (ct, c0, c1, c2, cs, cp, cw, cl, q0, q1, q2, g0, g1, g2,
         end) = _play3(P, t, h0, h1, h2, seat, prev, show, last, p0, p1, p2, m)
        if not end:
            nh = c0 if cs == 0 else (c1 if cs == 1 else c2)
            if popcount(nh) <= 1:
                w0, w1, w2 = forced3(P, ct, c0, c1, c2, cs, cp, cw, cl, q0, q1, q2)
            else:
                w0, w1, w2, k = lean3(P, ct, c0, c1, c2, cs, cp, cw, cl, q0, q1, q2)
                nodes += k
            g0 += w0
            g1 += w1
            g2 += w2
        if seat == 0:
            own = g0
            oth = g1 + g2
        elif seat == 1:
            own = g1
            oth = g0 + g2
        else:
            own = g2
            oth = g0 + g1
        if not have or own > bo or (own == bo and oth < bs):
            have = True
            b0, b1, b2, bo, bs = g0, g1, g2, own, oth
    return b0, b1, b2, nodes


@njit(cache=True)
def lean3_state(P, st):
    """:func:`lean3` of a state tuple (three sides, the stock empty)."""
    x = st[10]
    return lean3(P, st[0], st[1], st[2], st[3], st[5], st[6], st[7], st[8],
                 pile_of(x, 0), pile_of(x, 1), pile_of(x, 2))
