"""Annotating a played game: every play evaluated, marked, summed up.

For each play of a record (:class:`solver.games.record.Replay`) the position
before it is evaluated with :func:`solver.analysis.evaluation.evaluate`:

- ``view="player"`` (default): what the mover could know
  (:meth:`solver.games.match.HandState.view`): its own hand, the table, the
  cards gone, the declarations heard; the other hands and the stock order
  are drawn consistently (determinisation; ``evaluate``'s ``auto`` method
  picks it).
- ``view="full"``: every card known from the record ("double dummy"):
  exact alpha-beta when the stock order is known, which it is for every
  complete hand.

Four players (partnerships S+N against E+W, ``pagat`` and ``french``):
every value is for the mover's side (SN or EW); in the player view the
mover knows its own hand only (its partner's too is drawn), the
determinisations weigh the three hidden hands by their plays this deal
(:mod:`solver.analysis.inference`); the summary has a row per seat and
:meth:`Annotation.side_summary` one per side.

Each play gets the value of the play made and of the best play (points
for the mover's side, to the end of the hand, as ``evaluate`` gives
them), the loss, and a mark from :class:`Thresholds` (kept as data,
:data:`DEFAULT_THRESHOLDS`: in the player view ``?!`` from 0.75 point,
``?`` from 1, ``??`` from 2; in the full view, whose exact losses are
whole points, 1, 2 and 4). Plays with one distinct rank in hand are
forced and not evaluated.

**Match awareness** (``win_check = immediate``): a play that misses an
immediate win (another card reaches the target now) or that lets the next
player reach it at once when another card would not is marked ``??``
whatever its point loss. In the player view the next hand is drawn as the
mover would (the share of draws that let the win through is compared).

**Luck of the deal**: at each deal, the expected value for the leader's
side right after the cards are dealt (declarations included; every hand
of the deal known, the rest of the stock shuffled ``luck_samples`` times,
exact solves) less its expectation before the deal (deals drawn from the
unseen cards; for the first deal, whole new hands with their tables).
Summed per side; the other side's luck is its negative. Three players:
each seat's own points (a vector, the max^n value of three sides), not
zero-sum. Ronda voleur: the piles and tops at the deal's start are part of
the position. It is view-neutral: the same in both views.
"""

from __future__ import annotations

import copy
import json
from collections import Counter
import math
import random
import time
from dataclasses import dataclass, field
from typing import Callable, NamedTuple

from .. import __version__
from ..analysis.evaluation import evaluate
from ..cards import RANKS, Card
from ..engine.compile import sampler
from ..engine.hand import Hand
from ..engine.scoring import declaration_points, ranks_of
from .match import HandState, deal_hand
from ..notation import format_position
from ..numbers import signed, tidy
from ..position import seat_names, side_names, side_of
from .record import GameRecord, Replay
from ..search.budget import SearchAborted
from ..search.compiled import exact_value

VIEWS = ("player", "full")


@dataclass(frozen=True)
class Thresholds:
    """Loss thresholds of the marks, in points: ``?!`` (dubious) from
    ``dubious``, ``?`` (mistake) from ``mistake``, ``??`` (blunder) from
    ``blunder``; ``match``: the rise in the chance of letting the other
    side win at once (0..1) that marks a play ``??`` (player view).

    >>> Thresholds().mark(1.2), Thresholds().mark(0.2), Thresholds.parse("1,2,4").mark(3)
    ('?', '', '?')
    """

    dubious: float = 0.5
    mistake: float = 1.0
    blunder: float = 2.0
    match: float = 0.5

    def mark(self, loss: float) -> str:
        """The mark of a loss in points ('' below ``dubious``)."""
        if loss >= self.blunder - 1e-9:
            return "??"
        if loss >= self.mistake - 1e-9:
            return "?"
        if loss >= self.dubious - 1e-9:
            return "?!"
        return ""

    @classmethod
    def parse(cls, text: str) -> "Thresholds":
        """``"0.5,1,2"``: dubious, mistake, blunder in points, increasing.
        Raises ValueError naming the problem."""
        parts = text.split(",")
        try:
            values = [float(p) for p in parts]
        except ValueError:
            raise ValueError(f"thresholds: expected three numbers like 0.5,1,2, got {text!r}") \
                from None
        if len(values) != 3 or not 0 < values[0] <= values[1] <= values[2]:
            raise ValueError(f"thresholds: expected three increasing positive numbers "
                             f"(?!, ?, ??) like 0.5,1,2, got {text!r}")
        return cls(*values)


#: The default marks of each view, tuned from measured loss distributions
#: (bench/bench_annotate.py; docs/games.md "Tuning the thresholds").
#: Full view: exact losses are whole points (all 40 cards end in the piles,
#: so a card changing sides moves the margin by 1): ``?!`` one point, ``?``
#: two, ``??`` four (the issue's 0.5 / 1 / 2 could show only two marks).
#: Player view: ``?!`` from 0.75, above the sampling noise of 32
#: determinisations (the spread of a play's loss between two seeds: 95th
#: percentile 0.50-0.81 point); ``?`` 1 and ``??`` 2 as the issue says.
DEFAULT_THRESHOLDS: dict[str, Thresholds] = {
    "full": Thresholds(1.0, 2.0, 4.0),
    "player": Thresholds(0.75, 1.0, 2.0),
}


