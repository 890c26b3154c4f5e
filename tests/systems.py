"""Random positions of every rule system, and their values by the plain
references (``tests/reference.py`` for two sides, ``tests/reference3.py``
for three), for the cross-checks of the one compiled engine
(``tests/test_systems.py``; the larger run is ``bench/bench_crosscheck.py``).

A *system* is a rule set (preset, house rules, voleur), a player count,
an objective (points, or the match with a table of random numbers as its
leaves, so that a leaf read at the wrong score shows) and a stock (known
order, or shuffled). A position places all 40 cards: the table, the hands
in the middle of a deal, at most one deal in the stock, the capture piles
(``taken=``), the last capturer, sometimes a card just laid (``prev=``) or
a hit on show (``show=``), the pile tops (voleur) and the scores (match).
"""

from __future__ import annotations

import dataclasses
import random
from dataclasses import dataclass

import numpy as np

from solver.cards import Card, RANKS
from solver.position import Position, Show
from solver.rules import PRESETS, Rules, deal_sizes

import reference as R2
import reference3 as R3


@dataclass(frozen=True)
class System:
    """One rule system: ``rules``, ``players``, ``match`` (the objective),
    ``shuffled`` (the stock's order unknown)."""

    name: str
    rules: Rules
    players: int
    match: bool = False
    shuffled: bool = False

    def __str__(self) -> str:
        return self.name


def _v(preset: str, **kw) -> Rules:
    return dataclasses.replace(PRESETS[preset], **kw)


def systems() -> list[System]:
    """Every system the cross-checks cover."""
    out = []
    two = {"lmodire": PRESETS["lmodire"], "pagat": PRESETS["pagat"], "mod": PRESETS["mod"],
           "french": PRESETS["french"], "online": PRESETS["online"],
           "cumulative": _v("lmodire", decl_cumulative=True),
           "no-last-round-missa": _v("pagat", missa_last_round=False)}
    for name, rules in two.items():
        out.append(System(f"{name}-2p", rules, 2))
        out.append(System(f"{name}-2p-shuffled", rules, 2, shuffled=True))
    for name in ("pagat", "french", "online"):
        out.append(System(f"{name}-4p", PRESETS[name], 4))
    out.append(System("french-4p-shuffled", PRESETS["french"], 4, shuffled=True))
    out.append(System("cumulative-4p", _v("pagat", decl_cumulative=True), 4))
    three = {"french": PRESETS["french"], "answers": _v("french", hit=(1, 5, 10)),
             "cumulative": _v("french", decl_cumulative=True),
             "no-last-round-missa": _v("french", missa_last_round=False),
             "no-last-card-missa": _v("french", missa_on_last_card=False)}
    for name, rules in three.items():
        out.append(System(f"{name}-3p", rules, 3))
        out.append(System(f"{name}-3p-shuffled", rules, 3, shuffled=True))
    for preset in ("french", "lmodire", "pagat"):
        for players in ((2, 3, 4) if preset == "french" else (2, 4)):
            rules = _v(preset, voleur=True)
            out.append(System(f"voleur-{preset}-{players}p", rules, players))
            if players != 4 or preset == "french":
                out.append(System(f"voleur-{preset}-{players}p-shuffled", rules, players,
                                  shuffled=True))
    for preset in ("lmodire", "pagat", "french"):
        out.append(System(f"match-{preset}-2p", PRESETS[preset], 2, match=True))
        out.append(System(f"match-{preset}-2p-shuffled", PRESETS[preset], 2, match=True,
                          shuffled=True))
    out.append(System("match-pagat-4p", PRESETS["pagat"], 4, match=True))
    out.append(System("match-french-4p-shuffled", PRESETS["french"], 4, match=True,
                      shuffled=True))
    out.append(System("match-voleur-2p", _v("lmodire", voleur=True), 2, match=True))
    out.append(System("match-cumulative-2p", _v("pagat", decl_cumulative=True), 2,
                      match=True))
    return out


