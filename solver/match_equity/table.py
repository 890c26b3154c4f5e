"""Match-equity tables: P(a side wins the match) from the score.

A table is built from hand traces (:mod:`.selfplay`: every award of points
in a hand, in order, as ``(dealer's side, leader's side)``; three
players: ``(dealer, leader, third)``) by a dynamic program over the points
each side still **needs** (:mod:`.dp`), so one build serves every target
up to its ``limit``: at target ``T`` the score ``a``-``b`` is the needs
``T - a`` and ``T - b``.

- ``win_check = immediate``: going through a trace award by award, a side
  wins at the first award after which it is at or over the target with
  the higher total (two sides reaching it at equal totals in one split
  award win nothing yet, as :meth:`solver.games.match.HandState._check_target`
  says).
- ``end_of_hand``: the hand is played out; a side at or over the target
  with the higher total wins, equal totals play on.

Equal totals at or over the target (a split declaration, an end-of-hand
tie) are solved from the first award (immediate) or hand (end of hand)
that separates the sides. A hand in which nobody scores leaves the score
as it was with the deal passed on.

The shipped tables are in ``data/`` (:func:`load`, :func:`table_for`),
one file a rule system (:func:`.system.system_of`) and player count,
each with the command that built it, the player and the number of hands,
and its checks. :func:`need_array` is the plain numpy view of a table and
:func:`equity_array` the same cut at a target: the leaves the compiled
match search reads (:class:`solver.engine.tables.MatchLeaves`).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from importlib import resources
from typing import Sequence

import numpy as np

#: the smallest limit a shipped table has (every target up to it)
MIN_LIMIT = 61

#: the largest limit the build takes (``--limit``): a bigger target has no table
MAX_LIMIT = 400


# --- building ---------------------------------------------------------------------


def trace_arrays(traces: Sequence[Sequence[Sequence[int]]], sides: int = 2) -> np.ndarray:
    """``g[n, k, s]``: the points side ``s`` (0 the dealer's) gets at award
    ``k`` of hand ``n``, zero-padded."""
    n = len(traces)
    k = max((len(t) for t in traces), default=0) or 1
    g = np.zeros((n, k, sides), dtype=np.int32)
    for i, t in enumerate(traces):
        if t:
            g[i, :len(t)] = t
    return g


def build(traces: Sequence[Sequence[Sequence[int]]], limit: int, win_check: str,
          weights: np.ndarray | None = None) -> np.ndarray:
    """The dealer's chance ``D[x, y]`` (:mod:`.dp`) for needs up to ``limit``
    from two-sided hand traces; ``weights`` one a hand (default 1)."""
    from . import dp        # compiled: not loaded by reading a table (``met``)
    g = trace_arrays(traces, 2)
    w = np.ones(len(traces)) if weights is None else np.asarray(weights, dtype=float)
    if win_check == "end_of_hand":
        tie = dp.tie_value(g[:, :, 0], g[:, :, 1], w, True)
        pa, pb, wu = _merged(g.sum(axis=1), w)
        return dp.dp_end_of_hand(pa, pb, wu, tie, limit)
    return dp.dp_immediate(np.ascontiguousarray(g[:, :, 0]), np.ascontiguousarray(g[:, :, 1]),
                           w, limit)


def _merged(points: np.ndarray, w: np.ndarray):
    """Equal hand totals merged: ``(dealer points, leader points, weights)``
    (two sides) or ``(points[u, 3], weights)`` (three)."""
    uniq, inv = np.unique(points, axis=0, return_inverse=True)
    wu = np.bincount(inv.ravel(), weights=w, minlength=len(uniq))
    if points.shape[1] == 2:
        return (np.ascontiguousarray(uniq[:, 0]), np.ascontiguousarray(uniq[:, 1]), wu)
    return np.ascontiguousarray(uniq), wu


def gap_cap(limit: int, points: np.ndarray) -> int:
    """The largest gap below a shared top :func:`build3` keeps exactly: the
    limit plus the most points a seat made in one hand (a wider gap counts
    as this one: the lower seat would need the top shared again)."""
    return int(limit + points.max(initial=0) + 1)


def build3(traces: Sequence[Sequence[Sequence[int]]], limit: int,
           weights: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Three players, ``win_check = end_of_hand``: ``(D3, E)`` of
    :func:`.dp.dp_three` and :func:`.dp.tie_states3` from traces of
    ``(dealer, leader, third)`` awards."""
    from . import dp
    g = trace_arrays(traces, 3)
    w = np.ones(len(traces)) if weights is None else np.asarray(weights, dtype=float)
    p, wu = _merged(g.sum(axis=1), w)
    p = p.astype(np.int64)
    E = dp.tie_states3(p, wu, gap_cap(limit, p))
    return dp.dp_three(p, wu, limit, E), E


def scores_view(D: np.ndarray, target: int) -> tuple[np.ndarray, np.ndarray]:
    """``(V, tie)`` at ``target``: ``V[d, a, b]`` P(A wins) at the score
    ``a``-``b`` (``0..target-1``), ``d = 0`` when A deals next, ``1`` when
    B does; ``tie`` the value of equal totals at or over the target for
    the same two cases."""
    T = target
    L = D.shape[0] - 1
    if not 1 <= T <= L:
        raise ValueError(f"target {T} is beyond the table's limit {L}")
    needs = T - np.arange(T)            # need of score a = T - a
    V = np.empty((2, T, T))
    V[0] = D[np.ix_(needs, needs)]
    V[1] = 1.0 - D[np.ix_(needs, needs)].T
    return V, np.array([D[0, 0], 1.0 - D[0, 0]])


# --- shipped tables ---------------------------------------------------------------


def data_name(system: str, players: int) -> str:
    """The file name of a shipped table: ``lmodire-2p.json``."""
    return f"{system}-{players}p.json"


@dataclass
class MatchTable:
    """A match-equity table for two sides (two or four players): ``dealer``
    is ``D[x, y]`` (:mod:`.dp`), the dealer side's chance when it needs
    ``x`` points and the other side ``y``, for needs up to ``limit``;
    ``target`` is the target this table answers for (:meth:`at` gives
    another); ``meta`` everything the file says of its origin (``hands``,
    ``player``, ``command``, ``intervals``, ``checks`` ...)."""

    system: str
    players: int
    limit: int
    win_check: str
    dealer: np.ndarray
    target: int
    meta: dict = field(default_factory=dict)

    @property
    def rules(self) -> str:
        """The rule system's text (:func:`.system.system_of`)."""
        return self.system

    @property
    def hands(self) -> int:
        """Self-play hands the table was built from (all players)."""
        return int(self.meta.get("hands", 0))

    @property
    def player(self) -> str:
        """Who played the hands."""
        return str(self.meta.get("player", ""))

    @property
    def command(self) -> str:
        """The command that built the table."""
        return str(self.meta.get("command", ""))

    @property
    def intervals(self) -> list:
        """The checked entries: score, value, standard error, simulation."""
        return list(self.meta.get("intervals", []))

    @property
    def tie(self) -> list[float]:
        """P(A wins) from equal totals at or over the target, A dealing
        next and B dealing next."""
        t = float(self.dealer[0, 0])
        return [t, 1.0 - t]

    def at(self, target: int) -> "MatchTable":
        """The same table answering for ``target``; ValueError beyond the
        limit (naming the command that builds a larger one)."""
        _check_target(self.system, self.players, self.limit, target)
        return replace(self, target=target)

    def equity_of(self, a: int, b: int, a_deals: bool) -> float:
        """P(side A wins the match), a probability, with ``a`` and ``b``
        match points and A dealing the next hand or not. A side at or over
        the target with the higher total has won; equal totals there take
        the tie value.

        >>> t = load("lmodire", 2)
        >>> t.equity_of(41, 30, False), t.equity_of(0, 45, True)
        (1.0, 0.0)
        >>> round(t.equity_of(0, 0, True) - t.at(61).equity_of(20, 20, True), 12)
        0.0
        """
        T = self.target
        if a >= T or b >= T:
            if a > b:
                return 1.0
            if b > a:
                return 0.0
            return self.tie[0 if a_deals else 1]
        x, y = T - a, T - b
        if a_deals:
            return float(self.dealer[x, y])
        return 1.0 - float(self.dealer[y, x])

    def grid(self, a_deals: bool) -> np.ndarray:
        """``g[a, b]``: P(A wins) at every score ``a``-``b`` below the target."""
        return scores_view(self.dealer, self.target)[0][0 if a_deals else 1]

    def array(self) -> np.ndarray:
        """``M[d, x, y]`` (float64): P(side A wins) when A needs ``x``
        points and B needs ``y`` (``0..limit``; 0: at or over the target,
        so ``M[d, 0, y>0] = 1``, ``M[d, x>0, 0] = 0``, ``M[d, 0, 0]`` the
        tie), ``d = 0`` when A deals the next hand, ``1`` when B does."""
        D = self.dealer
        return np.stack([D, 1.0 - D.T])

    @property
    def equity(self) -> list:
        """``equity[d][a][b]`` at the target (``d = 0``: A deals next)."""
        V, _ = scores_view(self.dealer, self.target)
        return V.tolist()

    def to_json(self) -> dict:
        """The table and its origin as JSON-ready data (the file's fields,
        the target this view answers for, and the table at that target)."""
        doc = {"system": self.system, "players": self.players, "limit": self.limit,
               "win_check": self.win_check, "target": self.target, **self.meta}
        V, tie = scores_view(self.dealer, self.target)
        doc["tie"] = [round(float(x), 6) for x in tie]
        doc["equity"] = np.round(V, 6).tolist()
        return doc


@dataclass
class MatchTable3:
    """A three-player table (each seat its own side, ``end_of_hand``):
    ``dealer[x, y, z, k]`` seat ``k``'s chance (0 the dealer, 1 the leader,
    2 the third seat) when they need ``x``, ``y``, ``z``; ``ties[r, g, k]``
    the same when two seats share the top at or over the target and seat
    ``r`` is ``g`` points below (``g = 0``: all three level)."""

    system: str
    players: int
    limit: int
    win_check: str
    dealer: np.ndarray
    ties: np.ndarray
    target: int
    meta: dict = field(default_factory=dict)

    hands = MatchTable.hands
    player = MatchTable.player
    command = MatchTable.command
    intervals = MatchTable.intervals
    rules = MatchTable.rules

    def at(self, target: int) -> "MatchTable3":
        """The same table answering for ``target`` (ValueError past the limit)."""
        _check_target(self.system, self.players, self.limit, target)
        return replace(self, target=target)

    def chances(self, scores: Sequence[int], dealer: int) -> tuple[float, float, float]:
        """P(each seat wins the match), seats S, E, N, at the match
        ``scores`` (one a seat) with seat ``dealer`` dealing the next hand.

        >>> t = load("french", 3)
        >>> t.chances((51, 40, 30), 0)
        (1.0, 0.0, 0.0)
        >>> round(sum(t.chances((10, 20, 30), 1)), 6)
        1.0
        """
        T = self.target
        order = [(dealer + k) % 3 for k in range(3)]      # dealer, leader, third
        s = [scores[seat] - T for seat in order]          # >= 0: at or over the target
        m = max(s)
        out = [0.0, 0.0, 0.0]
        if m >= 0:
            top = [k for k in range(3) if s[k] == m]
            if len(top) == 1:
                out[order[top[0]]] = 1.0
                return tuple(out)  # type: ignore[return-value]
            if len(top) == 3:
                v = self.ties[0, 0]
            else:
                r = next(k for k in range(3) if s[k] != m)
                v = self.ties[r, min(m - s[r], self.ties.shape[1] - 1)]
        else:
            v = self.dealer[-s[0], -s[1], -s[2]]
        for k in range(3):
            out[order[k]] = float(v[k])
        return tuple(out)  # type: ignore[return-value]

    def grid(self, third: int, dealer: int) -> np.ndarray:
        """``g[a, b, k]``: each seat's chance at the scores ``a`` (S), ``b``
        (E) with N on ``third``, seat ``dealer`` dealing next."""
        T = self.target
        g = np.zeros((T, T, 3))
        for a in range(T):
            for b in range(T):
                g[a, b] = self.chances((a, b, third), dealer)
        return g

    def to_json(self) -> dict:
        """The origin and the target (the whole table: ``dealer`` as nested
        lists is large; ``met --json`` writes it)."""
        return {"system": self.system, "players": 3, "limit": self.limit,
                "win_check": self.win_check, "target": self.target, **self.meta}


def pack3(D: np.ndarray) -> bytes:
    """A three-player table's ``D[1:, 1:, 1:, :2]`` (the third seat's chance
    is the rest) as bytes: each chance times 65535 rounded (uint16), the
    differences along the second and third needs (modulo 2**16), lzma."""
    import lzma
    q = np.rint(np.clip(D[1:, 1:, 1:, :2], 0.0, 1.0) * 65535).astype(np.uint16)
    d = np.diff(np.diff(q, axis=2, prepend=np.uint16(0)), axis=1, prepend=np.uint16(0))
    return lzma.compress(d.astype("<u2").tobytes())


def unpack3(data: bytes, limit: int) -> np.ndarray:
    """The uint16 array :func:`pack3` wrote, ``(limit, limit, limit, 2)``."""
    import lzma
    d = np.frombuffer(lzma.decompress(data), dtype="<u2").reshape((limit, limit, limit, 2))
    return np.cumsum(np.cumsum(d, axis=1, dtype=np.uint16), axis=2, dtype=np.uint16)


def _check_target(system: str, players: int, limit: int, target: int) -> None:
    if not 1 <= target <= limit:
        how = (f"build a larger one: {build_command(system, players, max(target, MIN_LIMIT))}"
               if target <= MAX_LIMIT else f"a table is built for targets up to {MAX_LIMIT}")
        raise ValueError(f"the {system} {players}-player match-equity table serves targets "
                         f"1 to {limit}, not {target} ({how})")


def build_command(system: str, players: int, limit: int = MIN_LIMIT) -> str:
    """The command that builds a (greedy, a few minutes) table for a rule system."""
    name, *parts = system.split("+")
    sets = "".join(f" --set {p}" for p in parts)
    return (f"python -m solver.match_equity.build --rules {name}{sets} --players {players} "
            f"--player greedy --hands 100000 --limit {limit}")


_cache: dict[str, MatchTable | MatchTable3] = {}


def _read(system: str, players: int) -> MatchTable | MatchTable3:
    name = data_name(system, players)
    if name not in _cache:
        base = resources.files(__package__).joinpath("data")
        try:
            doc = json.loads(base.joinpath(name).read_text("utf-8"))
        except (FileNotFoundError, OSError):
            raise ValueError(f"no match-equity table for {system} with {players} players "
                             f"(build it: {build_command(system, players)})") from None
        limit = int(doc.pop("limit"))
        common = dict(system=doc.pop("system"), players=int(doc.pop("players")), limit=limit,
                      win_check=doc.pop("win_check"))
        from .system import rules_of
        target = min(rules_of(common["system"]).target, limit)
        if common["players"] == 3:
            q = unpack3(base.joinpath(doc.pop("dealer_file")).read_bytes(), limit) / 65535.0
            D = np.zeros((limit + 1,) * 3 + (3,))
            D[1:, 1:, 1:, :2] = q
            D[1:, 1:, 1:, 2] = np.clip(1.0 - q.sum(axis=-1), 0.0, 1.0)
            ties = np.array(doc.pop("ties"), dtype=np.float64)
            _cache[name] = MatchTable3(dealer=D, ties=ties, target=target, meta=doc, **common)
        else:
            D = np.array(doc.pop("dealer"), dtype=np.float64)
            _cache[name] = MatchTable(dealer=D, target=target, meta=doc, **common)
    return _cache[name]


def shipped() -> list[str]:
    """The shipped tables' names (``lmodire-2p`` ...)."""
    base = resources.files(__package__).joinpath("data")
    return sorted(f.name[:-5] for f in base.iterdir() if f.name.endswith(".json"))


def load(system: str, players: int, target: int | None = None) -> MatchTable | MatchTable3:
    """The shipped table for a rule system (a preset's name, or
    :func:`.system.system_of` text) and player count, answering for
    ``target`` (the preset's by default). Raises ValueError when none is
    shipped (naming the command that builds it) or the target is past its
    limit."""
    t = _read(system, players)
    if target is None:
        from .system import rules_of
        target = rules_of(system).target
    return t.at(target)


def table_for(rules, players: int) -> MatchTable | MatchTable3:
    """The table for a :class:`~solver.rules.Rules` (its rule system, target
    and player count). Raises ValueError naming the missing table and the
    command that builds it, or a target past the table's limit."""
    from .system import system_of
    return load(system_of(rules), players, rules.target)


def need_array(rules, players: int) -> np.ndarray:
    """The table for ``rules`` and two sides as a plain array (what the
    compiled search reads): ``M[d, x, y]``, P(side A wins) when A needs
    ``x`` points and B ``y`` (``0..limit``, 0 meaning at or over the
    target), ``d = 0`` when A deals the next hand. The target only selects
    the needs: at score ``a``-``b`` read ``M[d, T - a, T - b]``. Raises
    ValueError as :func:`table_for`, and for three players."""
    t = table_for(rules, players)
    if isinstance(t, MatchTable3):
        raise ValueError("need_array is for two sides; three players: MatchTable3.chances")
    return t.array()


def equity_array(rules, players: int, target: int | None = None,
                 table: MatchTable | None = None):
    """The match objective's leaves for the compiled search
    (:class:`solver.engine.tables.MatchLeaves`): a plain float64 array
    ``equity[d, x, y]``, the chance that side A (0) wins the match when it
    needs ``x`` more points and side B ``y`` (``1 <= x, y <= target``; row
    and column 0: a side at or over the target), ``d = 0`` when A deals
    the next hand, and the tie values: the need-indexed table
    (:meth:`MatchTable.array`) cut at the target. ``target``: the rules'
    by default; ``table``: this table instead of the shipped one (its own
    target). Raises ValueError as :func:`table_for`, and for three players.

    >>> from solver.rules import PRESETS
    >>> leaves = equity_array(PRESETS["lmodire"], 2)
    >>> t = load("lmodire", 2)
    >>> float(leaves.equity[1, 41 - 38, 41 - 30]) == t.equity_of(38, 30, False)
    True
    >>> to21 = equity_array(PRESETS["lmodire"], 2, target=21)
    >>> float(to21.equity[0, 21 - 15, 21 - 3]) == t.at(21).equity_of(15, 3, True)
    True
    """
    from ..engine.tables import MatchLeaves
    if target is not None and target != rules.target:
        rules = rules.with_overrides({"target": str(target)})
    t = table if table is not None else table_for(rules, players)
    if isinstance(t, MatchTable3):
        raise ValueError("the match objective's leaves take two sides")
    T = t.target
    eq = np.ascontiguousarray(t.array()[:, :T + 1, :T + 1], dtype=np.float64)
    return MatchLeaves(T, eq, (float(t.tie[0]), float(t.tie[1])))
