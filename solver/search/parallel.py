"""Helpers for a search: other threads solving the outcomes of the chance
node the searching thread is in.

At the first chance level below the root of an expectimax search, each
outcome of a chance node is searched with a window no narrower than the
game's sure bounds (Star1 cannot cut there: the probability left is too
large), so every outcome child is an independent exact search. The
searching thread (the master, :func:`solver.search.kernels.negamax` with
``C[C_PARMIN]`` set) posts such a chance node on its board and searches its
outcomes from the most probable; a helper (:func:`serve`) takes them from
the least probable, solves each exactly under the sure bounds, and stores
the value in the shared transposition table, where the master finds it
when it gets there. They meet in the middle.

A helper's result is the exact value of a real state whatever the master
does meanwhile, so no race can make a value wrong; a race can only waste
work (an outcome solved twice, or one the master no longer needs after a
Star1 cut).
"""

from __future__ import annotations

from numba import njit

from ..engine.core import DR_GAIN, chance_bounds, dealt_child
from . import kernels as kn
from .kernels import (C_ABORT, C_BGEN, C_BNEXT, C_BSTATE, C_BSTOP, MARGIN, _outcomes, fence,
                      negamax)

#: how a helper tells the driver it has nothing left to do
SERVE_STOPPED = 0


@njit(cache=True)
def _read_board(M):
    """The chance node posted on the master's counters ``M`` and its
    generation, or generation -1 when none is posted (or it is being
    rewritten)."""
    g = M[C_BGEN]
    fence()
    st = (M[C_BSTATE], M[C_BSTATE + 1], M[C_BSTATE + 2], M[C_BSTATE + 3], M[C_BSTATE + 4],
          M[C_BSTATE + 5], M[C_BSTATE + 6], M[C_BSTATE + 7], M[C_BSTATE + 8], M[C_BSTATE + 9],
          M[C_BSTATE + 10])
    fence()
    if (g & 1) != 0 or M[C_BGEN] != g:
        return st, -1
    return st, g


@njit(cache=True, nogil=True)
def serve(P, D, K, TT, TF, C, OK, OP, OR, G, M):
    """One helper thread: until ``M[C_BSTOP]`` (or its own abort), solve the
    outcomes of the chance node posted in the master's counters ``M``,
    least probable first, while they lie beyond the one the master is
    searching; every value goes to the shared table. A helper that fills
    the table stops the master too (``ABORT_GROW``)."""
    P, D, K, TT, TF, C = kn.borrow(P), kn.borrow(D), kn.borrow(K), kn.borrow(TT), kn.borrow(TF), \
        kn.borrow(C)
    OK, OP, OR, G = kn.borrow(OK), kn.borrow(OP), kn.borrow(OR), kn.borrow(G)
    kn.groups_fresh(G, C)
    seen = -1
    while True:
        fence()
        if M[C_BSTOP] != 0 or C[C_ABORT] != 0 or M[C_ABORT] != 0:
            break
        st, g = _read_board(M)
        if g < 0 or g == seen:
            continue
        seen = g
        probs, rows, start, k = _outcomes(P, st, C, OK, OP, OR)
        big_l, big_u = chance_bounds(P, st)
        j = k - 1
        while True:
            fence()
            if j <= M[C_BNEXT] or M[C_BGEN] != g or M[C_BSTOP] != 0:
                break
            gi = float(rows[start + j, DR_GAIN])
            child = dealt_child(P, st, rows, start + j)
            negamax(P, D, K, TT, TF, C, OK, OP, OR, G, 1, child, big_l - gi - MARGIN,
                    big_u - gi + MARGIN, kn.NOKEY, kn.NOKEY, kn.NOKEY, kn.NOKEY)
            if C[C_ABORT] != 0:
                break
            j -= 1
    if C[C_ABORT] == kn.ABORT_GROW and M[C_ABORT] == 0:
        M[C_ABORT] = kn.ABORT_GROW
    return SERVE_STOPPED
