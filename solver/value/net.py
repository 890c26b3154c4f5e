"""The learned value of a deal boundary, evaluated in numba.

A *boundary state* is a core state (:mod:`solver.engine.core`) with every
hand empty and a shuffled stock still to deal: the chance node at the end
of a deal. Its value is in half-points for the side to move there (the
leader of the hand, who leads every deal), from now to the end of the
hand, declarations of the deals to come included.

The model is one small multi-layer perceptron per stock size (a *level*:
the number of cards still to deal), packed into one float64 array ``VM``
so that compiled searches take it as a plain argument:

- ``VM[0]`` the layout version, ``VM[1]`` the features ``F``, ``VM[2]``
  and ``VM[3]`` the two hidden layers' widths ``H1``, ``H2``;
- ``VM[4 + k]`` for ``k`` = 0..40 the level of a stock of ``k`` cards, or
  -1 (no model: the caller searches exactly);
- then each level's block: ``W1`` (F x H1, row-major), ``b1``, ``W2``
  (H1 x H2), ``b2``, ``w3`` (H2), ``b3``; the inputs' standardisation and
  the output's scale are folded into the weights, so the raw features go
  in and half-points come out.

The features (:func:`features`) are what both players know at the
boundary: the stock by rank (the cards not yet seen by anybody: the 40
less the table and the cards gone), as counts and one-hot (0 to 4
copies), the table by rank, who captured last (the leader's side, the
other, or nobody), the table's size, and for each rank on the table the
copies left to come (as a count and one-hot), the run a capture of it
would take (the upward run, as the rules make it) and that run again
where a copy is still to come.

>>> import numpy as np
>>> vm = empty_model()
>>> int(vm[1]) == NFEAT, level_of(vm, 12)
(True, -1)
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..engine.core import NRANKS, P_BRK, P_LEADER, P_SIDE, popcount

LAYOUT = 1.0
#: the features of a boundary state (see the module docstring)
NFEAT = 143
#: entries before the first level's block
HEADER = 4 + 41


def block_size(F: int, H1: int, H2: int) -> int:
    """Entries of one level's weights."""
    return F * H1 + H1 + H1 * H2 + H2 + H2 + 1


def empty_model(H1: int = 1, H2: int = 1) -> np.ndarray:
    """A model with no level (every boundary is left to exact search)."""
    vm = np.zeros(HEADER, dtype=np.float64)
    vm[0], vm[1], vm[2], vm[3] = LAYOUT, NFEAT, H1, H2
    vm[4:] = -1
    return vm


def scratch(vm: np.ndarray) -> np.ndarray:
    """The scratch :func:`boundary_value` needs for model ``vm`` (the
    features, then each hidden layer)."""
    return np.zeros(int(vm[1] + vm[2] + vm[3]) + 1)


def level_of(vm: np.ndarray, stock: int) -> int:
    """The level of a stock of ``stock`` cards, or -1."""
    return int(vm[4 + stock])


def pack(levels: dict[int, list[np.ndarray]], H1: int, H2: int) -> np.ndarray:
    """The packed model of ``levels``: stock size -> ``[W1 (F, H1), b1,
    W2 (H1, H2), b2, w3 (H2,), b3 (scalar)]`` (raw features in,
    half-points out)."""
    vm = empty_model(H1, H2)
    blocks = []
    for i, (stock, (W1, b1, W2, b2, w3, b3)) in enumerate(sorted(levels.items())):
        vm[4 + stock] = i
        blocks.append(np.concatenate([np.asarray(W1, float).ravel(), np.asarray(b1, float),
                                      np.asarray(W2, float).ravel(), np.asarray(b2, float),
                                      np.asarray(w3, float).ravel(),
                                      np.atleast_1d(np.asarray(b3, float))]))
        assert blocks[-1].size == block_size(NFEAT, H1, H2)
    return np.concatenate([vm] + blocks)


def unpack(vm: np.ndarray) -> dict[int, list[np.ndarray]]:
    """The inverse of :func:`pack`."""
    F, H1, H2 = int(vm[1]), int(vm[2]), int(vm[3])
    size = block_size(F, H1, H2)
    out = {}
    for stock in range(41):
        lv = int(vm[4 + stock])
        if lv < 0:
            continue
        b = vm[HEADER + lv * size: HEADER + (lv + 1) * size]
        o = 0
        W1 = b[o:o + F * H1].reshape(F, H1)
        o += F * H1
        b1 = b[o:o + H1]
        o += H1
        W2 = b[o:o + H1 * H2].reshape(H1, H2)
        o += H1 * H2
        b2 = b[o:o + H2]
        o += H2
        w3 = b[o:o + H2]
        o += H2
        out[stock] = [W1, b1, W2, b2, w3, float(b[o])]
    return out


