"""The house rules of issue 11: ``decl_cumulative``, ``missa_last_round``,
``deal_size``, ``table_cards`` and the ``online`` preset.

Each parameter on hand-checked declarations and positions (the expected
values worked out in the comments), the two engines (the compiled core
and tests/reference.py) agreeing on them, the validation, the
notation, a whole ``online`` hand in the arena, and the shipped
``positions/house-rules.txt``. The random cross-checks of the engines with
these rules are in test_core, test_systems and test_properties (their
rule sets come from tests/rulesets.py).
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from click.testing import CliRunner

import reference
from test_puzzles import reference as reference_moves
from solver.analysis.evaluation import choose_method, evaluate
from solver.cards import RANK_INDEX
from solver.cli.main import main
from solver.engine import core
from solver.engine.compile import CompileError
from solver.engine.hand import Hand as Game
from solver.engine.scoring import cardset, declaration_points
from solver.games.match import HandState, deal_hand, play_hand
from solver.notation import NotationError, format_position, parse_position
from solver.games.players import make_player
from solver.rules import PRESETS, RulesError, deal_sizes, stock_sizes

LMODIRE = PRESETS["lmodire"]
PAGAT = PRESETS["pagat"]
FRENCH = PRESETS["french"]
ONLINE = PRESETS["online"]
POSITIONS = Path(__file__).resolve().parent.parent / "positions"


def cumulative(rules):
    return rules.with_overrides({"decl_cumulative": "yes"})


def core_declarations(rules, hands):
    """Side 0 less side 1, points, from the compiled core's declaration_gain."""
    P = Game(rules, len(hands), 0, []).P
    sets = [cardset(RANK_INDEX[c] for c in h) for h in hands] + [0] * (4 - len(hands))
    return core.declaration_gain(P, *sets) / 2


# ------------------------------------------------------------ decl_cumulative

# (rules, hands as printed ranks, points per side): each hand-checked.
DECLARATIONS = [
    # Tringa of 3s over a Ronda of 1s: 5 + 1 = 6 (without: 5).
    (LMODIRE, [[1, 1, 5], [3, 3, 3]], [0, 6], [0, 5]),
    # the higher Ronda (4s) over the lower (1s): 1 + 1 = 2 (without: 1).
    (LMODIRE, [[1, 1, 5], [4, 4, 12]], [0, 2], [0, 1]),
    # a lone declaration: its own value only.
    (LMODIRE, [[1, 1, 5], [2, 4, 12]], [1, 0], [1, 0]),
    # Tringa over Tringa: 5 + 5 = 10.
    (LMODIRE, [[1, 1, 1], [12, 12, 12]], [0, 10], [0, 5]),
    # an exact tie follows declare_tie: nobody (lmodire), half each (pagat).
    (LMODIRE, [[5, 5, 1], [5, 5, 12]], [0, 0], [0, 0]),
    (PAGAT, [[5, 5, 1], [5, 5, 12]], [1, 1], [1, 1]),
    # french: cumulative takes over declare_contested: Ronda over Ronda is
    # 1 + 1 = 2, as contested gives with two players...
    (FRENCH, [[5, 5, 1], [7, 7, 2]], [0, 2], [0, 2]),
    # ...but with four players the best Ronda (12s, S) beats two opposing
    # Rondas (E 3s, W 4s): 1 + 1 + 1 = 3, where contested gives 2.
    (FRENCH, [[12, 12, 1, 2], [3, 3, 5, 6], [7, 10, 11, 5], [4, 4, 6, 7]], [3, 0], [2, 0]),
    # four players: W's Tringa beats S's and N's Rondas: 5 + 1 + 1 = 7; E's
    # Ronda (W's partner) adds nothing.
    (PAGAT, [[2, 2, 6], [4, 4, 7], [3, 3, 10], [5, 5, 5]], [0, 7], [0, 5]),
    # S's Ronda of 12s is the best; E's Ronda of 1s (an opponent) adds 1:
    # 1 + 1 = 2; N's Ronda of 11s (S's partner) adds nothing.
    (PAGAT, [[12, 12, 3], [1, 1, 4], [11, 11, 5], [2, 6, 7]], [2, 0], [1, 0]),
]


