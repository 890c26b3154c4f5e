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

from ..analysis.methods import OBJECTIVES  # noqa: E402  (re-exported)
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
    #: the principal variation for the match (rank texts, from the mover;
    #: up to the end of the hand, the match's end or the next chance node),
    #: None when sampled
    pv: list[str] | None = None

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
        raise CompileError(f"the match objective does not search Ronda voleur (the match "
                           f"search does not follow stolen piles; `ronda-solve met --rules "
                           f"{pos.rules.name} --set voleur=yes` prints its table)")


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


class ObjectiveError(ValueError):
    """``--objective match`` asked for where the match cannot be searched
    (no table for the rules and target, three players, Ronda voleur, the
    piles not written, an equilibrium method): one line saying what to do
    instead."""


@dataclass(frozen=True)
class ObjectiveChoice:
    """The objective a position is searched with: ``objective``
    ``"points"`` or ``"match"``, and ``note`` one line in a player's words
    saying why ("" when nothing needs saying: points with no score
    written)."""

    objective: str
    note: str = ""


def _score_text(pos: Position) -> str:
    return "-".join(str(s) for s in pos.scores())


def match_over(pos: Position) -> bool:
    """The written score has already ended the match: with the
    ``immediate`` win check, a side at or over the target with more points
    than the other (equal totals there play on; under ``end_of_hand`` the
    hand in play decides)."""
    top, second = sorted(pos.scores())[-1:-3:-1]
    return pos.rules.win_check == "immediate" and top >= pos.rules.target and top != second


def _match_refusal(pos: Position, method: str) -> str | None:
    """Why the match objective cannot take ``pos`` at all (in words), or
    None."""
    if pos.players not in (2, 4):
        return (f"the match objective takes two sides (this position has {pos.players} "
                f"players, each its own side)")
    if pos.rules.voleur:
        return ("the match search does not take Ronda voleur (voleur=yes: it does not "
                "follow stolen piles)")
    try:
        table_for(pos.rules, pos.players)
    except ValueError as e:
        return str(e)
    if method not in MATCH_METHODS:
        return (f"the match objective has no {method} method "
                f"(methods: {', '.join(MATCH_METHODS)})")
    try:
        _piles(pos)
    except ValueError as e:
        return str(e)
    return None


def objective_choice(pos: Position, objective: str = "auto",
                     method: str = "auto") -> ObjectiveChoice:
    """The objective to search ``pos`` with, and why (docs/match.md).

    - ``points``: points.
    - ``auto``: points unless the line writes a score (``score=``); with a
      score, the match when the target can be reached in this hand
      (:func:`target_reachable`, a sure bound), a table is shipped for the
      rules, player count and target, and the pure-Python match search
      fits (:data:`AUTO_MATCH_CARDS`); otherwise points, and the note says
      why (never silently).
    - ``match``: the match, or :class:`ObjectiveError` (one line, what to
      do instead) when it cannot be searched.

    Under both, a score at or over the target is valued in points with a
    note (the match is over: nothing is left to win but points)."""
    if objective not in OBJECTIVES:
        raise ValueError(f"unknown objective {objective!r} (objectives: {', '.join(OBJECTIVES)})")
    if objective == "points":
        return ObjectiveChoice("points")
    T = pos.rules.target
    if pos.score is not None and match_over(pos):
        return ObjectiveChoice("points", f"points: the score {_score_text(pos)} is at or over "
                                         f"the target {T}, the match is over")
    if objective == "match":
        why = _match_refusal(pos, method)
        if why is not None:
            raise ObjectiveError(f"{why}: use --objective points")
        return ObjectiveChoice("match", f"playing for the match: score {_score_text(pos)}, "
                                        f"target {T}")
    if pos.score is None:
        return ObjectiveChoice("points")
    if pos.players not in (2, 4):
        return ObjectiveChoice("points", f"points: {_match_refusal(pos, method)}")
    if not target_reachable(pos):
        return ObjectiveChoice("points", f"points: the target {T} cannot be reached this hand "
                                         f"(score {_score_text(pos)})")
    why = _match_refusal(pos, method)
    if why is not None:
        return ObjectiveChoice("points", f"points: {why}")
    known = is_perfect_information(pos)
    limit = AUTO_MATCH_CARDS["known" if known else "other"]
    left = cards_to_play(pos)
    if left > limit:
        return ObjectiveChoice("points", f"points: {left} cards are left to play, the match "
                                         f"search takes {limit} "
                                         f"{'with every card known' if known else 'here'} "
                                         f"(--objective match tries)")
    return ObjectiveChoice("match", f"playing for the match: score {_score_text(pos)}, the "
                                    f"target {T} can be reached this hand")


