"""Arena: two players over many seat-swapped pairs of hands.

Pair ``k`` shuffles one deck (:func:`solver.games.match.hand_rng` with
``(seed, k)``) and plays it twice with the same dealer: first with player
A on side 0 (S, or S and N with four players) and B on side 1, then with
the seats swapped. The cards each seat gets are the same in both hands, so
the luck of the first deal cancels within a pair. Every hand is played
out whatever the score (no match target). The measure is A's margin per
hand: A's side's points less B's, in game points, averaged over the pair;
the 95 % confidence interval is ``mean ± 1.96 · sd / sqrt(pairs)`` over
the pair averages (normal approximation; pairs are independent).

**Luck-reduced** (two sides, ``luck_samples > 0``): the later deals of the
two hands of a pair come from the same stock order but onto different
tables, so their luck does not cancel. Each deal's luck
(:mod:`solver.games.luck`: what the dealt cards are worth, every hand of
the deal known and the deals to come valued by the boundary model, less
the mean over deals drawn from the same stock) has expectation zero given
everything before it; A's margin less A's summed luck is therefore an
unbiased measure of the same mean with less noise (a control variate, as
AIVAT does in poker). The summary gives both, each with its interval.

>>> r = run_arena("greedy", "random", pairs=3, seed=1)
>>> len(r.margins), r.hands
(6, 6)
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass, field
from typing import Callable, Iterator

from .match import deal_hand, hand_rng, play_hand
from ..position import side_of
from .players import make_player
from ..position import SEAT_NAMES
from ..rules import PRESETS, Rules, check_players
from ..runtime.workers import process_pool

Z_95 = 1.959963984540054


def mean_ci(xs: list[float], z: float = Z_95) -> tuple[float | None, float | None]:
    """Mean and half-width of its confidence interval (``z`` standard
    errors); None for what the values cannot give (no mean without a
    value, no interval with fewer than two: not a measured 0).

    >>> mean_ci([1.0, 3.0]), mean_ci([4.0]), mean_ci([])
    ((2.0, 1.959963984540054), (4.0, None), (None, None))
    """
    n = len(xs)
    if n == 0:
        return None, None
    m = sum(xs) / n
    if n < 2:
        return m, None
    var = sum((x - m) ** 2 for x in xs) / (n - 1)
    return m, z * math.sqrt(var / n)


@dataclass
class ArenaResult:
    """What an arena measured. ``a``, ``b``: player specs; ``margins``: A's
    margin (A's points less B's) per hand, in pair order (A on side 0, then
    on side 1); ``a_points``, ``b_points``: points per hand; ``seconds``:
    thinking time of A and B; ``wall``: elapsed seconds; ``partial``:
    interrupted, the pairs finished before."""

    a: str
    b: str
    rules: Rules
    players: int
    seed: int | str
    margins: list[float] = field(default_factory=list)
    a_points: list[float] = field(default_factory=list)
    b_points: list[float] = field(default_factory=list)
    #: A's luck per hand (points; the summed luck of its deals), or empty
    luck: list[float] = field(default_factory=list)
    seconds: list[float] = field(default_factory=lambda: [0.0, 0.0])
    wall: float = 0.0
    partial: bool = False
    #: the clock of the players' budgets and thinking: "wall" or "cpu"
    clock: str = "wall"
    #: why the luck-reduced margin asked for is not measured ("" when it is
    #: or was not asked for)
    luck_note: str = ""

    @property
    def hands(self) -> int:
        """Hands played (two per pair)."""
        return len(self.margins)

    def pair_margins(self) -> list[float]:
        """A's margin per hand averaged over each seat-swapped pair (three
        players: each seat-rotated triple)."""
        return self._per_pair(self.margins)

    def _per_pair(self, m: list[float]) -> list[float]:
        """A figure per hand averaged over each pair (triple), a part one left out."""
        k = 3 if self.players == 3 else 2
        return [sum(m[i:i + k]) / k for i in range(0, len(m) - k + 1, k)]

    def pair_adjusted(self) -> list[float]:
        """A's luck-reduced margin per hand (margin less luck) averaged
        over each pair (empty without luck)."""
        if len(self.luck) != len(self.margins):
            return []
        m = [a - b for a, b in zip(self.margins, self.luck)]
        return [(m[i] + m[i + 1]) / 2 for i in range(0, len(m) - 1, 2)]

    def summary(self) -> dict:
        """The figures: ``margin`` (A's mean margin per hand) and
        ``margin_ci95`` from the pairs; with luck, ``adjusted`` (the
        luck-reduced margin) and ``adjusted_ci95``, ``luck`` (A's mean luck
        a hand, expected 0) and ``luck_ci95``; ``a_points``/``b_points`` per
        hand with their CIs; hands ``won``/``drawn``/``lost`` by A;
        thinking seconds per hand of each."""
        margin, ci = mean_ci(self.pair_margins())
        adj = self.pair_adjusted()
        luck = {}
        if adj:
            am, aci = mean_ci(adj)
            lm, lci = mean_ci([(self.luck[i] + self.luck[i + 1]) / 2
                               for i in range(0, len(self.luck) - 1, 2)])
            luck = {"adjusted": am, "adjusted_ci95": aci, "luck": lm, "luck_ci95": lci}
        # the points' intervals over the pairs too, as the margin's (the
        # hands of a pair share their cards: they are not independent)
        ap, apci = mean_ci(self._per_pair(self.a_points))
        bp, bpci = mean_ci(self._per_pair(self.b_points))
        n = max(self.hands, 1)
        return {
            "a": self.a, "b": self.b, "rules": self.rules.system(), "players": self.players,
            "seed": self.seed, "pairs": len(self.pair_margins()), "hands": self.hands,
            "margin": margin, "margin_ci95": ci, **luck,
            "a_points": ap, "a_points_ci95": apci, "b_points": bp, "b_points_ci95": bpci,
            "won": sum(1 for x in self.margins if x > 0),
            "drawn": sum(1 for x in self.margins if x == 0),
            "lost": sum(1 for x in self.margins if x < 0),
            "a_seconds_per_hand": self.seconds[0] / n, "b_seconds_per_hand": self.seconds[1] / n,
            "wall_seconds": self.wall, "partial": self.partial, "clock": self.clock,
            **({"luck_note": self.luck_note} if self.luck_note else {}),
        }


def play_pair(a: str, b: str, rules: Rules, players: int, seed: int | str,
              k: int, luck_samples: int = 0) -> list[tuple]:
    """Play pair ``k``: two hands of one deck, A on side 0 then on side 1.
    Returns per hand ``(margin, a_points, b_points, a_seconds, b_seconds,
    a_luck)`` (``a_luck`` None without ``luck_samples``)."""
    table, stock = deal_hand(rules, players, hand_rng(f"arena/{seed}", k))
    dealer = (players - 1 + k) % players
    if players == 3:
        return _play_triple(a, b, rules, seed, k, table, stock, dealer)
    out = []
    for swap in (0, 1):
        agents = []
        a_side = swap
        for seat in range(players):
            side = seat % 2
            agents.append(make_player(a if side == a_side else b))
        rngs = [random.Random(f"arena/{seed}/{k}/{swap}/{seat}") for seat in range(players)]
        log = play_hand(rules, players, dealer, table, stock, agents, rngs)
        pa, pb = log.points[a_side], log.points[1 - a_side]
        sa = sum(log.seconds[s] for s in range(players) if s % 2 == a_side)
        sb = sum(log.seconds[s] for s in range(players) if s % 2 != a_side)
        a_luck = None
        if luck_samples:
            a_luck = _hand_luck(rules, players, dealer, table, stock, log, a_side,
                                luck_samples, f"arena/{seed}/{k}")
        out.append((pa - pb, pa, pb, sa, sb, a_luck))
    return out


def _hand_luck(rules: Rules, players: int, dealer: int, table, stock, log, a_side: int,
               samples: int, seed: str) -> float:
    """A's luck in points over the deals of one played hand (both hands
    of a pair draw the same comparison deals: ``seed`` is the pair's)."""
    from .luck import hand_luck
    lucks = hand_luck(rules, players, dealer, [c.index for c in table],
                      [c.index for c in stock], [[c.index for c in d] for d in log.plays],
                      samples, seed)
    leader_side = side_of((dealer + 1) % players, players)
    sign = 1 if leader_side == a_side else -1
    return sign * sum(lucks) / 2


def _play_triple(a: str, b: str, rules: Rules, seed, k: int, table, stock,
                 dealer: int) -> list[tuple[float, float, float, float, float]]:
    """Three players: one deck played three times, A at S, then E, then N,
    two copies of B in the other seats. A's margin: its points less the
    mean of the two B seats' (each seat its own side)."""
    out = []
    for a_seat in range(3):
        agents = [make_player(a if seat == a_seat else b) for seat in range(3)]
        rngs = [random.Random(f"arena/{seed}/{k}/{a_seat}/{seat}") for seat in range(3)]
        log = play_hand(rules, 3, dealer, table, stock, agents, rngs)
        pa = log.points[a_seat]
        pb = sum(log.points[s] for s in range(3) if s != a_seat) / 2
        sb = sum(log.seconds[s] for s in range(3) if s != a_seat)
        out.append((pa - pb, pa, pb, log.seconds[a_seat], sb, None))
    return out


def _pair_job(args):
    from ..runtime import clock
    clock.use(args[-1])                 # in this process (a pool's worker too)
    return play_pair(*args[:-1])


def run_arena(a: str, b: str, *, pairs: int = 500, rules: Rules | None = None,
              players: int = 2, seed: int | str = 0, jobs: int = 1,
              progress: Callable[[int, int], None] | None = None,
              luck_samples: int = 32, clock: str = "wall") -> ArenaResult:
    """Play ``pairs`` seat-swapped pairs of hands between specs ``a`` and
    ``b`` (see :func:`solver.games.players.make_player`) under ``rules`` (default
    lmodire) with 2 or 4 ``players`` (partners play the same spec), or 3
    (each "pair" is then a seat-rotated triple: A against two copies of B,
    A at each seat in turn; B's points are the two B seats' mean), in
    ``jobs`` processes (the result does not depend on it). ``luck_samples``:
    drawn deals a deal for the luck-reduced margin (0: none; two sides
    only). ``clock``: the clock the players' time budgets and thinking
    are measured on, ``"wall"`` or ``"cpu"`` (each process's CPU time:
    time-limited players search as much a decision on a loaded machine as
    on an idle one; :mod:`solver.runtime.clock`). ``progress(done, total)``
    is called after each pair. Ctrl-C (KeyboardInterrupt, or
    :class:`solver.runtime.interrupt.Interrupted`) stops the workers and returns
    the pairs finished so far, marked ``partial``. Raises ValueError for
    a bad spec or player count."""
    rules = rules or PRESETS["lmodire"]
    make_player(a), make_player(b)
    if players not in (2, 3, 4):
        raise ValueError(f"the arena takes 2 or 3 players, or 4 in partnerships, not {players}")
    check_players(rules, players)       # the one message (a RulesError is a ValueError)
    result = ArenaResult(a, b, rules, players, seed)
    t0 = time.perf_counter()
    if luck_samples and (players == 3 or rules.voleur):
        # the arena values a deal by its ranks for two sides; annotate's
        # luck (piles, tops, vectors) measures these games one by one
        what = "three players" if players == 3 else "Ronda voleur"
        result.luck_note = (f"no margin less its luck for {what}: the arena measures the "
                            "luck of the deal for two sides without voleur (annotate measures "
                            "it in any game)")
        luck_samples = 0
    args = [(a, b, rules, players, seed, k, luck_samples, clock) for k in range(pairs)]
    finished: list = []
    from ..runtime import clock as budget_clock
    before = budget_clock.kind()
    try:
        if jobs > 1:
            with process_pool(jobs) as pool:
                outcomes = pool.map(_pair_job, args,
                                    chunksize=max(1, min(8, pairs // (4 * jobs))))
                _collect(finished, outcomes, pairs, progress)
        else:
            _collect(finished, map(_pair_job, args), pairs, progress)
    except KeyboardInterrupt:
        result.partial = True
    finally:
        budget_clock.use(before)
    for pair in finished:
        for margin, pa, pb, sa, sb, luck in pair:
            if luck is not None:
                result.luck.append(luck)
            result.margins.append(margin)
            result.a_points.append(pa)
            result.b_points.append(pb)
            result.seconds[0] += sa
            result.seconds[1] += sb
    result.wall = time.perf_counter() - t0
    result.clock = clock
    return result


def _collect(finished: list, outcomes, total: int, progress) -> None:
    """Append each pair's outcome to ``finished`` as it comes (one append
    a pair, so an interruption never leaves half a pair)."""
    for pair in outcomes:
        finished.append(pair)
        if progress is not None:
            progress(len(finished), total)


# --- whole games (self-play) ----------------------------------------------------


def play_games(specs: list[str], *, games: int = 1, rules: Rules | None = None,
               seed: int | str = 0, swap: bool = True,
               progress: Callable[[int, int], None] | None = None):
    """Play ``games`` matches to ``rules.target`` between ``specs`` (one
    per seat, in seat order). With ``swap``, game ``2k+1`` replays the
    decks of game ``2k`` (the same seed) with every player moved one seat
    on, so each team gets the other's cards (three players: games ``3k+1``
    and ``3k+2`` replay game ``3k``'s decks with every player one, then
    two seats on). Returns ``(logs, rows)``:
    the MatchLogs (``log.names`` per seat) and :func:`game_rows`. Raises
    ValueError for a bad spec or player count."""
    logs = []
    for log in iter_games(specs, games=games, rules=rules, seed=seed, swap=swap):
        logs.append(log)
        if progress is not None:
            progress(len(logs), games)
    return logs, game_rows(specs, logs, swap=swap)


def iter_games(specs: list[str], *, games: int = 1, rules: Rules | None = None,
               seed: int | str = 0, swap: bool = True, on_play=None) -> Iterator:
    """The MatchLogs of :func:`play_games`, one at a time as each game
    ends (stop early and the games so far are whole). ``on_play(game,
    hand_state, event)`` after every play (``game`` the 0-based game
    number; ``play human``'s announcer). Raises ValueError for a bad spec
    or player count (before the first game)."""
    from .match import play_match

    rules = rules or PRESETS["lmodire"]
    p = len(specs)
    check_players(rules, p)
    for s in specs:
        make_player(s)
    return _games(play_match, rules, specs, games, seed, swap, on_play)


def _cycle(p: int) -> int:
    """Games a deck is replayed in with ``swap``: 2, or 3 with three
    players (each spec at each seat)."""
    return 3 if p == 3 else 2


def _games(play_match, rules: Rules, specs: list[str], games: int, seed, swap: bool,
           on_play=None):
    p = len(specs)
    k = _cycle(p)
    for i in range(games):
        rot = i % k if swap else 0
        game_seed = f"{seed}/{i // k}" if swap else f"{seed}/{i}"
        agents = [make_player(specs[(s + rot) % p]) for s in range(p)]
        hook = None if on_play is None else (lambda hs, ev, i=i: on_play(i, hs, ev))
        yield play_match(rules, agents, seed=game_seed, on_play=hook)


def game_rows(specs: list[str], logs: list, swap: bool = True) -> list[dict]:
    """Per team of :func:`play_games`'s ``logs`` (the sides of the first
    game: ``S`` and ``N`` with two players, ``S+N`` and ``E+W`` with four)
    ``player``, ``seat`` (where it sat in the first game: ``S``, ``E``...,
    ``S+N`` and ``E+W`` with four), ``games``, ``won``, ``hands``,
    ``points_per_hand`` and its ``ci95``."""
    p = len(specs)
    teams = 2 if p in (2, 4) else p
    team_of = [j % 2 if p == 4 else j for j in range(p)]
    points: list[list[float]] = [[] for _ in range(teams)]
    won = [0] * teams
    hands = [0] * teams
    for i, log in enumerate(logs):
        rot = i % _cycle(p) if swap else 0
        # spec j sits at seat (j - rot) % p; its side there
        for team in range(teams):
            j = team_of.index(team)
            seat = (j - rot) % p
            side = seat % 2 if p == 4 else seat
            for hl in log.hands:
                points[team].append(hl.points[side])
            hands[team] += len(log.hands)
            if log.winner == side:
                won[team] += 1
    rows = []
    for team in range(teams):
        members = [specs[j] for j in range(p) if team_of[j] == team]
        seats = [SEAT_NAMES[p][j] for j in range(p) if team_of[j] == team]
        m, ci = mean_ci(points[team])
        rows.append({"player": "+".join(members), "seat": "+".join(seats),
                     "games": len(logs), "won": won[team],
                     "hands": hands[team], "points_per_hand": m, "ci95": ci})
    return rows
