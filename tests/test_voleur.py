"""Ronda voleur (seed 000 variant; decisions V1-V7, docs/rules.md) on the
compiled core: against the independent reference (``tests/reference.py``)
on hundreds of random small positions, two and four players, known and
shuffled stock; and every decision where the sources are silent pinned on
a hand-checked position."""

from __future__ import annotations

import random

import pytest

from solver.cards import RANKS
from solver.engine.hand import Hand
from solver.rules import PRESETS
from solver.search.compiled import Searcher

from reference import reference_general, reference_value_voleur


def voleur_rules(preset: str):
    return PRESETS[preset].with_overrides({"voleur": "yes"})


def random_voleur(rng: random.Random, players: int, preset: str):
    """A consistent random voleur position, all 40 cards placed: table,
    hands, at most one deal in the stock, the two piles with a top drawn
    from their own cards (most often a rank some hand holds, so that steals
    happen), sometimes a hittable ``prev`` or a ``show`` (the hitter's top
    is then the shown rank)."""
    rules = voleur_rules(preset)
    deck = [r for r in range(10) for _ in range(4)]
    rng.shuffle(deck)
    if preset == "french" and players == 4:
        stock_len = rng.choice([0, 8])
    else:
        stock_len = rng.choice([0, 0, 3 * players])
    k = 1 if players == 4 and stock_len else rng.randint(1, 3 if players == 2 else 2)
    turn = rng.randrange(players) if k > 1 or players == 2 else 0
    hands = []
    for s in range(players):
        size = k - 1 if s < turn else k
        hands.append(deck[:size])
        deck = deck[size:]
    stock, deck = deck[:stock_len], deck[stock_len:]
    n_table = rng.randint(0, 5)
    table = []
    for card in list(deck):
        if len(table) == n_table:
            break
        if rules.table_rule == "distinct" and card in table:
            continue
        table.append(card)
        deck.remove(card)
    cut = rng.randint(1, len(deck) - 1)
    piles = [deck[:cut], deck[cut:]]
    held = {c for h in hands for c in h}
    tops = []
    for pile in piles:
        good = [c for c in pile if c in held]
        if good and rng.random() < 0.7:
            tops.append(rng.choice(good))
        elif rng.random() < 0.8:
            tops.append(rng.choice(pile))
        else:
            tops.append(-1)
    last = rng.choice([0, 1])
    prev = show = None
    played = turn != 0
    if played and rng.random() < 0.5:
        singles = [r for r in set(table) if table.count(r) == 1]
        if singles:
            prev = rng.choice(singles)
    elif played and rng.random() < 0.5 and len(rules.hit) > 1:
        shower = (turn - 1) % players % 2
        ranks = [r for r in set(piles[shower]) if piles[shower].count(r) >= 2
                 and r not in table]
        if ranks:
            r = rng.choice(ranks)
            show = (r, 2)
            tops[shower] = r
            last = shower
    taken = (len(piles[0]), len(piles[1]))
    return rules, table, hands, stock, turn, prev, show, last, taken, tuple(tops)


def engine_state(rules, table, hands, stock, turn, prev, show, last, taken, tops,
                 shuffled=False, track=False):
    """The compiled game and state of a random voleur position; ``track``:
    keep the true piles and tops in every state (a search's states write
    the tops and piles nobody can steal canonically)."""
    players = len(hands)
    game = Hand(rules, players, 0, stock, shuffled, track=track)
    state = game.initial_state(table, hands, turn, -1 if prev is None else prev,
                               0 if show is None else show[0] * 4 + show[1],
                               -1 if last is None else last, taken, tops)
    side = turn % 2
    return game, state, taken[side] - taken[1 - side]


CASES = [(preset, players) for preset in ("french", "lmodire", "pagat") for players in (2, 4)]