@dataclass
class PlayNote:
    """The evaluation of one play. ``hand``, ``deal``, ``number`` (within
    the deal), ``seat``, ``card`` as written; ``forced`` (one distinct
    rank); ``value`` of the play made and ``best_value``, points for the
    mover's side; ``best`` the best play's card; ``loss`` points;
    ``stderr`` of the value when sampled; ``mark``; ``match`` ``""``,
    ``"misses win"`` or ``"lets win"`` and ``match_note`` in words;
    ``moves`` every play ``(card, value)``, best first, and
    ``move_stderr`` their standard errors (None when exact); ``method``;
    ``samples``; ``seconds``; ``cut``: the time budget stopped its search
    short (sampling cut, or no search finished: one ply), so its values
    are estimates."""

    hand: int
    deal: int
    number: int
    seat: int
    card: str
    index: int
    forced: bool = False
    value: float | None = None
    best_value: float | None = None
    best: str | None = None
    loss: float = 0.0
    stderr: float | None = None
    mark: str = ""
    match: str = ""
    match_note: str = ""
    moves: list[tuple[str, float]] = field(default_factory=list)
    move_stderr: list[float | None] = field(default_factory=list)
    method: str = ""
    samples: int | None = None
    seconds: float = 0.0
    #: the loss is not established beyond the estimate's error (no mark)
    close: bool = False
    cut: bool = False


@dataclass
class DealLuck:
    """The luck of one deal: ``hand``, ``deal``, ``leader`` seat,
    ``luck`` per side in points, ``stderr`` of the estimate, ``draws``
    the deals drawn for it (fewer than asked when the time budget ran
    out; None for a result stored without its count); ``searched``
    False: the time budget left no room for the deal's value, so its
    luck counts the declarations only."""

    hand: int
    deal: int
    leader: int
    luck: list[float]
    stderr: float
    draws: int | None = None
    searched: bool = True


@dataclass
class Annotation:
    """An annotated game: the ``record`` (a copy with marks and
    ``[%eval ...]`` comments), the ``notes`` per play, the ``luck`` per
    deal, the ``view``, ``samples``, ``seed``, ``thresholds``, final
    ``score`` and ``points`` per side, ``seconds``; with a time budget
    (``time_budget`` seconds a play, and a deal's luck) ``luck_samples``
    the draws asked a deal and ``opening_draws`` those the expectation of
    a new hand made."""

    record: GameRecord
    notes: list[PlayNote]
    luck: list[DealLuck]
    view: str
    samples: int
    seed: int
    thresholds: Thresholds
    score: list[int]
    seconds: float = 0.0
    time_budget: float | None = None
    luck_samples: int = 0
    opening_draws: int | None = None

    def cut_plays(self) -> list[PlayNote]:
        """The plays whose search the time budget stopped short."""
        return [n for n in self.notes if n.cut]

    def one_ply_plays(self) -> list[PlayNote]:
        """The plays no search finished for in the time: valued one ply
        deep (what each play takes and scores now), not estimated."""
        return [n for n in self.notes if n.method == "one-ply"]

    def summary(self) -> list[dict]:
        """Per seat: ``seat``, ``player``, ``plays`` (with a choice),
        ``forced``, marks ``?!``, ``?``, ``??``, ``match`` marks,
        ``total_loss`` and ``average_loss`` (points per play with a
        choice), and for its side ``side``, ``points`` (final score less
        the start) and ``luck`` (None when no deal's luck was measured:
        ``luck_samples=0``)."""
        g = self.record
        p = g.players
        names = seat_names(p)
        sides = side_names(p)
        start = g.start_score
        luck = [0.0] * len(sides)
        for dl in self.luck:
            for s, v in enumerate(dl.luck):
                luck[s] += v
        out = []
        for seat in range(p):
            mine = [n for n in self.notes if n.seat == seat]
            chosen = [n for n in mine if not n.forced]
            total = sum(n.loss for n in chosen)
            side = seat % 2 if p == 4 else seat
            out.append({
                "seat": names[seat], "player": g.names[seat], "plays": len(chosen),
                "forced": len(mine) - len(chosen),
                "?!": sum(1 for n in chosen if n.mark == "?!"),
                "?": sum(1 for n in chosen if n.mark == "?"),
                "??": sum(1 for n in chosen if n.mark == "??"),
                "match": sum(1 for n in chosen if n.match),
                "total_loss": total, "average_loss": total / len(chosen) if chosen else 0.0,
                "side": sides[side], "points": self.score[side] - start[side],
                "luck": luck[side] if self.luck else None,
            })
        return out

    def side_summary(self) -> list[dict]:
        """Per side (``SN`` and ``EW`` with four players, one per seat
        with two): ``side``, ``players`` (its seats' names joined by
        ``+``), ``plays``, ``forced``, marks ``?!``, ``?``, ``??``,
        ``match``, ``total_loss`` and ``average_loss`` over its seats'
        plays, its ``points`` and ``luck`` (as :meth:`summary`)."""
        rows = self.summary()
        out = []
        for side in side_names(self.record.players):
            mine = [r for r in rows if r["side"] == side]
            plays = sum(r["plays"] for r in mine)
            total = sum(r["total_loss"] for r in mine)
            row = {"side": side, "players": "+".join(r["player"] for r in mine)}
            for key in ("plays", "forced", "?!", "?", "??", "match"):
                row[key] = sum(r[key] for r in mine)
            row.update(total_loss=total, average_loss=total / plays if plays else 0.0,
                       points=mine[0]["points"], luck=mine[0]["luck"])
            out.append(row)
        return out

    def luck_stderr(self) -> float:
        """Standard error of each side's summed luck."""
        return math.sqrt(sum(dl.stderr ** 2 for dl in self.luck))


