"""The last deal solved by the game itself: once the stock is empty every
card is known and a few plies remain (two players: 3 cards each, the last
round forced; four: 12 plies), so a plain alpha-beta on the state tuple,
with the moves generated and ordered on the spot, is several times cheaper
a node than the general kernel (no children rows, no transposition table).

It covers every two-sided rule system (:func:`covers`: two or four
players, every preset and house rule, Ronda voleur, the points and the
match objectives); the search (:func:`solver.search.kernels.last_deal`)
plays three sides through ``gen_children``. Points (:func:`value`, voleur's
plays through ``play_general``): half-points for the mover's side; the match
(:func:`match_value`): the mover's side's equity times ``EQ_SCALE``, the
match-equity table's value where the line ends. Both are
:func:`solver.search.kernels.negamax`'s values, integers, fail-soft
alpha-beta (exact inside the window, a bound on the right side outside);
checked against the general kernel and the plain reference in
tests/test_last_deal.py.
"""

from __future__ import annotations

import numpy as np

from .hints import prefetch
from .core import (EV_END, EV_WON, MAX_SCORE, NRANKS, P_BONUS, P_GENERAL, P_IMMEDIATE,
                   P_MATCH, P_NSIDES, P_PLAYERS, P_PTS, P_SIDE, P_TARGET, P_VOLEUR, X_PILE,
                   _cards_key, hand_of, leaf_value, leaf_value2, lowest_rank, per_node, pile_of,
                   play, play_match2, popcount, score_of, won_by, won_by2)

#: the most moves a hand can have (one per rank)
MAX_LEAN_MOVES = NRANKS
#: beyond every value of the match objective (an equity times ``EQ_SCALE``,
#: 2**40)
MATCH_INF = 1 << 50
#: :func:`match_value` keeps the children it searches in rows ``LEAN_ROW``
#: on of its ply's scratch (rows 0-2 hold the move order), this many of
#: them (a last-deal hand holds fewer cards; past them a child is played
#: again)
LEAN_ROW = 3
LEAN_SLOTS = 8


@per_node()
def covers(P):
    """Whether :func:`solve` plays this rule system (else the search's
    general last-deal alpha-beta does): two sides, points or the match."""
    return P[P_NSIDES] == 2


@per_node()
def exact_last_chance(P, S):
    """Whether the search solves a chance node that deals the last deal
    exactly, every outcome by :func:`solve` (``C_LEXACT``):
    :func:`exact_last_points`, or the match objective of two sides without
    Ronda voleur with a line cache in the scratch ``S``: each outcome's
    6-card state valued from its lines' tree (:func:`match_cached`), kept
    under its cards across x words (match12 about 0.75x the CPU of Star1
    with the table there; through :func:`match_value` it was not better,
    docs/performance.md)."""
    return exact_last_points(P) or (P[P_MATCH] != 0 and P[P_NSIDES] == 2
                                    and P[P_VOLEUR] == 0 and S.shape[0] > LINES_PLY)


@per_node()
def exact_last_points(P):
    """Whether the search solves a chance node that deals the last deal
    exactly, every outcome by :func:`solve` (``C_LEXACT``): two sides
    playing for points without Ronda voleur (1.34-1.6x at 12 unseen).
    Ronda voleur keeps Star1 and the table there: measured slower (voleur12
    1.24x more CPU, 2.4x the nodes: the table merges its last deals across
    chance nodes; docs/performance.md)."""
    return P[P_GENERAL] == 0


def lean_default(P) -> int:
    """``C_LEAN`` for a new search of this rule system: the match objective
    (two sides) searches the last 4 cards of the last deal by
    :func:`match_value` (the table above them: match12 0.78x the CPU of the
    table throughout, match2 no change); 0 (the table throughout) for the
    others (docs/performance.md)."""
    return 4 if P[P_MATCH] != 0 and P[P_NSIDES] == 2 else 0


def lean_for(P, work: int) -> int:
    """``C_LEAN`` for a search whose root has ``work`` cards still to play
    (:func:`solver.engine.core.work_left`): :func:`lean_default`, more
    cards of the last deal by their lines where the search is large
    enough to meet each last deal's lines again and again (the root in
    the hand's first deal; four players also in the second). Measured on
    the match objective's searches from the start of each deal, their
    time at this setting against 4 (docs/performance.md): two players,
    6 cards, 0.95x from the first deal, 1.00x from the second, 1.03-1.07x
    from the later ones; four players, 8 cards, 0.58x from the first deal,
    0.90x (6 cards alike) from the second, 1.15x from the last."""
    lean = lean_default(P)
    if lean == 0:
        return 0
    if P[P_PLAYERS] == 2 and work > 30:
        return 6
    if P[P_PLAYERS] == 4 and work > 12:
        return 8 if work > 24 else 6
    return lean


