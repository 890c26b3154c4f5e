"""Compiled searches for three sides (each of three seats its own side),
where a value is a *vector*: one entry per side, that side's points from
now to the end of the hand.

- **max^n** (:func:`maxn`): every seat maximises its own entry; ties go to
  (1) the higher own value, (2) the lower sum of the other entries (hurt the
  opponents), (3) the lowest move (docs/rules.md, decision 9), so the
  vector of a state is well defined and a table of exact vectors is sound.
  Shallow pruning (Korf): entries are >= 0 and sum to at most the game's
  bound ``B`` (:func:`solver.engine.core.sum_bound`); once the seat at a node
  has ``x``, the parent's seat gets at most ``B - x`` through it, and the
  node is cut when that is *strictly* below what the parent needs (a cut
  vector is never stored). Chance nodes average exactly (no cut through
  them). The pruning (and the children's order it needs) is on where it
  cuts, Ronda voleur (:func:`prune_pays`); elsewhere the max^n rule picks
  the same child whatever the order, so the children are searched in rank
  order.
- **paranoid** (:func:`paranoid`): the root's side maximises its own entry,
  the other two minimise it: alpha-beta on one number with the scalar
  table of :mod:`solver.search.kernels` (bounds), chance nodes averaged in
  full. :func:`paranoid_vector` follows the paranoid policy (the root's
  side: the best paranoid value, ties by the max^n rule; an opponent: the
  lowest root value, ties by its own higher entry, then the lowest move)
  and gives the vector it leads to.

Like :mod:`solver.search.kernels`, this module reaches the game only
through :mod:`solver.engine.core`'s interface (``gen_children_vec``,
``is_chance``, ``dealt_child``, ``sum_bound``, ``state_key``,
``work_left``) and never learns what a hit is; the last two deals of a
known stock are handed to the game's own searches without the table
(:mod:`solver.engine.endgame3`, ``C_LEAN`` and ``C_LEAN2``). Vectors live in a per-ply
buffer ``V`` (``V[ply]`` the value of the node searched at ``ply``); the
vector table ``VT`` holds 5 words an entry (key, meta, three float64
entries), two entries a bucket, cleared by generation like ``TT``. A
node's key is hashed once, by its parent (:func:`_child_keys`, with the
prefetch of its bucket), and passed down.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .memory import own_lines, zeroed
from ..engine.sampling import draw
from ..engine.core import (D_NEXT, DR_DS, KV_COLS, KV_GAIN, KV_KIND, KV_MOVE, KV_ORDER,
                           KIND_LEAF, MAX_MOVES, P_EMPTY, P_SIDE, P_VOLEUR, dealt_child,
                           gen_children_vec, is_chance, is_last_deal, is_terminal, state_key,
                           sum_bound, work_left)
from ..engine.endgame3 import lean2_state, lean3_state
from .kernels import (ABORT_GROW, ABORT_NODES, ABORT_OUTCOMES, C_ABORT, C_CHANCE, C_CUTS,
                      C_GEN, C_GROWAT, C_HITS, C_LEAN, C_LEAN2, C_LNODES, C_MAXNODES, C_MAXOUT,
                      C_NODES, C_REPLACED, C_REV, C_SHARED, C_STORED, C_TTMIN, INF, MAXPLY, _bits,
                      _float, _mix, _outcomes, _prefetch, _seal, _store, fetch_add,
                      borrow, bucket, row_state)

_NONE = np.int64(-1)      # "no parent side": typed, not a literal (numba's cache)
_ZERO = np.float64(0.0)
_ONE = np.int64(1)
_INF = np.float64(np.inf)
_NINF = np.float64(-np.inf)
_LOW32 = np.uint64(0xFFFFFFFF)
_S32 = np.uint64(32)
#: two vector entries compare equal within this (expectations are sums of
#: float products; exact values are integers)
TOL = 1e-9
#: bytes a vector table entry takes
VENTRY_BYTES = 40
#: columns of a children row after the game's (``KV_COLS``): the child's table
#: key and verification word, computed by the parent (:func:`_child_keys`)
KV_KEY = KV_COLS
KV_CHK = KV_COLS + 1


def new_vector_table(entries: int) -> np.ndarray:
    """A vector table of at least 2 and at most ``entries`` entries."""
    n = 2
    while n * 2 <= entries:
        n *= 2
    return zeroed((n, 5), np.uint64)


def new_vscratch() -> tuple[np.ndarray, np.ndarray]:
    """Per-ply scratch: the children rows ``K`` (and their order, row
    ``MAX_MOVES``) and the vector buffer ``V``."""
    return (np.zeros((MAXPLY, MAX_MOVES + 1, max(KV_CHK + 1, MAX_MOVES)), dtype=np.int64),
            own_lines((MAXPLY + 1, 3), np.float64))


@njit(cache=True)
def _vseal(w1, w2, w3, w4):
    """What a shared table's key word is XORed with: the other four words
    through a full mixing function (as :func:`solver.search.kernels._seal`),
    so that an entry torn by two threads writing one slot never verifies."""
    return _seal(w1, w2, w3 ^ _mix(w4))


@njit(cache=True)
def _vget(VT, C, key, chk, V, ply):
    """Whether ``key`` is in the vector table; if so its vector is copied
    into ``V[ply]`` (the words read once: in a shared table the copy is
    the entry that was verified)."""
    slot = bucket(VT, key)
    gen = np.uint64(C[C_GEN])
    shared = C[C_SHARED] != 0
    for j in range(slot, slot + 2):
        w1 = VT[j, 1]
        if (w1 >> _S32) != chk or ((w1 & _LOW32) >> np.uint64(10)) != gen:
            continue
        w2 = VT[j, 2]
        w3 = VT[j, 3]
        w4 = VT[j, 4]
        if (VT[j, 0] ^ (_vseal(w1, w2, w3, w4) if shared else w1)) == key:
            V[ply, 0] = _float(w2)
            V[ply, 1] = _float(w3)
            V[ply, 2] = _float(w4)
            return True
    return False


@njit(cache=True, inline='always')
def _lean_done(C, V, VT, ply, v0, v1, v2, k, use_tt, key, chk, work):
    """A node solved by a lean search (``k`` decision nodes, this one
    among them): its vector in ``V[ply]``, counted, and stored."""
    C[C_NODES] += k - 1
    C[C_LNODES] += k
    V[ply, 0] = float(v0)
    V[ply, 1] = float(v1)
    V[ply, 2] = float(v2)
    if use_tt:
        _vstore(VT, C, key, chk, V[ply], -1, work)


@njit(cache=True)
def _vstore(VT, C, key, chk, v, move, work):
    slot = bucket(VT, key)
    gen = C[C_GEN]
    m0 = np.int64(VT[slot, 1] & _LOW32)
    if (m0 >> 10) != gen:
        j = slot
        C[C_STORED] += 1
    elif (np.int64(VT[slot + 1, 1] & _LOW32) >> 10) != gen:
        j = slot + 1
        C[C_STORED] += 1
    elif ((m0 >> 4) & 63) <= work:
        C[C_REPLACED] += 1
        for q in range(5):
            VT[slot + 1, q] = VT[slot, q]
        j = slot
    else:
        C[C_REPLACED] += 1
        j = slot + 1
    if C[C_STORED] >= C[C_GROWAT]:
        C[C_ABORT] = ABORT_GROW
    w1 = (chk << _S32) | np.uint64((move + 1) | (work << 4) | (gen << 10))
    w2 = _bits(v[0])
    w3 = _bits(v[1])
    w4 = _bits(v[2])
    VT[j, 1] = w1
    VT[j, 2] = w2
    VT[j, 3] = w3
    VT[j, 4] = w4
    VT[j, 0] = key ^ (_vseal(w1, w2, w3, w4) if C[C_SHARED] != 0 else w1)


@njit(cache=True, nogil=True)
def vrehash(VT, C, NV):
    """Copy the live entries of the vector table ``VT`` into the larger
    empty table ``NV``; ``C[C_STORED]`` becomes their count."""
    gen = np.uint64(C[C_GEN])
    C[C_STORED] = 0
    for i in range(VT.shape[0]):
        w1 = VT[i, 1]
        if ((w1 & _LOW32) >> np.uint64(10)) != gen:
            continue
        meta = np.int64(w1 & _LOW32)
        v = np.empty(3, dtype=np.float64)
        v[0] = _float(VT[i, 2])
        v[1] = _float(VT[i, 3])
        v[2] = _float(VT[i, 4])
        seal = _vseal(w1, VT[i, 2], VT[i, 3], VT[i, 4]) if C[C_SHARED] != 0 else w1
        _vstore(NV, C, VT[i, 0] ^ seal, w1 >> _S32, v, (meta & 15) - 1, (meta >> 4) & 63)


@njit(cache=True)
def _better(a0, a1, a2, ma, b0, b1, b2, mb, side):
    """Side ``side`` prefers vector ``a`` (move ``ma``) to ``b`` (move
    ``mb``): the higher own entry, then the lower sum of the others, then
    the lower move."""
    if side == 0:
        oa, ob = a0, b0
        ra, rb = a1 + a2, b1 + b2
    elif side == 1:
        oa, ob = a1, b1
        ra, rb = a0 + a2, b0 + b2
    else:
        oa, ob = a2, b2
        ra, rb = a0 + a1, b0 + b1
    if oa > ob + TOL:
        return True
    if oa < ob - TOL:
        return False
    if ra < rb - TOL:
        return True
    if ra > rb + TOL:
        return False
    return ma < mb


@njit(cache=True)
def _order(K, ply, n, first):
    """The search order of the ``n`` rows at ``ply`` into row MAX_MOVES:
    the ordering guess, higher first (then the lower move), the table's
    move first."""
    pr = MAX_MOVES
    for i in range(n):
        K[ply, pr, i] = i
    for i in range(1, n):
        j = i
        while j > 0:
            a = K[ply, pr, j - 1]
            b = K[ply, pr, j]
            if K[ply, a, KV_ORDER] < K[ply, b, KV_ORDER]:
                K[ply, pr, j - 1] = b
                K[ply, pr, j] = a
                j -= 1
            else:
                break
    if first >= 0:
        for i in range(1, n):
            if K[ply, K[ply, pr, i], KV_MOVE] == first:
                tmp = K[ply, pr, i]
                for q in range(i, 0, -1):
                    K[ply, pr, q] = K[ply, pr, q - 1]
                K[ply, pr, 0] = tmp
                break


#: tables of the three-sided searches with more entries than this prefetch the children's buckets
VPREFETCH_ENTRIES = 1 << 16


@njit(cache=True)
def _key_of(P, C, st):
    """The table key and verification word of ``st`` (0, 0 when its node
    will not use the table: a decision node with ``C_TTMIN`` cards left or
    fewer)."""
    if is_chance(P, st) or work_left(P, st) > C[C_TTMIN]:
        key, chk = state_key(st)
        return key, chk >> _S32
    return np.uint64(0), np.uint64(0)


@njit(cache=True)
def _child_keys(P, K, T, C, ply, n):
    """The table key of every child at ``ply`` that will probe the table,
    into its row (``KV_KEY``, ``KV_CHK``: the child does not hash itself
    again), and in a large table (``T``: two entries a bucket) its bucket
    asked for, so that the children's cache misses overlap instead of
    stalling one child after another."""
    big = T.shape[0] > VPREFETCH_ENTRIES
    for r in range(n):
        if K[ply, r, KV_KIND] != KIND_LEAF:
            ck, cc = _key_of(P, C, row_state(K, ply, r))
            K[ply, r, KV_KEY] = np.int64(ck)
            K[ply, r, KV_CHK] = np.int64(cc)
            if big and cc != 0:
                _prefetch(T, bucket(T, ck))


@njit(cache=True)
def _count(C, chance):
    """Count a node; False when the node budget is spent (abort set)."""
    if chance:
        C[C_CHANCE] += 1
    else:
        C[C_NODES] += 1
        if C[C_NODES] >= C[C_MAXNODES]:
            C[C_ABORT] = ABORT_NODES
            return False
    return True


@njit(cache=True)
def prune_pays(P):
    """Whether max^n shallow pruning is worth its cost in this rule system:
    Ronda voleur (a side's entry can fall, so the bound cuts); otherwise it
    cut 4 nodes in 3.5 million of whole three-player hands, and without it
    the children are not ordered (docs/performance.md)."""
    return P[P_VOLEUR] != 0


# Recursive kernels carry explicit signatures: numba cannot load a lazily
# typed recursive function from its cache (see solver.engine.core).
_A = "int64[::1], int64[:, ::1], int64[:, :, ::1]"
_O = "int64[:, ::1], float64[::1], int64[:, ::1]"
_ST = "UniTuple(int64, 11)"


@njit(f"boolean({_A}, float64[:, ::1], uint64[:, ::1], int64[::1], int64[:, ::1], {_O}, int64, "
      f"{_ST}, "
      "uint64, uint64, int64, float64, boolean)", cache=True)
def maxn(P, D, K, V, VT, C, M, OK, OP, OR, ply, st, key, chk, pj, need, prune):
    """The max^n vector of ``st`` into ``V[ply]``; returns whether it is
    exact (False: cut, the parent side ``pj`` surely gets less than
    ``need`` through this node, or the search aborted). ``pj = -1``: no cut
    allowed. ``prune``: shallow pruning on (for measuring). ``key``,
    ``chk``: the state's table key and verification word (:func:`_key_of`,
    computed by the parent). ``M``: the thread's memo of the last deal's
    roots and the deal before's starts
    (:func:`solver.engine.endgame3.new_memo`); states with at most
    ``C[C_LEAN2]`` cards left in the deal before the last and ``C[C_LEAN]``
    in the last are searched without the table (:mod:`solver.engine.endgame3`)."""
    if C[C_ABORT] != 0:
        return False
    if is_terminal(P, st):
        V[ply, 0] = 0.0
        V[ply, 1] = 0.0
        V[ply, 2] = 0.0
        return True
    chance = is_chance(P, st)
    if not _count(C, chance):
        return False
    work = work_left(P, st)
    use_tt = chance or work > C[C_TTMIN]
    first = -1
    if use_tt:
        if _vget(VT, C, key, chk, V, ply):
            C[C_HITS] += 1
            return True
    # the last two deals without the table (solver.engine.endgame3): the
    # deal before the last (a known stock, its last deal's roots memoised
    # in M) and the last deal; their vector stored here
    if not chance and work <= C[C_LEAN2] and st[9] != P[P_EMPTY] and D[st[9], D_NEXT] == P[P_EMPTY]:
        v0, v1, v2, k = lean2_state(P, D, M, C[C_GEN], st)
        _lean_done(C, V, VT, ply, v0, v1, v2, k, use_tt, key, chk, work)
        return True
    if not chance and work <= C[C_LEAN] and is_last_deal(P, st):
        v0, v1, v2, k = lean3_state(P, st)
        _lean_done(C, V, VT, ply, v0, v1, v2, k, use_tt, key, chk, work)
        return True
    if chance:
        probs, rows, start, k = _outcomes(P, st, C, OK, OP, OR)
        if k == 0:
            C[C_ABORT] = ABORT_OUTCOMES
            return False
        if k > C[C_MAXOUT]:
            C[C_MAXOUT] = k
        a0 = 0.0
        a1 = 0.0
        a2 = 0.0
        for i in range(k):
            p = probs[start + i]
            child = dealt_child(P, st, rows, start + i)
            ck, cc = _key_of(P, C, child)
            maxn(P, D, K, V, VT, C, M, OK, OP, OR, ply + 1, child, ck, cc, _NONE, _ZERO, prune)
            if C[C_ABORT] != 0:
                return False
            a0 += p * (rows[start + i, DR_DS] + V[ply + 1, 0])
            a1 += p * (rows[start + i, DR_DS + 1] + V[ply + 1, 1])
            a2 += p * (rows[start + i, DR_DS + 2] + V[ply + 1, 2])
        V[ply, 0] = a0
        V[ply, 1] = a1
        V[ply, 2] = a2
        _vstore(VT, C, key, chk, V[ply], -1, work)
        return True
    side = P[P_SIDE + st[5]]
    n = gen_children_vec(P, D, K, ply, st)
    bound = -1.0
    if prune and pj >= 0 and pj != side and need > 0:
        bound = float(sum_bound(P, st))
    if prune:
        # the order matters to the cuts only: the max^n rule picks the same
        # child in any order
        _order(K, ply, n, first)
    _child_keys(P, K, VT, C, ply, n)
    have = False
    b0 = 0.0
    b1 = 0.0
    b2 = 0.0
    bm = -1
    rev = C[C_REV] != 0
    for q in range(n):
        qq = n - 1 - q if rev else q
        r = K[ply, MAX_MOVES, qq] if prune else qq
        g0 = float(K[ply, r, KV_GAIN])
        g1 = float(K[ply, r, KV_GAIN + 1])
        g2 = float(K[ply, r, KV_GAIN + 2])
        m = K[ply, r, KV_MOVE]
        if K[ply, r, KV_KIND] == KIND_LEAF:
            v0, v1, v2 = g0, g1, g2
        else:
            child = row_state(K, ply, r)
            ck = np.uint64(K[ply, r, KV_KEY])
            cc = np.uint64(K[ply, r, KV_CHK])
            if not have:
                exact = maxn(P, D, K, V, VT, C, M, OK, OP, OR, ply + 1, child, ck, cc, _NONE, _ZERO,
                             prune)
            else:
                own = b0 if side == 0 else (b1 if side == 1 else b2)
                gs = g0 if side == 0 else (g1 if side == 1 else g2)
                exact = maxn(P, D, K, V, VT, C, M, OK, OP, OR, ply + 1, child, ck, cc, side,
                             own - gs, prune)
            if C[C_ABORT] != 0:
                return False
            if not exact:
                continue        # surely worse for this side than the best so far
            v0 = g0 + V[ply + 1, 0]
            v1 = g1 + V[ply + 1, 1]
            v2 = g2 + V[ply + 1, 2]
        if not have or _better(v0, v1, v2, m, b0, b1, b2, bm, side):
            have = True
            b0, b1, b2, bm = v0, v1, v2, m
            if bound >= 0:
                own = b0 if side == 0 else (b1 if side == 1 else b2)
                if bound - own < need - TOL:
                    C[C_CUTS] += 1
                    V[ply, 0] = b0
                    V[ply, 1] = b1
                    V[ply, 2] = b2
                    return False
    V[ply, 0] = b0
    V[ply, 1] = b1
    V[ply, 2] = b2
    if use_tt:
        _vstore(VT, C, key, chk, V[ply], bm, work)
    return True


@njit(cache=True, nogil=True)
def maxn_root(P, D, K, V, VT, C, M, OK, OP, OR, st, out, prune=True):
    """Every legal move of ``st`` with its max^n vector (the play's points
    plus the vector after it, each exact): ``out[m, k]`` for rank index
    ``m`` (rows of illegal moves left alone). Returns the number of moves."""
    P, D, K, V, VT, C = borrow(P), borrow(D), borrow(K), borrow(V), borrow(VT), borrow(C)
    M, OK, OP, OR = borrow(M), borrow(OK), borrow(OP), borrow(OR)
    n = gen_children_vec(P, D, K, 0, st)
    _child_keys(P, K, VT, C, 0, n)
    for i in range(n):
        m = K[0, i, KV_MOVE]
        for k in range(3):
            out[m, k] = float(K[0, i, KV_GAIN + k])
        if K[0, i, KV_KIND] != KIND_LEAF:
            child = row_state(K, 0, i)
            maxn(P, D, K, V, VT, C, M, OK, OP, OR, _ONE, child, np.uint64(K[0, i, KV_KEY]),
                 np.uint64(K[0, i, KV_CHK]), _NONE, _ZERO, prune)
            if C[C_ABORT] != 0:
                return n
            for k in range(3):
                out[m, k] += V[1, k]
    return n


# --- paranoid ------------------------------------------------------------------------


@njit(f"float64({_A}, uint64[:, ::1], float64[:, ::1], int64[::1], {_O}, int64, int64, "
      f"{_ST}, float64, float64)", cache=True)
def paranoid(P, D, K, TT, TF, C, OK, OP, OR, root, ply, st, alpha, beta):
    """The paranoid value of ``st`` for side ``root`` (its points from here
    to the end of the hand, the other sides minimising them), fail-soft:
    exact inside ``(alpha, beta)``, a bound on the right side outside.
    Chance nodes are averaged in full (exact)."""
    if C[C_ABORT] != 0:
        return 0.0
    if is_terminal(P, st):
        return 0.0
    chance = is_chance(P, st)
    if not _count(C, chance):
        return 0.0
    work = work_left(P, st)
    use_tt = chance or work > C[C_TTMIN]
    found = -1
    first = -1
    key = np.uint64(0)
    chk = np.uint64(0)
    slot = 0
    lo = -INF
    hi = INF
    if use_tt:
        key, chk = state_key(st)
        chk = chk >> _S32
        slot = bucket(TT, key)
        gen = np.uint64(C[C_GEN])
        for j in range(slot, slot + 2):
            w1 = TT[j, 1]
            if ((w1 >> _S32) == chk and ((w1 & _LOW32) >> np.uint64(10)) == gen
                    and (TT[j, 0] ^ w1) == key):
                found = j
                lo = TF[j, 2]
                hi = TF[j, 3]
                first = np.int64(w1 & np.uint64(15)) - 1
                break
    if found >= 0:
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
        probs, rows, start, k = _outcomes(P, st, C, OK, OP, OR)
        if k == 0:
            C[C_ABORT] = ABORT_OUTCOMES
            return 0.0
        if k > C[C_MAXOUT]:
            C[C_MAXOUT] = k
        total = 0.0
        for i in range(k):
            child = dealt_child(P, st, rows, start + i)
            v = paranoid(P, D, K, TT, TF, C, OK, OP, OR, root, ply + 1, child, _NINF, _INF)
            if C[C_ABORT] != 0:
                return 0.0
            total += probs[start + i] * (rows[start + i, DR_DS + root] + v)
        _store(TT, TF, C, slot, found, key, chk, total, total, -1, work)
        return total
    maximise = P[P_SIDE + st[5]] == root
    n = gen_children_vec(P, D, K, ply, st)
    _order(K, ply, n, first)
    # the children's buckets asked for (paranoid hashes each child again
    # itself: the keys written into the rows go unread)
    _child_keys(P, K, TT, C, ply, n)
    alpha0 = alpha
    beta0 = beta
    best = -INF if maximise else INF
    best_move = -1
    for q in range(n):
        r = K[ply, MAX_MOVES, q]
        g = float(K[ply, r, KV_GAIN + root])
        if K[ply, r, KV_KIND] == KIND_LEAF:
            v = g
        else:
            child = row_state(K, ply, r)
            v = g + paranoid(P, D, K, TT, TF, C, OK, OP, OR, root, ply + 1, child,
                             alpha - g, beta - g)
            if C[C_ABORT] != 0:
                return 0.0
        if maximise:
            if v > best:
                best = v
                best_move = K[ply, r, KV_MOVE]
                if v > alpha:
                    alpha = v
        else:
            if v < best:
                best = v
                best_move = K[ply, r, KV_MOVE]
                if v < beta:
                    beta = v
        if alpha >= beta:
            break
    if best <= alpha0:
        if best < hi:
            hi = best
    elif best >= beta0:
        if best > lo:
            lo = best
    else:
        lo = best
        hi = best
    if use_tt:
        _store(TT, TF, C, slot, found, key, chk, lo, hi, best_move, work)
    return best


@njit(f"void({_A}, float64[:, ::1], uint64[:, ::1], float64[:, ::1], uint64[:, ::1], "
      f"int64[::1], {_O}, int64, int64, {_ST})", cache=True)
def paranoid_vector(P, D, K, V, TT, TF, VT, C, OK, OP, OR, root, ply, st):
    """The vector the paranoid policy for side ``root`` leads to from
    ``st``, into ``V[ply]`` (memoised in ``VT``): at a decision node every
    play gets its exact paranoid value; the root's side takes the highest
    (ties: the lower sum of the others, then the lowest move), an opponent
    the lowest (ties: its own higher entry, then the lowest move); chance
    nodes average."""
    if C[C_ABORT] != 0:
        return
    if is_terminal(P, st):
        V[ply, 0] = 0.0
        V[ply, 1] = 0.0
        V[ply, 2] = 0.0
        return
    key, chk = state_key(st)
    chk = chk >> _S32
    if _vget(VT, C, key, chk, V, ply):
        return
    work = work_left(P, st)
    if is_chance(P, st):
        probs, rows, start, k = _outcomes(P, st, C, OK, OP, OR)
        if k == 0:
            C[C_ABORT] = ABORT_OUTCOMES
            return
        a0 = 0.0
        a1 = 0.0
        a2 = 0.0
        for i in range(k):
            p = probs[start + i]
            child = dealt_child(P, st, rows, start + i)
            paranoid_vector(P, D, K, V, TT, TF, VT, C, OK, OP, OR, root, ply + 1, child)
            if C[C_ABORT] != 0:
                return
            a0 += p * (rows[start + i, DR_DS] + V[ply + 1, 0])
            a1 += p * (rows[start + i, DR_DS + 1] + V[ply + 1, 1])
            a2 += p * (rows[start + i, DR_DS + 2] + V[ply + 1, 2])
        V[ply, 0] = a0
        V[ply, 1] = a1
        V[ply, 2] = a2
        _vstore(VT, C, key, chk, V[ply], -1, work)
        return
    side = P[P_SIDE + st[5]]
    n = gen_children_vec(P, D, K, ply, st)
    scal = np.empty(n, dtype=np.float64)
    for r in range(n):
        g = float(K[ply, r, KV_GAIN + root])
        if K[ply, r, KV_KIND] == KIND_LEAF:
            scal[r] = g
        else:
            scal[r] = g + paranoid(P, D, K, TT, TF, C, OK, OP, OR, root, ply + 1,
                                   row_state(K, ply, r), _NINF, _INF)
            if C[C_ABORT] != 0:
                return
    target = scal[0]
    for r in range(1, n):
        if (side == root and scal[r] > target) or (side != root and scal[r] < target):
            target = scal[r]
    have = False
    b0 = 0.0
    b1 = 0.0
    b2 = 0.0
    bm = -1
    for r in range(n):
        if abs(scal[r] - target) > TOL:
            continue
        v0 = float(K[ply, r, KV_GAIN])
        v1 = float(K[ply, r, KV_GAIN + 1])
        v2 = float(K[ply, r, KV_GAIN + 2])
        m = K[ply, r, KV_MOVE]
        if K[ply, r, KV_KIND] != KIND_LEAF:
            paranoid_vector(P, D, K, V, TT, TF, VT, C, OK, OP, OR, root, ply + 1,
                            row_state(K, ply, r))
            if C[C_ABORT] != 0:
                return
            v0 += V[ply + 1, 0]
            v1 += V[ply + 1, 1]
            v2 += V[ply + 1, 2]
        if not have:
            better = True
        elif side == root:
            better = _better(v0, v1, v2, m, b0, b1, b2, bm, side)
        else:
            own = v0 if side == 0 else (v1 if side == 1 else v2)
            bown = b0 if side == 0 else (b1 if side == 1 else b2)
            better = own > bown + TOL or (abs(own - bown) <= TOL and m < bm)
        if better:
            have = True
            b0, b1, b2, bm = v0, v1, v2, m
    V[ply, 0] = b0
    V[ply, 1] = b1
    V[ply, 2] = b2
    _vstore(VT, C, key, chk, V[ply], bm, work)


@njit(cache=True, nogil=True)
def paranoid_root(P, D, K, V, TT, TF, VT, C, OK, OP, OR, st, out, scal, root):
    """Every legal move of ``st`` under the paranoid search for side
    ``root`` (-1: the mover's): ``scal[m]`` its exact paranoid value (the
    root side's points), ``out[m, k]`` the vector the paranoid policy leads
    to after it (the play's points included). Returns the number of moves."""
    P, D, K, V, VT, C = borrow(P), borrow(D), borrow(K), borrow(V), borrow(VT), borrow(C)
    TT, TF, OK, OP, OR = borrow(TT), borrow(TF), borrow(OK), borrow(OP), borrow(OR)
    if root < 0:
        root = P[P_SIDE + st[5]]
    n = gen_children_vec(P, D, K, 0, st)
    for i in range(n):
        m = K[0, i, KV_MOVE]
        g = float(K[0, i, KV_GAIN + root])
        for k in range(3):
            out[m, k] = float(K[0, i, KV_GAIN + k])
        scal[m] = g
        if K[0, i, KV_KIND] != KIND_LEAF:
            child = row_state(K, 0, i)
            scal[m] = g + paranoid(P, D, K, TT, TF, C, OK, OP, OR, root, _ONE, child, _NINF, _INF)
            if C[C_ABORT] != 0:
                return n
            paranoid_vector(P, D, K, V, TT, TF, VT, C, OK, OP, OR, root, _ONE, child)
            if C[C_ABORT] != 0:
                return n
            for k in range(3):
                out[m, k] += V[1, k]
    return n


@njit(cache=True, nogil=True)
def solve_samples_vec(P, base, pool, hidden, known_stock, nstock, mode, cons, seeds, claim,
                      K, V, TT, TF, VT, C, M, OK, OP, OR, D, stock, work, out, nodes, done,
                      drawn, search):
    """Determinised search for three sides, one thread's share (as
    :func:`solver.search.kernels.solve_samples`: the samples claimed one at
    a time from the batch's shared counter ``claim[0]``): each sample
    drawn by the game and every root move's vector solved, ``out[i, m,
    k]`` (NaN where illegal); ``search`` 0 max^n, 1 paranoid (the paranoid
    vectors)."""
    scal = np.empty(MAX_MOVES, dtype=np.float64)
    while True:
        if C[C_ABORT] != 0:
            return
        i = fetch_add(claim, 0, 1)
        if i >= seeds.shape[0]:
            return
        st, ok = draw(P, base, pool, hidden, known_stock, nstock, mode, cons, seeds[i], D,
                      stock, work)
        if not ok:
            done[i] = -1
            return
        for s in range(drawn.shape[1]):
            drawn[i, s] = st[1 + s]
        C[C_GEN] += 1
        n0 = C[C_NODES]
        if search == 0:
            maxn_root(P, D, K, V, VT, C, M, OK, OP, OR, st, out[i], prune_pays(P))
        else:
            paranoid_root(P, D, K, V, TT, TF, VT, C, OK, OP, OR, st, out[i], scal, _NONE)
        if C[C_ABORT] != 0:
            return
        nodes[i] = C[C_NODES] - n0
        done[i] = 1
