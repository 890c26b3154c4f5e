"""The search's canonical states (``P_CANON``, solver/engine/core.py) never
merge two states of different value: on positions of real hands (seeded
hands played with random legal cards to a late deal), every root move's
value with the canonical writing on equals its value with it off, and the
writing does merge states (fewer nodes), so the comparison is not empty.

- ``CANON_PILES``: a pile that cannot pass 20 cards is written 0 (three
  players, the match objective);
- ``CANON_TOPS``: a voleur pile top that no opponent can steal any more (no
  opponent seat holds its rank and the stock has none) is written "none".
"""

from __future__ import annotations

import random

import pytest

from solver.engine import core
from solver.engine.compile import known_problem, shuffled_problem
from solver.rules import PRESETS
from solver.search import kernels as kn
from solver.search.compiled import Searcher
from solver.search.vectors import VectorSearcher
from hands import played_to_deal


def _at_deal(rules, players: int, seed: str, deal: int, played: int = 0):
    """A seeded hand at deal ``deal`` (1 = the first) after ``played`` more
    plays, every play a random legal card."""
    rng = random.Random(seed)
    hs = played_to_deal(rules, rng, deal, players=players)
    for _ in range(played):
        hs.play(rng.choice(hs.legal_cards()))
    return hs


def _values(prob, bits_off: int, memory_mb: float = 16.0, lean: bool = True):
    """Every root move's value with the canonical bits ``bits_off`` cleared,
    and the nodes searched; three sides with ``lean`` False: the table
    throughout (the last two deals' own searches off)."""
    P = prob.P.copy()
    P[core.P_CANON] &= ~bits_off
    if prob.nsides == 3:
        s = VectorSearcher(P, prob.D, memory_mb, "maxn")
        if not lean:
            s.C[kn.C_LEAN] = 0
            s.C[kn.C_LEAN2] = 0
    else:
        s = Searcher(P, prob.D, memory_mb)
    return s.root_values(prob.st), s.nodes


def _same(a: dict, b: dict) -> bool:
    if a.keys() != b.keys():
        return False
    for m in a:
        x = a[m] if isinstance(a[m], tuple) else (a[m],)
        y = b[m] if isinstance(b[m], tuple) else (b[m],)
        if any(abs(p - q) > 1e-9 * max(1.0, abs(p)) for p, q in zip(x, y)):
            return False
    return True


def _check(probs, bit, lean: bool = True):
    merged = 0
    for prob in probs:
        assert prob.P[core.P_CANON] & bit
        on, n_on = _values(prob, 0, lean=lean)
        off, n_off = _values(prob, bit, lean=lean)
        assert _same(on, off), (on, off)
        assert n_on <= n_off
        merged += n_off - n_on
    assert merged > 0


# two players, shuffled: two deals from the end (the chance node of the
# last deal is solved outcome by outcome without a table, so the merges
# show in the deal before it)
@pytest.mark.parametrize("players,shuffled,deal,played", [
    (2, False, 2, 0), (2, True, 4, 0), (3, False, 3, 0), (3, True, 3, 4)])
def test_voleur_dead_tops_merge_only_equal_states(players, shuffled, deal, played):
    rules = PRESETS["french"].with_overrides({"voleur": "yes"})
    probs = []
    for seed in range(4):
        hs = _at_deal(rules, players, f"canon-tops-{players}-{seed}", deal,
                      played=played + seed % 3)
        pos = hs.full_position()
        if shuffled:
            pos.stock_kind = "shuffled"
            probs.append(shuffled_problem(pos))
        else:
            probs.append(known_problem(pos))
    _check(probs, core.CANON_TOPS)


def test_dead_top_written_none():
    """A hand-checked case: side 1's top is a 4, no 4 is left in side 0's
    hand or the stock; side 0's top is a 6 and side 1 holds a 6."""
    rules = PRESETS["french"].with_overrides({"voleur": "yes"})
    hs = _at_deal(rules, 2, "canon-hand", 6)
    prob = known_problem(hs.full_position())
    P = prob.P
    six, four = 5, 3
    x = core.with_top(core.with_top(0, 0, six), 1, four)
    h1 = 1 << (4 * six)                     # side 1 holds a 6
    h0 = 1 << (4 * 0)                       # side 0 holds an ace
    out = core._canon_tops(P, x, h0, h1, 0, 0, 0)
    assert core.top_of(out, 0) == six
    assert core.top_of(out, 1) == -1
    # a 4 still in the stock keeps side 1's top
    out = core._canon_tops(P, x, h0, h1, 0, 0, 1 << (4 * four))
    assert core.top_of(out, 1) == four
    # a 4 in side 1's own hand does not: only an opponent steals
    out = core._canon_tops(P, x, h0, h1 | (1 << (4 * four)), 0, 0, 0)
    assert core.top_of(out, 1) == -1


