"""Composing puzzle candidates with a constraint model (OR-Tools CP-SAT).

For a requested theme the model builds a *legal* position of the last
deal (stock empty), two players, three (each seat for itself) or four in
partnerships (S+N against E+W), that has the theme's preconditions, for example for ``hit``: the
opponent who played just before the mover has laid a card the mover can
take with the same rank. The model knows the card-count rules of a
position:

- every rank has 4 cards, on the table, in the hands or in the piles
  (RULES.md "Cards"), so the 40 cards are accounted for with ``taken=``;
- the hand sizes of the last deal (:func:`solver.rules.deal_sizes`: 3 cards
  a player, 2 on the last four-player deal of ``french``): the mover holds
  1 to that many; two players: the other as many or one fewer; three or
  four players: the seats still to play this round as many as the mover,
  those that played since the round's leader one fewer (NOTATION.md, hand
  sizes);
- ``table_rule = distinct``: never two cards of one rank on the table
  (docs/rules.md decision 6);
- ``prev=``: a card played in this deal, the only one of its rank on the
  table (it would have captured another); ``show=r:n``: n cards played in
  this deal, no r left on the table, at least n of rank r in the piles,
  the pile the previous player's (who captured last);
- when a card has been played in this deal and the previous player's card
  is not on the table (no ``prev=``), that player captured: ``last=`` is
  their side;
- the declarations of the deal (``declared=``) are written when no card of
  the deal has been played.

Four players (issue 11): the mover is S; "the other player" of the
themes is the next player (E, the opponent who can hit the mover's card);
``prev=`` and ``show=`` are the previous player's (W, the other opponent);
N, the partner, holds the rest. The themes' constraints are the same.

Three players (S, E, N in play order, each its own side): the mover is S,
"the other player" is E (the next, who can hit the mover's card),
``prev=`` and ``show=`` are N's (the previous player), and N holds the
rest; ``taken=`` is split near evenly over the three seats. The
verification is max^n (:mod:`solver.puzzles.maxn`).

Diversity, as the issue asks: each candidate comes from a fresh solve whose
objective pulls it towards a random *hint* (a random way of placing the 40
cards), with a random solver seed, and every candidate already found is
forbidden (a no-good on its card counts). The position is then written as
a line and read back with the strict parser, so a model that missed a rule
shows up as an ``illegal`` candidate instead of a wrong puzzle.

The model only proposes: :func:`solver.puzzles.puzzle.make_puzzle` verifies each
candidate by exact search (the only-move margin and the theme predicate).
``ortools`` is imported inside the functions (it is heavy).
"""

from __future__ import annotations

import random
import threading
from dataclasses import dataclass, field
from typing import Iterator

from ..cards import Card, RANKS
from ..engine.scoring import best_declaration, TRINGA
from ..notation import NotationError, format_position, parse_position
from ..position import Declaration, Position, Show
from ..rules import Rules, check_players, deal_sizes, format_value, preset
from .themes import THEMES, pays

NR = len(RANKS)
#: the last deal: 3 cards a player (two players; see :func:`last_deal`).
DEAL = 3
#: at most this many cards on the table in a composed position.
MAX_TABLE = 6


@dataclass
class Layout:
    """A solution of the model: card counts per rank index and location,
    and the keys. ``table``, ``mover``, ``other``, ``piles``: counts per
    rank index; ``prev``: rank index or -1; ``show``: ``(rank index,
    size)`` or None; ``last_other``: the other player captured last;
    ``variant``: the theme's variant whose model produced it; ``more``:
    four players, the counts of the partner's and of the previous player's
    hands (empty for two players)."""

    table: list[int]
    mover: list[int]
    other: list[int]
    piles: list[int]
    prev: int = -1
    show: tuple[int, int] | None = None
    last_other: bool = True
    variant: str = ""
    more: list[list[int]] = field(default_factory=list)


def last_deal(rules, players: int) -> int:
    """Cards a player on the last deal of a hand (``rules``' deal sizes for
    ``players``): the most a hand holds in a composed position."""
    return deal_sizes(rules, players)[-1]


