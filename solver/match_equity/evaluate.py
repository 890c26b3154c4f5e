"""Every play of a position valued for the match, next to its points.

:func:`evaluate_match` is :func:`solver.analysis.evaluation.evaluate`'s match
counterpart: each legal play gets the chance that the mover's side wins
the match (a probability: the compiled search with the match-equity
table's values as its leaves, :func:`.table.equity_array`, the same
exact, expectimax and determinised methods and budgets as points) and its
points value (the match ignored). :func:`target_reachable`
says whether the match can end in this hand, which is when ``auto``
chooses the match objective (:func:`objective_for`).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from ..runtime import clock
from ..analysis.evaluation import BudgetError, evaluate
from ..engine import core
from ..engine.compile import CompileError, is_perfect_information
from ..position import Position
from .table import MatchTable, equity_array, table_for

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
    #: why the sampling stopped (``evaluate``'s ``stopped``: "time" when the
    #: budget cut it short), None when not sampled
    stopped: str | None = None
    #: interrupted (Ctrl-C): the answer so far
    partial: bool = False
    #: with inference, the effective sample size of the weighted
    #: determinisations (None without, or when nothing was weighed)
    ess: float | None = None

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
    import random
    from ..engine.compile import compile_known, compile_shuffled, sampler
    from ..engine.scoring import cardset
    if pos.players not in (2, 4):
        return False
    try:
        if is_perfect_information(pos):
            game, st = compile_known(pos)
        elif all(c is not None for h in pos.hands for c in h):
            game, st = compile_shuffled(pos)
        else:   # hidden cards: the bound counts cards, one drawing will do
            game, st = sampler(pos)(random.Random(0))
    except CompileError:
        return True     # cannot tell: assume it can
    # the most each side's score can reach (the core's bound of a chance
    # node, the match objective's too: the stock as a card set, whose order
    # does not matter to it)
    a0, b0 = pos.scores()
    k0, k1 = pos.pile_sizes()
    st = st[:9] + (cardset(game.stock_left(st)), st[10])
    return max(core.reachable_scores(game.P, st, a0, b0, k0, k1)) >= pos.rules.target


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
    sides). Ronda voleur is searched like any rule system with a table (the
    compiled core follows the stolen piles and the scores together)."""
    if pos.players not in (2, 4):
        raise CompileError(f"the match objective takes two sides (this position has "
                           f"{pos.players} players; `ronda-solve met --rules "
                           f"{pos.rules.name} --players 3` prints their table)")


