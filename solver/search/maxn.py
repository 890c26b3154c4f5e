"""Searches for games with more than two sides, on value *vectors* (one
entry per seat): max^n with shallow pruning and a transposition table,
paranoid alpha-beta, expectimax over vectors at chance nodes, and the
averaging of vectors over determinisations.

The game is seen only through a small interface (open_spiel style):
``mover(s)``, ``moves(s)`` (ascending move ids), ``play(s, m) -> (child,
gains, info)`` with ``gains`` a tuple of per-seat points, ``is_terminal(s)``,
``is_chance(s)``, ``outcomes(s) -> [(probability, gains, child)]`` and
``sum_bound(s)``: an upper bound on the sum of the entries of the value of
``s``, every entry being >= 0. A state is its own transposition key.

**The choice rule (max^n).** The seat to move picks the play that gives it
the most; ties are broken by (1) the higher own value, (2) the lower sum
of the other seats' values (prefer hurting the opponents), (3) the lowest
move id. The rule is a total order, so the max^n vector of a state is
well defined and independent of search order.

**Shallow pruning** (Korf 1991). Entries are >= 0 and sum to at most
``B = sum_bound(n)`` at node ``n``. When seat ``i`` at ``n`` has found a
play worth ``x`` to itself, the value of ``n`` gives the parent's seat
``j`` at most ``B - x``; if the parent's gain on the way plus ``B - x`` is
*strictly* below what ``j`` already has (strict, so that the tie rule
still sees every play that could tie), ``n`` cannot be chosen and is cut.
Pruning is never passed through a chance node, and a cut value is never
stored in the table.

**Paranoid** (Sturtevant and Korf 2000): the seat at the root maximises
its own entry and the other two minimise it: a two-sided game on one
scalar, searched by alpha-beta with a transposition table of bounds;
chance nodes average and are searched with a full window. The vector of
a paranoid play is the vector the paranoid policy leads to (the other
entries are then what the coalition's play gives each opponent).
"""

from __future__ import annotations

import time

INF = float("inf")


class Aborted(Exception):
    """The search passed its deadline or node budget."""


def _key(v, seat: int, move: int):
    own = v[seat]
    return (round(own, 9), -round(sum(v) - own, 9), -move)


def choose(vectors: dict, seat: int):
    """The move ``seat`` picks among ``{move: vector}`` by the choice rule
    (higher own value, then lower sum of the others, then lowest move).

    >>> choose({0: (2, 3, 1), 4: (2, 1, 1), 7: (1, 0, 0)}, 0)
    4
    >>> choose({3: (2, 1, 1), 1: (2, 1, 1)}, 0)
    1
    """
    return max(vectors, key=lambda m: _key(vectors[m], seat, m))


def best_moves(vectors: dict, seat: int, tol: float = 1e-9) -> list:
    """The moves of the best own value for ``seat`` (all ties on entry
    ``seat``), lowest first."""
    top = max(v[seat] for v in vectors.values())
    return sorted(m for m, v in vectors.items() if v[seat] >= top - tol)


def _add(g, v):
    return (g[0] + v[0], g[1] + v[1], g[2] + v[2])