class _Model:
    """The CP-SAT variables of one last-deal position (2, 3 or 4 players).

    ``T``, ``M``, ``O``, ``P``: cards of each rank index on the table, in
    the mover's hand, in the other (next) player's hand, in the piles;
    four players: ``more`` the partner's and the previous player's hands;
    three players: ``more`` the previous player's hand;
    ``km``, ``ko``: hand sizes; ``played``: cards played in this deal;
    ``prev_is[r]``, ``show_is[r]``, ``show3``: the keys; ``last_other``."""

    def __init__(self, rules, players: int = 2) -> None:
        from ortools.sat.python import cp_model
        self.cp = cp_model
        self.rules = rules
        self.players = players
        deal = self.deal = last_deal(rules, players) if players != 2 else DEAL
        self._eq: dict = {}
        m = self.m = cp_model.CpModel()
        self.T = [m.NewIntVar(0, 4, f"T{r}") for r in range(NR)]
        self.M = [m.NewIntVar(0, 4, f"M{r}") for r in range(NR)]
        self.O = [m.NewIntVar(0, 4, f"O{r}") for r in range(NR)]
        self.P = [m.NewIntVar(0, 4, f"P{r}") for r in range(NR)]
        self.more = [[m.NewIntVar(0, 4, f"H{k}_{r}") for r in range(NR)]
                     for k in range(2, players)]
        for r in range(NR):
            m.Add(self.T[r] + self.M[r] + self.O[r] + self.P[r]
                  + sum(h[r] for h in self.more) == 4)
            if rules.table_rule == "distinct":
                m.Add(self.T[r] <= 1)
        self.km = m.NewIntVar(1, deal, "km")
        self.ko = m.NewIntVar(0, deal, "ko")
        m.Add(sum(self.M) == self.km)
        m.Add(sum(self.O) == self.ko)
        if players == 2:
            self.lead = m.NewBoolVar("mover_leads")    # equal hands: the mover leads the round
            m.Add(self.ko == self.km).OnlyEnforceIf(self.lead)
            m.Add(self.ko == self.km - 1).OnlyEnforceIf(self.lead.Not())
            self.played = m.NewIntVar(0, 2 * DEAL, "played")
            m.Add(self.played == 2 * DEAL - self.km - self.ko)
        else:
            self._sizes_round()
        self.tsize = m.NewIntVar(0, MAX_TABLE, "tsize")
        m.Add(sum(self.T) == self.tsize)
        # the mover has a choice: two ranks or more in hand
        self.has_m = [self._at_least(self.M[r], 1, f"hasM{r}") for r in range(NR)]
        self.has_o = [self._at_least(self.O[r], 1, f"hasO{r}") for r in range(NR)]
        self.has_t = [self._at_least(self.T[r], 1, f"hasT{r}") for r in range(NR)]
        m.Add(sum(self.has_m) >= 2)
        # prev: the previous player's lone card, alone of its rank on the table
        self.prev_is = [m.NewBoolVar(f"prev{r}") for r in range(NR)]
        self.has_prev = m.NewBoolVar("has_prev")
        m.Add(sum(self.prev_is) == self.has_prev)
        for r in range(NR):
            m.Add(self.T[r] == 1).OnlyEnforceIf(self.prev_is[r])
        m.Add(self.played >= 1).OnlyEnforceIf(self.has_prev)
        # show: the previous player's hit pile (2) or answer pile (3)
        self.show_is = [m.NewBoolVar(f"show{r}") for r in range(NR)]
        self.has_show = m.NewBoolVar("has_show")
        self.show3 = m.NewBoolVar("show3")
        m.Add(sum(self.show_is) == self.has_show)
        m.AddImplication(self.show3, self.has_show)
        m.AddBoolOr([self.has_prev.Not(), self.has_show.Not()])
        levels = len(rules.hit)
        if levels < 2:
            m.Add(self.has_show == 0)
        if levels < 3:
            m.Add(self.show3 == 0)
        for r in range(NR):
            m.Add(self.T[r] == 0).OnlyEnforceIf(self.show_is[r])
            m.Add(self.P[r] >= 2 + self.show3).OnlyEnforceIf(self.show_is[r])
        m.Add(self.played >= 2 + self.show3).OnlyEnforceIf(self.has_show)
        # the last capture: the other side when it just captured
        self.last_other = m.NewBoolVar("last_other")
        m.AddImplication(self.has_show, self.last_other)
        self.fresh = m.NewBoolVar("fresh_deal")          # nothing played in this deal
        m.Add(self.played == 0).OnlyEnforceIf(self.fresh)
        m.Add(self.played >= 1).OnlyEnforceIf(self.fresh.Not())
        # played >= 1 and no lone card: the previous player captured
        m.AddBoolOr([self.fresh, self.has_prev, self.last_other])

    def _sizes_round(self) -> None:
        """Three or four players: ``done[i]`` (seat i after the mover, i = 1..players-1) has
        played in this round, so holds one card fewer; the seats that
        played are the last ones before the mover (from the round's
        leader on)."""
        m = self.m
        self.done = [m.NewBoolVar(f"done{i}") for i in range(1, self.players)]
        hands = [self.O, *self.more]
        self.sizes = [self.ko] + [m.NewIntVar(0, self.deal, f"k{i}")
                                  for i in range(2, self.players)]
        for i, (hand, size, done) in enumerate(zip(hands, self.sizes, self.done)):
            if i:
                m.Add(sum(hand) == size)
            m.Add(size == self.km).OnlyEnforceIf(done.Not())
            m.Add(size == self.km - 1).OnlyEnforceIf(done)
            if i + 1 < len(self.done):
                m.AddImplication(done, self.done[i + 1])
        self.lead = self.done[-1].Not()
        self.played = m.NewIntVar(0, self.players * self.deal, "played")
        m.Add(self.played == self.players * self.deal - self.km - sum(self.sizes))

    def _at_least(self, var, k: int, name: str):
        b = self.m.NewBoolVar(name)
        self.m.Add(var >= k).OnlyEnforceIf(b)
        self.m.Add(var < k).OnlyEnforceIf(b.Not())
        return b

    def one_of(self, name: str, allowed=None) -> list:
        """A one-hot choice of a rank index (``allowed``: a subset)."""
        bs = [self.m.NewBoolVar(f"{name}{r}") for r in range(NR)]
        self.m.AddExactlyOne(bs)
        if allowed is not None:
            for r in range(NR):
                if r not in allowed:
                    self.m.Add(bs[r] == 0)
        return bs

    def adjacent(self, r: int) -> bool:
        """Rank index r+1 follows r in a run (7-10 per the rules)."""
        if r + 1 >= NR:
            return False
        return not (r == 6 and not self.rules.seven_ten_adjacent)

    # --- solving ---------------------------------------------------------

    def hint(self, rng: random.Random) -> None:
        """Point the search at a random placement of the 40 cards (CP-SAT
        solution hints): the solver starts there and repairs what the
        constraints forbid, so solutions spread over the positions."""
        deck = [r for r in range(NR) for _ in range(4)]
        rng.shuffle(deck)
        if self.players != 2:
            self._hint_round(deck, rng)
            return
        km = rng.choice((2, 3, 3))
        ko = rng.choice((km, km - 1))
        tsize = rng.randint(1, 5)
        hint_m = _counts(deck[:km])
        hint_o = _counts(deck[km:km + ko])
        hint_t = _counts(deck[km + ko:km + ko + tsize])
        self.m.ClearHints()
        for r in range(NR):
            self.m.AddHint(self.M[r], hint_m[r])
            self.m.AddHint(self.O[r], hint_o[r])
            self.m.AddHint(self.T[r], hint_t[r])

    def _hint_round(self, deck: list[int], rng: random.Random) -> None:
        km = rng.choice([k for k in range(2, self.deal + 1)] + [self.deal])
        done = rng.randrange(self.players)          # seats that played this round
        sizes = [km] + [km - (i > self.players - 1 - done) for i in range(1, self.players)]
        tsize = rng.randint(1, 5)
        at = 0
        self.m.ClearHints()
        for hand, size in zip([self.M, self.O, *self.more], sizes):
            counts = _counts(deck[at:at + size])
            at += size
            for r in range(NR):
                self.m.AddHint(hand[r], counts[r])
        counts = _counts(deck[at:at + tsize])
        for r in range(NR):
            self.m.AddHint(self.T[r], counts[r])

    def _equals(self, var, value: int):
        """The literal ``var == value`` (one-hot literals made once per
        variable, so a no-good is a single clause)."""
        key = (var.Index(), value)
        lit = self._eq.get(key)
        if lit is None:
            lits = [self.m.NewBoolVar("") for _ in range(5)]
            for v, b in enumerate(lits):
                self.m.Add(var == v).OnlyEnforceIf(b)
                self._eq[(var.Index(), v)] = b
            self.m.AddExactlyOne(lits)
            lit = self._eq[key]
        return lit

    def forbid(self, lay: Layout) -> None:
        """A no-good: the next solution differs somewhere in its counts
        (one clause over the one-hot literals of the table and hands)."""
        clause = []
        for vars_, vals in ((self.T, lay.table), (self.M, lay.mover), (self.O, lay.other),
                            *zip(self.more, lay.more)):
            for var, v in zip(vars_, vals):
                clause.append(self._equals(var, v).Not())
        self.m.AddBoolOr(clause)

    def solve(self, seed: int) -> Layout | None:
        solver = self.cp.CpSolver()
        solver.parameters.random_seed = seed
        solver.parameters.num_workers = 1
        solver.parameters.randomize_search = True
        solver.parameters.cp_model_presolve = False     # tiny model: presolve costs more
        solver.parameters.linearization_level = 0
        solver.parameters.max_time_in_seconds = 5.0
        solver.parameters.catch_sigint_signal = False   # Ctrl-C is the caller's
        status = _solve_stoppable(solver, self.m)
        if status not in (self.cp.OPTIMAL, self.cp.FEASIBLE):
            return None
        val = solver.Value
        prev = next((r for r in range(NR) if val(self.prev_is[r])), -1)
        show_r = next((r for r in range(NR) if val(self.show_is[r])), -1)
        show = (show_r, 3 if val(self.show3) else 2) if show_r >= 0 else None
        return Layout([val(v) for v in self.T], [val(v) for v in self.M],
                      [val(v) for v in self.O], [val(v) for v in self.P],
                      prev, show, bool(val(self.last_other)),
                      more=[[val(v) for v in h] for h in self.more])


