"""Helpers for a search: other threads solving the outcomes of the chance
node the searching thread is in.

At the first chance level below the root of an expectimax search, the
outcomes of a chance node are independent searches. The searching thread
(the master, :func:`solver.search.kernels.negamax` with ``C[C_PARMIN]``
set) posts such a chance node on its board, and it and the helpers
(:func:`serve`) take its outcomes by claims (an atomic counter), most
probable first: a helper solves each of its outcomes exactly under the
game's sure bounds, stores the value in the shared transposition table and
notes it on the board; the master searches its own under Star1's windows
(the helpers' outcomes not yet known counted at the sure bounds) and sums
the outcomes in order, a helper's read back from the table (a hit), or
searched again when the table lost it or no claim is left.

A helper's result is the exact value of a real state whatever the master
does meanwhile, so no race can make a value wrong; a race can only waste
work (an outcome solved twice, or one the master no longer needs after a
Star1 cut: at most the one a helper is solving, where the helpers took
the least probable outcomes first before, and lost up to half of a cut
node's work; docs/performance.md).
"""

from __future__ import annotations

from numba import njit

from ..engine.core import DR_GAIN, chance_bounds, dealt_child
from . import kernels as kn
from .kernels import (BOARD_CAP, C_ABORT, C_BBASE, C_BCLAIM, C_BDONE, C_BGEN, C_BSTATE, C_BSTOP,
                      MARGIN, _outcomes, fence, fetch_add, negamax)

#: how a helper tells the driver it has nothing left to do
SERVE_STOPPED = 0


@njit(cache=True)
def _read_board(M):
    """The chance node posted on the master's counters ``M``, its first
    claim and its generation, or generation -1 when none is posted (or it
    is being rewritten)."""
    g = M[C_BGEN]
    fence()
    st = (M[C_BSTATE], M[C_BSTATE + 1], M[C_BSTATE + 2], M[C_BSTATE + 3], M[C_BSTATE + 4],
          M[C_BSTATE + 5], M[C_BSTATE + 6], M[C_BSTATE + 7], M[C_BSTATE + 8], M[C_BSTATE + 9],
          M[C_BSTATE + 10])
    base = M[C_BBASE]
    fence()
    if (g & 1) != 0 or M[C_BGEN] != g:
        return st, base, -1
    return st, base, g


@njit(cache=True, nogil=True)
def serve(P, D, K, TT, TF, C, OK, OP, OR, G, M):
    """One helper thread: until ``M[C_BSTOP]`` (or its own abort), claim
    outcomes of the chance node posted in the master's counters ``M`` and
    solve each exactly, its value to the shared table and a note on the
    board. A helper that fills the table stops the master too
    (``ABORT_GROW``). While nothing is posted it reads only the board's
    generation and stop words, which the master writes once a post (not
    the counters it writes at every node)."""
    P, D, K, TT, TF, C = kn.borrow(P), kn.borrow(D), kn.borrow(K), kn.borrow(TT), kn.borrow(TF), \
        kn.borrow(C)
    OK, OP, OR, G = kn.borrow(OK), kn.borrow(OP), kn.borrow(OR), kn.borrow(G)
    kn.groups_fresh(G, C)
    seen = -1
    while True:
        fence()
        if M[C_BSTOP] != 0 or C[C_ABORT] != 0:
            break
        st, base, g = _read_board(M)
        if g < 0 or g == seen:
            continue
        seen = g
        probs, rows, start, k = _outcomes(P, st, C, OK, OP, OR)
        big_l, big_u = chance_bounds(P, st)
        while True:
            j = fetch_add(M, C_BCLAIM, 1) - base
            if j >= k or M[C_BGEN] != g or M[C_BSTOP] != 0:
                break
            gi = float(rows[start + j, DR_GAIN])
            child = dealt_child(P, st, rows, start + j)
            negamax(P, D, K, TT, TF, C, OK, OP, OR, G, 1, child, big_l - gi - MARGIN,
                    big_u - gi + MARGIN, kn.NOKEY, kn.NOKEY, kn.NOKEY, kn.NOKEY)
            if C[C_ABORT] != 0:
                break
            fence()
            M[C_BDONE + ((base + j) & (BOARD_CAP - 1))] = base + j + 1
    if C[C_ABORT] == kn.ABORT_GROW and M[C_ABORT] == 0:
        M[C_ABORT] = kn.ABORT_GROW
    return SERVE_STOPPED
