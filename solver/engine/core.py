"""The compiled engine: :class:`~solver.engine.game.Game` in numba.

The same encoding and the same arithmetic as the reference engine, on
int64 only, so that every kernel can be checked against it play by play:

- a *card set* is a 40-bit int, one nibble a rank index 0..9, the count in
  unary (0, 1, 3, 7, 15);
- a *state* is a tuple of ``NSTATE`` int64: ``(table, h0, h1, h2, h3,
  seat, prev, show, last, stock)``, one card set a hand (seats 2 and 3 are
  0 with two players), ``prev`` the rank index of the previous lone card
  or -1, ``show`` ``rank*4 + size`` or 0, ``last`` the side of the last
  capture or -1, ``stock`` the cards dealt so far (known stock order) or the
  card set still in the stock (shuffled stock; 0 when empty);
- the rules and the deal of a known stock are two int64 arrays, ``P``
  (parameters, indices ``P_*``) and ``D`` (one row per deal start), built
  by :mod:`solver.engine.tables` from a :class:`~solver.rules.Rules`.

Values are half-points of margin for the mover's side, as in the reference.

The search kernels (:mod:`solver.search.kernels`) see only the interface at
the end of this module: :func:`gen_children` (every play, with its gain,
an ordering guess and whether the child ends the search line or is a chance
node), :func:`has_chance`, :func:`is_chance`, :func:`deal_table` and
:func:`dealt_child`, :func:`chance_bounds`,
:func:`state_key` and :func:`work_left`. They never learn what a hit is.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from . import _cache

_cache.check()      # before any kernel is loaded from numba's cache

NRANKS = 10
NSTATE = 10
LOW = sum(1 << (4 * i) for i in range(NRANKS))
SENTINEL = 1 << 40
BELOW = np.array([(1 << (4 * r)) - 1 for r in range(NRANKS)], dtype=np.int64)

# --- parameter array indices (see tables.py) ---------------------------------
P_PLAYERS = 0
P_LEADER = 1
P_EMPTY = 2          # the stock field of an empty stock
P_SHUFFLED = 3
P_ANSWERS = 4        # len(rules.hit)
P_MISSA_LAST = 5
P_BONUS = 6          # last_capture_bonus
P_TWO_SIDED = 7
P_RONDA = 8
P_TRINGA = 9
P_SPLIT = 10         # declare_tie == "split"
P_CONTESTED = 11
P_HIT = 12           # 3 entries, 0 where the rules have no such answer
P_MISSA = 15
P_CAPTURE = 16
P_PTS = 20           # 32 entries: points of the event bits ev < 32
P_BRK = 52           # 10 entries: the run stops after this rank (7 without 7-10)
P_SIDE = 62          # 4 entries
P_NEXT = 66          # 4 entries: the next seat
P_DEALN = 70         # 41 entries: cards a player on the deal a stock of k cards gives
P_CUMULATIVE = 111   # decl_cumulative (house rule, issue 11)
P_MISSA_ROUND = 112  # missa_last_round (house rule, issue 11)
P_DECL_MAX = 113     # the most points one deal's declarations give a side
P_SIZE = 114

# D: one row per stock position of a known stock where a deal starts
D_DG = 4             # declarations' half-points for side 0
D_NEXT = 5           # the stock position after the deal
D_COLS = 6

# --- event bits (as solver.engine.game) --------------------------------------
EV_CAPTURE = 1
EV_HIT = 2
EV_ANSWER5 = 4
EV_ANSWER10 = 8
EV_MISSA = 16
EV_DEAL = 32
EV_END = 64

# --- children rows: the interface the search reads ----------------------------
K_GAIN = NSTATE          # half-points for the mover's side
K_ORDER = NSTATE + 1     # ordering guess (higher first)
K_MOVE = NSTATE + 2      # the rank index played
K_KIND = NSTATE + 3      # KIND_* below
K_COLS = NSTATE + 4
KIND_NODE = 0            # an ordinary decision node
KIND_LEAF = 1            # the line ends here: the gain is the whole rest
KIND_CHANCE = 2          # a deal from a shuffled stock is due
MAX_MOVES = NRANKS


@njit(cache=True)
def popcount(x):
    """Set bits of a non-negative int64 below 2**62 (cards in a card set)."""
    x = x - ((x >> 1) & 0x5555555555555555)
    x = (x & 0x3333333333333333) + ((x >> 2) & 0x3333333333333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0F
    x = x + (x >> 8)
    x = x + (x >> 16)
    x = x + (x >> 32)
    return x & 0x7F


@njit(cache=True)
def hand_of(h0, h1, h2, h3, seat):
    """The card set of one seat's hand."""
    if seat == 0:
        return h0
    if seat == 1:
        return h1
    if seat == 2:
        return h2
    return h3


