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

The deal before the last is searched the same way (:func:`lean2`, a
known stock), the last deal's roots it reaches memoised, and its own
start too (:func:`lean2_state`). A memo entry holds for more than the
piles and last capturer it was solved from: each search also returns
its *pile notes* (:func:`_end`), each seat's largest pile at an end of
the hand and whether an end came with no capture since the root (only
then does the last capturer count). A pile that stayed at 20 cards or
under counted at no end, nor would any smaller one, or one larger by at
most the room it left under 20; so the entry holds for those
(:func:`_root_vector`; docs/performance.md: half the last-deal solves of
the player's view three players search).

It covers three players each playing alone for points without Ronda
voleur (:func:`covers3`: every preset and house rule); the vector of a
state is :func:`solver.search.kernels_vec.maxn`'s exactly (each seat its
own highest entry, ties to the lower sum of the others' entries, then to
the lowest move), checked against it in tests/test_last_deal3.py.
"""

from __future__ import annotations

from numba import njit

import numpy as np

from .core import (BELOW, D_DS, D_NEXT, LOW, P_ANSWERS, P_BONUS, P_BRK, P_EMPTY, P_LEADER,
                   P_MATCH, P_MISSA_LAST, P_MISSA_ROUND, P_NEXT, P_NSIDES, P_PLAYERS, P_PTS,
                   P_SHUFFLED, P_SIDE, P_VOLEUR, SENTINEL, pile_of, popcount)

#: entries of a thread's memo of last-deal roots (:func:`new_memo`)
MEMO_ENTRIES = 1 << 12
#: slots a memo lookup tries (the entries of one table sit side by side)
#: before a new entry overwrites the first
MEMO_PROBES = 32
#: a memo entry's key: the table's 40 bits, the last capturer above them
#: (``last + 2``; 0 when it does not count) and the level bit (the start of
#: the deal before the last, else a root of the last deal)
LAST_SHIFT = 40
LEVEL2 = 1 << 43
KEY_BITS = ~(7 << LAST_SHIFT)
#: a memo entry's piles byte: the exact pile follows (else the largest held)
PILE_EXACT = 128
#: a memoised root is searched with its last capturer coded as ``last +
#: LAST_CODED + 1``: an end that still has it had no capture (:func:`_end`)
LAST_CODED = 3
#: pile notes: each seat's largest pile at an end, a byte a seat in the
#: frame's order, and this bit when an end came with no capture
NOCAP = 1 << 24
NOTE_PILES = (1 << 24) - 1


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


@njit(cache=True, inline='always')
def _up(n):
    """Pile notes from the next seat's frame (a child's) into the mover's."""
    return ((n << 8) & 0xFFFF00) | ((n >> 16) & 0xFF) | (n & NOCAP)


@njit(cache=True, inline='always')
def _most(x, y):
    """Two pile notes as one: each seat's larger pile (bytes under 128,
    compared at once), either's no-capture bit."""
    ge = (((x & NOTE_PILES) | 0x808080) - (y & NOTE_PILES)) & 0x808080
    m = (ge >> 7) * 255
    return (x & m) | (y & ~m & NOTE_PILES) | ((x | y) & NOCAP)


@njit(cache=True)
def _end(P, t, seat, last, pa, pb, pc):
    """The points the end of the hand gives, in the frame of ``seat`` (who
    played the last card; piles ``pa, pb, pc`` in that frame): the table
    to the last capturer with the bonus, each pile's cards over 20; and
    the pile notes (the piles at the end, :data:`NOCAP` when ``last`` is
    still coded: no capture since a memoised root)."""
    ga = 0
    gb = 0
    gc = 0
    nocap = 0
    if last >= LAST_CODED:
        nocap = NOCAP
        last -= LAST_CODED + 1
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
    return (ga + max(0, pa - 20), gb + max(0, pb - 20), gc + max(0, pc - 20),
            pa | (pb << 8) | (pc << 16) | nocap)


@njit(cache=True)
def forced(P, t, a, b, c, prev, show, pa, pb, pc, seat, last):
    """The vector (the mover's frame) when every hand holds at most one
    card: the rest is forced; and the pile notes (:func:`_end`, the
    mover's frame)."""
    va = 0
    vb = 0
    vc = 0
    note = 0
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
            ga, gb, gc, note = _end(P, t, seat, last, pa, pb, pc)
            if k == 0:
                va += ga
                vb += gb
                vc += gc
            elif k == 1:
                vb += ga
                vc += gb
                va += gc
                note = _up(note)
            else:
                vc += ga
                va += gb
                vb += gc
                note = _up(_up(note))
            break
        a, b, c = b, c, 0
        pa, pb, pc = pb, pc, pa
        seat = seat + 1 if seat < 2 else 0
        k += 1
    return va, vb, vc, note


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
    ga, gb, gc, note = _end(P, t, seat, last, pa, pb, pc)
    return va + ga, vb + gb, vc + gc, note


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


