"""The last deal of three sides solved by the game itself (max^n, no
transposition table): once the stock is empty every card is known and at
most 9 plies remain (3 cards a hand, the last round forced), so a plain
recursion on a few words, with the plays made on the spot, is several
times cheaper a node than the general kernel's (no children rows, no keys,
no table, no x word).

The state is written *from the mover's seat*: the mover's hand ``a``, the
next seat's ``b``, the seat after's ``c`` and their piles ``pa, pb, pc``
(so a play never branches on the seat: the child is ``b, c, a`` less the
card), the table, the card just laid (``prev``), a hit on show (``show``),
the mover's seat and the last capturer's (absolute, for the sweep at the
end). Values are vectors in the same frame: the mover's points to the end
of the hand, the next seat's, the seat after's.

It covers three players each playing alone for points without Ronda
voleur (:func:`covers3`: every preset and house rule); the vector of a
state is :func:`solver.search.kernels_vec.maxn`'s exactly (each seat its
own highest entry, ties to the lower sum of the others' entries, then to
the lowest move), checked against it in tests/test_last_deal3.py.
"""

from __future__ import annotations

from numba import njit

import numpy as np

from .core import (BELOW, CANON_PILES, D_DS, D_NEXT, LOW, P_ANSWERS, P_BONUS, P_BRK, P_CANON,
                   P_EMPTY, P_LEADER, P_MATCH, P_MISSA_LAST, P_MISSA_ROUND, P_NEXT, P_NSIDES,
                   P_PLAYERS, P_PTS, P_SHUFFLED, P_SIDE, P_VOLEUR, SENTINEL, pile_of, popcount)

#: entries of a thread's memo of last-deal roots (:func:`new_memo`)
MEMO_ENTRIES = 1 << 12
#: slots a memo lookup tries before it overwrites the first
MEMO_PROBES = 8


@njit(cache=True)
def covers3(P):
    """Whether :func:`lean3_state` plays this rule system: three players,
    each seat its own side (seat ``s`` side ``s``, play 0, 1, 2), for
    points, without Ronda voleur."""
    if P[P_PLAYERS] != 3 or P[P_NSIDES] != 3 or P[P_VOLEUR] != 0 or P[P_MATCH] != 0:
        return False
    for s in range(3):
        if P[P_SIDE + s] != s or P[P_NEXT + s] != (s + 1) % 3:
            return False
    return True


@njit(cache=True)
def _step(P, t, r, prev, show, seat, last, left):
    """Seat ``seat`` plays rank index ``r`` onto table ``t`` in the last
    deal, ``left`` cards in the hands after it (as
    :func:`solver.engine.core.play_general`): ``(t, prev, show, last,
    added, pts, size)``, ``added`` the cards the mover's pile gains,
    ``pts`` the mover's points, ``size`` the shown cards an answer takes
    from the seat before (0: no answer)."""
    sh = 4 * r
    if show != 0 and (show >> 2) == r:
        size = show & 3
        ev = 5 if size == 2 else 9
        show = ((r << 2) | (size + 1)) if size + 1 <= P[P_ANSWERS] else 0
        return t, -1, show, seat, size + 1, P[P_PTS + ev], size
    if (t >> sh) & 1:
        bl = BELOW[r]
        absent = (((~t) & LOW) | SENTINEL | P[P_BRK + r]) & ~bl
        taken = t & (((absent & -absent) - 1) ^ bl)
        t ^= taken
        ev = 1
        show = 0
        if prev == r:
            ev = 3
            if P[P_ANSWERS] > 1:
                show = (r << 2) | 2
        if t == 0 and (P[P_MISSA_LAST] != 0 or left != 0) and (
                P[P_MISSA_ROUND] != 0 or left >= 3):
            ev |= 16
        return t, -1, show, seat, popcount(taken) + 1, P[P_PTS + ev], 0
    return t + ((((t >> sh) & 15) + 1) << sh), r, 0, last, 0, 0, 0


@njit(cache=True)
def _low(h):
    """The lowest rank index of a non-empty card set."""
    low = h & -h
    return popcount(low - 1) >> 2


