"""The dynamic programs of match-equity tables, compiled with numba.

Everything here is indexed by the points each side still **needs** to reach
the target, from the dealer's point of view, so one table serves every
target up to its ``limit``: the win rules only compare what each side
gains in a hand with what it needs (``a' >= T`` is ``gain >= need``, and
``a' > b'`` is ``gain_a - need_a > gain_b - need_b``).

Two sides (:func:`dp_immediate`, :func:`dp_end_of_hand`): ``D[x, y]`` is
the probability that the side about to deal wins the match when it needs
``x`` points and the other side ``y`` (``1 <= x, y <= limit``). Row and
column 0 stand for a side at or over the target: ``D[0, y] = 1``,
``D[x, 0] = 0`` (that side has won) and ``D[0, 0]`` the value of equal
totals at or over the target (:func:`tie_value`), which play on. A hand
is drawn from the traces (each hand's awards in order, as ``(dealer's
side, leader's side)``); after it the leader's side deals, so the value
for the dealer is ``1 - D[y', x']``. A hand scoring nothing for anyone
leaves the needs as they were with the deal passed on: ``D[x, y]`` and
``D[y, x]`` are solved together.

Three players, end of hand (:func:`dp_three`): ``D3[x, y, z, k]`` the
probability that seat ``k`` (0 the dealer, 1 the leader, 2 the third
seat) wins when they need ``x``, ``y`` and ``z``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

#: a first-passage index for a total never reached
NEVER = 1 << 30


@njit(cache=True)
def first_passage(cum: np.ndarray, limit: int) -> np.ndarray:
    """``t[n, x]``: the first award index at which ``cum[n] >= x`` for ``x =
    1..limit`` (``t[n, 0] = -1``), NEVER if never."""
    n, k = cum.shape
    out = np.full((n, limit + 1), NEVER, np.int32)
    for i in range(n):
        out[i, 0] = -1
        x = 1
        for j in range(k):
            c = cum[i, j]
            while x <= limit and c >= x:
                out[i, x] = j
                x += 1
    return out


@njit(cache=True)
def tie_value(ga: np.ndarray, gb: np.ndarray, w: np.ndarray, end_of_hand: bool) -> float:
    """The dealer's chance from equal totals at or over the target: the
    first award that separates the sides decides (``immediate``), or the
    hand's margin (``end_of_hand``); a hand that separates nothing passes
    the deal: ``t = P(dealer ahead) + P(equal) (1 - t)``."""
    n, k = ga.shape
    win = 0.0
    eq = 0.0
    tot = 0.0
    for i in range(n):
        tot += w[i]
        d = 0
        if end_of_hand:
            for j in range(k):
                d += ga[i, j] - gb[i, j]
        else:
            for j in range(k):
                if ga[i, j] != gb[i, j]:
                    d = ga[i, j] - gb[i, j]
                    break
        if d > 0:
            win += w[i]
        elif d == 0:
            eq += w[i]
    if tot == 0:
        return 0.5
    pw = win / tot
    e = eq / tot
    return (pw + e) / (1.0 + e)


@njit(cache=True)
def _walk(ga, gb, ca, cb, j: int, x: int, y: int, tie: float) -> float:
    """Both sides reach their needs on award ``j`` of one hand (a split
    declaration): the higher total wins; equal totals go on award by award;
    still equal at the end, the leader's side deals the tie."""
    ex = ca[j] - x
    ey = cb[j] - y
    if ex != ey:
        return 1.0 if ex > ey else 0.0
    for m in range(j + 1, ga.shape[0]):
        ex += ga[m]
        ey += gb[m]
        if ex != ey:
            return 1.0 if ex > ey else 0.0
    return 1.0 - tie


@njit(cache=True)
def _solve_layer(D, part, z, s, limit):
    """``D[x, y] = part[x, y] + z (1 - D[y, x])`` for ``x + y = s``."""
    for x in range(max(1, s - limit), min(limit, s - 1) + 1):
        y = s - x
        if z == 0.0:
            D[x, y] = part[x, y]
        else:
            D[x, y] = (part[x, y] + z - z * part[y, x] - z * z) / (1.0 - z * z)