@per_node()
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


@per_node("int64(int64[::1], int64[:, ::1], int64[:, :, ::1], int64[::1], int64, int64, "
          "UniTuple(int64, 11), int64, int64)")
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


# --- the match objective --------------------------------------------------------------


@per_node()
def forced_match(P, D, st, side):
    """The match objective: the value for ``side`` of ``st`` when every
    hand holds at most one card and the stock is empty (the rest forced,
    played until the hand ends or the immediate win check ends the match)."""
    while (st[1] | st[2] | st[3] | st[4]) != 0:
        r = lowest_rank(hand_of(st[1], st[2], st[3], st[4], st[5]))
        st, _g, ev = play_match2(P, D, st, r)
        if ev & EV_WON:
            break
    return leaf_value(P, st[10], side)


@per_node("int64(int64[::1], int64[:, ::1], int64[:, :, ::1], int64[::1], int64, int64, "
          "UniTuple(int64, 11), int64, int64)")
def match_value(P, D, S, C, count, ply, st, alpha, beta):
    """:func:`value` for the match objective (two sides): the mover's
    side's equity ``2 P - 1`` times ``EQ_SCALE`` (integers, as the general
    kernel's), a line ending where the hand ends or where the immediate win
    check ends the match, its value the match-equity table's at the final
    scores (:func:`solver.engine.core.leaf_value`); fail-soft in ``(alpha,
    beta)``. ``S[ply, 0..2, :MAX_LEAN_MOVES]`` scratch, the children that
    are searched kept in rows ``LEAN_ROW..`` of ``S[ply]`` (not played
    again). Moves in the
    general kernel's order (:func:`solver.engine.core.gen_children_match`):
    the points ordering guess, then a leaf's value, then the higher rank."""
    seat = st[5]
    side = P[P_SIDE + seat]
    if P[P_IMMEDIATE] != 0 and won_by(P, st[10]) >= 0:
        return leaf_value(P, st[10], side)
    hand = hand_of(st[1], st[2], st[3], st[4], seat)
    if popcount(hand) <= 1:
        return forced_match(P, D, st, side)
    C[count] += 1
    n = 0
    tail = True         # every child ends the line
    top = -MATCH_INF    # the best of those children
    for m in range(NRANKS):
        if not (hand >> (4 * m)) & 1:
            continue
        child, gain, ev = play_match2(P, D, st, m)
        order = gain
        leaf = 1
        v = 0
        if ev & EV_WON or (child[1] | child[2] | child[3] | child[4]) == 0:
            v = leaf_value(P, child[10], side)
        else:
            nh = hand_of(child[1], child[2], child[3], child[4], child[5])
            if popcount(nh) == 1:
                v = forced_match(P, D, child, side)
            else:
                leaf = 0
                tail = False
                if ev == 0 and (nh >> (4 * m)) & 1:
                    order = gain - 3
        if leaf and v > top:
            top = v
            if v >= beta:
                # a line already reaching beta: the node fails high (fail-soft,
                # a lower bound), the other plays not played
                return v
        # a child to search kept in its row (slot n; none past the rows)
        slot = LEAN_SLOTS
        if (not leaf and n < LEAN_SLOTS and LEAN_ROW + n < S.shape[1]
                and S.shape[2] >= len(child)):
            slot = n
            for q in range(len(child)):
                S[ply, LEAN_ROW + slot, q] = child[q]
        # sorted descending on (order, value, rank)
        j = n
        while j > 0 and (S[ply, 0, j - 1] < order or (S[ply, 0, j - 1] == order and (
                S[ply, 1, j - 1] < v or (S[ply, 1, j - 1] == v
                                         and (S[ply, 2, j - 1] & 255) < m)))):
            S[ply, 0, j] = S[ply, 0, j - 1]
            S[ply, 1, j] = S[ply, 1, j - 1]
            S[ply, 2, j] = S[ply, 2, j - 1]
            j -= 1
        S[ply, 0, j] = order
        S[ply, 1, j] = v
        S[ply, 2, j] = m | (leaf << 8) | (slot << 9)
        n += 1
    if tail:            # every child's value is known: no second pass
        return top
    best = -MATCH_INF
    for i in range(n):
        w = S[ply, 2, i]
        if (w >> 8) & 1:
            v = S[ply, 1, i]
        else:
            slot = w >> 9
            if slot < LEAN_SLOTS:
                r = LEAN_ROW + slot
                child = (S[ply, r, 0], S[ply, r, 1], S[ply, r, 2], S[ply, r, 3], S[ply, r, 4],
                         S[ply, r, 5], S[ply, r, 6], S[ply, r, 7], S[ply, r, 8], S[ply, r, 9],
                         S[ply, r, 10])
            else:
                child, _g, _ev = play_match2(P, D, st, w & 255)
            v = -match_value(P, D, S, C, count, ply + 1, child, -beta, -alpha)
        if v > best:
            best = v
            if v > alpha:
                alpha = v
                if alpha >= beta:
                    break
    return best


