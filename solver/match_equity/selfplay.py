"""Hands measured by self-play: each hand's ordered score awards.

A hand's outcome for the match is more than its final points: under
``win_check = immediate`` the first side to reach the target wins at that
moment, so the order in which points arrive matters. :func:`play_trace`
plays one whole hand (no target) with the greedy policy on every seat and
returns its *trace*: every award of points in the order the rules make
them (declarations when a deal is made, each play's events, the sweep,
the card count), as ``(dealer side points, leader side points)``.

The policy is :class:`solver.games.players.GreedyPlayer`'s (the capture worth
most points now, else the card of the rank with the fewest unseen copies),
computed here from the hand's own state with the same information the
seat has, because the view-and-sampler path is five times slower.
"""

from __future__ import annotations

import random
from typing import Sequence

from ..engine.hand import SEAT
from ..engine.scoring import count
from ..games.match import HandState, deal_hand
from ..games.players import greedy_choices
from ..position import side_of
from ..rules import Rules

#: one award: (points to the dealer's side, points to the leader's side)
Award = tuple[int, int]


class _TracedHand(HandState):
    """A HandState that writes down every award in order."""

    trace: list[tuple[int, ...]]

    def _award(self, gains: Sequence[int], kind: str) -> bool:
        if any(gains):
            self.trace.append(tuple(gains))
        return super()._award(gains, kind)


def greedy_rank(hs: HandState, rng: random.Random) -> int:
    """The rank index :class:`~solver.games.players.GreedyPlayer` plays for the
    mover of ``hs`` (ties at random), from what the mover sees: the table,
    its hand, the card on show, and how many copies of each rank it has not
    seen (those in the other hands and the stock)."""
    game, state = hs.game, hs.state
    seat = state[SEAT]
    stock = game.stock_left(state)
    best = greedy_choices(game, state, lambda m: sum(
        count(state[1 + s], m) for s in range(game.players) if s != seat)
        + stock.count(m))
    return best[rng.randrange(len(best))]


def relative(gains: Sequence[int], dealer: int, players: int) -> tuple[int, ...]:
    """Side points ``gains`` (by side) as ``(dealer's side, leader's side)``,
    or with three players ``(dealer, leader, third seat)``."""
    d = side_of(dealer, players)
    n = len(gains)
    return tuple(gains[(d + k) % n] for k in range(n))


#: the players self-play makes once per process (``make_player`` by spec)
_PLAYERS: dict[str, object] = {}


def _player(spec: str):
    if spec not in _PLAYERS:
        from ..games.players import make_player
        _PLAYERS[spec] = make_player(spec)
    return _PLAYERS[spec]


def play_trace(rules: Rules, players: int, dealer: int, rng: random.Random,
               player: str = "greedy", play_rng: random.Random | None = None) -> list[Award]:
    """Shuffle, deal and play one whole hand (no target) with ``player`` on
    every seat; return its awards in order as ``(dealer side points,
    leader side points)`` (three players: ``(dealer, leader, third)``).

    ``player`` is a :func:`solver.games.players.make_player` spec;
    ``greedy`` takes the fast path (:func:`greedy_rank`, the hand's own
    state), any other plays from each seat's view
    (:meth:`~solver.games.match.HandState.view`) with ``play_rng`` (default
    ``rng``). The deal is drawn from ``rng`` first, so two players given
    RNGs of one seed play the same cards.

    >>> from solver.rules import PRESETS
    >>> t = play_trace(PRESETS["lmodire"], 2, 1, random.Random(3))
    >>> all(a >= 0 and b >= 0 and a + b > 0 for a, b in t)
    True
    """
    table, stock = deal_hand(rules, players, rng)
    hs = _TracedHand(rules, players, dealer, table, stock=stock)
    hs.trace = []
    agent = None if player == "greedy" else _player(player)
    prng = rng if play_rng is None else play_rng
    while not hs.finished:
        if hs.awaiting_deal:
            hs.deal()
            continue
        if agent is None:
            r = greedy_rank(hs, rng)
            card = next(c for c in hs.hands[hs.turn] if c.index == r)
        else:
            card = agent.choose(hs.view(), prng)
        hs.play(card)
    return [relative(g, dealer, players) for g in hs.trace]


def hand_rngs(seed: int | str, i: int) -> tuple[random.Random, random.Random]:
    """The RNGs of self-play hand ``i`` with ``seed``: the deal's (greedy
    breaks its ties with it too) and the other players' decisions'."""
    return random.Random(f"met/{seed}/{i}"), random.Random(f"met/{seed}/{i}/play")