def choose_objective(pos: Position, objective: str) -> str:
    """``points`` or ``match``: :func:`objective_choice`'s objective."""
    return objective_choice(pos, objective).objective


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
                   max_nodes: int = 3_000_000, time_budget: float | None = None,
                   memory_mb: float | None = None) -> MatchAnalysis:
    """Value every play of ``pos`` for the match (probabilities that the
    mover's side wins it). ``method``: ``exact`` (every card known),
    ``expectimax`` (hands known, stock order not), ``determinised`` (the
    unknown cards sampled ``samples`` times with ``seed``, every play
    solved exactly in each, averaged), ``auto`` the first that applies.
    ``points``: also each play's points value (the compiled search).
    ``max_nodes``: positions the search may visit (all samples together)
    before it gives up with SearchTooBig. ``time_budget`` (seconds): the
    match search may take :data:`MATCH_SHARE` of it (past that,
    SearchTooBig), the points search the rest; ``memory_mb`` caps the
    search's table.

    Raises ValueError (CompileError) for a position it cannot search and
    when no table is shipped for the rules, player count and target."""
    t0 = time.perf_counter()
    start = time.monotonic()
    # with ``points`` the points search has the rest of the time
    deadline = None if time_budget is None else \
        start + (MATCH_SHARE if points else 1.0) * time_budget
    cap = None
    if memory_mb is not None:
        from ..search.guard import entries_for
        cap = entries_for(memory_mb)
    searchable(pos)
    table = table or table_for(pos.rules, pos.players)
    ka, kb = _piles(pos)
    sa, sb = pos.scores()
    T = pos.rules.target
    if pos.rules.win_check == "immediate" and max(sa, sb) >= T and sa != sb:
        raise ValueError(f"the match is already over: score {sa},{sb} with target {T} "
                         f"(use the points objective)")
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
    searched = None
    stderr: dict[int, float] = {}
    if method in ("exact", "expectimax"):
        game, state = compile_known(pos) if method == "exact" else compile_shuffled(pos)
        s = _Bounded(game, table, max_nodes, deadline, cap)
        chances = s.root(state, sa, sb, ka, kb)
        nodes = s.nodes
        searched = (s, state)
    elif method == "determinised":
        sample = sampler(pos)
        rng = random.Random(seed)
        sums: dict[int, list[float]] = {}
        for _ in range(samples):
            game, state = sample(rng)
            s = _Bounded(game, table, max_nodes - nodes, deadline, cap)  # one budget for all
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
        from ..analysis.evaluation import BudgetError
        pm = "determinised" if method == "determinised" else method
        kw = {}
        if time_budget is not None:
            kw["time_budget"] = max(0.05, start + time_budget - time.monotonic())
        if memory_mb is not None:
            kw["memory_mb"] = memory_mb
        try:
            a = evaluate(pos, method=pm, samples=max(samples, 100), seed=seed, **kw)
            pts = {mv.rank: mv.value for mv in a.moves}
        except BudgetError:         # the time went to the match search: no points
            pts = {}
    moves = [MatchMove(_card_text(pos, m), m, v, stderr.get(m), pts.get(m))
             for m, v in chances.items()]
    moves.sort(key=lambda x: (-x.chance, -(x.points or 0.0), x.rank))
    top = moves[0].chance
    best = [x.move for x in moves if x.chance >= top - 1e-12]
    pv = None
    if searched is not None:
        s, state = searched
        pv = principal_variation(s, state, sa, sb, ka, kb, moves[0].rank)
        nodes = s.nodes
    return MatchAnalysis(pos, method, top, moves, best, nodes, time.perf_counter() - t0,
                         n_samples, {"rules": table.rules, "players": table.players,
                                     "target": table.target, "hands": table.hands,
                                     "player": table.player}, pv=pv)