@per_node()
def solve(P, D, S, C, count, ply, st, alpha, beta):
    """The value of ``st`` of the last deal for the mover by :func:`value`
    or :func:`match_value` (the systems :func:`covers`)."""
    if P[P_MATCH] != 0:
        return match_cached(P, D, S, C, count, ply, st, alpha, beta)
    return value(P, D, S, C, count, ply, st, alpha, beta)


# --- the match objective: the last deal's lines cached by their cards -----------------

#: the search's scratch (``S``, :func:`solver.search.kernels.new_scratch`)
#: holds its plies' rows up to this ply; the plies past it, when there are
#: any, hold the line cache: its row count (a power of two) in the first
#: word, then its entries of ``LINE_COLS`` words (the check word, the
#: header: lines and the second level's max/min, up to ``MAX_LINES`` lines)
LINES_PLY = 64
LINE_COLS = 8
MAX_LINES = 4
#: the x word the lines are played with: no score (no win on the way), piles
#: of 21 (no pile made canonical, none below a shown card)
_X0 = (21 << X_PILE) | (21 << (X_PILE + 6))
_D0 = 64            # a pile's change is stored plus this (an answer takes cards)


@per_node(inline='always')
def _line_award(P, w, na, seat, ev):
    """The line word ``w`` with the award of a play by ``seat`` (events
    ``ev``) appended: ``(w, na)``, ``na`` -1 when it does not fit."""
    pts = P[P_PTS + (ev & 31)]
    if pts == 0 or na < 0:
        return w, na
    if na >= 5 or pts > 31:
        return w, -1
    return w | (((pts << 1) | P[P_SIDE + seat]) << (3 + 6 * na)), na + 1


@per_node(inline='always')
def _line_end(P, D, st, w, na):
    """Play ``st`` (x word ``_X0``) to the end of the hand, each hand
    holding at most one card, and finish the line word: its awards, then
    the last capturer's bonus, and the piles' changes. -1 where a line
    does not fit (a choice left, a win on the way, too many awards)."""
    while (st[1] | st[2] | st[3] | st[4]) != 0:
        seat = st[5]
        hand = hand_of(st[1], st[2], st[3], st[4], seat)
        if popcount(hand) > 1:
            return -1
        st, _g, ev = play_match2(P, D, st, lowest_rank(hand))
        if ev & EV_WON and not ev & EV_END:
            return -1
        w, na = _line_award(P, w, na, seat, ev)
    if na < 0:
        return -1
    if st[8] >= 0 and P[P_BONUS] != 0:
        if na >= 5 or P[P_BONUS] > 31:
            return -1
        w |= ((P[P_BONUS] << 1) | st[8]) << (3 + 6 * na)
        na += 1
    d0 = pile_of(st[10], 0) - 21 + _D0
    d1 = pile_of(st[10], 1) - 21 + _D0
    return w | na | (d0 << 33) | (d1 << 40)