@pytest.mark.parametrize("rules,hands,with_it,without", DECLARATIONS)
def test_cumulative_declarations_in_every_engine(rules, hands, with_it, without):
    players = len(hands)
    sides = [s % 2 for s in range(players)]
    idx = [[RANK_INDEX[c] for c in h] for h in hands]
    on = cumulative(rules)
    assert declaration_points(rules, idx, sides) == without
    assert declaration_points(on, idx, sides) == with_it
    assert reference.declaration_points(rules, hands) == without
    assert reference.declaration_points(on, hands) == with_it
    assert core_declarations(on, hands) == with_it[0] - with_it[1]
    assert core_declarations(rules, hands) == without[0] - without[1]


def test_cumulative_declarations_move_the_value_by_the_beaten_hand():
    """The position just before the last deal: S's 12 and N's 11 are laid
    on the 7 (no capture: nothing else can happen), then S is dealt 3 3 3
    and N 1 1 5. The play after the deal is the same with either rule, so
    the values differ by the declarations only: a Tringa alone is 5, with
    decl_cumulative 5 + 1 (N's Ronda) = 6: one point more for S."""
    line = "7 12/11 3.3.3.1.1.5 S taken=16,15 last=S"
    plain = evaluate(parse_position(line)).value
    added = evaluate(parse_position(line + " decl_cumulative=yes")).value
    assert added - plain == 1
    # and the independent reference agrees on both (all 40 cards placed, so
    # both count the real piles)
    for rules, value in ((LMODIRE, plain), (cumulative(LMODIRE), added)):
        got, _moves = reference.reference_value(rules, [7], [[12], [11]], [3, 3, 3, 1, 1, 5],
                                                0, 0, last_side=0, taken=(16, 15))
        assert got == value


# ------------------------------------------------------------ missa_last_round

NO_LAST_ROUND = LMODIRE.with_overrides({"missa_last_round": "no"})


@pytest.mark.parametrize("line,default,without", [
    # the last round: S's 5 takes the 5 (a missa by default: +1), N lays
    # the 12, swept to S: S wins 3 cards (+1.5 of the card count): 2.5
    # with the missa, 1.5 with missa_last_round=no.
    ("5 5/12 - S", 2.5, 1.5),
    # a round earlier the missa counts under both: x5.5 +1 missa, then the
    # 7, 12, 11 are all laid and swept to S: 5 cards, 2.5 + 1 = 3.5.
    ("5 5.7/12.11 - S", 3.5, 3.5),
    # four players: the last round is the final four plays; S's 5 clears
    # the table, E, N, W lay 12, 11, 10, swept to S+N: 5 cards, 2.5, and the
    # missa 1 more by default.
    ("5 5/12/11/10 - S rules=pagat", 3.5, 2.5),
    # the last card of the hand itself: lmodire has no missa there already
    # (missa_on_last_card=no), mod has, unless missa_last_round=no.
    ("5 -/5 - N rules=mod taken=19,19 last=S", 2, 1),
])
def test_missa_in_the_last_round(line, default, without):
    assert evaluate(parse_position(line)).value == default
    assert evaluate(parse_position(line + " missa_last_round=no")).value == without


