"""Compiled searches: negamax alpha-beta with chance nodes (expectimax with
Star1), a fixed-size transposition table, every root move scored.

The kernels reach the game only through the interface of
:mod:`solver.engine.core` (``gen_children``, ``has_chance``, ``is_chance``,
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

Where the game orders states by their scores and piles (the match
objective: :func:`solver.engine.core.dominance`), each thread keeps a
group table beside it (:func:`new_groups`): the newest states of the same
cards, whose bounds bound a state that is better or worse for its mover
than they are (read and written with the table's entry).

The last deal (the stock empty: every card known, no chance node below)
is searched without the table by :func:`last_deal` (through the game's
own solver, :mod:`solver.engine.endgame`, where it has one): at a chance
node that deals it (``C_LEXACT``: two players' 6 cards) every outcome is
solved exactly and the node's exact value stored once.

Counters ``C`` (int64, indices ``C_*``) carry the statistics and the
controls: the search stops, its result void, as soon as ``C[C_ABORT]`` is
non-zero (another thread sets it at the deadline or on Ctrl-C), after
``C[C_MAXNODES]`` nodes, or at a chance node with more than
``C[C_OUTCAP]`` outcomes.
"""

from __future__ import annotations

import numpy as np
from numba import njit, types
from numba.core import cgutils
from numba.core.extending import intrinsic

from ..engine import endgame
from ..engine.hints import prefetch as _prefetch
from .memory import own_lines, zeroed
from ..engine.sampling import draw
from ..engine.core import (CANON_DOMINANCE, DR_GAIN, _cards_key, K_COLS, K_GAIN, K_KIND, K_MOVE, K_ORDER,
                           KIND_LEAF, MAX_MOVES, NSTATE, P_CANON, P_IMMEDIATE, P_MATCH, P_SIDE,
                           chance_bounds,
                           deal_table,
                           dealt_child, dominance, gen_children, gen_children_match,
                           group_key, group_word,
                           has_chance, is_chance, is_last_deal, is_terminal, leaf_value,
                           per_node, play,
                           state_key,
                           state_keys, won_by, work_left)

INF = np.inf
MAXPLY = endgame.LINES_PLY       # 64: past it the scratch holds the match's line cache
#: with chance nodes values are floats: a child searches a window this much
#: wider than the one its parent needs, and is judged against the one needed,
#: so that rounding never turns a bound into an "exact" value at a window's
#: edge (nor collapses a window to nothing); far above the rounding of the
#: sums (1e-12), far below any difference between two values (1e-6)
MARGIN = 1e-9

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
C_SHARED = 13        # non-zero: the table is shared between threads (entries sealed)
C_OUSED = 14         # rows used in the outcome cache
C_OKEYS = 15         # stocks in the outcome cache
# the board a searching thread posts for its helpers (solver.search.parallel):
# chance nodes with at least C_PARMIN work left are posted; C_BGEN is a
# sequence lock (odd: no chance node posted or one being written; even: the
# state in C_BSTATE.. is posted); the threads take the posted node's outcomes
# by claims (the claim counter C_BCLAIM of the board, :func:`new_counters`),
# the node's outcome i being claim C_BBASE + i
C_PARMIN = 16        # 0: post nothing
C_BGEN = 17
C_BBASE = 18
C_BSTOP = 19         # non-zero: the helpers return
# the last deal (the stock empty: no chance node below, every card known) is
# searched by a plain alpha-beta without the table (:func:`last_deal`) at
# states with at most C_LEAN cards left (0: never); three sides: max^n by
# solver.engine.endgame3.lean3
C_LEAN = 20
C_LNODES = 21        # decision nodes of those searches (counted in C_NODES too)
C_LEXACT = 22        # a chance node dealing the last deal, at most this many cards to
                     # come: each outcome solved exactly by last_deal (0: never)
C_BSTATE = 23        # NSTATE words
# a second thread of an exact three-sided search (:mod:`solver.search.vectors`)
# takes every node's children in the reverse order, so that the two
# threads meet in the middle of each node's children
C_REV = C_BSTATE + NSTATE
# three sides (:mod:`solver.search.kernels_vec`): states of the deal before the
# last with at most C_LEAN2 cards left are searched without the table
# (:func:`solver.engine.endgame3.lean2`; 0: never)
C_LEAN2 = C_REV + 1
C_SIZE = C_REV + 2
# the board of a searching thread with helpers, after the counters, on cache
# lines of its own: the claim counter (taken by an atomic add, never reset:
# claim numbers are unique), then ``BOARD_CAP`` words each of the helpers'
# notes (claim + 1 when the outcome of that claim is solved and in the table,
# a ring), the searching thread's outcomes known out of order (tagged with
# the post's generation) and their values (float64 bits)
C_BCLAIM = (C_SIZE + 7) // 8 * 8
C_BDONE = C_BCLAIM + 8
#: outcomes a posted chance node may have (more: searched without helpers)
BOARD_CAP = 1 << 17
C_BOWN = C_BDONE + BOARD_CAP
C_BVAL = C_BOWN + BOARD_CAP
C_BOARD_SIZE = C_BVAL + BOARD_CAP

ABORT_TIME = 1
ABORT_NODES = 2
ABORT_OUTCOMES = 3
ABORT_GROW = 4
#: windows wider than this are infinite for the last deal's integer search
LEAN_INF = 1 << 50
#: C_LEAN of a new search: 0, the table pays in a last deal reached from a
#: decision node (a known stock: exact2 1.15x, exact4 3-4x more time without
#: it; docs/performance.md); the match objective's searches set
#: :func:`solver.engine.endgame.lean_default`
LEAN_DEFAULT = 0
#: C_LEXACT of a new search: the last deal of two players (6 cards); four
#: players' last deal (12 plies) keeps the table
LEXACT_DEFAULT = 6


