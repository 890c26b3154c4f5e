"""Players for self-play: each picks a card from what its seat sees.

Every player gets the seat's view (:meth:`solver.games.match.HandState.view`: its
own hand, the table, the cards gone, the pile sizes, the declarations of
the deal, the previous card, a hit pile on show, the score) and an RNG; it
never sees another hand or the stock. Hidden cards are drawn with
:func:`solver.engine.compile.sampler`, uniformly among the deals consistent with
what the seat has seen (and the declarations it heard).

- :class:`RandomPlayer` (``random``): any card of its hand.
- :class:`GreedyPlayer` (``greedy``): the capture worth most points now;
  with no capture, lays the card least likely to be hit.
- :class:`NoisyGreedyPlayer` (``greedy:P``): greedy, except that with
  chance ``P`` a play is any card of its hand (a beginner: the weakest
  level of the play page, :mod:`solver.games.levels`).
- :class:`MonteCarloPlayer` (``mc:N``): flat Monte Carlo, as the strongest
  Ronda apps do: for every play, ``N`` random playouts to the end of the
  hand with the hidden cards drawn anew for each; the best average wins.
- :class:`EnginePlayer` (``engine:K``): our engine as it was,
  :func:`solver.analysis.evaluation.evaluate` with ``K`` determinisations.
- :class:`TimedEnginePlayer` (``engine:0.1s``): our engine with a time per
  decision: inference, the compiled core, the equilibrium where it fits.
- ``deal:0.05s``: the same with the deal search
  (:mod:`solver.analysis.deal`) before the last two deals: the current
  deal exact for every hand the other seats may hold, a learned value of
  the deals to come, close plays broken by the least exposure.

Two, three or four players, every rule system (the compiled core's
:class:`~solver.engine.hand.Hand`; three players: each seat scores its own
points and ``mc`` sums the mover's own); ``random`` plays any count. :func:`make_player`
reads a spec such as ``engine:50``.
"""

from __future__ import annotations

import random
import re
from typing import Callable
from dataclasses import dataclass

from ..analysis.evaluation import BudgetError, evaluate
from ..cards import Card
from ..engine.compile import sampler
from ..engine.hand import SEAT, SHOW, TABLE, Hand
from ..engine.scoring import EV_ANSWER5, EV_ANSWER10, EV_CAPTURE, event_points
from ..position import Position


def view_sampler(view: Position):
    """The sampler of a seat's view: ``sample(rng) -> (hand, state)`` with
    the unknown cards drawn (:func:`solver.engine.compile.sampler`)."""
    return sampler(view)


def card_of_rank(view: Position, rank_index: int) -> Card:
    """The card of rank index ``rank_index`` in the mover's hand (the first
    one). Raises ValueError when the mover holds none."""
    for c in view.hands[view.turn]:
        if c is not None and c.index == rank_index:
            return c
    raise ValueError(f"no card of rank index {rank_index} in the mover's hand")


@dataclass
class RandomPlayer:
    """Plays a card of its hand uniformly at random."""

    name: str = "random"

    def choose(self, view: Position, rng: random.Random) -> Card:
        """A random card of the mover's hand."""
        hand = [c for c in view.hands[view.turn] if c is not None]
        return hand[rng.randrange(len(hand))]


def greedy_choices(game: Hand, state, unseen: Callable[[int], int]) -> list[int]:
    """The rank indices the greedy rule ties on in ``state`` (a core state
    of ``game``): an answer or a capture first, the most points then the
    most cards (a card won is half a point); else the lone card whose rank
    has the fewest copies unseen (``unseen(rank index)``: copies the mover
    has not seen), then the one that leaves the fewest cards to a capture
    of its rank. In ``game.moves`` order; the caller breaks the tie.

    Ronda voleur: a stolen pile counts a whole point a card (the thief
    gains it, the robbed side loses it), its cards among those taken."""
    best_key = None
    best: list[int] = []
    for m in game.moves(state):
        child, _gain, ev = game.play(state, m)
        stolen = sum(n for _k, n in game.robbed(state, m))
        if ev & (EV_ANSWER5 | EV_ANSWER10):
            if stolen:
                cards = stolen + 1
                key: tuple = (1, event_points(game.rules, ev) + stolen + 0.5, cards)
            else:
                cards = (state[SHOW] & 3) + 1
                key = (1, event_points(game.rules, ev) + cards / 2, cards)
        elif ev & EV_CAPTURE:
            cards = game.capture(state, m).bit_count() + 1
            key = (1, event_points(game.rules, ev) + cards / 2 + stolen, cards + stolen)
        else:
            key = (0, -unseen(m), -game.run(child[TABLE], m).bit_count())
        if best_key is None or key > best_key:
            best_key, best = key, [m]
        elif key == best_key:
            best.append(m)
    return best