@njit("UniTuple(int64, 5)(int64[::1], int64, int64, int64, int64, int64, int64, int64, int64, "
      "int64, int64, int64)", cache=True)
def lean3(P, t, a, b, c, prev, show, pa, pb, pc, seat, last):
    """The max^n vector, in the mover's frame, of a last-deal state whose
    mover holds two cards or more, the decision nodes searched and the
    pile notes of every end (:func:`_end`, the mover's frame): ``(va, vb,
    vc, nodes, notes)``. Ties as :func:`solver.search.kernels_vec.maxn`:
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
    notes = 0
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
            w0, w1, w2, n = _forced3(P, ct, b, c, na, cp, cw, pb, qc, pa + added, ns, cl)
        else:
            w0, w1, w2, k, n = lean3(P, ct, b, c, na, cp, cw, pb, qc, pa + added, ns, cl)
            nodes += k
        notes = _most(notes, _up(n))
        have, b0, b1, b2, bs = _pick(have, b0, b1, b2, bs, pts + w2, w0, w1)
    return b0, b1, b2, nodes, notes


@njit(cache=True)
def _search3(P, t, a, b, c, prev, show, pa, pb, pc, seat, last):
    """:func:`lean3` or, when the mover holds one card, :func:`forced`:
    ``(va, vb, vc, nodes, notes)``."""
    if popcount(a) <= 1:
        va, vb, vc, n = forced(P, t, a, b, c, prev, show, pa, pb, pc, seat, last)
        return va, vb, vc, 0, n
    return lean3(P, t, a, b, c, prev, show, pa, pb, pc, seat, last)


@njit(cache=True, inline='always')
def _frame(seat, h0, h1, h2):
    """Three seat-order words in the frame of ``seat``: its own, the next
    seat's, the seat after's."""
    if seat == 0:
        return h0, h1, h2
    if seat == 1:
        return h1, h2, h0
    return h2, h0, h1


@njit(cache=True, inline='always')
def _seats(seat, va, vb, vc):
    """Three words in the frame of ``seat`` back in seat order."""
    if seat == 0:
        return va, vb, vc
    if seat == 1:
        return vc, va, vb
    return vb, vc, va


@njit(cache=True, inline='always')
def _notes_seats(seat, n):
    """Pile notes (:func:`_met`: a byte a seat and the no-capture bit) in
    the frame of ``seat`` back in seat order."""
    n0, n1, n2 = _seats(seat, n & 255, (n >> 8) & 255, (n >> 16) & 255)
    return n0 | (n1 << 8) | (n2 << 16) | (n & NOCAP)


@njit(cache=True, inline='always')
def _notes_frame(seat, n):
    """Pile notes in seat order in the frame of ``seat``."""
    n0, n1, n2 = _frame(seat, n & 255, (n >> 8) & 255, (n >> 16) & 255)
    return n0 | (n1 << 8) | (n2 << 16) | (n & NOCAP)


@njit(cache=True)
def lean3_state(P, st):
    """The max^n vector of a last-deal state tuple (the stock empty) of
    three sides, each seat's entry (seat order), and the decision nodes
    searched: ``(v0, v1, v2, nodes)``."""
    x = st[10]
    seat = st[5]
    a, b, c = _frame(seat, st[1], st[2], st[3])
    pa, pb, pc = _frame(seat, pile_of(x, 0), pile_of(x, 1), pile_of(x, 2))
    va, vb, vc, k, _n = _search3(P, st[0], a, b, c, st[6], st[7], pa, pb, pc, seat, st[8])
    v0, v1, v2 = _seats(seat, va, vb, vc)
    return v0, v1, v2, k


# --- the memo -------------------------------------------------------------------------


def new_memo(entries: int = MEMO_ENTRIES) -> np.ndarray:
    """A thread's memo (:func:`_root_vector`, :func:`lean2_state`): per
    entry its key (the table, the last capturer where it counts, the
    level), the generation, the vector packed (seat order) and the piles
    it holds for (:func:`_entry`)."""
    return np.zeros((entries, 4), dtype=np.int64)


@njit(cache=True, inline='always')
def _fits(w, k, p):
    """Whether pile ``p`` of seat ``k`` is one the piles word ``w``
    (:func:`_entry`) holds for: up to its bound, or its exact size."""
    f = (w >> (16 * k)) & 255
    if f & PILE_EXACT:
        return p == (f & ~PILE_EXACT)
    return p <= f


@njit(cache=True)
def _find(M, gen, key, last, p0, p1, p2):
    """The slot of an entry of ``M`` (generation ``gen``) for ``key`` (the
    table and the level) that holds for last capturer ``last`` and piles
    ``p0, p1, p2``; else ``-1 - j``, ``j`` the slot a new entry takes (the
    first free one of the key's probes, else the first probe)."""
    mask = M.shape[0] - 1
    slot = ((key * -7046029254386353131) >> 40) & mask
    for q in range(MEMO_PROBES):
        j = (slot + q) & mask
        if M[j, 1] != gen:
            return -1 - j
        k = M[j, 0]
        if (k & KEY_BITS) != key:
            continue
        lc = (k >> LAST_SHIFT) & 7
        if lc != 0 and lc != last + 2:
            continue
        w = M[j, 3]
        if _fits(w, 0, p0) and _fits(w, 1, p1) and _fits(w, 2, p2):
            return j
    return -1 - slot


@njit(cache=True, inline='always')
def _entry(p, top):
    """A seat's 16 bits of a piles word, solved from pile ``p`` with
    ``top`` its largest pile at an end: the low byte the piles the entry
    holds for (every pile up to ``p + 20 - top`` when ``top`` is 20 or
    less, else ``PILE_EXACT | p``), the high byte ``top``."""
    if top <= 20:
        return (p + 20 - top) | (top << 8)
    return PILE_EXACT | p | (top << 8)


@njit(cache=True)
def _store(M, j, gen, key, last, notes, p0, p1, p2, v0, v1, v2):
    """Write entry ``j``: ``key`` with the last capturer when an end had no
    capture (``notes``, seat order), the vector, the piles it holds for."""
    M[j, 0] = key | (((last + 2) << LAST_SHIFT) if notes & NOCAP else 0)
    M[j, 1] = gen
    M[j, 2] = v0 | (v1 << 16) | (v2 << 32)
    M[j, 3] = (_entry(p0, notes & 255) | (_entry(p1, (notes >> 8) & 255) << 16)
               | (_entry(p2, (notes >> 16) & 255) << 32))


@njit(cache=True)
def _met(M, j, coded, p0, p1, p2):
    """The pile notes (seat order) entry ``j`` gives a search that meets it
    from piles ``p0, p1, p2``: each seat's largest pile at an end is at
    most the entry's, more by what the pile is over the one it was solved
    from; no capture since the searcher's root when the searcher's last
    capturer came ``coded`` and the entry keeps it."""
    w = M[j, 3]
    notes = 0
    for k in range(3):
        p = p0 if k == 0 else (p1 if k == 1 else p2)
        f = (w >> (16 * k)) & 255
        top = (w >> (16 * k + 8)) & 255
        if (f & PILE_EXACT) == 0:
            top += max(0, p - (f + top - 20))
        notes |= min(top, 127) << (8 * k)
    if coded and (M[j, 0] >> LAST_SHIFT) & 7:
        notes |= NOCAP
    return notes


@njit(cache=True, inline='always')
def _unpack(w):
    return w & 0xFFFF, (w >> 16) & 0xFFFF, (w >> 32) & 0xFFFF


@njit(cache=True)
def _root_vector(P, D, M, gen, spos, t, last, p0, p1, p2):
    """The max^n vector (seat order) of the start of the last deal dealt
    from stock position ``spos`` (the leader to move, no card laid, no hit
    on show) with table ``t``, last capturer ``last`` and piles ``p0, p1,
    p2``, the decision nodes searched and the pile notes (seat order,
    :func:`_met`; ``last`` may come coded, as the caller's root passed
    it): from the memo ``M`` for generation ``gen`` (the search of one
    game) when an entry of the table holds for these piles and last
    capturer, else searched (:func:`lean3`) and written with the piles
    and last capturers it holds for.

    Why an entry holds for other piles: along any plays a pile ends
    larger by at most what it started larger by (it gains the same cards
    whatever its size, and an answer takes at most as many from a larger
    pile), and never larger from a smaller start; the other seats' piles
    do not depend on it. So when a seat's largest pile at an end was 20
    or under (it counted nowhere), every pile up to the room left under
    20 counts nowhere either, and every vector of the search is the same.
    The last capturer counts only at an end with no capture in the deal."""
    coded = last >= LAST_CODED
    if coded:
        last -= LAST_CODED + 1
    j = _find(M, gen, t, last, p0, p1, p2)
    if j >= 0:
        v0, v1, v2 = _unpack(M[j, 2])
        return v0, v1, v2, 0, _met(M, j, coded, p0, p1, p2)
    j = -1 - j
    seat = P[P_LEADER]
    a, b, c = _frame(seat, D[spos, 0], D[spos, 1], D[spos, 2])
    pa, pb, pc = _frame(seat, p0, p1, p2)
    va, vb, vc, k, n = _search3(P, t, a, b, c, -1, 0, pa, pb, pc, seat,
                                last + LAST_CODED + 1)
    v0, v1, v2 = _seats(seat, va, vb, vc)
    _store(M, j, gen, t, last, _notes_seats(seat, n), p0, p1, p2, v0, v1, v2)
    return v0, v1, v2, k, _met(M, j, coded, p0, p1, p2)


# --- the deal before the last -------------------------------------------------------


@njit(cache=True)
def covers2(P, D, st):
    """Whether :func:`lean2_state` plays ``st``: a rule system of
    :func:`covers3` with a known stock, ``st`` in the deal before the last
    (the next deal is the last)."""
    spos = st[9]
    return (P[P_SHUFFLED] == 0 and spos != P[P_EMPTY] and D[spos, D_NEXT] == P[P_EMPTY]
            and covers3(P))


@njit("UniTuple(int64, 5)(int64[::1], int64[:, ::1], int64[:, ::1], int64, int64, int64, "
      "int64, int64, int64, int64, int64, int64, int64, int64, int64, int64)", cache=True)
def lean2(P, D, M, gen, t, a, b, c, prev, show, pa, pb, pc, seat, last, spos):
    """:func:`lean3` for a state of the deal before the last (known stock,
    ``spos`` the last deal's start), the mover holding a card or more: the
    plays to the end of the deal, the last deal's roots by
    :func:`_root_vector` (memoised). ``(va, vb, vc, nodes, notes)`` in the
    mover's frame, ``notes`` the pile notes of every end."""
    hb = a & LOW
    nodes = 1
    have = False
    b0 = 0
    b1 = 0
    b2 = 0
    bs = 0
    notes = 0
    ns = seat + 1 if seat < 2 else 0
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
            p0, p1, p2 = _seats(seat, qa, pb, qc)
            v0, v1, v2, k, n = _root_vector(P, D, M, gen, spos, ct, cl, p0, p1, p2)
            nodes += k
            v0 += D[spos, D_DS]
            v1 += D[spos, D_DS + 1]
            v2 += D[spos, D_DS + 2]
            w0, w1, w2 = _frame(ns, v0, v1, v2)     # into the next seat's frame
            notes = _most(notes, _notes_frame(seat, n))
        else:
            w0, w1, w2, k, n = lean2(P, D, M, gen, ct, b, c, na, cp, cw, pb, qc, qa, ns, cl,
                                     spos)
            nodes += k
            notes = _most(notes, _up(n))
        have, b0, b1, b2, bs = _pick(have, b0, b1, b2, bs, pts + w2, w0, w1)
    return b0, b1, b2, nodes, notes


@njit(cache=True)
def _deal_start(D, spos, a, b, c, prev, show):
    """Whether hands ``a, b, c`` (no card laid, no hit on show) are those
    dealt at the start of the deal before the one at ``spos``."""
    if prev != -1 or show != 0:
        return False
    r = spos - 1
    while r >= 0 and D[r, D_NEXT] != spos:
        r -= 1
    return r >= 0 and (popcount(a) + popcount(b) + popcount(c)
                       == popcount(D[r, 0]) + popcount(D[r, 1]) + popcount(D[r, 2]))


@njit(cache=True)
def lean2_state(P, D, M, gen, st):
    """The max^n vector (seat order) of a state of the deal before the last
    (:func:`covers2`) and the decision nodes searched (:func:`lean2`, the
    last deal's roots memoised in ``M`` for generation ``gen``). The
    deal's start is memoised as the last deal's roots are
    (:func:`_root_vector`), its entry holding for the piles and last
    capturers that give the same vectors."""
    x = st[10]
    seat = st[5]
    a, b, c = _frame(seat, st[1], st[2], st[3])
    p0 = pile_of(x, 0)
    p1 = pile_of(x, 1)
    p2 = pile_of(x, 2)
    pa, pb, pc = _frame(seat, p0, p1, p2)
    spos = st[9]
    last = st[8]
    start = _deal_start(D, spos, a, b, c, st[6], st[7])
    key = st[0] | LEVEL2
    if start:
        j = _find(M, gen, key, last, p0, p1, p2)
        if j >= 0:
            v0, v1, v2 = _unpack(M[j, 2])
            return v0, v1, v2, 0
        last += LAST_CODED + 1
    va, vb, vc, k, n = lean2(P, D, M, gen, st[0], a, b, c, st[6], st[7], pa, pb, pc, seat,
                             last, spos)
    v0, v1, v2 = _seats(seat, va, vb, vc)
    if start:
        j = _find(M, gen, key, st[8], p0, p1, p2)
        _store(M, -1 - j if j < 0 else j, gen, key, st[8], _notes_seats(seat, n), p0, p1, p2,
               v0, v1, v2)
    return v0, v1, v2, k
