"""The compiled engine: the rules of Ronda in numba, for every rule system
(two, three or four players, Ronda voleur, the house rules) and objective
(points, the match).

One encoding on int64 only, checked against the plain references of
tests/ (``reference.py``, ``reference3.py``) position by position:

- a *card set* is a 40-bit int, one nibble a rank index 0..9, the count in
  unary (0, 1, 3, 7, 15);
- a *state* is a tuple of ``NSTATE`` int64: ``(table, h0, h1, h2, h3,
  seat, prev, show, last, stock, x)``, one card set a hand (seats 2 and 3
  are 0 with two players), ``prev`` the rank index of the previous lone
  card or -1, ``show`` ``rank*4 + size`` or 0, ``last`` the side of the
  last capture or -1, ``stock`` the cards dealt so far (known stock order)
  or the card set still in the stock (shuffled stock; 0 when empty), ``x``
  what the rule system and the objective add (0 for two sides playing for
  points): each side's pile size (three sides, Ronda voleur, the match
  objective), pile top (voleur) and match score (match objective), packed
  at ``X_PILE``, ``X_TOP`` and ``X_SCORE``;
- the rules and the deal of a known stock are two int64 arrays, ``P``
  (parameters, indices ``P_*``) and ``D`` (one row per deal start), built
  by :mod:`solver.engine.tables` from a :class:`~solver.rules.Rules`.

Values: for two sides playing for points, half-points of margin for the
mover's side (each card won one half-point: with all 40 cards in two piles
the card count is exactly ``(own - other) / 2``); for the match objective
(``P_MATCH``) the mover's side's chance of winning the match as an equity
``2 P - 1`` in [-1, 1], the plays' gains 0 and a leaf's gain its equity;
for three sides each seat's own points, a vector (:func:`gen_children_vec`).

The search kernels (:mod:`solver.search.kernels`) see only the interface at
the end of this module: :func:`gen_children` (every play, with its gain,
an ordering guess and whether the child ends the search line or is a chance
node), :func:`has_chance`, :func:`is_chance`, :func:`deal_table` and
:func:`dealt_child`, :func:`chance_bounds`, :func:`is_last_deal`,
:func:`state_key` and :func:`work_left`. They never learn what a hit is.

The functions a search calls at every node (here, in
:mod:`solver.engine.endgame` and :mod:`solver.search.kernels`) are
compiled by :func:`per_node`, without numba's reference counting.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from . import _cache

_cache.check()      # before any kernel is loaded from numba's cache


def per_node(*signature, **options):
    """``njit`` (cached) for a function a search calls at every node:
    compiled without numba's reference counting (``_nrt=False``), which
    otherwise calls out once each way for every array argument of every
    call, even for the borrowed views of
    :func:`solver.search.kernels.borrow` (12-14% of a search's time,
    docs/performance.md). Such a function neither allocates nor returns
    an array, and numba compiles its callees the same way: a function that
    allocates (:func:`deal_table`) stays out of them (numba refuses the
    compile)."""
    return njit(*signature, cache=True, _nrt=False, **options)

NRANKS = 10
NSTATE = 11
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
P_NSIDES = 114       # sides: 2 (two players, partnerships) or 3 (each seat alone)
P_GENERAL = 115      # x is tracked (piles, tops, scores): play_general plays
P_VOLEUR = 116       # Ronda voleur: opponent pile tops count as table cards
P_MATCH = 117        # the objective: 0 points, 1 the match (equity leaves)
P_TARGET = 118       # match target
P_IMMEDIATE = 119    # win_check == "immediate"
P_PREV = 120         # 4 entries: the seat before
P_QN = 124           # match equity table: needs 0..QN-1 (target + 1)
P_TIE = 125          # 2 entries: side 0's chance (times EQ_SCALE) from equal totals over target
P_CANON = 127        # a search's states made canonical: bit 1 a pile that cannot pass 20
                     # cards is written 0 (CANON_PILES), bit 2 a voleur pile top no
                     # opponent can still steal is written "none" (CANON_TOPS), bit 4
                     # a state bounded by the same cards' states that are better or
                     # worse for its mover (CANON_DOMINANCE)
P_SIZE = 128
P_Q = P_SIZE         # the equity table (times EQ_SCALE), [d][need A][need B], when P_MATCH

CANON_PILES = 1
CANON_TOPS = 2
CANON_DOMINANCE = 4

# --- the x word of a state ----------------------------------------------------------
X_PILE = 0           # 6 bits a side: cards in its pile
X_TOP = 18           # 4 bits a side: its pile's top rank index + 1 (0: none)
X_SCORE = 30         # 10 bits a side: match points
MAX_SCORE = 1023

# D: one row per stock position of a known stock where a deal starts
D_DG = 4             # declarations' half-points for side 0
D_NEXT = 5           # the stock position after the deal
D_DS = 6             # 3 entries: the declarations' points of each side
D_STOCK = 9          # the cards dealt from this position on (a card set)
D_COLS = 10

# --- event bits (as solver.engine.scoring) -----------------------------------
EV_CAPTURE = 1
EV_HIT = 2
EV_ANSWER5 = 4
EV_ANSWER10 = 8
EV_MISSA = 16
EV_DEAL = 32
EV_END = 64
EV_WON = 128         # match objective, immediate win check: a side won the match

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
# --- vector children rows (three sides, gen_children_vec) -------------------------
KV_GAIN = NSTATE         # 3 entries: the points of each side
KV_ORDER = NSTATE + 3
KV_MOVE = NSTATE + 4
KV_KIND = NSTATE + 5
KV_COLS = NSTATE + 6


@njit(cache=True)
def popcount(x):
    """Set bits of a non-negative int64 below 2**62 (cards in a card set)."""
    x = x - ((x >> 1) & 0x5555555555555555)
    x = (x & 0x3333333333333333) + ((x >> 2) & 0x3333333333333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0F
    # the byte sums by one multiplication: LLVM compiles this form (and not
    # the shift-and-add one) to the CPU's popcnt instruction
    return (x * 0x0101010101010101) >> 56


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


@njit(cache=True, inline='always')
def _hand_less(h0, h1, h2, h3, seat, sh):
    """The hands with one card of the rank at bit ``sh`` gone from
    ``seat``'s (a hand's nibble counts the rank's cards, suit-blind)."""
    if seat == 0:
        h0 -= (((h0 >> sh) & 15) + 1) >> 1 << sh
    elif seat == 1:
        h1 -= (((h1 >> sh) & 15) + 1) >> 1 << sh
    elif seat == 2:
        h2 -= (((h2 >> sh) & 15) + 1) >> 1 << sh
    else:
        h3 -= (((h3 >> sh) & 15) + 1) >> 1 << sh
    return h0, h1, h2, h3


@per_node()
def play(P, D, st, r):
    """Play rank index ``r`` from the mover's hand: ``(child, gain, ev)``
    (gain in half-points for the mover's side, ev the event bits). Rule systems that track the
    x word (three sides, Ronda voleur, the match objective) are played by
    :func:`play_general`."""
    if P[P_GENERAL] != 0:
        return play_general(P, D, st, r)
    t, h0, h1, h2, h3, seat, prev, show, last, spos, x = st
    sh = 4 * r
    h0, h1, h2, h3 = _hand_less(h0, h1, h2, h3, seat, sh)
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
        return (t, h0, h1, h2, h3, P[P_NEXT + seat], prev, show, last, spos, x), gain, ev
    if spos != P[P_EMPTY]:
        if P[P_SHUFFLED] != 0:       # a chance node: the search deals
            return (t, 0, 0, 0, 0, P[P_LEADER], -1, 0, last, spos, x), gain, ev | EV_DEAL
        dg = D[spos, D_DG]
        if P[P_TWO_SIDED] != 0:
            gain += dg if side == 0 else -dg
        return ((t, D[spos, 0], D[spos, 1], D[spos, 2], D[spos, 3], P[P_LEADER], -1, 0,
                 last, D[spos, D_NEXT], x), gain, ev | EV_DEAL)
    # the last card of the hand: the table goes to the last capturer
    if last >= 0:
        swept = popcount(t) + 2 * P[P_BONUS]
        if P[P_TWO_SIDED] != 0:
            gain += swept if last == side else -swept
        t = 0
    return (t, 0, 0, 0, 0, P[P_NEXT + seat], -1, 0, last, spos, x), gain, ev | EV_END