def _fmt(x: float) -> str:
    """A value in a record's comment: signed at two decimals, zero without
    a sign (``0.00``, as the tables write it; ``-0.00`` was a zero seen
    from the other side)."""
    return signed(x, ".2f")


def shown_loss(loss: float) -> bool:
    """A loss worth naming another best play for: one that shows at two
    decimals (a sampled 0.004 is a tie, not a mistake)."""
    return round(loss, 2) > 0


def eval_view(players: int) -> str:
    """Whose view ``[%eval]`` takes in an annotated record (the
    ``EvalView`` tag): ``S`` (two players) or ``SN`` (four), the first
    side, every play; three players have no side view: each value is the
    mover's own points (``mover``)."""
    return {2: "S", 4: "SN"}.get(players, "mover")


def machine_comment(note: PlayNote, players: int = 2) -> str:
    """The ``[%eval ...]`` comment of an evaluated play, from the first
    side's view (:func:`eval_view`: S, or SN with four players, so the
    numbers of a game read as one curve; three players: the mover's own
    points): ``[%eval V]`` the value of the play made, ``[%best CARD V]``
    the best play when another play would have given up a loss that shows
    at two decimals, ``[%loss L]`` (what the mover gave up, never
    negative), ``[%se S]`` when sampled, ``[%cut]`` when the time budget
    stopped its search short (an estimate; ``[%cut one-ply]`` when no
    search finished and the values are one ply deep), then the match note
    in words.

    >>> n = PlayNote(1, 1, 2, 1, "6o", 3, value=-9.0, best_value=-5.0, best="12e", loss=4.0)
    >>> machine_comment(n)
    '[%eval +9.00] [%best 12e +5.00] [%loss 4.00]'
    """
    sign = 1 if players == 3 or side_of(note.seat, players) == 0 else -1
    parts = [f"[%eval {_fmt(sign * (note.value or 0.0))}]"]
    if shown_loss(note.loss) and note.best is not None:
        parts.append(f"[%best {note.best} {_fmt(sign * (note.best_value or 0.0))}]")
        parts.append(f"[%loss {note.loss:.2f}]")
    if note.stderr is not None:
        parts.append(f"[%se {note.stderr:.2f}]")
    if note.cut:
        parts.append("[%cut one-ply]" if note.method == "one-ply" else "[%cut]")
    if note.match_note:
        parts.append(note.match_note)
    return " ".join(parts)


# --- match awareness -----------------------------------------------------------


def _card_of(hs: HandState, seat: int, rank_index: int) -> Card:
    return next(c for c in hs.hands[seat] if c.index == rank_index)


def match_check(hs: HandState, played: int, view: str, samples: int,
                rng: random.Random, threshold: float = 0.5) -> tuple[str, str]:
    """``(kind, note)`` for the mover's play of rank index ``played``:
    ``("misses win", ...)`` when another card reaches the target at once
    and this one does not; ``("lets win", ...)`` when, after it, the next
    player can reach the target at once and after another card could not
    (full view: the next hand as recorded; player view: ``samples`` draws
    of it as the mover would make them, marked when the share of draws
    that let the win through rises by ``threshold`` or more); else
    ``("", "")``. Only with a target and ``win_check = immediate``."""
    if hs.target is None or hs.rules.win_check != "immediate" or hs.players == 3:
        return "", ""
    seat = hs.turn
    me = hs.sides[seat]
    names = seat_names(hs.players)
    ranks = hs.legal_ranks()
    if len(ranks) < 2:
        return "", ""
    if hs.score[me] + 40 >= hs.target:
        wins = []
        for m in ranks:
            c = hs.clone()
            c.play(_card_of(c, seat, m))
            if c.winner == me:
                wins.append(m)
        if wins and played not in wins:
            return "misses win", (f"misses the win: {RANKS[wins[0]]} reaches {hs.target} "
                                  f"at once")
    nxt = (seat + 1) % hs.players
    other = hs.sides[nxt]
    if other == me or hs.score[other] + 40 < hs.target:
        return "", ""
    if view == "full":
        draws = [list(hs.hands[nxt])]
    else:
        sample = sampler(hs.view())
        draws = []
        for _ in range(samples):
            game, state = sample(rng)
            draws.append([Card(RANKS[r]) for r in ranks_of(game.hand(state, nxt))])
    # only the ranks of the next hand matter: try each distinct one once
    distinct = Counter(tuple(sorted(c.index for c in hand)) for hand in draws)
    share = {}
    for m in ranks:
        after = hs.clone()
        after.play(_card_of(after, seat, m))
        if after.finished or after.awaiting_deal:
            share[m] = 0.0
            continue
        hits = 0
        for key, weight in distinct.items():
            trial = after
            if view != "full":
                trial = after.clone()
                trial.set_hand(nxt, [Card(RANKS[r]) for r in key])
            for r in sorted(set(key)):
                c2 = trial.clone()
                c2.play(_card_of(c2, nxt, r))
                if c2.winner == other:
                    hits += weight
                    break
        share[m] = hits / len(draws)
    safest = min(ranks, key=lambda m: (share[m], m))
    if share[played] - share[safest] >= threshold:
        if view == "full":
            return "lets win", (f"lets {names[nxt]} reach {hs.target} at once "
                                f"({RANKS[safest]} would not)")
        return "lets win", (f"lets {names[nxt]} reach {hs.target} at once in "
                            f"{share[played]:.0%} of the deals {names[seat]} could expect "
                            f"({RANKS[safest]}: {share[safest]:.0%})")
    return "", ""


