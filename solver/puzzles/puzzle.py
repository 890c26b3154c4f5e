"""Teaching puzzles: a position where one play is clearly best, why, and
how hard it is to see; verifying a puzzle line; generating sets.

A puzzle is a position line (NOTATION.md) with EPD opcodes::

    1.2 2.4/4 - S taken=17,18 last=N prev=2 ; bm 2 ; v 4 ; id "..." ;
        themes hit avoid-hit ; level 1 ; depth 1 ; margin 5 ; method exact ;
        pv 2 4 4 ; source composed ; c "Play 2: it hits N's 2 (+1); ..."

(one line). ``bm`` is the one best play, ``v`` its value in points for the
side to move (README "values": from now to the end of the hand, the card
count included), ``margin`` how many points it beats every other play by
(the only-move criterion, as lichess asks of a puzzle's every move:
default at least :data:`DEFAULT_MARGIN` = 2 points), ``themes`` the ideas
it teaches (:mod:`solver.puzzles.themes`), ``level`` 1 easy, 2 medium, 3 hard,
``depth`` the plies a gain-only look-ahead needs to find the play,
``method`` how ``v`` was obtained (always ``exact``: every card known),
``pv`` the principal variation as ranks, ``source`` ``composed`` (CP-SAT,
:mod:`solver.puzzles.compose`), ``selfplay`` (hands played by :mod:`solver.games.players`
through :mod:`solver.games.match`) or ``mined`` (greedy playouts; both in
:mod:`solver.puzzles.mine`), ``game`` the hand a self-play or mined puzzle came
from, ``c`` the explanation written from the principal variation and the
events. docs/puzzles.md describes it all.

A plain ``ronda-solve FILE`` reads these lines as a test suite (``bm`` and
``v``); ``ronda-solve puzzles check FILE`` re-verifies every field.

>>> from solver.notation import parse_position
>>> p = examine(parse_position("1.2 2.4/4 - S taken=17,18 last=N prev=2"))
>>> p.best, p.value, p.margin, p.themes, p.level
('2', 4.0, 5.0, ['hit', 'avoid-hit'], 1)
"""

from __future__ import annotations

import hashlib
import math
import re
import time
from functools import lru_cache
from dataclasses import dataclass, field
from typing import Callable, Iterator

from ..analysis.hidden import hides_cards
from ..cards import RANKS
from ..engine.compile import CompileError, compile_known, is_perfect_information, pile_margin
from ..engine.hand import Hand as Game, State
from ..engine.scoring import EV_ANSWER10, EV_ANSWER5, EV_HIT
from ..notation import NotationError, format_position, parse_file, parse_position
from ..numbers import percent_gap, signed
from ..position import Position
from .explain import explain, themes_of as tag_cache
from .themes import THEMES, Idea, idea_of

#: the only-move criterion: the best play beats every other by this many points.
DEFAULT_MARGIN = 2.0
#: difficulty levels.
LEVELS: dict[int, str] = {1: "easy", 2: "medium", 3: "hard"}
#: the opcodes a puzzle line carries, in the order they are written.
PUZZLE_OPCODES = ("bm", "v", "vv", "id", "themes", "level", "depth", "margin", "method",
                  "pv", "source", "game", "c")
#: the look-ahead horizon (plies) beyond which a play counts as deep.
MAX_DEPTH = 8


class NotAPuzzle(ValueError):
    """A position that fails the puzzle criteria; ``reason`` says which:
    ``"hidden"`` (cards unknown), ``"one play"``, ``"tie"`` (several best
    plays), ``"margin"`` (the best play does not beat the next by the
    margin), ``"theme"`` (no theme, or not the requested one)."""

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(message)
        self.reason = reason


@dataclass
class Puzzle:
    """One puzzle.

    - ``position``: the position, without the puzzle's opcodes;
    - ``best``: the one best play (card text); ``value``: its exact value,
      points for the mover's side; ``margin``: points by which it beats the
      strongest other play (``None`` with one legal play; a puzzle drawn
      from the mover's seat, once :func:`make_puzzle` or :func:`verify` has
      judged it: on average over the hands the mover cannot tell apart,
      :func:`mover_margin`);
    - ``themes``: theme names (:data:`solver.puzzles.themes.THEMES` order);
    - ``level``: 1, 2, 3 (:func:`difficulty`); ``depth``: plies a gain-only
      look-ahead needs to single out the best play (``MAX_DEPTH + 1``:
      deeper); ``tempting``: other plays whose immediate gain is at least
      the best play's;
    - ``pv``: principal variation (printed ranks); ``explanation``: the
      teaching text; ``method``: ``"exact"``; ``source``: where the
      position came from; ``moves``: every root play with its value
      (card text -> points), best first; ``game``: for a mined puzzle, the
      playout it came from (``seed/number``); ``kind``: what the best play
      does against what the strongest other play does (:func:`kind_of`,
      ``"lay/take"``);
    - three players (:mod:`solver.puzzles.maxn`): ``value`` and ``moves``
      are the mover's entry of the max^n vectors, ``margin`` the mover's
      entry of the best less that of the strongest other play (the next in
      the max^n rule's order), ``vectors`` every play's vector (card text
      -> points per seat, S E N; empty with two or four players).
    """

    position: Position
    best: str
    value: float
    margin: float | None
    themes: list[str]
    level: int
    depth: int
    tempting: int
    pv: list[str]
    explanation: str
    method: str = "exact"
    source: str | None = None
    moves: dict[str, float] = field(default_factory=dict)
    game: str | None = None
    kind: str = ""
    vectors: dict[str, list[float]] = field(default_factory=dict)

    @property
    def vector(self) -> list[float] | None:
        """Three players: the best play's vector (points per seat, S E N)."""
        return self.vectors.get(self.best)

    @property
    def id(self) -> str:
        """A stable name: 7 hex digits of the SHA-1 of the canonical
        position (without opcodes)."""
        return puzzle_id(self.position)

    def ops(self) -> list[tuple[str, str]]:
        """The puzzle's opcodes, in :data:`PUZZLE_OPCODES` order."""
        ops = [("bm", self.best), ("v", _num(self.value))]
        if self.vector is not None:
            ops.append(("vv", " ".join(_num(x) for x in self.vector)))
        ops += [("id", self.id),
               ("themes", " ".join(self.themes)), ("level", str(self.level)),
               ("depth", str(self.depth))]
        if self.margin is not None:
            ops.append(("margin", _num(self.margin)))
        ops += [("method", self.method), ("pv", " ".join(self.pv))]
        if self.source:
            ops.append(("source", self.source))
        if self.game:
            ops.append(("game", self.game))
        ops.append(("c", self.explanation))
        return ops

    def line(self) -> str:
        """The puzzle line (canonical position, then the opcodes)."""
        pos = _bare(self.position)
        pos.ops = self.ops()
        return format_position(pos)


def _num(x: float) -> str:
    """A point value as written on a line: ``2``, ``-1.5``."""
    return f"{x:g}"


def _bare(pos: Position) -> Position:
    """A copy of ``pos`` without opcodes."""
    from copy import copy
    out = copy(pos)
    out.ops = []
    return out


def puzzle_id(pos: Position) -> str:
    """7 hex digits of the SHA-1 of the canonical line without opcodes."""
    return hashlib.sha1(format_position(_bare(pos)).encode()).hexdigest()[:7]


# --- difficulty ------------------------------------------------------------


