"""The sequence-form equilibrium solver against a brute-force solution of
the same game (every pure strategy, the normal form solved as a matrix
game), on random games and on Ronda deals; and the player's-view value of a
deal against exact expectimax when the hidden hand is revealed to both."""

from __future__ import annotations

import random

import pytest

from solver.analysis.evaluation import evaluate
from solver.engine.view_game import ViewGame, fits
from solver.games.match import play_match
from solver.notation import format_position, parse_position
from solver.games.players import GreedyPlayer
from solver.rules import PRESETS
from solver.search.compiled import ensure_compiled
from solver.search import equilibrium
from solver.analysis.inference import Evidence
from solver.search.equilibrium import Node, brute_force_value, solve, solve_root_moves

ensure_compiled()


def random_game(rng: random.Random) -> Node:
    """Chance deals player 1 one of three hands; player 0 acts without
    seeing it, player 1 answers knowing it and player 0's action, player 0
    acts again knowing only player 1's answer."""
    probs = [rng.random() + 0.1 for _ in range(3)]
    total = sum(probs)

    def second(a0, a1):
        return Node.decide(0, ("b", a0, a1), {c: Node.leaf(rng.uniform(-5, 5)) for c in "xyz"})

    return Node.chance({
        h: (p / total, Node.decide(0, ("a",), {
            a0: Node.decide(1, (h, a0), {a1: second(a0, a1) for a1 in "LR"}) for a0 in "UD"}))
        for h, p in zip("pqr", probs)})


def test_random_games_agree_with_the_normal_form():
    rng = random.Random(5)
    for _ in range(25):
        tree = random_game(rng)
        assert abs(solve(tree).value - brute_force_value(tree)) < 1e-9


def test_matching_pennies_and_a_forgetful_tree():
    leaves = {("H", "H"): 1, ("H", "T"): -1, ("T", "H"): -1, ("T", "T"): 1}
    tree = Node.decide(0, "p0", {a: Node.decide(1, "p1", {b: Node.leaf(leaves[a, b])
                                                           for b in "HT"}) for a in "HT"})
    sol = solve(tree)
    assert abs(sol.value) < 1e-12 and abs(sol.root_policy["H"] - 0.5) < 1e-9
    # one infoset offering different actions is not a game
    bad = Node.decide(0, "p0", {"a": Node.decide(1, "x", {"u": Node.leaf(1)}),
                                "b": Node.decide(1, "x", {"v": Node.leaf(2)})})
    with pytest.raises(ValueError):
        solve(bad)


def self_play_views(predicate, seeds=range(40)):
    """Views met in greedy self-play that satisfy ``predicate``, as
    position lines."""
    found = []

    class Spy(GreedyPlayer):
        def choose(self, view, rng):
            if predicate(view):
                found.append(format_position(view))
            return super().choose(view, rng)

    for seed in seeds:
        play_match(PRESETS["lmodire"], [Spy(), Spy()], seed=seed, max_hands=1)
    return found


def two_each(view) -> bool:
    return (fits(view) and len(view.hands[view.turn]) == 2 and len(view.hands[1 - view.turn]) == 2
            and len({c.index for c in view.hands[view.turn]}) == 2)


def test_ronda_deals_agree_with_the_normal_form():
    """Deals of the second-to-last deal with two cards a hand left, chance
    restricted to four hidden hands (small enough for every pure
    strategy)."""
    lines = self_play_views(two_each)
    assert len(lines) >= 5
    checked = weighed = 0
    for line in lines[:8]:
        pos = parse_position(line)
        full = ViewGame(pos)
        hands = sorted(full.tree.children)[:4]
        vg = ViewGame(pos, hands=hands)
        sol, values = solve_root_moves(vg.tree)
        assert abs(sol.value - brute_force_value(vg.tree)) < 1e-9
        assert abs(sol.value - max(values.values())) < 1e-9
        # the other player's plays this deal read: chance no longer uniform
        evidence = Evidence(pos)
        if not evidence.empty and len(hands) > 1:
            read = ViewGame(pos, hands=hands, evidence=evidence)
            assert read.tree.probs != vg.tree.probs
            sol, values = solve_root_moves(read.tree)
            assert abs(sol.value - brute_force_value(read.tree)) < 1e-9
            assert abs(sol.value - max(values.values())) < 1e-9
            weighed += 1
        checked += 1
    assert checked >= 5 and weighed >= 3