# --- luck of the deal ------------------------------------------------------------


@dataclass
class LuckTask:
    """What the luck of one deal needs, picklable: the ``rules``,
    ``players``, ``leader`` seat, the ``sizes`` of the deals, ``deal_no``
    (1-based), the ``table`` and ``gone`` rank indices before the deal,
    ``dealt`` the hands dealt (rank indices per seat), ``last`` the last
    capturer's seat or -1; ``piles`` each side's pile size (three players
    and Ronda voleur) and ``tops`` its top (rank index or -1; voleur)
    before the deal."""

    rules: object
    players: int
    leader: int
    sizes: tuple[int, ...]
    deal_no: int
    table: list[int]
    gone: list[int]
    dealt: list[list[int]]
    last: int
    piles: tuple[int, ...] = ()
    tops: tuple[int, ...] = ()


def luck_task(hs: HandState) -> LuckTask:
    """The LuckTask of the deal just made in ``hs`` (before its first play)."""
    voleur = hs.rules.voleur
    piles = voleur or hs.players == 3
    return LuckTask(hs.rules, hs.players, hs.leader, tuple(hs.sizes), hs.deal_no,
                    [c.index for c in hs.table], [c.index for c in hs.gone()],
                    [[c.index for c in h] for h in hs.hands],
                    hs.last_seat if hs.last_seat is not None else -1,
                    tuple(len(p) for p in hs.piles) if piles else (),
                    tuple(p[-1].index if p else -1 for p in hs.piles) if voleur else ())


def _deal_value(t: LuckTask, table: list[int], hands: list[list[int]], stock: list[int],
                last: int, deadline: float | None = None, searched: bool = True):
    """Two sides: half-points for the leader's side, the declarations of
    the deal ``hands`` plus the exact value of the position after it
    (``stock`` in dealing order). Three players: each seat's points, the
    declarations plus the max^n vector after the deal. Not ``searched``:
    the declarations only (another ``f`` of the control variate, as
    valid). Raises SearchAborted past ``deadline`` (None: none)."""
    three = t.players == 3
    sides = [s if three else s % 2 for s in range(t.players)]
    decl = declaration_points(t.rules, hands, sides)  # type: ignore[arg-type]
    ls = sides[t.leader]
    if not searched:
        return list(decl) if three else 2 * (decl[ls] - decl[1 - ls])
    game = Hand(t.rules, t.players, t.leader, stock)  # type: ignore[arg-type]
    state = game.initial_state(table, hands, t.leader, last=last, piles=t.piles or None,
                               tops=t.tops or None)
    if three:
        from ..search.vectors import exact_vector
        v = exact_vector(game.P, game.D, state, deadline)
        return [decl[k] + v[k] for k in range(3)]
    if game.is_terminal(state):
        return 2 * (decl[ls] - decl[1 - ls])
    return 2 * (decl[ls] - decl[1 - ls]) + exact_value(game.P, game.D, state, deadline)


def _split(cards: list[int], size: int, players: int, leader: int) -> list[list[int]]:
    hands: list[list[int]] = [[] for _ in range(players)]
    for i in range(players):
        hands[(leader + i) % players] = cards[i * size:(i + 1) * size]
    return hands


def _mean_var(xs: list):
    """Mean and variance of one sample of numbers, or of vectors entry by
    entry (three players)."""
    if xs and isinstance(xs[0], list):
        cols = [_mean_var([x[k] for x in xs]) for k in range(len(xs[0]))]
        return [c[0] for c in cols], [c[1] for c in cols]
    m = sum(xs) / len(xs)
    return m, (sum((x - m) ** 2 for x in xs) / (len(xs) - 1) if len(xs) > 1 else 0.0)