# --- the x word ----------------------------------------------------------------------


@njit(cache=True, inline='always')
def pile_of(x, k):
    """Cards in side ``k``'s pile (x tracked)."""
    return (x >> (X_PILE + 6 * k)) & 63


@njit(cache=True)
def top_of(x, k):
    """Side ``k``'s pile top, rank index, or -1 (voleur)."""
    return ((x >> (X_TOP + 4 * k)) & 15) - 1


@njit(cache=True, inline='always')
def score_of(x, k):
    """Side ``k``'s match score (match objective)."""
    return (x >> (X_SCORE + 10 * k)) & MAX_SCORE


@njit(cache=True, inline='always')
def with_pile(x, k, n):
    """``x`` with side ``k``'s pile set to ``n`` cards (0..63)."""
    sh = X_PILE + 6 * k
    return (x & ~(63 << sh)) | (min(max(n, 0), 63) << sh)


@njit(cache=True)
def with_top(x, k, r):
    """``x`` with side ``k``'s pile top set to rank index ``r`` (-1: none)."""
    sh = X_TOP + 4 * k
    return (x & ~(15 << sh)) | ((r + 1) << sh)


@njit(cache=True, inline='always')
def with_score(x, k, n):
    """``x`` with side ``k``'s match score set to ``n`` (capped)."""
    sh = X_SCORE + 10 * k
    return (x & ~(MAX_SCORE << sh)) | (min(max(n, 0), MAX_SCORE) << sh)


@njit(cache=True, inline='always')
def won_by2(a, b, T):
    """Two sides with scores ``a`` and ``b``: the side that has won the
    match (at or over the target ``T``, more than the other), else -1."""
    if a > b:
        return 0 if a >= T else -1
    if b > a:
        return 1 if b >= T else -1
    return -1


@njit(cache=True, inline='always')
def won_by(P, x):
    """Under the immediate win check, the side that has won the match with
    the scores of ``x`` (at or over the target, more than every other side),
    else -1."""
    T = P[P_TARGET]
    n = P[P_NSIDES]
    if n == 2:          # the match objective's case, on every scoring play
        return won_by2(score_of(x, 0), score_of(x, 1), T)
    best = -1
    top = -1
    tied = False
    for k in range(n):
        sk = score_of(x, k)
        if sk > top:
            top = sk
            best = k
            tied = False
        elif sk == top:
            tied = True
    if top >= T and not tied:
        return best
    return -1


@per_node(inline='always')
def _award(P, x, k, pts):
    """Add ``pts`` match points to side ``k``: ``(x, won)``, ``won`` True when
    the immediate win check ends the match there."""
    if pts == 0:
        return x, False
    x = with_score(x, k, score_of(x, k) + pts)
    if P[P_IMMEDIATE] != 0 and won_by(P, x) >= 0:
        return x, True
    return x, False


@per_node()
def _award_all(P, x, p0, p1, p2):
    """Add a deal's declarations to every side at once (one award: sides
    reaching the target together with equal totals win nothing yet):
    ``(x, won)``."""
    if p0 == 0 and p1 == 0 and p2 == 0:
        return x, False
    x = with_score(x, 0, score_of(x, 0) + p0)
    x = with_score(x, 1, score_of(x, 1) + p1)
    if P[P_NSIDES] > 2:
        x = with_score(x, 2, score_of(x, 2) + p2)
    if P[P_IMMEDIATE] != 0 and won_by(P, x) >= 0:
        return x, True
    return x, False


@per_node(inline='always')
def _canon(P, x, left):
    """``x`` made canonical for a search (``P_CANON``): a pile that cannot
    end over 20 cards (its cards plus the ``left`` cards still to be won,
    20 or fewer) counts for nothing whatever its size, so it is written 0
    and the states that differ only there are one (three sides and the
    match objective; not when cards move between piles: Ronda voleur's
    steals, the answers' shown cards)."""
    if P[P_CANON] & CANON_PILES:
        for k in range(P[P_NSIDES]):
            n = pile_of(x, k)
            if n != 0 and n + left <= 20:
                x = with_pile(x, k, 0)
    return x


@per_node()
def _canon_tops(P, x, h0, h1, h2, h3, stock):
    """``x`` with the voleur pile tops no opponent can still steal written
    as "none" (``CANON_TOPS``): a top of rank r is taken only by an
    opponent seat playing an r, so when no opponent seat holds one and the
    stock (``stock``, the card set still to be dealt) has none, the top can
    never be matched again, as a pile without a top (until its side
    captures, which sets a new top either way). Two sides playing for
    points: when both tops are none and no steal can happen any more
    (:func:`_steal_ranks`) the piles' sizes count for nothing and are
    written 0."""
    if P[P_NSIDES] == 2:
        # two sides (the seats alternate: seat % 2), without the loops
        a0 = (h0 | h2) & LOW
        a1 = (h1 | h3) & LOW
        s1 = stock & LOW
        r = top_of(x, 0)
        if r >= 0 and ((a1 | s1) >> (4 * r)) & 1 == 0:
            x = with_top(x, 0, -1)
        r = top_of(x, 1)
        if r >= 0 and ((a0 | s1) >> (4 * r)) & 1 == 0:
            x = with_top(x, 1, -1)
        if (P[P_MATCH] == 0 and (x & (255 << X_TOP)) == 0
                and (x & (4095 << X_PILE)) != 0 and _steal_ranks(a0, a1, stock) == 0):
            x = x & ~(4095 << X_PILE)
        return x
    # the ranks (bit 0 of their nibble) each side's seats hold
    a0 = 0
    a1 = 0
    a2 = 0
    for s in range(P[P_PLAYERS]):
        h = hand_of(h0, h1, h2, h3, s) & LOW
        k = P[P_SIDE + s]
        if k == 0:
            a0 |= h
        elif k == 1:
            a1 |= h
        else:
            a2 |= h
    s1 = stock & LOW
    for k in range(P[P_NSIDES]):
        r = top_of(x, k)
        if r < 0:
            continue
        opp = (a1 | a2) if k == 0 else ((a0 | a2) if k == 1 else (a0 | a1))
        if ((opp | s1) >> (4 * r)) & 1 == 0:
            x = with_top(x, k, -1)
    if (P[P_TWO_SIDED] != 0 and P[P_MATCH] == 0 and top_of(x, 0) < 0 and top_of(x, 1) < 0
            and (x & (4095 << X_PILE)) != 0
            and _steal_ranks(a0, a1, stock) == 0):
        # two sides playing for points: the card count is linear (a card won
        # is a half-point), so a pile's size counts only when it is stolen
        x = with_pile(with_pile(x, 0, 0), 1, 0)
    return x


