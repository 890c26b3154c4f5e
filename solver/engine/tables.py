"""The compiled engine's inputs: a rule system as data.

:func:`rule_params` gives ``P``, the int64 array every kernel of
:mod:`solver.engine.core` takes, from a :class:`~solver.rules.Rules`, the
player count, the leader and the stock; the rule parameters are read here
and nowhere else (the points of each event through
:func:`solver.engine.scoring.event_points`). Seats 2, 3 or 4; sides
(partnerships, or each seat alone); Ronda voleur; every house-rule
parameter; the objective (points, or the match with its equity table).
:func:`deal_rows` gives ``D``, the deals of a known stock.

>>> from solver.rules import PRESETS
>>> P = rule_params(PRESETS["french"], 3, 0, 27)
>>> int(P[core.P_NSIDES]), int(P[core.P_GENERAL]), [int(P[core.P_SIDE + s]) for s in range(3)]
(3, 1, [0, 1, 2])
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import numpy as np

from . import core
from .scoring import event_points, max_declaration
from ..rules import Rules, deal_sizes


@dataclass
class MatchLeaves:
    """The match objective's leaf data: ``target``; ``equity[d, x, y]`` the
    chance that side A (0) wins the match when it needs ``x`` more points
    and side B ``y`` (``1 <= x, y <= target``), ``d = 0`` when A deals the
    next hand; ``tie[d]`` the chance from equal totals at or over the
    target. Built by :func:`solver.match_equity.table.equity_array`."""

    target: int
    equity: np.ndarray
    tie: tuple[float, float]


def sides_of(players: int) -> tuple[int, ...]:
    """The side of each seat: partnerships S+N, E+W with four players, each
    seat alone otherwise."""
    return tuple(s % 2 if players == 4 else s for s in range(players))


def rule_params(rules: Rules, players: int, leader: int, nstock: int, shuffled: bool = False,
                *, track: bool = False, match: MatchLeaves | None = None) -> np.ndarray:
    """``P`` for a hand of ``rules`` with ``players`` (2, 3 or 4) led by seat
    ``leader``; ``nstock`` cards in the stock (a known stock's length; 0 for
    a shuffled one, whose state holds the card set); ``shuffled``: the deals
    are chance nodes. The x word is tracked (:func:`core.play_general`) for
    three sides, Ronda voleur, the match objective, or when ``track`` (the
    caller reads the piles: then they are never written canonically).
    ``match``: the match objective's leaves (two sides)."""
    P = np.zeros(core.P_SIZE, dtype=np.int64)
    sides = sides_of(players)
    nsides = max(sides) + 1
    P[core.P_PLAYERS] = players
    P[core.P_LEADER] = leader
    P[core.P_EMPTY] = 0 if shuffled else nstock
    P[core.P_SHUFFLED] = int(shuffled)
    P[core.P_ANSWERS] = len(rules.hit)
    P[core.P_MISSA_LAST] = int(rules.missa_on_last_card)
    P[core.P_BONUS] = rules.last_capture_bonus
    P[core.P_TWO_SIDED] = int(nsides == 2)
    P[core.P_RONDA] = rules.ronda
    P[core.P_TRINGA] = rules.tringa
    P[core.P_SPLIT] = int(rules.declare_tie == "split")
    P[core.P_CONTESTED] = rules.declare_contested
    P[core.P_CUMULATIVE] = int(rules.decl_cumulative)
    P[core.P_MISSA_ROUND] = int(rules.missa_last_round)
    P[core.P_DECL_MAX] = max_declaration(rules, players)
    hit = tuple(rules.hit) + (0, 0)
    for i in range(3):
        P[core.P_HIT + i] = hit[i]
    P[core.P_MISSA] = rules.missa
    P[core.P_CAPTURE] = rules.capture_point
    for ev in range(32):
        P[core.P_PTS + ev] = event_points(rules, ev)
    if not rules.seven_ten_adjacent:
        for r in range(7):
            P[core.P_BRK + r] = 1 << 28
    for s in range(players):
        P[core.P_SIDE + s] = sides[s]
        P[core.P_NEXT + s] = (s + 1) % players
        P[core.P_PREV + s] = (s - 1) % players
    sizes = deal_sizes(rules, players)
    for i in range(len(sizes)):
        P[core.P_DEALN + sum(sizes[i:]) * players] = sizes[i]
    P[core.P_NSIDES] = nsides
    P[core.P_VOLEUR] = int(rules.voleur)
    P[core.P_TARGET] = rules.target
    P[core.P_IMMEDIATE] = int(rules.win_check == "immediate")
    P[core.P_GENERAL] = int(track or nsides == 3 or rules.voleur or match is not None)
    # a search's own states may write a pile that cannot pass 20 cards as 0
    # (not when the caller reads the piles: ``track``; not when cards move
    # between piles: voleur's steals, the answers' shown cards), and a
    # voleur top no opponent can steal any more as none (not with ``track``)
    canon = 0
    if P[core.P_GENERAL] and not track and not rules.voleur and len(rules.hit) == 1:
        canon |= core.CANON_PILES
    if rules.voleur and not track:
        canon |= core.CANON_TOPS
    P[core.P_CANON] = canon
    if match is not None:
        if nsides != 2:
            raise ValueError("the match objective's leaves take two sides")
        n = match.target + 1
        P[core.P_MATCH] = 1
        P[core.P_TARGET] = match.target
        P[core.P_QN] = n
        S = core.EQ_SCALE
        P[core.P_TIE] = round(match.tie[0] * S)
        P[core.P_TIE + 1] = round(match.tie[1] * S)
        q = np.rint(np.asarray(match.equity, dtype=np.float64).reshape(2, n, n) * S)
        if not rules.voleur and monotone_leaves(q, P[core.P_TIE:core.P_TIE + 2], S):
            P[core.P_CANON] |= core.CANON_DOMINANCE
        P = np.concatenate([P, q.astype(np.int64).reshape(-1)])
    return P


def monotone_leaves(q: np.ndarray, tie, scale: int) -> bool:
    """Whether the match leaves ``q[d, need A, need B]`` (times ``scale``)
    and the tie values grow with side A's score and fall with B's, between
    a loss (0) and a win (``scale``): the condition under which a state's
    value is bounded by the values of the same cards with better or worse
    scores and piles (:func:`solver.engine.core.dominance`). The shipped
    tables are; a table that is not leaves the bounds off."""
    inner = q[:, 1:, 1:]
    return bool(np.all(np.diff(inner, axis=1) <= 0) and np.all(np.diff(inner, axis=2) >= 0)
                and inner.min() >= 0 and inner.max() <= scale
                and all(0 <= t <= scale for t in tie))


def deal_rows(P: np.ndarray, stock: Sequence[int]) -> np.ndarray:
    """``D`` for a known stock (rank indices in dealing order): one row per
    stock position where a deal starts, holding the dealt hands, the
    declarations (half-points for side 0, and points per side) and the
    next stock position (:func:`solver.engine.core.build_deals`)."""
    D = np.zeros((len(stock) + 1, core.D_COLS), dtype=np.int64)
    if len(stock):
        core.build_deals(P, np.array(stock, dtype=np.int64), len(stock), D)
    return D