def test_missa_last_round_in_every_engine():
    """Every play of the last round with missa_last_round=no: no missa bit
    from the core's two plays (two-sided, and general with the piles
    tracked) and the reference; one round earlier it is set."""
    rules = NO_LAST_ROUND
    for track in (False, True):
        # S leads the last deal: 5 7 against 12 11, table 5
        game = Game(rules, 2, 0, [], track=track)
        st = game.initial_state([RANK_INDEX[5]], [[RANK_INDEX[5], RANK_INDEX[7]],
                                                  [RANK_INDEX[12], RANK_INDEX[11]]], 0)
        _c, _g, ev = game.play(st, RANK_INDEX[5])
        assert ev & 16                   # two cards a hand still: it counts
        st1 = game.initial_state([RANK_INDEX[5]], [[RANK_INDEX[5]], [RANK_INDEX[12]]], 0)
        _c, _g, ev = game.play(st1, RANK_INDEX[5])
        assert not ev & 16               # the last round: no missa
    ref = reference.reference_events(rules, [5], None, None, 5, False, is_last_round=True)
    assert not ref["missa"] and ref["points"] == 0
    ref = reference.reference_events(LMODIRE, [5], None, None, 5, False, is_last_round=True)
    assert ref["missa"] and ref["points"] == 1


# ------------------------------------------------------------ deal_size, table_cards

@pytest.mark.parametrize("rules,players,sizes", [
    (ONLINE, 2, (4, 4, 4, 4, 4)),                       # 40 = 5 deals of 2 x 4
    (ONLINE, 4, (4, 4, 2)),                             # 40 = 16 + 16 + 8
    (LMODIRE.with_overrides({"table_cards": "0"}), 2, (3, 3, 3, 3, 3, 3, 2)),   # 36 + 4
    (LMODIRE.with_overrides({"deal_size": "4"}), 2, (4, 4, 4, 4, 2)),   # 36 = 32 + 4
    (FRENCH.with_overrides({"deal_size": "4"}), 3, (4, 4, 4)),          # 36 = 3 x 12
    (FRENCH.with_overrides({"players": "2,4", "table_cards": "0"}), 4, (4, 3, 3)),  # 16+12+12
    (LMODIRE, 2, (3, 3, 3, 3, 3, 3)),
    (FRENCH, 4, (4, 3, 2)),
])
def test_deal_sizes(rules, players, sizes):
    assert deal_sizes(rules, players) == sizes
    assert tuple(reference.deal_sizes(rules, players)) == sizes
    assert sum(sizes) * players == 40 - rules.table_cards


def test_online_stock_sizes():
    # stock size -> the deal it gives next: 32 cards before deal 2, ...
    assert stock_sizes(ONLINE, 2) == {40: 0, 32: 1, 24: 2, 16: 3, 8: 4, 0: 5}
    assert stock_sizes(ONLINE, 4) == {40: 0, 24: 1, 8: 2, 0: 3}


@pytest.mark.parametrize("overrides,message", [
    ({"deal_size": "5"}, "deal_size must be 3 or 4, not 5"),
    ({"table_cards": "2"}, "table_cards must be 4 or 0, not 2"),
])
def test_bad_deal_parameters_are_refused(overrides, message):
    with pytest.raises(RulesError, match=message):
        LMODIRE.with_overrides(overrides)


def test_three_players_cannot_share_40_cards():
    with pytest.raises(RulesError, match="leaves 40 cards to deal, which 3 players cannot "
                                         "share evenly"):
        FRENCH.with_overrides({"table_cards": "0"})
    # the notation names the field; players= first, whatever the order
    with pytest.raises(NotationError, match="table_cards: .*3 players cannot share"):
        parse_position("- 1.2.3/4.5.6 ? S rules=french table_cards=0")
    pos = parse_position("- 1.2.3/4.5.6 ? S rules=french table_cards=0 players=2,4")
    assert pos.rules.table_cards == 0