def _solve_stoppable(solver, model) -> int:
    """``solver.Solve(model)`` in a helper thread (CP-SAT releases the GIL),
    so that this thread takes Ctrl-C and other signals at once: the search
    is then stopped and the KeyboardInterrupt raised again."""
    box: list[int] = []
    th = threading.Thread(target=lambda: box.append(solver.Solve(model)), daemon=True)
    try:
        # started inside the try: a signal between the start and the wait
        # still stops the search and joins its thread (a CP-SAT thread left
        # running at exit can end the process with "terminate called")
        th.start()
        while th.is_alive():
            th.join(0.05)
    except KeyboardInterrupt:
        if th.is_alive():
            solver.stop_search()
            th.join()
        raise
    return box[0]


def _counts(ranks: list[int]) -> list[int]:
    out = [0] * NR
    for r in ranks:
        out[r] += 1
    return out


# --- the themes' preconditions -------------------------------------------
# Each variant adds constraints to a model. They state what makes the idea
# possible, never that it is best: the search decides that.


def _hit_prev(mod: _Model) -> None:
    """The other player has just laid a lone card; the mover holds its rank."""
    r = mod.one_of("h")
    for i in range(NR):
        mod.m.AddImplication(r[i], mod.prev_is[i])
        mod.m.AddImplication(r[i], mod.has_m[i])


