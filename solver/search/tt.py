"""Transposition table: a dict from a game's key to ``(lower, upper, best)``.

Bounds are in the search's value unit (the game's half-points); ``best`` is
the move that produced the lower bound, tried first on the next visit.
Entries are only made where the game gives a key (DDS: at round
boundaries).
"""

from __future__ import annotations

INF = 1 << 30


class TranspositionTable(dict):
    """``key -> (lower, upper, best move or -1)``; a plain dict, with
    ``probes``/``hits`` counters kept by the search."""

    __slots__ = ()