class MaxN:
    """Max^n over vectors with shallow pruning and a transposition table
    (``prune``/``table`` switch them off, for measuring).

    ``deadline``: a ``time.monotonic()`` instant, ``max_nodes`` a node
    budget; past either, :class:`Aborted` is raised. ``nodes`` counts the
    decision and chance nodes entered."""

    def __init__(self, game, prune: bool = True, table: bool = True,
                 deadline: float | None = None, max_nodes: int | None = None,
                 max_entries: int = 2_000_000) -> None:
        self.game = game
        self.prune = prune
        self.use_table = table
        self.tt: dict = {}
        self.nodes = 0
        self.cuts = 0
        self.deadline = deadline
        self.max_nodes = max_nodes
        self.max_entries = max_entries

    def value(self, state) -> tuple:
        """The max^n vector of ``state`` (points per seat to the end)."""
        return self._search(state, -1, 0.0)[0]

    def root_values(self, state) -> dict:
        """``{move: vector}`` for every play of the mover: the play's gains
        plus the max^n vector after it (each exact: no cut at the root)."""
        game = self.game
        out = {}
        for m in game.moves(state):
            child, g, _ev = game.play(state, m)
            out[m] = _add(g, self._search(child, -1, 0.0)[0])
        return out

    def _tick(self) -> None:
        self.nodes += 1
        if self.nodes & 1023 == 0:
            if self.deadline is not None and time.monotonic() > self.deadline:
                raise Aborted("time")
            tables = self._tables()
            if sum(len(t) for t in tables) > self.max_entries:
                for t in tables:        # caches: emptied, the search stays exact
                    t.clear()
        if self.max_nodes is not None and self.nodes > self.max_nodes:
            raise Aborted("nodes")

    def _tables(self) -> tuple:
        return (self.tt,)

    def _outcomes(self, state):
        """The chance node's deals, the clock read first (listing them can
        take long); a node past the game's ``max_outcomes`` aborts."""
        if self.deadline is not None and time.monotonic() > self.deadline:
            raise Aborted("time")
        try:
            return self.game.outcomes(state)
        except Exception as e:
            if type(e).__name__ == "TooManyOutcomes":
                raise Aborted("outcomes") from None
            raise

    def _search(self, state, pj: int, need: float):
        """``(vector, exact)``. ``pj``: the parent's mover (-1: no cut
        allowed), ``need``: the parent's best own value less its gain on
        the way here; the search may stop as soon as the parent surely
        gets less than ``need`` through this node (``exact`` False)."""
        game = self.game
        if game.is_terminal(state):
            return (0, 0, 0), True
        tt = self.tt
        if self.use_table:
            v = tt.get(state)
            if v is not None:
                return v, True
        self._tick()
        if game.is_chance(state):
            acc = [0.0, 0.0, 0.0]
            for p, g, child in self._outcomes(state):
                v = self._search(child, -1, 0.0)[0]
                acc[0] += p * (g[0] + v[0])
                acc[1] += p * (g[1] + v[1])
                acc[2] += p * (g[2] + v[2])
            vec = (acc[0], acc[1], acc[2])
            self._store(state, vec)
            return vec, True
        seat = game.mover(state)
        # a cut needs bound - x < need with x <= bound: only when need > 0
        bound = (game.sum_bound(state) if (self.prune and pj >= 0 and pj != seat and need > 0)
                 else None)
        best = None
        best_key = None
        for m in game.moves(state):
            child, g, _ev = game.play(state, m)
            if best is None:
                v, exact = self._search(child, -1, 0.0)
            else:
                v, exact = self._search(child, seat, best[seat] - g[seat])
            if not exact:
                continue        # surely worse for this seat than ``best``
            vec = _add(g, v)
            k = _key(vec, seat, m)
            if best is None or k > best_key:
                best, best_key = vec, k
                if bound is not None and bound - best[seat] < need:
                    self.cuts += 1
                    return best, False
        self._store(state, best)
        return best, True

    def _store(self, state, vec) -> None:
        if self.use_table:
            if len(self.tt) >= self.max_entries:
                self.tt.clear()
            self.tt[state] = vec