@dataclass
class GreedyPlayer:
    """Takes the most points now, else lays the card least likely to be hit.

    Points now: the play's event points (hit, answer, missa, capture point)
    plus half a point a card taken (the card-count margin a card is worth;
    RULES.md "End of a hand"). With no capture, it lays the rank of which
    the fewest copies are unseen (so the next player is least likely to
    hold one), then the one a hit would take the fewest table cards with,
    then at random.
    """

    name: str = "greedy"

    def choose(self, view: Position, rng: random.Random) -> Card:
        """The greedy card for ``view``."""
        game, state = view_sampler(view)(rng)
        seen = [c.index for c in view.table] + [c.index for c in view.gone or []] \
            + [c.index for c in view.hands[view.turn] if c is not None]
        best = greedy_choices(game, state, lambda m: 4 - seen.count(m))
        return card_of_rank(view, best[rng.randrange(len(best))])


@dataclass
class NoisyGreedyPlayer:
    """Greedy with noise: each play, with chance ``noise`` (0 to 1) a card
    of its hand drawn uniformly, else :class:`GreedyPlayer`'s card (the
    draw comes first, from the player's RNG, so a game replays)."""

    noise: float = 0.5
    name: str = ""

    def __post_init__(self) -> None:
        if not 0 <= self.noise <= 1:
            raise ValueError("greedy:P needs a chance P from 0 to 1")
        self.name = self.name or f"greedy:{self.noise:g}"

    def choose(self, view: Position, rng: random.Random) -> Card:
        """A random card with chance ``noise``, else the greedy card."""
        if rng.random() < self.noise:
            return RandomPlayer().choose(view, rng)
        return GreedyPlayer().choose(view, rng)


@dataclass
class MonteCarloPlayer:
    """Flat Monte Carlo: ``playouts`` random playouts per legal play.

    Each round draws the hidden cards (other hands, stock order) once and
    plays every legal play in it followed by uniformly random plays (a
    random distinct rank of the mover's hand) to the end of the hand; the
    score is the mover's side's point margin of the rest of the hand (the
    engine's gains, card count included). The play with the best total
    wins; ties at random.
    """

    playouts: int = 100
    name: str = ""

    def __post_init__(self) -> None:
        if self.playouts < 1:
            raise ValueError("mc needs at least 1 playout per play")
        self.name = self.name or f"mc:{self.playouts}"

    def choose(self, view: Position, rng: random.Random) -> Card:
        """The flat Monte Carlo card for ``view``."""
        sample = view_sampler(view)
        game, state = sample(rng)
        moves = game.moves(state)
        if len(moves) == 1:
            return card_of_rank(view, moves[0])
        totals = dict.fromkeys(moves, 0)
        me = state[SEAT]
        three = view.players == 3
        for i in range(self.playouts):
            if i:
                game, state = sample(rng)
            play, moves_of, points = game.play, game.moves, game.points
            mine = game.sides[me]

            def score(before, child, g, ev, mover):
                if three:       # each seat its own side: the mover's own points
                    return points(before, child, ev)[mine]
                return g if game.same_side(mover, me) else -g
            for m in moves:
                s, g, ev = play(state, m)
                total = score(state, s, g, ev, me)
                while s[1] | s[2] | s[3] | s[4]:
                    options = moves_of(s)
                    mover = s[SEAT]
                    before = s
                    s, g, ev = play(s, options[rng.randrange(len(options))])
                    total += score(before, s, g, ev, mover)
                totals[m] += total
        top = max(totals.values())
        best = [m for m in moves if totals[m] == top]
        return card_of_rank(view, best[rng.randrange(len(best))])