@njit(cache=True)
def _steal_ranks(a0, a1, stock):
    """Two sides, every pile top none: the ranks (bit 0 of their nibble)
    through which a steal can still happen. One side must capture with an
    r (its top) and the other play an r after it: a card of r each side
    can get, two in all: both sides hold one (``a0``, ``a1``: the ranks
    each side's hands hold), or one side and the stock, or the stock two."""
    s1 = stock & LOW
    s2 = (stock >> 1) & LOW
    return (a0 & a1) | (s1 & (a0 | a1)) | s2


@per_node()
def play_general(P, D, st, r):
    """:func:`play` for the rule systems that track the x word: piles (three
    sides: each seat's card count), Ronda voleur (opponent pile tops count
    as table cards; decisions V1-V6 of docs/rules.md) and the match
    objective (scores, awarded in the rules' order with the immediate win
    check: the play's points, the next deal's declarations, the sweep's
    bonus, the card count; ``EV_WON`` when a side won there, x holding the
    scores at that moment). ``gain`` is as :func:`play`'s for two sides (a
    stolen card counts two half-points); three sides read the points of a
    play from ``ev`` and x (:func:`gen_children_vec`). The child's piles
    are made canonical for a search (:func:`_canon`, ``P_CANON``)."""
    t, h0, h1, h2, h3, seat, prev, show, last, spos, x = st
    sh = 4 * r
    h0, h1, h2, h3 = _hand_less(h0, h1, h2, h3, seat, sh)
    anyhand = h0 | h1 | h2 | h3
    side = P[P_SIDE + seat]
    nsides = P[P_NSIDES]
    # Ronda voleur: the opponents' piles whose top is the played rank (V2, V5)
    robbed = 0
    stolen = 0
    if P[P_VOLEUR] != 0:
        if nsides == 2:
            k = 1 - side
            if top_of(x, k) == r:
                stolen = pile_of(x, k)
                if stolen > 0:
                    robbed = 1 << k
        else:
            for k in range(nsides):
                if k != side and top_of(x, k) == r:
                    n = pile_of(x, k)
                    if n > 0:
                        robbed |= 1 << k
                        stolen += n
    added = 0
    if show != 0 and (show >> 2) == r:
        # an answer: the shown cards move from the hitter's side (the seat
        # before); voleur: the hitter's whole pile (V3)
        size = show & 3
        ev = 5 if size == 2 else 9
        hitter = P[P_SIDE + P[P_PREV + seat]]
        moved = size
        if (robbed >> hitter) & 1 == 0:
            x = with_pile(x, hitter, pile_of(x, hitter) - size)
            added = size + stolen + 1
        else:
            moved = stolen
            added = stolen + 1
        gain = 2 * P[P_PTS + ev] + 2 * moved + 1
        if P[P_VOLEUR] != 0 and (robbed >> hitter) & 1 == 0:
            gain += 2 * stolen
        show = ((r << 2) | (size + 1)) if size + 1 <= P[P_ANSWERS] else 0
        prev = -1
        last = side
    elif (t >> sh) & 1 or robbed != 0:
        bl = BELOW[r]
        # V2: a stolen top stands for an r on the table: the run follows it
        virtual = 0 if (t >> sh) & 1 else (1 << sh)
        tv = t + virtual
        absent = (((~tv) & LOW) | SENTINEL | P[P_BRK + r]) & ~bl
        taken = (tv & (((absent & -absent) - 1) ^ bl)) - virtual
        was = t
        t ^= taken
        if prev == r:
            ev = 3
            show = ((r << 2) | 2) if P[P_ANSWERS] > 1 else 0
        else:
            ev = 1
            show = 0
        # V4: the missa is about the table only
        if was != 0 and t == 0 and (P[P_MISSA_LAST] != 0 or anyhand != 0 or spos != P[P_EMPTY]) and (
                P[P_MISSA_ROUND] != 0 or spos != P[P_EMPTY]
                or popcount(h0) + popcount(h1) + popcount(h2) + popcount(h3) >= P[P_PLAYERS]):
            ev |= 16
        n = popcount(taken)
        gain = 2 * P[P_PTS + ev] + n + 1 + 2 * stolen
        added = n + 1 + stolen
        prev = -1
        last = side
    else:
        t += (((t >> sh) & 15) + 1) << sh
        ev = 0
        gain = 0
        prev = r
        show = 0
    if added != 0:
        # V1/V6: the played card on top of the mover's side's pile; a robbed
        # pile is empty and has no top until its side captures again
        if robbed != 0:
            for k in range(nsides):
                if (robbed >> k) & 1:
                    x = with_pile(x, k, 0)
                    x = with_top(x, k, -1)
        x = with_pile(x, side, pile_of(x, side) + added)
        if P[P_VOLEUR] != 0:
            x = with_top(x, side, r)
    won = False
    if P[P_MATCH] != 0:
        x, won = _award(P, x, side, P[P_PTS + (ev & 31)])
    if P[P_CANON] & CANON_PILES and (anyhand != 0 or won or spos != P[P_EMPTY]):
        # the cards still to be won (a deal moves them from the stock to the hands)
        left = (popcount(t) + popcount(h0) + popcount(h1) + popcount(h2) + popcount(h3)
                + (popcount(spos) if P[P_SHUFFLED] != 0 else P[P_EMPTY] - spos))
        x = _canon(P, x, left)
    if anyhand != 0 or won:
        if P[P_CANON] & CANON_TOPS:
            x = _canon_tops(P, x, h0, h1, h2, h3,
                            spos if P[P_SHUFFLED] != 0 else D[spos, D_STOCK])
        return ((t, h0, h1, h2, h3, P[P_NEXT + seat], prev, show, last, spos, x), gain,
                ev | (EV_WON if won else 0))
    if spos != P[P_EMPTY]:
        if P[P_SHUFFLED] != 0:       # a chance node: the search deals
            if P[P_CANON] & CANON_TOPS:
                x = _canon_tops(P, x, 0, 0, 0, 0, spos)
            return (t, 0, 0, 0, 0, P[P_LEADER], -1, 0, last, spos, x), gain, ev | EV_DEAL
        dg = D[spos, D_DG]
        if P[P_TWO_SIDED] != 0:
            gain += dg if side == 0 else -dg
        if P[P_MATCH] != 0:
            x, won = _award_all(P, x, D[spos, D_DS], D[spos, D_DS + 1], D[spos, D_DS + 2])
        if P[P_CANON] & CANON_TOPS:
            x = _canon_tops(P, x, D[spos, 0], D[spos, 1], D[spos, 2], D[spos, 3],
                            D[D[spos, D_NEXT], D_STOCK])
        return ((t, D[spos, 0], D[spos, 1], D[spos, 2], D[spos, 3], P[P_LEADER], -1, 0,
                 last, D[spos, D_NEXT], x), gain, ev | EV_DEAL | (EV_WON if won else 0))
    # the last card of the hand: the table goes to the last capturer (V1:
    # under the pile, the tops unchanged)
    if last >= 0:
        n = popcount(t)
        swept = n + 2 * P[P_BONUS]
        if P[P_TWO_SIDED] != 0:
            gain += swept if last == side else -swept
        x = with_pile(x, last, pile_of(x, last) + n)
        t = 0
        if P[P_MATCH] != 0:
            x, won = _award(P, x, last, P[P_BONUS])
    if P[P_MATCH] != 0:
        for k in range(nsides):
            if not won:
                x, won = _award(P, x, k, max(0, pile_of(x, k) - 20))
    x = _canon(P, x, popcount(t))
    return ((t, 0, 0, 0, 0, P[P_NEXT + seat], -1, 0, last, spos, x), gain,
            ev | EV_END | (EV_WON if won else 0))


