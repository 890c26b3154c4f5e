"""Ronda voleur in whole games: self-play (HandState) moves stolen piles,
a voleur record replays (its Rules tag carries voleur=yes), annotate runs
it (the full view of its last deal against tests/reference.py), the arena
plays it with two and four players, greedy takes a pile, and
positions/voleur.txt is answered."""

from __future__ import annotations

from pathlib import Path

import pytest

from solver.cards import Card, parse_card
from solver.games.match import HandState
from solver.notation import parse_position, format_position, parse_file
from solver.games.record import RecordError, check, loads
from solver.rules import PRESETS

from reference import reference_value_voleur

ROOT = Path(__file__).resolve().parent.parent
RECORD = ROOT / "positions" / "games" / "voleur-short.txt"
FRENCH_V = PRESETS["french"].with_overrides({"voleur": "yes"})


def cards(text: str) -> list[Card]:
    return [parse_card(t) for t in text.split(".")]


def test_handstate_moves_a_stolen_pile_with_the_played_card_on_top():
    """S's 1e takes the 1o of the table (S's pile 1o 1e, top 1e); N's 1b
    matches S's top and steals the pile, 1b on top: N's pile 1o 1e 1b, S's
    empty; the view shows tops=-,1b and taken=0,3."""
    hs = HandState(FRENCH_V, 2, 1, cards("1o.11c.12e.7b"),
                   stock=cards("1e.6b.2c.1b.5o.3e") + cards(
                       "1c.2b.2o.2e.3b.3c.3o.4b.4c.4e.4o.5b.5c.5e.6c.6e.6o.7c.7e.7o."
                       "10b.10c.10e.10o.11b.11e.11o.12b.12c.12o"))
    hs.deal()
    hs.play(Card(1, "e"))           # S takes 1o: S's pile 1o 1e, top 1e
    hs.play(Card(1, "b"))           # N steals it: 1o 1e 1b, top 1b
    assert hs.piles == [[], [Card(1, "o"), Card(1, "e"), Card(1, "b")]]
    view = hs.view()
    assert view.tops == (None, Card(1, "b")) and view.taken == (0, 3)
    assert "tops=-,1b" in format_position(view)
    # hist= carries the tops and piles at the deal's start: the steal replays
    assert view.hist.tops == (None, None) and view.hist.piles == (0, 0)
    assert "hist=1o.11c.12e.7b:S1e,N1b:-,-:0,0" in format_position(view)
    assert parse_position(format_position(view)).hist == view.hist


def test_the_voleur_record_replays_and_needs_its_rules_tag():
    game = loads(RECORD.read_text())
    assert game.rules.voleur
    replay = check(game)
    steals = [e for e in replay.events if "and a pile of" in e.effect]
    assert len(steals) >= 3
    # every card ends in a pile: 40 a hand
    assert sum(len(p) for p in replay.states[-1].piles) == 40
    plain = RECORD.read_text().replace('"french voleur=yes"', '"french"')
    with pytest.raises(RecordError, match="the plays give"):
        loads(plain)


def test_annotate_a_voleur_game_and_its_last_deal_against_the_reference():
    """The full view of the last deal (stock empty: exact) gives each play
    the value the independent reference gives it."""
    from solver.games.annotate import annotate
    from solver.games.record import Replay
    game = loads(RECORD.read_text())
    ann = annotate(game, view="full", samples=4, luck_samples=8)
    notes = ann.notes
    assert len(notes) == 36
    positions = {}
    for step in Replay(loads(RECORD.read_text())):
        if step.deal == 6:
            positions[step.index] = step.state.full_position()
    checked = 0
    for note in notes:
        if note.index not in positions or note.forced:
            continue
        pos = positions[note.index]
        ref_value, ref_moves = reference_value_voleur(
            pos.rules, [c.rank for c in pos.table], [[c.rank for c in h] for h in pos.hands],
            [], pos.turn, pos.leader(), prev=pos.prev.rank if pos.prev else None,
            show=None if pos.show is None else (pos.show.rank, pos.show.size),
            last_side=None if pos.last is None else pos.last % 2, taken=pos.taken,
            tops=tuple(None if t is None else t.rank for t in pos.tops))
        # the reference counts each side's cards over 20 in the final
        # piles; the engine the piles' margin: the same with all 40 placed
        assert note.value == pytest.approx(ref_moves[parse_card(note.card).rank])
        assert note.best_value == pytest.approx(ref_value)
        checked += 1
    assert checked >= 2


