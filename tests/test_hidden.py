"""Declaration puzzles from the mover's seat (solver/analysis/hidden.py): what is
shown, which hidden hands are consistent with the declarations, and the
answer holding over them (by expectation, with the margin)."""

from __future__ import annotations

from math import comb
from pathlib import Path

from solver.cards import RANK_INDEX, RANKS, parse_card
from solver.analysis.hidden import consistent_hands, hides_cards, mover_view, robust
from solver.notation import parse_file, parse_position
from solver.puzzles.puzzle import DEFAULT_MARGIN, check

from test_puzzles import reference

R = RANK_INDEX
ROOT = Path(__file__).resolve().parent.parent
# N declared a Ronda of 11s: its third card is hidden from S
DECL = "4.6.10 1.3.7/7.11.11 - S taken=16,15 last=S declared=N:ronda11"


def test_the_view_shows_the_declared_pair_only():
    pos = parse_position(DECL)
    view = mover_view(pos)
    assert [str(c) for c in view.hands[0]] == ["1", "3", "7"]
    assert [None if c is None else c.rank for c in view.hands[1]] == [11, 11, None]


def test_consistent_hands_and_their_weights():
    pos = parse_position(DECL)
    hands = dict((tuple(h), w) for h, w in consistent_hands(pos))
    # unseen: 4 of each rank less the table (4 6 10), S's hand (1 7) and the
    # two 11s shown; the third card is no 11 (that would be a Tringa)
    unseen = {r: 4 for r in (1, 2, 3, 4, 5, 6, 7, 10, 11, 12)}
    for r in (4, 6, 10, 1, 3, 7, 11, 11):
        unseen[r] -= 1
    want = {tuple(sorted([R[11], R[11], R[r]])): comb(n, 1)
            for r, n in unseen.items() if r != 11 and n}
    assert hands == want
    assert (R[7], R[11], R[11]) in hands            # the real hand is one of them


def test_no_declaration_means_no_pair():
    pos = parse_position("4.6.10 1.7.7/3.11.12 - S taken=16,15 last=S declared=S:ronda7")
    for hand, _w in consistent_hands(pos):
        assert len(set(hand)) == 3


def test_robust_matches_the_reference_for_every_hand():
    pos = parse_position(DECL)
    rob = robust(pos, R[7])
    total = sum(w for _h, w in consistent_hands(pos))
    expect: dict[int, float] = {}
    for hand, w in consistent_hands(pos):
        cards = ".".join(str(RANKS[r]) for r in hand)
        vals = reference(f"4.6.10 1.3.7/{cards} - S taken=16,15 last=S")
        for rank, v in vals.items():
            expect[R[rank]] = expect.get(R[rank], 0.0) + w * v / total
    # robust's averages leave out the piles' margin (16 - 15: half a point)
    assert rob.values.keys() == expect.keys()
    for m in expect:
        assert abs(rob.values[m] + 0.5 - expect[m]) < 1e-9
    others = max(v for m, v in expect.items() if m != R[7])
    assert abs(rob.margin - (expect[R[7]] - others)) < 1e-9


def test_shipped_declaration_puzzles_hide_the_hand_and_hold():
    n = 0
    for f in sorted((ROOT / "positions" / "puzzles").glob("*.txt")):
        for _line, pos in parse_file(f.read_text()):
            if not hides_cards(pos):
                continue
            n += 1
            view = mover_view(pos)
            other = 1 - pos.turn
            shown = [c for c in view.hands[other] if c is not None]
            # the declared cards still held (those played this deal were seen)
            declared = [(2 if d.kind == "ronda" else 3, d.rank) for d in pos.declared
                        if d.seat == other and d.rank is not None]
            assert len(view.hands[other]) == len(pos.hands[other])
            assert len(shown) == sum(min(k, sum(c.rank == r for c in pos.hands[other]))
                                     for k, r in declared)
            rob = robust(pos, parse_card(pos.opcode("bm")).index)
            assert rob.hands > 0 and rob.holds(DEFAULT_MARGIN), (pos.opcode("id"), rob)
            assert check(pos) == []
    assert n >= 10


GONE_33 = "gone=1.1.1.2.2.2.3.3.3.3.4.4.4.4.5.5.5.5.6.6.6.6.10.10.10.10.11.11.11.11.12.12.12"


def test_hidden_cards_the_cards_seen_force_are_searched_exactly():
    """N's two hidden cards are the two cards not seen (the stock empty):
    the answer is the exact one of the line with N's hand written, not an
    estimate from samples; the forced hand is filled only where no other
    deal of the unseen cards exists."""
    from solver.analysis.evaluation import evaluate
    from solver.engine.compile import forced_hands
    hidden = parse_position(f"1.7 7.7.2/?.? - S prev=7 taken=15,18 last=N {GONE_33}")
    shown = parse_position(f"1.7 7.7.2/7.12 - S prev=7 taken=15,18 last=N {GONE_33}")
    a, b = evaluate(hidden, time_budget=5.0), evaluate(shown, time_budget=5.0)
    assert a.method == b.method == "exact" and a.samples is None
    assert [(m.move, m.value) for m in a.moves] == [(m.move, m.value) for m in b.moves] \
        == [("7", 4.0), ("2", 0.0)]
    assert ("the hidden cards are forced: the cards seen (the stock's included) leave them "
            "no other") in a.note
    assert sorted(c.rank for c in forced_hands(hidden).hands[1]) == [7, 12]
    # a stock written "?" (its cards not listed) is left to the sampling
    assert forced_hands(parse_position(
        f"1.7 7.7.2/?.? ? S prev=7 taken=15,18 last=N {GONE_33}")) is None