def test_the_revealed_hand_gives_expectimax():
    """With the other hand dealt as it really is (one chance outcome), the
    view game is the perfect-information deal: its value for each play is
    exact expectimax's on the position with both hands known and the stock
    order unknown."""
    from solver.games import match as match_module
    states = []
    real_view = match_module.HandState.view

    def spy_view(self, seat=None):
        states.append(self)
        return real_view(self, seat)

    match_module.HandState.view = spy_view
    try:
        lines = []

        class Grab(GreedyPlayer):
            def choose(self, view, rng):
                hs = states[-1]
                if fits(view) and len({c.index for c in view.hands[view.turn]}) >= 2:
                    full = hs.full_position()
                    full.stock_kind, full.stock = "shuffled", list(full.stock)
                    lines.append((format_position(view), format_position(full),
                                  tuple(sorted(c.index for c in hs.hands[1 - view.turn]))))
                return super().choose(view, rng)

        for seed in range(12):
            play_match(PRESETS["lmodire"], [Grab(), Grab()], seed=seed, max_hands=1)
    finally:
        match_module.HandState.view = real_view
    assert len(lines) >= 10
    for view_line, full_line, hidden in lines[:12]:
        view = parse_position(view_line)
        known = [c.index for c in view.hands[1 - view.turn] if c is not None]
        rest = list(hidden)
        for r in known:
            rest.remove(r)
        vg = ViewGame(view, hands=[tuple(rest)])
        _sol, values = solve_root_moves(vg.tree)
        a = evaluate(parse_position(full_line), method="expectimax")
        base = a.moves[0].value * 2 - max(values.values())
        for mv in a.moves:
            assert abs(2 * mv.value - base - values[mv.rank]) < 1e-9, (view_line, mv)


def test_auto_picks_the_equilibrium_in_the_last_two_deals_and_before_them_with_a_model():
    line = self_play_views(two_each)[0]
    a = evaluate(parse_position(line))
    assert a.method == "equilibrium"
    assert "sequence-form LP" in a.note and a.stderr is None
    assert "the last deal exact" in a.note
    # earlier in the hand too, where a model of the deals to come covers
    # the rules (lmodire): the deal's end valued by it
    early = "1.3.10.12 2.2.7/?.?.? ? S"
    a = evaluate(parse_position(early), samples=40, time_budget=30)
    assert a.method == "equilibrium" and "by the learned model" in a.note
    # voleur (no model of the deals to come): determinised
    voleur = "1.3.10.12 2.2.7/?.?.? ? S rules=french voleur=yes"
    assert evaluate(parse_position(voleur), samples=8, time_budget=5).method == "determinised"


#: a deal of the arena (engine:0.05s v greedy, pair 250-300) whose LP GLOP's
#: presolve called unbounded (status 3); it is bounded (every leaf is finite)
GLOP_PRESOLVE_FAILS = (
    "1e.11c.10b.5o 7c.11e.11b/?.?.? ? S dealer=N score=3,3 taken=13,11 last=S "
    "gone=6e.6o.2b.2e.7o.7b.10c.12e.12o.4e.6c.4c.5c.1b.2o.4o.3e.1o.10e.11o.12c.10o.3b.3c "
    "declared=S:ronda11 hist=1e.11c.10b.5o:-")


def test_a_presolve_failure_falls_back_and_agrees_with_pdlp(monkeypatch):
    root = ViewGame(parse_position(GLOP_PRESOLVE_FAILS)).tree
    monkeypatch.setattr(equilibrium, "LP_ATTEMPTS", (("GLOP", ""),))
    with pytest.raises(RuntimeError, match="GLOP default: 3"):
        equilibrium.solve(root)
    monkeypatch.undo()
    sol, values = equilibrium.solve_root_moves(root)
    # PDLP (a first-order primal-dual method, no presolve shared with GLOP)
    monkeypatch.setattr(equilibrium, "LP_ATTEMPTS", (("PDLP", ""),))
    sol2, values2 = equilibrium.solve_root_moves(root)
    assert sol.value == pytest.approx(sol2.value, abs=1e-5)
    assert values.keys() == values2.keys()
    assert all(values[m] == pytest.approx(values2[m], abs=1e-5) for m in values)
    assert sol.value == pytest.approx(max(values.values()), abs=1e-9)


HP1 = ("2.5 1.6.10/?.?.? ? S rules=pagat taken=14,12 last=S "
       "gone=1.1.2.3.3.4.4.4.5.5.6.10.10.11.11.12.6.6.7.7.1.2.3.12.12.7")


def test_auto_leaves_the_fallback_its_time_when_the_equilibrium_does_not_fit():
    """A new user's pass: at --time 1 the equilibrium of this pagat line
    built its game and LP for 1.1-1.3 s before its first check, so the
    deal search it fell back to had no time left: "exact for 1 of the 63
    hands (2% of their weight)", best 1, 6, 10 at +0.05, and 1.4 s in all.
    The equilibrium now keeps to 60% of the time (its building and the LP
    solver check it); the deal search then covers every hand and gives
    --method deal's answer."""
    pos = parse_position(HP1)
    ref = evaluate(pos, method="deal")
    assert ref.best == ["1", "6"]
    a = evaluate(parse_position(HP1), method="auto", time_budget=1.0)
    if a.method == "equilibrium":       # a fast machine, or the LP built once: 0.6 s
        assert sorted(a.best) == ["1", "6"]     # equal values, in either order
        return
    assert a.method == "deal" and "the time ran out" not in a.note, a.note
    assert {m.move: m.value for m in a.moves} == {m.move: m.value for m in ref.moves}


def test_the_equilibrium_stops_when_its_check_says_the_time_is_up():
    """``check`` is called while the game and the LP are built: a check
    that raises stops them (it is how --time reaches them)."""
    class Up(Exception):
        pass
    calls = []

    def check():
        calls.append(1)
        if len(calls) > 3:
            raise Up
        return 10.0
    with pytest.raises(Up):
        solve(ViewGame(parse_position(HP1), check=check).tree, check=check)
    assert len(calls) == 4