class Paranoid:
    """Paranoid search for the seat ``root``: alpha-beta on ``root``'s
    entry, the other seats minimising it, with a transposition table of
    ``(lower, upper)`` bounds; chance nodes average (full window below).
    :meth:`root_values` gives each root play's paranoid vector."""

    def __init__(self, game, root: int, deadline: float | None = None,
                 max_nodes: int | None = None, max_entries: int | None = None) -> None:
        self.game = game
        self.root = root
        self.tt: dict = {}
        self.memo: dict = {}
        self.nodes = 0
        self.deadline = deadline
        self.max_nodes = max_nodes
        self.max_entries = 2_000_000 if max_entries is None else max_entries

    _tick = MaxN._tick
    _outcomes = MaxN._outcomes

    def _tables(self) -> tuple:
        return (self.tt, self.memo)

    def scalar(self, state, alpha: float = -INF, beta: float = INF) -> float:
        """The paranoid value of ``state`` for ``root`` (points), fail-soft
        alpha-beta: exact inside ``(alpha, beta)``, a bound outside."""
        game = self.game
        if game.is_terminal(state):
            return 0
        entry = self.tt.get(state)
        if entry is not None:
            lo, hi = entry
            if lo == hi or lo >= beta:
                return lo
            if hi <= alpha:
                return hi
            alpha, beta = max(alpha, lo), min(beta, hi)
        else:
            lo, hi = -INF, INF
        self._tick()
        r = self.root
        if game.is_chance(state):
            v = 0.0
            for p, g, child in self._outcomes(state):
                v += p * (g[r] + self.scalar(child))
            self.tt[state] = (v, v)
            return v
        a0, b0 = alpha, beta
        if game.mover(state) == r:
            best = -INF
            for m in game.moves(state):
                child, g, _ev = game.play(state, m)
                v = g[r] + self.scalar(child, alpha - g[r], beta - g[r])
                if v > best:
                    best = v
                    if best > alpha:
                        alpha = best
                    if best >= beta:
                        break
        else:
            best = INF
            for m in game.moves(state):
                child, g, _ev = game.play(state, m)
                v = g[r] + self.scalar(child, alpha - g[r], beta - g[r])
                if v < best:
                    best = v
                    if best < beta:
                        beta = best
                    if best <= alpha:
                        break
        if best <= a0:
            self.tt[state] = (lo, best)
        elif best >= b0:
            self.tt[state] = (best, hi)
        else:
            self.tt[state] = (best, best)
        return best

    def vector(self, state) -> tuple:
        """The vector the paranoid policy leads to from ``state``: at each
        node the mover takes the play of the best paranoid value (``root``
        the highest, the others the lowest); ties: ``root`` prefers the
        lower sum of the others, an opponent its own higher entry, then the
        lowest move."""
        game = self.game
        if game.is_terminal(state):
            return (0, 0, 0)
        v = self.memo.get(state)
        if v is not None:
            return v
        if game.is_chance(state):
            acc = [0.0, 0.0, 0.0]
            for p, g, child in self._outcomes(state):
                cv = self.vector(child)
                for s in range(3):
                    acc[s] += p * (g[s] + cv[s])
            v = tuple(acc)
        else:
            v = self._pick(state)[1]
        self.memo[state] = v
        return v

    def _pick(self, state):
        game = self.game
        r = self.root
        seat = game.mover(state)
        scal = {}
        kids = {}
        for m in game.moves(state):
            child, g, _ev = game.play(state, m)
            kids[m] = (child, g)
            scal[m] = g[r] + self.scalar(child)
        target = max(scal.values()) if seat == r else min(scal.values())
        tied = [m for m in scal if abs(scal[m] - target) <= 1e-9]
        vecs = {m: _add(kids[m][1], self.vector(kids[m][0])) for m in tied}
        if seat == r:
            m = choose(vecs, seat)
        else:
            m = max(tied, key=lambda m: (round(vecs[m][seat], 9), -m))
        return m, vecs[m]

    def root_values(self, state) -> dict:
        """``{move: vector}`` for every root play: the play's gains plus
        the paranoid vector after it (``root``'s entry is the exact
        paranoid value)."""
        game = self.game
        out = {}
        for m in game.moves(state):
            child, g, _ev = game.play(state, m)
            out[m] = _add(g, self.vector(child))
        return out


def average_vectors(samples: list[dict]) -> tuple[dict, dict]:
    """Per-move means and standard errors of ``[{move: vector}]`` (one dict
    per determinisation, every dict with the same moves): ``(means,
    stderrs)``, each ``{move: tuple}``; stderr None for one sample."""
    n = len(samples)
    moves = samples[0].keys()
    means, errs = {}, {}
    for m in moves:
        cols = list(zip(*(s[m] for s in samples)))
        mu = tuple(sum(c) / n for c in cols)
        means[m] = mu
        if n > 1:
            errs[m] = tuple((sum((x - u) ** 2 for x in c) / (n - 1) / n) ** 0.5
                            for c, u in zip(cols, mu))
        else:
            errs[m] = None
    return means, errs