@per_node()
def lines_build(P, D, F, e, chk, st):
    """Store at ``F[e:e + LINE_COLS]`` the lines of ``st`` (a last-deal
    state, two sides without Ronda voleur, the match objective): every
    line to the end of the hand (at most two choices on the way, each of
    at most two ranks) as a word: its awards in the rules' order (side and
    points), the piles' changes, its first choice (bit 47). The lines do
    not depend on the x word: they are played with ``_X0``. Header
    ``F[e + 1]`` 0: the state's lines do not fit (:func:`match_value`
    searches it)."""
    F[e] = chk
    F[e + 1] = 0
    root = (st[0], st[1], st[2], st[3], st[4], st[5], st[6], st[7], st[8], st[9],
            np.int64(_X0))
    side = P[P_SIDE + st[5]]
    hand = hand_of(st[1], st[2], st[3], st[4], st[5])
    if popcount(hand) <= 1:
        w = _line_end(P, D, root, 0, 0)
        if w >= 0:
            F[e + 2] = w
            F[e + 1] = 1
        return
    n = 0
    kinds = 0
    g = 0
    for m in range(NRANKS):
        if not (hand >> (4 * m)) & 1:
            continue
        if g >= 2:
            return
        child, _g, ev = play_match2(P, D, root, m)
        if ev & EV_WON and not ev & EV_END:
            return
        w0, na0 = _line_award(P, g << 47, 0, st[5], ev)
        nh = hand_of(child[1], child[2], child[3], child[4], child[5])
        if popcount(nh) <= 1:
            if n >= MAX_LINES:
                return
            w = _line_end(P, D, child, w0, na0)
            if w < 0:
                return
            F[e + 2 + n] = w
            n += 1
        else:
            if P[P_SIDE + child[5]] == side:
                kinds |= 1 << g
            for m2 in range(NRANKS):
                if not (nh >> (4 * m2)) & 1:
                    continue
                c2, _g2, ev2 = play_match2(P, D, child, m2)
                if ev2 & EV_WON and not ev2 & EV_END:
                    return
                w1, na1 = _line_award(P, w0, na0, child[5], ev2)
                if n >= MAX_LINES:
                    return
                w = _line_end(P, D, c2, w1, na1)
                if w < 0:
                    return
                F[e + 2 + n] = w
                n += 1
        g += 1
    F[e + 1] = n | (kinds << 3)


@per_node(inline='always')
def _line_value(P, x, w, side):
    """A line's value for ``side`` from the x word ``x``: its awards in
    order (the immediate win check after each), then each side's card
    count (its pile and the line's change; a pile written 0 because it
    cannot pass 20 cards stays under 20 with it too), the match-equity
    table's value there: :func:`solver.engine.core.leaf_value` of the
    final x word, on the two scores as integers (no x word written back,
    the table read here: the trees' valuation took 21% fewer `perf`
    samples at match12, docs/performance.md)."""
    imm = P[P_IMMEDIATE] != 0
    T = P[P_TARGET]
    a = score_of(x, 0)
    b = score_of(x, 1)
    na = w & 7
    for j in range(na):
        t = (w >> (3 + 6 * j)) & 63
        if t & 1:
            b = min(b + (t >> 1), MAX_SCORE)
        else:
            a = min(a + (t >> 1), MAX_SCORE)
        if imm and won_by2(a, b, T) >= 0:
            return leaf_value2(P, a, b, side)
    c = pile_of(x, 0) + ((w >> 33) & 127) - _D0 - 20
    if c > 0:
        a = min(a + c, MAX_SCORE)
        if imm and won_by2(a, b, T) >= 0:
            return leaf_value2(P, a, b, side)
    c = pile_of(x, 1) + ((w >> 40) & 127) - _D0 - 20
    if c > 0:
        b = min(b + c, MAX_SCORE)
    return leaf_value2(P, a, b, side)


@per_node()
def lines_value(P, F, e, x, side):
    """The exact value for ``side`` (the mover's) of the state whose lines
    ``F[e:]`` holds, with the x word ``x``: the best first choice, each
    worth the best (its mover on ``side``) or the worst of its lines."""
    n = F[e + 1] & 7
    kinds = F[e + 1] >> 3
    best = -MATCH_INF
    g = -1
    gv = 0
    for i in range(n):
        w = F[e + 2 + i]
        v = _line_value(P, x, w, side)
        wg = (w >> 47) & 1
        if wg != g:
            if g >= 0 and gv > best:
                best = gv
            g = wg
            gv = v
        elif (kinds >> g) & 1:
            if v > gv:
                gv = v
        elif v < gv:
            gv = v
    if gv > best:
        best = gv
    return best


#: the cache of 5-6 card states: entries of ``BIG_COLS`` words (the check
#: word, the header, up to ``BIG_COLS - 2`` lines), as many as the 4-card
#: entries (``BIG_SHARE``: match12 0.753 s against 0.778 s at half as many,
#: 0.808 s at a quarter); a line word's choices at the tree's levels 0-2 in
#: bits 47-52 (two bits a level; the last level's not needed)
BIG_COLS = 40
BIG_SHARE = 1
MAX_LEVELS = 4
_PATH = 47