@per_node()
def play_match2(P, D, st, r):
    """The match objective's play: :func:`play_general` for two sides
    without Ronda voleur (two players or partnerships; the others through
    :func:`play_general` itself), the card arithmetic as :func:`play`'s,
    then the x word (the mover's side's pile and score, the award in the
    rules' order with the immediate win check, the piles made canonical),
    without voleur's steals and tops and the loops over the sides. The
    same ``(child, gain, ev)`` as :func:`play_general`'s, bit for bit
    (tests/test_match_play.py checks them on random states of every match
    system). The dispatch is here, as :func:`play`'s: a caller choosing
    between two calls measured 50-58 ns a play against 41 for
    :func:`play_general` and 29.5 for this one."""
    if P[P_VOLEUR] != 0 or P[P_NSIDES] != 2:
        return play_general(P, D, st, r)
    t, h0, h1, h2, h3, seat, prev, show, last, spos, x = st
    sh = 4 * r
    h0, h1, h2, h3 = _hand_less(h0, h1, h2, h3, seat, sh)
    anyhand = h0 | h1 | h2 | h3
    side = P[P_SIDE + seat]
    if show != 0 and (show >> 2) == r:
        # an answer: the shown cards move from the hitter's side
        size = show & 3
        ev = 5 if size == 2 else 9
        hitter = P[P_SIDE + P[P_PREV + seat]]
        x = with_pile(x, hitter, pile_of(x, hitter) - size)
        x = with_pile(x, side, pile_of(x, side) + size + 1)
        gain = 2 * P[P_PTS + ev] + 2 * size + 1
        show = ((r << 2) | (size + 1)) if size + 1 <= P[P_ANSWERS] else 0
        prev = -1
        last = side
    elif (t >> sh) & 1:
        # the capture as play's, written out: one inlined helper for both
        # measured 34-36 ns a play against 29-30 (docs/performance.md)
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
        n = popcount(taken)
        gain = 2 * P[P_PTS + ev] + n + 1
        x = with_pile(x, side, pile_of(x, side) + n + 1)
        prev = -1
        last = side
    else:
        t += (((t >> sh) & 15) + 1) << sh
        ev = 0
        gain = 0
        prev = r
        show = 0
    won = False
    pts = P[P_PTS + (ev & 31)]
    if pts != 0:
        x = with_score(x, side, score_of(x, side) + pts)
        won = P[P_IMMEDIATE] != 0 and won_by(P, x) >= 0
    if anyhand != 0 or won:
        if P[P_CANON] & CANON_PILES:
            left = (popcount(t) + popcount(h0) + popcount(h1) + popcount(h2) + popcount(h3)
                    + (popcount(spos) if P[P_SHUFFLED] != 0 else P[P_EMPTY] - spos))
            x = _canon2(x, left)
        return ((t, h0, h1, h2, h3, P[P_NEXT + seat], prev, show, last, spos, x), gain,
                ev | (EV_WON if won else 0))
    if spos != P[P_EMPTY]:
        if P[P_CANON] & CANON_PILES:
            left = popcount(t) + (popcount(spos) if P[P_SHUFFLED] != 0 else P[P_EMPTY] - spos)
            x = _canon2(x, left)
        if P[P_SHUFFLED] != 0:       # a chance node: the search deals
            return (t, 0, 0, 0, 0, P[P_LEADER], -1, 0, last, spos, x), gain, ev | EV_DEAL
        dg = D[spos, D_DG]
        gain += dg if side == 0 else -dg
        x, won = _award_all(P, x, D[spos, D_DS], D[spos, D_DS + 1], D[spos, D_DS + 2])
        return ((t, D[spos, 0], D[spos, 1], D[spos, 2], D[spos, 3], P[P_LEADER], -1, 0,
                 last, D[spos, D_NEXT], x), gain, ev | EV_DEAL | (EV_WON if won else 0))
    # the last card of the hand: the table goes to the last capturer, then
    # the bonus, then the card count
    if last >= 0:
        n = popcount(t)
        swept = n + 2 * P[P_BONUS]
        gain += swept if last == side else -swept
        x = with_pile(x, last, pile_of(x, last) + n)
        t = 0
        x, won = _award(P, x, last, P[P_BONUS])
    if not won:
        x, won = _award(P, x, 0, max(0, pile_of(x, 0) - 20))
    if not won:
        x, won = _award(P, x, 1, max(0, pile_of(x, 1) - 20))
    if P[P_CANON] & CANON_PILES:
        x = _canon2(x, popcount(t))
    return ((t, 0, 0, 0, 0, P[P_NEXT + seat], -1, 0, last, spos, x), gain,
            ev | EV_END | (EV_WON if won else 0))


@njit(cache=True, inline='always')
def _canon2(x, left):
    """:func:`_canon` for two sides (``CANON_PILES`` on)."""
    n = pile_of(x, 0)
    if n != 0 and n + left <= 20:
        x = with_pile(x, 0, 0)
    n = pile_of(x, 1)
    if n != 0 and n + left <= 20:
        x = with_pile(x, 1, 0)
    return x


@njit(cache=True)
def taken_cards(P, st, r):
    """The table cards (a card set) a play of rank index ``r`` takes from
    ``st``: every ``r`` and the upward run (Ronda voleur: the run also
    follows a stolen top of rank ``r`` when the table has none); 0 for an
    answer or a card laid."""
    t = st[0]
    show = st[7]
    if show != 0 and (show >> 2) == r:
        return 0
    sh = 4 * r
    virtual = 0
    if not (t >> sh) & 1:
        steal = False
        if P[P_VOLEUR] != 0:
            side = P[P_SIDE + st[5]]
            for k in range(P[P_NSIDES]):
                if k != side and top_of(st[10], k) == r and pile_of(st[10], k) > 0:
                    steal = True
        if not steal:
            return 0
        virtual = 1 << sh
    bl = BELOW[r]
    tv = t + virtual
    absent = (((~tv) & LOW) | SENTINEL | P[P_BRK + r]) & ~bl
    return (tv & (((absent & -absent) - 1) ^ bl)) - virtual


@njit(cache=True)
def lowest_rank(hand):
    """The lowest rank index in a non-empty card set."""
    for r in range(NRANKS):
        if (hand >> (4 * r)) & 1:
            return r
    return -1


@per_node()
def gen_children(P, D, K, ply, st):
    """Every distinct play of ``st`` into ``K[ply, i]`` (columns: the
    child state, then ``K_GAIN``, ``K_ORDER``, ``K_MOVE``, ``K_KIND``), in
    rank order; returns how many. As the reference ``children``: when the
    rest of the hand is forced (the last round of the last deal, one card a
    hand) the plays are made here and the row is a leaf whose gain is the
    net gain to the end; the ordering guess is the gain, less 3 for a lone
    card the next player could hit at once, and in Ronda voleur less twice
    the mover's pile when the next player can steal it at once
    (:func:`_exposed`: 8% fewer nodes at voleur12, docs/performance.md)."""
    if P[P_MATCH] != 0:
        return gen_children_match(P, D, K, ply, st)
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
            if P[P_VOLEUR] != 0 and kind == KIND_NODE:
                order -= _exposed(P, child, seat, nh)
        for i in range(NSTATE):
            K[ply, n, i] = child[i]
        K[ply, n, K_GAIN] = gain
        K[ply, n, K_ORDER] = order
        K[ply, n, K_MOVE] = m
        K[ply, n, K_KIND] = kind
        n += 1
    return n