def random_position(rng: random.Random, system: System) -> Position:
    """A random position of ``system`` (see the module docstring); the
    stock holds at most one deal (two players with a known stock: maybe
    two), the hands 1 to 3 cards (four players with a deal to come: 1)."""
    rules = system.rules
    players = system.players
    sizes = deal_sizes(rules, players)
    deck = [r for r in range(10) for _ in range(4)]
    rng.shuffle(deck)
    last_deal = sizes[-1] * players
    if system.shuffled:
        stock_len = last_deal
    elif players == 2 and len(sizes) > 1 and rng.random() < 0.15:
        stock_len = last_deal + sizes[-2] * players
    else:
        stock_len = rng.choice([0, 0, last_deal])
    full = sizes[-1] if stock_len == 0 else sizes[-1 - stock_len // last_deal]
    if players >= 3 and stock_len:
        k = 1
    elif system.shuffled or stock_len > last_deal:
        k = rng.randint(1, 2)
    else:
        k = rng.randint(1, min(3, full))
    leader = rng.randrange(players)
    played = rng.randrange(players)          # seats that played this round
    turn = (leader + played) % players
    hands: list[list[int]] = [[] for _ in range(players)]
    for i in range(players):
        seat = (leader + i) % players
        n = k - 1 if i < played else k
        hands[seat], deck = deck[:n], deck[n:]
    stock, deck = deck[:stock_len], deck[stock_len:]
    table: list[int] = []
    n_table = rng.randint(0, 5)
    for card in list(deck):
        if len(table) == n_table:
            break
        if rules.table_rule == "distinct" and card in table:
            continue
        table.append(card)
        deck.remove(card)
    nsides = 3 if players == 3 else 2
    cuts = sorted(rng.randint(0, len(deck)) for _ in range(nsides - 1))
    bounds = [0] + cuts + [len(deck)]
    piles = [deck[bounds[i]:bounds[i + 1]] for i in range(nsides)]
    taken = tuple(len(p) for p in piles)
    sides = [s % 2 if players == 4 else s for s in range(players)]
    # somebody captured once a pile holds cards (else the table would go
    # to nobody and the card count be taken from piles that miss cards)
    owners = [s for s in range(players) if taken[sides[s]] > 0]
    last = rng.choice(owners) if owners else None
    prev = show = None
    before = (turn - 1) % players
    if played and rng.random() < 0.4:
        singles = [r for r in set(table) if table.count(r) == 1]
        if singles:
            prev = rng.choice(singles)
    elif played and rng.random() < 0.4 and len(rules.hit) > 1:
        shower = sides[before]
        ranks = [r for r in set(piles[shower]) if piles[shower].count(r) >= 2
                 and r not in table]
        if ranks:
            show = (rng.choice(ranks), 2)
            last = before
    tops = None
    if rules.voleur:
        held = {c for h in hands for c in h}
        tops = []
        for pile in piles:
            good = [c for c in pile if c in held]
            if good and rng.random() < 0.7:
                tops.append(rng.choice(good))
            elif pile and rng.random() < 0.8:
                tops.append(rng.choice(pile))
            else:
                tops.append(None)
        if show is not None:
            tops[sides[before]] = show[0]
    score = None
    if system.match:
        T = rules.target
        score = tuple(max(0, T - rng.choice([1, 2, 3, 5, 8, 12, 20, 30]))
                      for _ in range(nsides))
    return Position(table=[Card(RANKS[r]) for r in table],
                    hands=[[Card(RANKS[r]) for r in h] for h in hands],
                    stock_kind="shuffled" if system.shuffled else "known",
                    stock=[Card(RANKS[r]) for r in stock], turn=turn, rules=rules,
                    preset=rules.name, dealer=(leader - 1) % players, score=score,
                    taken=taken, last=last, prev=None if prev is None else Card(RANKS[prev]),
                    show=None if show is None else Show(RANKS[show[0]], show[1]),
                    tops=None if tops is None else tuple(
                        None if t is None else Card(RANKS[t]) for t in tops))


def random_leaves(rng: random.Random, target: int, monotone: bool = False):
    """A match objective's leaves made of random numbers (any leaf read at
    the wrong score shows): ``(MatchLeaves, leaf)``, ``leaf(a, b, d)`` the
    chance that side 0 wins at final scores ``a, b`` with ``d = 0`` when
    side 0 deals next, read plainly. ``monotone``: the same numbers
    arranged to grow with side 0's score and fall with side 1's (as a
    real table does: the search then bounds a state by its group,
    :func:`solver.engine.core.dominance`); the same draws either way."""
    from solver.engine.tables import MatchLeaves
    n = target + 1
    eq = np.array([[[rng.random() for _ in range(n)] for _ in range(n)] for _ in range(2)])
    tie = (rng.random(), rng.random())
    if monotone:
        # rows sorted, then columns (the rows stay sorted), then the need
        # of side 0 reversed: falling in its need, growing in side 1's
        eq = np.sort(np.sort(eq, axis=2), axis=1)[:, ::-1, :].copy()

    def leaf(a, b, d):
        if a >= target or b >= target:
            if a > b and a >= target:
                return 1.0
            if b > a and b >= target:
                return 0.0
            return tie[d]
        return float(eq[d][target - a][target - b])

    return MatchLeaves(target, eq, tie), leaf


def reference_values(pos: Position, system: System, leaf=None) -> dict:
    """Every play's value by the plain reference: ``{rank: value}`` (points
    for the mover's side; the match: its chance of winning the match;
    three players: the vector, a list per seat)."""
    table = [c.rank for c in pos.table]
    hands = [[c.rank for c in h] for h in pos.hands]
    stock = [c.rank for c in pos.stock]
    leader = pos.leader()
    players = pos.players
    prev = pos.prev.rank if pos.prev is not None else None
    show = (pos.show.rank, pos.show.size) if pos.show is not None else None
    tops = [None if c is None else c.rank for c in pos.tops] if pos.tops else None
    if players == 3:
        s = R3.S(table, hands, stock, pos.turn, leader, prev, show, pos.last,
                 list(pos.taken), tops or [None, None, None], system.shuffled)
        values, _best = R3.move_values(pos.rules, s)
        return values
    last_side = None if pos.last is None else pos.last % 2
    d = 0 if leader % 2 == 0 else 1
    return R2.reference_general(
        pos.rules, table, hands, stock, pos.turn, leader, prev, show, last_side, pos.taken,
        tuple(tops) if tops else (None, None), pos.score or (0, 0), system.shuffled,
        None if leaf is None else (lambda a, b: leaf(a, b, d)))


def engine_values(pos: Position, system: System, leaves=None, memory_mb: float = 8.0,
                  search: str = "maxn") -> dict:
    """Every play's value by the compiled engine, in the reference's units
    and keys (printed ranks)."""
    from solver.engine import core
    from solver.engine.compile import known_problem, shuffled_problem
    from solver.search.compiled import Searcher
    from solver.search.vectors import VectorSearcher
    build = shuffled_problem if system.shuffled else known_problem
    prob = build(pos, match=leaves)
    if prob.nsides == 3:
        vs = VectorSearcher(prob.P, prob.D, memory_mb, search)
        return {RANKS[m]: list(v) for m, v in vs.root_values(prob.st).items()}
    values = Searcher(prob.P, prob.D, memory_mb).root_values(prob.st)
    if prob.match:
        return {RANKS[m]: (v / core.EQ_SCALE + 1) / 2 for m, v in values.items()}
    return {RANKS[m]: (v + prob.base) / 2 for m, v in values.items()}


def agree(a: dict, b: dict, tol: float = 1e-9) -> bool:
    """The same plays with the same values (vectors entry by entry)."""
    if a.keys() != b.keys():
        return False
    for k in a:
        x, y = a[k], b[k]
        if isinstance(x, list):
            if any(abs(p - q) > tol for p, q in zip(x, y)):
                return False
        elif abs(x - y) > tol:
            return False
    return True


def best_plays(values: dict, seat: int) -> set:
    """The best plays: two sides, every play of the top value; three sides
    (vectors), the plays equal under the max^n rule's (1) and (2): the
    top own entry, then the lowest sum of the others."""
    tol = 1e-9
    if isinstance(next(iter(values.values())), list):
        top = max(v[seat] for v in values.values())
        tied = {m: v for m, v in values.items() if v[seat] >= top - tol}
        low = min(sum(v) - v[seat] for v in tied.values())
        return {m for m, v in tied.items() if sum(v) - v[seat] <= low + tol}
    top = max(values.values())
    return {m for m, v in values.items() if v >= top - tol}