@per_node("int64(int64[::1], int64[:, ::1], int64[::1], int64, UniTuple(int64, 11), int64, "
          "int64, int64, int64)")
def _lines_rec(P, D, F, e, st, w, na, level, n):
    """Append to ``F[e + 2 + n:]`` the lines below ``st`` (the line word so
    far ``w``, ``na`` awards, at choice level ``level``): the new line
    count, -1 where they do not fit."""
    hand = hand_of(st[1], st[2], st[3], st[4], st[5])
    if popcount(hand) <= 1:
        if n >= BIG_COLS - 2:
            return -1
        wl = _line_end(P, D, st, w, na)
        if wl < 0:
            return -1
        F[e + 2 + n] = wl
        return n + 1
    if level >= MAX_LEVELS:
        return -1
    c = 0
    for m in range(NRANKS):
        if not (hand >> (4 * m)) & 1:
            continue
        child, _g, ev = play_match2(P, D, st, m)
        if ev & EV_WON and not ev & EV_END:
            return -1
        w1, na1 = _line_award(P, w, na, st[5], ev)
        if level < MAX_LEVELS - 1:
            w1 |= c << (_PATH + 2 * level)
        n = _lines_rec(P, D, F, e, child, w1, na1, level + 1, n)
        if n < 0:
            return -1
        c += 1
    return n


@per_node(inline='always')
def _entry4(F, base, st):
    """The line cache's entry of the 4-card state ``st`` and its check word."""
    a, b = _cards_key(st, True)
    return (base + LINE_COLS * (1 + np.int64(a & np.uint64(F[base] - 1))),
            np.int64(b | np.uint64(1)))


@per_node(inline='always')
def _append4(P, D, F, base, e, st, w, na, level, n, e2, chk):
    """Append to ``F[e + 2 + n:]`` the lines of the 4-card state ``st``
    (its line cache entry ``e2``, check word ``chk``: played and stored
    there when missing) after the line so far ``w`` (``na`` awards; its
    awards after these, the piles' changes added, its first choice at
    ``level``): the new line count, -1 where they do not fit."""
    if na < 0 or popcount(hand_of(st[1], st[2], st[3], st[4], st[5])) != 2:
        return -1
    if F[e2] != chk:
        lines_build(P, D, F, e2, chk, st)
    n2 = F[e2 + 1] & 7
    if n2 == 0:
        return -1
    p0 = pile_of(st[10], 0) - 21
    p1 = pile_of(st[10], 1) - 21
    for i in range(n2):
        if n >= BIG_COLS - 2:
            return -1
        ws = F[e2 + 2 + i]
        ns = ws & 7
        if na + ns > 5:
            return -1
        d0 = ((ws >> 33) & 127) + p0
        d1 = ((ws >> 40) & 127) + p1
        if d0 < 0 or d0 > 127 or d1 < 0 or d1 > 127:
            return -1
        wl = (w | (((ws >> 3) & ((1 << (6 * ns)) - 1)) << (3 + 6 * na)) | (na + ns)
              | (d0 << 33) | (d1 << 40))
        if level < MAX_LEVELS - 1:
            wl |= ((ws >> 47) & 1) << (_PATH + 2 * level)
        F[e + 2 + n] = wl
        n += 1
    return n


@per_node("int64(int64[::1], int64[:, ::1], int64[::1], int64, int64, UniTuple(int64, 11), "
          "int64, int64, int64, int64)")