def test_notation_round_trips_the_house_rules():
    # rules= of the default preset is left out when written back
    pos = parse_position("1.3.5.11 2.2.7/4.6.12 ? S rules=lmodire decl_cumulative=yes")
    assert pos.rules == cumulative(LMODIRE)
    assert format_position(pos) == "1.3.5.11 2.2.7/4.6.12 ? S decl_cumulative=yes"
    assert parse_position(format_position(pos)) == pos
    for line in ["1.3.5.11 2.2.7/4.6.12 ? S decl_cumulative=yes",
                 "1.3.5.11 2.2.7/4.6.12 ? S rules=pagat decl_cumulative=yes",
                 "1.3.5.11 2.2.7/4.6.12 ? S missa_last_round=no",
                 "- 1.2.3.4/5.6.7.10 ? S rules=online",
                 "- 1.2.3.4/5.6.7.10 ? S rules=online decl_cumulative=yes missa_last_round=no"]:
        pos = parse_position(line)
        assert format_position(pos) == line
        assert parse_position(format_position(pos)) == pos
    assert parse_position("- 1.2.3.4/5.6.7.10 ? S rules=online").rules == ONLINE


def test_notation_checks_follow_the_deal_size():
    # online: the first deal gives 4 a player, 32 cards left in the stock
    with pytest.raises(NotationError, match="holds 4 cards but deal 6 of 6 gives 3"):
        parse_position("1.3.6.12 1.2.3.4/5.6.7.10 - S")
    with pytest.raises(NotationError, match="holds 5 cards but deal 5 of 5 gives 4"):
        parse_position("- 1.2.3.4.5/6.7.10.11.12 - S rules=online")
    with pytest.raises(NotationError, match="not a stock between whole deals"):
        parse_position("- 1.2.3.4/5.6.7.10 1.2.3 S rules=online")


def test_an_online_hand_deals_no_table_and_4_cards():
    rng = random.Random(5)
    table, stock = deal_hand(ONLINE, 2, rng)
    assert table == [] and len(stock) == 40
    hs = HandState(ONLINE, 2, 1, table, stock=stock)
    greedy = make_player("greedy")
    rngs = [random.Random(0), random.Random(1)]
    deals = []
    while not hs.finished:
        if hs.awaiting_deal:
            hs.deal()
            deals.append([len(h) for h in hs.hands])
            continue
        hs.play(greedy.choose(hs.view(), rngs[hs.turn]))
    assert deals == [[4, 4]] * 5
    assert sum(len(p) for p in hs.piles) + len(hs.table) == 40


def test_online_in_the_arena():
    """Whole online hands, two and four players, greedy against random,
    through the CLI; and one four-player hand dealt 4, 4, 2 by play_hand."""
    for players in ("2", "4"):
        r = CliRunner().invoke(main, ["arena", "greedy", "random", "--rules", "online",
                                      "--pairs", "1", "--players", players, "--json", "-q"])
        assert r.exit_code == 0, r.output
        assert json.loads(r.output)["hands"] == 2
    table, stock = deal_hand(ONLINE, 4, random.Random(2))
    agents = [make_player("greedy") for _ in range(4)]
    hl = play_hand(ONLINE, 4, 3, table, stock, agents,
                   [random.Random(s) for s in range(4)], score=[0, 0], target=None)
    assert [len(h[0]) for h in hl.deals] == [4, 4, 2]
    assert [len(p) for p in hl.plays] == [16, 16, 8]


def test_the_equilibrium_takes_three_card_deals_only():
    """online, two players, North's hand hidden, one deal to come: auto
    does not pick the equilibrium (the deal search: every hand North may
    hold, the last deal exact); asking for it says why."""
    line = ("2.5 1.6.10.12/?.?.?.? ? S rules=online taken=12,10 last=S "
            "gone=1.1.2.3.3.4.4.4.5.5.6.10.10.11.11.12.6.6.7.7.1.2")
    pos = parse_position(line)
    assert choose_method(pos) == "deal"
    with pytest.raises(CompileError, match="3-card deals with 4 table cards only"):
        evaluate(pos, method="equilibrium")


def test_the_composer_refuses_four_card_deals():
    from solver.puzzles.compose import compose
    with pytest.raises(ValueError, match="rules=online deals 4 cards a player last"):
        next(compose("hit", rules_name="online"))