def _rival_capture(mod: _Model, name: str, exclude) -> None:
    """The mover holds another card that takes a run of two ranks or more
    from the table (a tempting alternative); ``exclude``: the one-hot of
    the theme's own rank, which the rival must differ from."""
    allowed = [i for i in range(NR - 1) if mod.adjacent(i)]
    c = mod.one_of(name, allowed)
    for i in allowed:
        mod.m.AddImplication(c[i], mod.has_m[i])
        mod.m.AddImplication(c[i], mod.has_t[i])
        mod.m.AddImplication(c[i], mod.has_t[i + 1])
        mod.m.AddImplication(c[i], exclude[i].Not())


def _hit_rival(mod: _Model) -> None:
    """As ``prev``, and the mover could instead take a run of two or more
    ranks with another card."""
    r = mod.one_of("h")
    for i in range(NR):
        mod.m.AddImplication(r[i], mod.prev_is[i])
        mod.m.AddImplication(r[i], mod.has_m[i])
    _rival_capture(mod, "hc", r)


def _shown(mod: _Model, size: int) -> None:
    """The other player just hit (``size`` 2) or answered (3); the mover
    holds the next card of that rank."""
    r = mod.one_of("a")
    for i in range(NR):
        mod.m.AddImplication(r[i], mod.show_is[i])
        mod.m.AddImplication(r[i], mod.has_m[i])
    mod.m.Add(mod.show3 == (1 if size == 3 else 0))