@njit(cache=True)
def _end(P, t, seat, last, pa, pb, pc):
    """The points the end of the hand gives, in the frame of ``seat`` (who
    played the last card; piles ``pa, pb, pc`` in that frame): the table
    to the last capturer with the bonus, each pile's cards over 20."""
    ga = 0
    gb = 0
    gc = 0
    if last >= 0:
        n = popcount(t)
        b = P[P_BONUS]
        d = last - seat
        if d < 0:
            d += 3
        if d == 0:
            pa += n
            ga = b
        elif d == 1:
            pb += n
            gb = b
        else:
            pc += n
            gc = b
    return ga + max(0, pa - 20), gb + max(0, pb - 20), gc + max(0, pc - 20)


@njit(cache=True)
def forced(P, t, a, b, c, prev, show, pa, pb, pc, seat, last):
    """The vector (the mover's frame) when every hand holds at most one
    card: the rest is forced."""
    va = 0
    vb = 0
    vc = 0
    k = 0
    while (a | b | c) != 0:
        left = popcount(a) + popcount(b) + popcount(c) - 1
        t, prev, show, last, added, pts, size = _step(P, t, _low(a), prev, show, seat, last,
                                                      left)
        if size:
            pc = max(pc - size, 0)
        pa += added
        if k == 0:
            va += pts
        elif k == 1:
            vb += pts
        else:
            vc += pts
        if left == 0:
            ga, gb, gc = _end(P, t, seat, last, pa, pb, pc)
            if k == 0:
                va += ga
                vb += gb
                vc += gc
            elif k == 1:
                vb += ga
                vc += gb
                va += gc
            else:
                vc += ga
                va += gb
                vb += gc
            break
        a, b, c = b, c, 0
        pa, pb, pc = pb, pc, pa
        seat = seat + 1 if seat < 2 else 0
        k += 1
    return va, vb, vc


@njit(cache=True)
def _forced3(P, t, a, b, c, prev, show, pa, pb, pc, seat, last):
    """:func:`forced` straight on when each hand holds one card."""
    if a == 0 or b == 0 or c == 0:
        return forced(P, t, a, b, c, prev, show, pa, pb, pc, seat, last)
    t, prev, show, last, added, va, size = _step(P, t, _low(a), prev, show, seat, last, 2)
    if size:
        pc = max(pc - size, 0)
    pa += added
    s1 = seat + 1 if seat < 2 else 0
    t, prev, show, last, added, vb, size = _step(P, t, _low(b), prev, show, s1, last, 1)
    if size:
        pa = max(pa - size, 0)
    pb += added
    s2 = s1 + 1 if s1 < 2 else 0
    t, prev, show, last, added, vc, size = _step(P, t, _low(c), prev, show, s2, last, 0)
    if size:
        pb = max(pb - size, 0)
    pc += added
    ga, gb, gc = _end(P, t, seat, last, pa, pb, pc)
    return va + ga, vb + gb, vc + gc


@njit(cache=True, inline='always')
def _pick(have, b0, b1, b2, bs, g0, w0, w1):
    """The max^n tie rule over a node's plays, tried from the lowest: the
    play worth ``g0`` to the mover and ``w0``, ``w1`` to the next two seats
    replaces the best so far (``b0``, ``b1``, ``b2``, their others' sum
    ``bs``) when it is the first, or better for the mover, or as good with
    a lower sum for the others: ``(have, b0, b1, b2, bs)``."""
    oth = w0 + w1
    if not have or g0 > b0 or (g0 == b0 and oth < bs):
        return True, g0, w0, w1, oth
    return have, b0, b1, b2, bs


@njit("UniTuple(int64, 4)(int64[::1], int64, int64, int64, int64, int64, int64, int64, int64, "
      "int64, int64, int64)", cache=True)
def lean3(P, t, a, b, c, prev, show, pa, pb, pc, seat, last):
    """The max^n vector, in the mover's frame, of a last-deal state whose
    mover holds two cards or more, and the decision nodes searched:
    ``(va, vb, vc, nodes)``. Ties as :func:`solver.search.kernels_vec.maxn`:
    the mover's higher entry, then the lower sum of the others, then the
    lowest move (the moves tried from the lowest, a later one taken only
    when strictly better)."""
    hb = a & LOW
    nodes = 1
    have = False
    b0 = 0
    b1 = 0
    b2 = 0
    bs = 0
    left = popcount(a) + popcount(b) + popcount(c) - 1
    ns = seat + 1 if seat < 2 else 0
    nb = popcount(b)
    while hb != 0:
        low = hb & -hb
        hb ^= low
        r = popcount(low - 1) >> 2
        na = a - ((((a >> (4 * r)) & 15) + 1) >> 1 << (4 * r))
        ct, cp, cw, cl, added, pts, size = _step(P, t, r, prev, show, seat, last, left)
        qc = pc
        if size:
            qc = max(pc - size, 0)
        # the child in the next seat's frame: hands b, c, a less the card
        if nb <= 1:
            w0, w1, w2 = _forced3(P, ct, b, c, na, cp, cw, pb, qc, pa + added, ns, cl)
        else:
            w0, w1, w2, k = lean3(P, ct, b, c, na, cp, cw, pb, qc, pa + added, ns, cl)
            nodes += k
        have, b0, b1, b2, bs = _pick(have, b0, b1, b2, bs, pts + w2, w0, w1)
    return b0, b1, b2, nodes