@pytest.mark.parametrize("preset,players", CASES)
def test_voleur_engine_equals_reference(preset, players):
    """The compiled alpha-beta equals the independent reference, 60 random
    positions a case (360 in all)."""
    rng = random.Random(f"voleur-{preset}-{players}")
    steals = 0
    for _ in range(60):
        pos = random_voleur(rng, players, preset)
        rules, table, hands, stock, turn, prev, show, last, taken, tops = pos
        game, state, base = engine_state(*pos)
        values = Searcher(game.P, game.D, 8.0).root_values(state)
        _ref, ref_moves = reference_value_voleur(
            rules, [RANKS[r] for r in table], [[RANKS[r] for r in h] for h in hands],
            [RANKS[r] for r in stock], turn, 0,
            prev=None if prev is None else RANKS[prev],
            show=None if show is None else (RANKS[show[0]], show[1]),
            last_side=last, taken=taken,
            tops=tuple(None if t < 0 else RANKS[t] for t in tops))
        got = {RANKS[m]: (v + base) / 2 for m, v in values.items()}
        assert got == ref_moves, pos
        steals += any(t in hands[turn] for t in tops if t >= 0)
    assert steals >= 20        # the positions do exercise steals


def _small_shuffled(seed: str, preset: str, count: int):
    """``count`` random two-player voleur positions with a shuffled stock
    small enough for the plain reference (two cards or fewer to the
    mover): ``(pos, game, state, base)``."""
    rng = random.Random(seed)
    done = 0
    while done < count:
        pos = random_voleur(rng, 2, preset)
        hands, stock, turn = pos[2], pos[3], pos[4]
        if not stock or len(hands[turn]) > 2:
            continue
        yield (pos, *engine_state(*pos, shuffled=True))
        done += 1


def _agrees_with_plain_expectimax(got, pos, base) -> None:
    """The searched root values ``got`` (half-points, less ``base``) are
    the plain reference's expectimax values of ``pos`` (shuffled stock)."""
    rules, table, hands, stock, turn, prev, show, last, taken, tops = pos
    want = reference_general(
        rules, [RANKS[r] for r in table], [[RANKS[r] for r in h] for h in hands],
        [RANKS[r] for r in stock], turn, 0,
        prev=None if prev is None else RANKS[prev],
        show=None if show is None else (RANKS[show[0]], show[1]),
        last_side=last, taken=taken,
        tops=tuple(None if t < 0 else RANKS[t] for t in tops), shuffled=True)
    assert {RANKS[m] for m in got} == set(want)
    for m in got:
        assert abs((got[m] + base) / 2 - want[RANKS[m]]) < 1e-9, pos


@pytest.mark.parametrize("preset", ["french", "lmodire"])
def test_voleur_expectimax_equals_plain_expectimax(preset):
    """Shuffled stock: the Star1 expectimax equals plain expectimax over
    every dealing of the stock's cards, the piles carried across the deal."""
    for pos, game, state, base in _small_shuffled(f"voleur-ex-{preset}", preset, 25):
        got = Searcher(game.P, game.D, 16.0).root_values(state)
        _agrees_with_plain_expectimax(got, pos, base)


# --- the decisions where the sources are silent (docs/rules.md) -------------

def value_of(line: str, method: str = "auto") -> dict[str, float]:
    from solver.analysis.evaluation import evaluate
    from solver.notation import parse_position
    a = evaluate(parse_position(line), method=method)
    return {m.move: m.value for m in a.moves}


def test_v2_the_run_follows_a_stolen_top():
    """V2: N's top 5 counts as a 5 on the table, so S's 5 takes N's pile
    (26 cards) and the run 6 7 of the table. By hand: S's pile 10 + 26 +
    3 = 39, capture 1 and missa 1 (the table 6 7 is emptied); N lays its
    4, S sweeps it (40 cards: 20 points) and scores the last capture 1:
    20 + 1 + 1 + 1 = 23 for S, 0 for N."""
    assert value_of("6.7 5/4 - S rules=french voleur=yes taken=10,26 last=N tops=-,5") \
        == {"5": 23.0}
    # without voleur the 5 takes nothing: it lays, N's 4 lays, N sweeps
    # (last=N): N 26 + 4 = 30 cards, 10 points and the bonus 1
    assert value_of("6.7 5/4 - S rules=french taken=10,26 last=N") == {"5": -11.0}


def test_v3_a_hit_steals_too():
    """V3: N laid a 5 and N's top is a 5: S's 5 hits (takes 5 and the run
    6) and steals N's pile. By hand: S 14 + 23 + 3 = 40 cards (20 points),
    capture 1, hit 1, missa 1, last capture 1: 24."""
    assert value_of("5.6 5/- - S rules=french voleur=yes dealer=S taken=14,23 last=N "
                    "tops=-,5 prev=5") == {"5": 24.0}