#: positions/puzzles/declaration.txt's first puzzle: N declared a Ronda
#: of 1s, its third card (a 2) hidden from S
HIDDEN = "4.7.10 1.12.12/1.1.2 - S taken=13,18 last=S declared=S:ronda12,N:ronda1"


def test_the_trainer_and_the_quiz_judge_over_the_hands_not_seen(tmp_path):
    """A puzzle drawn from the mover's seat is judged, and its plays are
    tabled, by each play's points averaged over the hands the mover cannot
    tell apart: here the plain reference search on each hand N may hold,
    weighted by its draws (positions/puzzles/declaration.txt's first
    puzzle: 1 averages -2.65, 12 -5; with N's hand seen 1 is -1). The web trainer's answer gives those averages
    (``view`` mover; it gave the values with N's hand seen), the quiz
    prints them, and a ``bm`` naming another play is warned of."""
    from click.testing import CliRunner
    from solver.cli.main import main
    from solver.puzzles.puzzle import answer_ranks
    from solver.web.tasks import answer_puzzle
    pos = parse_position(HIDDEN)
    sums: dict[int, float] = {}
    total = 0
    for hand, weight in consistent_hands(pos):
        line = HIDDEN.replace("/1.1.2", "/" + ".".join(str(RANKS[r]) for r in hand))
        for rank, value in reference(line).items():
            sums[rank] = sums.get(rank, 0.0) + weight * value
        total += weight
    want = {rank: s / total for rank, s in sums.items()}
    top = max(want.values())
    best = [r for r, v in want.items() if v == top]
    assert len(best) == 1 and sorted(want) == [1, 12], want
    other = next(r for r in want if r != best[0])
    line = HIDDEN + f" ; bm {best[0]} ; themes declaration"
    assert answer_ranks(parse_position(line)) == ({best[0]}, None)
    doc = answer_puzzle(line, str(other))
    assert doc["view"] == "mover" and doc["right"] is False and doc["best"] == str(best[0])
    got = {int(m["move"]): (m["value"], m["loss"], m["best"]) for m in doc["moves"]}
    assert got.keys() == want.keys()
    for rank, (value, loss, is_best) in got.items():
        assert abs(value - want[rank]) < 1e-6 and abs(loss - (top - want[rank])) < 1e-6
        assert is_best == (rank == best[0])
    assert abs(doc["value"] - top) < 1e-6
    wrong = HIDDEN + f" ; bm {other} ; themes declaration"
    ranks, warning = answer_ranks(parse_position(wrong))
    assert ranks == {best[0]} and warning.startswith(
        f"the line's bm ({other}) is not the best play over the hands you cannot see")
    f = tmp_path / "hidden.txt"
    f.write_text(line + "\n")
    r = CliRunner().invoke(main, ["puzzles", "quiz", str(f)], input=f"{other}\n")
    assert f"not {other}: the answer is {best[0]}" in r.output
    assert f"{want[other]:+.2f}" in r.output and "averaged over the hands you cannot" in r.output


def test_a_hidden_puzzles_explanation_says_it_sees_every_card(tmp_path):
    """The explanation (``c``) plays its lines with N's hand seen ("Next
    best 12 (-5, 4 less)"), beside a table averaged over the hands S cannot
    see (12 loses 2.35): the trainer, the quiz and the sheet say so first.
    A puzzle with every card shown keeps its explanation as it is."""
    from click.testing import CliRunner
    from solver.cli.main import main
    from solver.web.tasks import answer_puzzle
    shipped = (ROOT / "positions" / "puzzles" / "declaration.txt").read_text().splitlines()[1]
    c = parse_position(shipped).opcode("c")
    assert "Next best 12 (-5, 4 less)" in c
    doc = answer_puzzle(shipped, "12")
    assert doc["explanation"] == "With every card seen: " + c
    f = tmp_path / "d.txt"
    f.write_text(shipped + "\n")
    r = CliRunner().invoke(main, ["puzzles", "quiz", str(f)], input="12\n")
    assert "With every card seen: " in r.output
    sheet = tmp_path / "s.html"
    r = CliRunner().invoke(main, ["puzzles", "sheet", str(f), "-o", str(sheet)])
    assert r.exit_code == 0 and "With every card seen: " in sheet.read_text()
    hit = (ROOT / "positions" / "puzzles" / "hit.txt").read_text().splitlines()[1]
    plain = parse_position(hit)
    assert answer_puzzle(hit, plain.opcode("bm"))["explanation"] == plain.opcode("c")


