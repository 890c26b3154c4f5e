"""Match-equity tables: P(a side wins the match) from the score.

:func:`build` turns hand traces (:mod:`.selfplay`: every award of points
in a hand, in order, as ``(dealer side, leader side)``) into a table by a
dynamic program over the scores. ``V[d][a][b]`` is the probability that
side A, holding ``a`` points against ``b``, wins the match when ``d = 0``:
A deals the next hand, ``d = 1``: B deals it. A hand's outcome is drawn
from the traces of the role A plays in it (dealer or leader); after the
hand the deal passes to the next seat, which is the leader's side, so
``V[0]`` reads ``V[1]`` at the new score and back.

- ``win_check = immediate``: going through a trace award by award, A wins
  at the first award after which ``a' >= target`` and ``a' > b'`` (B the
  same way; two sides reaching it at equal totals in one split award win
  nothing yet, as :meth:`solver.games.match.HandState._check_target` says).
- ``end_of_hand``: the hand is played out; a side at or over the target
  with the higher total wins, equal totals play on.

The state "both sides at or over the target with equal totals" (possible
only through a split declaration or an end-of-hand tie) is solved the same
way, from the first hand award (immediate) or hand margin (end of hand)
that separates the sides. A hand in which neither side scores (both 0)
leaves the score as it was with the deal passed on: the two dealer states
of one score are solved together.

The tables this package ships are in ``data/`` (:func:`load`), each with
the command that built it, the player, the number of hands and the
intervals of a few entries (batch means) with a direct match simulation.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from importlib import resources
from typing import Sequence

import numpy as np

NEVER = 10_000   # a first-passage "time" for a total never reached


@dataclass
class Traces:
    """Hand traces as arrays, for one side's role: ``ga[n, k]``, ``gb[n,
    k]`` the points side A and side B get at award ``k`` of hand ``n``
    (zero-padded), A being the dealer's side (``role = 0``) or the
    leader's (``role = 1``)."""

    ga: np.ndarray
    gb: np.ndarray

    @classmethod
    def from_lists(cls, traces: Sequence[Sequence[tuple[int, int]]], role: int) -> "Traces":
        """Arrays from :func:`.selfplay.play_traces` lists."""
        n = len(traces)
        k = max((len(t) for t in traces), default=0) or 1
        ga = np.zeros((n, k), dtype=np.int16)
        gb = np.zeros((n, k), dtype=np.int16)
        for i, t in enumerate(traces):
            for j, (d, l) in enumerate(t):
                ga[i, j], gb[i, j] = (d, l) if role == 0 else (l, d)
        return cls(ga, gb)


def _first_passage(cum: np.ndarray, target: int) -> np.ndarray:
    """``t[n, x]``: the first award index at which ``cum[n] >= x`` for
    ``x = 0..target`` (0 for x <= 0), NEVER if never."""
    n = cum.shape[0]
    out = np.full((n, target + 1), NEVER, dtype=np.int32)
    out[:, 0] = -1
    for x in range(1, target + 1):
        hit = cum >= x
        anyhit = hit.any(axis=1)
        out[anyhit, x] = hit[anyhit].argmax(axis=1)
    return out


def _tie_value(tr: list[Traces], w: list[np.ndarray], end_of_hand: bool) -> np.ndarray:
    """P(A wins) from equal totals at or over the target, for d = 0, 1."""
    p = np.zeros((2, 3))   # per role: P(A first), P(B first), P(still equal)
    for d in (0, 1):
        ga, gb = tr[d].ga.astype(np.int64), tr[d].gb.astype(np.int64)
        if end_of_hand:
            diff = ga.sum(axis=1) - gb.sum(axis=1)
        else:
            dif = ga - gb
            nz = dif != 0
            first = np.where(nz.any(axis=1), nz.argmax(axis=1), 0)
            diff = np.where(nz.any(axis=1), dif[np.arange(len(dif)), first], 0)
        tot = w[d].sum()
        p[d] = [w[d][diff > 0].sum() / tot, w[d][diff < 0].sum() / tot,
                w[d][diff == 0].sum() / tot]
    # V0 = a0 + e0 V1 ; V1 = a1 + e1 V0
    a0, e0, a1, e1 = p[0, 0], p[0, 2], p[1, 0], p[1, 2]
    den = 1 - e0 * e1
    v0 = (a0 + e0 * a1) / den if den > 0 else 0.5
    v1 = (a1 + e1 * a0) / den if den > 0 else 0.5
    return np.array([v0, v1])