@dataclass
class EnginePlayer:
    """Our engine: :func:`solver.analysis.evaluation.evaluate` on the seat's view with
    ``samples`` determinisations (``method`` as evaluate takes it), seeded
    from the player's RNG; plays the best play (the lowest rank among
    equal values); ``time_budget`` seconds a decision (evaluate's
    default)."""

    samples: int = 50
    method: str = "determinised"
    name: str = ""
    time_budget: float = 10.0

    def __post_init__(self) -> None:
        if self.samples < 1:
            raise ValueError("engine needs at least 1 sample")
        self.name = self.name or f"engine:{self.samples}"

    def choose(self, view: Position, rng: random.Random) -> Card:
        """The engine's card for ``view``."""
        hand = {c.index for c in view.hands[view.turn] if c is not None}
        if len(hand) == 1:
            return card_of_rank(view, hand.pop())
        try:
            a = evaluate(view, method=self.method, samples=self.samples,
                         seed=rng.randrange(1 << 31), time_budget=self.time_budget)
        except BudgetError as err:
            # the game's commands have no --time: name what the player can change
            raise BudgetError(
                f"player {self.name}: {err.reason} (its limit a decision); "
                f"engine:Ts plays within T seconds a decision, e.g. engine:{self.time_budget:g}s"
            ) from None
        if a.partial:       # the search was interrupted: stop the game too
            raise KeyboardInterrupt("search interrupted")
        return card_of_rank(view, a.moves[0].rank)


@dataclass
class TimedEnginePlayer:
    """Our engine with a time per decision (``engine:0.1s``): in the last two
    deals of a two-player hand the equilibrium of the deal as this seat
    sees it (:mod:`solver.engine.view_game`), its mixed policy sampled with
    the player's RNG; elsewhere :func:`solver.analysis.evaluation.evaluate`
    with ``method`` within ``seconds`` on one thread:
    ``"determinised"`` (``engine:Ts``: determinised search weighted by
    inference, the engine of issue 9) or ``"deal"`` (``deal:Ts``: the deal
    search, falling back to determinised search where no boundary model
    covers the rules), the first of the best plays (for the deal search,
    the one chosen among the close plays)."""

    seconds: float = 0.1
    name: str = ""
    method: str = "determinised"
    #: the deal search: among close plays choose the robust one
    #: ("robust", the default) or the top value ("value", for measurements)
    ties: str = "robust"

    def __post_init__(self) -> None:
        if not self.seconds > 0:
            raise ValueError("engine needs a positive time per decision")
        kind = "deal" if self.method == "deal" else "engine"
        self.name = self.name or (f"{kind}:{self.seconds:g}s"
                                  + (":value" if self.ties == "value" else ""))
        # the deal player learns which play model its opponent follows
        self.chooser = None
        if self.method == "deal":
            from ..analysis.inference import MODELS, ModelChooser
            if len(MODELS) > 1:
                self.chooser = ModelChooser()

    def choose(self, view: Position, rng: random.Random) -> Card:
        """The engine's card for ``view``."""
        if self.chooser is not None:
            self.chooser.observe(view)
        card = self._choose(view, rng)
        if self.chooser is not None:
            self.chooser.record(view, card.index)
        return card

    def _choose(self, view: Position, rng: random.Random) -> Card:
        from ..engine.compile import CompileError
        from ..engine.view_game import ViewGame, fits
        from ..search.equilibrium import solve
        hand = {c.index for c in view.hands[view.turn] if c is not None}
        if len(hand) == 1:
            return card_of_rank(view, hand.pop())
        if fits(view):
            try:
                policy = solve(ViewGame(view).tree).root_policy
            except (CompileError, RuntimeError):   # too big, or no LP solver succeeded
                policy = {}
            if policy:
                ranks = sorted(policy)
                pick = rng.choices(ranks, weights=[max(0.0, policy[r]) for r in ranks])[0]
                return card_of_rank(view, pick)
        method = self.method
        if method == "deal":
            from ..analysis.deal import fits as deal_fits
            if not deal_fits(view):
                method = "determinised"
        elif all(c is not None for h in view.hands for c in h):
            method = "auto"         # every hand seen (declared): expectimax if it fits
        model = self.chooser.mixture() if self.chooser is not None else None
        seed = rng.randrange(1 << 31)
        try:
            a = evaluate(view, method=method, samples=1_000_000, seed=seed,
                         time_budget=self.seconds, workers=1, play_model=model)
        except BudgetError:
            # too little time a decision for one determinisation (three
            # players early in a hand): `auto`'s answer, the one-ply values
            a = evaluate(view, method="auto", samples=1_000_000, seed=seed,
                         time_budget=self.seconds, workers=1, play_model=model)
        if a.partial:       # the search was interrupted: stop the game too
            raise KeyboardInterrupt("search interrupted")
        if a.method == "deal" and self.ties == "robust":
            return card_of_rank(view, next(mv.rank for mv in a.moves if mv.move == a.best[0]))
        return card_of_rank(view, a.moves[0].rank)