def test_declared_cards_played_this_deal_are_no_longer_shown():
    """A declaration is of the hand as dealt; the declared cards a seat has
    played since were seen. With a Ronda of 4s and one card left (a 4),
    the hand is that 4: the view showed both 4s in a one-card hand and no
    hand was consistent (an answer checked over none). With two cards
    left, one a 4: the 4 and one card of another rank, each weighted by
    its unseen copies (N holds 4 12 5, the table 3 2, two 4s declared)."""
    one = parse_position("3o.2e 4e/4o.12b - N taken=13,22 last=S declared=S:ronda4 prev=2e")
    assert [c.rank for c in mover_view(one).hands[0]] == [4]
    assert list(consistent_hands(one)) == [([R[4]], 1)]
    two = parse_position("3o.2e 4e.7c/4o.12b.5c - N taken=13,20 last=S declared=S:ronda4")
    assert [None if c is None else c.rank for c in mover_view(two).hands[0]] == [4, None]
    unseen = {r: 4 for r in (1, 2, 3, 5, 6, 7, 10, 11, 12)}
    for r in (3, 2, 12, 5):
        unseen[r] -= 1
    want = {tuple(sorted([R[4], R[r]])): n for r, n in unseen.items()}
    assert dict((tuple(h), w) for h, w in consistent_hands(two)) == want
    assert (R[4], R[7]) in want                 # the real hand


def test_hands_with_a_declared_card_on_the_table_a_rankless_or_a_hidden_declaration():
    """Three lines a helper found: N's declared 4 just played onto the
    table was counted off twice, which cut every hand above a 4 (the real
    one, 4 12, among them); ``declared=N:ronda`` (no rank) kept only
    hands without a pair; N's hand written ``11.?.?`` showed one 11, as if
    N had played the other. Hands and weights worked out by hand."""
    neg = parse_position("1.3.4o 4b.4c.10/4e.12 - S dealer=S taken=16,16 last=S "
                         "declared=S:ronda4,N:ronda4 prev=4o")
    # every 4 seen (table, S's two, N's); the other ranks less table and S's
    left = {1: 3, 2: 4, 3: 3, 5: 4, 6: 4, 7: 4, 10: 3, 11: 4, 12: 4}
    assert dict((tuple(h), w) for h, w in consistent_hands(neg)) == {
        tuple(sorted([R[4], R[r]])): n for r, n in left.items()}
    rankless = parse_position("4.6.10 1.3.7/7.11.11 - S taken=16,15 last=S declared=N:ronda")
    hands = dict((tuple(h), w) for h, w in consistent_hands(rankless))
    assert (R[7], R[11], R[11]) in hands and all(len(set(h)) == 2 for h in hands)
    # a pair of 11s and a 7: C(4,2) 11s (none seen) times the 7s S does not hold
    assert hands[(R[7], R[11], R[11])] == comb(4, 2) * 3
    hidden = parse_position("4.6.10 1.3.7/11.?.? - S taken=16,15 last=S gone=1.1.1.2.2.2.2."
                            "3.3.3.4.4.4.5.5.5.5.6.6.6.7.7.10.10.10.11.11.12.12.12.12 "
                            "declared=N:ronda11")
    assert [None if c is None else c.rank for c in mover_view(hidden).hands[1]] == [11, 11, None]
    assert all(h.count(R[11]) == 2 for h, _w in consistent_hands(hidden))


def test_the_captured_cards_written_are_not_hidden_cards():
    """A new user's pass: a mined declaration puzzle late in its hand wrote
    gone= with 31 cards, so the mover can count N's last hidden card, yet
    its margin was averaged over hands holding captured cards. Counted by
    hand: table 4 6 10, S 1 3 7, N 7 11 11 (a Ronda of 11s declared), 31
    cards captured. Without gone= N's hidden card is any rank but 11
    (9 ranks, 30 cards: weights 3 4 3 3 4 3 3 3 4); with it, the one 7
    left."""
    from solver.analysis.hidden import consistent_hands
    from solver.cards import RANK_INDEX
    line = "4.6.10 1.3.7/7.11.11 - S taken=16,15 last=S declared=N:ronda11"
    gone = "1.1.1.2.2.2.2.3.3.3.4.4.4.5.5.5.5.6.6.6.7.7.10.10.10.11.11.12.12.12.12"
    assert len(gone.split(".")) == 31
    without = list(consistent_hands(parse_position(line)))
    assert sorted(w for _, w in without) == sorted([3, 4, 3, 3, 4, 3, 3, 3, 4])
    assert sum(w for _, w in without) == 30
    r7, r11 = RANK_INDEX[7], RANK_INDEX[11]
    assert list(consistent_hands(parse_position(f"{line} gone={gone}"))) == [
        (sorted([r7, r11, r11]), 1)]