def _pair_against_one(mod: _Model, name: str = "b") -> list:
    """The mover holds two of a rank the other holds one of, none on the
    table: lay one, and a hit on it is answered."""
    r = mod.one_of(name)
    for i in range(NR):
        mod.m.Add(mod.M[i] >= 2).OnlyEnforceIf(r[i])
        mod.m.Add(mod.O[i] == 1).OnlyEnforceIf(r[i])
        mod.m.AddImplication(r[i], mod.has_t[i].Not())
    return r


def _bait_rival(mod: _Model) -> None:
    """As ``pair``, and the mover could take a run of two ranks or more
    with another card instead (a tempting capture)."""
    r = _pair_against_one(mod)
    _rival_capture(mod, "bc", r)


def _bait_run(mod: _Model) -> None:
    """As ``pair``, and the table holds the next rank up (and the one
    after, when it follows): a hit on the laid card takes a run, so not
    hitting leaves the run to the mover's second card."""
    r = _pair_against_one(mod)
    for i in range(NR):
        if mod.adjacent(i):
            mod.m.AddImplication(r[i], mod.has_t[i + 1])
        else:
            mod.m.Add(r[i] == 0)


def _answer10_hit(mod: _Model) -> None:
    """The other player just laid an r, the mover holds two r (the hit and
    the fourth), the other the third: hit, and an answer is answered."""
    r = mod.one_of("t")
    for i in range(NR):
        mod.m.AddImplication(r[i], mod.prev_is[i])
        mod.m.Add(mod.M[i] == 2).OnlyEnforceIf(r[i])
        mod.m.Add(mod.O[i] == 1).OnlyEnforceIf(r[i])


def _missa_block(mod: _Model) -> None:
    """The table is one block of consecutive ranks starting at a rank the
    mover holds: that card takes it all."""
    s = mod.one_of("s")
    m = mod.m
    m.Add(mod.tsize >= 1)
    for i in range(NR):
        m.AddImplication(s[i], mod.has_m[i])
        m.AddImplication(s[i], mod.has_t[i])
        if i > 0:
            m.AddImplication(s[i], mod.has_t[i - 1].Not())
        # a table rank other than the start needs the rank below, adjacent
        if i == 0 or not mod.adjacent(i - 1):
            m.AddImplication(mod.has_t[i], s[i])
        else:
            m.AddBoolOr([mod.has_t[i].Not(), s[i], mod.has_t[i - 1]])


def _run3(mod: _Model) -> None:
    """The mover holds r; the table holds r and the next two ranks."""
    allowed = [i for i in range(NR - 2) if mod.adjacent(i) and mod.adjacent(i + 1)]
    s = mod.one_of("u", allowed)
    for i in allowed:
        for j in (i, i + 1, i + 2):
            mod.m.AddImplication(s[i], mod.has_t[j])
        mod.m.AddImplication(s[i], mod.has_m[i])


def _run_against_hit(mod: _Model) -> None:
    """As ``run3``, and the other player has just laid a card the mover
    could hit instead."""
    _run3(mod)
    h = mod.one_of("uh")
    for i in range(NR):
        mod.m.AddImplication(h[i], mod.prev_is[i])
        mod.m.AddImplication(h[i], mod.has_m[i])


def _single_exposed(mod: _Model) -> None:
    """The mover holds a single card of a rank the other holds and the
    table lacks (laying it gets it hit)."""
    r = mod.one_of("v")
    for i in range(NR):
        mod.m.Add(mod.M[i] == 1).OnlyEnforceIf(r[i])
        mod.m.AddImplication(r[i], mod.has_o[i])
        mod.m.AddImplication(r[i], mod.has_t[i].Not())


