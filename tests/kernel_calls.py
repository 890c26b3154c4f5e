"""The game's last-deal solvers called from a test as the search calls
them: ``count`` the literal ``C_LNODES``, so that the call runs the
specialization the search compiled (and numba cached) when the package
was first used, not a new one. Called from Python with ``count`` an
int64, :func:`solver.engine.endgame.solve` and
:func:`solver.engine.endgame.match_cached` were compiled again, whole,
in each test process: 285 s of a fresh checkout's suite on a slow day.

Not cached on disk (``cache=False``): numba would keep the solver inlined
in these wrappers' cache files, which the package's stamp
(solver/engine/_cache.py) does not clear after an edit of the engine.
Compiled in each test process, they load the solver itself from the
package's cache, a second or two."""

from __future__ import annotations

from numba import njit

from solver.engine import endgame
from solver.search.kernels import C_LNODES


@njit(cache=False)
def solve(P, D, K, C, ply, st, alpha, beta):
    """:func:`solver.engine.endgame.solve`, its nodes counted in ``C[C_LNODES]``."""
    return endgame.solve(P, D, K, C, C_LNODES, ply, st, alpha, beta)


@njit(cache=False)
def match_cached(P, D, S, C, ply, st, alpha, beta):
    """:func:`solver.engine.endgame.match_cached`, its nodes counted in ``C[C_LNODES]``."""
    return endgame.match_cached(P, D, S, C, C_LNODES, ply, st, alpha, beta)