def test_three_player_piles_merge_only_equal_states():
    """The table's canonical piles (three players) at the deal before the
    last, the table throughout: there (with a known stock, deals of three
    cards) the deal's own search and its memo of ranges of piles
    (engine/endgame3.py, tests/test_last_deal3.py) take their place by
    default; they still serve a shuffled stock and deals of four cards."""
    probs = []
    for seed in range(3):
        hs = _at_deal(PRESETS["french"], 3, f"canon-piles-{seed}", 3, played=seed)
        probs.append(known_problem(hs.full_position()))
    _check(probs, core.CANON_PILES, lean=False)


@pytest.mark.parametrize("name", ["pagat-2p", "answers-3p", "voleur-french-2p",
                                  "match-lmodire-2p", "online-4p"])
def test_key_drops_a_prev_or_show_the_mover_cannot_use(name):
    """``state_key`` holds a card just laid (``prev``) or a hit on show only
    when the mover holds a card of its rank: the plain reference gives the
    position without them the same values, and the keys are equal; with
    the rank in the mover's hand the keys differ."""
    import dataclasses

    from systems import random_leaves, random_position, reference_values, systems
    system = next(s for s in systems() if s.name == name)
    rng = random.Random(f"canon-key-{name}")
    dropped = kept = 0
    for _ in range(400):
        if dropped >= 6 and kept >= 3:
            break
        pos = random_position(rng, system)
        if pos.prev is None and pos.show is None:
            continue
        rank = (pos.prev or pos.show).rank
        bare = dataclasses.replace(pos, prev=None, show=None)
        leaves = leaf = None
        if system.match:
            leaves, leaf = random_leaves(rng, system.rules.target)
        st = known_problem(pos, match=leaves).st
        st_bare = known_problem(bare, match=leaves).st
        if any(c.rank == rank for c in pos.hands[pos.turn]):
            kept += 1
            assert core.state_key(st) != core.state_key(st_bare)
            continue
        dropped += 1
        assert core.state_key(st) == core.state_key(st_bare)
        ref = reference_values(pos, system, leaf)
        assert ref == reference_values(bare, system, leaf)
    assert dropped >= 6 and kept >= 3


def test_two_sided_voleur_piles_written_0_when_no_steal_can_happen():
    """Two sides playing for points: with both tops none and no rank that
    both sides can still get (two cards of it, a hand or the stock each),
    the piles' sizes are written 0; one shared rank keeps them."""
    rules = PRESETS["french"].with_overrides({"voleur": "yes"})
    prob = known_problem(_at_deal(rules, 2, "canon-piles-v", 6).full_position())
    P = prob.P
    x = core.with_pile(core.with_pile(0, 0, 17), 1, 15)
    ace, two, three = 1 << 0, 1 << 4, 1 << 8
    out = core._canon_tops(P, x, ace | two, three, 0, 0, 0)
    assert core.pile_of(out, 0) == 0 and core.pile_of(out, 1) == 0
    # side 1 can get a 2 from the stock: side 0 captures with its 2, side 1 steals
    out = core._canon_tops(P, x, ace | two, three, 0, 0, two)
    assert (core.pile_of(out, 0), core.pile_of(out, 1)) == (17, 15)
    # one 3 in the stock and none in a hand: only one side can play it
    out = core._canon_tops(P, x, ace | two, 0, 0, 0, three)
    assert core.pile_of(out, 0) == 0
    # a live top keeps the piles (side 1 holds side 0's top rank)
    out = core._canon_tops(P, core.with_top(x, 0, 2), ace | two, three, 0, 0, 0)
    assert (core.pile_of(out, 0), core.top_of(out, 0)) == (17, 2)