@njit(cache=True)
def lean3_state(P, st):
    """The max^n vector of a last-deal state tuple (the stock empty) of
    three sides, each seat's entry (seat order), and the decision nodes
    searched: ``(v0, v1, v2, nodes)``."""
    x = st[10]
    seat = st[5]
    s1 = seat + 1 if seat < 2 else 0
    s2 = s1 + 1 if s1 < 2 else 0
    a = st[1 + seat]
    b = st[1 + s1]
    c = st[1 + s2]
    pa = pile_of(x, seat)
    pb = pile_of(x, s1)
    pc = pile_of(x, s2)
    if popcount(a) <= 1:
        v0, v1, v2 = forced(P, st[0], a, b, c, st[6], st[7], pa, pb, pc, seat, st[8])
        k = 0
    else:
        v0, v1, v2, k = lean3(P, st[0], a, b, c, st[6], st[7], pa, pb, pc, seat, st[8])
    if seat == 0:
        return v0, v1, v2, k
    if seat == 1:
        return v2, v0, v1, k
    return v1, v2, v0, k


# --- the deal before the last -------------------------------------------------------


def new_memo(entries: int = MEMO_ENTRIES) -> np.ndarray:
    """A thread's memo of last-deal roots (:func:`lean2`): per entry the
    exact key (the table, the last capturer and the piles: the hands of
    the last deal are the stock's), the generation and the vector packed."""
    return np.zeros((entries, 3), dtype=np.int64)


@njit(cache=True)
def _root_vector(P, D, M, gen, spos, t, last, p0, p1, p2):
    """The max^n vector (seat order) of the start of the last deal dealt
    from stock position ``spos`` (the leader to move, no card laid, no hit
    on show) with table ``t``, last capturer ``last`` and piles ``p0, p1,
    p2``: memoised in ``M`` for generation ``gen`` (the search of one
    game), else :func:`lean3` (whose nodes are returned)."""
    h0 = D[spos, 0]
    h1 = D[spos, 1]
    h2 = D[spos, 2]
    if P[P_CANON] & CANON_PILES:
        # as solver.engine.core._canon: a pile that cannot pass 20 cards
        left = popcount(t) + popcount(h0) + popcount(h1) + popcount(h2)
        if p0 + left <= 20:
            p0 = 0
        if p1 + left <= 20:
            p1 = 0
        if p2 + left <= 20:
            p2 = 0
    key = t | ((last + 1) << 40) | (p0 << 42) | (p1 << 48) | (p2 << 54)
    mask = M.shape[0] - 1
    slot = ((key * -7046029254386353131) >> 40) & mask
    j = slot
    for q in range(MEMO_PROBES):
        j = (slot + q) & mask
        if M[j, 1] != gen:
            break
        if M[j, 0] == key:
            w = M[j, 2]
            return w & 0xFFFF, (w >> 16) & 0xFFFF, (w >> 32) & 0xFFFF, 0
    if M[j, 1] == gen and M[j, 0] != key:
        j = slot
    seat = P[P_LEADER]
    s1 = seat + 1 if seat < 2 else 0
    s2 = s1 + 1 if s1 < 2 else 0
    a = h0 if seat == 0 else (h1 if seat == 1 else h2)
    b = h0 if s1 == 0 else (h1 if s1 == 1 else h2)
    c = h0 if s2 == 0 else (h1 if s2 == 1 else h2)
    pa = p0 if seat == 0 else (p1 if seat == 1 else p2)
    pb = p0 if s1 == 0 else (p1 if s1 == 1 else p2)
    pc = p0 if s2 == 0 else (p1 if s2 == 1 else p2)
    if popcount(a) <= 1:
        va, vb, vc = forced(P, t, a, b, c, -1, 0, pa, pb, pc, seat, last)
        k = 0
    else:
        va, vb, vc, k = lean3(P, t, a, b, c, -1, 0, pa, pb, pc, seat, last)
    if seat == 0:
        v0, v1, v2 = va, vb, vc
    elif seat == 1:
        v0, v1, v2 = vc, va, vb
    else:
        v0, v1, v2 = vb, vc, va
    M[j, 0] = key
    M[j, 1] = gen
    M[j, 2] = v0 | (v1 << 16) | (v2 << 32)
    return v0, v1, v2, k


