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
from ..engine.hand import SEAT, SHOW, TABLE, Hand
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

#: the features of a play scored by :class:`LinearPlayModel`, in order
FEATURES = ("points", "cards", "risk", "lays", "safe", "pair", "rank", "table", "run")


def play_features(game: Hand, state: tuple, hand: Sequence[int], unseen: Counter,
                  r: int) -> list[float]:
    """The features (:data:`FEATURES`) of playing rank index ``r`` from
    ``hand`` in ``state`` (the mover holding ``hand``; ``unseen``: copies
    of each rank the mover has not seen): the event points now, the cards
    taken in points (half a point a card), for a card laid the expected
    points of a hit on it (as :meth:`PlayModel.scores`), whether it is laid,
    laid with no copy unseen (it cannot be hit), played from a pair, the
    rank (0 for 1 to 1 for 12), the table's size after it (tenths) and, for
    a card laid, the cards a hit would take with it (run) times the chance
    the next player holds the rank."""
    rules = game.rules
    st = Hand.with_hand(state, state[SEAT], hand)
    total_unseen = max(1, sum(unseen.values()))
    child, _gain, ev = game.play(st, r)
    pts = float(event_points(rules, ev))
    cards = 0.0
    risk = 0.0
    run = 0.0
    lays = 0.0
    safe = 0.0
    if ev & (EV_ANSWER5 | EV_ANSWER10):
        cards = ((state[SHOW] & 3) + 1) / 2
    elif ev & EV_CAPTURE:
        cards = (game.run(st[TABLE], r).bit_count() + 1) / 2
    else:
        lays = 1.0
        p_holds = min(1.0, 3 * unseen.get(r, 0) / total_unseen)
        took = game.run(child[TABLE], r).bit_count() - 1
        risk = p_holds * (rules.hit[0] + 1 + took / 2)
        run = p_holds * took
        safe = 1.0 if unseen.get(r, 0) == 0 else 0.0
    pair = 1.0 if list(hand).count(r) >= 2 else 0.0
    return [pts, cards, risk, lays, safe, pair, r / 9, child[TABLE].bit_count() / 10, run]


@dataclass(frozen=True)
class LinearPlayModel:
    """A seat's play as a softmax of a weighted sum of the play's features
    (:func:`play_features`), mixed with ``noise`` uniform play: a
    conditional logit fitted on logged decisions
    (bench/bench_inference.py). ``weights`` in :data:`FEATURES` order
    (already divided by the temperature)."""

    weights: tuple[float, ...]
    noise: float = 0.1
    name: str = ""

    def scores(self, game: Hand, state: tuple, hand: Sequence[int],
               unseen: Counter) -> dict[int, float]:
        """The score of each distinct rank of ``hand`` (log-odds units)."""
        return {r: sum(w * f for w, f in zip(self.weights,
                                             play_features(game, state, hand, unseen, r)))
                for r in sorted(set(hand))}

    def play_probabilities(self, game: Hand, state: tuple, hand: Sequence[int],
                           unseen: Counter) -> dict[int, float]:
        """The probability of each distinct rank of ``hand`` being played."""
        scores = self.scores(game, state, hand, unseen)
        top = max(scores.values())
        exp = {r: math.exp(s - top) for r, s in scores.items()}
        z = sum(exp.values())
        n = len(exp)
        return {r: (1 - self.noise) * e / z + self.noise / n for r, e in exp.items()}


@dataclass(frozen=True)
class Mixture:
    """Several play models, each with its probability (the posterior over
    which one the seat follows): the plays of a deal have the mixture of
    each model's likelihood of them all (:meth:`Evidence.likelihood`)."""

    models: tuple
    weights: tuple[float, ...]

    def play_probabilities(self, game: Hand, state: tuple, hand: Sequence[int],
                           unseen: Counter) -> dict[int, float]:
        """The mixed probability of each distinct rank (one decision)."""
        out: dict[int, float] = {}
        for m, w in zip(self.models, self.weights):
            for r, p in m.play_probabilities(game, state, hand, unseen).items():
                out[r] = out.get(r, 0.0) + w * p
        return out