def _late_capture(mod: _Model) -> None:
    """Late in the deal (the mover holds 2 cards), three or more cards on
    the table, the mover can capture."""
    m = mod.m
    m.Add(mod.km <= 2)
    m.Add(mod.tsize >= 3)
    c = mod.one_of("w")
    for i in range(NR):
        m.AddImplication(c[i], mod.has_m[i])
        m.AddImplication(c[i], mod.has_t[i])


def _fresh(mod: _Model) -> None:
    """Nothing played yet in the last deal: every hand full."""
    if mod.players == 2:
        mod.m.Add(mod.km == DEAL)
        mod.m.Add(mod.ko == DEAL)
    else:
        mod.m.Add(mod.played == 0)


def _declared_other(mod: _Model) -> None:
    """The start of the last deal: the other player declared a pair of a
    rank the mover holds one of and the table lacks (laying it is hit)."""
    _fresh(mod)
    d = mod.one_of("d")
    for i in range(NR):
        mod.m.Add(mod.O[i] >= 2).OnlyEnforceIf(d[i])
        mod.m.Add(mod.M[i] == 1).OnlyEnforceIf(d[i])
        mod.m.AddImplication(d[i], mod.has_t[i].Not())


def _declared_own(mod: _Model) -> None:
    """The start of the last deal: the mover declared a pair (or a Tringa)
    of a rank the other holds one of (bait)."""
    _fresh(mod)
    _pair_against_one(mod, "d")


def _capture_or_lay(mod: _Model) -> None:
    """The mover can capture and can lay a card."""
    m = mod.m
    c = mod.one_of("qc")
    q = mod.one_of("ql")
    for i in range(NR):
        m.AddImplication(c[i], mod.has_m[i])
        m.AddImplication(c[i], mod.has_t[i])
        m.AddImplication(q[i], mod.has_m[i])
        m.AddImplication(q[i], mod.has_t[i].Not())


#: theme -> its variants ``(name, weight, add constraints)``; a candidate
#: draws a variant by weight.
VARIANTS: dict[str, list[tuple[str, float, object]]] = {
    "hit": [("prev", 1, _hit_prev), ("rival", 1, _hit_rival)],
    # measured (docs/puzzles.md): the deep variants almost never pass for
    # the answer themes (the other player declines to hit or to answer),
    # so they are drawn less often
    "answer5": [("show", 0.8, lambda mod: _shown(mod, 2)),
                ("pair", 0.2, lambda mod: _pair_against_one(mod))],
    "answer10": [("show", 0.8, lambda mod: _shown(mod, 3)), ("hit", 0.2, _answer10_hit)],
    "missa": [("block", 1, _missa_block)],
    "run": [("run3", 1, _run3), ("against-hit", 1, _run_against_hit)],
    # measured (docs/puzzles.md): the other player rarely does best to
    # take the bait; a run above the laid card makes it likelier
    "bait": [("pair", 1, lambda mod: _pair_against_one(mod)), ("rival", 0.5, _bait_rival),
             ("run", 2, _bait_run)],
    "avoid-hit": [("single", 1, _single_exposed)],
    "sweep": [("late", 1, _late_capture)],
    "declaration": [("other", 1, _declared_other), ("own", 1, _declared_own)],
    "quiet": [("choice", 1, _capture_or_lay)],
}
assert set(VARIANTS) == set(THEMES)


def rules_for(rules_name: str, overrides: dict[str, str] | None = None) -> Rules:
    """The rules of generated puzzles: the preset ``rules_name`` with the
    ``overrides`` (``--set``) on top."""
    return preset(rules_name).with_overrides(overrides or {})


