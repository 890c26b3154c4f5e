"""Three players through evaluate and ronda-solve: positions/threep.txt,
the JSON ``values``, ``--search``, and the position-level invariants
(suits and card order never change a vector)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given, settings, strategies as hst

from solver.analysis.evaluation import evaluate
from solver.cards import RANKS
from solver.cli.main import main
from solver.notation import parse_file, parse_position

import reference3 as R

ROOT = Path(__file__).resolve().parent.parent
THREEP = ROOT / "positions" / "threep.txt"


def run(args):
    return CliRunner().invoke(main, args, catch_exceptions=False)


def ref_state(pos) -> R.S:
    """The reference state of a Position with every hand known."""
    def ranks(cards):
        return [c.rank for c in cards]
    return R.S(ranks(pos.table), [ranks(h) for h in pos.hands], ranks(pos.stock), pos.turn,
               pos.leader(), pos.prev.rank if pos.prev else None, None, pos.last,
               list(pos.pile_sizes()), [None] * 3, pos.stock_kind == "shuffled")


def test_threep_positions_agree_with_the_reference():
    """Every line of positions/threep.txt is answered with a vector; the
    lines the plain max^n takes quickly (known stock, one deal to come at
    most) get the reference's vector for every play (the shuffled stock is
    cross-checked on smaller random positions in test_threep.py)."""
    lines = list(parse_file(THREEP.read_text()))
    assert len(lines) == 5
    checked = 0
    for _lineno, pos in lines:
        a = evaluate(pos, samples=40, time_budget=20)
        assert a.values is not None and len(a.values) == 3
        assert a.value == a.values[pos.turn] == a.moves[0].values[pos.turn]
        if a.method != "exact" or len(pos.stock) > 9:
            continue
        ref, _ = R.move_values(pos.rules, ref_state(pos))
        for mv in a.moves:
            assert mv.values == ref[RANKS[mv.rank]]
        checked += 1
    assert checked == 2


def test_json_values_and_search_option():
    """--json: ``values`` (a list per seat) per move and for the position,
    ``value`` the mover's entry; --search paranoid runs paranoid
    alpha-beta; a two-player line notes that --search is ignored."""
    line = "2.3 5.7/4.6/2.12 - S rules=french taken=10,11,11 last=E\n"
    r = CliRunner().invoke(main, ["--json", "-"], input=line)
    assert r.exit_code == 0, r.output
    doc = json.loads(r.stdout)["positions"][0]
    assert doc["method"] == "exact" and len(doc["values"]) == 3
    assert doc["value"] == doc["values"][0]
    assert all(len(m["values"]) == 3 and m["value"] == m["values"][0] for m in doc["moves"])
    r = CliRunner().invoke(main, ["--json", "--search", "paranoid", "-"], input=line)
    assert "paranoid" in json.loads(r.stdout)["positions"][0]["note"]
    two = "5 5/7 - S taken=18,19 last=N gone=1.1.1.1.2.2.2.2.3.3.3.3.4.4.4.4.5.5.6.6.6.6.7.7.7.10.10.10.10.11.11.11.11.12.12.12.12\n"
    r = CliRunner().invoke(main, ["--json", "--search", "paranoid", "-"], input=two)
    assert r.exit_code == 0, r.output
    doc = json.loads(r.stdout)["positions"][0]
    assert "--search paranoid ignored" in doc["note"] and "values" not in doc
    # and said once a run on stderr, not only in --verbose's note (a new
    # user's pass: the option was ignored without a word); three players
    # say nothing
    assert r.stderr == ("note: --search paranoid is for three players; with two sides max^n "
                        "and paranoid are the same minimax\n")
    r = CliRunner().invoke(main, ["--search", "paranoid", "-"], input=two + two + line)
    assert r.stderr.count("note: --search paranoid") == 1
    r = CliRunner().invoke(main, ["--search", "paranoid", "-"], input=line)
    assert "note:" not in r.stderr


def test_paranoid_is_no_better_for_the_mover_than_maxn_is_worse():
    """Paranoid assumes the worst of the other two: each play's paranoid
    value for the mover is at most its max^n value."""
    pos = parse_position("1.5.11 3.5.11/4.6.12/2.10.12 1.1.3.4.5.6.7.10.11 S rules=french "
                         "taken=8,5,6 last=E")
    maxn = evaluate(pos)
    par = evaluate(pos, search="paranoid")
    mx = {m.move: m.value for m in maxn.moves}
    assert all(m.value <= mx[m.move] for m in par.moves)


SUITS = "oceb"


@settings(max_examples=15, deadline=None)
@given(hst.integers(0, 10 ** 6))
def test_suits_and_card_order_never_change_the_vector(seed):
    """The same last-deal position written with suits and in another card
    order has the same vector for every play."""
    rng = random.Random(seed)
    deck = [(r, s) for r in RANKS for s in SUITS]
    rng.shuffle(deck)
    table, hands = deck[:3], [deck[3:5], deck[5:7], deck[7:9]]
    piles = [10, 10, 11]

    def line(suited, shuffle):
        def cards(cs):
            cs = list(cs)
            if shuffle:
                rng.shuffle(cs)
            return ".".join(f"{r}{s}" if suited else str(r) for r, s in cs) or "-"
        return (f"{cards(table)} {'/'.join(cards(h) for h in hands)} - S rules=french "
                f"taken={','.join(map(str, piles))} last=N")
    plain = evaluate(parse_position(line(False, False)))
    other = evaluate(parse_position(line(True, True)))
    assert {m.rank: m.values for m in plain.moves} == {m.rank: m.values for m in other.moves}


GAME3 = ROOT / "positions" / "games" / "french-3p.txt"


def test_annotate_a_three_player_game():
    """positions/games/french-3p.txt (one french hand, S E N) annotated in
    the full view: every evaluated play of the last two deals gets, for
    its mover, the value the plain max^n gives the play made and the best
    value; the summary's points are the record's result."""
    from solver.games.annotate import annotate
    from solver.games.record import Replay, parse_games
    game = parse_games(GAME3.read_text())[0]
    an = annotate(game, view="full", luck_samples=0)
    assert [row["points"] for row in an.summary()] == [12, 7, 10]
    notes = {n.index: n for n in an.notes if not n.forced}
    checked = 0
    for step in Replay(game):
        note = notes.get(step.index)
        if note is None or step.deal < 3:
            continue
        pos = step.state.full_position()
        ref, best = R.move_values(pos.rules, ref_state(pos))
        assert note.value == ref[step.play.card.rank][step.seat]
        assert note.best_value == max(v[step.seat] for v in ref.values())
        checked += 1
    assert checked >= 5


def test_arena_three_players():
    """The arena plays A against two copies of B, A at each seat of one
    deck in turn: three hands a triple, A's margin its points less the B
    seats' mean; two-player rules refuse three players."""
    from solver.games.arena import run_arena
    from solver.rules import PRESETS
    r = run_arena("greedy", "random", pairs=2, rules=PRESETS["french"], players=3, seed=1)
    assert r.hands == 6 and len(r.pair_margins()) == 2
    assert all(abs(m - (a - b)) < 1e-9 for m, a, b in zip(r.margins, r.a_points, r.b_points))
    assert r.pair_margins()[0] == pytest.approx(sum(r.margins[:3]) / 3)
    with pytest.raises(ValueError):
        run_arena("greedy", "random", pairs=1, players=3)