@njit(cache=True)
def play(P, D, st, r):
    """Play rank index ``r`` from the mover's hand: ``(child, gain, ev)``,
    exactly as :meth:`solver.engine.game.Game.play` (gain in half-points
    for the mover's side, ev the event bits)."""
    t, h0, h1, h2, h3, seat, prev, show, last, spos = st
    sh = 4 * r
    if seat == 0:
        h0 -= (((h0 >> sh) & 15) + 1) >> 1 << sh
    elif seat == 1:
        h1 -= (((h1 >> sh) & 15) + 1) >> 1 << sh
    elif seat == 2:
        h2 -= (((h2 >> sh) & 15) + 1) >> 1 << sh
    else:
        h3 -= (((h3 >> sh) & 15) + 1) >> 1 << sh
    anyhand = h0 | h1 | h2 | h3
    side = P[P_SIDE + seat]
    if show != 0 and (show >> 2) == r:
        size = show & 3
        ev = 5 if size == 2 else 9
        gain = 2 * P[P_PTS + ev] + 2 * size + 1
        show = ((r << 2) | (size + 1)) if size + 1 <= P[P_ANSWERS] else 0
        prev = -1
        last = side
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
        if t == 0 and (P[P_MISSA_LAST] != 0 or anyhand != 0 or spos != P[P_EMPTY]) and (
                P[P_MISSA_ROUND] != 0 or spos != P[P_EMPTY]
                or popcount(h0) + popcount(h1) + popcount(h2) + popcount(h3) >= P[P_PLAYERS]):
            ev |= 16
        gain = 2 * P[P_PTS + ev] + popcount(taken) + 1
        prev = -1
        last = side
    else:
        t += (((t >> sh) & 15) + 1) << sh
        ev = 0
        gain = 0
        prev = r
        show = 0
    if anyhand != 0:
        return (t, h0, h1, h2, h3, P[P_NEXT + seat], prev, show, last, spos), gain, ev
    if spos != P[P_EMPTY]:
        if P[P_SHUFFLED] != 0:       # a chance node: the search deals
            return (t, 0, 0, 0, 0, P[P_LEADER], -1, 0, last, spos), gain, ev | EV_DEAL
        dg = D[spos, D_DG]
        if P[P_TWO_SIDED] != 0:
            gain += dg if side == 0 else -dg
        return ((t, D[spos, 0], D[spos, 1], D[spos, 2], D[spos, 3], P[P_LEADER], -1, 0,
                 last, D[spos, D_NEXT]), gain, ev | EV_DEAL)
    # the last card of the hand: the table goes to the last capturer
    if last >= 0:
        swept = popcount(t) + 2 * P[P_BONUS]
        if P[P_TWO_SIDED] != 0:
            gain += swept if last == side else -swept
        t = 0
    return (t, 0, 0, 0, 0, P[P_NEXT + seat], -1, 0, last, spos), gain, ev | EV_END


@njit(cache=True)
def lowest_rank(hand):
    """The lowest rank index in a non-empty card set."""
    for r in range(NRANKS):
        if (hand >> (4 * r)) & 1:
            return r
    return -1