def _lines_rec4(P, D, F, base, e, st, w, na, level, n):
    """:func:`_lines_rec` for two players, the plays down to the 4-card
    states only: each 4-card state's lines taken from the line cache
    (``F[base:]``, played and stored there when missing) and appended after
    the line so far (:func:`_append4`). A 5-card state plays its (at most
    three) children first and asks for their entries together, so that
    their cache misses overlap (match12: the tree builds 28% fewer `perf`
    samples, the whole search 3.5% fewer,
    docs/performance.md). -1 where they do not fit."""
    cards = popcount(st[1]) + popcount(st[2]) + popcount(st[3]) + popcount(st[4])
    if cards == 4:
        e2, chk = _entry4(F, base, st)
        return _append4(P, D, F, base, e, st, w, na, level, n, e2, chk)
    hand = hand_of(st[1], st[2], st[3], st[4], st[5])
    if popcount(hand) <= 1 or level >= MAX_LEVELS - 2:
        return -1
    if cards == 5 and popcount(hand) <= 3:
        # the children: played and their entries asked for, then appended
        c0 = c1 = c2 = st
        w0 = w1 = w2 = np.int64(0)
        n0 = n1 = n2 = np.int64(0)
        e0 = e1 = e2 = np.int64(0)
        k0 = k1 = k2 = np.int64(0)
        c = 0
        for m in range(NRANKS):
            if not (hand >> (4 * m)) & 1:
                continue
            child, _g, ev = play_match2(P, D, st, m)
            if ev & EV_WON and not ev & EV_END:
                return -1
            wc, nc = _line_award(P, w, na, st[5], ev)
            wc |= c << (_PATH + 2 * level)
            ec, kc = _entry4(F, base, child)
            prefetch(F, ec)
            if c == 0:
                c0, w0, n0, e0, k0 = child, wc, nc, ec, kc
            elif c == 1:
                c1, w1, n1, e1, k1 = child, wc, nc, ec, kc
            else:
                c2, w2, n2, e2, k2 = child, wc, nc, ec, kc
            c += 1
        n = _append4(P, D, F, base, e, c0, w0, n0, level + 1, n, e0, k0)
        if n >= 0 and c > 1:
            n = _append4(P, D, F, base, e, c1, w1, n1, level + 1, n, e1, k1)
        if n >= 0 and c > 2:
            n = _append4(P, D, F, base, e, c2, w2, n2, level + 1, n, e2, k2)
        return n
    c = 0
    for m in range(NRANKS):
        if not (hand >> (4 * m)) & 1:
            continue
        child, _g, ev = play_match2(P, D, st, m)
        if ev & EV_WON and not ev & EV_END:
            return -1
        w1, na1 = _line_award(P, w, na, st[5], ev)
        w1 |= c << (_PATH + 2 * level)
        n = _lines_rec4(P, D, F, base, e, child, w1, na1, level + 1, n)
        if n < 0:
            return -1
        c += 1
    return n


@per_node()
def lines_build_tree(P, D, F, base, e, chk, st):
    """Store at ``F[e:e + BIG_COLS]`` the lines of ``st`` (a last-deal state,
    two sides without Ronda voleur, the match objective: an outcome of the
    last chance node, whatever its size, or a 5-6 card state that
    :func:`match_cached` meets):
    every line to the end of the hand in the order of a depth-first walk
    (ranks ascending at each choice), as :func:`lines_build`'s words with
    their choices at the levels above the last (bits 47-52). Header
    ``F[e + 1]``: the line count (bits 0-5), the levels (choices, bits
    6-8), which levels' mover is on the root mover's side (bits 9-12); 0
    where the lines do not fit (:func:`match_value` searches the state)."""
    F[e] = chk
    F[e + 1] = 0
    root = (st[0], st[1], st[2], st[3], st[4], st[5], st[6], st[7], st[8], st[9],
            np.int64(_X0))
    side = P[P_SIDE + st[5]]
    # the levels' movers (the seats' order does not depend on the choices)
    s = root
    levels = 0
    kinds = 0
    while True:
        hand = hand_of(s[1], s[2], s[3], s[4], s[5])
        if popcount(hand) <= 1:
            break
        if levels >= MAX_LEVELS:
            return
        if P[P_SIDE + s[5]] == side:
            kinds |= 1 << levels
        levels += 1
        s = play_match2(P, D, s, lowest_rank(hand))[0]
    n = -1
    if P[P_PLAYERS] == 2 and F[base] > 0:
        n = _lines_rec4(P, D, F, base, e, root, 0, 0, 0, 0)
    if n < 0:
        n = _lines_rec(P, D, F, e, root, 0, 0, 0, 0)
    if n <= 0:
        return
    F[e + 1] = n | (levels << 6) | (kinds << 9)


@per_node(inline='always')
def _ab_step(hi, v, best, alpha, beta):
    """A node's best value and window after a child's value ``v`` (a node
    of the root mover's side, ``hi``, takes the largest)."""
    if hi:
        if v > best:
            best = v
            if v > alpha:
                alpha = v
    elif v < best:
        best = v
        if v < beta:
            beta = v
    return best, alpha, beta