@njit(cache=True)
def dp_immediate(ga: np.ndarray, gb: np.ndarray, w: np.ndarray, limit: int) -> np.ndarray:
    """``D`` (see the module docstring) for ``win_check = immediate``:
    going through a hand award by award, the first side whose gain reaches
    its need with the higher total wins at once. ``ga``, ``gb``: ``(hands,
    awards)`` points of the dealer's and the leader's side, zero-padded;
    ``w`` a weight a hand."""
    n, k = ga.shape
    ca = np.zeros((n, k), np.int32)
    cb = np.zeros((n, k), np.int32)
    for i in range(n):
        sa = 0
        sb = 0
        for j in range(k):
            sa += ga[i, j]
            sb += gb[i, j]
            ca[i, j] = sa
            cb[i, j] = sb
    fa = first_passage(ca, limit)
    fb = first_passage(cb, limit)
    tie = tie_value(ga, gb, w, False)
    D = np.zeros((limit + 1, limit + 1))
    for y in range(1, limit + 1):
        D[0, y] = 1.0
    D[0, 0] = tie
    tot = 0.0
    zero = 0.0
    for i in range(n):
        tot += w[i]
        if ca[i, k - 1] == 0 and cb[i, k - 1] == 0:
            zero += w[i]
    z = zero / tot
    part = np.zeros((limit + 1, limit + 1))
    for s in range(2, 2 * limit + 1):
        for x in range(max(1, s - limit), min(limit, s - 1) + 1):
            y = s - x
            acc = 0.0
            for i in range(n):
                pa = ca[i, k - 1]
                pb = cb[i, k - 1]
                if pa == 0 and pb == 0:
                    continue
                ta = fa[i, x]
                tb = fb[i, y]
                if ta < tb:
                    acc += w[i]
                elif tb < ta:
                    continue
                elif ta < NEVER:
                    acc += w[i] * _walk(ga[i], gb[i], ca[i], cb[i], ta, x, y, tie)
                else:
                    acc += w[i] * (1.0 - D[y - pb, x - pa])
            part[x, y] = acc / tot
        _solve_layer(D, part, z, s, limit)
    return D


@njit(cache=True)
def dp_end_of_hand(pa: np.ndarray, pb: np.ndarray, w: np.ndarray, tie: float,
                   limit: int) -> np.ndarray:
    """``D`` for ``win_check = end_of_hand`` from each hand's points
    ``pa`` (dealer's side) and ``pb`` (leader's side) with weights ``w``
    (equal outcomes may be merged): a side at or over its need after the
    hand with the higher total wins; equal totals there are the tie
    (``tie``: :func:`tie_value`), the leader's side dealing."""
    n = pa.shape[0]
    D = np.zeros((limit + 1, limit + 1))
    for y in range(1, limit + 1):
        D[0, y] = 1.0
    D[0, 0] = tie
    tot = 0.0
    zero = 0.0
    for i in range(n):
        tot += w[i]
        if pa[i] == 0 and pb[i] == 0:
            zero += w[i]
    z = zero / tot
    part = np.zeros((limit + 1, limit + 1))
    for s in range(2, 2 * limit + 1):
        for x in range(max(1, s - limit), min(limit, s - 1) + 1):
            y = s - x
            acc = 0.0
            for i in range(n):
                a = pa[i]
                b = pb[i]
                if a == 0 and b == 0:
                    continue
                if a >= x or b >= y:
                    d = (a - x) - (b - y)
                    if d > 0:
                        acc += w[i]
                    elif d == 0:
                        acc += w[i] * (1.0 - tie)
                else:
                    acc += w[i] * (1.0 - D[y - b, x - a])
            part[x, y] = acc / tot
        _solve_layer(D, part, z, s, limit)
    return D


# --- three players ---------------------------------------------------------------


@njit(cache=True)
def _settle3(s0, s1, s2, gap_cap):
    """Scores relative to the target (``s >= 0``: at or over it) after a
    hand, in the order (dealer, leader, third) of that hand. Returns
    ``(winner, r, g)``: the winner's index when one seat is alone at the
    top and at or over the target; else -1 and the tie state *as the next
    dealer sees it* (the old leader deals): ``r`` the lower seat (in the
    new order), ``g`` its gap (1..gap_cap), or ``g = 0`` when all three are
    equal; ``r = -1`` when nobody is at or over the target."""
    m = max(s0, max(s1, s2))
    if m < 0:
        return -1, -1, 0
    top = (s0 == m) + (s1 == m) + (s2 == m)
    if top == 1:
        if s0 == m:
            return 0, 0, 0
        if s1 == m:
            return 1, 0, 0
        return 2, 0, 0
    if top == 3:
        return -1, 0, 0
    # the new order: (old leader, old third, old dealer)
    if s1 != m:
        r = 0
        g = m - s1
    elif s2 != m:
        r = 1
        g = m - s2
    else:
        r = 2
        g = m - s0
    if g > gap_cap:
        g = gap_cap
    return -1, r, g