class Evidence:
    """The plays of the current deal by the seats whose hands are hidden
    in ``pos``, ready to be scored against drawn hands.

    Built from ``pos.hist`` (no history: no evidence, every weight 1);
    ``model`` the play model (None: :data:`FITTED`). :meth:`likelihood` gives the probability of those plays for one
    drawing of the hidden hands; it is memoised on them (a determinisation
    differs from another mostly in the stock).
    """

    def __init__(self, pos: Position, model=None) -> None:
        self.model = FITTED if model is None else model
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
        models = self.model.models if isinstance(self.model, Mixture) else (self.model,)
        weights = self.model.weights if isinstance(self.model, Mixture) else (1.0,)
        total = 0.0
        for model, w in zip(models, weights):
            p = w
            for seat, state, rank, extra, seen in self.items:
                hand = list(hands[seat]) + extra
                unseen = Counter({r: 4 for r in range(10)})
                unseen.subtract(seen)
                unseen.subtract(hand)
                for r in list(unseen):
                    if unseen[r] <= 0:
                        del unseen[r]
                probs = model.play_probabilities(self.game, state, hand, unseen)
                p *= probs.get(rank, 0.0)
            total += p
        self._memo[key] = total
        return total


def decision_setup(pos: Position) -> tuple[Hand, tuple, list[int], Counter]:
    """``(game, state, hand, unseen)`` of the mover's decision in ``pos``
    as a play model sees it (its own hand known; the table, ``prev=`` and
    ``show=`` of the line; ``unseen`` the copies of each rank it has not
    seen)."""
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
    return game, state, hand, +unseen


def decision(pos: Position, model=FITTED) -> dict[int, float]:
    """The model's probability of each distinct rank the mover of ``pos``
    may play (its own hand known; needs ``hist=`` for the table's state:
    without it the line's own table, ``prev=`` and ``show=`` are used)."""
    return model.play_probabilities(*decision_setup(pos))


#: linear play models fitted by bench/bench_inference.py --hands 60
#: --selfplay (lmodire; greedy v deal:0.05s and deal:0.05s v itself,
#: seat-swapped; even hands fit, odd hands held out). Held-out mean
#: log-likelihood a decision: on greedy's 676 decisions GREEDY_FITTED
#: -0.217 (FITTED -0.299, uniform -0.855); on the deal player's 2,060
#: ENGINE_FITTED -0.678 (FITTED -0.762, uniform -0.851): strong play is
#: harder to predict from the play alone, but not unpredictable.
GREEDY_FITTED = LinearPlayModel((1.6468, 3.0615, -5.0113, -1.0088, 0.452, 0.0505, -0.0298,
                                 -0.6123, -2.006), noise=0.01, name="greedy")
ENGINE_FITTED = LinearPlayModel((0.491, 0.4904, -3.2767, -0.1709, 0.4838, 0.7111, 0.1577,
                                 -0.1007, -0.8924), noise=0.2, name="engine")

#: the play models by name (``play_model=`` of evaluate; the deal player
#: chooses among them for each opponent, :class:`ModelChooser`)
MODELS: dict[str, object] = {"greedy": GREEDY_FITTED, "engine": ENGINE_FITTED}