def new_counters(max_nodes: int = 1 << 62, outcome_cap: int = 1 << 40,
                 board: bool = False) -> np.ndarray:
    """A fresh counter array, generation 1 (on its own cache lines: each
    thread of a search writes its own at every node); with ``board``, the
    board of a searching thread with helpers after it (``C_BCLAIM``..;
    pages committed only as written)."""
    C = own_lines((C_BOARD_SIZE if board else C_SIZE,), np.int64)
    C[C_GEN] = 1
    C[C_MAXNODES] = max_nodes
    C[C_OUTCAP] = outcome_cap
    C[C_GROWAT] = 1 << 62
    C[C_TTMIN] = 2
    C[C_LEAN] = LEAN_DEFAULT
    C[C_LEXACT] = LEXACT_DEFAULT
    C[C_BGEN] = 1
    return C


#: bytes an entry of the transposition table takes
ENTRY_BYTES = 32
#: tables of more entries than this (8 MB) prefetch the children's buckets
PREFETCH_ENTRIES = 1 << 18
#: generations wrap here; the table is cleared then
MAX_GEN = (1 << 22) - 1


def new_table(entries: int) -> tuple[np.ndarray, np.ndarray]:
    """A transposition table ``(TT, TF)`` of at least 2 and at most
    ``entries`` entries (a power of two); pages are committed only as
    entries are written."""
    n = 2
    while n * 2 <= entries:
        n *= 2
    TT = zeroed((n, 4), np.uint64)
    return TT, TT.view(np.float64)


#: columns of the children scratch after a child row: the child's two table
#: hashes (:func:`solver.engine.core.state_key`), then its two group hashes
#: (:func:`solver.engine.core.group_key`; 0 without groups) as its parent
#: computed them
#: for the prefetch of its bucket, passed down so that the child does not
#: hash itself again (a chance node keeps its next outcomes' hashes in its
#: own ply's rows, which it does not otherwise use)
K_KEY = K_COLS