#: cards left to play (hands and stock) up to which ``auto`` chooses the
#: match objective: every card known, and otherwise (late in the hand,
#: where the match can be decided and the search is fast)
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
    (no table for the rules and target, three players, the
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


def _match_refusal(pos: Position, method: str | None) -> str | None:
    """Why the match objective cannot take ``pos`` at all (in words), or
    None (``method`` None: the position alone, whatever the method)."""
    if pos.players not in (2, 4):
        return (f"the match objective takes two sides (this position has {pos.players} "
                f"players, each its own side)")
    try:
        table_for(pos.rules, pos.players)
    except ValueError as e:
        return str(e)
    if method is not None:
        try:
            match_method(method)
        except ValueError as e:
            return str(e)
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
      rules, player count and target, and the hand is late
      (:data:`AUTO_MATCH_CARDS`); otherwise points, and the note says
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
    why = _match_refusal(pos, None)
    if why is not None:
        # before the reach: without taken= the piles' cards over 20 are unknown
        return ObjectiveChoice("points", f"points: {why}")
    if not target_reachable(pos):
        return ObjectiveChoice("points", f"points: the target {T} cannot be reached this hand "
                                         f"(score {_score_text(pos)})")
    try:
        # the method after the reach: a match out of reach is the reason then
        # (it said "no equilibrium method" of a match never in play)
        match_method(method)
    except ValueError as e:
        return ObjectiveChoice("points", f"points: {e}")
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
                   time_budget: float | None = 10.0, memory_mb: float | None = 2048.0,
                   workers: int = 1, inference: bool = True) -> MatchAnalysis:
    """Value every play of ``pos`` for the match (probabilities that the
    mover's side wins it) on the compiled search: ``method`` ``exact``
    (every card known), ``expectimax`` (hands known, stock order not),
    ``determinised`` (the unknown cards sampled, at most ``samples``
    drawings with ``seed``), ``auto`` as :func:`solver.analysis.evaluation.
    evaluate` picks. ``points``: also each play's points value. The budgets
    (``time_budget`` seconds, ``memory_mb``) are kept as by ``evaluate``:
    with ``points`` the match search takes :data:`MATCH_SHARE` of the
    time, the points search the rest. ``inference``: the determinised
    search weighs each drawing by the likelihood of the hidden hands'
    plays this deal, as the points search does
    (:mod:`solver.analysis.inference`), so both columns rest on one belief.

    Raises ValueError (CompileError) for a position it cannot search, when
    no table is shipped for the rules, player count and target, and
    SearchTooBig when an exact method asked for by name does not finish
    within the budget."""
    preload()
    t0 = time.perf_counter()
    time_budget = 10.0 if time_budget is None else time_budget
    memory_mb = 2048.0 if memory_mb is None else memory_mb
    searchable(pos)
    table = table or table_for(pos.rules, pos.players)
    _piles(pos)
    sa, sb = pos.scores()
    T = pos.rules.target
    if pos.rules.win_check == "immediate" and max(sa, sb) >= T and sa != sb:
        raise ValueError(f"the match is already over: score {sa},{sb} with target {T} "
                         f"(use the points objective)")
    if not any(c for c in pos.hands[pos.turn]):
        raise ValueError("the player to move holds no card")
    if method not in MATCH_METHODS:
        raise ValueError(f"unknown method {method!r} (methods: {', '.join(MATCH_METHODS)})")
    leaves = equity_array(pos.rules, pos.players, table=table)
    start = clock.now()
    try:
        a = evaluate(pos, method=method, samples=samples, seed=seed, workers=workers,
                     time_budget=(MATCH_SHARE if points else 1.0) * time_budget,
                     memory_mb=memory_mb, match=leaves, inference=inference)
    except BudgetError as e:
        raise SearchTooBig(f"the match search: {e}") from None
    pts: dict[int, float] = {}
    if points:
        pm = "determinised" if a.method == "determinised" else a.method
        try:
            p = evaluate(pos, method=pm, samples=max(samples, 100), seed=seed,
                         workers=workers, memory_mb=memory_mb, inference=inference,
                         time_budget=max(0.05, start + time_budget - clock.now()))
            pts = {mv.rank: mv.value for mv in p.moves}
        except BudgetError:         # the time went to the match search: no points
            pts = {}
    moves = [MatchMove(mv.move, mv.rank, mv.value, mv.stderr, pts.get(mv.rank))
             for mv in a.moves]
    moves.sort(key=lambda x: (-x.chance, -(x.points or 0.0), x.rank))
    top = moves[0].chance
    best = [x.move for x in moves if x.chance >= top - 1e-12]
    return MatchAnalysis(pos, a.method, top, moves, best, a.nodes, time.perf_counter() - t0,
                         a.samples, {"rules": table.rules, "players": table.players,
                                     "target": table.target, "hands": table.hands,
                                     "player": table.player},
                         a.note, pv=a.pv, stopped=a.stopped, partial=a.partial, ess=a.ess)


def preload() -> None:
    """Load what a match search needs the first time a process makes one
    (its compiled kernels: 0.4 s here), before any clock starts: start-up,
    not search, as :func:`solver.analysis.evaluation.evaluate` counts it
    (a fresh ``--time 0.5`` match answer reported 0.65-0.74 s, and its
    points column got 0.05 s)."""
    from ..search.compiled import ensure_compiled
    ensure_compiled(parts=("search", "samples"))


class SearchTooBig(BudgetError):
    """The match search did not finish within its budget."""


#: the share of ``time_budget`` the match search may take when the points
#: are searched too (they have the rest)
MATCH_SHARE = 0.7