@njit(cache=True)
def gen_children(P, D, K, ply, st):
    """Every distinct play of ``st`` into ``K[ply, i]`` (columns: the
    child state, then ``K_GAIN``, ``K_ORDER``, ``K_MOVE``, ``K_KIND``), in
    rank order; returns how many. As the reference ``children``: when the
    rest of the hand is forced (the last round of the last deal, one card a
    hand) the plays are made here and the row is a leaf whose gain is the
    net gain to the end; the ordering guess is the gain, less 3 for a lone
    card the next player could hit at once."""
    seat = st[5]
    hand = hand_of(st[1], st[2], st[3], st[4], seat)
    empty = P[P_EMPTY]
    n = 0
    for m in range(NRANKS):
        if not (hand >> (4 * m)) & 1:
            continue
        child, gain, ev = play(P, D, st, m)
        anyh = child[1] | child[2] | child[3] | child[4]
        kind = KIND_NODE
        order = gain
        if anyh == 0:
            kind = KIND_LEAF if child[9] == empty else KIND_CHANCE
        else:
            nh = hand_of(child[1], child[2], child[3], child[4], child[5])
            if child[9] == empty and popcount(nh) == 1:
                sign = -1
                while anyh != 0:
                    r = lowest_rank(hand_of(child[1], child[2], child[3], child[4], child[5]))
                    child, g, _ev = play(P, D, child, r)
                    gain += sign * g
                    sign = -sign
                    anyh = child[1] | child[2] | child[3] | child[4]
                kind = KIND_LEAF
                order = gain
            elif ev == 0 and (nh >> (4 * m)) & 1:
                order = gain - 3
        for i in range(NSTATE):
            K[ply, n, i] = child[i]
        K[ply, n, K_GAIN] = gain
        K[ply, n, K_ORDER] = order
        K[ply, n, K_MOVE] = m
        K[ply, n, K_KIND] = kind
        n += 1
    return n


@njit(cache=True)
def has_chance(P):
    """The game deals from a shuffled stock (its values are expectations)."""
    return P[P_SHUFFLED] != 0


@njit(cache=True)
def is_chance(P, st):
    """No card in any hand and a shuffled stock still to deal."""
    return (P[P_SHUFFLED] != 0 and (st[1] | st[2] | st[3] | st[4]) == 0
            and st[9] != 0)


@njit(cache=True)
def is_terminal(P, st):
    """The hand is over."""
    return (st[1] | st[2] | st[3] | st[4]) == 0 and st[9] == P[P_EMPTY]


# --- declarations ----------------------------------------------------------------


@njit(cache=True)
def best_declaration(P, hand):
    """The best declaration of a card set as ``kind*16 + rank`` (kind 1
    Ronda, 2 Tringa), or -1; as :func:`solver.engine.game.best_declaration`."""
    if P[P_RONDA] == 0:
        return -1
    best = -1
    for r in range(NRANKS):
        c = popcount((hand >> (4 * r)) & 15)
        if c >= 3 and P[P_TRINGA] != 0:
            cand = 32 + r
        elif c >= 2:
            cand = 16 + r
        else:
            continue
        if cand > best:
            best = cand
    return best


