"""Inference from the other players' plays: how likely is what they did this
deal, given each hand they might hold?

Only the current deal matters: every card of an earlier deal was played in
front of everybody, so those plays were made with hands that are now known.
In the current deal a seat whose hand is hidden chose each of its plays
from a hand that was its present (hidden) hand plus the cards it has played
since. Under a model of its play (:class:`PlayModel`) the plays have a
likelihood for each hidden hand; determinised search weights each
determinisation by it (importance weights, the prior being the uniform draw
of :mod:`solver.engine.sampling`), and reports the effective sample size.

The model scores each legal play of a seat by what a greedy player weighs
(:class:`solver.games.players.GreedyPlayer`): the points it takes now (event
points plus half a point a card won), less, for a card laid, the points the
next player would take by hitting it times the chance that it holds the
rank (from the cards the seat has not seen); it then plays a softmax of
those scores at ``temperature`` points, mixed with a uniform choice
(``noise``). A declaration binds a hand already (``declared=``); a play that
skipped a hit, an answer or a missa makes the hands that held it less
likely; laying a card others can hit says the seat had nothing safer.

>>> m = PlayModel()
>>> round(sum(m.play_probabilities(*_demo()).values()), 9)
1.0
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass
from typing import Sequence

from ..cards import RANK_INDEX
from ..engine.hand import SEAT, SHOW, Hand
from ..engine.history import replay
from ..engine.scoring import EV_ANSWER5, EV_ANSWER10, EV_CAPTURE, event_points, ranks_of
from ..position import Position


@dataclass(frozen=True)
class PlayModel:
    """A seat's play as the others model it (see the module docstring).

    ``temperature``: points; lower is greedier. ``noise``: the share of
    uniformly random play (keeps every play possible, so a model that is
    wrong about a seat does not rule its true hand out). ``hit_risk``: the
    weight of the points a laid card may give the next player. The defaults
    come from :data:`FITTED` (bench/bench_inference.py).
    """

    temperature: float = 0.3
    noise: float = 0.2
    hit_risk: float = 2.0

    def scores(self, game: Hand, state: tuple, hand: Sequence[int],
               unseen: Counter) -> dict[int, float]:
        """The score in points of each distinct rank of ``hand`` played in
        ``state`` (a core state; the mover holding ``hand``): points now,
        less the risk of a card laid. ``unseen``: rank index -> cards the
        mover has not seen (the other hands and the stock, as it counts
        them). Ronda voleur: a stolen pile counts its cards."""
        rules = game.rules
        st = Hand.with_hand(state, state[SEAT], hand)
        total_unseen = max(1, sum(unseen.values()))
        out: dict[int, float] = {}
        for r in sorted(set(hand)):
            stolen = sum(n for _k, n in game.robbed(st, r))
            child, _gain, ev = game.play(st, r)
            if ev & (EV_ANSWER5 | EV_ANSWER10):
                cards = (state[SHOW] & 3) + 1
                out[r] = event_points(rules, ev) + cards / 2 + stolen
            elif ev & EV_CAPTURE:
                cards = game.capture(st, r).bit_count() + 1
                out[r] = event_points(rules, ev) + cards / 2 + stolen
            else:
                # laid: the next player hits it if it holds the rank
                hit = rules.hit[0] + 1 + (game.capture(child, r).bit_count() - 1) / 2
                p_holds = min(1.0, 3 * unseen.get(r, 0) / total_unseen)
                out[r] = -self.hit_risk * p_holds * hit
        return out

    def play_probabilities(self, game: Hand, state: tuple, hand: Sequence[int],
                           unseen: Counter) -> dict[int, float]:
        """The probability of each distinct rank of ``hand`` being played."""
        scores = self.scores(game, state, hand, unseen)
        top = max(scores.values())
        exp = {r: math.exp((s - top) / self.temperature) for r, s in scores.items()}
        z = sum(exp.values())
        n = len(exp)
        return {r: (1 - self.noise) * e / z + self.noise / n for r, e in exp.items()}


#: the fitted model: bench/bench_inference.py --hands 30 (lmodire, greedy
#: against engine:20, seat-swapped; 684 greedy and 690 engine decisions),
#: the best mean log-likelihood of both players' choices on a grid. It
#: explains greedy well (-0.29 a decision, uniform play -0.86) and the
#: engine hardly at all (-0.86): its choices come from search, not from a
#: score of the play alone, so inference against it is weak.
FITTED = PlayModel()


class Evidence:
    """The plays of the current deal by the seats whose hands are hidden
    in ``pos``, ready to be scored against drawn hands.

    Built from ``pos.hist`` (no history: no evidence, every weight 1).
    :meth:`likelihood` gives the probability of those plays for one
    drawing of the hidden hands; it is memoised on them (a determinisation
    differs from another mostly in the stock).
    """

    def __init__(self, pos: Position, model: PlayModel = FITTED) -> None:
        self.model = model
        self.seats = [s for s, h in enumerate(pos.hands)
                      if s != pos.turn and any(c is None for c in h)]
        self.items: list[tuple[int, tuple, int, list[int], Counter]] = []
        self._memo: dict[tuple, float] = {}
        h = pos.hist
        if h is None or not self.seats:
            return
        plays = [(s, c.index) for s, c in h.plays]
        r = replay(pos.rules, pos.players, pos.leader(), [c.index for c in h.table], plays,
                   tops=h.top_ranks(), piles=h.piles)
        self.game = r.hand
        # seen when the deal began: the cards gone before it, and its table
        seen_base = Counter(c.index for c in pos.gone or [])
        seen_base.subtract(c for took in r.captured for c in took)
        seen_base += Counter()           # drops what the deal's captures emptied
        for c in h.table:
            seen_base[c.index] += 1
        for i, (seat, rank) in enumerate(plays):
            if seat not in self.seats:
                continue
            # the cards this seat played after this play, back in its hand
            later = [rk for s, rk in plays[i + 1:] if s == seat]
            state = r.states[i]
            # what the seat had seen by then: the table, the cards gone, the
            # plays made so far this deal (its own hand is added per drawing)
            seen = Counter(seen_base)
            for _s, rk in plays[:i]:
                seen[rk] += 1
            self.items.append((seat, state, rank, later + [rank], seen))

    @property
    def empty(self) -> bool:
        """No play of a hidden hand to learn from."""
        return not self.items

    def likelihood(self, hands: Sequence[Sequence[int]]) -> float:
        """The probability of the recorded plays given ``hands`` (rank
        indices per seat, as the determinisation drew them now)."""
        key = tuple(tuple(sorted(hands[s])) for s in self.seats)
        got = self._memo.get(key)
        if got is not None:
            return got
        p = 1.0
        for seat, state, rank, extra, seen in self.items:
            hand = list(hands[seat]) + extra
            unseen = Counter({r: 4 for r in range(10)})
            unseen.subtract(seen)
            unseen.subtract(hand)
            for r in list(unseen):
                if unseen[r] <= 0:
                    del unseen[r]
            probs = self.model.play_probabilities(self.game, state, hand, unseen)
            p *= probs.get(rank, 0.0)
        self._memo[key] = p
        return p


def decision(pos: Position, model: PlayModel = FITTED) -> dict[int, float]:
    """The model's probability of each distinct rank the mover of ``pos``
    may play (its own hand known; needs ``hist=`` for the table's state:
    without it the line's own table, ``prev=`` and ``show=`` are used)."""
    game = Hand(pos.rules, pos.players, pos.leader(), [], track=True)
    prev = pos.prev.index if pos.prev is not None else -1
    show = (RANK_INDEX[pos.show.rank] << 2 | pos.show.size) if pos.show else 0
    hand = [c.index for c in pos.hands[pos.turn]]
    nxt = (pos.turn + 1) % pos.players
    hands: list[list[int]] = [[] for _ in range(pos.players)]
    hands[pos.turn] = hand
    hands[nxt] = [9 if 9 not in hand else 0]
    tops = [-1 if c is None else c.index for c in pos.tops] if pos.tops else None
    state = game.initial_state([c.index for c in pos.table], hands, pos.turn, prev, show, -1,
                               pos.pile_sizes(), tops)
    unseen = Counter({r: 4 for r in range(10)})
    unseen.subtract(c.index for c in pos.table)
    unseen.subtract(c.index for c in pos.gone or [])
    unseen.subtract(hand)
    unseen = +unseen
    return model.play_probabilities(game, state, hand, unseen)


def effective_sample_size(weights: Sequence[float]) -> float:
    """Kish's effective sample size, ``(sum w)^2 / sum w^2`` (0 for no
    weight)."""
    s = sum(weights)
    s2 = sum(w * w for w in weights)
    return s * s / s2 if s2 > 0 else 0.0


def _demo():
    """A small example for the doctest: a 5 on the table, the mover holds
    5, 7, 12."""
    from ..rules import PRESETS
    game = Hand(PRESETS["lmodire"], 2, 0, [])
    state = game.initial_state([RANK_INDEX[5]], [[4, 6, 9], [0]], 0)
    unseen = Counter({r: 3 for r in range(10)})
    return game, state, [4, 6, 9], unseen


__all__ = ["PlayModel", "FITTED", "Evidence", "effective_sample_size", "ranks_of"]
