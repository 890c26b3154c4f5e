"""The engine's levels on the play page: from a beginner to the full engine.

Each level is a player of :mod:`solver.games.players` (its spec is what
``ronda-solve arena`` takes, so a level's strength is measured with the
same code that plays it; docs/web.md has the table of each level against
the next):

====  ========  ================  ==========================================
 no.  name      spec              how it plays
====  ========  ================  ==========================================
 1    beginner  ``greedy:0.5``    greedy, but half its plays are any card
 2    casual    ``greedy:0.2``    greedy, but one play in five is any card
 3    regular   ``greedy``        the most points now, else the safest lay
 4    club      ``mc:50``         flat Monte Carlo, 50 playouts a play (as
                                  the strongest Ronda apps play)
 5    expert    ``engine:0.05s``  the full engine: inference, the equilibrium
                                  of the last two deals, 0.05 s a decision
====  ========  ================  ==========================================

A level sees only its seat's view (:meth:`solver.games.match.HandState.view`,
written as a position line and read back) and a seed derived from the game
and the play (:func:`decision_seed`), never the other hands or the stock.

:func:`choose` bounds a decision by ``cap`` seconds (the server's
``--time``): the searches get ``cap`` as their budget, and a search that
overruns it anyway (a machine too loaded to give it a core) is stopped by
an alarm after :func:`hard_limit` seconds and the decision falls back to
the greedy card, which the result says.
"""

from __future__ import annotations

import hashlib
import random
import signal
import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass

from ..cards import Card
from ..position import Position


@dataclass(frozen=True)
class Level:
    """One level: ``number`` (1 the weakest), ``name``, the player
    ``spec``, what it does in words (``about``)."""

    number: int
    name: str
    spec: str
    about: str

    @property
    def label(self) -> str:
        """``level 4 (club)``."""
        return f"level {self.number} ({self.name})"


LEVELS: tuple[Level, ...] = (
    Level(1, "beginner", "greedy:0.5",
          "greedy, but half its plays are any card of its hand"),
    Level(2, "casual", "greedy:0.2",
          "greedy, but one play in five is any card of its hand"),
    Level(3, "regular", "greedy",
          "takes the most points now, else lays the card least likely to be hit"),
    Level(4, "club", "mc:50",
          "flat Monte Carlo, like the strongest Ronda apps: 50 random playouts a play"),
    Level(5, "expert", "engine:0.05s",
          "the full engine: determinised search weighted by the plays seen, the "
          "equilibrium of the last two deals, 0.05 s a decision"),
)


def level(number: int) -> Level:
    """The level numbered ``number``; ValueError naming the known ones."""
    for lv in LEVELS:
        if lv.number == number:
            return lv
    raise ValueError(f"level {number} does not exist (levels 1 to {len(LEVELS)})")


def decision_seed(game_seed: str, index: int, seat: int) -> int:
    """The seed of one decision: a hash of the game's seed, the play's
    index in the game and the seat. A hash, so that the engine, which
    gets it, cannot recover the deck from it."""
    digest = hashlib.sha256(f"ronda-play/{game_seed}/{index}/{seat}".encode()).hexdigest()
    return int(digest[:15], 16)


def player(spec: str, cap: float):
    """The player of ``spec`` with its searches bounded by ``cap``
    seconds: ``engine:K`` gets ``cap`` as its budget, ``engine:Ts`` at most
    ``cap`` a decision; the others are bounded by their work."""
    from .players import EnginePlayer, TimedEnginePlayer, make_player
    p = make_player(spec)
    if isinstance(p, EnginePlayer):
        p.time_budget = min(p.time_budget, cap)
    elif isinstance(p, TimedEnginePlayer):
        p.seconds = min(p.seconds, cap)
    return p


def hard_limit(cap: float) -> float:
    """Seconds after which a decision of budget ``cap`` is stopped: the
    budget plus a margin (5 s, or ``cap`` when longer) for a loaded
    machine, where a search may return late without overrunning."""
    return cap + max(5.0, cap)


class OutOfTime(Exception):
    """A decision overran its alarm."""


@contextmanager
def alarm(seconds: float):
    """Raise :class:`OutOfTime` in this thread after ``seconds`` (main
    thread only, where SIGALRM exists; elsewhere nothing is armed)."""
    usable = (hasattr(signal, "setitimer")
              and threading.current_thread() is threading.main_thread())
    if not usable:
        yield
        return

    def ring(_signum, _frame):
        raise OutOfTime()

    old = signal.signal(signal.SIGALRM, ring)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def choose(number: int, view: Position, seed: int, cap: float) -> tuple[Card, str]:
    """Level ``number``'s card for ``view`` (the seat's view, the mover to
    play) with the decision ``seed``, within ``cap`` seconds. Returns
    ``(card, note)``: ``note`` is ``""``, or says that the search ran out
    of time and the greedy card was played."""
    lv = level(number)
    rng = random.Random(seed)
    t0 = time.perf_counter()
    try:
        with alarm(hard_limit(cap)):
            return player(lv.spec, cap).choose(view, rng), ""
    except OutOfTime:
        spent = time.perf_counter() - t0
        card = player("greedy", cap).choose(view, random.Random(seed))
        return card, (f"{lv.label} ran out of time ({spent:.0f} s, over the server's "
                      f"--time {cap:g}): the greedy card was played")
