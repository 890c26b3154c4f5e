"""Every play of a position valued for the match, next to its points.

:func:`evaluate_match` is :func:`solver.analysis.evaluation.evaluate`'s match
counterpart: each legal play gets the chance that the mover's side wins
the match (a probability, :mod:`.search`) and its points value (the
compiled points search, the match ignored). :func:`target_reachable`
says whether the match can end in this hand, which is when ``auto``
chooses the match objective (:func:`objective_for`).
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass, field

from ..engine.compile import (CompileError, compile_known, compile_shuffled,
                              is_perfect_information, sampler)
from ..position import Position
from .search import MatchSearch
from .table import MatchTable, table_for

OBJECTIVES = ("auto", "points", "match")
MATCH_METHODS = ("auto", "exact", "expectimax", "determinised")


@dataclass
class MatchMove:
    """One play: ``move`` its card text, ``rank`` index, ``chance`` P(the
    mover's side wins the match), ``stderr`` of the chance when sampled,
    ``points`` the play's points value for the mover (None when not asked)."""

    move: str
    rank: int
    chance: float
    stderr: float | None = None
    points: float | None = None


@dataclass
class MatchAnalysis:
    """A position valued for the match: ``chance`` the best play's P(win
    the match); ``moves`` best first; ``best`` the plays of the best
    chance (within 1e-12); ``method`` exact, expectimax or determinised;
    ``samples`` determinisations (None when exact); ``nodes``;
    ``seconds``; ``table`` the equity table's file name and hands."""

    position: Position
    method: str
    chance: float
    moves: list[MatchMove]
    best: list[str]
    nodes: int
    seconds: float
    samples: int | None = None
    table: dict = field(default_factory=dict)
    note: str = ""

    @property
    def value(self) -> float:
        """The best chance (what test-suite ``v`` compares)."""
        return self.chance

    @property
    def stderr(self) -> float | None:
        """The best play's standard error when sampled."""
        return self.moves[0].stderr


def _piles(pos: Position) -> tuple[int, int]:
    """Cards in each side's pile; ValueError when ``taken=`` is missing or
    does not account for the cards out of play."""
    in_play = len(pos.table) + sum(len(h) for h in pos.hands) + len(pos.stock)
    if pos.stock_kind == "unknown":
        return tuple(pos.pile_sizes())  # type: ignore[return-value]
    taken = pos.pile_sizes()
    if sum(taken) != 40 - in_play:
        raise ValueError(f"the match objective needs taken= with every captured card: "
                         f"{40 - in_play} cards are out of play, taken= gives {sum(taken)}")
    return taken[0], taken[1]


def target_reachable(pos: Position) -> bool:
    """The match can end in this hand: some side's score plus the most
    points it could still make this hand (every card left, every hit,
    answer, missa and declaration the cards allow, the card count) reaches
    the target. Only for two sides; False with three."""
    if pos.players not in (2, 4):
        return False
    try:
        if is_perfect_information(pos):
            game, state = compile_known(pos)
        elif all(c is not None for h in pos.hands for c in h):
            game, state = compile_shuffled(pos)
        else:   # hidden cards: the bound counts cards, one drawing will do
            game, state = sampler(pos)(random.Random(0))
    except CompileError:
        return True     # cannot tell: assume it can
    _lo, hi = game.bounds(state)     # half-points: cards left + plays + 2 * points
    stock = state[6].bit_count() if game.shuffled else len(game.stock) - state[6]
    cards_left = state[0].bit_count() + state[1].bit_count() + stock
    plays = state[1].bit_count() + stock
    points = (hi - cards_left - plays + 1) // 2
    taken = pos.pile_sizes()
    return any(s + points + max(0, k + cards_left - 20) >= pos.rules.target
               for s, k in zip(pos.scores(), taken))


def objective_for(pos: Position, objective: str) -> str:
    """``points`` or ``match``: ``auto`` is match when the target is
    reachable in this hand (:func:`target_reachable`)."""
    if objective not in OBJECTIVES:
        raise ValueError(f"unknown objective {objective!r} (objectives: {', '.join(OBJECTIVES)})")
    if objective == "auto":
        return "match" if target_reachable(pos) else "points"
    return objective


def has_table(pos: Position) -> bool:
    """A match-equity table is shipped for the rules, target and players,
    and the match search takes the rules (:func:`searchable`)."""
    try:
        searchable(pos)
        table_for(pos.rules, pos.players)
    except ValueError:
        return False
    return True


def searchable(pos: Position) -> None:
    """Raise CompileError when the match search cannot take ``pos``: three
    players (the tables exist, ``met --players 3``; the search is for two
    sides) and Ronda voleur (the pure-Python match search does not follow
    stolen piles)."""
    if pos.players not in (2, 4):
        raise CompileError(f"the match objective takes two sides (this position has "
                           f"{pos.players} players; `ronda-solve met --rules "
                           f"{pos.rules.name} --players 3` prints their table)")
    if pos.rules.voleur:
        raise CompileError("the match objective does not search Ronda voleur (the match "
                           "search does not follow stolen piles; `ronda-solve met --set "
                           "voleur=yes` prints its table)")


#: cards left to play (hands and stock) up to which ``auto`` runs the
#: pure-Python match search: every card known, and otherwise
AUTO_MATCH_CARDS = {"known": 24, "other": 12}


def cards_to_play(pos: Position) -> int:
    """Cards still to be played this hand: the hands and the stock."""
    if pos.stock_kind == "unknown":
        out = len(unseen_pool_or_empty(pos)) - sum(1 for h in pos.hands for c in h if c is None)
        return sum(len(h) for h in pos.hands) + max(0, out)
    return sum(len(h) for h in pos.hands) + len(pos.stock)


def unseen_pool_or_empty(pos: Position) -> list[int]:
    """:func:`~solver.engine.compile.unseen_pool`, or [] when it cannot be told."""
    from ..engine.compile import unseen_pool
    try:
        return unseen_pool(pos)
    except CompileError:
        return []


def choose_objective(pos: Position, objective: str) -> str:
    """The objective to search ``pos`` with: ``auto`` becomes ``match``
    when the target is reachable in the hand, a table is shipped and the
    pure-Python match search fits (:data:`AUTO_MATCH_CARDS`), else
    ``points``; ``match`` asked for by name stays (and fails without a
    table)."""
    if objective == "auto":
        limit = AUTO_MATCH_CARDS["known" if is_perfect_information(pos) else "other"]
        if pos.players not in (2, 4) or cards_to_play(pos) > limit or not has_table(pos):
            return "points"
    return objective_for(pos, objective)


def match_method(method: str) -> str:
    """The match search's method for a points method name (``equilibrium``
    has no match counterpart: ValueError)."""
    if method not in MATCH_METHODS:
        raise ValueError(f"the match objective has no {method} method "
                         f"(methods: {', '.join(MATCH_METHODS)})")
    return method


def _card_text(pos: Position, rank: int) -> str:
    for c in pos.hands[pos.turn]:
        if c is not None and c.index == rank:
            return str(c)
    from ..cards import RANKS
    return str(RANKS[rank])


def evaluate_match(pos: Position, method: str = "auto", samples: int = 64, seed: int = 0,
                   *, points: bool = True, table: MatchTable | None = None,
                   max_nodes: int = 3_000_000) -> MatchAnalysis:
    """Value every play of ``pos`` for the match (probabilities that the
    mover's side wins it). ``method``: ``exact`` (every card known),
    ``expectimax`` (hands known, stock order not), ``determinised`` (the
    unknown cards sampled ``samples`` times with ``seed``, every play
    solved exactly in each, averaged), ``auto`` the first that applies.
    ``points``: also each play's points value (the compiled search).
    ``max_nodes``: positions the search may visit (all samples together)
    before it gives up with SearchTooBig.

    Raises ValueError (CompileError) for a position it cannot search and
    when no table is shipped for the rules, player count and target."""
    t0 = time.perf_counter()
    searchable(pos)
    table = table or table_for(pos.rules, pos.players)
    ka, kb = _piles(pos)
    sa, sb = pos.scores()
    T = pos.rules.target
    if pos.rules.win_check == "immediate" and max(sa, sb) >= T and sa != sb:
        raise ValueError(f"the match is already over: score {sa},{sb} with target {T}")
    if not any(c for c in pos.hands[pos.turn]):
        raise ValueError("the player to move holds no card")
    if method == "auto":
        if is_perfect_information(pos):
            method = "exact"
        elif all(c is not None for h in pos.hands for c in h):
            method = "expectimax"
        else:
            method = "determinised"
    nodes = 0
    n_samples = None
    stderr: dict[int, float] = {}
    if method in ("exact", "expectimax"):
        game, state = compile_known(pos) if method == "exact" else compile_shuffled(pos)
        s = _Bounded(game, table, max_nodes)
        chances = s.root(state, sa, sb, ka, kb)
        nodes = s.nodes
    elif method == "determinised":
        sample = sampler(pos)
        rng = random.Random(seed)
        sums: dict[int, list[float]] = {}
        for _ in range(samples):
            game, state = sample(rng)
            s = _Bounded(game, table, max_nodes - nodes)   # one budget for all samples
            for m, v in s.root(state, sa, sb, ka, kb).items():
                sums.setdefault(m, []).append(v)
            nodes += s.nodes
        chances = {m: sum(v) / len(v) for m, v in sums.items()}
        for m, v in sums.items():
            mean = chances[m]
            var = sum((x - mean) ** 2 for x in v) / max(1, len(v) - 1)
            stderr[m] = math.sqrt(var / len(v))
        n_samples = samples
    else:
        raise ValueError(f"unknown method {method!r} (methods: {', '.join(MATCH_METHODS)})")
    pts: dict[int, float] = {}
    if points:
        from ..analysis.evaluation import evaluate
        pm = "determinised" if method == "determinised" else method
        a = evaluate(pos, method=pm, samples=max(samples, 100), seed=seed)
        pts = {mv.rank: mv.value for mv in a.moves}
    moves = [MatchMove(_card_text(pos, m), m, v, stderr.get(m), pts.get(m))
             for m, v in chances.items()]
    moves.sort(key=lambda x: (-x.chance, -(x.points or 0.0), x.rank))
    top = moves[0].chance
    best = [x.move for x in moves if x.chance >= top - 1e-12]
    return MatchAnalysis(pos, method, top, moves, best, nodes, time.perf_counter() - t0,
                         n_samples, {"rules": table.rules, "players": table.players,
                                     "target": table.target, "hands": table.hands,
                                     "player": table.player})


class SearchTooBig(ValueError):
    """The match search visited more positions than allowed."""


class _Bounded(MatchSearch):
    """MatchSearch that stops with SearchTooBig past ``max_nodes``."""

    def __init__(self, game, table, max_nodes: int) -> None:
        super().__init__(game, table)
        self.max_nodes = max_nodes

    def value(self, *args, **kw):  # noqa: D102 - see MatchSearch.value
        if self.nodes > self.max_nodes:
            raise SearchTooBig(f"the match search passed {self.max_nodes:,} positions "
                               f"(pure Python: late-hand positions only)")
        return super().value(*args, **kw)