def new_scratch(lines: int = 0) -> np.ndarray:
    """Per-ply scratch for the children rows (and their order, row
    MAX_MOVES); with ``lines`` (a power of two) the plies past ``MAXPLY``
    hold a line cache of that many entries (the match objective's last
    deal, :func:`solver.engine.endgame.match_cached`)."""
    shape = (MAXPLY, MAX_MOVES + 1, max(K_KEY + 4, MAX_MOVES))
    if lines <= 0:
        return np.zeros(shape, dtype=np.int64)
    per = shape[1] * shape[2]
    extra = -(-endgame.scratch_words(lines) // per)
    S = np.zeros((MAXPLY + extra,) + shape[1:], dtype=np.int64)
    endgame.scratch_lines(S, lines)
    return S


_LOW32 = np.uint64(0xFFFFFFFF)
_S32 = np.uint64(32)


@per_node()
def _meta(TT, j):
    return np.int64(TT[j, 1] & _LOW32)


@intrinsic
def _bits(typingctx, x):
    """The bits of a float64 as a uint64 (no conversion)."""
    sig = types.uint64(types.float64)

    def codegen(context, builder, signature, args):
        return builder.bitcast(args[0], context.get_value_type(types.uint64))
    return sig, codegen


@intrinsic
def fence(typingctx):
    """A full memory fence: no load or store moves across it (neither by
    the compiler nor by the processor); for the board shared by threads."""
    sig = types.void()

    def codegen(context, builder, signature, args):
        builder.fence("seq_cst")
        return context.get_dummy_value()
    return sig, codegen


@per_node()
def _post(C, st):
    """Post the chance node ``st`` on this thread's board (sequence lock:
    written while the generation is odd, readable once it is even); its
    outcome i is claim ``C[C_BBASE] + i``."""
    fence()
    for q in range(NSTATE):
        C[C_BSTATE + q] = st[q]
    C[C_BBASE] = C[C_BCLAIM]
    fence()
    C[C_BGEN] += 1
    fence()


@intrinsic
def fetch_add(typingctx, arr, i, v):
    """Atomically add ``v`` to ``arr[i]`` (int64), returning the value
    before: a claim that no other thread gets."""
    sig = types.int64(arr, i, v)

    def codegen(context, builder, signature, args):
        aty = signature.args[0]
        ary = context.make_array(aty)(context, builder, args[0])
        ptr = cgutils.get_item_pointer(context, builder, aty, ary, [args[1]])
        return builder.atomic_rmw("add", ptr, args[2], "seq_cst")
    return sig, codegen


@per_node()
def board_cap(C):
    """The outcomes a posted chance node of this thread may have (0: the
    counters have no board)."""
    return BOARD_CAP if C.shape[0] >= C_BOARD_SIZE else 0


@per_node()
def _unpost(C):
    fence()
    C[C_BGEN] += 1
    fence()


@intrinsic
def borrow(typingctx, arr):
    """The same array without its reference count (a view whose meminfo is
    null): numba counts references to every array passed to a function,
    one atomic instruction each way, several times a node; a search's
    arrays outlive the kernel call that borrows them, so its recursion
    passes borrowed views and skips that work."""
    if not isinstance(arr, types.Array):
        return None
    sig = arr(arr)

    def codegen(context, builder, signature, args):
        aty = signature.args[0]
        src = context.make_array(aty)(context, builder, args[0])
        out = context.make_array(aty)(context, builder)
        null = cgutils.get_null_value(src.meminfo.type)
        cgutils.copy_struct(out, src)
        out.meminfo = null
        out.parent = cgutils.get_null_value(src.parent.type)
        return out._getvalue()
    return sig, codegen


@intrinsic
def _float(typingctx, x):
    """The float64 whose bits a uint64 holds."""
    sig = types.float64(types.uint64)

    def codegen(context, builder, signature, args):
        return builder.bitcast(args[0], context.get_value_type(types.float64))
    return sig, codegen


_SM1 = np.uint64(0xFF51AFD7ED558CCD)
_SM2 = np.uint64(0xC4CEB9FE1A85EC53)
_S33 = np.uint64(33)


@per_node()
def bucket(T, key):
    """The first row of ``key``'s bucket in the table ``T`` (two entries a
    bucket, a power of two of them)."""
    return np.int64(key & np.uint64((T.shape[0] >> 1) - 1)) << 1


@per_node()
def _mix(h):
    h ^= h >> _S33
    h *= _SM1
    h ^= h >> _S33
    h *= _SM2
    h ^= h >> _S33
    return h


@per_node()
def _seal(w1, w2, w3):
    """What the key word is XORed with: the other three words through a
    full mixing function (murmur3's finaliser). Anything weaker lets torn
    mixes of two entries pass: a plain XOR cancels for exact entries
    (lower == upper), and odd multipliers cancel a sign flip (v and -v
    differ only in the top bit, which a product keeps in the top bit)."""
    return _mix(w1 ^ _mix(w2 ^ _mix(w3)))


@per_node()
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
            # first slot, the old first entry moves to the second (a copy
            # torn by another thread fails its check and reads as empty)
            C[C_REPLACED] += 1
            for q in range(4):
                TT[slot + 1, q] = TT[slot, q]
            j = slot
        else:
            C[C_REPLACED] += 1
            j = slot + 1
    w1 = (chk << _S32) | np.uint64((move + 1) | (work << 4) | (gen << 10))
    w2 = _bits(lo)
    w3 = _bits(hi)
    # lockless (Hyatt): in a table shared between threads the key word is
    # sealed with the others as written, so an entry torn by two threads
    # writing at once fails its check (a private table needs only w1)
    TT[j, 1] = w1
    TT[j, 2] = w2
    TT[j, 3] = w3
    TT[j, 0] = key ^ (_seal(w1, w2, w3) if C[C_SHARED] != 0 else w1)


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
        key = TT[i, 0] ^ (_seal(TT[i, 1], TT[i, 2], TT[i, 3]) if C[C_SHARED] != 0 else TT[i, 1])
        slot = bucket(NT, key)
        _store(NT, NF, C, slot, -1, key, TT[i, 1] >> _S32, TF[i, 2], TF[i, 3],
               (meta & 15) - 1, (meta >> 4) & 63)


#: bytes a cached outcome takes (a probability and a deal row)
OUTCOME_BYTES = 8 + 8 * 9


def new_outcome_cache(outcomes: int, keys: int = 1 << 12):
    """An outcome cache for ``outcomes`` deal rows under ``keys`` stocks:
    ``(OK, OP, OR)``, OK the open-addressing map stock + 1 -> (start,
    count), OP and OR the probabilities and deal rows
    (:func:`solver.engine.core.deal_table`)."""
    from ..engine.core import DR_COLS
    n = max(1, outcomes)
    return (np.zeros((keys, 3), dtype=np.int64), zeroed((n,), np.float64),
            zeroed((n, DR_COLS), np.int64))


def new_sample_buffers(spec) -> tuple:
    """A sampling thread's buffers besides its tables, for the draws of
    ``spec`` (a :class:`solver.engine.sampling.DrawSpec`): ``(OK, OP, OR,
    D, stock, work)``, a small outcome cache, the deal table of the drawn
    stock, the drawn stock and the pool's work array."""
    from ..engine.core import D_COLS
    return (*new_outcome_cache(1, 2),
            np.zeros((spec.nstock + 1, D_COLS), dtype=np.int64),
            np.zeros(max(spec.nstock, 1), dtype=np.int64),
            np.zeros(max(len(spec.pool), 1), dtype=np.int64))


@njit(cache=True)
def _outcomes(P, st, C, OK, OP, OR):
    """The deal rows of chance node ``st``: ``(probs, rows, start, count)``
    from the cache when its stock was met before, else made by the game
    (and cached while there is room); count 0 past the outcome cap. The
    outcomes depend on the stock only, and a search meets few stocks."""
    stock = st[9]
    m = OK.shape[0]
    h = np.int64(_mix(np.uint64(stock)) & np.uint64(m - 1))
    for _ in range(m):
        if OK[h, 0] == stock + 1:
            return OP, OR, OK[h, 1], OK[h, 2]
        if OK[h, 0] == 0:
            break
        h = (h + 1) & (m - 1)
    probs, rows = deal_table(P, st, C[C_OUTCAP])
    k = probs.shape[0]
    used = C[C_OUSED]
    if k > 0 and OK[h, 0] == 0 and used + k <= OP.shape[0] and C[C_OKEYS] < m // 2:
        for i in range(k):
            OP[used + i] = probs[i]
            for q in range(rows.shape[1]):
                OR[used + i, q] = rows[i, q]
        OK[h, 0] = stock + 1
        OK[h, 1] = used
        OK[h, 2] = k
        C[C_OUSED] = used + k
        C[C_OKEYS] += 1
    return probs, rows, 0, k


#: outcomes of a chance node whose children's buckets are asked for ahead
PREFETCH_AHEAD = 8


@per_node()
def _child_keys(TT, G, ch, groups):
    """Ask for the table bucket of the child state ``ch`` (and its group's
    bucket when ``groups``); its hashes, for the child's own search."""
    if groups:
        ck, cc, gk, gc = state_keys(ch)
        _prefetch_group(G, _group_row(G, gk))
    else:
        ck, cc = state_key(ch)
        gk = NOKEY
        gc = NOKEY
    _prefetch(TT, bucket(TT, ck))
    return ck, cc, gk, gc


@per_node()
def _prefetch_child(P, TT, G, st, rows, i, groups):
    """:func:`_child_keys` of the chance node ``st``'s outcome ``i``."""
    return _child_keys(TT, G, dealt_child(P, st, rows, i), groups)


@per_node()
def _keep_key(K, ply, r, key, chk, gk, gc):
    """Keep a child's hashes in columns ``K_KEY..`` of its scratch row."""
    K[ply, r, K_KEY] = np.int64(key)
    K[ply, r, K_KEY + 1] = np.int64(chk)
    K[ply, r, K_KEY + 2] = np.int64(gk)
    K[ply, r, K_KEY + 3] = np.int64(gc)


@per_node()
def _kept_key(K, ply, r):
    return (np.uint64(K[ply, r, K_KEY]), np.uint64(K[ply, r, K_KEY + 1]),
            np.uint64(K[ply, r, K_KEY + 2]), np.uint64(K[ply, r, K_KEY + 3]))


@per_node()
def row_state(K, ply, r):
    """The state in row ``r`` of ply ``ply`` of the children scratch
    (its first ``NSTATE`` words)."""
    return (K[ply, r, 0], K[ply, r, 1], K[ply, r, 2], K[ply, r, 3], K[ply, r, 4],
            K[ply, r, 5], K[ply, r, 6], K[ply, r, 7], K[ply, r, 8], K[ply, r, 9],
            K[ply, r, 10])


@per_node()
def kid_state(kids, i):
    """The state in row ``i`` of a 2-D array of states (an outcome list)."""
    return (kids[i, 0], kids[i, 1], kids[i, 2], kids[i, 3], kids[i, 4], kids[i, 5],
            kids[i, 6], kids[i, 7], kids[i, 8], kids[i, 9], kids[i, 10])


@per_node()
def order_children(K, ply, n, first):
    """The search order of the ``n`` children at ``ply`` into row
    MAX_MOVES of the ply's scratch: the ordering guess, then the gain, then
    the higher rank (the reference's reverse sort of its tuples), the
    table's move ``first`` (-1: none) first."""
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


@per_node("float64(int64[::1], int64[:, ::1], int64[:, :, ::1], int64[::1], int64, "
          "UniTuple(int64, 11), float64, float64)")
def last_deal(P, D, K, C, ply, st, alpha, beta):
    """:func:`negamax` of a state of the last deal (no chance node below):
    plain alpha-beta, fail-soft, without the transposition table (no key,
    no probe, no store), the children ordered as :func:`negamax` orders
    them. Its values are those of :func:`negamax` (integers in the game's
    unit: no expectation below), for every rule system the two-sided
    kernel plays (the children and the leaves come from the game's
    ``gen_children``), through the game's own last-deal solver where it has
    one (:mod:`solver.engine.endgame`: two sides, points or the match)."""
    if endgame.covers(P):
        a = -LEAN_INF if alpha < -LEAN_INF else np.int64(np.floor(alpha))
        b = LEAN_INF if beta > LEAN_INF else np.int64(np.ceil(beta))
        n0 = C[C_LNODES]
        v = endgame.solve(P, D, K, C, C_LNODES, ply, st, a, b)
        C[C_NODES] += C[C_LNODES] - n0
        return float(v)
    C[C_NODES] += 1
    C[C_LNODES] += 1
    n = gen_children(P, D, K, ply, st)
    pr = MAX_MOVES
    order_children(K, ply, n, -1)
    best = -INF
    for j in range(n):
        r = K[ply, pr, j]
        gain = float(K[ply, r, K_GAIN])
        if K[ply, r, K_KIND] == KIND_LEAF:
            v = gain
        else:
            child = row_state(K, ply, r)
            v = gain - last_deal(P, D, K, C, ply + 1, child, gain - beta, gain - alpha)
        if v > best:
            best = v
            if v > alpha:
                alpha = v
                if alpha >= beta:
                    break
    return best


@per_node()
def _match_last_chance(P, D, K, C, ply, st, probs, rows, start, k):
    """The exact value of the last chance node ``st`` of the match objective
    (two sides, a line cache in the scratch ``K``; its ``k`` outcomes the
    rows ``start..`` of ``rows``): the sum over the outcomes of probability
    times (the deal's gain + the outcome's value for its mover), each
    outcome's 6-card state valued from its lines' tree as
    :func:`last_deal` values it (:func:`solver.engine.endgame.match_cached`,
    the same nodes counted), with each state's child and cards' hash made
    once, the next outcome's tree entry asked for while this one is valued,
    and the scratch's words viewed once a node."""
    F = K.reshape(-1)
    base = MAXPLY * K.shape[1] * K.shape[2]
    imm = P[P_IMMEDIATE] != 0
    child = dealt_child(P, st, rows, start)
    a, b = _cards_key(child, True)
    e = endgame.tree_entry(F, base, a)
    total = 0.0
    for i in range(k):
        nchild = child
        nb = b
        ne = e
        if i + 1 < k:
            nchild = dealt_child(P, st, rows, start + i + 1)
            na, nb = _cards_key(nchild, True)
            ne = endgame.tree_entry(F, base, na)
            for j in range(0, endgame.BIG_COLS, 8):
                _prefetch(F, ne + j)
        if imm and won_by(P, child[10]) >= 0:
            v = leaf_value(P, child[10], P[P_SIDE + child[5]])
        else:
            n0 = C[C_LNODES]
            v = endgame.tree_value(P, D, K, F, C, C_LNODES, ply + 1, child, e, b,
                                   -LEAN_INF, LEAN_INF)
            C[C_NODES] += C[C_LNODES] - n0
        total += probs[start + i] * (float(rows[start + i, DR_GAIN]) + float(v))
        child = nchild
        b = nb
        e = ne
    return total


#: entries a bucket of the group table (:func:`new_groups`)
GROUP_SLOTS = 4
_LOW24 = np.uint64(0xFFFFFF)
#: an entry's group word (below bit 60: :func:`solver.engine.core.group_word`)
#: and its best move + 1 (bits 60-63)
_S60 = np.uint64(60)
_X60 = np.uint64((1 << 60) - 1)


def new_groups(rows: int) -> np.ndarray:
    """A group table of at most ``rows`` entries (a power of two of
    buckets of ``GROUP_SLOTS``, and a header; fewer than two buckets'
    worth: none, the bounds off): each entry a state's bounds under its group's hash
    (:func:`solver.engine.core.group_key`), ``(verification word with the
    generation in its low 24 bits, group word and best move, lower,
    upper)``, the newest of a
    bucket first; row 0 holds the last generation stored (a generation
    that went back, the table cleared: the table is cleared)."""
    nb = 1
    while nb * 2 * GROUP_SLOTS <= rows:
        nb *= 2
    if rows < 2 * GROUP_SLOTS:
        nb = 0
    return zeroed(((nb + 1) * GROUP_SLOTS, 4), np.uint64)


@per_node()
def groups_on(P, G):
    """Whether the search bounds states by their groups (the game allows it,
    ``CANON_DOMINANCE``, and there is a group table)."""
    return (P[P_CANON] & CANON_DOMINANCE) != 0 and G.shape[0] >= 2 * GROUP_SLOTS


@per_node()
def groups_fresh(G, C):
    """At a search's start: clear the group table if the generation went
    back (the transposition table was cleared and the count restarted),
    so that no old entry passes for the current generation's."""
    if G.shape[0] < 2 * GROUP_SLOTS:
        return
    gen = np.uint64(C[C_GEN])
    if G[0, 0] > gen:
        G[:, :] = 0
    G[0, 0] = gen


@njit(cache=True, inline='always')
def _group_row(G, gk):
    """The first row of the bucket of group hash ``gk``."""
    nb = G.shape[0] // GROUP_SLOTS - 1
    return (1 + np.int64(gk & np.uint64(nb - 1))) * GROUP_SLOTS


@njit(cache=True, inline='always')
def _prefetch_group(G, row):
    """Ask for the bucket at ``row``: its ``GROUP_SLOTS`` entries span two
    cache lines (the probe reads every entry's tag)."""
    _prefetch(G, row)
    _prefetch(G, row + GROUP_SLOTS - 1)


@njit(cache=True, inline='always')
def _group_tag(C, gc):
    return (gc & ~_LOW24) | np.uint64(C[C_GEN])


@njit(cache=True, inline='always')
def group_bounds(P, G, C, st, row, gc):
    """Sure bounds ``(lo, hi)`` on ``st``'s value from its group's entries
    (its bucket at ``row``, verification hash ``gc``): a state at least as
    good for the mover bounds it from above, one at most as good from
    below (:func:`solver.engine.core.dominance`); and the best move of the
    newest entry that has one (-1: none), a guess for the first move (the
    same cards at other scores)."""
    lo = -INF
    hi = INF
    move = -1
    tag = _group_tag(C, gc)
    for j in range(row, row + GROUP_SLOTS):
        if G[j, 0] != tag:
            continue
        if move < 0:
            move = np.int64(G[j, 1] >> _S60) - 1
        d = dominance(P, st, np.int64(G[j, 1] & _X60))
        if d & 1:
            h = _float(G[j, 3])
            if h < hi:
                hi = h
        if d & 2:
            v = _float(G[j, 2])
            if v > lo:
                lo = v
    return lo, hi, move


@njit(cache=True, inline='always')
def group_store(G, C, st, row, gc, lo, hi, move):
    """Keep ``st``'s bounds and best move (-1: none) in its group's bucket:
    over its own entry, else as the newest (the oldest dropped)."""
    tag = _group_tag(C, gc)
    x = np.uint64(group_word(st))
    j = -1
    for q in range(row, row + GROUP_SLOTS):
        if G[q, 0] == tag and (G[q, 1] & _X60) == x:
            j = q
            break
    if j < 0:
        for q in range(row + GROUP_SLOTS - 1, row, -1):
            for w in range(4):
                G[q, w] = G[q - 1, w]
        j = row
    G[j, 0] = tag
    G[j, 1] = x | (np.uint64(move + 1) << _S60)
    G[j, 2] = _bits(lo)
    G[j, 3] = _bits(hi)


SIG = ("float64(int64[::1], int64[:, ::1], int64[:, :, ::1], uint64[:, ::1], float64[:, ::1], "
       "int64[::1], int64[:, ::1], float64[::1], int64[:, ::1], uint64[:, ::1], int64, "
       "UniTuple(int64, 11), "
       "float64, float64, uint64, uint64, uint64, uint64)")

#: the hashes argument of :func:`negamax` when the caller has none
NOKEY = np.uint64(0)


@njit(cache=True, inline='always')
def _star1_window(alpha, beta, total, known, other, p, g, big_l, big_u):
    """Ballard's Star1 for one outcome of a chance node (probability ``p``,
    gain ``g``), the outcomes summed so far ``total + known`` and the
    others (probability ``other``) at the node's sure bounds ``big_l,
    big_u``: ``(cut, value, lo_c, hi_c, cut_low, cut_high)``. ``cut`` -1:
    the node is at most alpha whatever the outcome gives (``value`` its
    upper bound), +1: at least beta (``value`` its lower bound); 0: search
    the child in ``(lo_c, hi_c)`` (its own frame), whose ends are cuts
    (``cut_low``, ``cut_high``) or the sure bounds."""
    # x = g + value(child) must exceed a_i for the node to exceed alpha,
    # and reaching b_i makes it reach beta
    a_i = (alpha - total - known - other * big_u) / p
    b_i = (beta - total - known - other * big_l) / p
    if a_i >= big_u:            # even x = U leaves the node <= alpha
        return -1, total + known + (p + other) * big_u, 0.0, 0.0, False, False
    if b_i <= big_l:            # even x = L lifts it to >= beta
        return 1, total + known + (p + other) * big_l, 0.0, 0.0, False, False
    cut_low = a_i > big_l       # the window's ends are cuts,
    cut_high = b_i < big_u      # else they are sure bounds
    lo_c = (a_i if cut_low else big_l) - g
    hi_c = (b_i if cut_high else big_u) - g
    if lo_c >= hi_c:            # rounding: search it exactly
        return 0, 0.0, big_l - g, big_u - g, False, False
    return 0, 0.0, lo_c, hi_c, cut_low, cut_high


@njit(cache=True, inline='always')
def _star1_child(cr, lo_c, hi_c, cut_low, cut_high, total, known, other, p, g, big_l, big_u):
    """The child's fail-soft value ``cr`` in :func:`_star1_window`'s
    window: ``(cut, value, x)``, a cut as there (the node's bound in
    ``value``), else ``x`` the outcome's value for the sum (a sure bound
    where the child reached it)."""
    if cr >= hi_c:
        if cut_high:            # x >= b_i: the node >= beta
            return 1, total + known + p * (g + cr) + other * big_l, 0.0
        return 0, 0.0, big_u    # a sure upper bound reached
    if cr <= lo_c:
        if cut_low:             # x <= a_i: the node <= alpha
            return -1, total + known + p * (g + cr) + other * big_u, 0.0
        return 0, 0.0, big_l    # a sure lower bound reached
    return 0, 0.0, g + cr


@njit(cache=True, inline='always')
def _star1_cut(cut, value, lo, hi, alpha, beta):
    """A Star1 cut's result and the node's bounds: ``(result, lo, hi)``."""
    if cut < 0:
        if value < hi:
            hi = value
        return (alpha if value > alpha else value), lo, hi
    if value > lo:
        lo = value
    return (beta if value < beta else value), lo, hi


@njit(SIG, cache=True)
def negamax(P, D, K, TT, TF, C, OK, OP, OR, G, ply, st, alpha, beta, hk, hc, hg, hgc):
    """The value of ``st`` for the side to move, fail-soft: exact inside
    ``(alpha, beta)``, a bound on the right side outside. A chance node
    averages its outcomes (Ballard's Star1 with the game's sure bounds).
    ``hk, hc``: the state's two hashes (:func:`solver.engine.core.state_key`)
    when the caller computed them, else both 0 (``NOKEY``), and ``hg,
    hgc`` its group hashes (:func:`solver.engine.core.group_key`) when the
    caller computed them with groups on. ``G``: the
    thread's group table (:func:`new_groups`), whose entries bound a state
    by the same cards' states that are better or worse for its mover
    (the match objective, :func:`solver.engine.core.dominance`)."""
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
    if not chance and work <= C[C_LEAN] and is_last_deal(P, st):
        C[C_NODES] -= 1         # counted by last_deal
        return last_deal(P, D, K, C, ply, st, alpha, beta)
    use_tt = chance or work > C[C_TTMIN]
    found = -1
    first = -1
    key = np.uint64(0)
    chk = np.uint64(0)
    slot = 0
    grow = -1
    gc = np.uint64(0)
    groups = groups_on(P, G)
    if use_tt:
        if hk != 0 or hc != 0:
            key = hk
            chk = hc
            if groups:
                gk = hg
                gc = hgc
                if hg == 0 and hgc == 0:
                    gk, gc = group_key(st)
                grow = _group_row(G, gk)
        elif groups:
            key, chk, gk, gc = state_keys(st)
            grow = _group_row(G, gk)
            _prefetch_group(G, grow)
        else:
            key, chk = state_key(st)
        chk = chk >> _S32
        slot = bucket(TT, key)
        gen = np.uint64(C[C_GEN])
        # read each entry once, check it, use only what was read (another
        # thread may be writing it)
        for j in range(slot, slot + 2):
            w0 = TT[j, 0]
            w1 = TT[j, 1]
            w2 = TT[j, 2]
            w3 = TT[j, 3]
            if ((w1 >> _S32) == chk and ((w1 & _LOW32) >> np.uint64(10)) == gen
                    and (w0 ^ (_seal(w1, w2, w3) if C[C_SHARED] != 0 else w1)) == key):
                found = j
                lo = _float(w2)
                hi = _float(w3)
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
            # bounds crossed by rounding (the same expected value summed
            # along two paths): the value lies inside the window and is
            # known to rounding; an inverted window would break alpha-beta
            C[C_HITS] += 1
            return lo
    else:
        lo = -INF
        hi = INF
    big_l = -INF
    big_u = INF
    if chance:
        big_l, big_u = chance_bounds(P, st)
        if found < 0:
            lo = big_l
            hi = big_u
    if grow >= 0:
        # the bounds of the states of the same cards better or worse for
        # the mover, used as the table's (the window narrowed to them)
        glo, ghi, gmove = group_bounds(P, G, C, st, grow, gc)
        if first < 0:
            first = gmove
        if glo > lo:
            lo = glo
        if ghi < hi:
            hi = ghi
        if lo >= beta or lo >= hi:
            C[C_HITS] += 1
            return lo
        if hi <= alpha:
            C[C_HITS] += 1
            return hi
        if lo > alpha:
            alpha = lo
        if hi < beta:
            beta = hi

    if chance:
        if found < 0:
            if hi <= alpha:
                return hi
            if lo >= beta:
                return lo
        if beta - alpha < 1e-7:
            # narrower than the rounding of the Star1 windows: widen (safe)
            alpha -= 1e-7
            beta += 1e-7
        probs, rows, start, k = _outcomes(P, st, C, OK, OP, OR)
        if k == 0:
            C[C_ABORT] = ABORT_OUTCOMES
            return 0.0
        if k > C[C_MAXOUT]:
            C[C_MAXOUT] = k
        if (work <= C[C_LEXACT] and endgame.exact_last_chance(P, K)
                and is_last_deal(P, dealt_child(P, st, rows, start))):
            # the last chance node: every outcome solved exactly without the
            # table (a few cards each), the node's exact value stored once
            # (no Star1: its cuts left bounds that later visits searched
            # again; docs/performance.md). Only where the game says it pays:
            # voleur loses more by the table's transpositions than it gains;
            # the match objective pays with its line cache (the outcomes'
            # lines kept under their cards, endgame.match_cached)
            if endgame.trees_on(P, K):
                # (the match objective: its outcomes' trees in the line cache)
                total = _match_last_chance(P, D, K, C, ply, st, probs, rows, start, k)
            else:
                total = 0.0
                for i in range(k):
                    child = dealt_child(P, st, rows, start + i)
                    total += probs[start + i] * (float(rows[start + i, DR_GAIN]) + last_deal(
                        P, D, K, C, ply + 1, child, -INF, INF))
            _store(TT, TF, C, slot, found, key, chk, total, total, -1, work)
            if grow >= 0:
                group_store(G, C, st, grow, gc, total, total, -1)
            return total
        total = 0.0
        rest = 1.0
        done = False
        result = 0.0
        if C[C_PARMIN] != 0 and work >= C[C_PARMIN] and k <= board_cap(C):
            # posted for the helpers (solver.search.parallel): this thread
            # and the helpers take the outcomes by claims, most probable
            # first; a helper solves its outcome exactly (the sure bounds)
            # into the shared table and notes it on the board. This thread
            # sums the outcomes in order as one thread does (the prefix
            # ``total``, the same floats): one of its own searched out of
            # order waits in the board (``known``), a helper's is read
            # from the table when noted (a table hit), or searched here when
            # no claim is left. The unknown ones count at the sure bounds
            # (Star1 with the known ones)
            _post(C, st)
            gg = C[C_BGEN]
            base = C[C_BBASE]
            known = 0.0
            known_p = 0.0
            nxt = 0
            claims = True
            while True:
                while nxt < k and C[C_BOWN + nxt] == gg:
                    p = probs[start + nxt]
                    x = _float(np.uint64(C[C_BVAL + nxt]))
                    known -= p * x
                    known_p -= p
                    total += p * x
                    rest -= p
                    if rest < 1e-12:
                        rest = 0.0
                    nxt += 1
                if nxt >= k:
                    break
                c = nxt
                if claims and C[C_BDONE + ((base + nxt) & (BOARD_CAP - 1))] != base + nxt + 1:
                    c = fetch_add(C, C_BCLAIM, 1) - base
                    if c >= k:
                        claims = False
                        c = nxt
                p = probs[start + c]
                g = float(rows[start + c, DR_GAIN])
                other = rest - known_p - p
                if other < 1e-12:
                    other = 0.0
                cut, v, lo_c, hi_c, cut_low, cut_high = _star1_window(
                    alpha, beta, total, known, other, p, g, big_l, big_u)
                if cut == 0:
                    child = dealt_child(P, st, rows, start + c)
                    cr = negamax(P, D, K, TT, TF, C, OK, OP, OR, G, ply + 1, child,
                                 lo_c - MARGIN, hi_c + MARGIN, NOKEY, NOKEY, NOKEY, NOKEY)
                    if C[C_ABORT] != 0:
                        _unpost(C)
                        return 0.0
                    cut, v, x = _star1_child(cr, lo_c, hi_c, cut_low, cut_high, total, known,
                                             other, p, g, big_l, big_u)
                if cut != 0:
                    C[C_CUTS] += 1
                    result, lo, hi = _star1_cut(cut, v, lo, hi, alpha, beta)
                    done = True
                    break
                if c == nxt:
                    total += p * x
                    rest -= p
                    if rest < 1e-12:
                        rest = 0.0
                    nxt += 1
                else:
                    C[C_BVAL + c] = np.int64(_bits(x))
                    C[C_BOWN + c] = gg
                    known += p * x
                    known_p += p
            _unpost(C)
            if not done:
                result = total
                lo = total
                hi = total
            _store(TT, TF, C, slot, found, key, chk, lo, hi, -1, work)
            if grow >= 0:
                group_store(G, C, st, grow, gc, lo, hi, -1)
            return result
        # a table larger than the caches: ask for the buckets of the next
        # outcomes' children while this one is searched (most of them are
        # table hits, each a cache miss otherwise)
        ahead = PREFETCH_AHEAD if TT.shape[0] > PREFETCH_ENTRIES else 0
        # (the hashes of the outcomes asked for kept in this ply's rows,
        # outcome i in row i % ahead, for the outcome's search)
        for i in range(min(k, ahead)):
            ck, cc, cg, cgc = _prefetch_child(P, TT, G, st, rows, start + i, groups)
            _keep_key(K, ply, i, ck, cc, cg, cgc)
        for i in range(k):
            nk = NOKEY
            nc = NOKEY
            ng = NOKEY
            ngc = NOKEY
            if ahead > 0:
                nk, nc, ng, ngc = _kept_key(K, ply, i % ahead)
                if i + ahead < k:
                    ck, cc, cg, cgc = _prefetch_child(P, TT, G, st, rows, start + i + ahead,
                                                      groups)
                    _keep_key(K, ply, i % ahead, ck, cc, cg, cgc)
            p = probs[start + i]
            g = float(rows[start + i, DR_GAIN])
            rest -= p
            if rest < 1e-12:
                rest = 0.0
            # Star1: the outcome's x = g + value(child) judged against the
            # window with the others at their sure bounds (_star1_window)
            cut, v, lo_c, hi_c, cut_low, cut_high = _star1_window(
                alpha, beta, total, 0.0, rest, p, g, big_l, big_u)
            if cut == 0:
                child = dealt_child(P, st, rows, start + i)
                # searched a margin wider, judged in its own frame
                cr = negamax(P, D, K, TT, TF, C, OK, OP, OR, G, ply + 1, child, lo_c - MARGIN,
                             hi_c + MARGIN, nk, nc, ng, ngc)
                if C[C_ABORT] != 0:
                    return 0.0
                cut, v, x = _star1_child(cr, lo_c, hi_c, cut_low, cut_high, total, 0.0, rest,
                                         p, g, big_l, big_u)
            if cut != 0:
                C[C_CUTS] += 1
                result, lo, hi = _star1_cut(cut, v, lo, hi, alpha, beta)
                done = True
                break
            total += p * x
        if not done:
            result = total
            lo = total
            hi = total
        _store(TT, TF, C, slot, found, key, chk, lo, hi, -1, work)
        if grow >= 0:
            group_store(G, C, st, grow, gc, lo, hi, -1)
        return result

    # (the match objective's generator called here, not through
    # gen_children's dispatch: a call a node less)
    if P[P_MATCH] != 0:
        n = gen_children_match(P, D, K, ply, st)
    else:
        n = gen_children(P, D, K, ply, st)
    # order: the ordering guess, then the gain, then the higher rank
    # (the reference's reverse sort of its tuples), the table's move first;
    # the permutation lives in row MAX_MOVES of the ply's scratch
    pr = MAX_MOVES
    order_children(K, ply, n, first)
    # a table larger than the caches: ask for the children's buckets
    # together, so that their misses overlap instead of stalling one child
    # after another (12% less time a node at 12 and 18 unseen,
    # docs/performance.md)
    # (each child's hashes kept for its own search: NOKEY where not hashed)
    pf = TT.shape[0] > PREFETCH_ENTRIES
    for j in range(n if pf else 0):
        r = K[ply, pr, j]
        ck = NOKEY
        cc = NOKEY
        cg = NOKEY
        cgc = NOKEY
        if K[ply, r, K_KIND] != KIND_LEAF:
            ch = row_state(K, ply, r)
            wc = work_left(P, ch)
            if is_chance(P, ch) or (wc > C[C_TTMIN] and not (
                    wc <= C[C_LEAN] and is_last_deal(P, ch))):
                ck, cc, cg, cgc = _child_keys(TT, G, ch, groups)
        _keep_key(K, ply, r, ck, cc, cg, cgc)
    alpha0 = alpha
    margin = MARGIN if has_chance(P) else 0.0
    best = -INF
    best_move = -1
    for j in range(n):
        r = K[ply, pr, j]
        gain = float(K[ply, r, K_GAIN])
        if K[ply, r, K_KIND] == KIND_LEAF:
            v = gain
        else:
            child = row_state(K, ply, r)
            # the window the child needs, in its frame; it searches one a
            # margin wider and is judged against the one it needs
            c_lo = gain - beta
            c_hi = gain - alpha
            nk = NOKEY
            nc = NOKEY
            ng = NOKEY
            ngc = NOKEY
            if pf:
                nk, nc, ng, ngc = _kept_key(K, ply, r)
            cv = negamax(P, D, K, TT, TF, C, OK, OP, OR, G, ply + 1, child, c_lo - margin,
                         c_hi + margin, nk, nc, ng, ngc)
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
    if use_tt:
        _store(TT, TF, C, slot, found, key, chk, lo, hi, best_move, work)
        if grow >= 0:
            group_store(G, C, st, grow, gc, lo, hi, best_move)
    return best


@njit(cache=True, nogil=True)
def value(P, D, K, TT, TF, C, OK, OP, OR, G, st, alpha, beta):
    """The value of ``st`` for the side to move (0 at the end of the hand),
    exact inside ``(alpha, beta)``."""
    if is_terminal(P, st):
        return 0.0
    P, D, K, TT, TF, C = borrow(P), borrow(D), borrow(K), borrow(TT), borrow(TF), borrow(C)
    OK, OP, OR, G = borrow(OK), borrow(OP), borrow(OR), borrow(G)
    groups_fresh(G, C)
    return negamax(P, D, K, TT, TF, C, OK, OP, OR, G, 0, st, alpha, beta, NOKEY, NOKEY, NOKEY,
                   NOKEY)


@njit(cache=True, nogil=True)
def root_values(P, D, K, TT, TF, C, OK, OP, OR, G, st, out, mask=(1 << MAX_MOVES) - 1):
    """Every legal move of ``st`` whose rank index is in the bit ``mask``
    scored exactly (DDS "solutions = 3"): ``out[m]`` the value of playing
    rank index ``m`` for the side to move; the other entries are left
    alone (the caller fills ``out`` with NaN). Returns the number of
    legal moves."""
    P, D, K, TT, TF, C = borrow(P), borrow(D), borrow(K), borrow(TT), borrow(TF), borrow(C)
    OK, OP, OR, G = borrow(OK), borrow(OP), borrow(OR), borrow(G)
    groups_fresh(G, C)
    n = gen_children(P, D, K, 0, st)
    # in the search's own order (the likely best first: its subtree fills
    # the table with the tightest bounds for the others'; match2 4.8% fewer
    # nodes at the median than in rank order, docs/performance.md)
    order_children(K, 0, n, -1)
    for j in range(n):
        i = K[0, MAX_MOVES, j]
        m = K[0, i, K_MOVE]
        if not (mask >> m) & 1:
            continue
        gain = float(K[0, i, K_GAIN])
        if K[0, i, K_KIND] == KIND_LEAF:
            out[m] = gain
        else:
            child = row_state(K, 0, i)
            v = negamax(P, D, K, TT, TF, C, OK, OP, OR, G, 1, child, -INF, INF, NOKEY, NOKEY,
                        NOKEY, NOKEY)
            if C[C_ABORT] != 0:
                return n
            out[m] = gain - v
    return n


@njit(cache=True, nogil=True)
def root_values_and_pv(P, D, K, TT, TF, C, OK, OP, OR, G, st, out, pv, max_plies):
    """:func:`root_values` of ``st`` (every legal move into ``out``), then
    the principal variation from ``st`` in the same call: at each ply
    every move scored exactly (the table, warm from the root's search,
    answers most of it) and the best played, the lowest rank index on a
    tie (within 1e-9), so the line depends on exact values only; to the
    end of the hand or the next chance node, at most ``max_plies``.
    ``pv[i]`` the rank index played at ply ``i``; returns the plies
    (0 when stopped by ``C[C_ABORT]``)."""
    root_values(P, D, K, TT, TF, C, OK, OP, OR, G, st, out, (1 << MAX_MOVES) - 1)
    if C[C_ABORT] != 0:
        return 0
    here = np.empty(MAX_MOVES, dtype=np.float64)
    n = 0
    cur = st
    while n < max_plies and not is_terminal(P, cur) and not is_chance(P, cur):
        if n == 0:
            for m in range(MAX_MOVES):
                here[m] = out[m]
        else:
            for m in range(MAX_MOVES):
                here[m] = np.nan
            root_values(P, D, K, TT, TF, C, OK, OP, OR, G, cur, here, (1 << MAX_MOVES) - 1)
            if C[C_ABORT] != 0:
                return 0
        top = -INF
        for m in range(MAX_MOVES):
            if not np.isnan(here[m]) and here[m] > top:
                top = here[m]
        best = -1
        for m in range(MAX_MOVES):
            if not np.isnan(here[m]) and here[m] >= top - 1e-9:
                best = m
                break
        if best < 0:
            break
        pv[n] = best
        n += 1
        cur = play(P, D, cur, best)[0]
    return n


@njit(cache=True, nogil=True)
def solve_samples(P, base, pool, hidden, known_stock, nstock, mode, cons, seeds, claim,
                  K, TT, TF, C, OK, OP, OR, D, stock, work, out, nodes, done, drawn):
    """Determinised search, one thread's share of a batch: until every
    sample of ``seeds`` is claimed, the next one claimed from the counter
    ``claim[0]`` that every thread of the batch shares (:func:`fetch_add`:
    a thread that drew short samples takes more of them, so no thread waits
    for the other at the batch's end), drawn by the game
    (:func:`solver.engine.sampling.draw`) and every root move solved
    exactly; ``out[i]`` the move values (NaN where illegal), ``nodes[i]``,
    ``done[i] = 1`` when finished, ``-1`` when the draw failed,
    ``drawn[i]`` the hands (card sets) of the determinisation. Stops at
    ``C[C_ABORT]``; a new generation per sample (no group table:
    :func:`new_groups`). A sample's values are exact, so which thread
    solves it never changes them."""
    G = np.zeros((GROUP_SLOTS, 4), dtype=np.uint64)
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
        root_values(P, D, K, TT, TF, C, OK, OP, OR, G, st, out[i], (1 << MAX_MOVES) - 1)
        if C[C_ABORT] != 0:
            return
        nodes[i] = C[C_NODES] - n0
        done[i] = 1
