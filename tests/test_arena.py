"""Arena and self-play: seat-swapped pairs, confidence intervals,
independence from the number of worker processes."""

from __future__ import annotations

import math

import pytest

from solver.games.arena import mean_ci, play_games, run_arena
from solver.rules import PRESETS


def test_mean_ci_by_hand():
    m, ci = mean_ci([1.0, 2.0, 3.0, 6.0])
    sd = math.sqrt(((1 - 3) ** 2 + (2 - 3) ** 2 + 0 + (6 - 3) ** 2) / 3)
    assert m == 3.0 and ci == pytest.approx(1.959963984540054 * sd / 2)
    assert mean_ci([]) == (None, None) and mean_ci([4.0]) == (4.0, None)


def test_pairs_swap_seats_and_jobs_do_not_change_the_result():
    one = run_arena("greedy", "random", pairs=6, seed="t")
    two = run_arena("greedy", "random", pairs=6, seed="t", jobs=2)
    assert one.margins == two.margins and one.a_points == two.a_points
    assert one.hands == 12 and len(one.pair_margins()) == 6
    assert one.margins == [a - b for a, b in zip(one.a_points, one.b_points)]
    s = one.summary()
    assert s["won"] + s["drawn"] + s["lost"] == 12
    assert s["margin"] == pytest.approx(sum(one.margins) / 12)


def test_a_player_against_itself_is_even_over_pairs():
    """random v random: the margin's interval holds 0 (seat-swapped pairs
    take the deal's luck out)."""
    r = run_arena("random", "random", pairs=60, seed=2).summary()
    assert abs(r["margin"]) <= r["margin_ci95"]


def test_four_players_play_in_partnerships():
    s = run_arena("greedy", "random", pairs=2, players=4, rules=PRESETS["pagat"]).summary()
    assert s["hands"] == 4 and s["players"] == 4
    with pytest.raises(ValueError, match=r"rules: pagat is for 2 or 4 players, not 3 "
                                         r"\(presets for 3 players: french\)"):
        run_arena("greedy", "random", pairs=1, players=3, rules=PRESETS["pagat"])


def test_play_games_swaps_seats_on_the_same_decks():
    logs, rows = play_games(["greedy", "random"], games=2, seed=9)
    assert logs[0].names == ["greedy", "random"] and logs[1].names == ["random", "greedy"]
    assert logs[0].hands[0].table == logs[1].hands[0].table
    assert logs[0].hands[0].deals[0] == logs[1].hands[0].deals[0]
    assert [r["player"] for r in rows] == ["greedy", "random"]
    assert sum(r["won"] for r in rows) == 2
    assert rows[0]["hands"] == sum(len(log.hands) for log in logs)


def test_an_arena_stopped_before_its_first_hand_measures_nothing():
    """Interrupted before any hand (Ctrl-C, SIGTERM), the summary has no
    margin and no interval (None in the JSON, "none finished" in the
    table), not a measured 0 ± 0; one pair gives a margin without an
    interval."""
    from rich.console import Console
    from solver.cli.render_games import arena_table
    from solver.games.arena import ArenaResult
    from solver.rules import PRESETS
    r = ArenaResult("greedy", "random", PRESETS["french"], 3, 0, partial=True)
    s = r.summary()
    assert (s["hands"], s["margin"], s["margin_ci95"], s["a_points"]) == (0, None, None, None)
    con = Console(width=120, record=True)
    con.print(arena_table(s))
    text = con.export_text()
    assert "none finished" in text.split("A's margin per hand", 1)[1].splitlines()[0]
    assert "0.000 ± 0.000" not in text
    two = ArenaResult("greedy", "random", PRESETS["lmodire"], 2, 0, margins=[3.0, -1.0],
                      a_points=[5.0, 2.0], b_points=[2.0, 3.0])
    s2 = two.summary()
    assert (s2["margin"], s2["margin_ci95"]) == (1.0, None)
    # the points too: one pair gives no interval (it gave ± 12.74 over its two
    # hands, where the caption says "over the pairs"); means over the pairs
    assert (s2["a_points"], s2["a_points_ci95"], s2["b_points"], s2["b_points_ci95"]) == (
        3.5, None, 2.5, None)
    four = ArenaResult("greedy", "random", PRESETS["lmodire"], 2, 0, margins=[3.0, -1.0, 0.0, 2.0],
                       a_points=[5.0, 2.0, 1.0, 4.0], b_points=[2.0, 3.0, 1.0, 2.0])
    s4 = four.summary()
    # pairs (5+2)/2 = 3.5 and (1+4)/2 = 2.5: sd 0.7071, half-width 1.96 * 0.7071 / sqrt(2)
    assert s4["a_points"] == 3.0 and s4["a_points_ci95"] == pytest.approx(1.959963984540054 * 0.5)


def test_the_arena_says_why_it_has_no_luck_reduced_margin():
    """Luck asked for where the arena cannot measure it (Ronda voleur, three
    players): no margin less its luck, and a note saying why; none for a
    two-player game without voleur, which has the luck."""
    import dataclasses
    from solver.games.arena import run_arena
    from solver.rules import PRESETS
    french = PRESETS["french"]
    voleur = run_arena("greedy", "random", pairs=1, rules=dataclasses.replace(french, voleur=True),
                       luck_samples=2).summary()
    assert "adjusted" not in voleur and voleur["luck_note"].startswith(
        "no margin less its luck for Ronda voleur")
    three = run_arena("greedy", "random", pairs=1, rules=french, players=3,
                      luck_samples=2).summary()
    assert "adjusted" not in three and "for three players" in three["luck_note"]
    plain = run_arena("greedy", "random", pairs=1, rules=french, luck_samples=2).summary()
    assert "adjusted" in plain and "luck_note" not in plain
    none = run_arena("greedy", "random", pairs=1, rules=dataclasses.replace(french, voleur=True),
                     luck_samples=0).summary()
    assert "luck_note" not in none


def test_a_zero_margin_is_written_without_a_sign():
    """A new user's pass: two equal players' margin read ``+0.000 ±
    0.000`` where every other column writes zero ``0``; a margin of
    -0.0004 reads 0.000 too, and a real margin keeps its sign."""
    from rich.console import Console
    from solver.cli.render_games import arena_table
    from solver.games.arena import ArenaResult
    from solver.rules import PRESETS
    for margins, want in (([0.0, 0.0, 0.0, 0.0], "0.000 ± 0.000"),
                          ([-0.0008, 0.0, 0.0, 0.0], "0.000 ± 0.000"),
                          ([3.0, -1.0, 2.0, 0.0], "+1.000 ± ")):
        r = ArenaResult("greedy", "greedy", PRESETS["french"], 4, 0, margins=margins,
                        a_points=[1.0] * 4, b_points=[1.0] * 4)
        con = Console(width=120, record=True)
        con.print(arena_table(r.summary()))
        row = con.export_text().split("A's margin per hand", 1)[1].splitlines()[0]
        assert row.strip(" │").startswith(want), row