def horizon_best(game: Game, state: State, plies: int) -> set[int]:
    """The root plays a look-ahead of ``plies`` plies picks when it counts
    only the points and cards won on the way (every play's gain, no
    judgement beyond the horizon): a greedy player at ``plies = 1``."""
    memo: dict = {}

    def negamax(s: State, k: int) -> int:
        if k == 0 or game.is_terminal(s):
            return 0
        key = (s, k)
        v = memo.get(key)
        if v is None:
            v = max(g - negamax(c, k - 1) for c, g, _e in (game.play(s, m) for m in game.moves(s)))
            memo[key] = v
        return v

    vals = {}
    for m in game.moves(state):
        child, gain, _ev = game.play(state, m)
        vals[m] = gain - negamax(child, plies - 1)
    top = max(vals.values())
    return {m for m, v in vals.items() if v == top}


def depth_needed(game: Game, state: State, best: int, max_depth: int = MAX_DEPTH) -> int:
    """The smallest look-ahead (plies, 1 = the play's own gain) at which
    :func:`horizon_best` picks ``best`` alone (three sides:
    :func:`solver.puzzles.maxn.horizon_best_maxn`, each seat its own
    points); ``max_depth + 1`` if none up to ``max_depth`` does."""
    look = horizon_best
    if game.nsides == 3:
        from .maxn import horizon_best_maxn as look
    for k in range(1, max_depth + 1):
        if look(game, state, k) == {best}:
            return k
    return max_depth + 1


def singled_out(margin: float | None) -> bool:
    """Whether one play is singled out by ``margin`` (the best play's lead
    over the next; None with one play), so that the puzzle has a level and
    a depth: never on a tie or with a single play (said as ``bm``'s).

    >>> singled_out(0.5), singled_out(0.0), singled_out(None)
    (True, False, False)
    """
    return margin is not None and margin > 0


def difficulty(depth: int, tempting: int) -> int:
    """The level from the depth of the idea and the plausible alternatives.

    1 (easy): the play's own gain shows it (``depth`` 1). 2 (medium): one
    must see the reply or one's own next play (``depth`` 2 or 3). 3 (hard):
    deeper (``depth`` 4 or more), or a shallow idea hidden among two or
    more plays that gain at least as much at once (``tempting``).

    >>> difficulty(1, 0), difficulty(3, 1), difficulty(2, 2), difficulty(5, 0)
    (1, 2, 3, 3)
    """
    if depth <= 1:
        return 1
    if depth >= 4 or tempting >= 2:
        return 3
    return 2


# --- kinds and the spread of a set ----------------------------------------


def action(ply) -> str:
    """What a root play does: ``answer``, ``hit``, ``take`` (any other
    capture, a run or a missa included) or ``lay``."""
    if ply.events & (EV_ANSWER5 | EV_ANSWER10):
        return "answer"
    if ply.events & EV_HIT:
        return "hit"
    return "lay" if ply.lays else "take"


def kind_of(idea) -> str:
    """The kind of decision a puzzle asks for: the best play's
    :func:`action`, a slash, the strongest other play's (``"lay/take"``:
    lay rather than take); just the best play's with one legal play."""
    key = action(idea.pv.plies[0])
    if idea.runner_up is None:
        return key
    return f"{key}/{action(idea.lines[idea.runner_up].plies[0])}"