def principal_variation(s: MatchSearch, state, sa: int, sb: int, ka: int, kb: int,
                        first: int) -> list[str]:
    """The match's principal variation from ``state`` starting with the
    play ``first`` (a rank index): each later play the one of the best
    chance for its mover (the first in move order among equals), up to
    the end of the hand or of the match, or the next chance node (a deal
    from an unknown stock). Rank texts. Reuses ``s``'s table."""
    from ..cards import RANKS
    game = s.game
    line = []
    move = first
    while True:
        line.append(str(RANKS[move]))
        state, sa, sb, ka, kb, decided = s.step(state, move, sa, sb, ka, kb)
        if decided is not None or (game.shuffled and game.is_chance(state)):
            return line
        moves = game.moves(state)
        if not moves:
            return line
        mover0 = game.sides[state[2]] == 0
        best_v = None
        for m in moves:
            child, na, nb, nka, nkb, d = s.step(state, m, sa, sb, ka, kb)
            v = d if d is not None else s.value(child, na, nb, nka, nkb)
            v = v if mover0 else 1.0 - v
            if best_v is None or v > best_v + 1e-12:
                best_v, move = v, m


class SearchTooBig(ValueError):
    """The match search visited more positions than allowed."""


#: the share of ``time_budget`` the match search may take (the points
#: search, which is fast, has the rest)
MATCH_SHARE = 0.7
#: seconds the reference engine takes to list one deal of a chance node
#: (with its declarations): about 30 us on this project's machine
SECONDS_PER_DEAL = 30e-6


class _Bounded(MatchSearch):
    """MatchSearch that stops with SearchTooBig past ``max_nodes`` or past
    ``deadline`` (``time.monotonic()``, read every 1024 positions), and
    empties its table past ``max_entries`` (a cache: the values stay
    exact)."""

    def __init__(self, game, table, max_nodes: int, deadline: float | None = None,
                 max_entries: int | None = None) -> None:
        super().__init__(game, table)
        self.max_nodes = max_nodes
        self.deadline = deadline
        self.max_entries = max_entries
        self._calls = 0

    def value(self, state, *args, **kw):  # noqa: D102 - see MatchSearch.value
        if self.nodes > self.max_nodes:
            raise SearchTooBig(f"the match search passed {self.max_nodes:,} positions "
                               f"(pure Python: late-hand positions only)")
        self._calls += 1
        game = self.game
        chance = game.shuffled and game.is_chance(state)
        if chance or not self._calls & 63:
            if self.deadline is not None and time.monotonic() > self.deadline:
                raise self._late()
            if self.max_entries is not None and len(self.tt) > self.max_entries:
                self.tt.clear()
        if chance and self.deadline is not None:
            self._deals_fit(state[6])
        return super().value(state, *args, **kw)

    def _late(self) -> "SearchTooBig":
        return SearchTooBig("the match search does not fit in its share of the time "
                            "(pure Python: late-hand positions only)")

    def _deals_fit(self, stock: int) -> None:
        """Refuse, before listing them, the deals of a chance node that
        would take past the deadline to list (SECONDS_PER_DEAL each,
        counted by the compiled core)."""
        known = getattr(self.game, "_outcomes", {})
        if stock in known:
            return
        from ..engine.core import outcome_count
        from ..engine.tables import params
        if not hasattr(self, "_P"):
            self._P = params(self.game)[0]
        k = outcome_count(self._P, stock, 10 ** 7)
        if time.monotonic() + k * SECONDS_PER_DEAL > self.deadline:
            raise self._late()
