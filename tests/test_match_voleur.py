"""The match objective on Ronda voleur with the shipped ``french+voleur=yes``
table: :func:`evaluate_match` (the compiled search, the stolen piles and
the scores followed together) equals the plain reference of
tests/reference.py, which walks every play with its own awards and reads
the table plainly (:meth:`MatchTable.equity_of`) at each final score."""

from __future__ import annotations

import dataclasses
import random

import pytest

from systems import System, random_position, reference_values
from solver.cards import RANKS
from solver.match_equity.evaluate import evaluate_match, objective_choice
from solver.match_equity.table import load
from solver.notation import parse_position
from solver.rules import PRESETS

VOLEUR = dataclasses.replace(PRESETS["french"], voleur=True)


@pytest.mark.parametrize("players", [2, 4])
def test_voleur_match_chances_equal_the_reference(players):
    system = System(f"match-voleur-french-{players}p", VOLEUR, players, match=True)
    table = load("french+voleur=yes", players)

    def leaf(a, b, d):
        return table.equity_of(a, b, d == 0)

    rng = random.Random(f"voleur-match-{players}")
    for _ in range(6):
        pos = random_position(rng, system)
        ref = reference_values(pos, system, leaf)
        got = evaluate_match(pos, method="exact", points=False, table=table)
        chances = {RANKS[m.rank]: m.chance for m in got.moves}
        assert chances.keys() == ref.keys(), (pos, ref, chances)
        for k in ref:
            assert chances[k] == pytest.approx(ref[k], abs=1e-9), (pos, ref, chances)


def test_a_voleur_line_with_a_score_is_searched_for_the_match():
    """``--objective match`` takes a voleur line (no refusal) once its
    table is shipped; the steal of the 5 wins the match at 48-47 to 51."""
    pos = parse_position("3.10 5.12/10.11 - S rules=french voleur=yes taken=12,22 last=N "
                         "tops=2,5 score=48,47")
    assert objective_choice(pos, "match").objective == "match"
    a = evaluate_match(pos, method="exact", points=False)
    assert a.best == ["5"] and a.chance == 1.0
    assert a.table["rules"] == "french+voleur=yes" and a.table["player"] == "greedy"