def share_caps(count: int) -> tuple[int, int]:
    """The spread rule of a set of ``count`` puzzles (docs/puzzles.md
    "Spread"): no rank is the answer of more than a quarter of the set,
    no kind (:func:`kind_of`) that of more than two thirds, both rounded
    up: ``(rank cap, kind cap)``.

    >>> share_caps(12), share_caps(10), share_caps(8)
    ((3, 8), (3, 7), (2, 6))
    """
    return -(-count // 4), -(-2 * count // 3)


#: themes whose puzzles are nearly all of one kind, so the kind share is
#: not asked of their sets: a bait lays, and the strongest other play of a
#: bait puzzle lays too in all but about 1 of 10 (docs/puzzles.md "Spread").
ONE_KIND_THEMES = ("bait",)


def spread_problem(found: list[Puzzle], p: Puzzle, count: int,
                   theme: str | None = None) -> str | None:
    """Why ``p`` would break the spread rule of a set of ``count`` of
    ``theme`` that already holds ``found`` (``"rank share"``, ``"kind
    share"``), or None."""
    rank_cap, kind_cap = share_caps(count)
    if sum(1 for q in found if q.pv[0] == p.pv[0]) >= rank_cap:
        return "rank share"
    if theme in ONE_KIND_THEMES:
        return None
    if sum(1 for q in found if q.kind == p.kind) >= kind_cap:
        return "kind share"
    return None


# --- examining a position --------------------------------------------------


def _declared(pos: Position) -> list[tuple[int, int]]:
    from ..cards import RANK_INDEX
    return [(d.seat, RANK_INDEX[d.rank]) for d in pos.declared if d.rank is not None]


def idea_for(pos: Position) -> tuple[Game, State, Idea]:
    """The game, state and :class:`~solver.puzzles.themes.Idea` of a position.

    Three players: the max^n idea (:func:`solver.puzzles.maxn.idea_of_maxn`).
    The idea is the puzzle's search, and one question asks it several
    times (the web's answer: the puzzle, the values it judges by, the
    played line), so the last few positions' are kept, by their canonical
    line without opcodes (the result is not to be changed).
    Raises NotAPuzzle (``hidden``) unless every card is known, and
    CompileError for a position the search does not take."""
    if not is_perfect_information(pos):
        raise NotAPuzzle("hidden", "a puzzle needs every card known (exact method)")
    return _idea_for(format_position(_bare(pos)))


@lru_cache(maxsize=8)
def _idea_for(line: str) -> tuple[Game, State, Idea]:
    pos = parse_position(line)
    game, state = compile_known(pos)
    if game.nsides == 3:
        from .maxn import idea_of_maxn
        return game, state, idea_of_maxn(game, state, _declared(pos))
    return game, state, idea_of(game, state, _declared(pos))


def examine(pos: Position, source: str | None = None) -> Puzzle:
    """Everything about ``pos`` as a puzzle, with no criterion applied
    (see :func:`make_puzzle`). Raises NotAPuzzle (``hidden``)."""
    game, state, idea = idea_for(pos)
    base = pile_margin(pos)
    key = idea.key
    value = (idea.values[key] + base) / 2
    margin = None
    if idea.runner_up is not None:
        margin = (idea.values[key] - idea.values[idea.runner_up]) / 2
    immediate = {m: idea.lines[m].plies[0].gain for m in idea.order}
    tempting = sum(1 for m in idea.order[1:] if immediate[m] >= immediate[key])
    depth = depth_needed(game, state, key) if margin else MAX_DEPTH + 1
    themes = tag_cache(idea)
    from ..analysis.evaluation import move_text
    kind = kind_of(idea)
    return Puzzle(
        position=_bare(pos), best=move_text(pos, key), value=value, margin=margin,
        themes=list(themes), level=difficulty(depth, tempting), depth=depth,
        tempting=tempting, pv=[str(RANKS[p.rank]) for p in idea.pv.plies],
        explanation=explain(idea, pos), source=source,
        moves=_move_values(pos, idea), kind=kind, vectors=_move_vectors(pos, idea))


def _move_values(pos: Position, idea: Idea) -> dict[str, float]:
    """Card text -> the mover's value in points of every play, best first."""
    from ..analysis.evaluation import move_text
    base = pile_margin(pos)
    return {move_text(pos, m): (idea.values[m] + base) / 2 for m in idea.order}


def _move_vectors(pos: Position, idea: Idea) -> dict[str, list[float]]:
    """Three players: card text -> every play's max^n vector; else empty."""
    from ..analysis.evaluation import move_text
    return {move_text(pos, m): [float(x) for x in idea.vectors[m]] for m in idea.order
            if m in idea.vectors}


def make_puzzle(pos: Position, margin: float = DEFAULT_MARGIN, theme: str | None = None,
                source: str | None = None) -> Puzzle:
    """The puzzle of ``pos`` if it is one: every card known, two or more
    plays, the best beats every other by at least ``margin`` points, at
    least one theme (and ``theme`` among them when given).

    Raises NotAPuzzle naming the failed criterion."""
    p = examine(pos, source)
    if p.margin is None:
        raise NotAPuzzle("one play", "only one play is possible")
    if p.margin <= 0:
        raise NotAPuzzle("tie", f"several best plays ({signed(p.value)})")
    if p.margin < margin:
        raise NotAPuzzle("margin", f"the best play beats the next by {p.margin:g} "
                                   f"points, less than {margin:g}")
    if not p.themes:
        raise NotAPuzzle("theme", "no theme fits")
    if theme is not None and theme not in p.themes:
        raise NotAPuzzle("theme", f"the themes are {' '.join(p.themes)}, not {theme}")
    seen = mover_margin(p)
    problem = hidden_problem(p, margin, seen)
    if problem:
        raise NotAPuzzle("hidden hand", problem)
    if seen is not None:            # the margin the line writes, check verifies
        p.margin = seen.margin
    return p


@dataclass(frozen=True)
class MoverMargin:
    """A puzzle drawn from the mover's seat, judged over the hands the
    mover cannot tell apart: ``hands`` counted and ``margin``, the best
    play's average lead over the strongest other play
    (:func:`solver.analysis.hidden.robust`) rounded down to the hundredth,
    as the line writes it (a written margin never says more than holds)."""

    hands: int
    margin: float


def mover_margin(p: Puzzle) -> MoverMargin | None:
    """The margin of a puzzle drawn from the mover's seat (a two-player
    declaration puzzle, :func:`solver.analysis.hidden.hides_cards`) from the
    mover's view (:class:`MoverMargin`); None for any other puzzle, whose
    margin is the exact one. The one computation of that margin:
    :func:`make_puzzle` (``generate``, ``batch mine``) writes it and
    :func:`verify` (``puzzles check``) verifies it and tests it against
    ``--margin``."""
    from ..analysis.hidden import robust
    if p.position.players != 2 or "declaration" not in p.themes:
        return None
    r = robust(p.position, _rank(p.best))
    if math.isinf(r.margin):
        # no other play (one legal play: the exact margin says so), or
        # the best play never legal over the hidden hands: fails any margin
        return None if r.margin > 0 else MoverMargin(r.hands, r.margin)
    # 1e-6: an average of halves over integer weights that float
    # arithmetic leaves a hair under a hundredth is that hundredth
    return MoverMargin(r.hands, math.floor(r.margin * 100 + 1e-6) / 100)


def hidden_problem(p: Puzzle, margin: float = DEFAULT_MARGIN,
                   seen: MoverMargin | None = None) -> str | None:
    """For a puzzle drawn from the mover's seat (:func:`mover_margin`,
    given as ``seen`` or worked out): why its answer does not beat every
    other play by ``margin`` on average over the hands the mover cannot
    tell apart, or None. Any other puzzle: None."""
    seen = seen if seen is not None else mover_margin(p)
    if seen is not None and seen.margin < margin:
        if seen.hands == 1:     # the captured cards written leave N one hand
            return (f"with the one hand the mover can count, {p.best} beats the next play "
                    f"by {seen.margin:g} points, less than {margin:g}")
        return (f"over the {seen.hands} hands the mover cannot tell apart, {p.best} beats "
                f"the next play by {seen.margin:g} points on average, less than {margin:g}")
    return None


# --- the objective a line is judged by -------------------------------------


def judge(pos: Position):
    """The exact analysis a puzzle line is judged by: ``ronda-solve``'s own
    (:func:`solver.match_equity.objective.analyse`, method ``exact``,
    objective ``auto``), so that the puzzle commands and the solver give
    the same answer on the same line. Points, unless the line writes a
    ``score=`` and the match objective applies
    (:func:`solver.match_equity.evaluate.objective_choice`: the target can be
    reached this hand, a table is shipped); then each play's ``chance``
    of winning the match, ``best`` and the order of ``moves`` by that
    chance (``value`` and each play's ``value`` stay in points).
    ``objective_note`` says why (one line). The last few lines' answers
    are kept (a quiz asks up to three times a puzzle); the result is not
    to be changed. Raises what ``analyse`` raises (CompileError,
    ValueError)."""
    return _judge(format_position(_bare(pos)))


@lru_cache(maxsize=8)
def _judge(line: str):
    from ..match_equity.objective import analyse
    return analyse(parse_position(line), "auto", method="exact")


def match_heading(pos: Position) -> str:
    """The match a line is played for, in words: ``playing for the match:
    S 40, N 39, target 41``."""
    from ..position import side_names
    score = ", ".join(f"{s} {v}" for s, v in zip(side_names(pos.players), pos.scores()))
    return f"playing for the match: {score}, target {pos.rules.target}"


def chance_text(chance: float | None) -> str:
    """A chance of winning the match as the puzzle commands print it
    (``100%``, ``61.6%``)."""
    if chance is None:
        return "?"
    return f"{100 * chance:.1f}".rstrip("0").rstrip(".") + "%"


def chance_gap_text(whole: float, part: float) -> str:
    """How much less ``part`` is than ``whole`` beside :func:`chance_text`
    of both: the printed whole less the printed part, so the two add up
    as read (:func:`solver.numbers.percent_gap`: ``8.9%``, ``<0.1%``;
    ``""`` for none), whole percents without their ``.0``."""
    text = percent_gap(whole, part)
    return text[:-3] + "%" if text.endswith(".0%") else text


def match_line_text(pos: Position, pv: list[str] | None) -> str | None:
    """The match's principal variation ``pv`` (rank texts from the mover,
    as :func:`judge` gives it: up to the end of the hand or the match's
    end) told play by play as a puzzle's lines are
    (:func:`solver.puzzles.explain.ply_text`): ``it lays 6; N holds no 6
    to hit it; then N lays 2, S hits N's 2 (+1)``. None when there is no
    line or it cannot be replayed."""
    from ..cards import RANK_INDEX, parse_card
    from ..position import seat_names
    from .explain import ply_text, root_note
    from .themes import replay
    if not pv:
        return None
    try:
        game, state, idea = idea_for(pos)
        plies = replay(game, state, [RANK_INDEX[parse_card(t).rank] for t in pv])
    except (NotAPuzzle, CompileError, ValueError, KeyError):
        return None
    names = seat_names(idea.players)
    head = "it " + ply_text(idea, plies[0], names, first=True)
    note = root_note(idea, plies[0].rank, names)
    if note:
        head += "; " + note
    rest = [ply_text(idea, p, names) for p in plies[1:]]
    return head + ("; then " + ", ".join(rest) if rest else "")


def match_explanation(pos: Position, a) -> str:
    """The teaching text of a puzzle played for the match (``a``:
    :func:`judge`'s answer, objective match): the match it is played
    for, the best play for the match, its chance of winning it and its
    line (:func:`match_line_text`), every other play's chance; when the
    points objective prefers another play, that play and both values,
    said as points this hand (what is not judged here)."""
    from ..cards import parse_card
    top = a.moves[0]
    heading = match_heading(pos)
    text = (f"{heading[:1].upper() + heading[1:]}. Play {parse_card(top.move).rank}: "
            f"{chance_text(top.chance)} to win the match")
    line = match_line_text(pos, a.pv)
    text += f": {line}." if line else "."
    if len(a.moves) > 1:
        text += " Next for the match: " + ", ".join(
            f"{mv.move} {chance_text(mv.chance)}" for mv in a.moves[1:]) + "."
    points_top = max(a.moves, key=lambda mv: mv.value)
    if points_top.value > top.value + 1e-9:
        how = ("less often" if points_top.chance < top.chance - 1e-12 else "no more often")
        text += (f" In points this hand {points_top.move} is worth more "
                 f"({signed(points_top.value)} against {signed(top.value)} for {top.move}), but it wins "
                 f"the match {how} ({chance_text(points_top.chance)}).")
    return text.replace('"', "'")


def match_answer(pos: Position) -> tuple[str, str | None] | None:
    """For a sheet: None when the line is judged in points (no score
    written, the match objective does not apply, or a declaration puzzle
    drawn from the mover's seat); else the match it is
    played for (:func:`match_heading`) and the chance of winning it of the
    line's ``bm`` (:func:`chance_text`; the best play's when the line names
    none, None when the cards are not all known)."""
    if pos.score is None or hides_cards(pos):   # only a written score brings the match in
        return None                 # (drawn from the mover's seat: in points)
    if not is_perfect_information(pos):
        from ..match_equity.evaluate import objective_choice
        if objective_choice(pos, "auto").objective != "match":
            return None
        return match_heading(pos), None
    try:
        a = judge(pos)
    except (CompileError, ValueError):
        return None
    if a.objective != "match":
        return None
    chance = a.chance
    bm = (pos.opcode("bm") or "").split()
    if bm:
        try:
            chance = next(mv.chance for mv in a.moves if mv.rank == _rank(bm[0]))
        except (StopIteration, ValueError):
            pass
    return match_heading(pos), chance_text(chance)


#: the fields of a puzzle line that describe the answer in points (the
#: only-move margin in points, the points line): under the match
#: objective they are not checked, and ``puzzles check`` says so
#: (``themes``, ``level`` and ``depth`` are the match's: :func:`match_idea`)
POINTS_FIELDS = ("margin", "pv")

#: the fields of a puzzle line that describe the answer under the match
#: objective as they describe it in points: the idea of the match's play
#: and its difficulty (:func:`match_idea`)
MATCH_FIELDS = ("themes", "level", "depth")

#: the themes whose predicate reads more than the match search gives
#: (the line after every other play, the next player's value of each
#: reply): judged for the match only where its own line decides them
#: (:func:`_match_theme`), else said to be unjudged
MATCH_UNJUDGED = ("bait", "avoid-hit", "sweep", "declaration")


def _match_theme(name: str, seen: Idea, line_known: bool) -> bool | None:
    """Theme ``name`` for the match (``seen``: the idea with the match's
    order and, for its best play, the match's line): True, False, or None
    when it cannot be judged for the match. The root plays' themes are
    judged as for points; ``answer5``/``answer10`` on the match's line;
    the others of :data:`MATCH_UNJUDGED` only where the match's line alone
    decides them (a declared rank hit in its first three plies; the best
    play hit at once, so no avoid-hit; no sweep in it; no hit on the bait
    next, or the hands do not make a bait)."""
    if name not in MATCH_UNJUDGED and name not in ("answer5", "answer10"):
        return THEMES[name](seen)
    if not line_known:
        return None
    if name not in MATCH_UNJUDGED:
        return THEMES[name](seen)
    pv = seen.pv.plies
    if name == "declaration":
        ranks = {r for _seat, r in seen.declared}
        if not ranks:
            return False
        scoring = EV_HIT | EV_ANSWER5 | EV_ANSWER10
        return True if any(p.events & scoring and p.rank in ranks for p in pv[:3]) else None
    if name == "avoid-hit":
        return False if len(pv) > 1 and pv[1].events & EV_HIT else None
    if name == "sweep":
        return False if seen.runner_up is None or seen.pv.sweep_for(seen.side) == 0 else None
    # bait: the hands and the rules as for points, and the hit on it next
    # in the match's line; whether that hit is the next player's one best
    # reply for the match is not known
    if len(pv) < 2 or not pv[1].events & EV_HIT or pv[1].rank != pv[0].rank:
        return False
    from dataclasses import replace
    return None if THEMES["bait"](replace(seen, replies={pv[1].rank: 0})) else False


@dataclass
class MatchIdea:
    """The idea of a puzzle played for the match (:func:`match_idea`):
    ``best`` the one play of the best chance of winning it (card text),
    ``themes`` the themes that hold for it, judged on its root play and
    the match's line (:data:`THEMES` order), ``unjudged`` the themes that
    cannot be judged for the match (:func:`_match_theme`: some of
    :data:`MATCH_UNJUDGED`, and the line's themes when the match's line
    cannot be replayed),
    ``level``/``depth``/``tempting`` by the points puzzles' rule
    (:func:`difficulty` of the look-ahead that singles out the match's
    play, :func:`depth_needed`; ``level`` and ``depth`` None when no play
    is singled out: a tie for the best chance, or one legal play),
    ``margin`` its chance less the next play's (None with one legal
    play)."""

    best: str
    themes: list[str]
    unjudged: list[str]
    level: int | None
    depth: int | None
    tempting: int
    margin: float | None

    @property
    def written(self) -> str:
        """The ``themes`` a line played for the match writes: all but
        ``declaration``, which on a line draws the puzzle from the mover's
        seat, judged over the hidden hands in points only
        (:func:`solver.analysis.hidden.hides_cards`)."""
        return " ".join(t for t in self.themes if t != "declaration")


def match_idea(pos: Position) -> MatchIdea | None:
    """The themes and level of ``pos`` played for the match (:class:`MatchIdea`),
    or None when :func:`judge` plays it in points. A theme whose predicate
    needs what the match search does not give is left unjudged rather
    than taken from the points play. Raises what :func:`judge` and
    :func:`idea_for` raise."""
    from dataclasses import replace
    from ..cards import RANK_INDEX, parse_card
    from .themes import Line, replay
    a = judge(pos)
    if a.objective != "match":
        return None
    game, state, idea = idea_for(pos)
    order = [mv.rank for mv in a.moves]
    key = order[0]
    try:
        ranks = [RANK_INDEX[parse_card(t).rank] for t in (a.pv or [])]
        if not ranks or ranks[0] != key:
            raise ValueError("the match's line does not begin with its best play")
        line, line_known = Line(replay(game, state, ranks), idea.values[key]), True
    except (ValueError, KeyError):
        # no line of the match to read: the root play alone
        line, line_known = Line(replay(game, state, [key]), idea.values[key]), False
    seen = replace(idea, order=order, lines={**idea.lines, key: line}, replies={}, extra={})
    judged = {name: _match_theme(name, seen, line_known) for name in THEMES}
    themes = [name for name, holds in judged.items() if holds]
    unjudged = [name for name, holds in judged.items() if holds is None]
    margin = a.moves[0].chance - a.moves[1].chance if len(a.moves) > 1 else None
    if len(a.best) > 1:
        margin = 0.0
    immediate = {m: idea.lines[m].plies[0].gain for m in order}
    tempting = sum(1 for m in order[1:] if immediate[m] >= immediate[key])
    if not singled_out(margin):     # a tie, or one play: no level
        return MatchIdea(a.moves[0].move, themes, unjudged, None, None, tempting, margin)
    depth = depth_needed(game, state, key)
    return MatchIdea(a.moves[0].move, themes, unjudged, difficulty(depth, tempting), depth,
                     tempting, margin)


def as_played_for_the_match(pos: Position) -> Position:
    """``pos`` with the ``themes``, ``level`` and ``depth`` of the match
    play (:func:`match_idea`), written or not, and the match's best plays
    as its ``bm`` when it names none: the line as a sheet, the quiz, their
    ``--theme``/``--level`` filters and the web trainer's list read it
    when it is played for the match (the line's own fields may be the
    points play's, which is not the answer; a sheet's answer names a
    play); a field the match play leaves empty (no theme; no level on a
    tie) is left out. ``pos`` itself when it is played in points (no
    score written: not searched; a declaration puzzle drawn from the
    mover's seat, judged over the hidden hands in points) or cannot be
    searched."""
    if pos.score is None or hides_cards(pos):   # only a written score brings the match in
        return pos
    try:
        seen = match_idea(pos)
    except (CompileError, NotAPuzzle, ValueError):
        return pos
    if seen is None:
        return pos
    from copy import copy
    out = copy(pos)
    now = {"themes": seen.written or None,
           "level": None if seen.level is None else str(seen.level),
           "depth": None if seen.depth is None else str(seen.depth)}
    # a field the match play leaves empty (no theme; no level on a tie) goes
    out.ops = [(name, now.get(name, value)) for name, value in pos.ops
               if not (name in now and now[name] is None)]
    written = {name for name, _ in pos.ops}
    out.ops += [(name, value) for name, value in now.items()
                if name not in written and value is not None]
    if pos.opcode("bm") is None:
        out.ops.insert(0, ("bm", " ".join(judge(pos).best)))
    return out


# --- checking a puzzle line ------------------------------------------------


@dataclass
class Problem:
    """One check failure: the ``field`` (an opcode name or ``position``) and
    the ``problem`` in words."""

    field: str
    problem: str

    def __str__(self) -> str:
        return f"{self.field}: {self.problem}"


def check(pos: Position, margin: float = DEFAULT_MARGIN) -> list[Problem]:
    """Re-verify a puzzle line with the exact method; the list of problems
    (empty: verified). See :func:`verify`, which also returns what the
    engine finds."""
    return verify(pos, margin)[0]


def verify(pos: Position, margin: float = DEFAULT_MARGIN,
           labels: bool = True) -> tuple[list[Problem], "Puzzle | None"]:
    """Re-verify a line that names a best play (``bm``) with the exact
    method: ``(problems, found)``; no problem means verified, ``found`` is
    the engine's examination (themes, level, value, margin, pv) or None when
    the position could not be searched. Three players: the value and the
    margin are the mover's entry of the max^n vectors (:mod:`solver.puzzles.maxn`),
    ``vv`` the best play's whole vector.

    Checks, in order: ``bm`` present; every card known; the exact
    evaluation under the objective ``ronda-solve`` plays the line for
    (:func:`judge`) has one best play, ``bm``, beating every other play by
    at least ``margin`` points (under the match: the one play of the best
    chance of winning it, ``v`` the points value as ``ronda-solve``
    compares it, :data:`POINTS_FIELDS` and the hidden-hand test left
    unchecked: :func:`objective_line` says so, and :data:`MATCH_FIELDS`
    the match play's, :func:`match_idea`, a theme it cannot judge for the
    match refused as such); a puzzle drawn from the mover's seat must also
    beat every other play by ``margin`` from the mover's view, and its
    ``margin`` is that one (:func:`mover_margin`, as ``found.margin``);
    then each of ``v``, ``vv``, ``margin``, ``themes``, ``level``,
    ``depth``, ``method``, ``pv`` when present equals what the engine
    computes now; an ``id`` must be the position's own and a ``source``
    a known one (:func:`_label_problems`). A plain line (a teacher's
    ``bm``, with or without ``v`` and no ``themes``) is verified the same
    way; the themes the engine finds are in ``found``. ``labels=False``
    leaves the labels (``id``, ``source``) unchecked, so that a stale label
    does not keep the answer from being searched (:func:`answer_problems`)."""
    problems: list[Problem] = []
    bm, v = pos.opcode("bm"), pos.opcode("v")
    if bm is None:
        problems.append(Problem("bm", "missing: a puzzle names its one best play"))
    elif len(bm.split()) > 1:
        problems.append(Problem("bm", f"a puzzle names its one best play, not {len(bm.split())} "
                                      f"({bm})"))
    if labels:
        problems += _label_problems(pos)
    if not is_perfect_information(pos):
        problems.append(Problem("position", "the exact method needs every card known "
                                             "(the stock's order written: no '?' and no '~')"))
    if problems:
        return problems, None
    try:
        a = judge(pos)
        p = examine(pos)
    except (CompileError, NotAPuzzle, ValueError) as e:
        return [Problem("position", str(e))], None
    match = a.objective == "match"
    top = a.moves[0]
    second = a.moves[1] if len(a.moves) > 1 else None
    if match:
        # the solver's objective for this line (judge): the one play of the
        # best chance of winning the match
        if len(a.best) > 1:
            problems.append(Problem("bm", f"several best plays for the match: "
                                          f"{' '.join(a.best)} ({chance_text(a.chance)} to "
                                          f"win it)"))
        elif _rank(bm) != top.rank:
            said = _play_text(a, bm, lambda mv: f"{chance_text(mv.chance)} to win it")
            problems.append(Problem("bm", f"the best play for the match is {top.move} "
                                          f"({chance_text(top.chance)} to win it), not {bm} "
                                          f"({said})"))
        if hides_cards(pos):
            problems.append(Problem("position", f"{match_heading(pos)}, and a puzzle drawn "
                                                f"from the mover's seat is judged over the "
                                                f"hidden hands in points only (remove score= "
                                                f"to judge it in points)"))
    elif len(a.best) > 1:
        problems.append(Problem("bm", f"several best plays: {' '.join(a.best)} ({signed(a.value)})"))
    elif _rank(bm) != top.rank:
        said = _play_text(a, bm, lambda mv: signed(mv.value))
        problems.append(Problem("bm", f"the best play is {top.move} ({signed(top.value)}), "
                                      f"not {bm} ({said})"))
    try:
        if v is not None and abs(float(v) - a.value) > 1e-9:
            problems.append(Problem("v", f"the value is {signed(a.value)}, not {v}" if not match else
                                         f"the value in points is {signed(a.value)} (the best play "
                                         f"for points, as ronda-solve compares it), not {v}"))
    except ValueError:
        problems.append(Problem("v", f"not a number: {v!r}"))
    # drawn from the mover's seat: the margin the line writes is the
    # mover's view's (mover_margin), and the answer must hold by it too
    seen_from = None if match else mover_margin(p)
    if second is None:
        problems.append(Problem("bm", "only one play is possible"))
    else:
        points_top = max(a.moves, key=lambda mv: mv.value)
        gap = points_top.value - max(mv.value for mv in a.moves if mv is not points_top)
        if gap < margin and not match:
            seen_all = " with every card seen" if seen_from is not None else ""
            problems.append(Problem("margin", f"the best play beats {second.move} by "
                                              f"{gap:g} points{seen_all}, less than {margin:g}"))
        if (p.value != a.value or (p.margin is not None and abs(p.margin - gap) > 1e-9)
                or (a.values is not None and p.vector != [float(x) for x in a.values])):
            problems.append(Problem("position", "the puzzle lines and the evaluation disagree"))
    recorded = {name: pos.opcode(name) for name in ("vv", "margin", "themes", "level", "depth",
                                                     "method", "pv")}
    leveled = singled_out(p.margin)
    computed = {"vv": " ".join(_num(x) for x in p.vector) if p.vector is not None else None,
                "margin": (_num(seen_from.margin) if seen_from is not None else
                           _num(p.margin) if p.margin is not None else None),
                "themes": " ".join(p.themes), "level": str(p.level) if leveled else None,
                "depth": str(p.depth) if leveled else None, "method": "exact",
                "pv": " ".join(p.pv)}
    seen = None
    if match:
        # the themes, level and depth the line writes are the match play's
        try:
            seen = match_idea(pos)
        except (CompileError, NotAPuzzle, ValueError) as e:
            return [Problem("position", str(e))], p
    if seen is not None:
        computed.update({"themes": seen.written,
                         "level": None if seen.level is None else str(seen.level),
                         "depth": None if seen.depth is None else str(seen.depth)})
    for name, want in computed.items():
        have = recorded[name]
        if have is None or (match and name in POINTS_FIELDS):
            continue                    # under the match: said by points_unchecked
        if want is None and name in ("level", "depth"):
            continue                    # a tie or one play: the bm problem says so
        if seen is not None and name == "themes":
            said = [t for t in have.split() if t in seen.unjudged]
            if said:
                problems.append(Problem(name, f"{' '.join(said)} cannot be judged for the "
                                              f"match (it reads the line after every other "
                                              f"play, which the match search does not give); "
                                              f"the engine gives {want or '(none)'} for the "
                                              f"match"))
                continue
        if name in ("margin", "vv"):
            try:
                same = want is not None and len(have.split()) == len(want.split()) and all(
                    abs(float(h) - float(w)) <= 1e-9 for h, w in zip(have.split(), want.split()))
            except ValueError:
                same = False
        else:
            same = " ".join(have.split()) == want
        if not same:
            for_match = " for the match" if seen is not None and name in MATCH_FIELDS else ""
            problems.append(Problem(name, f"{_DIFFERS} {want or '(none)'}{for_match}, "
                                          f"the line says {have}"))
    # one hand the mover can count: its view is the deal written, whose
    # margin the line's own margin problem above gives already
    one_hand = seen_from is not None and seen_from.hands == 1
    hidden = None if match or one_hand else hidden_problem(p, margin, seen_from)
    if hidden:
        problems.append(Problem("margin", hidden))
    if seen_from is not None:       # found's margin: the one the line writes
        p.margin = seen_from.margin
    unknown = [t for t in (recorded["themes"] or "").split() if t not in THEMES]
    if unknown:
        problems.append(Problem("themes", f"unknown theme {unknown[0]!r} "
                                          f"(themes: {', '.join(THEMES)})"))
    return problems, p


#: how :func:`verify` begins the problem of a field whose written value
#: is not the engine's (``margin: the engine gives 5, the line says 9``)
_DIFFERS = "the engine gives"

#: the fields of a puzzle line a sheet prints as its answer (the best
#: play, its value), with the position's problems, which keep the answer
#: from being checked (its margin: :func:`answer_problems`)
ANSWER_FIELDS = ("bm", "v", "position")


def answer_problems(pos: Position, margin: float = DEFAULT_MARGIN) -> list[Problem]:
    """What ``puzzles check`` (:func:`verify`) finds wrong with the answer a
    line gives, its ``bm``, ``v`` and ``margin``: the problems of those fields, and a
    ``position`` problem when the answer cannot be checked (a card
    unknown); empty when the answer is the engine's or the line gives
    none (no ``bm``, no ``v``). The other fields (``themes``, ``level``,
    ``id``...) are ``puzzles check``'s alone."""
    if pos.opcode("bm") is None and pos.opcode("v") is None:
        return []
    problems, _found = verify(pos, margin, labels=False)
    # and the margin the line writes, which the sheet prints ("9 better
    # than any other play"), where verify found it differs (not its "less
    # than the margin asked": a close second does not make the answer wrong)
    return [p for p in problems if p.field in ANSWER_FIELDS
            or (p.field == "margin" and p.problem.startswith(_DIFFERS))]


def _label_problems(pos: Position) -> list[Problem]:
    """The labels a search cannot check: ``id`` (when given as a puzzle id,
    7 hex digits; a test suite's own labels such as ``"match 1"`` are
    left alone) must be the
    position's own (:func:`puzzle_id`; a position edited after its id was
    written keeps a stale one, and the sheets, the trainer and the output
    name the puzzle by it), ``source`` (when given) one of :data:`SOURCES`."""
    out = []
    have, own = pos.opcode("id"), puzzle_id(pos)
    # a puzzle id is 7 hex digits; another id ("match 1") is a test
    # suite's label, not checked
    if have is not None and re.fullmatch(r"[0-9a-f]{7}", have.strip()) and have.strip() != own:
        out.append(Problem("id", f"the position's id is {own}, the line says "
                                 f"{have.strip() or '(none)'}: was the position changed?"))
    source = pos.opcode("source")
    if source is not None and source.strip() not in SOURCES:
        out.append(Problem("source", f"unknown source {source.strip()!r} "
                                     f"(sources: {', '.join(SOURCES)})"))
    return out


def _rank(card_text: str) -> int:
    from ..cards import parse_card
    return parse_card(card_text.split()[0]).index


def _play_text(a, card_text: str, what) -> str:
    """``what(play)`` of the play ``card_text`` names in the analysis ``a``
    ("not a card", "not playable" else)."""
    try:
        r = _rank(card_text)
    except ValueError:
        return "not a card"
    for mv in a.moves:
        if mv.rank == r:
            return what(mv)
    return "not playable"


def points_unchecked(pos: Position) -> list[str]:
    """The fields of :data:`POINTS_FIELDS` the line writes, which
    :func:`verify` leaves unchecked when the line is played for the match."""
    return [name for name in POINTS_FIELDS if pos.opcode(name) is not None]


@dataclass
class CheckedLine:
    """One line of a checked file: its number, the puzzle id (if any) and
    the problems (empty: verified)."""

    line: int
    id: str | None
    problems: list[Problem]
    found: "Puzzle | None" = None
    plain: bool = False
    #: the objective the line was judged by (:func:`judge`), and one line
    #: saying so when a score is written (:func:`objective_line`)
    objective: str = "points"
    note: str = ""
    #: under the match: each play's chance of winning it, best first
    #: (``found`` stays the points examination, which ``puzzles check
    #: --json`` gives as ``points``)
    chances: dict[str, float] | None = None
    #: under the match: the match's principal variation (rank texts)
    match_pv: list[str] | None = None
    #: under the match: the themes and level of its play (:func:`match_idea`)
    match_found: MatchIdea | None = None

    @property
    def ok(self) -> bool:
        """The line verified: no problem found."""
        return not self.problems


def check_text(text: str, margin: float = DEFAULT_MARGIN) -> list[CheckedLine]:
    """Check every position line of a puzzle file (:func:`check`); a line
    that cannot be read gets its notation error as the one problem."""
    out = []
    for lineno, item in parse_file(text):
        if isinstance(item, NotationError):
            out.append(CheckedLine(lineno, None, [Problem(item.field, item.problem)]))
            continue
        problems, found = verify(item, margin)
        objective, note = objective_line(item) if found is not None else ("points", "")
        chances = ({mv.move: mv.chance for mv in judge(item).moves} if objective == "match"
                   else None)
        match_pv = list(judge(item).pv or []) if objective == "match" else None
        match_found = match_idea(item) if objective == "match" else None
        out.append(CheckedLine(lineno, item.opcode("id"), problems, found,
                               plain=not (item.opcode("themes") or "").strip(),
                               objective=objective, note=note, chances=chances,
                               match_pv=match_pv, match_found=match_found))
    return out


def objective_line(pos: Position) -> tuple[str, str]:
    """The objective a line is judged by (:func:`judge`) and one line
    saying so: under the match, the score, the target, the best play's
    chance of winning it and the next play's, and the points fields the
    line writes that are left unchecked (``playing for the match: S 40,
    N 39, target 41: 6e wins it 100%, 2o 0%; margin, pv not checked
    (points)``); in points, why points when the line writes a score
    (``points: the target 41 cannot be reached this hand (score 10-12)``),
    else ""."""
    try:
        a = judge(pos)
    except (CompileError, ValueError):
        return "points", ""
    if a.objective != "match":
        return "points", a.objective_note
    text = f"{match_heading(pos)}: {a.moves[0].move} wins it {chance_text(a.moves[0].chance)}"
    text += "".join(f", {mv.move} {chance_text(mv.chance)}" for mv in a.moves[1:])
    skipped = points_unchecked(pos)
    if skipped:
        text += f"; {', '.join(skipped)} not checked (points)"
    return "match", text


def read_puzzles(text: str) -> list[tuple[int, Position]]:
    """The readable position lines of a puzzle file, ``(line, position)``.
    Raises NotationError for the first line that cannot be read."""
    out = []
    for lineno, item in parse_file(text):
        if isinstance(item, NotationError):
            raise item
        out.append((lineno, item))
    return out


# --- generating ------------------------------------------------------------

SOURCES = ("composed", "selfplay", "mined")


@dataclass
class Generation:
    """The result of :func:`generate`: the ``puzzles`` found, and counts:
    ``candidates`` positions tried, ``illegal`` rejected by the notation's
    checks, ``rejected`` per :class:`NotAPuzzle` reason, ``duplicates``,
    ``seconds`` of wall time."""

    theme: str | None
    source: str
    puzzles: list[Puzzle] = field(default_factory=list)
    candidates: int = 0
    illegal: int = 0
    duplicates: int = 0
    rejected: dict[str, int] = field(default_factory=dict)
    seconds: float = 0.0

    @property
    def pass_rate(self) -> float:
        """Puzzles found per candidate tried."""
        return len(self.puzzles) / self.candidates if self.candidates else 0.0

    def summary(self) -> str:
        """One line of figures."""
        rej = ", ".join(f"{k} {v}" for k, v in sorted(self.rejected.items()))
        from ..numbers import counted
        return (f"{self.theme or 'any'} ({self.source}): {counted(len(self.puzzles), 'puzzle')}"
                f" from {counted(self.candidates, 'candidate')} ({100 * self.pass_rate:.0f}%), "
                f"illegal {self.illegal}, duplicates {self.duplicates}"
                + (f", rejected: {rej}" if rej else "") + f"; {self.seconds:.1f} s")


def candidates(source: str, theme: str | None, seed: int, rules_name: str = "lmodire",
               players: int = 2, agents: str = "greedy",
               overrides: dict[str, str] | None = None) -> Iterator[Position | NotationError]:
    """Candidate positions: ``composed`` by CP-SAT for ``theme``
    (:func:`solver.puzzles.compose.compose`; the themes in turn when ``theme`` is
    None), ``selfplay`` from hands played by ``agents``
    (:func:`solver.puzzles.mine.selfplay`, over :mod:`solver.games.match` and
    :mod:`solver.games.players`) or ``mined`` from the module's own greedy
    playouts (:func:`solver.puzzles.mine.mine`); 2 players, 3 (each seat for
    itself: max^n, :mod:`solver.puzzles.maxn`) or 4 in partnerships
    (issue 11 for ``composed``). ``overrides``: rule parameters on top of
    the preset (``--set``), written on every line.
    Illegal candidates come as the NotationError the parser raised.
    Raises ValueError for an unknown source or a player count the source
    does not make."""
    if source == "composed":
        from .compose import compose
        if theme is not None:
            return compose(theme, seed=seed, rules_name=rules_name, players=players,
                           overrides=overrides)
        return _any_theme(seed, rules_name, players, overrides)
    if source == "selfplay":
        from .mine import selfplay
        return selfplay(seed=seed, rules_name=rules_name, agents=agents, players=players,
                        overrides=overrides)
    if source == "mined":
        from .mine import mine
        return mine(seed=seed, rules_name=rules_name, players=players, overrides=overrides)
    raise ValueError(f"unknown source {source!r} (sources: {', '.join(SOURCES)})")


def _any_theme(seed: int, rules_name: str, players: int = 2,
               overrides: dict[str, str] | None = None) -> Iterator[Position | NotationError]:
    """Composed candidates for the themes in turn (``players``: 2, 3 or
    4), leaving out the themes the rules cannot show
    (:func:`solver.puzzles.compose.unavailable`; their models would have
    no solution or no puzzle)."""
    from .compose import compose, rules_for, unavailable
    rules = rules_for(rules_name, overrides)
    streams = [compose(t, seed=seed, rules_name=rules_name, players=players, overrides=overrides)
               for t in THEMES if unavailable(t, rules, players) is None]
    while streams:
        for s in list(streams):
            try:
                yield next(s)
            except StopIteration:
                streams.remove(s)


def generate(theme: str | None, count: int, seed: int = 0, margin: float = DEFAULT_MARGIN,
             source: str = "composed", level: int | None = None,
             max_candidates: int | None = None, rules_name: str = "lmodire",
             players: int = 2, agents: str = "greedy", seen: set[str] | None = None,
             progress: Callable[[Generation], None] | None = None,
             spread: bool = True, overrides: dict[str, str] | None = None) -> Generation:
    """Find ``count`` puzzles of ``theme`` (any theme when None; with
    ``level`` only that level) from ``source`` candidates, seeded;
    ``players``: 2, 3 (each seat for itself) or 4 (partnership positions);
    ``agents``: the self-play players (:func:`solver.puzzles.mine.selfplay`).

    Stops after ``max_candidates`` candidates (default ``200 * count``).
    Mined candidates give at most one puzzle per playout (as lichess takes
    one puzzle from a game), so a set is not a run of one game's positions.
    ``seen``: puzzle ids to skip (and the found ids are added).
    ``spread``: keep to the spread rule (:func:`share_caps`): a candidate
    whose answer's rank or kind already has its share is skipped.
    ``overrides``: rule parameters on top of the preset ``rules_name``
    (``--set``), written on every line.
    Raises ValueError for an unknown theme, source or level, and for a
    theme the rules cannot show with ``players``
    (:func:`solver.puzzles.compose.unavailable`)."""
    if theme is not None and theme not in THEMES:
        raise ValueError(f"unknown theme {theme!r} (themes: {', '.join(THEMES)})")
    if level is not None and level not in LEVELS:
        raise ValueError(f"unknown level {level} (levels: 1, 2, 3)")
    if theme is not None:
        from .compose import rules_for, unavailable
        why = unavailable(theme, rules_for(rules_name, overrides), players)
        if why is not None:
            raise ValueError(f"no {theme} puzzle: {why}")
    limit = max_candidates if max_candidates is not None else 200 * count
    seen = set() if seen is None else seen
    gen = Generation(theme, source)
    games: set[str] = set()
    t0 = time.perf_counter()
    for cand in candidates(source, theme, seed, rules_name, players, agents, overrides):
        if len(gen.puzzles) >= count or gen.candidates >= limit:
            break
        gen.candidates += 1
        if isinstance(cand, NotationError):
            gen.illegal += 1
            continue
        game = cand.opcode("game")
        if game is not None and game in games:
            gen.rejected["same game"] = gen.rejected.get("same game", 0) + 1
            continue
        try:
            p = make_puzzle(cand, margin, theme, source)
        except NotAPuzzle as e:
            gen.rejected[e.reason] = gen.rejected.get(e.reason, 0) + 1
            continue
        if level is not None and p.level != level:
            gen.rejected["level"] = gen.rejected.get("level", 0) + 1
            continue
        if p.id in seen:
            gen.duplicates += 1
            continue
        if spread:
            reason = spread_problem(gen.puzzles, p, count, theme)
            if reason is not None:
                gen.rejected[reason] = gen.rejected.get(reason, 0) + 1
                continue
        seen.add(p.id)
        if game is not None:
            games.add(game)
            p.game = game
        gen.puzzles.append(p)
        if progress:
            progress(gen)
    gen.seconds = time.perf_counter() - t0
    return gen


@dataclass
class ExactValues:
    """Every play of a position by exact search, as a quiz judges it:
    ``moves`` card text -> the mover's value in points, best first;
    ``best`` the plays of the best value (three players: equal under the
    max^n tie rule's own entry and the others' sum, as ``ronda-solve``
    lists them); ``seats`` three players: card text -> the value vector,
    one entry per seat (S, E, N), else None."""

    moves: dict[str, float]
    best: list[str]
    seats: dict[str, list[float]] | None = None
    #: the objective the plays are judged by (:func:`judge`): ``points``,
    #: or ``match`` (then ``moves`` are ordered and ``best`` chosen by
    #: ``chances``, each play's chance of winning the match, and
    #: ``moves`` still give the points); ``note`` one line saying why
    #: ("" when no score is written)
    objective: str = "points"
    note: str = ""
    chances: dict[str, float] | None = None

    @property
    def value(self) -> float:
        """The best play's value for the mover (in points)."""
        return next(iter(self.moves.values()))

    @property
    def points_value(self) -> float:
        """The best value in points of any play (the points objective's
        value: :attr:`value` unless the match is played for)."""
        return max(self.moves.values())


def exact_values(pos: Position) -> ExactValues:
    """The exact value of every play of ``pos`` (opcodes ignored), read
    from its puzzle idea (:func:`idea_for`, which is kept: a quiz asks
    the values up to three times a puzzle, the web's answer also the
    puzzle itself): two or four players as a puzzle's (:func:`examine`),
    three players the mover's entry of the max^n vectors, the best by the
    max^n tie rule (:func:`solver.search.vectors.ties`), as ``ronda-solve``
    lists them. Raises NotAPuzzle, CompileError or ValueError when the
    position cannot be searched exactly."""
    from ..analysis.evaluation import move_text
    _game, _state, idea = idea_for(pos)
    moves = _move_values(pos, idea)
    note = ""
    if pos.score is not None:       # only a written score brings the match in
        a = judge(pos)
        note = a.objective_note
        if a.objective == "match":
            return ExactValues({mv.move: moves[mv.move] for mv in a.moves}, list(a.best),
                               objective="match", note=note,
                               chances={mv.move: mv.chance for mv in a.moves})
    if idea.vectors:
        from ..search.vectors import ties
        best = [move_text(pos, m) for m in ties(idea.vectors, idea.side)]
        return ExactValues(moves, best, _move_vectors(pos, idea), note=note)
    top = max(moves.values())
    return ExactValues(moves, [m for m, v in moves.items() if top - v <= 1e-9], note=note)


def seen_note(pos: Position, text: str | None) -> str | None:
    """A puzzle's explanation as its reader must take it: a puzzle drawn
    from the mover's seat (:func:`~solver.analysis.hidden.hides_cards`) is
    judged over the hands the mover cannot tell apart, while its
    explanation (``c``) plays its lines with every card seen, and says so
    first; any other puzzle's as it is.

    >>> from solver.notation import parse_position
    >>> seen_note(parse_position("1.2 2.4/4 - S prev=2"), "Play 2.")
    'Play 2.'
    >>> seen_note(parse_position("4.7.10 1.12.12/1.1.2 - S taken=13,18 last=S "
    ...                          "declared=S:ronda12,N:ronda1 ; themes declaration"), "Play 1.")
    'With every card seen: Play 1.'
    """
    if text and hides_cards(pos):
        return "With every card seen: " + text
    return text


def hidden_values(pos: Position) -> dict[str, float]:
    """A puzzle drawn from the mover's seat (a two-player declaration
    puzzle, :func:`solver.analysis.hidden.hides_cards`): each play's value
    in points averaged over the hands the mover cannot tell apart
    (:func:`solver.analysis.hidden.robust`, by which ``check`` judges its
    answer), the piles' margin added as :func:`examine` adds it; best
    first (then by the card's text). Raises CompileError or ValueError
    for a position the exact method cannot search. The last few lines'
    values are kept (the quiz and the web trainer ask twice a puzzle: its
    answer, then its table)."""
    return dict(_hidden_values(format_position(_bare(pos))))


@lru_cache(maxsize=8)
def _hidden_values(line: str) -> tuple[tuple[str, float], ...]:
    from ..analysis.evaluation import move_text
    from ..analysis.hidden import robust
    from ..cards import RANK_INDEX
    bare = parse_position(line)
    held = [c for c in bare.hands[bare.turn] if c is not None]
    if not held:
        raise ValueError("the mover holds no card")
    r = robust(bare, RANK_INDEX[held[0].rank])
    if not r.hands:
        raise ValueError("no hand the other player may hold agrees with its declaration")
    base = pile_margin(bare) / 2
    texts = {move_text(bare, m): v + base for m, v in r.values.items()}
    return tuple(sorted(texts.items(), key=lambda mv: (-mv[1], mv[0])))


def answer_ranks(pos: Position) -> tuple[set[int], str | None]:
    """The ranks a quiz accepts for puzzle line ``pos``, and a warning (or
    None). Every card known: the plays of the best exact value
    (:func:`exact_values`; three players: the mover's entry of the max^n
    vectors, with its tie rule); a line whose ``bm`` names another play
    gets a warning (``puzzles check`` rejects it). A declaration puzzle
    that hides cards: the plays of the best value in points over the
    hands the mover cannot tell apart (:func:`hidden_values`, also when
    the line writes a score that would play it for the match: the
    warning says so), a ``bm`` naming another play warned of the same
    way."""
    from ..cards import parse_card
    bm = pos.opcode("bm") or ""
    named = {parse_card(t).rank for t in bm.split()}
    if hides_cards(pos):
        try:
            values = hidden_values(pos)
        except (CompileError, ValueError) as e:
            return named, (f"{e}: the answer is the line's bm ({bm}), not checked by the "
                           f"engine" if named else None)
        top = max(values.values())
        tops = [m for m, v in values.items() if v >= top - 1e-9]
        best = {parse_card(m).rank for m in tops}
        said = []
        try:
            if pos.score is not None and judge(pos).objective == "match":
                said.append(f"{match_heading(pos)}, but a puzzle drawn from your seat is "
                            f"judged over the hidden hands in points only")
        except (CompileError, ValueError):
            pass
        if named and not named <= best:
            said.append(f"the line's bm ({bm}) is not the best play over the hands you cannot "
                        f"see ({' '.join(tops)}): the answer is judged by the points over "
                        f"those hands; `puzzles check` rejects the line")
        return best, "; ".join(said) or None
    try:
        ev = exact_values(pos)
    except (NotAPuzzle, CompileError, ValueError) as e:
        # the engine cannot value the position (a '?' hand or stock): the
        # answer is the line's own bm, unchecked, and the warning says so
        return named, (f"{e}: the answer is the line's bm ({bm}), not checked by the engine"
                       if named else None)
    best = {parse_card(m).rank for m in ev.best}
    warning = None
    if named and named != best:
        if ev.objective == "match":
            judged = ("the answer is judged by the exact chance of winning the match; "
                      "`puzzles check` rejects the line")
            warning = (f"the line's bm ({bm}) is not the engine's best for the match "
                       f"({' '.join(ev.best)}): {judged}")
            return best, warning
        judged = ("the answer is judged by the exact values; `puzzles check` rejects the line"
                  if ev.seats is None else
                  f"the answer is judged by the exact values ({pos.seat_name(pos.turn)}'s "
                  "entry of the max^n vectors; a tie to the lower sum of the others)")
        warning = f"the line's bm ({bm}) is not the engine's best ({' '.join(ev.best)}): {judged}"
    return best, warning