class ModelChooser:
    """Which play model an opponent follows, learnt from its plays of the
    deals already finished (two players): when a deal is over every card
    its opponent held has been played in front of us, so the likelihood of
    its choices under each model is known exactly. The posterior over the
    models (uniform prior) mixes them (:class:`Mixture`) for inference in
    the current deal.

    Use: :meth:`observe` every view the player decides in (before it
    decides), :meth:`record` the rank it then plays; :meth:`mixture` the
    model to weigh with.
    """

    def __init__(self, names: Sequence[str] | None = None) -> None:
        self.names = list(names or MODELS)
        self.loglik = {n: 0.0 for n in self.names}
        self.decisions = 0
        self._last: tuple[Position, int] | None = None
        self._stock: int | None = None

    @staticmethod
    def _stock_of(view: Position) -> int:
        from ..engine.compile import unseen_pool
        hidden = sum(1 for h in view.hands for c in h if c is None)
        return len(unseen_pool(view)) - hidden

    def observe(self, view: Position) -> None:
        """A view the player is about to decide in: when it is a new deal,
        score the previous one."""
        if view.players != 2 or view.hist is None:
            return
        stock = self._stock_of(view)
        if self._last is not None and self._stock is not None and stock < self._stock:
            try:
                self._finish(*self._last, view)
            except (ValueError, KeyError):      # a deal that cannot be read back
                pass
            self._last = None
        self._stock = stock

    def record(self, view: Position, rank: int) -> None:
        """The player's own play (rank index) in ``view``."""
        if view.players == 2 and view.hist is not None:
            self._last = (view, rank)

    def posterior(self) -> dict[str, float]:
        """Each model's probability given the plays scored so far."""
        top = max(self.loglik.values())
        w = {n: math.exp(v - top) for n, v in self.loglik.items()}
        z = sum(w.values())
        return {n: x / z for n, x in w.items()}

    def best(self) -> str:
        """The model that fits best so far (the first on a tie)."""
        return max(self.names, key=lambda n: self.loglik[n])

    def mixture(self) -> Mixture:
        """The models mixed by their posterior."""
        post = self.posterior()
        return Mixture(tuple(MODELS[n] for n in self.names),
                       tuple(post[n] for n in self.names))

    def _finish(self, last: Position, mine: int, now: Position) -> None:
        """Score the opponent's choices of the deal ``last`` was in: its
        plays then (``hist=``), the player's own play ``mine``, and the
        opponent's last card if it came after (read from the table the
        next deal, ``now``, starts from)."""
        me = last.turn
        opp = 1 - me
        h = last.hist
        plays = [(s, c.index) for s, c in h.plays] + [(me, mine)]
        size = len(last.hands[me]) + sum(1 for s, _c in h.plays if s == me)
        leader = last.leader()
        table = [c.index for c in h.table]
        if len(plays) == 2 * size - 1:
            target = Counter(c.index for c in now.hist.table) if now.hist else None
            found = [r for r in range(10)
                     if Counter(replay(last.rules, 2, leader, table,
                                       plays + [(opp, r)]).table) == target]
            if len(found) != 1:
                return
            plays.append((opp, found[0]))
        elif len(plays) != 2 * size:
            return
        r = replay(last.rules, 2, leader, table, plays)
        game = r.hand
        # seen when the deal began: the cards gone before it, and its table
        before = replay(last.rules, 2, leader, table, plays[:len(h.plays)])
        seen_base = Counter(c.index for c in last.gone or [])
        seen_base.subtract(c for took in before.captured for c in took)
        seen_base += Counter()
        seen_base.update(table)
        for i, (seat, rank) in enumerate(plays):
            if seat != opp:
                continue
            hand = [rk for s, rk in plays[i:] if s == opp]
            if len(set(hand)) < 2:
                continue
            seen = Counter(seen_base)
            seen.update(rk for _s, rk in plays[:i])
            unseen = Counter({q: 4 for q in range(10)})
            unseen.subtract(seen)
            unseen.subtract(hand)
            unseen = +unseen
            for n in self.names:
                p = MODELS[n].play_probabilities(game, r.states[i], hand, unseen).get(rank, 0.0)
                self.loglik[n] += math.log(max(p, 1e-12))
            self.decisions += 1


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


__all__ = ["PlayModel", "LinearPlayModel", "Mixture", "FITTED", "MODELS", "ModelChooser",
           "Evidence", "effective_sample_size", "ranks_of"]