def test_voleur_tops_are_read_from_the_position():
    """Position.tops (voleur, V7; the notation key is parsed elsewhere)
    reaches the three-player search: with E's top a 5 and N's a 3 the
    vectors are the reference's, and differ from the same line without
    tops (nothing to steal)."""
    import dataclasses
    from solver.cards import Card
    from test_threep import VOLEUR
    pos = parse_position("6.7 5.4/3.1/12.2 - S rules=french taken=10,14,8 last=S")
    pos = dataclasses.replace(pos, rules=VOLEUR, tops=(None, Card(5), Card(3)))
    a = evaluate(pos, method="exact")
    s = ref_state(pos)
    s.tops = [None, 5, 3]
    ref, _ = R.move_values(VOLEUR, s)
    assert {RANKS[m.rank]: m.values for m in a.moves} == ref
    plain = evaluate(dataclasses.replace(pos, tops=None), method="exact")
    assert {m.rank: m.values for m in plain.moves} != {m.rank: m.values for m in a.moves}


def test_tie_rule_prefers_hurting_the_opponents():
    """Decision 9, worked by hand: S holds 7 12, E 5 7, N 4 (N led this
    round), the table empty. S's 7 is hit by E's 7 (capture, hit, missa:
    3), E then takes the sweep and the bonus: E 4. S's 12: E lays 5, N
    lays 4, S's last 7 is hit by E (2), E sweeps and takes the bonus: E 3.
    S scores 0 both ways: the tie goes to the lower sum of the others, 12."""
    a = evaluate(parse_position("- 7.12/5.7/4 - S rules=french taken=9,12,14 last=N"))
    assert {m.move: m.values for m in a.moves} == {"12": [0, 3, 0], "7": [0, 4, 0]}
    assert a.best == ["12"] and a.moves[0].move == "12"