def _draws(samples: int, seconds: float | None):
    """The draws to make, numbered from 0: ``samples`` of them, or fewer
    when ``seconds`` (None: no limit) would be overrun: no draw is begun
    that the mean time of the draws so far says would end past it (two
    draws at least, for a variance)."""
    t0 = time.perf_counter()
    for i in range(samples):
        if seconds is not None and i >= 2:
            spent = time.perf_counter() - t0
            if spent + spent / i > seconds:
                return
        yield i


def _new_hands(t: LuckTask, rng: random.Random, draws, searched: bool = True,
               deadline: float | None = None):
    """``f`` (:func:`_deal_value`) of whole new hands, table and first
    deal drawn from ``rng``, one a number of ``draws``."""
    size = t.sizes[0]
    for _ in draws:
        tab, st = deal_hand(t.rules, t.players, rng)  # type: ignore[arg-type]
        cards = [c.index for c in st]
        yield _deal_value(t, [c.index for c in tab], _split(cards, size, t.players, t.leader),
                          cards[size * t.players:], -1, deadline, searched)


def opening_expectation(t: LuckTask, samples: int, seed: str,
                        seconds: float | None = None) -> tuple:
    """``(mean, variance of one sample, draws)`` in half-points for the
    leader's side of a whole new hand (table and first deal drawn,
    declarations included): the expectation before the first deal, the
    same for every hand of a game; ``samples`` hands drawn, fewer when
    ``seconds`` run out (:func:`_draws`; a search they stop ends the
    drawing; with fewer than two hands drawn the mean is None, and the
    first deals' luck counts their declarations only)."""
    deadline = None if seconds is None else time.perf_counter() + seconds
    xs: list = []
    try:
        for x in _new_hands(t, random.Random(seed), _draws(samples, seconds),
                            deadline=deadline):
            xs.append(x)
    except SearchAborted:
        pass
    if seconds is not None and len(xs) < 2:
        return None, None, len(xs)
    return (*_mean_var(xs), len(xs))


def deal_luck(t: LuckTask, samples: int, seed: str, opening: tuple | None = None,
              seconds: float | None = None) -> tuple:
    """``(luck, stderr, draws, searched)`` in points for the leader's side
    of a deal (three players: a list, each seat's own points, and the
    leader's stderr): the expected value with the dealt hands known (the
    rest of the stock shuffled ``samples`` times; exact for the last deal)
    less the expectation over deals drawn from the unseen cards
    (``samples`` draws; for the first deal ``opening``, see
    :func:`opening_expectation`).

    ``seconds`` (None: no limit): the draws stop when they run out
    (:func:`_draws`), and a search they stop ends them; ``draws`` says how
    many were made. When too few were (one deal with its cards known and,
    after the first deal, two drawn; or the opening's mean is missing),
    the deal's luck counts its declarations only (``searched`` False:
    another ``f``, as valid, over all ``samples`` draws, which take no
    search)."""
    if seconds is None:
        return _deal_luck(t, samples, seed, opening, None, True)
    deadline = time.perf_counter() + seconds
    if t.deal_no > 1 or (opening is not None and opening[0] is not None):
        out = _deal_luck(t, samples, seed, opening, seconds, True, deadline)
        if out is not None:
            return out
    return _deal_luck(t, samples, seed, None, None, False)


def _deal_luck(t: LuckTask, samples: int, seed: str, opening: tuple | None,
               seconds: float | None, searched: bool, deadline: float | None = None):
    """:func:`deal_luck` with the value searched or not; None when a
    search stopped at ``deadline`` before enough draws were made."""
    rng = random.Random(seed)
    p = t.players
    size = t.sizes[t.deal_no - 1]
    pool = [r for r in range(10) for _ in range(4)]
    for r in t.table + t.gone:
        pool.remove(r)
    rest = pool[:]
    for h in t.dealt:
        for r in h:
            rest.remove(r)
    before: list = []
    after: list = []
    try:
        for i in _draws(samples, seconds):
            if t.deal_no > 1:
                cards = pool[:]
                rng.shuffle(cards)
                before.append(_deal_value(t, t.table, _split(cards, size, p, t.leader),
                                          cards[size * p:], t.last, deadline, searched))
            if rest or not i:       # the last deal: one exact value
                stock = rest[:]
                rng.shuffle(stock)
                after.append(_deal_value(t, t.table, t.dealt, stock, t.last, deadline,
                                         searched))
    except SearchAborted:
        if not after or (t.deal_no > 1 and len(before) < 2):
            return None
    draws = len(before) if t.deal_no > 1 else len(after)
    ma, va = _mean_var(after)
    if t.deal_no == 1 and opening is not None:
        # the opening's mean is an estimate too (few draws under --time):
        # its variance over its draws counts in the deal's stderr
        n = opening[2] if len(opening) > 2 and opening[2] else 0
        mb = opening[0]
        if t.players == 3:
            vb = [v / n for v in opening[1]] if n else [0.0] * 3
        else:
            vb = opening[1] / n if n else 0.0
    elif t.deal_no == 1:        # not searched: the new hands' declarations, drawn here
        xs = list(_new_hands(t, rng, range(2 * samples), searched=False))
        mb, vb = _mean_var(xs)
        vb = [v / len(xs) for v in vb] if t.players == 3 else vb / len(xs)
    else:
        mb, vb = _mean_var(before)
        vb = [v / len(before) for v in vb] if t.players == 3 else vb / len(before)
    if t.players == 3:      # points per seat; the stderr of the leader's
        luck = [a - b for a, b in zip(ma, mb)]
        k = t.leader
        return luck, math.sqrt(vb[k] + va[k] / len(after)), draws, searched
    return (ma - mb) / 2, math.sqrt(vb + va / len(after)) / 2, draws, searched