@njit(cache=True)
def features(P, st, x):
    """Write the NFEAT features of boundary state ``st`` into ``x``:
    0-9 the stock by rank, 10-19 the table by rank, 20 and 21 the last
    capture by the leader's side or the other, 22 the table's size, 23-32
    the stock's copies of each rank on the table, 33-82 the stock's count
    of each rank one-hot (``33 + 10 k + r``: k copies of rank r), 83-92
    the run a capture of each rank on the table takes, 93-102 that run
    where a copy is still to come, 103-142 each rank on the table with k
    copies to come one-hot (``103 + 10 k + r``, k = 0..3)."""
    stock = st[9]
    table = st[0]
    for i in range(NFEAT):
        x[i] = 0.0
    n = 0
    for r in range(NRANKS):
        s = popcount((stock >> (4 * r)) & 15)
        t = popcount((table >> (4 * r)) & 15)
        x[r] = s
        x[NRANKS + r] = t
        x[33 + 10 * s + r] = 1.0
        if t > 0:
            x[23 + r] = s
            if s < 4:
                x[103 + 10 * s + r] = 1.0
        n += t
    lead_side = P[P_SIDE + P[P_LEADER]]
    last = st[8]
    x[20] = 1.0 if last == lead_side else 0.0
    x[21] = 1.0 if (last >= 0 and last != lead_side) else 0.0
    x[22] = n
    for r in range(NRANKS):
        if x[NRANKS + r] > 0:
            # the capture run as the rules make it: consecutive ranks up,
            # a rank the rules break the run at (P_BRK) counting as absent
            k = r
            while k < NRANKS and x[NRANKS + k] > 0 and not (P[P_BRK + r] >> (4 * k)) & 1:
                k += 1
            x[83 + r] = k - r
            if x[r] > 0:
                x[93 + r] = k - r


def features_py(P, st) -> np.ndarray:
    """The features of one boundary state as a new array (training)."""
    x = np.zeros(NFEAT)
    features(P, tuple(int(v) for v in st), x)
    return x


@njit(cache=True)
def boundary_value(P, VM, X, st):
    """The learned value of boundary state ``st`` in half-points for its
    side to move, or NaN when ``VM`` has no level for its stock size.
    ``X``: scratch of at least ``F + H1 + H2`` entries."""
    level = np.int64(VM[4 + popcount(st[9])])
    if level < 0:
        return np.nan
    F = np.int64(VM[1])
    H1 = np.int64(VM[2])
    H2 = np.int64(VM[3])
    o = HEADER + level * (F * H1 + H1 + H1 * H2 + H2 + H2 + 1)
    features(P, st, X)
    h1 = F
    h2 = F + H1
    ob1 = o + F * H1
    for j in range(H1):
        X[h1 + j] = VM[ob1 + j]
    for f in range(F):
        xf = X[f]
        if xf != 0.0:
            row = o + f * H1
            for j in range(H1):
                X[h1 + j] += xf * VM[row + j]
    ow2 = ob1 + H1
    ob2 = ow2 + H1 * H2
    for j in range(H2):
        X[h2 + j] = VM[ob2 + j]
    for i in range(H1):
        a = X[h1 + i]
        if a > 0.0:
            row = ow2 + i * H2
            for j in range(H2):
                X[h2 + j] += a * VM[row + j]
    ow3 = ob2 + H2
    out = VM[ow3 + H2]
    for j in range(H2):
        a = X[h2 + j]
        if a > 0.0:
            out += a * VM[ow3 + j]
    return out


def predict(vm: np.ndarray, feats: np.ndarray, stock: int) -> np.ndarray:
    """The model's values (half-points) of rows of features at one stock
    size, in numpy (training and tests; the same arithmetic as
    :func:`boundary_value`)."""
    W1, b1, W2, b2, w3, b3 = unpack(vm)[stock]
    h = np.maximum(feats @ W1 + b1, 0.0)
    h = np.maximum(h @ W2 + b2, 0.0)
    return h @ w3 + b3