@njit(cache=True)
def declaration_gain(P, h0, h1, h2, h3):
    """Half-points for side 0 less side 1 of the declarations of a deal
    (two sides; 0 otherwise), as
    :func:`solver.engine.game.declaration_points`."""
    if P[P_TWO_SIDED] == 0 or P[P_RONDA] == 0:
        return 0
    players = P[P_PLAYERS]
    d0 = best_declaration(P, h0)
    d1 = best_declaration(P, h1)
    d2 = best_declaration(P, h2) if players > 2 else -1
    d3 = best_declaration(P, h3) if players > 3 else -1
    best = max(max(d0, d1), max(d2, d3))
    if best < 0:
        return 0
    # which sides hold the best hand, which others declared
    win0 = (d0 == best and P[P_SIDE] == 0) or (d1 == best and P[P_SIDE + 1] == 0) \
        or (d2 == best and P[P_SIDE + 2] == 0) or (d3 == best and P[P_SIDE + 3] == 0)
    win1 = (d0 == best and P[P_SIDE] == 1) or (d1 == best and P[P_SIDE + 1] == 1) \
        or (d2 == best and P[P_SIDE + 2] == 1) or (d3 == best and P[P_SIDE + 3] == 1)
    if win0 and win1:
        return 0        # opposing sides tie: nobody, or each half (equal)
    other = (d1 >= 0 and P[P_SIDE + 1] == (1 if win0 else 0)) \
        or (d0 >= 0 and P[P_SIDE] == (1 if win0 else 0)) \
        or (d2 >= 0 and P[P_SIDE + 2] == (1 if win0 else 0)) \
        or (d3 >= 0 and P[P_SIDE + 3] == (1 if win0 else 0))
    value = P[P_TRINGA] if best >= 32 else P[P_RONDA]
    if P[P_CUMULATIVE] != 0:
        # every declared hand of the other side adds its own value
        loser = 1 if win0 else 0
        for s in range(players):
            d = d0 if s == 0 else (d1 if s == 1 else (d2 if s == 2 else d3))
            if d >= 0 and P[P_SIDE + s] == loser:
                value += P[P_TRINGA] if d >= 32 else P[P_RONDA]
    elif P[P_CONTESTED] != 0 and other:
        value = P[P_CONTESTED]
    return 2 * value if win0 else -2 * value


# --- chance nodes ----------------------------------------------------------------


# Recursive kernels carry explicit signatures: numba cannot load a lazily
# typed recursive function from its cache once another one calls it.
@njit("int64(int64[::1], int64, int64, int64[::1], int64[:, ::1], int64)", cache=True)
def _multisets(avail, n, start, cur, out, count):
    """Write every count vector of ``n`` more cards from ``avail`` (ranks
    ``start`` on; ``cur`` holds the counts chosen so far) into ``out`` from
    row ``count``, in the reference's order
    (:func:`solver.engine.game._multisets`); returns the new row count."""
    if n == 0:
        for q in range(NRANKS):
            out[count, q] = cur[q]
        return count + 1
    for r in range(start, NRANKS):
        if avail[r] == 0:
            continue
        k = min(avail[r], n)
        while k > 0:
            cur[r] = k
            if k == n:
                for q in range(NRANKS):
                    out[count, q] = cur[q]
                count += 1
            else:
                count = _multisets(avail, n - k, r + 1, cur, out, count)
            cur[r] = 0
            k -= 1
    return count


#: rows enough for every multiset of at most 4 cards of 10 ranks
MAX_COMBOS = 715


@njit(cache=True)
def _comb(n, k):
    if k < 0 or k > n:
        return 0
    c = 1
    for i in range(k):
        c = c * (n - i) // (i + 1)
    return c


@njit(cache=True)
def _cardset(counts):
    s = 0
    for r in range(NRANKS):
        s |= ((1 << counts[r]) - 1) << (4 * r)
    return s


@njit("int64(int64[::1], int64, int64, int64[::1], int64, int64[::1], int64[:, :, ::1], "
      "int64[:, ::1], int64[::1], int64[:, ::1], int64[::1], int64, int64)", cache=True)
def _deal_rec(P, level, n, rem, weight, hands, buf, cur, outw, outh, outrest, count, limit):
    """Deal ``n`` cards to the seat ``level`` places after the leader, and
    on; with empty output arrays only count the deals (stopping past
    ``limit``)."""
    players = P[P_PLAYERS]
    if count > limit:
        return count
    if level == players:
        if outw.shape[0] > 0:
            outw[count] = weight
            for s in range(4):
                outh[count, s] = hands[s]
            outrest[count] = _cardset(rem)
        return count + 1
    seat = (P[P_LEADER] + level) % players
    combos = buf[level]
    m = _multisets(rem, n, 0, cur[level], combos, 0)
    for i in range(m):
        w = weight
        for r in range(NRANKS):
            if combos[i, r] != 0:
                w *= _comb(rem[r], combos[i, r])
        for r in range(NRANKS):
            rem[r] -= combos[i, r]
        hands[seat] = _cardset(combos[i])
        count = _deal_rec(P, level + 1, n, rem, w, hands, buf, cur, outw, outh, outrest,
                          count, limit)
        for r in range(NRANKS):
            rem[r] += combos[i, r]
    hands[seat] = 0
    return count