def test_puzzles_generate_takes_house_rules_with_set(tmp_path):
    """``puzzles generate --set``: french has no answer for 5 (hit=1), so
    its answer5 puzzles are refused; with ``--set hit=1,5`` they are made,
    each line writes ``hit=1,5``, and the plain reference under those rules
    gives the line's best play, value and margin; ``puzzles check`` verifies
    the file. Without ``--set`` the lines are the ones made before it
    existed (the seeds do not change)."""
    out = tmp_path / "p.txt"
    refused = CliRunner().invoke(main, ["puzzles", "generate", "--rules", "french",
                                        "--theme", "answer5", "--count", "1", "-o", "-"])
    assert refused.exit_code == 2
    assert refused.output.strip() == ("error: no answer5 puzzle: rules=french has no answer "
                                      "for 5 (hit=1)")
    r = CliRunner().invoke(main, ["puzzles", "generate", "--rules", "french", "--set", "hit=1,5",
                                  "--theme", "answer5", "--count", "2", "-o", str(out)])
    assert r.exit_code == 0, r.output
    lines = out.read_text().splitlines()
    assert "rules french hit=1,5, 2 players" in lines[0]
    assert len(lines) == 3
    for line in lines[1:]:
        pos = parse_position(line)
        assert " rules=french hit=1,5 " in line and pos.rules.hit == (1, 5)
        moves = reference_moves(line)
        best = max(moves.values())
        ranks = sorted(moves, key=moves.get, reverse=True)
        assert [int(pos.opcode("bm"))] == [m for m in moves if moves[m] == best]
        assert float(pos.opcode("v")) == best
        assert float(pos.opcode("margin")) == best - moves[ranks[1]]
        assert "answer5" in pos.opcode("themes").split()
    check = CliRunner().invoke(main, ["puzzles", "check", str(out)])
    assert check.exit_code == 0 and "2 of 2 lines verified (exact)" in check.output
    # without --set the seeds are those of positions/regenerate_puzzles.sh
    plain = CliRunner().invoke(main, ["puzzles", "generate", "--theme", "hit", "--count", "10",
                                      "--seed", "1", "-o", "-"])
    assert plain.exit_code == 0
    assert plain.stdout == (POSITIONS / "puzzles" / "hit.txt").read_text()


@pytest.mark.parametrize("source", ["mined", "selfplay"])
def test_mined_and_self_played_puzzles_write_their_set(source):
    """Mined and self-played candidates carry ``--set``'s parameters too
    (voleur's lines their pile tops) and read back with those rules."""
    r = CliRunner().invoke(main, ["puzzles", "generate", "--source", source, "--set",
                                  "voleur=yes", "--count", "1", "-o", "-"])
    assert r.exit_code == 0, r.output
    line = [x for x in r.output.splitlines() if " ; bm " in x][0]
    pos = parse_position(line)
    assert " voleur=yes " in line and pos.rules.voleur and pos.tops is not None


@pytest.mark.parametrize("args, message", [
    (["--set", "hit=x"], "error: parameter hit cannot be 'x'"),
    (["--set", "hit"], "error: --set: 'hit' is not NAME=VALUE"),
    (["--set", "players=4"], "error: players=4 (from --set) does not allow 2 players: "
                             "use --players 4 or drop players="),
])
def test_puzzles_generate_set_errors_are_one_line(args, message):
    r = CliRunner().invoke(main, ["puzzles", "generate", *args, "-o", "-"])
    assert r.exit_code == 2 and r.output.strip() == message