@njit(cache=True)
def _exposed(P, child, seat, nh):
    """Ronda voleur, the ordering guess: twice the pile of the side of
    ``seat`` (who just played) when the next player, holding ``nh``, can
    steal it at once (it holds the pile's top's rank), else 0."""
    side = P[P_SIDE + seat]
    if P[P_SIDE + child[5]] == side:
        return 0
    r = top_of(child[10], side)
    if r >= 0 and (nh >> (4 * r)) & 1:
        return 2 * pile_of(child[10], side)
    return 0


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
def is_last_deal(P, st):
    """No deal is to come (the stock is empty): every card left is in a
    hand or on the table, and no chance node lies below ``st``."""
    return st[9] == P[P_EMPTY]


@njit(cache=True)
def is_terminal(P, st):
    """The hand is over."""
    return (st[1] | st[2] | st[3] | st[4]) == 0 and st[9] == P[P_EMPTY]


# --- the match objective: equity leaves --------------------------------------------

#: the match objective's unit: an equity ``2 P - 1`` in [-1, 1] is searched as
#: the integer ``round((2 P - 1) * EQ_SCALE)`` (the table's probabilities are
#: stored in P scaled the same way), so that the search's arithmetic stays the
#: points objective's (exact sums of integers below 2**53 without chance nodes)
EQ_SCALE = 1 << 40


@njit(cache=True)
def equity(P, x):
    """The chance that side 0 wins the match at the end of the hand with the
    scores of ``x``, times ``EQ_SCALE`` (the match-equity table's value, the
    deal passing to the leader's side; a side at or over the target with
    the higher total has won, equal totals there take the table's tie
    value)."""
    return equity2(P, score_of(x, 0), score_of(x, 1))


@njit(cache=True, inline='always')
def equity2(P, a, b):
    """:func:`equity` on the two sides' scores ``a`` and ``b``."""
    T = P[P_TARGET]
    d = 0 if P[P_SIDE + P[P_LEADER]] == 0 else 1
    if a >= T or b >= T:
        if a > b and a >= T:
            return EQ_SCALE
        if b > a and b >= T:
            return 0
        return P[P_TIE + d]
    n = P[P_QN]
    return P[P_Q + (d * n + (T - a)) * n + (T - b)]


@per_node()
def leaf_value(P, x, side):
    """The value of a finished line (the hand over, or the match won) for
    ``side``, in the search's unit: the match equity ``2 P - 1`` times
    ``EQ_SCALE``."""
    w = won_by(P, x) if P[P_IMMEDIATE] != 0 else -1
    if w >= 0:
        return EQ_SCALE if w == side else -EQ_SCALE
    e = equity(P, x)
    return 2 * e - EQ_SCALE if side == 0 else EQ_SCALE - 2 * e


@njit(cache=True, inline='always')
def leaf_value2(P, a, b, side):
    """:func:`leaf_value` for two sides, on their scores ``a`` and ``b``."""
    w = won_by2(a, b, P[P_TARGET]) if P[P_IMMEDIATE] != 0 else -1
    if w >= 0:
        return EQ_SCALE if w == side else -EQ_SCALE
    e = equity2(P, a, b)
    return 2 * e - EQ_SCALE if side == 0 else EQ_SCALE - 2 * e


@per_node()
def gen_children_match(P, D, K, ply, st):
    """:func:`gen_children` for the match objective: the gain of a play is 0
    and a line that ends (the hand over, the match won at once, or the
    forced last round played out) is a leaf whose gain is its value for
    the mover's side (:func:`leaf_value`); ``K_ORDER`` keeps the points
    ordering guess. A state whose match is already decided (a deal's
    declarations won it) has one leaf row."""
    seat = st[5]
    side = P[P_SIDE + seat]
    hand = hand_of(st[1], st[2], st[3], st[4], seat)
    empty = P[P_EMPTY]
    if P[P_IMMEDIATE] != 0 and won_by(P, st[10]) >= 0:
        for i in range(NSTATE):
            K[ply, 0, i] = st[i]
        K[ply, 0, K_GAIN] = leaf_value(P, st[10], side)
        K[ply, 0, K_ORDER] = 0
        K[ply, 0, K_MOVE] = lowest_rank(hand)
        K[ply, 0, K_KIND] = KIND_LEAF
        return 1
    n = 0
    for m in range(NRANKS):
        if not (hand >> (4 * m)) & 1:
            continue
        child, gain, ev = play_match2(P, D, st, m)
        anyh = child[1] | child[2] | child[3] | child[4]
        kind = KIND_NODE
        order = gain
        value = 0
        if ev & EV_WON:
            kind = KIND_LEAF
            value = leaf_value(P, child[10], side)
        elif anyh == 0:
            if child[9] == empty:
                kind = KIND_LEAF
                value = leaf_value(P, child[10], side)
            else:
                kind = KIND_CHANCE
        else:
            nh = hand_of(child[1], child[2], child[3], child[4], child[5])
            if child[9] == empty and popcount(nh) == 1:
                won = False
                while anyh != 0 and not won:
                    rr = lowest_rank(hand_of(child[1], child[2], child[3], child[4], child[5]))
                    child, _g, ev2 = play_match2(P, D, child, rr)
                    won = (ev2 & EV_WON) != 0
                    anyh = child[1] | child[2] | child[3] | child[4]
                kind = KIND_LEAF
                value = leaf_value(P, child[10], side)
            elif ev == 0 and (nh >> (4 * m)) & 1:
                order = gain - 3
        for i in range(NSTATE):
            K[ply, n, i] = child[i]
        K[ply, n, K_GAIN] = value
        K[ply, n, K_ORDER] = order
        K[ply, n, K_MOVE] = m
        K[ply, n, K_KIND] = kind
        n += 1
    return n


# --- three sides: vector children -----------------------------------------------------


@njit(cache=True)
def play_points(P, D, st, child, ev):
    """The points each of (up to three) sides scores by the play that led
    from ``st`` to ``child`` (events ``ev``): the play's own points, a known
    stock's next deal's declarations, and at the end of the hand the last
    capturer's bonus and each side's card count over 20 (``max(0, pile -
    20)`` on its whole pile)."""
    return _play_points(P, D, st, child, ev, 0, 0, 0)


@njit(cache=True)
def _play_points(P, D, st, child, ev, g0, g1, g2):
    side = P[P_SIDE + st[5]]
    pts = P[P_PTS + (ev & 31)]
    if side == 0:
        g0 += pts
    elif side == 1:
        g1 += pts
    else:
        g2 += pts
    if ev & EV_DEAL and P[P_SHUFFLED] == 0:
        g0 += D[st[9], D_DS]
        g1 += D[st[9], D_DS + 1]
        g2 += D[st[9], D_DS + 2]
    if ev & EV_END:
        last = child[8]
        b = P[P_BONUS]
        if last == 0:
            g0 += b
        elif last == 1:
            g1 += b
        elif last == 2:
            g2 += b
        x = child[10]
        g0 += max(0, pile_of(x, 0) - 20)
        g1 += max(0, pile_of(x, 1) - 20)
        if P[P_NSIDES] > 2:
            g2 += max(0, pile_of(x, 2) - 20)
    return g0, g1, g2