def test_v3_an_answer_takes_the_hitters_whole_pile():
    """V3 with answers (lmodire): N hit S's 7 (show=7:2, N's top 7). S's
    7 answers for 5 and takes N's whole pile (18 cards, the 2 shown among
    them), not just the shown pair. By hand: S 20 + 18 + 1 = 39, the 3
    left on the table swept to S: 40 cards, 20 points; 5 + 20 = 25. The
    plain rules: S takes the 2 shown only, 23 + 1 swept = 24 cards (4
    points) against N's 16: 5 + 4 = 9."""
    assert value_of("3 7/- - S voleur=yes dealer=S taken=20,18 last=N tops=1,7 "
                    "show=7:2") == {"7": 25.0}
    assert value_of("3 7/- - S dealer=S taken=20,18 last=N show=7:2") == {"7": 9.0}


def test_v4_a_stolen_pile_never_makes_a_missa():
    """V4: the table is empty; S's 5 steals N's pile (top 5): a capture,
    no missa. By hand: S 19 + 20 + 1 = 40 cards (20 points), capture 1,
    last capture 1 (the sweep of an empty table still scores it): 22."""
    assert value_of("- 5/- - S rules=french voleur=yes dealer=S taken=19,20 last=N "
                    "tops=-,5") == {"5": 22.0}


def test_v6_the_thiefs_top_is_the_played_card():
    """V6: S's 5 steals N's pile (top 5); S's top becomes the 5 and N's
    pile is empty. N's last card, a 5, then steals S's whole pile back. By
    hand: S 17 + 20 + 1 = 38 (capture 1); N takes 38 + its 5 = 39, sweeps
    the 11: 40 cards, 20 points, capture 1, last capture 1. 1 - 22 = -21."""
    assert value_of("11 5/5 - S rules=french voleur=yes taken=17,20 last=N tops=3,5") \
        == {"5": -21.0}


def test_v6_the_robbed_side_keeps_no_top_and_the_old_top_is_covered():
    """V6: after S's 5 steals N's pile, S's old top 3 is under the 5, so
    N's 3 lays. By hand: S 38 cards, capture 1, then sweeps 11 and 3 (last
    capturer): 40 cards, 20 points, last capture 1: 22."""
    assert value_of("11 5/3 - S rules=french voleur=yes taken=17,20 last=N tops=3,5") \
        == {"5": 22.0}


def test_partners_share_one_pile():
    """Four players: S+N share one pile, its top 5. S's 5 does not steal
    from its own side (only opponent piles count) and lays; E's 4 lays
    (SN's top is 5, not 4); N's 3 steals E+W's pile (top 3) and the run 4
    5 of the table, into the shared pile: 15 + 20 + 3 = 38, capture 1;
    W's 2 lays (SN's top is now 3); SN sweeps 12 2: 40 cards, 20 points,
    last capture 1. S+N 22, E+W 0."""
    assert value_of("12 5/4/3/2 - S rules=french voleur=yes taken=15,20 last=E tops=5,3") \
        == {"5": 22.0}


def test_v1_the_sweep_leaves_the_tops():
    """V1: the end-of-hand sweep adds the table to the last capturer's
    pile without changing its top."""
    rules = voleur_rules("french")
    game = Hand(rules, 2, 0, [])
    state = game.initial_state([9, 8], [[0], []], 0, last=1, piles=(10, 27), tops=(2, 4))
    child, _gain, _ev = game.play(state, 0)     # S lays an ace: the hand ends
    assert [game.top(child, k) for k in range(2)] == [2, 4]
    assert [game.pile(child, k) for k in range(2)] == [10, 30]


def test_three_player_voleur_v5_both_piles_on_one_top():
    """V5 through the whole pipeline (the three-player engine answers it).
    S plays 3: no 3 on the table, but E's and N's tops are both 3, so S
    takes both piles (13 + 13) and its own card: 10 + 27 = 37 cards, a
    capture point; the 12 stays (no run: no 4 on the table), no missa. E
    and N lay their 4 and 5; the table (12 4 5) goes to S, the last
    capturer, with the bonus: 40 cards, 20 over 20. S: 1 + 1 + 20 = 22;
    E and N score nothing."""
    from solver.analysis.evaluation import evaluate
    from solver.notation import parse_position
    pos = parse_position("12 3/4/5 - S rules=french voleur=yes taken=10,13,13 last=E "
                         "tops=-,3,3")
    a = evaluate(pos)
    assert list(a.values) == [22, 0, 0]