@per_node(inline='always')
def _ab_start(F, e, kinds, level, i):
    """A tree node's choices above it (a mask of the line words' path
    bits), their value in its first line ``i``, its kind and its start value."""
    mask = (1 << (2 * level)) - 1
    prefix = (F[e + 2 + i] >> _PATH) & mask
    hi = (kinds >> level) & 1
    return mask, prefix, hi, (-MATCH_INF if hi else MATCH_INF)


@per_node(inline='always')
def _ab_past(F, e, n, j, mask, prefix):
    """The first line from ``j`` past the node of those choices."""
    while j < n and ((F[e + 2 + j] >> _PATH) & mask) == prefix:
        j += 1
    return j


@per_node(inline='always')
def _ab_lines(P, F, e, n, x, side, kinds, level, i, alpha, beta):
    """Alpha-beta at the tree node at ``level`` whose children are lines,
    its first line ``i``: ``(value, the first line past the node)``."""
    mask, prefix, hi, best = _ab_start(F, e, kinds, level, i)
    j = i
    while j < n and ((F[e + 2 + j] >> _PATH) & mask) == prefix:
        v = _line_value(P, x, F[e + 2 + j], side)
        j += 1
        best, alpha, beta = _ab_step(hi, v, best, alpha, beta)
        if alpha >= beta:
            return best, _ab_past(F, e, n, j, mask, prefix)
    return best, j


@per_node(inline='always')
def _ab_up1(P, F, e, n, x, side, kinds, level, i, alpha, beta):
    """:func:`_ab_lines` at a node one level above the lines."""
    mask, prefix, hi, best = _ab_start(F, e, kinds, level, i)
    j = i
    while j < n and ((F[e + 2 + j] >> _PATH) & mask) == prefix:
        v, j = _ab_lines(P, F, e, n, x, side, kinds, level + 1, j, alpha, beta)
        best, alpha, beta = _ab_step(hi, v, best, alpha, beta)
        if alpha >= beta:
            return best, _ab_past(F, e, n, j, mask, prefix)
    return best, j


@per_node(inline='always')
def _ab_up2(P, F, e, n, x, side, kinds, level, i, alpha, beta):
    """:func:`_ab_lines` at a node two levels above the lines."""
    mask, prefix, hi, best = _ab_start(F, e, kinds, level, i)
    j = i
    while j < n and ((F[e + 2 + j] >> _PATH) & mask) == prefix:
        v, j = _ab_up1(P, F, e, n, x, side, kinds, level + 1, j, alpha, beta)
        best, alpha, beta = _ab_step(hi, v, best, alpha, beta)
        if alpha >= beta:
            return best, _ab_past(F, e, n, j, mask, prefix)
    return best, j


@per_node(inline='always')
def lines_tree_ab(P, F, e, x, side, alpha, beta):
    """The value for ``side`` (the mover's) of the state whose lines' tree
    ``F[e:]`` holds, with the x word ``x``, by alpha-beta over the tree:
    fail-soft in ``(alpha, beta)`` (exact inside it), each node's children
    cut skipped by their choice bits. The levels (at most ``MAX_LEVELS``)
    are written out, one function a level inlined in the next, without a
    call (the recursion's calls and reference counts were a third of its
    `perf` samples: the valuation about 10% fewer, docs/performance.md)."""
    hdr = F[e + 1]
    n = hdr & 63
    levels = (hdr >> 6) & 7
    kinds = hdr >> 9
    if levels == 0:
        return _line_value(P, x, F[e + 2], side)
    if levels == 1:
        return _ab_lines(P, F, e, n, x, side, kinds, 0, 0, alpha, beta)[0]
    if levels == 2:
        return _ab_up1(P, F, e, n, x, side, kinds, 0, 0, alpha, beta)[0]
    if levels == 3:
        return _ab_up2(P, F, e, n, x, side, kinds, 0, 0, alpha, beta)[0]
    # MAX_LEVELS: three levels above the lines
    mask, prefix, hi, best = _ab_start(F, e, kinds, 0, 0)
    j = 0
    while j < n:
        v, j = _ab_up2(P, F, e, n, x, side, kinds, 1, j, alpha, beta)
        best, alpha, beta = _ab_step(hi, v, best, alpha, beta)
        if alpha >= beta:
            break
    return best


@per_node()
def trees_on(P, S):
    """Whether :func:`match_cached` values a 5-6 card state from its lines'
    tree (two sides playing for the match without Ronda voleur, a line
    cache with its larger entries in the scratch ``S``)."""
    return (P[P_MATCH] != 0 and P[P_NSIDES] == 2 and P[P_VOLEUR] == 0
            and S.shape[0] > LINES_PLY
            and S[LINES_PLY, 0, 1] > 0)


