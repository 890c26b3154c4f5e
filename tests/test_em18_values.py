"""The regression file of exact expectimax at 18 unseen cards
(bench/data/em18.json, written by ``bench/bench_core.py --rows em18 --save``):
its positions are the bench's, its root values follow from its chance-node
values by the upper tree's negamax, and two outcome values of each of the
first two positions solve again to the same values (12 unseen cards each,
a fraction of a second). Re-solving 18 unseen cards is minutes a position:
the bench does that, not the tests."""

from __future__ import annotations

import json
import math
import os
from pathlib import Path

import pytest

from solver.cards import RANKS
from solver.engine.hand import Hand as Game
from solver.games.seeded import seeded_deal
from solver.rules import PRESETS
from solver.search import split as sp
from solver.search.compiled import Searcher, ensure_compiled

DATA = Path(os.environ.get("EM18_VALUES", Path(__file__).parent.parent / "bench/data/em18.json"))
ENTRIES = json.loads(DATA.read_text())["positions"]


def position(entry: dict):
    """The entry's game and core state, from its cards."""
    game = Game(PRESETS["lmodire"], 2, 0, entry["stock"], shuffled=True)
    state = game.initial_state(entry["table"], entry["hands"], 0, last=0)
    return game, state


def test_the_file_holds_the_bench_positions():
    assert len(ENTRIES) >= 1
    for e in ENTRIES:
        unseen, seed = e["unseen"], e["seed"]
        assert len(e["stock"]) == unseen
        d = seeded_deal(f"em{unseen}-{seed}", unseen)        # the bench's deal
        assert (e["table"], e["hands"], e["stock"]) == (d.table, [d.rest[:3], d.rest[3:6]],
                                                        sorted(d.stock))
        _game, st = position(e)
        assert list(st) == e["state"]
        legal = {str(RANKS[r]) for r in set(e["hands"][0])}
        assert set(e["values"]) == legal
        assert all(math.isfinite(v) and abs(v) < 80 for v in e["values"].values())


def test_root_values_follow_from_the_chance_values():
    """The stored root values are the negamax of the upper tree over the
    stored chance-node values (to rounding)."""
    for e in ENTRIES:
        game, st = position(e)
        P, D = game.P, game.D
        tree = sp.split(P, D, st)
        assert len(tree.chance) == len(e["chance"])
        got = sp.root_values(tree, dict(zip(tree.chance, e["chance"])))
        assert {str(RANKS[m]): v for m, v in got.items()}.keys() == e["values"].keys()
        for m, v in got.items():
            assert math.isclose(v, e["values"][str(RANKS[m])], abs_tol=1e-9), (e["seed"], m)


@pytest.mark.parametrize("k", range(min(2, len(ENTRIES))))
def test_stored_outcomes_solve_again(k):
    """The two most probable outcomes of the first chance node of each of
    the first two positions in the file, solved from scratch, have the
    stored values."""
    ensure_compiled()
    e = ENTRIES[k]
    game, st = position(e)
    P, D = game.P, game.D
    cn, (probs, rows) = next(iter(sp.split(P, D, st).chance.items()))
    for i, want in enumerate(e["outcomes"]):
        got = Searcher(P, D, 256.0).value(sp.outcome_child(P, cn, rows, i))
        assert math.isclose(got, want, abs_tol=1e-9), (e["seed"], i, got, want)