@njit(cache=True)
def _deal_setup(stock):
    rem = np.zeros(NRANKS, dtype=np.int64)
    for r in range(NRANKS):
        rem[r] = popcount((stock >> (4 * r)) & 15)
    return (rem, np.zeros(4, dtype=np.int64), np.empty((4, MAX_COMBOS, NRANKS), dtype=np.int64),
            np.zeros((4, NRANKS), dtype=np.int64))


@njit(cache=True)
def outcome_count(P, stock, limit):
    """How many rank-multiset deals a shuffled stock (card set) can give
    next (the chance node's branching); counting stops past ``limit``."""
    rem, hands, buf, cur = _deal_setup(stock)
    n = P[P_DEALN + popcount(stock)]
    e1 = np.zeros(0, dtype=np.int64)
    e2 = np.zeros((0, 4), dtype=np.int64)
    return _deal_rec(P, 0, n, rem, 1, hands, buf, cur, e1, e2, e1, 0, limit)


#: columns of a deal row (deal_table): the gain, the four dealt hands, the rest
DR_GAIN = 0
DR_REST = 5
DR_COLS = 6


@njit(cache=True)
def deal_table(P, st, limit):
    """The deals a chance node can give, as ``(prob, rows)``: ``prob``
    float64, ``rows`` int64 with the columns ``DR_*`` (the declarations'
    half-points for the leader's side, the dealt hands, the stock left).
    They depend on the stock only (``st[9]``); :func:`dealt_child` makes
    the child state of a row. Most probable first. Past ``limit`` outcomes
    both are empty."""
    probs, gains, kids = deal_outcomes(P, st, limit)
    k = probs.shape[0]
    rows = np.empty((k, DR_COLS), dtype=np.int64)
    for i in range(k):
        rows[i, DR_GAIN] = gains[i]
        for s in range(4):
            rows[i, 1 + s] = kids[i, 1 + s]
        rows[i, DR_REST] = kids[i, 9]
    return probs, rows


@njit(cache=True)
def dealt_child(P, st, rows, i):
    """The child state of deal row ``i`` at the chance node ``st``."""
    none = np.int64(-1)
    zero = np.int64(0)
    return (st[0], rows[i, 1], rows[i, 2], rows[i, 3], rows[i, 4], P[P_LEADER], none, zero,
            st[8], rows[i, DR_REST])


@njit(cache=True)
def deal_outcomes(P, st, limit):
    """The deals the chance node ``st`` can give: ``(prob, gain, children)``
    with ``prob`` float64 probabilities (counting physical cards; they sum
    to 1), ``gain`` the declarations' half-points for the side of the
    leader, who moves in each child, and ``children`` one state a row; most
    probable first, ties in the reference's order. Past ``limit`` outcomes
    the arrays are empty (too big a chance node for the memory allowed)."""
    stock = st[9]
    rem, hands, buf, cur = _deal_setup(stock)
    left = popcount(stock)
    n = P[P_DEALN + left]
    players = P[P_PLAYERS]
    total = 1
    for _ in range(players):
        total *= _comb(left, n)
        left -= n
    e1 = np.zeros(0, dtype=np.int64)
    e2 = np.zeros((0, 4), dtype=np.int64)
    k = _deal_rec(P, 0, n, rem, 1, hands, buf, cur, e1, e2, e1, 0, limit)
    if k > limit:
        return np.empty(0, dtype=np.float64), e1, np.empty((0, NSTATE), dtype=np.int64)
    outw = np.zeros(k, dtype=np.int64)
    outh = np.zeros((k, 4), dtype=np.int64)
    outrest = np.zeros(k, dtype=np.int64)
    _deal_rec(P, 0, n, rem, 1, hands, buf, cur, outw, outh, outrest, 0, limit)
    prob = np.empty(k, dtype=np.float64)
    ftotal = float(total)
    for i in range(k):
        prob[i] = float(outw[i]) / ftotal
    order = np.argsort(-prob, kind="mergesort")
    lead_side = P[P_SIDE + P[P_LEADER]]
    probs = np.empty(k, dtype=np.float64)
    gains = np.empty(k, dtype=np.int64)
    children = np.empty((k, NSTATE), dtype=np.int64)
    for j in range(k):
        i = order[j]
        probs[j] = prob[i]
        dg = declaration_gain(P, outh[i, 0], outh[i, 1], outh[i, 2], outh[i, 3])
        gains[j] = dg if lead_side == 0 else -dg
        children[j, 0] = st[0]
        for s in range(4):
            children[j, 1 + s] = outh[i, s]
        children[j, 5] = P[P_LEADER]
        children[j, 6] = -1
        children[j, 7] = 0
        children[j, 8] = st[8]
        children[j, 9] = outrest[i]
    return probs, gains, children