# --- the annotator ---------------------------------------------------------------


def close_moves(a) -> list[str] | None:
    """The plays of an analysis whose loss against the best is not
    established beyond the estimate's error: the deal search's close plays
    (and any play within its tolerance), a determinised search's plays the
    best leads by fewer than :func:`~solver.analysis.deal.tie_z` (of its
    samples) paired standard errors, an equilibrium's within the error of
    the learned value at its deal's end; None for the exact methods
    (every loss is established)."""
    from ..analysis.deal import tie_z
    if a.method == "deal":
        top = max(mv.value for mv in a.moves)
        tol = a.extra.get("tolerance", {})
        # a tolerance of None: no error measured (every play close)
        return sorted(set(a.extra.get("close", [])) | {
            mv.move for mv in a.moves
            if tol.get(mv.move, 0.0) is None or top - mv.value <= tol.get(mv.move, 0.0) + 1e-9})
    if a.method == "equilibrium" and "close" in a.extra:
        # the deal's end valued by a learned model: plays within its error
        return sorted(a.extra["close"])
    if a.method == "determinised":
        z = tie_z(a.samples)
        return [a.moves[0].move] + [mv.move for mv in a.moves[1:]
                                    if mv.lead_z is None or mv.lead_z < z]
    return None


def play_mark(note, thresholds: Thresholds) -> str:
    """An annotated play's mark: ``??`` for a play that misses or gives
    away the match; none for a play close to the best or valued one ply
    deep (no search finished for it in the time: its loss is shown, ``*``,
    but judges nothing); else its loss's (:meth:`Thresholds.mark`)."""
    if note.match:
        return "??"
    if note.close or note.method == "one-ply":
        return ""
    return thresholds.mark(note.loss)


def _eval_job(args) -> tuple:
    """One play's evaluation; ``args`` end with the time budget when one
    was given (else evaluate's own)."""
    pos, method, samples, seed, *budget = args
    a = evaluate(pos, method=method, samples=samples, seed=seed,
                 **({"time_budget": budget[0]} if budget else {}))
    if a.partial:           # the search was interrupted: stop the annotation too
        raise KeyboardInterrupt("search interrupted")
    return (a.method, a.samples, [(mv.rank, mv.move, mv.value, mv.stderr) for mv in a.moves],
            close_moves(a), a.seconds, a.stopped == "time" or a.method == "one-ply")


def _luck_job(args) -> tuple:
    """One deal's luck: ``(task, samples, seed, opening[, seconds])``."""
    return deal_luck(*args)


def _opening_job(args) -> tuple:
    """``(task, samples, seed[, seconds])``."""
    return opening_expectation(*args)


def job_key(kind: str, args: tuple) -> str:
    """The store key of one search job of an annotation (``kind`` "eval",
    "luck" or "opening"): a JSON text naming the engine version, the job
    and everything its result depends on (for an evaluation: the canonical
    position line, which carries the rules, the method, the samples and
    the seed)."""
    if kind == "eval":
        pos, method, samples, seed, *budget = args
        body = [format_position(pos), method, samples, seed, *budget]
    else:
        body = [repr(a) for a in args]
    return json.dumps([__version__, kind, *body], separators=(",", ":"))