def unavailable(theme: str, rules, players: int) -> str | None:
    """Why no position of ``rules`` with ``players`` can show ``theme``, or
    None: a hit, an answer, the missa or a declaration the rules do not
    score (answers the rules do not have; ``--set hit=0``, ``missa=0``,
    ``ronda=0 tringa=0``), a bait with three players (the seat that would
    answer the hit is an opponent).

    >>> from solver.rules import PRESETS
    >>> unavailable("answer5", PRESETS["french"], 2)
    'rules=french has no answer for 5 (hit=1)'
    >>> unavailable("declaration", PRESETS["mod"], 2)
    'rules=mod scores no declaration (ronda=0, tringa=0)'
    >>> unavailable("hit", PRESETS["lmodire"].with_overrides({"hit": "0,5,10"}), 2)
    'rules=lmodire: a hit scores nothing (hit=0,5,10)'
    """
    hit = format_value(rules.hit)
    level = {"hit": 1, "answer5": 2, "bait": 2, "answer10": 3}.get(theme)
    if level is not None and not pays(rules, level):
        if level == 1:
            return f"rules={rules.name}: a hit scores nothing (hit={hit})"
        return (f"rules={rules.name} has no answer for {'10' if level == 3 else '5'} "
                f"(hit={hit})")
    if theme == "missa" and rules.missa <= 0:
        return f"rules={rules.name}: the missa scores nothing (missa={rules.missa})"
    if theme == "declaration" and rules.ronda <= 0 and rules.tringa <= 0:
        return f"rules={rules.name} scores no declaration (ronda={rules.ronda}, tringa={rules.tringa})"
    if theme == "bait" and players == 3:
        return ("no bait with three players: the seat that would answer the hit on the laid "
                "card is an opponent")
    return None


def last_deal_refusal(rules, players: int) -> str | None:
    """Why mined and self-played candidates cannot come from ``rules`` with
    ``players``: their positions are last-deal ones where the mover holds
    two ranks or more, which a last deal of one card a player never gives
    (four players with ``deal_size=4`` or ``table_cards=0``); or None."""
    size = deal_sizes(rules, players)[-1]
    if size >= 2:
        return None
    return (f"the rules deal {size} card{'s' * (size != 1)} a player last with {players} "
            "players: a puzzle's "
            "mover holds two ranks or more in the last deal")


# --- from a layout to a position -----------------------------------------


