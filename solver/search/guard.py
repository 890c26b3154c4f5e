"""Budgets for the pure-Python searches (the reference searches, Ronda
voleur, three players): a game wrapped so that every ``every`` calls of
its ``children`` the clock and the tables are checked.

- **time**: past ``deadline`` (``time.monotonic()``) the search is
  stopped by :class:`Stopped`; the caller keeps what finished before.
- **memory**: the search's tables (dicts: transposition tables, memos)
  are emptied when together they pass ``max_entries``; a table is a
  cache, so the search stays exact, only slower.

:func:`entries_for` turns a ``--memory`` budget into table entries.

>>> class G:
...     def children(self, s):
...         return [s + 1]
>>> g = Guarded(G(), deadline=None, every=2, max_entries=3)
>>> table = {1: 1, 2: 2, 3: 3, 4: 4}
>>> g.watch(table)
>>> _ = g.children(0); _ = g.children(1)
>>> table
{}
"""

from __future__ import annotations

import time

#: bytes a pure-Python table entry takes (a tuple key and value in a dict),
#: measured on CPython 3.11 for the searches' entries: about 200-300
ENTRY_BYTES = 300


class Stopped(Exception):
    """A pure-Python search stopped at its deadline; ``nodes`` searched."""

    def __init__(self, reason: str = "time", nodes: int = 0) -> None:
        super().__init__(f"search stopped ({reason}) after {nodes} nodes")
        self.reason = reason
        self.nodes = nodes


def entries_for(memory_mb: float | None) -> int | None:
    """Table entries that fit in ``memory_mb`` (None: no cap)."""
    if memory_mb is None:
        return None
    return max(1000, int(memory_mb * (1 << 20) / ENTRY_BYTES))


class Guarded:
    """``game`` with its ``children`` checked every ``every`` calls (see
    the module docstring); every other attribute is the game's."""

    def __init__(self, game, deadline: float | None, every: int = 2048,
                 max_entries: int | None = None) -> None:
        self._game = game
        self._tables: list[dict] = []
        self.calls = 0
        children = game.children

        def checked(state):
            self.calls += 1
            if not self.calls % every:
                if deadline is not None and time.monotonic() > deadline:
                    raise Stopped("time", self.calls)
                if max_entries is not None and \
                        sum(len(t) for t in self._tables) > max_entries:
                    for t in self._tables:
                        t.clear()
            return children(state)

        self.children = checked

    def watch(self, *tables: dict) -> None:
        """Keep ``tables`` within the entry budget."""
        self._tables.extend(tables)

    def __getattr__(self, name):
        return getattr(self._game, name)