@pytest.mark.parametrize("players", [2, 4])
def test_arena_plays_voleur(players):
    from solver.games.arena import run_arena
    r = run_arena("greedy", "mc:3", pairs=1, rules=FRENCH_V, players=players, seed=1)
    assert len(r.margins) == 2
    for m, a, b in zip(r.margins, r.a_points, r.b_points):
        assert m == a - b


def test_greedy_takes_the_pile():
    """Greedy: the 10 takes one table card (a capture point and a card:
    1.5 points now); the 5 takes North's pile of 20 (a capture point and
    21 cards, 20 of them North's: 1 + 0.5 + 20 = 21.5). Without voleur the
    5 would lay."""
    from solver.engine.compile import compile_known
    from solver.notation import parse_position
    from solver.games.players import greedy_choices
    line = "10 5.10/4.11 - S rules=french voleur=yes taken=15,20 last=N tops=-,5"
    game, state = compile_known(parse_position(line))
    assert greedy_choices(game, state, lambda m: 1) == [4]     # the 5
    game, state = compile_known(parse_position(line.replace(" voleur=yes", "")
                                               .replace(" tops=-,5", "")))
    assert greedy_choices(game, state, lambda m: 1) == [7]     # the 10


def test_the_shipped_voleur_positions():
    """Every line of positions/voleur.txt is answered, and the hand-checked
    best plays (bm) are the engine's: e.g. the bait (by hand: lay the 6,
    North's 5 takes 5 6 and South's 5 steals North's pile of 23, +20;
    take the 5 and North's 5 steals South's, -20)."""
    from solver.analysis.evaluation import evaluate
    lines = parse_file((ROOT / "positions" / "voleur.txt").read_text())
    assert len(lines) >= 9
    methods = set()
    for number, pos in lines:
        assert not isinstance(pos, Exception), (number, pos)
        a = evaluate(pos, samples=100)
        methods.add(a.method)
        bm = pos.opcode("bm")
        if bm:
            assert set(a.best) == set(bm.split()), (number, a.best)
        if pos.opcode("id") == "bait":
            assert [(m.move, m.value) for m in a.moves] == [("6", 20.0), ("5", -20.0)]
    # the hidden hands of the last two deals: the equilibrium of the deal
    # as the mover sees it (voleur's piles and tops in its states)
    assert methods == {"exact", "expectimax", "equilibrium"}


def test_the_board_plays_a_steal_and_moves_the_tops():
    """The web board's play: South's 5 steals North's pile of 23 with the
    run 6 7 (S 10 + 23 + 3 = 36 cards, top 5; N's pile empty), then
    North's 12 takes the 12 (missa): N's top 12."""
    from solver.web.boards import play_line
    out, stopped = play_line(
        "6.7.12 5.1/12.2 - S rules=french voleur=yes taken=10,23 last=N tops=3,5", ["5", "12"])
    assert stopped is None
    assert out[0]["line"] == ("12 1/12.2 - N rules=french voleur=yes score=1,0 taken=36,0 "
                              "last=S tops=5,-")
    assert out[1]["line"] == ("- 1/2 - S rules=french voleur=yes score=1,2 taken=36,2 "
                              "last=N tops=5,12")


def test_the_board_records_an_answers_own_card_in_gone():
    """An answer (plain rules) puts the answering card in gone= with the
    shown pair (it was missing there, so a line with gone= could not be
    played on)."""
    from solver.web.boards import play_line
    deck = [str(r) for r in (1, 2, 3, 4, 5, 6, 7, 10, 11, 12) for _ in range(4)]
    for c in ("1", "4", "10", "2", "12"):
        deck.remove(c)
    line = f"1.4 10.2/12 - S show=10:2@N taken=16,19 last=N gone={'.'.join(deck)}"
    out, stopped = play_line(line, ["10"])
    assert stopped is None
    assert "taken=19,17" in out[0]["line"] and out[0]["line"].count("10") == 5


def test_ronda_solve_answers_the_voleur_file():
    """``ronda-solve --json positions/voleur.txt``: every line answered,
    no error, the methods named."""
    import json

    from click.testing import CliRunner

    from solver.cli.main import main
    r = CliRunner().invoke(main, ["--json", str(ROOT / "positions" / "voleur.txt")])
    assert r.exit_code == 0, r.output
    doc = json.loads(r.output)
    assert not doc["errors"]
    assert len(doc["positions"]) == 9