PLAYER_KINDS = ("random", "greedy", "greedy:P", "mc:N", "engine:K", "engine:Ts", "deal:Ts",
                "human")


def is_human(spec: str) -> bool:
    """Whether a player spec is a person at the keyboard (``human``): the
    commands that play without one refuse it, ``play`` reads its plays."""
    return spec.strip() == "human"


def make_player(spec: str):
    """A player from its spec: ``random``, ``greedy``, ``greedy:P`` (greedy,
    but a random card with chance P: :class:`NoisyGreedyPlayer`), ``mc:N`` (N random
    playouts per play, default 100), ``engine:K`` (K determinisations,
    default 50; the engine of the first sessions), ``engine:Ts`` (T seconds
    a decision, e.g. ``engine:0.1s``: :class:`TimedEnginePlayer`), ``human``
    (a person at the keyboard: :class:`solver.games.human.HumanPlayer`),
    ``deal:Ts`` (the deal search, T seconds a decision, default 0.05s). Raises
    ValueError naming the spec and the kinds."""
    kind, colon, arg = spec.strip().partition(":")
    if is_human(spec):
        from .human import HumanPlayer
        return HumanPlayer()
    if kind in ("random", "greedy") and not colon:
        return RandomPlayer() if kind == "random" else GreedyPlayer()
    if kind == "greedy":
        if not re.fullmatch(r"(0?\.[0-9]+|[01](\.0*)?)", arg):
            raise ValueError(f"player {spec!r}: {arg!r} is not a chance from 0 to 1 "
                             "(greedy:0.5 plays a random card half the time)")
        return NoisyGreedyPlayer(float(arg))
    if kind == "engine" and re.fullmatch(r"[0-9]*\.?[0-9]+s", arg):
        return TimedEnginePlayer(float(arg[:-1]))
    if kind == "deal":
        arg, _c, ties = arg.partition(":")
        if not re.fullmatch(r"[0-9]*\.?[0-9]+s", arg or "0.05s") or ties not in ("", "value"):
            raise ValueError(f"player {spec!r}: expected a time a decision like deal:0.05s "
                             "(deal:0.05s:value chooses close plays by value alone)")
        return TimedEnginePlayer(float((arg or "0.05s")[:-1]), method="deal",
                                 ties=ties or "robust")
    if kind in ("mc", "engine"):
        if colon and not re.fullmatch(r"[1-9][0-9]*", arg):
            raise ValueError(f"player {spec!r}: {arg!r} is not a whole number of "
                             f"{'playouts' if kind == 'mc' else 'samples'} (1 or more)")
        if kind == "mc":
            return MonteCarloPlayer(int(arg) if arg else 100)
        return EnginePlayer(int(arg) if arg else 50)
    raise ValueError(f"unknown player {spec!r} (kinds: {', '.join(PLAYER_KINDS)})")