def test_voleur_runs_on_the_compiled_core():
    """Every method of voleur is the compiled core's: exact alpha-beta of a
    whole known hand, and its value is the reference's where both reach."""
    from solver.analysis.evaluation import evaluate
    from solver.notation import parse_position
    a = evaluate(parse_position("6.7 5/4 - S rules=french voleur=yes taken=10,26 last=N "
                                "tops=-,5"), method="exact")
    assert a.method == "exact" and "pure-Python" not in a.note
    assert a.value == 23.0


def test_voleur_hidden_hand_is_determinised():
    """N's last card is hidden but can only be a 4 (the one card unseen):
    the hand is filled in and searched exactly (``auto``), and a named
    determinised search gives the same value, test_v2's (23)."""
    from solver.analysis.evaluation import evaluate
    from solver.notation import parse_position
    gone = ".".join(["1"] * 4 + ["2"] * 4 + ["3"] * 4 + ["4"] * 3 + ["5"] * 3 + ["6"] * 3
                    + ["7"] * 3 + ["10"] * 4 + ["11"] * 4 + ["12"] * 4)
    pos = parse_position(f"6.7 5/? - S rules=french voleur=yes taken=10,26 last=N "
                         f"gone={gone} tops=-,5")
    a = evaluate(pos, samples=40)
    assert a.method == "exact"
    assert [(m.move, m.value) for m in a.moves] == [("5", 23.0)]
    d = evaluate(pos, method="determinised", samples=40)
    assert d.method == "determinised"
    assert [(m.move, m.value) for m in d.moves] == [("5", 23.0)]


TWELVE_UNSEEN = ("1e.1c.2c.10c.3e.12b.4e 7e.5b.4c/4o.1o.4b ~1b.2e.7c.7o.10e.10o.10b.2b.5o.2o.12o.3o "
                 "S rules=french voleur=yes dealer=N taken=5,10 last=S "
                 "gone=12e.11b.11c.5c.5e.7b.12c.11o.11e.3b.3c.6b.6c.6o.6e tops=5e,6e "
                 "declared=N:ronda4")


def test_voleur_budgets_and_methods():
    """Expectimax by name that cannot finish is a BudgetError; auto runs
    expectimax within 60% of the budget or says why it samples; the
    equilibrium needs a hidden hand (here every hand is known)."""
    from solver.analysis.evaluation import BudgetError, evaluate
    from solver.engine.compile import CompileError
    from solver.notation import parse_position
    pos = parse_position(TWELVE_UNSEEN)
    with pytest.raises(BudgetError, match="expectimax did not finish"):
        evaluate(pos, method="expectimax", time_budget=0.02)
    a = evaluate(pos, time_budget=0.5, samples=40)
    assert a.method in ("expectimax", "determinised")
    if a.method == "determinised":
        assert "expectimax" in a.note
    with pytest.raises(CompileError, match="the equilibrium needs the mover's hand known"):
        evaluate(pos, method="equilibrium")


def _prefetching(game, workers: int = 1) -> Searcher:
    """A searcher whose table is large enough (2^19 entries, over
    kernels.PREFETCH_ENTRIES) that each node hashes its children for the
    prefetch of their buckets and passes the hashes down (a small position's
    table stays under it and never takes that path)."""
    from solver.search import kernels as kn
    s = Searcher(game.P, game.D, 64.0, workers)
    s.TT, s.TF = kn.new_table(1 << 19)
    assert s.TT.shape[0] > kn.PREFETCH_ENTRIES
    s._set_grow()
    return s


@pytest.mark.parametrize("preset", ["french", "lmodire"])
def test_voleur_expectimax_with_the_hashes_passed_down_equals_plain_expectimax(preset):
    """The children's hashes computed by the parent for the prefetch (and a
    chance node's for its next outcomes) are the ones each child's search
    probes and stores with: a large table gives the plain reference's
    values, one thread and two (the helper solving outcomes) bit for bit
    alike."""
    for pos, game, state, base in _small_shuffled(f"voleur-keys-{preset}", preset, 10):
        got = _prefetching(game).root_values(state)
        assert _prefetching(game, 2).root_values(state) == got
        _agrees_with_plain_expectimax(got, pos, base)