def build(traces: Sequence[Sequence[tuple[int, int]]], target: int, win_check: str,
          weights: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """The table ``V[d, a, b]`` (probabilities, ``a, b`` in ``0..target-1``
    points) and the tie values ``[V_tie(A deals), V_tie(B deals)]`` from
    hand traces; ``weights`` one weight per hand (e.g. a bootstrap replicate),
    default all 1."""
    n = len(traces)
    w1 = np.ones(n) if weights is None else np.asarray(weights, dtype=float)
    tr = [Traces.from_lists(traces, 0), Traces.from_lists(traces, 1)]
    return _build(tr, target, win_check == "end_of_hand", w1)


def _build(tr: list[Traces], target: int, end_of_hand: bool,
           w1: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    T = target
    w = [w1, w1]
    tie = _tie_value(tr, w, end_of_hand)
    ca = [np.cumsum(t.ga, axis=1, dtype=np.int32) for t in tr]
    cb = [np.cumsum(t.gb, axis=1, dtype=np.int32) for t in tr]
    pa = [c[:, -1] for c in ca]
    pb = [c[:, -1] for c in cb]
    fa = [_first_passage(c, T) for c in ca]
    fb = [_first_passage(c, T) for c in cb]
    tot = w1.sum()
    V = np.zeros((2, T, T))
    for a in range(T - 1, -1, -1):
        for b in range(T - 1, -1, -1):
            part = np.zeros(2)   # everything but the (0, 0) hands
            zero = np.zeros(2)   # weight of hands scoring nothing
            for d in (0, 1):
                wd = w[d]
                nxt = 1 - d
                if end_of_hand:
                    fa_, fb_ = pa[d] + a, pb[d] + b
                    over = (fa_ >= T) | (fb_ >= T)
                    win = over & (fa_ > fb_)
                    eq = over & (fa_ == fb_)
                    rest = ~over
                    s = wd[win].sum() + wd[eq].sum() * tie[nxt]
                else:
                    ta, tb = fa[d][:, T - a], fb[d][:, T - b]
                    win = ta < tb
                    both = (ta == tb) & (ta < NEVER)
                    rest = ta == tb
                    rest &= ~both
                    s = wd[win].sum()
                    if both.any():
                        s += _simultaneous(tr[d], np.nonzero(both)[0], a, b, T, wd, tie[nxt])
                z = rest & (pa[d] == 0) & (pb[d] == 0)
                zero[d] = wd[z].sum()
                rest &= ~z
                if rest.any():
                    ia, ib = pa[d][rest] + a, pb[d][rest] + b
                    vals = V[nxt][np.minimum(ia, T - 1), np.minimum(ib, T - 1)]
                    s += (wd[rest] * vals).sum()
                part[d] = s / tot
                zero[d] /= tot
            # V0 = part0 + zero0 * V1 ; V1 = part1 + zero1 * V0
            den = 1 - zero[0] * zero[1]
            V[0, a, b] = (part[0] + zero[0] * part[1]) / den
            V[1, a, b] = (part[1] + zero[1] * part[0]) / den
    return V, tie


def _simultaneous(tr: Traces, rows: np.ndarray, a: int, b: int, T: int,
                  w: np.ndarray, tie_next: float) -> float:
    """Weighted wins of A over hands where both sides first reach their
    need on one (split) award: walk those hands award by award."""
    s = 0.0
    for n in rows:
        x, y = a, b
        won = None
        for ga, gb in zip(tr.ga[n], tr.gb[n]):
            x += int(ga)
            y += int(gb)
            if x >= T and x > y:
                won = 1.0
                break
            if y >= T and y > x:
                won = 0.0
                break
        s += w[n] * (tie_next if won is None else won)
    return s


@dataclass
class MatchTable:
    """A shipped match-equity table: ``equity[d][a][b]`` (``d`` 0 when A
    deals next), ``tie`` the value of equal totals at or over the target,
    and where it came from."""

    rules: str
    players: int
    target: int
    win_check: str
    equity: list
    tie: list
    hands: int
    player: str
    command: str
    intervals: list
    seconds: dict | None = None
    se_method: str = ""

    def equity_of(self, a: int, b: int, a_deals: bool) -> float:
        """P(side A wins the match), a probability, with ``a`` and ``b``
        match points and A dealing the next hand or not. Scores past the
        table: a side at or over the target with the higher total has won;
        equal totals there take the tie value.

        >>> t = load("lmodire", 2)
        >>> t.equity_of(41, 30, False), t.equity_of(0, 45, True)
        (1.0, 0.0)
        """
        T = self.target
        d = 0 if a_deals else 1
        if a >= T or b >= T:
            if a > b and a >= T:
                return 1.0
            if b > a and b >= T:
                return 0.0
            if a == b:
                return float(self.tie[d])
        return float(self.equity[d][min(a, T - 1)][min(b, T - 1)])

    def to_json(self) -> dict:
        """The JSON document written to ``data/``."""
        return {k: getattr(self, k) for k in (
            "rules", "players", "target", "win_check", "hands", "player", "command",
            "seconds", "se_method", "intervals", "tie", "equity")}


def data_name(rules: str, players: int, target: int | None = None) -> str:
    """The file name of a shipped table: ``lmodire-2p-41.json``."""
    from ..rules import PRESETS
    t = PRESETS[rules].target if target is None else target
    return f"{rules}-{players}p-{t}.json"


SHIPPED = (("lmodire", 2), ("pagat", 2), ("pagat", 4), ("french", 2))

_cache: dict[str, MatchTable] = {}


def load(rules: str, players: int, target: int | None = None) -> MatchTable:
    """The shipped table for a preset, player count and target (the
    preset's by default). Raises ValueError when none is shipped."""
    name = data_name(rules, players, target)
    if name not in _cache:
        try:
            text = resources.files(__package__).joinpath("data", name).read_text("utf-8")
        except (FileNotFoundError, OSError):
            shipped = ", ".join(sorted(f.name[:-5] for f in resources.files(__package__)
                                       .joinpath("data").iterdir() if f.name.endswith(".json")))
            raise ValueError(f"no match-equity table for {name[:-5]} (shipped: "
                             f"{shipped or 'none'})") from None
        _cache[name] = MatchTable(**json.loads(text))
    return _cache[name]


def table_for(rules, players: int) -> MatchTable:
    """The table for a :class:`~solver.rules.Rules` (its name, target and
    player count). Raises ValueError when none is shipped or the table's
    win check differs from the rules', and for Ronda voleur (no table is
    built for it: its hands score differently, and the match search does
    not follow stolen piles)."""
    if getattr(rules, "voleur", False):
        raise ValueError("no match-equity table for Ronda voleur (voleur=yes)")
    t = load(rules.name, players, rules.target)
    if t.win_check != rules.win_check:
        raise ValueError(f"the {rules.name} table was built for win_check={t.win_check}, "
                         f"not {rules.win_check}")
    return t


def equity_array(rules, players: int, target: int | None = None,
                 table: MatchTable | None = None):
    """The match objective's leaves for the compiled search
    (:class:`solver.engine.tables.MatchLeaves`): a plain float64 array
    ``equity[d, x, y]``, the chance that side A (0) wins the match when it
    needs ``x`` more points and side B ``y`` (``1 <= x, y <= target``; row
    and column 0 unused), ``d = 0`` when A deals the next hand, and the tie
    values. ``target``: the rules' by default; ``table``: this table
    instead of the shipped one. Raises ValueError when no table is shipped
    for the rules, players and target (see :func:`table_for`).

    >>> from solver.rules import PRESETS
    >>> leaves = equity_array(PRESETS["lmodire"], 2)
    >>> t = load("lmodire", 2)
    >>> float(leaves.equity[1, 41 - 38, 41 - 30]) == t.equity_of(38, 30, False)
    True
    """
    from ..engine.tables import MatchLeaves
    if target is not None and target != rules.target:
        rules = rules.with_overrides({"target": str(target)})
    t = table if table is not None else table_for(rules, players)
    T = t.target
    eq = np.zeros((2, T + 1, T + 1), dtype=np.float64)
    for d in (0, 1):
        for x in range(1, T + 1):
            for y in range(1, T + 1):
                eq[d, x, y] = t.equity_of(T - x, T - y, d == 0)
    return MatchLeaves(T, eq, (float(t.tie[0]), float(t.tie[1])))