def play_traces(rules: Rules, players: int, hands: int, seed: int | str,
                player: str = "greedy", first: int = 0) -> list[list[Award]]:
    """``hands`` traces (:func:`play_trace`) numbered ``first`` on, the
    dealer alternating seat by seat (hand ``i`` dealt by seat ``i mod
    players``), hand ``i`` shuffled by ``Random(f"met/{seed}/{i}")``."""
    out = []
    for i in range(first, first + hands):
        rng, prng = hand_rngs(seed, i)
        out.append(play_trace(rules, players, i % players, rng, player, prng))
    return out


def play_out(hs: HandState, rng: random.Random) -> HandState:
    """Deal and play ``hs`` greedily until it is finished; returns it."""
    while not hs.finished:
        if hs.awaiting_deal:
            hs.deal()
            continue
        r = greedy_rank(hs, rng)
        hs.play(next(c for c in hs.hands[hs.turn] if c.index == r))
    return hs


def simulate_match(rules: Rules, players: int, a: int, b: int, a_deals: bool,
                   rng: random.Random, max_hands: int = 200) -> int | None:
    """Play a match greedily from the score ``(a, b)`` (side A is S, or
    S+N), A dealing first or not, hand after hand with the real win check
    (:class:`solver.games.match.HandState` with the target): the winning side
    (0 = A) or None after ``max_hands``. The independent check of a
    match-equity table."""
    score = [a, b]
    dealer = 0 if a_deals else 1
    for _ in range(max_hands):
        table, stock = deal_hand(rules, players, rng)
        hs = play_out(HandState(rules, players, dealer, table, score=score,
                                target=rules.target, stock=stock), rng)
        if hs.winner is not None:
            return hs.winner
        score = list(hs.score)
        dealer = (dealer + 1) % players
    return None


# --- rule systems and chunks of hands (the batch job) --------------------------

from .system import NOT_SYSTEM, rules_of, system_of  # noqa: E402,F401  (re-exported)


def chunk_source(system: str, players: int, player: str, seed: str) -> str:
    """The store's ``source`` of self-play hands (one row a chunk)."""
    return f"met/{system}/{players}p/{player}/{seed}"


def play_chunk(spec: dict) -> dict:
    """Play one chunk of self-play hands: ``spec`` has ``system``,
    ``players``, ``player``, ``seed``, ``first`` (the first hand's number)
    and ``count``. Returns ``{"first", "count", "traces", "cpu", "wall"}``
    (the worker's CPU and wall seconds)."""
    import time
    t0, c0 = time.perf_counter(), time.process_time()
    rules = rules_of(spec["system"])
    traces = play_traces(rules, spec["players"], spec["count"], spec["seed"], spec["player"],
                         first=spec["first"])
    return {"first": spec["first"], "count": spec["count"],
            "traces": [[list(a) for a in t] for t in traces],
            "cpu": round(time.process_time() - c0, 4), "wall": round(time.perf_counter() - t0, 4)}


def match_source(system: str, players: int, player: str, seed: str, target: int,
                 scores: Sequence[int], dealer: int) -> str:
    """The store's ``source`` of matches played from one score (one row a chunk)."""
    return (f"met-check/{system}/{players}p/{player}/{seed}/to{target}/"
            f"{'-'.join(map(str, scores))}/dealer{dealer}")


def play_matches(spec: dict) -> dict:
    """Play one chunk of whole matches from a score, ``player`` on every
    seat (:func:`solver.games.match.play_match`, the real win check):
    ``spec`` has ``system``, ``players``, ``player``, ``seed``, ``target``,
    ``scores`` (one a side), ``dealer`` (the seat dealing first),
    ``first`` and ``count``. Returns ``{"first", "count", "winners"
    (side, or None after 200 hands), "hands", "cpu", "wall"}``."""
    import time
    from dataclasses import replace
    from ..games.match import play_match
    t0, c0 = time.perf_counter(), time.process_time()
    rules = replace(rules_of(spec["system"]), target=spec["target"])
    agents = [_player(spec["player"])] * spec["players"]
    winners, hands = [], 0
    for i in range(spec["first"], spec["first"] + spec["count"]):
        where = f"{spec['target']}/{'-'.join(map(str, spec['scores']))}/{spec['dealer']}"
        log = play_match(rules, agents, seed=f"met-check/{spec['seed']}/{where}/{i}",
                         first_dealer=spec["dealer"], start_score=spec["scores"], max_hands=200)
        winners.append(log.winner)
        hands += len(log.hands)
    return {"first": spec["first"], "count": spec["count"], "winners": winners, "hands": hands,
            "cpu": round(time.process_time() - c0, 4), "wall": round(time.perf_counter() - t0, 4)}