@njit(cache=True)
def chance_bounds(P, st):
    """Sure bounds ``(lo, hi)`` on a chance node's value, half-points for
    the side to move, as :meth:`solver.engine.game.Game.bounds`."""
    t = st[0]
    stock = st[9]
    n_stock = popcount(stock)
    points = 0
    for r in range(NRANKS):
        c = popcount((stock >> (4 * r)) & 15)
        for s in range(1, 5):
            c += popcount((st[s] >> (4 * r)) & 15)
        if c >= 4:
            points += max(P[P_HIT] + P[P_HIT + 2], P[P_HIT + 1])
        elif c == 3:
            points += max(P[P_HIT], P[P_HIT + 1])
        elif c == 2:
            points += P[P_HIT]
    plays = popcount(st[1]) + popcount(st[2]) + popcount(st[3]) + popcount(st[4]) + n_stock
    deals_left = 0
    k = n_stock
    while k > 0:
        k -= P[P_DEALN + k] * P[P_PLAYERS]
        deals_left += 1
    decl = P[P_DECL_MAX] * deals_left
    points += (P[P_MISSA] + P[P_CAPTURE]) * ((plays + 1) // 2) + decl + P[P_BONUS]
    hi = popcount(t) + plays + 2 * points
    return -float(hi), float(hi)


# --- keys for the transposition table ---------------------------------------------

_M1 = np.uint64(0xFF51AFD7ED558CCD)
_M2 = np.uint64(0xC4CEB9FE1A85EC53)
_M3 = np.uint64(0x9E3779B97F4A7C15)
_M4 = np.uint64(0xD6E8FEB86659FD93)
_S33 = np.uint64(33)
_S29 = np.uint64(29)
_S8 = np.uint64(8)


@njit(cache=True)
def _fmix(h):
    h ^= h >> _S33
    h *= _M1
    h ^= h >> _S33
    h *= _M2
    h ^= h >> _S33
    return h


@njit(cache=True)
def state_key(st):
    """Two independent 64-bit hashes of a state: the table index and the
    verification word (a false match needs both to collide)."""
    misc = np.uint64(st[5] | ((st[6] + 1) << 2) | (st[7] << 6) | ((st[8] + 1) << 12))
    a = _fmix(np.uint64(st[0]) ^ _M3)
    b = _fmix(np.uint64(st[0]) ^ _M4)
    for i in range(1, 5):
        a = _fmix(a ^ np.uint64(st[i]))
        b = _fmix((b * _M3) ^ np.uint64(st[i]) ^ (b >> _S29))
    a = _fmix(a ^ misc ^ (np.uint64(st[9]) << _S8))
    b = _fmix((b * _M4) ^ np.uint64(st[9]) ^ (misc << np.uint64(44)))
    return a, b


@njit(cache=True)
def work_left(P, st):
    """Cards still to be played: the replacement priority of a table entry."""
    n = popcount(st[1]) + popcount(st[2]) + popcount(st[3]) + popcount(st[4])
    if P[P_SHUFFLED] != 0:
        return n + popcount(st[9])
    return n + P[P_EMPTY] - st[9]