def test_play_rotates_three_players_through_every_seat():
    """Three specs: games 3k, 3k+1, 3k+2 deal the same decks with every
    player moved one seat on each time; the rows follow each spec."""
    import dataclasses
    from solver.games.arena import play_games
    from solver.rules import PRESETS
    rules = dataclasses.replace(PRESETS["french"], target=5)
    specs = ["greedy", "random", "mc:2"]
    logs, rows = play_games(specs, games=3, rules=rules, seed=4)
    assert [log.names for log in logs] == [specs, specs[1:] + specs[:1], specs[2:] + specs[:2]]
    assert logs[0].hands[0].table == logs[1].hands[0].table == logs[2].hands[0].table
    assert [r["player"] for r in rows] == specs
    for j, row in enumerate(rows):
        pts = [h.points[(j - i) % 3] for i, log in enumerate(logs) for h in log.hands]
        assert row["points_per_hand"] == pytest.approx(sum(pts) / len(pts))


def test_two_threads_give_one_threads_answer_and_say_so(tmp_path):
    """``--workers 2`` on known-stock three-player lines (exact max^n on
    two threads) prints the same JSON as ``--workers 1`` but for the
    threads it reports and the time; the values agree with the plain
    reference."""
    from solver.engine.compile import is_perfect_information
    lines = [ln for ln in THREEP.read_text().splitlines() if ln and not ln.startswith("#")
             and is_perfect_information(parse_position(ln))]
    f = tmp_path / "known.txt"
    f.write_text("\n".join(lines) + "\n")
    docs = {}
    for w in ("1", "2"):
        r = run([str(f), "--workers", w, "--json"])
        assert r.exit_code == 0, r.output
        docs[w] = json.loads(r.stdout)["positions"]
    assert len(docs["1"]) == len(lines) >= 2
    for one, two in zip(docs["1"], docs["2"]):
        assert one["method"] == two["method"] == "exact"
        assert (one["workers"], two["workers"]) == (1, 2)
        for k in ("seconds", "workers", "nodes"):
            one.pop(k), two.pop(k)
        assert one == two
    checked = 0
    for (_n, pos), doc in zip(parse_file(f.read_text()), docs["2"]):
        if len(pos.stock) > 9:      # the plain reference is too slow there
            continue
        checked += 1
        ref, _ = R.move_values(pos.rules, ref_state(pos))
        assert {m["move"]: m["values"] for m in doc["moves"]} == {str(k): v for k, v in ref.items()}
    assert checked == 2


def test_the_answer_says_its_kind_first_and_writes_like_its_table():
    """A three-player line with score= (the match objective takes two
    sides, so points) says what kind of answer it is before why the
    objective is points; a one-ply answer writes its vector as its table
    does (integers), and the board writes an unknown stock's cards as a
    known one's (spaced)."""
    line = "2.3 5.7/4.6/2.12 - S rules=french taken=10,11,11 last=E score=10,20,30\n"
    out = CliRunner().invoke(main, ["-"], input=line).output
    assert out.index("exact: every card is known") < out.index("points: the match objective")
    known = [ln for ln in THREEP.read_text().splitlines() if "one deal to come" in ln][0]
    r = CliRunner().invoke(main, ["--time", "0.001", "-"], input=known + "\n")
    summary = [ln for ln in r.output.splitlines() if ln.startswith("best ")][0]
    assert "(one ply)" in r.output and "." not in summary.split("(")[1], summary
    shuffled = [ln for ln in THREEP.read_text().splitlines() if "3p shuffled stock" in ln][0]
    board = CliRunner().invoke(main, ["-"], input=shuffled + "\n").output
    assert "9 cards, unknown order: 1 1 3 4 5 6 7 10 11" in board


def test_sampled_paranoid_lists_every_play_of_the_best_paranoid_value():
    """Sampled (determinised) paranoid: plays 1 and 2 have the same mean
    paranoid value over the 200 samples (and the same exact expectation,
    +1.452 by expectimax), so both are best, though the vectors they lead
    to differ in the others' entries (2.775 + 3.605 against 2.8 + 3.6),
    where the max^n tie rule would keep only 1."""
    pos = parse_position("10.10.7.11.10 2.1/3.7/1.6 ~4.6.10.5.12.2.11.1.2 S rules=french "
                         "taken=15,4,1 last=S")
    a = evaluate(pos, method="determinised", samples=200, search="paranoid")
    vals = {mv.move: mv.values for mv in a.moves}
    assert a.best == ["1", "2"]
    assert abs(vals["1"][0] - vals["2"][0]) <= 1e-9
    assert abs(sum(vals["1"][1:]) - sum(vals["2"][1:])) > 1e-3
    exact = evaluate(pos, method="expectimax", search="paranoid")
    assert exact.best == ["1", "2"] and round(exact.value, 3) == 1.452