def layout_position(lay: Layout, rules_name: str, rng: random.Random,
                    mover: int = 0, overrides: dict[str, str] | None = None) -> Position:
    """The position of a layout: the mover is seat ``mover`` of two (of
    three when ``lay.more`` holds the previous player's hand: S E N, each
    seat its own side; of four when it holds the partner's and previous
    player's hands: S E N W in play order, partnerships S+N, E+W), stock
    empty, ``taken=`` (per side) split near evenly at random, ``last=`` (the
    previous player when the other side captured last), ``prev=``,
    ``show=`` and (at the start of the deal) ``declared=``. The cards are
    written by rank, ascending. ``overrides``: rule parameters on top of
    the preset (``--set``), written on the line. Not yet checked (see
    :func:`candidate_line`)."""
    rules = rules_for(rules_name, overrides)
    players = 2 + len(lay.more)
    other = (mover + 1) % players
    previous = (mover - 1) % players

    def cards(counts: list[int]) -> list[Card]:
        return [Card(RANKS[r]) for r in range(NR) for _ in range(counts[r])]

    hands: list[list[Card | None]] = [[] for _ in range(players)]
    hands[mover] = cards(lay.mover)
    hands[other] = cards(lay.other)
    for k, counts in enumerate(lay.more, start=2):
        hands[(mover + k) % players] = cards(counts)
    piles = sum(lay.piles)
    if players == 3:
        taken = _split3(piles, rng)
    else:
        mine = max(1, min(piles - 1, piles // 2 + rng.randint(-3, 3)))
        taken = [0, 0]
        me, them = mover % 2 if players == 4 else mover, other % 2 if players == 4 else other
        taken[me], taken[them] = mine, piles - mine
    last = previous if lay.last_other else mover
    pos = Position(table=cards(lay.table), hands=hands, stock_kind="known", stock=[],
                   turn=mover, rules=rules, preset=rules_name, overrides=rules.overrides_from(preset(rules_name)),
                   taken=tuple(taken), last=last)
    if lay.prev >= 0:
        pos.prev = Card(RANKS[lay.prev])
    if lay.show is not None:
        pos.show = Show(RANKS[lay.show[0]], lay.show[1], previous)
    deal = last_deal(rules, players) if players != 2 else DEAL
    if all(len(h) == deal for h in hands):
        for seat in range(players):
            d = best_declaration(rules, [c.index for c in hands[seat]])  # type: ignore[union-attr]
            if d is not None:
                kind = "tringa" if d[0] == TRINGA else "ronda"
                pos.declared.append(Declaration(seat, kind, RANKS[d[1]]))
        pos.declared.sort(key=lambda d: d.seat)
    return pos


def _split3(piles: int, rng: random.Random) -> list[int]:
    """``piles`` cards split over three seats, each near a third (within
    3) and at least 3 (a shown pile of 3 fits anywhere)."""
    a = max(3, piles // 3 + rng.randint(-3, 3))
    b = max(3, min(piles - a - 3, piles // 3 + rng.randint(-3, 3)))
    return [a, b, piles - a - b]


def seed_tag(overrides: dict[str, str] | None) -> str:
    """What rule overrides add to a candidate stream's seed: nothing
    without them (the shipped puzzle files stay reproducible), else
    ``:key=value`` for each in order.

    >>> seed_tag(None), seed_tag({"hit": "1,5"})
    ('', ':hit=1,5')
    """
    return "".join(f":{k}={v}" for k, v in (overrides or {}).items())


def candidate_line(pos: Position) -> Position | NotationError:
    """Write ``pos`` and read it back strictly: the Position, or the
    NotationError that shows the model missed a rule."""
    try:
        return parse_position(format_position(pos))
    except NotationError as err:
        return err


def compose(theme: str, seed: int = 0, rules_name: str = "lmodire",
            limit: int | None = None, players: int = 2,
            overrides: dict[str, str] | None = None) -> Iterator[Position | NotationError]:
    """Candidate positions for ``theme``: endless (or ``limit`` of them),
    seeded, each different from the ones before. Each is a checked
    Position, or the NotationError of an illegal one.

    One model per variant of the theme (:data:`VARIANTS`) lives for the
    whole run; each candidate draws a variant, gives its model fresh random
    hints and a fresh solver seed, and its solution is then forbidden in
    every model. A variant that has no solution left is dropped; the run
    ends when none is left.

    ``players``: 2, 3 (each seat for itself) or 4 (partnerships; the
    mover is S; see the module docstring). ``overrides``: rule parameters
    on top of the preset (:func:`~solver.rules.Rules.with_overrides`),
    written on every line.

    Raises ValueError for an unknown theme or a rules preset without that
    many players."""
    if theme not in VARIANTS:
        raise ValueError(f"unknown theme {theme!r} (themes: {', '.join(VARIANTS)})")
    rules = rules_for(rules_name, overrides)
    if players not in (2, 3, 4):
        raise ValueError(f"composed puzzles have 2, 3 or 4 players, not {players}")
    check_players(rules, players)
    if rules.deal_size != 3 or rules.table_cards != 4:
        instead = "" if last_deal_refusal(rules, players) else " (mine or self-play instead)"
        last = deal_sizes(rules, players)[-1]
        raise ValueError(f"rules={rules_name} deals {last} card{'s' * (last != 1)} a "
                         f"player last and {rules.table_cards} to the table: the composer "
                         f"models 3-card deals after a 4-card table{instead}")
    if rules.voleur:
        raise ValueError("the composer does not model Ronda voleur's steals "
                         "(--source mined or selfplay instead)")
    why = unavailable(theme, rules, players)
    if why is not None:
        raise ValueError(f"no {theme} puzzle: {why}")
    tag = "" if players == 2 else f":{players}p"
    rng = random.Random(f"compose:{theme}:{seed}:{rules_name}{tag}{seed_tag(overrides)}")
    variants = list(VARIANTS[theme])
    models: dict[str, _Model] = {}
    found: list[Layout] = []
    while variants and (limit is None or len(found) < limit):
        name, _w, add = rng.choices(variants, weights=[v[1] for v in variants])[0]
        mod = models.get(name)
        if mod is None:
            mod = models[name] = _Model(rules, players)
            add(mod)
            for lay in found:
                mod.forbid(lay)
        mod.hint(rng)
        lay = mod.solve(rng.randrange(1 << 30))
        if lay is None:
            variants = [v for v in variants if v[0] != name]
            continue
        lay.variant = name
        found.append(lay)
        for other in models.values():
            other.forbid(lay)
        yield candidate_line(layout_position(lay, rules_name, rng, overrides=overrides))