def annotate(game: GameRecord, *, view: str = "player", samples: int = 32, seed: int = 0,
             method: str = "auto", thresholds: Thresholds | None = None,
             luck_samples: int = 24, jobs: int = 1, time_budget: float | None = None,
             progress: Callable[[int, int], None] | None = None,
             cache: dict | None = None, computed: dict | None = None,
             plan_only: bool = False):
    """Evaluate every play of ``game`` (see the module docstring).

    ``view``: ``"player"`` or ``"full"``; ``samples``: determinisations a
    play (player view, or a full view whose stock order is unknown);
    ``seed``: the sampling seed (play ``i`` uses ``seed`` and ``i``, so the
    result does not depend on ``jobs``); ``method``: passed to
    ``evaluate`` (``auto`` picks); ``thresholds``: the marks (None: the
    view's DEFAULT_THRESHOLDS);
    ``luck_samples``: draws per deal for the luck (0: no luck; three
    players: each seat's own points); ``jobs``:
    worker processes; ``time_budget``: seconds each play's evaluation
    may take (``evaluate``'s ``time_budget``, as ``ronda-solve --time``;
    None: evaluate's default) and each deal's luck, and the expectation
    of a new hand, may draw for (fewer draws when they run out; None: no
    limit); ``progress(done, total)`` as evaluations finish.

    ``cache``: results of earlier search jobs by :func:`job_key` (an
    analysis store's hits): those jobs are not searched again;
    ``computed``: a dict that receives the result of every job searched
    now, by key (for the store); ``plan_only``: replay and return the list
    of the jobs' keys without searching (match checks skipped).

    Returns an Annotation (a list of keys with ``plan_only``). Raises
    RecordError for a record that does not replay, ValueError for a bad
    view or player count, CompileError (from evaluate) for a position the
    search cannot take.
    """
    if view not in VIEWS:
        raise ValueError(f"unknown view {view!r} (expected player or full)")
    if game.players not in (2, 3, 4):
        raise ValueError(f"annotate takes 2, 3 or 4 players, not {game.players}")
    thresholds = thresholds or DEFAULT_THRESHOLDS[view]
    shape = _Shape(view, samples, seed, thresholds, time.perf_counter(), time_budget,
                   luck_samples)
    budget = shape.budget
    record = copy.deepcopy(game)
    replay = Replay(record)
    rng = random.Random(f"annotate/{seed}")
    notes: list[PlayNote] = []
    plays = []
    evals: list[tuple] = []
    lucks: list[tuple] = []
    luck_where: list[tuple[int, int, int, int]] = []
    # 1. replay: the positions to evaluate, the match checks, the deals
    for step in replay:
        hs = step.state
        if step.number == 1 and luck_samples > 0:
            luck_where.append((step.hand, step.deal, hs.leader, hs.sides[hs.leader]))
            lucks.append((luck_task(hs), luck_samples, f"luck/{seed}/{step.hand}/{step.deal}"))
        where = hs.find(step.seat, step.play.card)
        if where is None:
            continue        # not in the hand: the replay raises RecordError
        card = hs.hands[step.seat][where]
        note = PlayNote(step.hand, step.deal, step.number, step.seat, str(step.play.card),
                        step.index)
        notes.append(note)
        if len(hs.legal_ranks()) < 2:
            note.forced = True
            continue
        pos = hs.view() if view == "player" else hs.full_position()
        evals.append((pos, method, samples, seed * 1000003 + step.index, *budget))
        plays.append((note, step.play, card.index))
        if not plan_only:
            note.match, note.match_note = match_check(hs, card.index, view, samples, rng,
                                                      thresholds.match)
    # 2. the evaluations (and the luck), in worker processes when jobs > 1
    total = len(evals) + len(lucks)
    done = [0]

    def tick(_x=None) -> None:
        done[0] += 1
        if progress is not None:
            progress(done[0], total)

    opening_args = None
    if lucks:
        first = next(t for t, _n, _s in lucks if t.deal_no == 1)
        opening_args = (first, 2 * luck_samples, f"opening/{seed}", *budget)
    eval_keys = [job_key("eval", a) for a in evals]
    opening_key = job_key("opening", opening_args) if opening_args else None
    luck_keys = [job_key("luck", (*a, opening_args, *budget)) for a in lucks]
    if plan_only:
        return eval_keys + ([opening_key] if opening_key else []) + luck_keys
    cache = cache or {}
    if computed is None:
        computed = {}
    if cache:
        return _annotate_cached(record, replay, notes, plays, evals, eval_keys, lucks,
                                luck_keys, luck_where, opening_args, opening_key, cache,
                                computed, shape, tick)
    if jobs > 1 and total:
        from ..runtime.workers import process_pool
        with process_pool(jobs) as pool:
            opening_f = pool.submit(_opening_job, opening_args) if opening_args else None
            futures = [pool.submit(_eval_job, a) for a in evals]
            for f in futures:
                f.add_done_callback(tick)
            opening = opening_f.result() if opening_f else None
            luck_f = [pool.submit(_luck_job, (*a, opening, *budget)) for a in lucks]
            for f in luck_f:
                f.add_done_callback(tick)
            results = [f.result() for f in futures]
            luck_results = [f.result() for f in luck_f]
    else:
        results = []
        for a in evals:
            results.append(_eval_job(a))
            tick()
        opening = _opening_job(opening_args) if opening_args else None
        luck_results = []
        for a in lucks:
            luck_results.append(_luck_job((*a, opening, *budget)))
            tick()
    computed.update(zip(eval_keys, results))
    if opening_key is not None:
        computed[opening_key] = opening
    computed.update(zip(luck_keys, luck_results))
    return _finish(record, replay, notes, plays, results, luck_where, luck_results,
                   opening, shape)


class _Shape(NamedTuple):
    """What an annotation was asked for, and when it began."""

    view: str
    samples: int
    seed: int
    thresholds: Thresholds
    t0: float
    time_budget: float | None
    luck_samples: int

    @property
    def budget(self) -> tuple:
        """The search jobs' last argument: the time budget, or none."""
        return () if self.time_budget is None else (self.time_budget,)