@njit(cache=True)
def covers2(P, D, st):
    """Whether :func:`lean2_state` plays ``st``: a rule system of
    :func:`covers3` with a known stock, ``st`` in the deal before the last
    (the next deal is the last)."""
    spos = st[9]
    return (P[P_SHUFFLED] == 0 and spos != P[P_EMPTY] and D[spos, D_NEXT] == P[P_EMPTY]
            and covers3(P))


@njit("UniTuple(int64, 4)(int64[::1], int64[:, ::1], int64[:, ::1], int64, int64, int64, "
      "int64, int64, int64, int64, int64, int64, int64, int64, int64, int64)", cache=True)
def lean2(P, D, M, gen, t, a, b, c, prev, show, pa, pb, pc, seat, last, spos):
    """:func:`lean3` for a state of the deal before the last (known stock,
    ``spos`` the last deal's start), the mover holding a card or more: the
    plays to the end of the deal, the last deal's roots by
    :func:`_root_vector` (memoised). ``(va, vb, vc, nodes)`` in the mover's
    frame."""
    hb = a & LOW
    nodes = 1
    have = False
    b0 = 0
    b1 = 0
    b2 = 0
    bs = 0
    ns = seat + 1 if seat < 2 else 0
    s2 = ns + 1 if ns < 2 else 0
    while hb != 0:
        low = hb & -hb
        hb ^= low
        r = popcount(low - 1) >> 2
        na = a - ((((a >> (4 * r)) & 15) + 1) >> 1 << (4 * r))
        # more deals to come: a missa counts on every card
        ct, cp, cw, cl, added, pts, size = _step(P, t, r, prev, show, seat, last, 99)
        qc = pc
        if size:
            qc = max(pc - size, 0)
        qa = pa + added
        if (b | c | na) == 0:
            # the last deal: its declarations, then its root
            p0 = qa if seat == 0 else (pb if ns == 0 else qc)
            p1 = qa if seat == 1 else (pb if ns == 1 else qc)
            p2 = qa if seat == 2 else (pb if ns == 2 else qc)
            v0, v1, v2, k = _root_vector(P, D, M, gen, spos, ct, cl, p0, p1, p2)
            nodes += k
            v0 += D[spos, D_DS]
            v1 += D[spos, D_DS + 1]
            v2 += D[spos, D_DS + 2]
            # into the next seat's frame
            w0 = v0 if ns == 0 else (v1 if ns == 1 else v2)
            w1 = v0 if s2 == 0 else (v1 if s2 == 1 else v2)
            w2 = v0 if seat == 0 else (v1 if seat == 1 else v2)
        else:
            w0, w1, w2, k = lean2(P, D, M, gen, ct, b, c, na, cp, cw, pb, qc, qa, ns, cl,
                                  spos)
            nodes += k
        have, b0, b1, b2, bs = _pick(have, b0, b1, b2, bs, pts + w2, w0, w1)
    return b0, b1, b2, nodes


@njit(cache=True)
def lean2_state(P, D, M, gen, st):
    """The max^n vector (seat order) of a state of the deal before the last
    (:func:`covers2`) and the decision nodes searched (:func:`lean2`, the
    last deal's roots memoised in ``M`` for generation ``gen``)."""
    x = st[10]
    seat = st[5]
    s1 = seat + 1 if seat < 2 else 0
    s2 = s1 + 1 if s1 < 2 else 0
    va, vb, vc, k = lean2(P, D, M, gen, st[0], st[1 + seat], st[1 + s1], st[1 + s2], st[6],
                          st[7], pile_of(x, seat), pile_of(x, s1), pile_of(x, s2), seat,
                          st[8], st[9])
    if seat == 0:
        return va, vb, vc, k
    if seat == 1:
        return vc, va, vb, k
    return vb, vc, va, k
