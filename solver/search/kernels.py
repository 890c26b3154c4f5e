"""Compiled searches: negamax alpha-beta with chance nodes (expectimax with
Star1), a fixed-size transposition table, every root move scored.

The kernels reach the game only through the interface of
:mod:`solver.engine.core` (``gen_children``, ``is_chance``,
``deal_outcomes``, ``chance_bounds``, ``state_key``, ``work_left``): the
state is an opaque tuple of ``NSTATE`` int64, a child row holds the state
then its gain, an ordering guess, the move and its kind (an ordinary node,
a leaf whose gain is the rest of the line, or a chance node). Nothing here
knows what a card is.

Values are float64 in the game's unit (half-points; integral when there
is no chance node). The transposition table is one uint64 array ``TT`` of
32-byte entries, two a bucket (one cache line): ``TT[i] = (hash,
verification word << 32 | best move + 1 | work << 4 | generation << 10,
lower, upper)``, the bounds read through ``TF``, a float64 view of the same
memory. The first entry of a bucket keeps the state with more work below
it, the second always takes the newest. An entry of another generation is
empty, so a new search (a new determinisation) clears the table in O(1).

Counters ``C`` (int64, indices ``C_*``) carry the statistics and the
controls: the search stops, its result void, as soon as ``C[C_ABORT]`` is
non-zero (another thread sets it at the deadline or on Ctrl-C), after
``C[C_MAXNODES]`` nodes, or at a chance node with more than
``C[C_OUTCAP]`` outcomes.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..engine.sampling import draw
from ..engine.core import (K_GAIN, K_KIND, K_MOVE, K_ORDER, KIND_LEAF, MAX_MOVES, NSTATE,
                           chance_bounds, deal_outcomes, gen_children, is_chance, is_terminal,
                           state_key, work_left)

INF = np.inf
MAXPLY = 64

C_NODES = 0          # decision nodes entered
C_HITS = 1           # table entries that ended a node
C_CHANCE = 2         # chance nodes entered
C_CUTS = 3           # chance nodes cut by Star1
C_STORED = 4         # entries written into an empty slot
C_GEN = 5            # the current generation (>= 1)
C_ABORT = 6          # non-zero: stop (1 time or interrupt, 2 nodes, 3 outcomes)
C_MAXNODES = 7       # node budget
C_REPLACED = 8       # live entries overwritten by another state
C_MAXOUT = 9         # the largest chance node met (outcomes)
C_OUTCAP = 10        # the largest chance node allowed
C_GROWAT = 11        # entries stored at which the search stops for a bigger table
C_TTMIN = 12         # no table entry for a node with this many cards left or fewer
C_SIZE = 16

ABORT_TIME = 1
ABORT_NODES = 2
ABORT_OUTCOMES = 3
ABORT_GROW = 4


def new_counters(max_nodes: int = 1 << 62, outcome_cap: int = 1 << 40) -> np.ndarray:
    """A fresh counter array, generation 1."""
    C = np.zeros(C_SIZE, dtype=np.int64)
    C[C_GEN] = 1
    C[C_MAXNODES] = max_nodes
    C[C_OUTCAP] = outcome_cap
    C[C_GROWAT] = 1 << 62
    C[C_TTMIN] = 2
    return C


#: bytes an entry of the transposition table takes
ENTRY_BYTES = 32
#: generations wrap here; the table is cleared then
MAX_GEN = (1 << 22) - 1


def new_table(entries: int) -> tuple[np.ndarray, np.ndarray]:
    """A transposition table ``(TT, TF)`` of at least 2 and at most
    ``entries`` entries (a power of two); pages are committed only as
    entries are written."""
    n = 2
    while n * 2 <= entries:
        n *= 2
    TT = np.zeros((n, 4), dtype=np.uint64)
    return TT, TT.view(np.float64)


def new_scratch() -> np.ndarray:
    """Per-ply scratch for the children rows (and their order, row MAX_MOVES)."""
    from ..engine.core import K_COLS
    return np.zeros((MAXPLY, MAX_MOVES + 1, max(K_COLS, MAX_MOVES)), dtype=np.int64)


_LOW32 = np.uint64(0xFFFFFFFF)
_S32 = np.uint64(32)


@njit(cache=True)
def _meta(TT, j):
    return np.int64(TT[j, 1] & _LOW32)


@njit(cache=True)
def _store(TT, TF, C, slot, found, key, chk, lo, hi, move, work):
    gen = C[C_GEN]
    if found >= 0:
        j = found
    else:
        m0 = _meta(TT, slot)
        if (m0 >> 10) != gen:
            j = slot
            C[C_STORED] += 1
            if C[C_STORED] >= C[C_GROWAT]:
                C[C_ABORT] = ABORT_GROW
        elif (_meta(TT, slot + 1) >> 10) != gen:
            j = slot + 1
            C[C_STORED] += 1
            if C[C_STORED] >= C[C_GROWAT]:
                C[C_ABORT] = ABORT_GROW
        elif ((m0 >> 4) & 63) <= work:
            # the newcomer has at least as much work below: it takes the
            # first slot, the old first entry moves to the second
            C[C_REPLACED] += 1
            for q in range(4):
                TT[slot + 1, q] = TT[slot, q]
            j = slot
        else:
            C[C_REPLACED] += 1
            j = slot + 1
    TT[j, 0] = key
    TT[j, 1] = (chk << _S32) | np.uint64((move + 1) | (work << 4) | (gen << 10))
    TF[j, 2] = lo
    TF[j, 3] = hi


@njit(cache=True, nogil=True)
def rehash(TT, TF, C, NT, NF):
    """Copy the live entries of ``(TT, TF)`` into the larger empty table
    ``(NT, NF)``; ``C[C_STORED]`` becomes their count."""
    gen = C[C_GEN]
    C[C_STORED] = 0
    for i in range(TT.shape[0]):
        meta = _meta(TT, i)
        if (meta >> 10) != gen:
            continue
        key = TT[i, 0]
        slot = np.int64(key & np.uint64((NT.shape[0] >> 1) - 1)) << 1
        _store(NT, NF, C, slot, -1, key, TT[i, 1] >> _S32, TF[i, 2], TF[i, 3],
               (meta & 15) - 1, (meta >> 4) & 63)


SIG = ("float64(int64[::1], int64[:, ::1], int64[:, :, ::1], uint64[:, ::1], float64[:, ::1], "
       "int64[::1], int64, UniTuple(int64, 10), float64, float64)")


@njit(SIG, cache=True)
def negamax(P, D, K, TT, TF, C, ply, st, alpha, beta):
    """The value of ``st`` for the side to move, fail-soft: exact inside
    ``(alpha, beta)``, a bound on the right side outside. A chance node
    averages its outcomes (Ballard's Star1 with the game's sure bounds)."""
    if C[C_ABORT] != 0:
        return 0.0
    chance = is_chance(P, st)
    if chance:
        C[C_CHANCE] += 1
    else:
        C[C_NODES] += 1
        if C[C_NODES] >= C[C_MAXNODES]:
            C[C_ABORT] = ABORT_NODES
            return 0.0
    work = work_left(P, st)
    use_tt = chance or work > C[C_TTMIN]
    found = -1
    first = -1
    key = np.uint64(0)
    chk = np.uint64(0)
    slot = 0
    if use_tt:
        key, chk = state_key(st)
        chk = chk >> _S32
        slot = np.int64(key & np.uint64((TT.shape[0] >> 1) - 1)) << 1
        gen = C[C_GEN]
        if (TT[slot, 0] == key and (TT[slot, 1] >> _S32) == chk
                and (_meta(TT, slot) >> 10) == gen):
            found = slot
        elif (TT[slot + 1, 0] == key and (TT[slot + 1, 1] >> _S32) == chk
              and (_meta(TT, slot + 1) >> 10) == gen):
            found = slot + 1
    if found >= 0:
        lo = TF[found, 2]
        hi = TF[found, 3]
        first = (_meta(TT, found) & 15) - 1
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
    else:
        lo = -INF
        hi = INF

    if chance:
        big_l, big_u = chance_bounds(P, st)
        if found < 0:
            lo = big_l
            hi = big_u
            if hi <= alpha:
                return hi
            if lo >= beta:
                return lo
        if beta - alpha < 1e-7:
            # narrower than the rounding of the Star1 windows: widen (safe)
            alpha -= 1e-7
            beta += 1e-7
        probs, gains, kids = deal_outcomes(P, st, C[C_OUTCAP])
        k = probs.shape[0]
        if k == 0:
            C[C_ABORT] = ABORT_OUTCOMES
            return 0.0
        if k > C[C_MAXOUT]:
            C[C_MAXOUT] = k
        total = 0.0
        rest = 1.0
        done = False
        result = 0.0
        for i in range(k):
            p = probs[i]
            g = float(gains[i])
            rest -= p
            if rest < 1e-12:
                rest = 0.0
            # x = g + value(child) must exceed a_i for the node to exceed
            # alpha, and reaching b_i makes it reach beta
            a_i = (alpha - total - rest * big_u) / p
            b_i = (beta - total - rest * big_l) / p
            if a_i >= big_u:
                C[C_CUTS] += 1
                result = total + (p + rest) * big_u
                if result < hi:
                    hi = result
                if result > alpha:
                    result = alpha
                done = True
                break
            if b_i <= big_l:
                C[C_CUTS] += 1
                result = total + (p + rest) * big_l
                if result > lo:
                    lo = result
                if result < beta:
                    result = beta
                done = True
                break
            cut_low = a_i > big_l
            cut_high = b_i < big_u
            lo_c = (a_i if cut_low else big_l) - g
            hi_c = (b_i if cut_high else big_u) - g
            if lo_c >= hi_c:
                cut_low = False
                cut_high = False
                lo_c = big_l - g
                hi_c = big_u - g
            child = (kids[i, 0], kids[i, 1], kids[i, 2], kids[i, 3], kids[i, 4],
                     kids[i, 5], kids[i, 6], kids[i, 7], kids[i, 8], kids[i, 9])
            cr = negamax(P, D, K, TT, TF, C, ply + 1, child, lo_c, hi_c)
            if C[C_ABORT] != 0:
                return 0.0
            if cr >= hi_c:
                if cut_high:
                    C[C_CUTS] += 1
                    result = total + p * (g + cr) + rest * big_l
                    if result > lo:
                        lo = result
                    if result < beta:
                        result = beta
                    done = True
                    break
                x = big_u
            elif cr <= lo_c:
                if cut_low:
                    C[C_CUTS] += 1
                    result = total + p * (g + cr) + rest * big_u
                    if result < hi:
                        hi = result
                    if result > alpha:
                        result = alpha
                    done = True
                    break
                x = big_l
            else:
                x = g + cr
            total += p * x
        if not done:
            result = total
            lo = total
            hi = total
        _store(TT, TF, C, slot, found, key, chk, lo, hi, -1, work)
        return result

    n = gen_children(P, D, K, ply, st)
    # order: the ordering guess, then the gain, then the higher rank
    # (the reference's reverse sort of its tuples), the table's move first;
    # the permutation lives in row MAX_MOVES of the ply's scratch
    pr = MAX_MOVES
    for i in range(n):
        K[ply, pr, i] = i
    for i in range(1, n):
        j = i
        while j > 0:
            a = K[ply, pr, j - 1]
            b = K[ply, pr, j]
            oa = K[ply, a, K_ORDER]
            ob = K[ply, b, K_ORDER]
            if oa < ob or (oa == ob and (K[ply, a, K_GAIN] < K[ply, b, K_GAIN] or (
                    K[ply, a, K_GAIN] == K[ply, b, K_GAIN]
                    and K[ply, a, K_MOVE] < K[ply, b, K_MOVE]))):
                K[ply, pr, j - 1] = b
                K[ply, pr, j] = a
                j -= 1
            else:
                break
    if first >= 0 and K[ply, K[ply, pr, 0], K_MOVE] != first:
        for i in range(1, n):
            if K[ply, K[ply, pr, i], K_MOVE] == first:
                tmp = K[ply, pr, i]
                for q in range(i, 0, -1):
                    K[ply, pr, q] = K[ply, pr, q - 1]
                K[ply, pr, 0] = tmp
                break
    alpha0 = alpha
    best = -INF
    best_move = -1
    for j in range(n):
        r = K[ply, pr, j]
        gain = float(K[ply, r, K_GAIN])
        if K[ply, r, K_KIND] == KIND_LEAF:
            v = gain
        else:
            child = (K[ply, r, 0], K[ply, r, 1], K[ply, r, 2], K[ply, r, 3], K[ply, r, 4],
                     K[ply, r, 5], K[ply, r, 6], K[ply, r, 7], K[ply, r, 8], K[ply, r, 9])
            v = gain - negamax(P, D, K, TT, TF, C, ply + 1, child, gain - beta, gain - alpha)
            if C[C_ABORT] != 0:
                return 0.0
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
    if use_tt:
        _store(TT, TF, C, slot, found, key, chk, lo, hi, best_move, work)
    return best


@njit(cache=True, nogil=True)
def value(P, D, K, TT, TF, C, st, alpha, beta):
    """The value of ``st`` for the side to move (0 at the end of the hand),
    exact inside ``(alpha, beta)``."""
    if is_terminal(P, st):
        return 0.0
    return negamax(P, D, K, TT, TF, C, 0, st, alpha, beta)


@njit(cache=True, nogil=True)
def root_values(P, D, K, TT, TF, C, st, out):
    """Every legal move of ``st`` scored exactly (DDS "solutions = 3"):
    ``out[m]`` the value of playing rank index ``m`` for the side to move,
    NaN for a rank it does not hold. Returns the number of moves."""
    for m in range(MAX_MOVES):
        out[m] = np.nan
    n = gen_children(P, D, K, 0, st)
    for i in range(n):
        row = K[0, i]
        gain = float(row[K_GAIN])
        if row[K_KIND] == KIND_LEAF:
            out[row[K_MOVE]] = gain
        else:
            child = (row[0], row[1], row[2], row[3], row[4], row[5], row[6], row[7], row[8],
                     row[9])
            out[row[K_MOVE]] = gain - negamax(P, D, K, TT, TF, C, 1, child, -INF, INF)
            if C[C_ABORT] != 0:
                return i
    return n


@njit(cache=True, nogil=True)
def solve_samples(P, base, pool, hidden, known_stock, nstock, mode, cons, seeds, first, step,
                  count, K, TT, TF, C, D, stock, work, out, nodes, done):
    """Determinised search, one thread's share of a batch: samples
    ``first, first + step, ...`` (``count`` of them) of ``seeds``, each
    drawn by the game (:func:`solver.engine.sampling.draw`) and every root
    move solved exactly; ``out[i]`` the move values (NaN where illegal),
    ``nodes[i]``, ``done[i] = 1`` when finished, ``-1`` when the draw
    failed. Stops at ``C[C_ABORT]``; a new generation per sample."""
    for q in range(count):
        i = first + q * step
        if C[C_ABORT] != 0:
            return
        st, ok = draw(P, base, pool, hidden, known_stock, nstock, mode, cons, seeds[i], D,
                      stock, work)
        if not ok:
            done[i] = -1
            return
        C[C_GEN] += 1
        n0 = C[C_NODES]
        root_values(P, D, K, TT, TF, C, st, out[i])
        if C[C_ABORT] != 0:
            return
        nodes[i] = C[C_NODES] - n0
        done[i] = 1