def _annotate_cached(record, replay, notes, plays, evals, eval_keys, lucks, luck_keys,
                     luck_where, opening_args, opening_key, cache, computed, shape, tick):
    """annotate's searches, one process, each job looked up in ``cache``
    first; what is searched goes to ``computed``."""
    def run(key, fn, args):
        if key in cache:
            return cache[key]
        out = fn(args)
        computed[key] = out
        return out

    results = []
    for key, a in zip(eval_keys, evals):
        results.append(run(key, _eval_job, a))
        tick()
    opening = run(opening_key, _opening_job, opening_args) if opening_args else None
    luck_results = []
    for key, a in zip(luck_keys, lucks):
        luck_results.append(run(key, _luck_job, (*a, opening, *shape.budget)))
        tick()
    return _finish(record, replay, notes, plays, results, luck_where, luck_results,
                   opening, shape)


def _finish(record, replay, notes, plays, results, luck_where, luck_results, opening,
            shape) -> Annotation:
    """annotate's last step: notes, marks and the annotated record. A
    result stored by an earlier version may lack its last entries
    (seconds, cut, draws)."""
    view, samples, seed, thresholds, t0, time_budget, luck_samples = shape
    for (note, play, rank), res in zip(plays, results):
        meth, nsamples, moves = res[:3]
        close = res[3] if len(res) > 3 else None
        # the search's own time (a result stored before it was kept: 0)
        note.seconds = res[4] if len(res) > 4 else 0.0
        note.cut = bool(res[5]) if len(res) > 5 else False
        by_rank = {r: (text, v, se) for r, text, v, se in moves}
        text, made, se = by_rank[rank]
        best = moves[0]
        note.value, note.best_value, note.best = made, best[2], best[1]
        note.loss = best[2] - made if best[2] - made > 1e-9 else 0.0
        note.stderr = se
        note.moves = [(text, v) for _r, text, v, _se in moves]
        note.move_stderr = [se for _r, _text, _v, se in moves]
        note.method, note.samples = meth, nsamples
        note.close = close is not None and text in close and note.loss > 0
        note.mark = play_mark(note, thresholds)
        play.mark = note.mark
        play.comments = [c for c in play.comments if "[%eval" not in c]
        play.comments.append(machine_comment(note, record.players))
    luck = []
    for (h, d, leader, ls), res in zip(luck_where, luck_results):
        lk, se = res[:2]
        if isinstance(lk, list):        # three players: each seat's own
            per_side = list(lk)
        else:
            per_side = [0.0, 0.0]
            per_side[ls], per_side[1 - ls] = lk, -lk
        luck.append(DealLuck(h, d, leader, per_side, se, res[2] if len(res) > 2 else None,
                             res[3] if len(res) > 3 else True))
    tag = (f"ronda-solver {__version__}, view {view}"
           + (f", {samples} determinisations" if view == "player" else "") + f", seed {seed}"
           + (f", --time {tidy(time_budget)} s a play" if time_budget is not None else ""))
    record.tags["Annotator"] = tag
    record.tags["EvalView"] = eval_view(record.players)
    return Annotation(record, notes, luck, view, samples, seed, thresholds,
                      list(replay.score), time.perf_counter() - t0, time_budget, luck_samples,
                      opening[2] if opening is not None and len(opening) > 2 else None)


def annotation_json(an: Annotation) -> dict:
    """The JSON document of an annotation (see docs/games.md). With a
    time budget also ``time``, each play's ``cut``, each deal's luck
    ``draws`` and ``searched``, ``luck_samples`` and ``opening_draws``."""
    g = an.record
    names = seat_names(g.players)
    sides = side_names(g.players)
    timed = an.time_budget is not None
    return tidy({
        "objective": "points",
        "tags": dict(g.tags),
        "view": an.view, "samples": an.samples, "seed": an.seed,
        "thresholds": {"?!": an.thresholds.dubious, "?": an.thresholds.mistake,
                       "??": an.thresholds.blunder, "match": an.thresholds.match},
        "score": dict(zip(sides, an.score)),
        "plays": [{
            "hand": n.hand, "deal": n.deal, "play": n.number, "seat": names[n.seat],
            "player": g.names[n.seat], "card": n.card, "forced": n.forced,
            "value": n.value, "best": n.best, "best_value": n.best_value, "loss": n.loss,
            "stderr": n.stderr, "mark": n.mark, "close": n.close, "match": n.match,
            "match_note": n.match_note,
            "moves": [{"move": m, "value": v, "stderr": se} for (m, v), se in
                      zip(n.moves, n.move_stderr or [None] * len(n.moves))],
            "method": n.method,
            "samples": n.samples, "seconds": round(n.seconds, 4),
            **({"cut": n.cut} if timed else {}),
        } for n in an.notes],
        "luck": [{"hand": d.hand, "deal": d.deal, "leader": names[d.leader],
                  "luck": dict(zip(sides, d.luck)), "stderr": d.stderr,
                  **({"draws": d.draws, "searched": d.searched} if timed else {})}
                 for d in an.luck],
        "players": an.summary(),
        **({"sides": an.side_summary()} if g.players == 4 else {}),
        "luck_stderr": an.luck_stderr() if an.luck else None,
        **({"time": an.time_budget, "luck_samples": an.luck_samples,
            "opening_draws": an.opening_draws} if timed else {}),
        "seconds": round(an.seconds, 3),
    })