@pytest.mark.parametrize("args, message", [
    # four players, a last deal of one card each: no candidate could ever come
    (["--source", "mined", "--rules", "pagat", "--players", "4", "--set", "table_cards=0"],
     "no mined puzzle: the rules deal 1 card a player last with 4 players: a puzzle's mover "
     "holds two ranks or more in the last deal"),
    (["--source", "selfplay", "--rules", "french", "--players", "4", "--set", "deal_size=4"],
     "no self-played puzzle: the rules deal 1 card a player last with 4 players: a puzzle's "
     "mover holds two ranks or more in the last deal"),
    # ... nor does the composer send the user there
    (["--rules", "pagat", "--players", "4", "--set", "table_cards=0"],
     "rules=pagat deals 1 card a player last and 0 to the table: the composer models 3-card "
     "deals after a 4-card table"),
    (["--set", "voleur=yes"], "the composer does not model Ronda voleur's steals "
                              "(--source mined or selfplay instead)"),
    # themes whose play scores nothing under the rules
    (["--theme", "hit", "--set", "hit=0"],
     "no hit puzzle: rules=lmodire: a hit scores nothing (hit=0)"),
    (["--theme", "answer5", "--set", "hit=1,0"],
     "no answer5 puzzle: rules=lmodire has no answer for 5 (hit=1,0)"),
    (["--theme", "missa", "--set", "missa=0"],
     "no missa puzzle: rules=lmodire: the missa scores nothing (missa=0)"),
    (["--rules", "mod", "--theme", "declaration"],
     "no declaration puzzle: rules=mod scores no declaration (ronda=0, tringa=0)"),
])
def test_puzzles_generate_refuses_what_its_rules_cannot_give(args, message):
    """A breaking pass: mined and self-played runs with one card a player
    in the last deal never ended (no candidate, so --max-candidates never
    counted); composed voleur candidates were illegal (show= without
    tops=); hit=0, missa=0 and mod's declarations made puzzles of plays
    scoring +0 or ran through every candidate. One line, exit 2."""
    r = CliRunner().invoke(main, ["puzzles", "generate", *args, "--count", "1",
                                  "--max-candidates", "5", "-o", "-"])
    assert r.exit_code == 2 and r.output.strip() == f"error: {message}"


def test_no_theme_for_a_play_that_scores_nothing():
    """The themes read the rules: the hit of ``1.2 2.4/4 - S ... prev=2``
    is a hit theme, not with ``hit=0,5,10`` (it scores +0 there)."""
    from solver.puzzles.puzzle import examine
    line = "1.2 2.4/4 - S taken=17,18 last=N prev=2"
    assert "hit" in examine(parse_position(line)).themes
    assert "hit" not in examine(parse_position(line + " hit=0,5,10")).themes


def test_puzzles_generate_set_is_read_as_the_rules_read_it():
    """``--set`` in any order or spelling, or at the preset's own value,
    gives the same puzzles and header as the rules it means (the seed and
    the header took the raw text)."""
    def gen(*sets):
        r = CliRunner().invoke(main, ["puzzles", "generate", "--count", "2", "--seed", "1",
                                      "--source", "mined", "-o", "-", *sets])
        assert r.exit_code == 0, r.output
        return r.stdout
    a = gen("--set", "hit=1,5", "--set", "voleur=yes")
    assert a == gen("--set", "voleur=true", "--set", "hit= 1 , 5")
    assert a.splitlines()[0].startswith(
        "# 2 puzzles, theme any, source mined, seed 1, margin 2, rules lmodire hit=1,5 "
        "voleur=yes, 2 players")
    assert gen("--set", "hit=1,5,10") == gen()


def test_the_shipped_house_rule_positions():
    """positions/house-rules.txt solves, and its hand-checked lines give the
    values in their comments."""
    r = CliRunner().invoke(main, ["--json", str(POSITIONS / "house-rules.txt")])
    assert r.exit_code == 0, r.output
    got = {p["position"].split('id "')[1].rstrip('"'): p["value"]
           for p in json.loads(r.output)["positions"]}
    assert got["last round missa counts"] == 2.5
    assert got["no missa in the last round"] == 1.5
    assert got["missa before the last round"] == 3.5
    assert got["no missa in the last round, four players"] == 2.5
    assert got["tringa over ronda, cumulative"] - got["tringa over ronda"] == 1
    # E's side: 5 + 1 + 1 with the rule, 5 without: 2 points more against S
    assert got["cumulative, four players"] - got["tringa over two rondas"] == -2
    assert len(got) == 12