@pytest.mark.parametrize("line", [
    "1.5.11 3.5.11/4.6.12/2.10.12 1.1.3.4.5.6.7.10.11 S rules=french taken=8,5,6 last=E",
    "5.6 5.7/3.3 - S"])
def test_determinised_with_nothing_hidden_is_the_exact_search(line):
    """Every card known, the stock order too: every determinisation would
    be the position itself, so `--method determinised` answers with its one
    exact search and says so (not "1,000 samples of the stock order")."""
    from solver.analysis.words import summary_line
    pos = parse_position(line)
    a = evaluate(pos, method="determinised")
    exact = evaluate(pos, method="exact")
    assert a.method == "exact" and a.samples is None
    assert "nothing to sample" in a.note and "samples" not in summary_line(a)
    assert {mv.move: (mv.value, mv.values) for mv in a.moves} == \
        {mv.move: (mv.value, mv.values) for mv in exact.moves}
    assert a.best == exact.best


def test_zero_is_written_without_a_sign_in_every_column():
    """The first line of positions/threep.txt is worth 0 to S: the value
    column, the seat columns, the --exact column and the answer line all
    write it ``0`` (the value column wrote ``+0`` beside the seats' ``0``);
    a positive value keeps its ``+`` in the value and the exact columns."""
    lines = THREEP.read_text().splitlines()
    last_deal = next(ln for ln in lines if '"3p last deal"' in ln)
    out = CliRunner().invoke(main, ["--exact", "-"], input=last_deal + "\n").output
    rows = [ln.rstrip() for ln in out.splitlines() if ln[:2] in ("5 ", "7 ")]
    assert rows == ["5    │     0 │ 0 │ 0 │ 2 │     0 │      │ lays",
                    "7    │     0 │ 0 │ 0 │ 2 │     0 │      │ lays"]
    assert "best 5, 7   value 0 points for S (S 0  E 0  N 2)" in out
    shuffled = next(ln for ln in lines if '"3p shuffled stock"' in ln)
    out = CliRunner().invoke(main, ["--exact", "-"], input=shuffled + "\n").output
    row = next(ln.rstrip() for ln in out.splitlines() if ln.startswith("5 "))
    assert row == "5    │ +3.06 │ 3.06 │ 1.35 │ 0.85 │ +257/84 │      │ x5.5 +1 capture"


def test_a_verdict_and_the_hand_points_write_zero_without_a_sign():
    """A line's ``v 0`` checked against a value of 0 says ``(engine: 0)``
    (it said ``+0``), and a person told how a hand ended reads ``N 0``
    beside ``S +3`` (it read ``N +0``)."""
    from types import SimpleNamespace
    from solver.games.human import announce
    last_deal = next(ln for ln in THREEP.read_text().splitlines() if '"3p last deal"' in ln)
    out = CliRunner().invoke(main, ["-"], input=last_deal + " ; v 0\n").output
    assert "v 0: agrees (engine: 0)" in out
    hs = SimpleNamespace(players=2, finished=True, points=[3, 0], score=[13, 20], winner=None)
    event = SimpleNamespace(seat=0, card="7c", effect="lays")
    assert announce(hs, event)[-1] == "== the hand is over: S +3, N 0; score 13-20"


def test_the_paranoid_search_is_said_in_the_answer_and_the_json():
    """A new user's pass: ``--search paranoid`` changed the values and the
    best plays, but no line of the answer said that the other two were
    taken to play against the mover (only ``note`` named it). The short
    line says so, and the JSON's ``search`` names the search."""
    from solver.analysis.words import summary_line
    line = "1.4 2.6.10/3.7.12/5.11.1 - S rules=french taken=10,10,9 last=S\n"
    r = CliRunner().invoke(main, ["--search", "paranoid", "--json", "-"], input=line)
    [doc] = json.loads(r.stdout)["positions"]
    assert r.exit_code == 0 and doc["search"] == "paranoid"
    assert doc["summary"].startswith(
        "exact: every card is known (paranoid: E and N play against S); ")
    r = CliRunner().invoke(main, ["--json", "-"], input=line)
    [doc] = json.loads(r.stdout)["positions"]
    assert doc["search"] == "maxn" and "paranoid" not in doc["summary"]
    from solver.notation import parse_position
    two = evaluate(parse_position("1.4 2.6.10/3.7.12 - S taken=16,16 last=N"), search="paranoid")
    assert "paranoid" not in summary_line(two)      # two sides: alpha-beta, said in note
