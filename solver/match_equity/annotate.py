"""Annotating a played game in match terms (``annotate --objective match``).

Every play with a choice whose position can still end the match in its
hand (:func:`.evaluate.target_reachable`) is valued with the match
objective (:func:`.evaluate.evaluate_match`: exact in the full view,
determinised in the player view), and marked by the loss of
match-winning chance against the best play, with thresholds kept as data
(:data:`MATCH_THRESHOLDS`, as GNU Backgammon marks by equity lost:
doubtful ``?!``, bad ``?``, very bad ``??``). Earlier plays, where the
match cannot end in the hand, are left to the points annotation: they
are counted, not marked. Positions the match search cannot finish
within its budget are counted as too big.

Each hand also gets its match-equity swing: side 0's chance of winning
the match (the table, :mod:`.table`) before the hand, at its score and
dealer, and after it (1 or 0 when the hand won the match), and the
difference; each side's sum of those swings is its match "luck" plus
the other side's errors less its own (:meth:`MatchAnnotation.summary`
reports both the swing and the errors' cost).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from ..numbers import tidy
from ..position import seat_names, side_names, side_of
from ..games.record import GameRecord, Replay
from .evaluate import SearchTooBig, evaluate_match, target_reachable
from .table import MatchTable, table_for


@dataclass(frozen=True)
class MatchThresholds:
    """Losses of match-winning chance (probability, 0..1) that mark a play:
    ``?!`` doubtful from ``doubtful``, ``?`` bad from ``bad``, ``??`` very
    bad from ``very_bad``.

    >>> MATCH_THRESHOLDS.mark(0.05), MATCH_THRESHOLDS.mark(0.01)
    ('?', '')
    """

    doubtful: float = 0.02
    bad: float = 0.04
    very_bad: float = 0.08

    def mark(self, loss: float) -> str:
        """The mark of a loss of match-winning chance."""
        if loss >= self.very_bad - 1e-12:
            return "??"
        if loss >= self.bad - 1e-12:
            return "?"
        if loss >= self.doubtful - 1e-12:
            return "?!"
        return ""

    @classmethod
    def parse(cls, text: str) -> "MatchThresholds":
        """``"0.02,0.04,0.08"``: three increasing probabilities. Raises
        ValueError naming the problem."""
        try:
            v = [float(x) for x in text.split(",")]
        except ValueError:
            v = []
        if len(v) != 3 or not 0 < v[0] <= v[1] <= v[2] <= 1:
            raise ValueError(f"match thresholds: expected three increasing probabilities "
                             f"like 0.02,0.04,0.08, got {text!r}")
        return cls(*v)


#: GNU Backgammon's default marks are 0.04 / 0.08 / 0.16 of normalised
#: equity (a game won or lost is +1 / -1), which is twice a probability of
#: winning: in match-winning chance they are 0.02, 0.04 and 0.08.
MATCH_THRESHOLDS = MatchThresholds(0.02, 0.04, 0.08)


@dataclass
class MatchNote:
    """One play with a choice: ``hand``, ``deal``, ``number``, ``seat``,
    ``card``; ``status`` ``"evaluated"``, ``"out of reach"`` (the match
    cannot end in this hand) or ``"too big"``; ``chance`` of the play made
    and ``best_chance`` (P(the mover's side wins the match)), ``best``
    card, ``loss`` (probability), ``mark``, ``moves`` ``(card, chance,
    points)`` best first."""

    hand: int
    deal: int
    number: int
    seat: int
    card: str
    status: str = "out of reach"
    chance: float | None = None
    best_chance: float | None = None
    best: str | None = None
    loss: float = 0.0
    mark: str = ""
    moves: list = field(default_factory=list)
    #: the time budget stopped its sampling short: its chances are estimates
    cut: bool = False


@dataclass
class HandSwing:
    """Side 0's match-winning chance ``before`` and ``after`` hand
    ``hand`` (probabilities), the ``swing`` (after - before), the scores."""

    hand: int
    score_before: list[int]
    score_after: list[int]
    before: float
    after: float

    @property
    def swing(self) -> float:
        """after - before, for side 0."""
        return self.after - self.before


@dataclass
class MatchAnnotation:
    """The match annotation of a game: ``notes`` per play with a choice,
    ``hands`` the swing of each hand, the ``table`` used, ``view``,
    ``thresholds``, ``seconds``."""

    record: GameRecord
    notes: list[MatchNote]
    hands: list[HandSwing]
    table: MatchTable
    view: str
    thresholds: MatchThresholds
    seconds: float
    #: ``--time``: the seconds a play's match search was given (None: not given)
    time_budget: float | None = None

    def summary(self) -> list[dict]:
        """Per seat: ``seat``, ``player``, ``evaluated`` plays, ``out_of_reach``,
        ``too_big``, marks, ``chance_lost`` (summed loss, probability), and
        for its side ``swing`` (the hands' summed swing) and ``luck``
        (swing + own errors' cost - the other side's)."""
        g = self.record
        p = g.players
        names = seat_names(p)
        sides = side_names(p)
        lost = [0.0, 0.0]
        for n in self.notes:
            lost[side_of(n.seat, p)] += n.loss
        swing0 = sum(h.swing for h in self.hands)
        out = []
        for seat in range(p):
            side = side_of(seat, p)
            mine = [n for n in self.notes if n.seat == seat]
            ev = [n for n in mine if n.status == "evaluated"]
            sw = swing0 if side == 0 else -swing0
            out.append({
                "seat": names[seat], "player": g.names[seat], "evaluated": len(ev),
                "out_of_reach": sum(1 for n in mine if n.status == "out of reach"),
                "too_big": sum(1 for n in mine if n.status == "too big"),
                "?!": sum(1 for n in ev if n.mark == "?!"),
                "?": sum(1 for n in ev if n.mark == "?"),
                "??": sum(1 for n in ev if n.mark == "??"),
                "chance_lost": sum(n.loss for n in ev),
                "side": sides[side], "swing": sw,
                "luck": sw + lost[side] - lost[1 - side],
            })
        return out


def _swing(table: MatchTable, hs, players: int) -> tuple[float, float]:
    """Side 0's chance before the hand of ``hs`` (its start score and
    dealer) and after it (its final score, the next dealer)."""
    a_deals = side_of(hs.dealer, players) == 0
    before = table.equity_of(hs.start_score[0], hs.start_score[1], a_deals)
    if hs.winner is not None:
        return before, 1.0 if hs.winner == 0 else 0.0
    if not hs.finished:     # a hand cut short in the record: no after
        return before, before
    after = table.equity_of(hs.score[0], hs.score[1], side_of(hs.leader, players) == 0)
    return before, after


def annotate_match(game: GameRecord, *, view: str = "full", samples: int = 16, seed: int = 0,
                   thresholds: MatchThresholds = MATCH_THRESHOLDS,
                   time_budget: float | None = None) -> MatchAnnotation:
    """Annotate ``game`` in match terms (see the module docstring).
    ``view``: ``full`` (every card known, exact) or ``player`` (the
    mover's view, ``samples`` determinisations with ``seed``);
    ``time_budget``: seconds a play's match search may take (None: 10,
    and the annotation does not say what the time cut).

    Raises ValueError when no table is shipped for the game's rules,
    players and target, RecordError for a record that does not replay."""
    import copy
    if game.players == 3:
        # as the match objective refuses a three-player position
        # (evaluate._match_refusal): each seat is its own side
        raise ValueError("the match objective takes two sides (this game has 3 players, each "
                         "its own side): annotate it with --objective points")
    t0 = time.perf_counter()
    table = table_for(game.rules, game.players)
    p = game.players
    game = copy.deepcopy(game)
    replay = Replay(game)
    notes: list[MatchNote] = []
    for step in replay:
        hs = step.state
        if len(hs.legal_ranks()) < 2:
            continue
        note = MatchNote(step.hand, step.deal, step.number, step.seat, str(step.play.card))
        notes.append(note)
        pos = hs.full_position() if view == "full" else hs.view()
        if not target_reachable(pos):
            continue
        try:
            a = evaluate_match(pos, method="exact" if view == "full" else "determinised",
                               samples=samples, seed=seed * 1000003 + step.index,
                               points=False, table=table,
                               time_budget=10.0 if time_budget is None else time_budget)
        except SearchTooBig:
            note.status = "too big"
            continue
        played = step.play.card
        got = next(m for m in a.moves if m.rank == played.index)
        note.status = "evaluated"
        note.cut = a.stopped == "time"
        note.chance, note.best_chance, note.best = got.chance, a.chance, a.moves[0].move
        note.loss = max(0.0, a.chance - got.chance)
        note.mark = thresholds.mark(note.loss)
        note.moves = [(m.move, m.chance) for m in a.moves]
        step.play.mark = note.mark
        step.play.comments = [c for c in step.play.comments if "[%mwc" not in c]
        # from the first side's view (S, or SN), as [%eval]: one curve
        view0 = (lambda c: c) if side_of(step.seat, p) == 0 else (lambda c: 1.0 - c)
        comment = f"[%mwc {view0(got.chance):.4f}]"
        if note.loss > 0:
            comment += (f" [%mwcbest {note.best} {view0(a.chance):.4f}] "
                        f"[%mwcloss {note.loss:.4f}]")
        if note.cut:
            comment += " [%cut]"
        step.play.comments.append(comment)
    game.tags["Annotator"] = (f"ronda-solver match objective, view {view}"
                              + (f", --time {tidy(time_budget)} s a play"
                                 if time_budget is not None else ""))
    game.tags["EvalView"] = "S" if p == 2 else "SN"
    hands = [_hand_swing(table, h, hs, p) for h, hs in enumerate(replay.states, start=1)]
    return MatchAnnotation(game, notes, hands, table, view, thresholds,
                           time.perf_counter() - t0, time_budget)


def _hand_swing(table: MatchTable, hand: int, hs, players: int) -> HandSwing:
    before, after = _swing(table, hs, players)
    return HandSwing(hand, list(hs.start_score), list(hs.score), before, after)
