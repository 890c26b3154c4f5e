"""The compiled engine's inputs, built from the reference :class:`Game`.

``params(game)`` gives ``(P, D)``, the int64 arrays every kernel of
:mod:`solver.engine.core` takes: the rule parameters (read from the Rules
in one place, :func:`solver.engine.game.event_points` for the points of
each event) and the deals of a known stock. ``core_state`` converts a
reference state (a 7-tuple, all hands in one int) into the core's
``NSTATE``-tuple; ``ref_state`` converts back.

>>> from solver.rules import PRESETS
>>> from solver.engine.game import Game
>>> g = Game(PRESETS["lmodire"], 2, 0, [])
>>> s = g.initial_state([0, 4], [[1, 1], [2, 9]], 0)
>>> ref_state(core_state(s)) == s
True
"""

from __future__ import annotations

import numpy as np

from . import core
from .game import HAND_BITS, MASK40, Game, State, event_points, max_declaration


#: Ronda voleur is searched by the pure-Python engine only
VOLEUR_REFUSED = ("the compiled core does not take Ronda voleur: "
                  "solver.analysis.evaluation runs it on the pure-Python searches")


def params(game: Game) -> tuple[np.ndarray, np.ndarray]:
    """``(P, D)`` for ``game``: P indexed by ``core.P_*``, D with one row
    per stock position (known stock) holding the dealt hands, the
    declarations' half-points for side 0 and the next stock position.
    Raises CompileError for Ronda voleur (the pure-Python searches take it)."""
    rules = game.rules
    if rules.voleur:
        from .compile import CompileError
        raise CompileError(VOLEUR_REFUSED)
    P = np.zeros(core.P_SIZE, dtype=np.int64)
    P[core.P_PLAYERS] = game.players
    P[core.P_LEADER] = game.leader
    P[core.P_EMPTY] = 0 if game.shuffled else len(game.stock)
    P[core.P_SHUFFLED] = int(game.shuffled)
    P[core.P_ANSWERS] = len(rules.hit)
    P[core.P_MISSA_LAST] = int(rules.missa_on_last_card)
    P[core.P_BONUS] = rules.last_capture_bonus
    P[core.P_TWO_SIDED] = int(game.players in (2, 4))
    P[core.P_RONDA] = rules.ronda
    P[core.P_TRINGA] = rules.tringa
    P[core.P_SPLIT] = int(rules.declare_tie == "split")
    P[core.P_CONTESTED] = rules.declare_contested
    P[core.P_CUMULATIVE] = int(rules.decl_cumulative)
    P[core.P_MISSA_ROUND] = int(rules.missa_last_round)
    P[core.P_DECL_MAX] = max_declaration(rules, game.players)
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
    for s in range(game.players):
        P[core.P_SIDE + s] = game.sides[s]
        P[core.P_NEXT + s] = (s + 1) % game.players
    for k, n in game.next_deal.items():
        P[core.P_DEALN + k] = n
    D = np.zeros((len(game.stock) + 1, core.D_COLS), dtype=np.int64)
    for spos, (packed, decl) in game.deals.items():
        for s in range(game.players):
            D[spos, s] = (packed >> (HAND_BITS * s)) & MASK40
        D[spos, core.D_DG] = 2 * (decl[0] - decl[1]) if game.players in (2, 4) else 0
        D[spos, core.D_NEXT] = spos + bin(packed).count("1")
    return P, D


def core_state(state: State) -> tuple[int, ...]:
    """The core's state tuple of a reference state."""
    table, hands, seat, prev, show, last, spos = state
    h = [(hands >> (HAND_BITS * s)) & MASK40 for s in range(4)]
    return (table, h[0], h[1], h[2], h[3], seat, prev, show, last, spos)


def ref_state(st) -> State:
    """The reference state of a core state tuple (or row)."""
    st = [int(x) for x in st]
    hands = 0
    for s in range(4):
        hands |= st[1 + s] << (HAND_BITS * s)
    return (st[0], hands, st[5], st[6], st[7], st[8], st[9])