@njit(cache=True)
def gen_children_vec(P, D, K, ply, st):
    """Every distinct play of ``st`` for three sides (each seat its own
    side), in rank order, into ``K[ply, i]``: the child state, the points of
    each side (``KV_GAIN + k``), an ordering guess (the mover's points, less
    1 for a lone card the next seat could hit), the move and its kind
    (:func:`gen_children`'s: the forced last round is played out here and
    its row is a leaf holding the points to the end). Returns how many."""
    seat = st[5]
    side = P[P_SIDE + seat]
    hand = hand_of(st[1], st[2], st[3], st[4], seat)
    empty = P[P_EMPTY]
    n = 0
    for m in range(NRANKS):
        if not (hand >> (4 * m)) & 1:
            continue
        child, _gain, ev = play_general(P, D, st, m)
        g0, g1, g2 = _play_points(P, D, st, child, ev, 0, 0, 0)
        order = g0 if side == 0 else (g1 if side == 1 else g2)
        anyh = child[1] | child[2] | child[3] | child[4]
        kind = KIND_NODE
        if anyh == 0:
            kind = KIND_LEAF if child[9] == empty else KIND_CHANCE
        else:
            nh = hand_of(child[1], child[2], child[3], child[4], child[5])
            if child[9] == empty and popcount(nh) == 1:
                while anyh != 0:
                    rr = lowest_rank(hand_of(child[1], child[2], child[3], child[4], child[5]))
                    before = child
                    child, _g, ev2 = play_general(P, D, before, rr)
                    g0, g1, g2 = _play_points(P, D, before, child, ev2, g0, g1, g2)
                    anyh = child[1] | child[2] | child[3] | child[4]
                kind = KIND_LEAF
            elif popcount(nh) == 1:
                # the last round of a deal with more to come: forced to the
                # next deal (or the chance node dealing it)
                ev2 = 0
                while ev2 & EV_DEAL == 0:
                    rr = lowest_rank(hand_of(child[1], child[2], child[3], child[4], child[5]))
                    before = child
                    child, _g, ev2 = play_general(P, D, before, rr)
                    g0, g1, g2 = _play_points(P, D, before, child, ev2, g0, g1, g2)
                if P[P_SHUFFLED] != 0:
                    kind = KIND_CHANCE
            elif ev == 0 and (nh >> (4 * m)) & 1:
                order -= 1
        for i in range(NSTATE):
            K[ply, n, i] = child[i]
        K[ply, n, KV_GAIN] = g0
        K[ply, n, KV_GAIN + 1] = g1
        K[ply, n, KV_GAIN + 2] = g2
        K[ply, n, KV_ORDER] = order
        K[ply, n, KV_MOVE] = m
        K[ply, n, KV_KIND] = kind
        n += 1
    return n