@njit(cache=True)
def tie_states3(p: np.ndarray, w: np.ndarray, gap_cap: int,
                iterations: int = 100_000) -> np.ndarray:
    """``E[r, g, k]``: seat ``k``'s chance (0 dealer, 1 leader, 2 third)
    when two seats are equal at the top, at or over the target, and seat
    ``r`` is ``g`` points below them (``g = 0``: all three equal). From
    there every hand ends the match unless the top is shared again, so
    only the gaps matter. Solved by value iteration (a shared top again
    has a small probability); a gap beyond ``gap_cap`` counts as
    ``gap_cap``. ``p``: ``(outcomes, 3)`` points (dealer, leader, third)."""
    n = p.shape[0]
    tot = 0.0
    for i in range(n):
        tot += w[i]
    E = np.full((3, gap_cap + 1, 3), 1.0 / 3.0)
    new = np.zeros_like(E)
    for _it in range(iterations):
        for r in range(3):
            for g in range(gap_cap + 1):
                if g == 0 and r > 0:
                    continue
                v0 = 0.0
                v1 = 0.0
                v2 = 0.0
                for i in range(n):
                    s0 = p[i, 0]
                    s1 = p[i, 1]
                    s2 = p[i, 2]
                    if r == 0:
                        s0 -= g
                    elif r == 1:
                        s1 -= g
                    else:
                        s2 -= g
                    win, r2, g2 = _settle3(s0, s1, s2, gap_cap)
                    if win == 0:
                        v0 += w[i]
                    elif win == 1:
                        v1 += w[i]
                    elif win == 2:
                        v2 += w[i]
                    else:
                        # next state's order (old leader, old third, old dealer)
                        v1 += w[i] * E[r2, g2, 0]
                        v2 += w[i] * E[r2, g2, 1]
                        v0 += w[i] * E[r2, g2, 2]
                new[r, g, 0] = v0 / tot
                new[r, g, 1] = v1 / tot
                new[r, g, 2] = v2 / tot
        for k in range(3):
            new[1, 0, k] = new[0, 0, k]
            new[2, 0, k] = new[0, 0, k]
        diff = np.abs(new - E).max()
        E[:] = new
        if diff < 1e-13:
            break
    return E


@njit(cache=True)
def dp_three(p: np.ndarray, w: np.ndarray, limit: int, E: np.ndarray) -> np.ndarray:
    """``D3[x, y, z, k]`` (module docstring) for three players, ``win_check
    = end_of_hand``: after a hand, the seat alone at the top wins if it is
    at or over the target; a shared top at or over it is a tie state
    (``E``: :func:`tie_states3`); else the leader deals next. ``p``:
    ``(outcomes, 3)`` points (dealer, leader, third), ``w`` weights."""
    n = p.shape[0]
    gap_cap = E.shape[1] - 1
    L = limit
    D = np.zeros((L + 1, L + 1, L + 1, 3))
    tot = 0.0
    zero = 0.0
    for i in range(n):
        tot += w[i]
        if p[i, 0] == 0 and p[i, 1] == 0 and p[i, 2] == 0:
            zero += w[i]
    z = zero / tot
    part = np.zeros((L + 1, L + 1, L + 1, 3))
    for s in range(3, 3 * L + 1):
        for x in range(1, L + 1):
            for y in range(1, L + 1):
                zz = s - x - y
                if zz < 1 or zz > L:
                    continue
                v0 = 0.0
                v1 = 0.0
                v2 = 0.0
                for i in range(n):
                    a = p[i, 0]
                    b = p[i, 1]
                    c = p[i, 2]
                    if a == 0 and b == 0 and c == 0:
                        continue
                    win, r2, g2 = _settle3(a - x, b - y, c - zz, gap_cap)
                    if win == 0:
                        v0 += w[i]
                    elif win == 1:
                        v1 += w[i]
                    elif win == 2:
                        v2 += w[i]
                    elif r2 >= 0:
                        v1 += w[i] * E[r2, g2, 0]
                        v2 += w[i] * E[r2, g2, 1]
                        v0 += w[i] * E[r2, g2, 2]
                    else:
                        nx = x - a
                        ny = y - b
                        nz = zz - c
                        # the old leader deals: order (leader, third, dealer)
                        v1 += w[i] * D[ny, nz, nx, 0]
                        v2 += w[i] * D[ny, nz, nx, 1]
                        v0 += w[i] * D[ny, nz, nx, 2]
                part[x, y, zz, 0] = v0 / tot
                part[x, y, zz, 1] = v1 / tot
                part[x, y, zz, 2] = v2 / tot
        # D[x, y, z] = part + z0 * (D[y, z, x] seen from the old dealer)
        for x in range(1, L + 1):
            for y in range(1, L + 1):
                zz = s - x - y
                if zz < 1 or zz > L:
                    continue
                for k in range(3):
                    D[x, y, zz, k] = part[x, y, zz, k]
        if z > 0.0:
            for _it in range(100_000):
                change = 0.0
                for x in range(1, L + 1):
                    for y in range(1, L + 1):
                        zz = s - x - y
                        if zz < 1 or zz > L:
                            continue
                        v0 = part[x, y, zz, 0] + z * D[y, zz, x, 2]
                        v1 = part[x, y, zz, 1] + z * D[y, zz, x, 0]
                        v2 = part[x, y, zz, 2] + z * D[y, zz, x, 1]
                        change = max(change, abs(v0 - D[x, y, zz, 0]) + abs(v1 - D[x, y, zz, 1])
                                     + abs(v2 - D[x, y, zz, 2]))
                        D[x, y, zz, 0] = v0
                        D[x, y, zz, 1] = v1
                        D[x, y, zz, 2] = v2
                if change < 1e-14:
                    break
    return D