def test_online_deal_outcomes_count_permutations():
    """A chance node dealing online's last deal (4 cards a player from 8):
    the rank-multiset outcomes and their probabilities equal the
    frequencies over every order of the 8 cards; the declarations of each
    outcome are scoring.declaration_points' (cumulative on)."""
    from collections import Counter
    from fractions import Fraction
    from itertools import permutations

    from solver.engine.scoring import ranks_of
    rules = cumulative(ONLINE)
    stock = [0, 0, 0, 1, 1, 2, 5, 9]
    game = Game(rules, 2, 0, stock, shuffled=True)
    chance = (0, 0, 0, 0, 0, 0, -1, 0, -1, cardset(stock), 0)
    outs = game.outcomes(chance)
    freq: Counter = Counter()
    for order in permutations(range(8)):
        freq[tuple(sorted(stock[j] for j in order[:4]))] += 1
    total = sum(freq.values())
    got = {tuple(ranks_of(child[1])): p for p, _g, child in outs}
    assert got.keys() == freq.keys()
    for hand, n in freq.items():
        assert got[hand] == pytest.approx(float(Fraction(n, total)), abs=1e-12)
    # S 1.1.1.x against N 2.2.y.z: Tringa of 1s (5) + Ronda of 2s (1) = 6
    seen = False
    for _p, gain, child in outs:
        hands = [ranks_of(child[1 + s]) for s in (0, 1)]
        decl = declaration_points(rules, hands, [0, 1])
        assert gain == 2 * (decl[0] - decl[1])
        if hands == [[0, 0, 0, 5], [1, 1, 2, 9]]:
            assert decl == [6, 0]
            seen = True
    assert seen


# lmodire deals two players only; french is the one preset with three, and
# pagat, french and online have four (docs/rules.md)
@pytest.mark.parametrize("players, message", [
    (3, "rules: lmodire is for 2 players, not 3 (presets for 3 players: french)"),
    (4, "rules: lmodire is for 2 players, not 4 (presets for 4 players: pagat, french, online)"),
])
def test_a_preset_without_the_players_is_one_message_everywhere(players, message):
    """The composer, the batch commands' rule system (``batch selfplay``,
    ``met``) and the web board's new game say the same line."""
    from solver.games.live import SetupError, Setup
    from solver.puzzles.compose import compose
    with pytest.raises(ValueError) as composed:
        next(compose("hit", rules_name="lmodire", players=players))
    r = CliRunner().invoke(main, ["met", "--rules", "lmodire", "--players", str(players)])
    with pytest.raises(SetupError) as web:
        Setup("lmodire", players, ("human",) + ("3",) * (players - 1)).check_new()
    assert str(composed.value) == message
    assert r.exit_code == 2 and r.output == f"error: {message}\n"
    assert str(web.value) == message


@pytest.mark.parametrize("players, message", [
    (3, "rules: lmodire is for 2 players, not 3 (presets for 3 players: french)"),
    (4, "rules: lmodire is for 2 players, not 4 (presets for 4 players: pagat, french, online)"),
])
def test_the_arena_says_the_preset_line_too(players, message):
    """``arena --players 3`` with a two-player preset says the one line the
    other commands say (it said 'the arena takes 2 or 3 players, or 4 in
    partnerships, that lmodire allows (2)')."""
    from solver.games.arena import run_arena
    with pytest.raises(ValueError) as direct:
        run_arena("greedy", "greedy", pairs=1, players=players)
    r = CliRunner().invoke(main, ["arena", "greedy", "greedy", "--players", str(players),
                                  "--pairs", "1"])
    assert str(direct.value) == message
    assert r.exit_code == 2 and r.output == f"error: {message}\n"