@njit(cache=True)
def sum_bound(P, st):
    """An upper bound on the sum of the entries of the value of ``st`` for
    three sides (every entry >= 0), for max^n shallow pruning: of the plays left, ``L``
    lay a card and the rest capture (capture point each); a hit takes a
    card just laid, a missa empties a table that only lays refill (with
    answers each play counts ``capture + missa + max(hit)``); each deal to
    come its best declaration; the last-capture bonus once; at most one
    side ends over 20 cards (voleur: a pile can take the others')."""
    t = st[0]
    stock = st[9]
    if P[P_SHUFFLED] != 0:
        n_stock = popcount(stock)
    else:
        n_stock = P[P_EMPTY] - stock
    plays = popcount(st[1]) + popcount(st[2]) + popcount(st[3]) + popcount(st[4]) + n_stock
    left = popcount(t) + plays
    deals_left = 0
    k = n_stock
    while k > 0:
        k -= P[P_DEALN + k] * P[P_PLAYERS]
        deals_left += 1
    cp = P[P_CAPTURE]
    missa = P[P_MISSA]
    best = 0
    if P[P_ANSWERS] > 1:
        best = plays * (cp + missa + max(P[P_HIT], max(P[P_HIT + 1], P[P_HIT + 2])))
    else:
        laid = 1 if st[6] >= 0 else 0
        on_table = 1 if t != 0 else 0
        for lays in range(plays + 1):
            caps = plays - lays
            v = cp * caps + P[P_HIT] * min(lays + laid, caps) + missa * min(lays + on_table, caps)
            if v > best:
                best = v
    value = max(P[P_RONDA], P[P_TRINGA])
    decl = max(value, P[P_CONTESTED])
    if P[P_SPLIT] != 0:
        decl = max(decl, 3 * ((value + 1) // 2))
    if P[P_CUMULATIVE] != 0:
        decl = max(decl, 3 * value)
    x = st[10]
    top = 0
    for kk in range(P[P_NSIDES]):
        if P[P_VOLEUR] != 0:
            top += pile_of(x, kk)
        else:
            top = max(top, pile_of(x, kk))
    return best + deals_left * decl + P[P_BONUS] + max(0, top + left - 20)


# --- declarations ----------------------------------------------------------------


@njit(cache=True)
def best_declaration(P, hand):
    """The best declaration of a card set as ``kind*16 + rank`` (kind 1
    Ronda, 2 Tringa), or -1; as :func:`solver.engine.scoring.best_declaration`."""
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
    :func:`solver.engine.scoring.declaration_points`."""
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


@njit(cache=True)
def declaration_sides(P, h0, h1, h2, h3):
    """The points each side scores by the declarations of a deal (hands
    ``h0..h3``, card sets), as :func:`solver.engine.scoring.declaration_points`
    for any number of sides: only the single best hand scores, for its side
    (partners tying count once); opposing sides tying follow the split
    rule; ``declare_contested`` when another side declared too;
    ``decl_cumulative`` adds every beaten hand of the other sides."""
    out0 = 0
    out1 = 0
    out2 = 0
    if P[P_RONDA] == 0:
        return out0, out1, out2
    players = P[P_PLAYERS]
    d = np.empty(4, dtype=np.int64)
    d[0] = best_declaration(P, h0)
    d[1] = best_declaration(P, h1)
    d[2] = best_declaration(P, h2) if players > 2 else -1
    d[3] = best_declaration(P, h3) if players > 3 else -1
    best = max(max(d[0], d[1]), max(d[2], d[3]))
    if best < 0:
        return out0, out1, out2
    winners = 0         # bit per side holding the best hand
    declared = 0        # bit per side that declared
    for s in range(players):
        if d[s] >= 0:
            declared |= 1 << P[P_SIDE + s]
            if d[s] == best:
                winners |= 1 << P[P_SIDE + s]
    value = P[P_TRINGA] if best >= 32 else P[P_RONDA]
    pts = np.zeros(3, dtype=np.int64)
    if winners & (winners - 1) == 0:
        w = 0
        while (winners >> w) & 1 == 0:
            w += 1
        if P[P_CUMULATIVE] != 0:
            for s in range(players):
                if d[s] >= 0 and P[P_SIDE + s] != w:
                    value += P[P_TRINGA] if d[s] >= 32 else P[P_RONDA]
        elif P[P_CONTESTED] != 0 and declared != winners:
            value = P[P_CONTESTED]
        pts[w] = value
    elif P[P_SPLIT] != 0:
        for k in range(3):
            if (winners >> k) & 1:
                pts[k] = (value + 1) // 2
    return pts[0], pts[1], pts[2]


# --- the deals of a known stock ---------------------------------------------------


@njit(cache=True)
def build_deals(P, stock, nstock, D):
    """Fill ``D`` (rows 0..nstock) with the deals of a stock in dealing
    order: each deal's hands, the declarations (half-points for side 0, and
    points per side) and the next stock position."""
    players = P[P_PLAYERS]
    leader = P[P_LEADER]
    spos = 0
    while spos < nstock:
        n = P[P_DEALN + nstock - spos]
        hands = np.zeros(4, dtype=np.int64)
        for i in range(players):
            seat = (leader + i) % players
            h = 0
            for q in range(n):
                r = stock[spos + i * n + q]
                h += (((h >> (4 * r)) & 15) + 1) << (4 * r)
            hands[seat] = h
        for s in range(4):
            D[spos, s] = hands[s]
        D[spos, D_DG] = declaration_gain(P, hands[0], hands[1], hands[2], hands[3])
        D[spos, D_NEXT] = spos + n * players
        p0, p1, p2 = declaration_sides(P, hands[0], hands[1], hands[2], hands[3])
        D[spos, D_DS] = p0
        D[spos, D_DS + 1] = p1
        D[spos, D_DS + 2] = p2
        spos += n * players
    # the cards dealt from each deal's start on, the last deal first
    rest = 0
    for q in range(nstock - 1, -1, -1):
        r = stock[q]
        rest += (((rest >> (4 * r)) & 15) + 1) << (4 * r)
        D[q, D_STOCK] = rest
    D[nstock, D_STOCK] = 0


# --- chance nodes ----------------------------------------------------------------


# Recursive kernels carry explicit signatures: numba cannot load a lazily
# typed recursive function from its cache once another one calls it.
@njit("int64(int64[::1], int64, int64, int64[::1], int64[:, ::1], int64)", cache=True)
def _multisets(avail, n, start, cur, out, count):
    """Write every count vector of ``n`` more cards from ``avail`` (ranks
    ``start`` on; ``cur`` holds the counts chosen so far) into ``out`` from
    row ``count``, in rank order (the reference's ``_deals_of``); returns
    the new row count."""
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


#: columns of a deal row (deal_table): the gain, the four dealt hands, the
#: rest, the declarations' points of each side
DR_GAIN = 0
DR_REST = 5
DR_DS = 6
DR_COLS = 9


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
        p0, p1, p2 = declaration_sides(P, kids[i, 1], kids[i, 2], kids[i, 3], kids[i, 4])
        rows[i, DR_DS] = p0
        rows[i, DR_DS + 1] = p1
        rows[i, DR_DS + 2] = p2
    return probs, rows


@per_node()
def dealt_child(P, st, rows, i):
    """The child state of deal row ``i`` at the chance node ``st`` (the match
    objective: the deal's declarations added to the scores, in side order,
    the immediate win check stopping there)."""
    none = np.int64(-1)
    zero = np.int64(0)
    x = st[10]
    if P[P_MATCH] != 0:
        x, _won = _award_all(P, x, rows[i, DR_DS], rows[i, DR_DS + 1], rows[i, DR_DS + 2])
    if P[P_CANON] & CANON_TOPS:
        x = _canon_tops(P, x, rows[i, 1], rows[i, 2], rows[i, 3], rows[i, 4], rows[i, DR_REST])
    return (st[0], rows[i, 1], rows[i, 2], rows[i, 3], rows[i, 4], P[P_LEADER], none, zero,
            st[8], rows[i, DR_REST], x)


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
        gains[j] = 0 if P[P_MATCH] != 0 else (dg if lead_side == 0 else -dg)
        children[j, 0] = st[0]
        for s in range(4):
            children[j, 1 + s] = outh[i, s]
        children[j, 5] = P[P_LEADER]
        children[j, 6] = -1
        children[j, 7] = 0
        children[j, 8] = st[8]
        children[j, 9] = outrest[i]
        x = st[10]
        if P[P_CANON] & CANON_TOPS:
            x = _canon_tops(P, x, outh[i, 0], outh[i, 1], outh[i, 2], outh[i, 3], outrest[i])
        children[j, 10] = x
    return probs, gains, children


@per_node()
def chance_bounds(P, st):
    """Sure bounds ``(lo, hi)`` on a chance node's value, half-points for
    the side to move (every card left, every missa and hit the ranks still
    allow, the best declaration of each deal; Ronda voleur: a stolen card
    moves two half-points, so the piles count twice more; the match
    objective: the least and the most equity of the final scores each side
    can still reach, :func:`match_bounds`)."""
    if P[P_MATCH] != 0:
        return match_bounds(P, st)
    points = side_points_bound(P, st)
    t = st[0]
    stock = st[9]
    n_stock = popcount(stock)
    plays = popcount(st[1]) + popcount(st[2]) + popcount(st[3]) + popcount(st[4]) + n_stock
    hi = popcount(t) + plays + 2 * points
    if P[P_VOLEUR] == 0:
        return -float(hi), float(hi)
    if P[P_NSIDES] != 2:
        hi += 2 * (pile_of(st[10], 0) + pile_of(st[10], 1))
        return -float(hi), float(hi)
    gain_o, loss_m = voleur_pile_swing(P, st)
    return -float(hi + 2 * loss_m), float(hi + 2 * gain_o)


@njit(cache=True)
def voleur_pile_swing(P, st):
    """Ronda voleur, two sides: ``(o, m)``, the cards of the piles as they
    stand that the side to move can still win from the other side's pile
    (``o``) and lose from its own (``m``), each 0 when no steal of that
    pile can happen any more, else the pile's size.

    Why these bound the card count: follow each card to the end of the
    hand, worth +1 half-point to the mover in the mover's side's pile, -1
    in the other's, 0 on the table or in a hand (a capture moves a card
    from 0 to +-1, a steal or an answer moves it from one pile to the
    other: the gains of the plays telescope, card by card). A card not yet
    in a pile ends at most +1 and at least -1; a card of the other side's
    pile starts at -1 and ends at most +1, but leaves that pile only when
    the pile is stolen (an answer moves only the cards the hit just took);
    one of the mover's pile likewise. A canonical state's piles written 0
    (no steal possible) drop out of the count with no gain, which keeps
    the bound. So the card count of the rest of the hand lies in
    ``[-(left + 2 m), left + 2 o]`` (the whole-pile bound ``left + 2
    (pile 0 + pile 1)`` either way before).

    A side's pile is stolen by the other side playing its top's rank: the
    top it has (when the other side can get a card of that rank: a hand of
    its seats or the stock), or a top it sets later by capturing with a
    rank of which the other side then plays another (:func:`_steal_ranks`:
    a rank each side can get a card of)."""
    x = st[10]
    m = P[P_SIDE + st[5]]
    a0 = 0
    a1 = 0
    for s in range(P[P_PLAYERS]):
        h = hand_of(st[1], st[2], st[3], st[4], s) & LOW
        if P[P_SIDE + s] == 0:
            a0 |= h
        else:
            a1 |= h
    stock = st[9]
    s1 = stock & LOW
    later = _steal_ranks(a0, a1, stock) != 0
    out0 = pile_of(x, 0)
    r = top_of(x, 0)
    if not later and (r < 0 or ((a1 | s1) >> (4 * r)) & 1 == 0):
        out0 = 0
    out1 = pile_of(x, 1)
    r = top_of(x, 1)
    if not later and (r < 0 or ((a0 | s1) >> (4 * r)) & 1 == 0):
        out1 = 0
    if m == 0:
        return out1, out0
    return out0, out1


@njit(cache=True)
def side_points_bound(P, st):
    """The most points (the plays' events, the declarations of the deals to
    come, the last capture's bonus; not the card count) one side can still
    score in the hand from the chance node ``st`` (a shuffled stock's card
    set): every hit and answer the ranks still allow, a missa and a capture
    point on each of the side's plays, the best declaration of each deal."""
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
    return points


@njit(cache=True)
def reachable_scores(P, st, a0, b0, k0, k1):
    """The most the two sides' scores ``a0, b0`` can reach by the end of
    the hand from ``st`` (a chance node's: the stock as a card set), their
    piles holding ``k0, k1`` cards: each side :func:`side_points_bound`
    more, and its card count over 20 with its pile and every card not yet
    won (Ronda voleur: both piles, a steal takes the other's)."""
    pts = side_points_bound(P, st)
    left = (popcount(st[0]) + popcount(st[1]) + popcount(st[2]) + popcount(st[3])
            + popcount(st[4]) + popcount(st[9]))
    if P[P_VOLEUR] != 0:
        k0 = k0 + k1
        k1 = k0
    return a0 + pts + max(0, k0 + left - 20), b0 + pts + max(0, k1 + left - 20)


@per_node()
def match_bounds(P, st):
    """Sure bounds ``(lo, hi)`` on the value of the match objective's
    chance node ``st`` for the side to move (two sides): the scores only
    grow, each side's to at most :func:`reachable_scores`, so every line
    ends at scores in a rectangle above the current ones (the immediate
    win check stops lines inside it), and its value is the least and the most
    :func:`leaf_value` there. A side reaching the target counts as a
    match won (or a tie, beyond the table); ``+-EQ_SCALE`` when the
    match is decided already."""
    x = st[10]
    T = P[P_TARGET]
    a0 = score_of(x, 0)
    b0 = score_of(x, 1)
    if a0 >= T or b0 >= T:
        return -float(EQ_SCALE), float(EQ_SCALE)
    a1, b1 = reachable_scores(P, st, a0, b0, pile_of(x, 0), pile_of(x, 1))
    if a1 >= T and b1 >= T:     # either side can win: no tighter bound
        return -float(EQ_SCALE), float(EQ_SCALE)
    lo = EQ_SCALE
    hi = -EQ_SCALE
    # the scores under the target: the table
    for a in range(a0, min(a1, T - 1) + 1):
        for b in range(b0, min(b1, T - 1) + 1):
            v = leaf_value(P, with_score(with_score(x, 0, a), 1, b), 0)
            if v < lo:
                lo = v
            if v > hi:
                hi = v
    if a1 >= T:         # side 0 at the target, side 1 under it: won
        hi = EQ_SCALE
    if b1 >= T:
        lo = -EQ_SCALE
    if P[P_SIDE + st[5]] != 0:
        return -float(hi), float(-lo)
    return float(lo), float(hi)


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
    verification word (a false match needs both to collide). A card just
    laid (``prev``) and a hit on show (``show``) matter only to the next
    play (a hit, an answer), so when the mover holds no card of their rank
    the key holds none: the states differing only there have one value."""
    a, b = _cards_key(st, True)
    return _with_x(a, b, st[10])


@per_node()
def _cards_key(st, last):
    """:func:`state_key` before the x word (with the last capturer, or
    without it: :func:`state_keys`)."""
    hand = hand_of(st[1], st[2], st[3], st[4], st[5])
    prev = st[6]
    if prev >= 0 and (hand >> (4 * prev)) & 1 == 0:
        prev = -1
    show = st[7]
    if show != 0 and (hand >> (4 * (show >> 2))) & 1 == 0:
        show = 0
    misc = np.uint64(st[5] | ((prev + 1) << 2) | (show << 6) | (((st[8] + 1) << 12) if last
                                                                  else 0))
    a = _fmix(np.uint64(st[0]) ^ _M3)
    b = _fmix(np.uint64(st[0]) ^ _M4)
    for i in range(1, 5):
        a = _fmix(a ^ np.uint64(st[i]))
        b = _fmix((b * _M3) ^ np.uint64(st[i]) ^ (b >> _S29))
    a = _fmix(a ^ misc ^ (np.uint64(st[9]) << _S8))
    b = _fmix((b * _M4) ^ np.uint64(st[9]) ^ (misc << np.uint64(44)))
    return a, b


@njit(cache=True)
def _with_x(a, b, x):
    """The hashes ``a, b`` with the x word ``x`` mixed in (none for 0: two
    sides playing for points)."""
    if x != 0:
        a = _fmix(a ^ np.uint64(x) ^ _M4)
        b = _fmix((b * _M3) ^ np.uint64(x))
    return a, b


@njit(cache=True, inline='always')
def state_keys(st):
    """The table's key of ``st`` where the search bounds states by their
    groups (two sides: :func:`group_word` in place of the x word, the
    cards hashed without the last capturer) and its :func:`group_key`, at
    the cost of one: ``(key, chk, group key, group chk)``."""
    a, b = _cards_key(st, False)
    ka, kb = _with_x(a, b, group_word(st))
    ga, gb = _with_x(a, b, st[10] & ~X_RANKED)
    return ka, kb, ga, gb


#: the bits of the x word that :func:`dominance` compares (the piles and
#: the scores); the others (voleur's tops) are part of :func:`group_key`
X_RANKED = ((1 << 18) - 1) | (((1 << 30) - 1) << X_SCORE)
#: :func:`group_word`: the last capturer + 1 (two sides: bits a third
#: side's score would take)
X_LAST = 56


@njit(cache=True)
def group_word(st):
    """What :func:`dominance` compares of ``st`` (two sides): its x word and
    its last capturer (side + 1 at bit ``X_LAST``)."""
    return st[10] | ((st[8] + 1) << X_LAST)


@njit(cache=True)
def group_key(st):
    """The hashes of ``st`` without its scores, piles and last capturer:
    the key of the states that differ from it only there (its "group",
    whose values :func:`dominance` orders)."""
    a, b = _cards_key(st, False)
    return _with_x(a, b, st[10] & ~X_RANKED)


@njit(cache=True)
def dominance(P, st, y):
    """How the state of ``st``'s group (:func:`group_key`) whose
    :func:`group_word` is ``y`` compares with ``st`` for ``st``'s mover
    (two sides): bit 1 when it is at least as good (the mover's side's
    score and pile at least as large, the other's at most, and the last
    capturer the mover's side where ``st``'s is nobody or the other side,
    or nobody where it is the other side), bit 2 when it is at most as
    good (both: the same scores, piles and last capturer).

    Why its value is then at least (at most) ``st``'s (``CANON_DOMINANCE``,
    set only for two sides without voleur and monotone match leaves):
    every line from the two states makes the same plays and the same
    points, so a side's scores along it are pointwise higher by its
    higher start; under the immediate win check it then wins at the same
    play or earlier and the other side at the same play or later (a win
    needs the higher score); a larger pile makes a larger card count at
    the end (awarded in the same order), and an answer takes the same
    shown cards from it; the last capturer takes the table's last cards
    and the bonus at the end unless somebody captures again (then the two
    lines are the same from there); the leaf values (the equity table, a win, a loss,
    the tie value between them) grow with the side's final score and fall
    with the other's; and a maximum, a minimum and an expectation of
    ordered values are ordered. (Voleur is left out: a larger pile is a
    larger prize for a steal.)"""
    x = st[10]
    s = P[P_SIDE + st[5]]
    o = 1 - s
    ds = score_of(y, s) - score_of(x, s)
    do = score_of(y, o) - score_of(x, o)
    ps = pile_of(y, s) - pile_of(x, s)
    po = pile_of(y, o) - pile_of(x, o)
    dl = _last_rank(((y >> X_LAST) & 3) - 1, s) - _last_rank(st[8], s)
    out = 0
    if ds >= 0 and ps >= 0 and do <= 0 and po <= 0 and dl >= 0:
        out |= 1
    if ds <= 0 and ps <= 0 and do >= 0 and po >= 0 and dl <= 0:
        out |= 2
    return out


@njit(cache=True)
def _last_rank(last, s):
    """How good the last capturer ``last`` is for side ``s``: itself 1,
    nobody 0, the other side -1."""
    if last < 0:
        return 0
    return 1 if last == s else -1


@njit(cache=True)
def work_left(P, st):
    """Cards still to be played: the replacement priority of a table entry."""
    n = popcount(st[1]) + popcount(st[2]) + popcount(st[3]) + popcount(st[4])
    if P[P_SHUFFLED] != 0:
        return n + popcount(st[9])
    return n + P[P_EMPTY] - st[9]
