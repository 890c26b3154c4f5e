"""Puzzle themes: one predicate per Ronda idea, over the principal variation
and the events of the plays (as lichess tags its puzzles with motifs).

A theme predicate looks only at an :class:`Idea`: the root position, the
exact value of every root play, and for every root play the line that
follows it when both sides then play perfectly (the *line* of the best play
is the principal variation, the line of another play is its *refutation*).
Plies carry the engine's event bits (:data:`solver.engine.scoring.EV_HIT` and
friends), so a predicate never re-implements a rule: it reads what the
engine says happened (RULES.md "A turn" items 3, 4, 6 and "End of a hand").

The themes, in the order they are written on a puzzle line:

========== ===============================================================
theme      the predicate (the *key play* is the puzzle's one best play)
========== ===============================================================
hit        the key play hits: it takes the card the previous player just
           left, with the same rank (``hit[0]``, 1 point)
answer5    the mover's side scores an answer for 5 in the first three plies
           of the principal variation (the key play itself, or after a hit
           on the lone card it laid)
answer10   the same for an answer for 10 (the fourth card)
missa      the key play clears a non-empty table and the missa counts
run        the key play takes cards of three or more ranks (its own rank
           and a run of at least two more above it)
bait       the key play lays a lone card of a rank the next player holds,
           while the seat that would answer a hit on it (two seats on: the
           mover in two-player play, the partner with four) holds another
           card of that rank and nobody can answer that answer; and the
           next player's one best reply is to hit it: the bait is taken
           (never with three players: that answer is an opponent's)
avoid-hit  the key play is not hit at once in the principal variation, but
           at least one other play is hit at once in its refutation
sweep      the mover's side makes the last capture and sweeps at least one
           card at the end of the hand in the principal variation, and does
           not in the refutation of the strongest other play
declaration the current deal carries a declaration (``declared=``) whose
           rank is hit or answered in the first three plies of the
           principal variation or of the strongest other play's refutation
quiet      the key play captures nothing while another play captures
========== ===============================================================

Every predicate is unit-tested in ``tests/test_themes.py`` on positions
whose lines were worked out by hand.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Sequence

from ..engine.core import play_points
from ..engine.hand import LAST, SEAT, SHOW, TABLE, Hand, State
from ..engine.scoring import (EV_ANSWER10, EV_ANSWER5, EV_CAPTURE, EV_DEAL, EV_END, EV_HIT,
                              EV_MISSA, declaration_points, ranks_of)
from ..rules import Rules
from ..search.compiled import Searcher

@dataclass(frozen=True)
class Ply:
    """One play of a line.

    - ``seat``, ``side``: who played (seat index in play order, scoring side);
    - ``rank``: the rank index played (0..9);
    - ``events``: the engine's event bits (``EV_*``);
    - ``gain``: half-points for the player's side, the deal's declarations
      and the end of the hand (sweep, card count) included when this play
      triggered them (three players: twice the player's own points of the
      play, :func:`solver.engine.core.play_points`; the cards count only at
      the end of the hand, each seat's over 20);
    - ``table``: rank indices on the table before the play;
    - ``taken``: rank indices the play took besides its own card (the table
      cards of a capture, or the shown cards of an answer);
    - ``hand_after``: the player's hand after the play (rank indices);
    - ``sweep``: cards the last capturer swept from the table when this play
      ended the hand (0 otherwise), ``sweep_side`` the side that got them
      (-1 when nobody captured all hand or no sweep);
    - ``stolen``: Ronda voleur, the opponent piles the play took whole,
      ``(side, cards)`` with their size before the play (their top is the
      rank played; an answer's is the hitter's pile, the shown cards on
      top); empty otherwise;
    - ``declared``: when the play ended a deal and the next was dealt
      (``EV_DEAL``), the points each side scored for that deal's
      declarations (:func:`solver.engine.scoring.declaration_points`, as
      the engine scores them); empty otherwise.
    """

    seat: int
    side: int
    rank: int
    events: int
    gain: int
    table: tuple[int, ...]
    taken: tuple[int, ...]
    hand_after: tuple[int, ...]
    sweep: int = 0
    sweep_side: int = -1
    stolen: tuple[tuple[int, int], ...] = ()
    declared: tuple[int, ...] = ()

    @property
    def lays(self) -> bool:
        """The card stayed on the table (no capture, no answer)."""
        return not self.events & EV_CAPTURE


@dataclass(frozen=True)
class Line:
    """A root play and the optimal continuation to the end of the hand.

    ``plies``: the plays, the root play first; ``value``: the exact value of
    the root play, half-points for the mover's side.
    """

    plies: tuple[Ply, ...]
    value: int

    def end(self) -> Ply | None:
        """The ply that ended the hand, or None (a line cut short)."""
        for ply in self.plies:
            if ply.events & EV_END:
                return ply
        return None

    def sweep_for(self, side: int) -> int:
        """Cards ``side`` swept at the end of the hand along this line."""
        end = self.end()
        return end.sweep if end is not None and end.sweep_side == side else 0


@dataclass
class Idea:
    """What a theme predicate sees.

    - ``rules``, ``players``, ``sides`` (side of each seat), ``mover``;
    - ``hands``: every seat's hand at the root, rank indices; ``table``;
    - ``values``: exact value of each root play (rank index -> half-points
      for the mover's side, from now to the end of the hand);
    - ``order``: the root plays, best first (ties by rank index);
    - ``lines``: each root play's line (:class:`Line`);
    - ``declared``: ``(seat, rank index)`` of the current deal's
      declarations that name a rank;
    - ``replies``: after the key play, the exact value of each reply of
      the next player (rank index -> half-points for the replier's side);
      empty when the key play ends the hand;
    - ``vectors``: three players, each root play's max^n vector (rank
      index -> points per seat, S E N; ``values`` then holds twice the
      mover's entry); empty otherwise.
    """

    rules: Rules
    players: int
    sides: tuple[int, ...]
    mover: int
    hands: tuple[tuple[int, ...], ...]
    table: tuple[int, ...]
    values: dict[int, int]
    order: list[int]
    lines: dict[int, Line]
    declared: tuple[tuple[int, int], ...] = ()
    replies: dict[int, int] = field(default_factory=dict)
    extra: dict = field(default_factory=dict)
    vectors: dict[int, tuple[float, ...]] = field(default_factory=dict)

    @property
    def side(self) -> int:
        """The mover's side."""
        return self.sides[self.mover]

    @property
    def key(self) -> int:
        """The key play: the best root play (the lowest rank on a tie)."""
        return self.order[0]

    @property
    def pv(self) -> Line:
        """The principal variation: the key play's line."""
        return self.lines[self.order[0]]

    @property
    def runner_up(self) -> int | None:
        """The strongest other play, or None with one legal play."""
        return self.order[1] if len(self.order) > 1 else None

    def refutation(self, move: int) -> Line:
        """The line after another root play."""
        return self.lines[move]


# --- building the lines --------------------------------------------------


def _hand(state: State, seat: int) -> tuple[int, ...]:
    return tuple(ranks_of(state[1 + seat]))


def replay(game: Hand, state: State, moves: Sequence[int]) -> tuple[Ply, ...]:
    """The plies of ``moves`` (rank indices) played from ``state``.

    Raises ValueError when a move is not in the mover's hand."""
    plies = []
    for m in moves:
        seat = state[SEAT]
        if m not in game.moves(state):
            raise ValueError(f"rank index {m} is not in seat {seat}'s hand")
        table = state[TABLE]
        show = state[SHOW]
        stolen = tuple(game.robbed(state, m))
        child, gain, ev = game.play(state, m)
        if game.nsides == 3:
            gain = 2 * play_points(game.P, game.D, state, child, ev)[game.sides[seat]]
        if ev & (EV_ANSWER5 | EV_ANSWER10):
            taken = (m,) * (show & 3)
            left = table
        elif ev & EV_CAPTURE:
            cap = game.capture(state, m)
            taken = tuple(ranks_of(cap))
            left = table ^ cap
        else:
            taken = ()
            left = None
        sweep, sweep_side = 0, -1
        if ev & EV_END and child[LAST] >= 0:
            if left is None:
                left = table + ((((table >> (4 * m)) & 15) + 1) << (4 * m))
            sweep, sweep_side = left.bit_count(), child[LAST]
        hand_after = tuple(ranks_of(state[1 + seat] - _one_card(state, seat, m)))
        declared: tuple[int, ...] = ()
        if ev & EV_DEAL:
            declared = tuple(declaration_points(
                game.rules, [ranks_of(child[1 + s]) for s in range(game.players)], game.sides))
        plies.append(Ply(seat, game.sides[seat], m, ev, gain, tuple(ranks_of(table)),
                         taken, hand_after, sweep, sweep_side, stolen, declared))
        state = child
    return tuple(plies)


def _one_card(state: State, seat: int, m: int) -> int:
    """The card-set bits of one card of rank index ``m`` in ``seat``'s hand."""
    nib = (state[1 + seat] >> (4 * m)) & 15
    return ((nib + 1) >> 1) << (4 * m)


def best_line(searcher: Searcher, state: State, max_plies: int = 200) -> list[int]:
    """An optimal line from ``state`` to the end of the hand: at each ply
    the best play, the lowest rank index on a tie (so the line depends only
    on exact values, not on the search's move ordering)."""
    return searcher.principal_variation(state, max_plies=max_plies)


def idea_of(game: Hand, state: State, declared: Sequence[tuple[int, int]] = ()) -> Idea:
    """Search ``state`` exactly (the compiled core) and build its
    :class:`Idea`: every root play's value and line. ``declared``: ``(seat,
    rank index)`` pairs of the current deal's declarations. Raises
    ValueError on a finished hand."""
    if game.is_terminal(state):
        raise ValueError("the hand is over: no play to make")
    searcher = Searcher(game.P, game.D, 8.0)
    values = {m: int(v) for m, v in searcher.root_values(state).items()}
    order = sorted(values, key=lambda m: (-values[m], m))
    lines = {}
    for m in order:
        child, _gain, _ev = game.play(state, m)
        moves = [m] + best_line(searcher, child)
        lines[m] = Line(replay(game, state, moves), values[m])
    mover = state[SEAT]
    after_key = game.play(state, order[0])[0]
    replies = {} if game.is_terminal(after_key) else {
        m: int(v) for m, v in searcher.root_values(after_key).items()}
    return Idea(game.rules, game.players, game.sides, mover,
                tuple(_hand(state, s) for s in range(game.players)),
                tuple(ranks_of(state[TABLE])), values, order, lines, tuple(declared), replies)


# --- the predicates -------------------------------------------------------


def pays(rules: Rules, level: int) -> bool:
    """Whether the rules score the hit (``level`` 1), the answer for 5
    (2) or for 10 (3): a theme about a play that scores nothing teaches
    nothing (``--set hit=0``).

    >>> from solver.rules import PRESETS
    >>> pays(PRESETS["lmodire"], 3), pays(PRESETS["french"], 2)
    (True, False)
    >>> pays(PRESETS["lmodire"].with_overrides({"hit": "0,5,10"}), 1)
    False
    """
    return len(rules.hit) >= level and rules.hit[level - 1] > 0


def hit(idea: Idea) -> bool:
    """The key play hits the previous player's lone card (EV_HIT), and
    the hit scores."""
    return pays(idea.rules, 1) and bool(idea.pv.plies[0].events & EV_HIT)


def _answers(idea: Idea, bit: int, level: int) -> bool:
    return pays(idea.rules, level) and any(p.events & bit and p.side == idea.side
                                           for p in idea.pv.plies[:3])


def answer5(idea: Idea) -> bool:
    """The mover's side answers a hit for 5 (EV_ANSWER5) within the first
    three plies of the principal variation (an answer that scores)."""
    return _answers(idea, EV_ANSWER5, 2)


def answer10(idea: Idea) -> bool:
    """The mover's side answers for 10 (EV_ANSWER10) within the first three
    plies of the principal variation (an answer that scores)."""
    return _answers(idea, EV_ANSWER10, 3)


def missa(idea: Idea) -> bool:
    """The key play clears a non-empty table and scores the missa (EV_MISSA:
    the engine leaves it out on the very last card when
    ``missa_on_last_card`` is off, and on the whole last round when
    ``missa_last_round`` is off, house rule of issue 11), and the missa
    scores."""
    return idea.rules.missa > 0 and bool(idea.pv.plies[0].events & EV_MISSA)


def run(idea: Idea) -> bool:
    """The key play captures from the table cards of at least three ranks,
    its own included (a run: RULES.md "A turn" item 1)."""
    key = idea.pv.plies[0]
    if not key.events & EV_CAPTURE or key.events & (EV_ANSWER5 | EV_ANSWER10):
        return False
    return len(set(key.taken) | {key.rank}) >= 3


def bait(idea: Idea) -> bool:
    """The key play lays a lone card of rank r; the next seat holds an r
    (it could hit); the seat two on, which would answer that hit for 5,
    holds another r after the key play; and the seat three on, which could
    answer that answer for 10, holds no further r (with two players: the
    next player holds exactly one r); and the bait is taken: the next
    player's one best reply (exact values, no tie) is the hit on it.
    Needs answers in the rules, and the answering seat on the mover's
    side (never with three players: the seat two on is an opponent)."""
    if not pays(idea.rules, 2):
        return False
    key = idea.pv.plies[0]
    if not key.lays:
        return False
    p = idea.players
    r = key.rank
    hitter = (idea.mover + 1) % p
    answerer = (idea.mover + 2) % p
    counter = (idea.mover + 3) % p
    if idea.sides[answerer] != idea.side:
        return False        # three players: the answer would be an opponent's
    left = {s: (list(key.hand_after) if s == idea.mover else list(idea.hands[s]))
            for s in (hitter, answerer, counter)}
    if r not in left[hitter] or r not in left[answerer]:
        return False
    after_hit = list(left[counter])
    if counter == hitter:
        after_hit.remove(r)
    if r in after_hit:
        return False
    return takes_the_bait(idea)


def takes_the_bait(idea: Idea) -> bool:
    """The next player's one best reply to the key play hits it: the
    principal variation's second ply hits the key play's rank, and every
    other reply is worth strictly less to the replier."""
    pv = idea.pv.plies
    if len(pv) < 2 or not pv[1].events & EV_HIT or pv[1].rank != pv[0].rank:
        return False
    hit_value = idea.replies[pv[1].rank]
    return all(v < hit_value for m, v in idea.replies.items() if m != pv[1].rank)


def avoid_hit(idea: Idea) -> bool:
    """The key play is not hit at once in the principal variation, and some
    other play is hit at once in its refutation."""
    pv = idea.pv.plies
    if len(pv) > 1 and pv[1].events & EV_HIT:
        return False
    for m in idea.order[1:]:
        ref = idea.lines[m].plies
        if len(ref) > 1 and ref[1].events & EV_HIT:
            return True
    return False


def sweep(idea: Idea) -> bool:
    """The mover's side sweeps at least one card at the end of the hand in
    the principal variation and sweeps nothing in the refutation of the
    strongest other play."""
    if idea.runner_up is None:
        return False
    return (idea.pv.sweep_for(idea.side) >= 1
            and idea.lines[idea.runner_up].sweep_for(idea.side) == 0)


def declaration(idea: Idea) -> bool:
    """A declared rank of the current deal is hit or answered within the
    first three plies of the principal variation or of the strongest other
    play's refutation."""
    ranks = {r for _seat, r in idea.declared}
    if not ranks:
        return False
    lines = [idea.pv]
    if idea.runner_up is not None:
        lines.append(idea.lines[idea.runner_up])
    scoring = EV_HIT | EV_ANSWER5 | EV_ANSWER10
    return any(p.events & scoring and p.rank in ranks
               for line in lines for p in line.plies[:3])


def quiet(idea: Idea) -> bool:
    """The key play captures nothing while another root play captures."""
    if not idea.pv.plies[0].lays:
        return False
    return any(not idea.lines[m].plies[0].lays for m in idea.order[1:])


#: theme name -> predicate, in the order themes are written.
THEMES: dict[str, Callable[[Idea], bool]] = {
    "hit": hit,
    "answer5": answer5,
    "answer10": answer10,
    "missa": missa,
    "run": run,
    "bait": bait,
    "avoid-hit": avoid_hit,
    "sweep": sweep,
    "declaration": declaration,
    "quiet": quiet,
}

#: one-line descriptions for help texts and the sheet's legend.
THEME_TITLES: dict[str, str] = {
    "hit": "take the card just played with the same rank (+1)",
    "answer5": "answer a hit with the third card (+5)",
    "answer10": "answer an answer with the fourth card (+10)",
    "missa": "clear the whole table (+1)",
    "run": "take a run of three ranks or more",
    "bait": "lay a card you can answer, and the other player does best to hit it",
    "avoid-hit": "do not leave a lone card to be hit",
    "sweep": "make the last capture and sweep the table",
    "declaration": "use what a declaration tells",
    "quiet": "the best play captures nothing",
}


def tag(idea: Idea) -> list[str]:
    """The themes whose predicate holds, in :data:`THEMES` order."""
    return [name for name, pred in THEMES.items() if pred(idea)]
