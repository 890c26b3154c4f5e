"""Determinisations drawn by the compiled engine (open_spiel's
``resample_from_infostate``): the unknown cards of a position dealt at
random, consistently with what is seen and declared, as
:func:`solver.engine.compile.sampler` does in Python.

:func:`draw_spec` reads a Position into a :class:`DrawSpec` (plain int64
arrays); the kernel :func:`draw` fills one determinisation from a 64-bit
seed: the hidden hand cards and the stock order, then the deals of that
stock (``D``, as :func:`solver.engine.tables.params` builds them). Sample
``i`` of a search with seed ``s`` uses :func:`sample_seed`\\ ``(s, i)``, so
a result depends on the seed and the sample count only, never on the
number of threads.

The draw is uniform over the orders of the unseen cards; a hidden hand
bound by a declaration (its seat declared this deal and has played
nothing since, or ``hist=`` records its plays: the hand dealt is then its
hand and those plays) is redrawn until the hand dealt holds the declared
hand (rejection on the hidden hands alone, then the stock is shuffled),
as the reference does.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

import numpy as np
from numba import njit

from ..cards import RANK_INDEX
from ..position import Position
from .compile import CompileError, Problem, build_problem, declared_plays, unseen_pool
from .core import D_COLS, NRANKS, best_declaration, build_deals, popcount
from .scoring import RONDA, TRINGA, cardset
from ..rules import dealt_this_deal

MODE_KNOWN, MODE_SHUFFLED, MODE_UNKNOWN = 0, 1, 2
MAX_ATTEMPTS = 50000


@dataclass
class DrawSpec:
    """What :func:`draw` needs, as int64 arrays.

    ``P``: the rule parameters (:func:`solver.engine.tables.params`);
    ``base``: the core state with the known cards only (stock position 0);
    ``pool``: rank indices of the unseen cards; ``hidden``: hidden cards a
    seat (4 entries); ``stock``: the known stock cards (in order when
    ``mode`` is MODE_KNOWN, shuffled for MODE_SHUFFLED; for MODE_UNKNOWN the
    stock is what the pool leaves); ``nstock``: stock cards; ``cons``:
    declaration constraints, rows ``(seat, kind, rank index or -1,
    played)`` for the bound seats (kind 1 Ronda, 2 Tringa; ``played`` the
    seat's plays of the deal, a count a rank in 4 bits each, added to the
    hand drawn to make the hand dealt:
    :func:`solver.engine.compile.declared_plays`).
    """

    P: np.ndarray
    base: tuple
    pool: np.ndarray
    hidden: np.ndarray
    stock: np.ndarray
    nstock: int
    mode: int
    cons: np.ndarray
    #: the half-points the piles already decided for the mover's side
    #: (two sides playing for points; else 0)
    base_margin: int = 0


def draw_spec(pos: Position, match=None) -> DrawSpec:
    """The DrawSpec of a position (same checks and errors as
    :func:`solver.engine.compile.sampler`: the mover's hand known, enough
    unseen cards), for any rule system; ``match``: the match objective's
    leaves (:class:`~solver.engine.tables.MatchLeaves`). Raises
    CompileError."""
    if any(c is None for c in pos.hands[pos.turn]):
        raise CompileError(
            f"the hand of the player to move ({pos.seat_name(pos.turn)}) must be known: "
            "its plays are what is evaluated")
    hidden = [sum(1 for c in h if c is None) for h in pos.hands]
    n_hidden = sum(hidden)
    pool = unseen_pool(pos) if n_hidden or pos.stock_kind == "unknown" else []
    nstock = len(pos.stock) if pos.stock_kind != "unknown" else len(pool) - n_hidden
    if nstock < 0 or (pos.stock_kind != "unknown" and n_hidden != len(pool)):
        raise CompileError(
            f"{len(pool)} unseen cards cannot fill {n_hidden} hidden hand cards"
            + ("" if pos.stock_kind == "unknown" else " exactly"))
    known_hands = [[c.index for c in h if c is not None] for h in pos.hands]
    known_stock = [c.index for c in pos.stock]
    deal_size = dealt_this_deal(pos.rules, pos.players, nstock)
    cons = []
    for s, k in enumerate(hidden):
        played = declared_plays(pos, s, deal_size) if k else None
        if played is None:
            continue
        packed = sum(1 << (4 * r) for r in played)
        for d in pos.declared:
            if d.seat == s:
                kind = TRINGA if d.kind == "tringa" else RONDA
                cons.append((s, kind, RANK_INDEX[d.rank] if d.rank is not None else -1, packed))
    # the game of the known cards: its parameters and base state (a
    # placeholder stock of the right length; the draw writes the real one)
    prob = build_problem(pos, known_hands, [0] * nstock, match=match)
    mode = {"known": MODE_KNOWN, "shuffled": MODE_SHUFFLED, "unknown": MODE_UNKNOWN}[
        pos.stock_kind]
    return DrawSpec(prob.P, prob.st, np.array(sorted(pool), dtype=np.int64),
                    np.array(hidden + [0] * (4 - len(hidden)), dtype=np.int64),
                    np.array(known_stock, dtype=np.int64), nstock, mode,
                    np.array(cons, dtype=np.int64).reshape(-1, 4), prob.base)


def sample_seed(seed: int, index: int) -> int:
    """The 64-bit seed of sample ``index`` of a search seeded ``seed``."""
    digest = hashlib.blake2b(f"{seed}:{index}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "little") & ((1 << 63) - 1)


_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MA = np.uint64(0xBF58476D1CE4E5B9)
_MB = np.uint64(0x94D049BB133111EB)
_S30 = np.uint64(30)
_S27 = np.uint64(27)
_S31 = np.uint64(31)
_S32 = np.uint64(32)


@njit(cache=True)
def _next(state):
    """splitmix64: ``(new state, 64-bit output)``."""
    state = state + _GOLDEN
    z = state
    z = (z ^ (z >> _S30)) * _MA
    z = (z ^ (z >> _S27)) * _MB
    return state, z ^ (z >> _S31)


@njit(cache=True)
def _below(state, n):
    """A uniform int in [0, n) (n < 2**32): ``(new state, value)``."""
    state, z = _next(state)
    return state, np.int64(((z >> _S32) * np.uint64(n)) >> _S32)


@njit(cache=True)
def _shuffle(a, n, state):
    """Fisher-Yates on the first ``n`` entries of ``a``."""
    for i in range(n - 1, 0, -1):
        state, j = _below(state, i + 1)
        t = a[i]
        a[i] = a[j]
        a[j] = t
    return state


@njit(cache=True)
def _with_plays(hand, played):
    """``hand`` (a packed hand: each rank's nibble holds its cards as low
    bits) with the cards ``played`` counts (a count a nibble) added."""
    for r in range(NRANKS):
        for _k in range((played >> (4 * r)) & 15):
            hand += (((hand >> (4 * r)) & 15) + 1) << (4 * r)
    return hand


@njit(cache=True)
def _declared_ok(P, hand, cons, seat):
    for c in range(cons.shape[0]):
        if cons[c, 0] != seat:
            continue
        got = best_declaration(P, hand)
        if got < 0:
            return False
        kind = cons[c, 1]
        r = cons[c, 2]
        if kind == 1 and got >= 32:
            # a Ronda declared from a hand of three of a kind: the rules
            # valuing the Tringa, the seat would have declared it
            return False
        if r >= 0:
            if popcount((hand >> (4 * r)) & 15) < (3 if kind == 2 else 2):
                return False
        elif kind == 2 and got < 32:
            return False
    return True


@njit(cache=True)
def draw(P, base, pool, hidden, known_stock, nstock, mode, cons, seed, D, stock, work):
    """One determinisation from ``seed``: returns ``(state, ok)`` with the
    hidden cards dealt into the state's hands, the stock order written to
    ``stock`` and its deals to ``D``; ``ok`` is False when no drawing agrees
    with the declarations (after MAX_ATTEMPTS tries). ``work`` is scratch
    of at least ``len(pool)`` entries."""
    state = np.uint64(seed)
    npool = pool.shape[0]
    n_hidden = hidden[0] + hidden[1] + hidden[2] + hidden[3]
    hands = np.empty(4, dtype=np.int64)
    ok = False
    for _attempt in range(MAX_ATTEMPTS):
        for i in range(npool):
            work[i] = pool[i]
        if cons.shape[0] > 0:
            # a partial shuffle: the first n_hidden cards are a uniform draw
            for i in range(n_hidden):
                state, j = _below(state, npool - i)
                j += i
                t = work[i]
                work[i] = work[j]
                work[j] = t
        else:
            state = _shuffle(work, npool, state)
        for s in range(4):
            hands[s] = base[1 + s]
        i = 0
        for s in range(4):
            for _q in range(hidden[s]):
                r = work[i]
                hands[s] += (((hands[s] >> (4 * r)) & 15) + 1) << (4 * r)
                i += 1
        good = True
        for c in range(cons.shape[0]):
            s = cons[c, 0]
            # the hand dealt: the hand drawn and the seat's plays this deal
            if not _declared_ok(P, _with_plays(hands[s], cons[c, 3]), cons, s):
                good = False
                break
        if good:
            ok = True
            break
    if not ok:
        return base, False
    if cons.shape[0] > 0:
        # the rest of the pool in a fresh random order
        rest = npool - n_hidden
        tail = work[n_hidden:]
        state = _shuffle(tail, rest, state)
    if mode == MODE_KNOWN:
        for i in range(nstock):
            stock[i] = known_stock[i]
    elif mode == MODE_SHUFFLED:
        for i in range(nstock):
            stock[i] = known_stock[i]
        state = _shuffle(stock, nstock, state)
    else:
        for i in range(nstock):
            stock[i] = work[n_hidden + i]
    build_deals(P, stock, nstock, D)
    st = (base[0], hands[0], hands[1], hands[2], hands[3], base[5], base[6], base[7],
          base[8], base[9], base[10])
    return st, True


def draw_python(spec: DrawSpec, seed: int) -> tuple[tuple, list[int]]:
    """One determinisation as plain Python: ``(core state, stock order)``
    (for tests and for callers outside a kernel). Raises CompileError when
    no drawing agrees with declared=."""
    D = np.zeros((spec.nstock + 1, D_COLS), dtype=np.int64)
    stock = np.zeros(max(spec.nstock, 1), dtype=np.int64)
    work = np.zeros(max(len(spec.pool), 1), dtype=np.int64)
    st, ok = draw(spec.P, spec.base, spec.pool, spec.hidden, spec.stock, spec.nstock,
                  spec.mode, spec.cons, seed, D, stock, work)
    if not ok:
        raise CompileError("no drawing of the unknown cards agrees with declared=")
    return tuple(int(x) for x in st), [int(x) for x in stock[:spec.nstock]]


__all__ = ["DrawSpec", "draw_spec", "draw", "draw_python", "sample_seed", "build_deals",
           "sampled_problem", "MODE_KNOWN", "MODE_SHUFFLED", "MODE_UNKNOWN", "NRANKS",
           "cardset"]


def sampled_problem(pos: Position, seed: int = 0, match=None) -> Problem:
    """One determinisation of ``pos`` (the unknown cards drawn as
    :func:`draw` does, sample 0 of ``seed``) as a Problem of perfect
    information. Raises CompileError as :func:`draw_spec`."""
    from . import core
    from .tables import deal_rows
    spec = draw_spec(pos, match=match)
    st, stock = draw_python(spec, sample_seed(seed, 0))
    D = deal_rows(spec.P, stock)
    return Problem(pos, spec.P, D, st, pos.players, int(spec.P[core.P_NSIDES]), False,
                   match is not None, spec.base_margin)