def test_voleur12_two_workers_give_one_workers_values_bit_for_bit():
    """bench_systems.py's voleur12 positions (12 unseen, start of deal 4 of
    6): two workers (a helper solving the outcomes of the chance node the
    search is in, one shared table of 2^21 entries) give exactly the values
    of one worker, and so do the points objective's expectimax on the same
    hands."""
    import sys
    from pathlib import Path
    sys.path.insert(0, str(Path(__file__).parent.parent / "bench"))
    from bench_systems import _problem, at_deal
    for rules in (voleur_rules("french"), PRESETS["french"]):
        for seed in (0, 1):
            hs = at_deal(rules, 2, f"v12-{seed}", 4)
            prob = _problem(hs.full_position(), shuffled=True)
            one = Searcher(prob.P, prob.D, 2048.0, 1)
            values = one.root_values(prob.st)
            assert one.stats()["tt_capacity"] == 1 << 21
            two = Searcher(prob.P, prob.D, 2048.0, 2)
            assert two.root_values(prob.st) == values
            assert two.stats()["threads"] == 2


def test_voleur12_two_workers_on_a_table_that_replaces_entries_give_one_workers_values():
    """The searching thread reads the helper's outcomes back from the shared
    table, and searches again those whose entries were lost (or that a
    helper still holds when no claim is left), summing the outcomes in
    order: on a table of 2^15 entries (a voleur12 position stores over a
    million, so entries are replaced all the time) two workers give one
    worker's values on its usual table bit for bit, and the helper solved
    outcomes."""
    import sys
    from pathlib import Path
    from solver.search import kernels as kn
    sys.path.insert(0, str(Path(__file__).parent.parent / "bench"))
    from bench_systems import _problem, at_deal
    hs = at_deal(voleur_rules("french"), 2, "v12-1", 4)
    prob = _problem(hs.full_position(), shuffled=True)
    values = Searcher(prob.P, prob.D, 2048.0, 1).root_values(prob.st)
    two = Searcher(prob.P, prob.D, 2048.0, 2)
    two.TT, two.TF = kn.new_table(1 << 15)
    two.max_entries = 1 << 15
    two._set_grow()
    assert two.root_values(prob.st) == values
    st = two.stats()
    assert st["tt_capacity"] == 1 << 15 and st["tt_replaced"] > 100_000
    assert two.helpers[0][1][kn.C_NODES] > 0


def test_the_ordering_guess_puts_a_pile_the_next_player_can_steal_last():
    """The ordering guess (``K_ORDER``, the search's move order; values
    never depend on it): taking the table's 5 would put a 5 on top of the
    mover's 16 cards while the next player holds a 5, so the two lays come
    first; without that threat the capture comes first (its gain)."""
    from solver.engine import core
    from solver.search import kernels as kn
    rules = voleur_rules("french")
    for threat, order in ((True, [7, 1, 4]), (False, [4, 7, 1])):
        other = [4, 8, 9] if threat else [3, 8, 9]
        game, state, _ = engine_state(rules, [4], [[4, 1, 7], other], [], 0, None, None, 0,
                                      (16, 16), (-1, -1))
        K = kn.new_scratch()
        n = core.gen_children(game.P, game.D, K, 0, state)
        kn.order_children(K, 0, n, -1)
        assert [int(K[0, K[0, core.MAX_MOVES, j], core.K_MOVE]) for j in range(n)] == order


def test_a_three_player_steal_is_worded_as_a_two_player_one():
    """A new user's pass: two and four players wrote a steal ``x5 steals
    22``, three players ``x10 +pile N(9)``. Three players name whose pile
    (two other piles could be stolen): S's 10 takes N's top 10 with N's 9
    cards, S's 6 E's top 6 with E's 10 (taken=10,10,9 in S, E, N order)."""
    from solver.analysis.evaluation import evaluate
    from solver.notation import parse_position
    a = evaluate(parse_position("1.4 2.6.10/3.7.12/5.11.1 - S rules=french voleur=yes "
                                "taken=10,10,9 last=S tops=3,6,10"), method="exact")
    effects = {m.move: m.effect for m in a.moves}
    assert effects["10"] == "x10 steals N's 9 +1 capture"
    assert effects["6"] == "x6 steals E's 10 +1 capture"
    assert effects["2"] == "lays"
