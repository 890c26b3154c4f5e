"""Exact expectimax split at the first chance level (solver.search.split)
and run on a Dask cluster with a resumable store (solver.batch.expectimax):
the same root values as the single-machine search, and, through it, as
plain expectimax (tests/test_core.py checks the search against it)."""

from __future__ import annotations

import json
import math
import random

import pytest

from solver.batch.expectimax import ClusterSearch
from solver.batch.store import Store
from solver.cards import RANKS
from solver.engine.hand import Hand as Game
from solver.rules import PRESETS
from solver.search import split as sp
from solver.search.compiled import Searcher, ensure_compiled
from solver.games.seeded import seeded_deal

from reference import reference_general

ensure_compiled()


def expectimax_root(game, state):
    """Plain expectimax over every dealing (tests/reference.py), in the
    core's half-points, keyed by rank index (the cards gone before the
    deal split evenly between the piles: the core's margin 0)."""
    from solver.engine.scoring import ranks_of
    hands = [[RANKS[r] for r in ranks_of(state[1 + s])] for s in range(game.players)]
    gone = 40 - len(ranks_of(state[0])) - sum(map(len, hands)) - len(game.stock)
    values = reference_general(game.rules, [RANKS[r] for r in ranks_of(state[0])], hands,
                               [RANKS[r] for r in game.stock], state[5], game.leader,
                               last_side=None if state[8] < 0 else state[8], taken=(gone // 2, gone // 2),
                               shuffled=True)
    return {RANKS.index(c): 2 * v for c, v in values.items()}


def start_of_deal(unseen: int, seed: str, preset: str = "lmodire", stock=None):
    """Two players at the start of a deal, hands known, ``unseen`` cards in
    a shuffled stock (``stock`` rank indices, or a seeded deal's)."""
    d = seeded_deal(f"split-{seed}", unseen)
    cards = d.stock if stock is None else stock
    rest = [c for c in d.rest]
    if stock is not None:       # take the hands and table from what is left
        left = [r for r in range(10) for _ in range(4)]
        for c in stock:
            left.remove(c)
        random.Random(seed).shuffle(left)
        table = list(dict.fromkeys(left))[:4]
        for c in table:
            left.remove(c)
        rest = left
        d = d._replace(table=table)
    game = Game(PRESETS[preset], 2, 0, cards, shuffled=True)
    return game, game.initial_state(d.table, [rest[:3], rest[3:6]], 0, last=0)


def split_values(P, D, st, memory_mb: float = 64.0) -> dict[int, float]:
    """Root values from the split, every outcome solved here."""
    tree = sp.split(P, D, st)
    values = {}
    for cn, (probs, rows) in tree.chance.items():
        v = sp.solve_outcomes(P, D, cn, list(range(len(probs))), memory_mb)["values"]
        values[cn] = sp.chance_value(probs, rows, v)
    return sp.root_values(tree, values)


def same(a: dict, b: dict) -> bool:
    return a.keys() == b.keys() and all(math.isclose(a[m], b[m], abs_tol=1e-9) for m in a)


@pytest.mark.parametrize("preset", ["lmodire", "pagat", "french", "mod"])
def test_split_against_plain_expectimax(preset):
    """Six cards to come: the split's root values equal plain expectimax
    (no pruning, no table) over every outcome."""
    for seed in range(3):
        game, state = start_of_deal(6, f"{preset}-{seed}", preset)
        P, D = game.P, game.D
        got = split_values(P, D, state)
        plain = expectimax_root(game, state)
        assert same(got, plain), (preset, seed, got, plain)


def test_split_mid_deal_against_the_search():
    """Roots in the middle of a deal (12 cards to come after it): the
    split's values equal the compiled search's."""
    for seed in range(2):
        game, state = start_of_deal(12, f"mid-{seed}")
        plays = random.Random(seed).randint(1, 4)
        for _ in range(plays):
            state = game.play(state, game.moves(state)[0])[0]
        P, D = game.P, game.D
        st = state
        tree = sp.split(P, D, st)
        assert tree.chance and tree.outcomes() == sum(len(p) for p, _r in tree.chance.values())
        assert same(split_values(P, D, st), Searcher(P, D, 64.0).root_values(st))


def test_chance_value_is_the_weighted_sum():
    """A chance node's value: the probabilities sum to 1 and the value is
    sum p (declarations + child value), here checked with made-up values."""
    game, state = start_of_deal(6, "sum")
    P, D = game.P, game.D
    tree = sp.split(P, D, state)
    probs, rows = next(iter(tree.chance.values()))
    assert math.isclose(float(probs.sum()), 1.0, abs_tol=1e-12)
    vals = [float(i % 3) for i in range(len(probs))]
    want = sum(float(p) * (float(r[0]) + v) for p, r, v in zip(probs, rows, vals))
    assert math.isclose(sp.chance_value(probs, rows, vals), want, abs_tol=1e-12)


#: a stock of three ranks only: few outcomes, so that splitting each
#: outcome child again (two levels) stays small
THREE_RANKS = [0] * 4 + [4] * 4 + [9] * 4
#: five ranks, two of them four times: declarations that differ by deal
FIVE_RANKS = [0] * 4 + [4] * 4 + [1, 2, 7, 7]


@pytest.fixture(scope="module")
def client():
    from solver.batch.run import connect
    c, cluster = connect(None, 2)
    yield c
    c.close()
    cluster.close()


def test_cluster_two_levels_resumes(client, tmp_path):
    """On a LocalCluster of two workers: a 12-card stock split twice (each
    outcome child split again, its own outcomes sent to the workers) gives
    the single-machine values; stopped part-way (Ctrl-C after a few
    batches), the run resumes from the store and gives the same values
    without searching the stored outcomes again."""
    game, state = start_of_deal(12, "two-levels", stock=THREE_RANKS)
    P, D = game.P, game.D
    st = state
    want = Searcher(P, D, 64.0).root_values(st)
    db = tmp_path / "outcomes.db"

    def stop_after_three(progress):
        if progress.tasks >= 3:
            raise KeyboardInterrupt

    store = Store(db)
    first = ClusterSearch(P, D, client, store, leaf_unseen=6, memory_mb=64,
                          progress=stop_after_three)
    with pytest.raises(KeyboardInterrupt):
        first.root_values(st)
    kept = store.stats()["outcomes"]
    assert kept >= 3
    again = ClusterSearch(P, D, client, store, leaf_unseen=6, memory_mb=64)
    got = again.root_values(st)
    assert same(got, want), (got, want)
    assert again.stats.stored >= kept
    assert again.stats.done >= again.stats.total
    # a third run finds every outcome in the store and sends nothing
    third = ClusterSearch(P, D, client, store, leaf_unseen=6, memory_mb=64)
    assert same(third.root_values(st), want)
    assert third.stats.tasks == 0
    store.close()


def test_cluster_one_level_against_the_search(client):
    """Twelve cards to come, outcomes solved on the workers (one level)."""
    game, state = start_of_deal(12, "one-level", stock=THREE_RANKS[:6] + [1, 2, 3, 5, 6, 7])
    P, D = game.P, game.D
    st = state
    cs = ClusterSearch(P, D, client, None, leaf_unseen=12, memory_mb=64)
    assert same(cs.root_values(st), Searcher(P, D, 64.0).root_values(st))
    assert cs.stats.done == cs.stats.total == sp.split(P, D, st).outcomes()


def test_store_keeps_outcomes(tmp_path):
    """The store's outcomes table: written values read back by chance key."""
    s = Store(tmp_path / "a.db")
    s.write_outcomes("k1", {0: 1.5, 3: -2.25})
    s.write_outcomes("k2", {0: 7.0})
    assert s.outcome_values("k1") == {0: 1.5, 3: -2.25}
    assert s.stats()["outcomes"] == 3
    s.close()


def test_chance_keys_name_the_game_and_the_node():
    """The store key of a chance node changes with the rules and the node."""
    game, state = start_of_deal(6, "keys")
    P, D = game.P, game.D
    tree = sp.split(P, D, state)
    cn = next(iter(tree.chance))
    other = Game(PRESETS["pagat"], 2, 0, game.stock, shuffled=True)
    P2, D2 = other.P, other.D
    keys = {sp.chance_key(P, D, cn), sp.chance_key(P2, D2, cn),
            sp.chance_key(P, D, cn[:-1] + (cn[-1] ^ 1,))}
    assert len(keys) == 3


def test_ronda_solve_on_a_local_cluster_resumes(tmp_path):
    """``ronda-solve --method expectimax --cluster 2 --db``: the values of
    the search on this machine; a second run takes every outcome from the
    store (no node searched)."""
    from click.testing import CliRunner
    from solver.cli.main import main
    line = tmp_path / "p.txt"
    line.write_text("1.3.5.10 2.2.7/4.11.12 ~1.1.3.4.5.6 S dealer=N taken=8,16 last=N\n")
    db = tmp_path / "o.db"
    # --time generous: starting a local cluster on a loaded machine takes
    # seconds of the default 10
    local = CliRunner().invoke(main, [str(line), "--method", "expectimax", "--json",
                                      "--time", "120"])
    args = [str(line), "--method", "expectimax", "--json", "--time", "120", "--cluster", "2",
            "--db", str(db)]
    first = CliRunner().invoke(main, args)
    second = CliRunner().invoke(main, args)
    docs = [json.loads(r.stdout)["positions"][0] for r in (local, first, second)]
    for d in docs[1:]:
        assert [(m["move"], m["value"]) for m in d["moves"]] == \
            [(m["move"], m["value"]) for m in docs[0]["moves"]]
        assert d["pv"] == docs[0]["pv"]
    assert docs[1]["cluster"]["done"] == docs[1]["cluster"]["outcomes"] > 0
    assert docs[2]["cluster"]["stored"] == docs[2]["cluster"]["outcomes"]
    assert docs[2]["nodes"] == 0


@pytest.mark.parametrize("args,message", [
    (["--cluster", "2"], "give --method expectimax"),
    (["--method", "expectimax", "--db", "x.db"], "--db keeps a cluster search"),
    (["--method", "expectimax", "--cluster", "2", "--scheduler", "tcp://h:1"],
     "cannot be given together"),
])
def test_cluster_options_refused_clearly(tmp_path, args, message):
    from click.testing import CliRunner
    from solver.cli.main import main
    line = tmp_path / "p.txt"
    line.write_text("1.3.5.10 2.2.7/4.11.12 ~1.1.3.4.5.6 S dealer=N taken=8,16 last=N\n")
    r = CliRunner().invoke(main, [str(line), *args])
    assert r.exit_code == 2 and message in r.output


def test_fast_mode_estimates_within_its_standard_errors():
    """The fast mode (the next deal drawn, later deals exact) against exact
    expectimax: every value within four standard errors, with few draws on
    a 12-card stock, and with many draws of a last deal's few outcomes
    (where a wrong weighting of the draws would show: the standard error
    is then a few hundredths of a point)."""
    cases = [(12, f"fast-{seed}", FIVE_RANKS, 300) for seed in range(2)]
    cases += [(6, f"fast6-{seed}", None, 20000) for seed in range(6)]
    for unseen, seed, stock, draws in cases:
        game, state = start_of_deal(unseen, seed, stock=stock)
        P, D = game.P, game.D
        st = state
        exact = Searcher(P, D, 64.0).root_values(st)
        values, stderr, solved, nodes = sp.sampled_root_values(P, D, st, draws, seed=1)
        assert values.keys() == exact.keys() and solved > 0 and nodes > 0
        for m in exact:
            assert abs(values[m] - exact[m]) <= 4 * stderr[m] + 1e-9, (seed, m)
        if unseen == 6:
            assert max(stderr.values()) < 0.1


def test_fast_mode_is_labelled():
    """ronda-solve --fast: method expectimax-fast, a standard error on every
    value, and the note says it is approximate and what the bench measured."""
    from click.testing import CliRunner
    from solver.cli.main import main
    r = CliRunner().invoke(main, ["-", "--method", "expectimax", "--fast", "50", "--json"],
                           input="1.3.5.10 2.2.7/4.11.12 ~1.1.3.4.5.6 S dealer=N taken=8,16 "
                                 "last=N\n")
    doc = json.loads(r.stdout)["positions"][0]
    assert doc["method"] == "expectimax-fast"
    assert "FAST MODE, approximate" in doc["note"] and "off by at most" in doc["note"]
    assert all(m["stderr"] is not None for m in doc["moves"])
    r = CliRunner().invoke(main, ["-", "--fast", "50"], input="x\n")
    assert r.exit_code == 2 and "give --method expectimax" in r.output
    # --time is a promise: 18 cards to come do not fit in a tenth of a second
    line = "7.11.12.3 1.2.5/4.6.6 ~1.1.2.2.3.3.4.5.5.7.7.10.10.11.11.12.12.6 S taken=6,6 last=N\n"
    r = CliRunner().invoke(main, ["-", "--method", "expectimax", "--fast", "100", "--time",
                                  "0.1"], input=line)
    assert r.exit_code == 1 and "expectimax did not finish" in r.output


def test_two_threads_sharing_outcomes_agree_with_one():
    """The helper thread (solver.search.parallel) solving the outcomes of
    the chance node the search is in: the same root values as one thread,
    twice over (a torn table entry or a wrong board would show)."""
    for seed in range(3):
        game, state = start_of_deal(12, f"helper-{seed}")
        P, D = game.P, game.D
        st = state
        one = Searcher(P, D, 64.0).root_values(st)
        for _ in range(2):
            two = Searcher(P, D, 64.0, 2)
            assert two.split == "outcomes"
            assert same(two.root_values(st), one)
            assert two.stats()["threads"] == 2