@per_node(inline='always')
def tree_entry(F, base, a):
    """The index in ``F`` (the scratch's words, the line caches from
    ``base``) of the tree entry of a 5-6 card state whose cards' hash
    (:func:`solver.engine.core._cards_key`) is ``a``: the cache of larger
    entries must have rows (``F[base + 1] > 0``)."""
    return (base + LINE_COLS * (1 + F[base])
            + BIG_COLS * np.int64(a & np.uint64(F[base + 1] - 1)))


@per_node(inline='always')
def tree_value(P, D, S, F, C, count, ply, st, e, b, alpha, beta):
    """:func:`match_value` of the 5-6 card state ``st`` (the immediate win
    check passed) from its lines' tree, entry ``e`` of ``F`` (the
    scratch's words, :func:`tree_entry`; ``b`` its check hash): built
    there when missing, valued by alpha-beta over the tree (fail-soft, one
    node counted); :func:`match_value` where the lines do not fit."""
    chk = np.int64(b | np.uint64(1))
    if F[e] != chk:
        lines_build_tree(P, D, F, LINES_PLY * S.shape[1] * S.shape[2], e, chk, st)
    if F[e + 1] == 0:
        return match_value(P, D, S, C, count, ply, st, alpha, beta)
    C[count] += 1
    return lines_tree_ab(P, F, e, st[10], P[P_SIDE + st[5]], alpha, beta)


@per_node()
def match_cached(P, D, S, C, count, ply, st, alpha, beta):
    """:func:`match_value` through the line cache in the scratch's plies
    past ``LINES_PLY``: the state's lines looked up (or played and stored)
    under its cards' hash (its x word left out) and replayed on its
    scores and piles, the exact value (inside any window; one node
    counted). States of 5 or 6 cards (the outcomes of the last chance node)
    in the cache of larger entries (:func:`lines_build_tree`), valued by
    alpha-beta over their lines' tree (fail-soft). Without a cache, with
    Ronda voleur, and for the states whose lines do not fit:
    :func:`match_value`."""
    if S.shape[0] <= LINES_PLY or P[P_VOLEUR] != 0:
        return match_value(P, D, S, C, count, ply, st, alpha, beta)
    side = P[P_SIDE + st[5]]
    if P[P_IMMEDIATE] != 0 and won_by(P, st[10]) >= 0:
        return leaf_value(P, st[10], side)
    F = S.reshape(-1)
    base = LINES_PLY * S.shape[1] * S.shape[2]
    if popcount(st[1]) + popcount(st[2]) + popcount(st[3]) + popcount(st[4]) > 4:
        # 5 or 6 cards: the lines' tree in the cache of larger entries
        if F[base + 1] <= 0:
            return match_value(P, D, S, C, count, ply, st, alpha, beta)
        a, b = _cards_key(st, True)
        return tree_value(P, D, S, F, C, count, ply, st, tree_entry(F, base, a), b,
                          alpha, beta)
    a, b = _cards_key(st, True)
    e = base + LINE_COLS * (1 + np.int64(a & np.uint64(F[base] - 1)))
    chk = np.int64(b | np.uint64(1))
    if F[e] != chk:
        lines_build(P, D, F, e, chk, st)
    if F[e + 1] == 0:
        return match_value(P, D, S, C, count, ply, st, alpha, beta)
    C[count] += 1
    return lines_value(P, F, e, st[10], side)


def big_rows(rows: int) -> int:
    """Entries of the cache of 5-6 card states (``BIG_COLS`` words each)
    next to a line cache of ``rows`` entries of 4 cards."""
    return max(1, rows // BIG_SHARE)


def scratch_words(rows: int) -> int:
    """Words the line caches take past ``LINES_PLY`` (``rows`` entries of
    4 cards, :func:`big_rows` of 5-6 cards, the header)."""
    return (rows + 1) * LINE_COLS + big_rows(rows) * BIG_COLS


def scratch_lines(S, rows: int) -> None:
    """Write the line caches' row counts into a scratch made with room for
    :func:`scratch_words` past ``LINES_PLY`` (:func:`solver.search.kernels.new_scratch`)."""
    F = S.reshape(-1)
    base = LINES_PLY * S.shape[1] * S.shape[2]
    F[base] = rows
    F[base + 1] = big_rows(rows)
