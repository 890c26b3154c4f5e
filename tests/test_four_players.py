"""Four players everywhere (issue 11, item 4): annotate, the records,
play and arena with four seats, and CP-SAT composition of four-player
puzzles, each checked against tests/reference.py (plain minimax written
from RULES.md, which knows the partnerships)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from solver.games.annotate import annotate, annotation_json
from solver.cards import parse_card
from solver.cli.main import main
from solver.puzzles.compose import compose
from solver.notation import NotationError, format_position, parse_file, parse_position
from solver.position import side_of
from solver.puzzles.puzzle import generate
from solver.games.record import Replay, dumps, loads, parse_games
from solver.rules import PRESETS

from reference import reference_value

ROOT = Path(__file__).resolve().parent.parent
GAMES = ROOT / "positions" / "games"
PUZZLES = ROOT / "positions" / "puzzles"


def run(args, stdin=None):
    return CliRunner().invoke(main, args, input=stdin, catch_exceptions=False)


def reference(pos):
    """``(value, {rank: value})`` of a position with every card known, by
    tests/reference.py (printed ranks)."""
    last_side = None if pos.last is None else side_of(pos.last, pos.players)
    show = None if pos.show is None else (pos.show.rank, pos.show.size)
    return reference_value(
        pos.rules, [c.rank for c in pos.table], [[c.rank for c in h] for h in pos.hands],
        [c.rank for c in pos.stock], pos.turn, pos.leader(),
        prev=None if pos.prev is None else pos.prev.rank, show=show, last_side=last_side,
        taken=pos.pile_sizes())


def first_hand(path: Path):
    game = loads(path.read_text())
    game.hands = game.hands[:1]
    game.tags["Result"] = game.tags["Winner"] = "*"
    return game


# --- the records ----------------------------------------------------------------


def test_french_four_player_record_round_trips_with_four_cards_first():
    text = (GAMES / "french-4p.txt").read_text()
    game = loads(text)
    assert game.players == 4 and game.rules.name == "french"
    assert game.names == ["engine:10", "mc:50", "engine:10", "mc:50"]
    for hand in game.hands:
        # seed 000: 4 cards a player on the first deal, then 3, then the 8 left 2 each
        assert [len(d.hands[0]) for d in hand.deals] == [4, 3, 2]
        assert all(len(h) == len(d.hands[0]) for d in hand.deals for h in d.hands)
        assert all(len(d.plays) == 4 * len(d.hands[0]) for d in hand.deals)
    again = loads(dumps(game))
    assert again == game and dumps(again) == text
    replay = Replay(again).run()
    assert replay.finished and max(replay.score) >= 51
    assert game.tags["Result"] == "-".join(map(str, replay.score))
    assert game.tags["Winner"] == ("SN", "EW")[replay.winner]


# --- annotate -------------------------------------------------------------------


@pytest.mark.parametrize("name", ["pagat-4p.txt", "french-4p.txt"])
def test_annotate_full_view_agrees_with_the_reference(name):
    """Every play with a choice of the first hand with 20 cards or fewer
    left in the hands and the stock (the reference's brute force stays
    fast): the annotation's value of each play (points for the mover's
    side) is the reference minimax value, and so are the best play and the
    loss."""
    game = first_hand(GAMES / name)
    an = annotate(game, view="full", luck_samples=0)
    assert len(an.notes) == 36
    states = {s.index: s.state.full_position() for s in Replay(game)}
    checked = 0
    for note in an.notes:
        pos = states[note.index]
        if note.forced or sum(len(h) for h in pos.hands) + len(pos.stock) > 20:
            continue
        value, per_rank = reference(pos)
        got = {parse_card(m).rank: v for m, v in note.moves}
        assert got == per_rank, (note, format_position(pos))
        assert note.best_value == value and per_rank[parse_card(note.best).rank] == value
        assert note.loss == value - per_rank[parse_card(note.card).rank]
        checked += 1
    assert checked >= 6


def test_annotate_four_players_summary_per_seat_and_side():
    game = first_hand(GAMES / "french-4p.txt")
    an = annotate(game, view="full", luck_samples=2, seed=1)
    rows = an.summary()
    assert [r["seat"] for r in rows] == ["S", "E", "N", "W"]
    assert [r["side"] for r in rows] == ["SN", "EW", "SN", "EW"]
    sides = an.side_summary()
    assert [s["side"] for s in sides] == ["SN", "EW"]
    assert sides[0]["players"] == "engine:10+engine:10"
    for s, seats in zip(sides, ((0, 2), (1, 3))):
        assert s["plays"] == sum(rows[i]["plays"] for i in seats)
        assert s["total_loss"] == sum(rows[i]["total_loss"] for i in seats)
        assert s["points"] == rows[seats[0]]["points"] == rows[seats[1]]["points"]
    # the luck of the deal is zero-sum between the partnerships
    assert len(an.luck) == 3
    for d in an.luck:
        assert d.luck[0] == -d.luck[1]
    assert sides[0]["luck"] == -sides[1]["luck"]
    doc = annotation_json(an)
    assert [s["side"] for s in doc["sides"]] == ["SN", "EW"]
    assert set(doc["score"]) == {"SN", "EW"}


def test_annotate_player_view_four_players():
    """The player view: each seat knows its own hand only, so every play
    with a choice is an estimate over the three other hands drawn: a
    determinised one while deals are to come (no model of them for four
    players), the deal search in the last deal (the deal exact for each
    drawing); the made play's value is its move's, the best is the top,
    the loss their difference; a hand of one rank is forced."""
    game = first_hand(GAMES / "pagat-4p.txt")
    an = annotate(game, view="player", samples=8, luck_samples=0, seed=2)
    chosen = [n for n in an.notes if not n.forced]
    last = max(n.deal for n in an.notes)
    assert len(chosen) >= 20
    assert all(n.method == ("deal" if n.deal == last else "determinised") for n in chosen)
    assert any(n.method == "deal" for n in chosen)
    assert all(n.samples == 8 and n.stderr is not None for n in chosen
               if n.method == "determinised")
    for n in chosen:
        values = {parse_card(m).rank: v for m, v in n.moves}
        assert n.value == values[parse_card(n.card).rank]
        assert n.best_value == max(values.values())
        assert n.loss == pytest.approx(n.best_value - n.value)
    for n in an.notes:
        if n.forced:
            state = next(s.state for s in Replay(game) if s.index == n.index)
            assert len(state.legal_ranks()) == 1
    assert "view player" in an.record.tags["Annotator"]


def test_annotate_command_four_players_json():
    r = run(["annotate", "--view", "full", "--luck-samples", "0", "--json", "-q",
             str(GAMES / "french-4p.txt")])
    assert r.exit_code == 0, r.output
    doc = json.loads(r.stdout)["games"][0]
    assert {p["seat"] for p in doc["plays"]} == {"S", "E", "N", "W"}
    assert [s["players"] for s in doc["sides"]] == ["engine:10+engine:10", "mc:50+mc:50"]
    r = run(["annotate", "--view", "full", "--luck-samples", "0", "-q",
             str(GAMES / "french-4p.txt")])
    assert r.exit_code == 0 and "sides" in r.stdout and "SN" in r.stdout


# --- play and arena with four seats -----------------------------------------------


def test_play_with_four_seats_writes_four_player_records(tmp_path):
    out = tmp_path / "games.txt"
    r = run(["play", "greedy", "random", "greedy", "random", "--rules", "french",
             "--games", "2", "--seed", "3", "-o", str(out), "-q", "--json"])
    assert r.exit_code == 0, r.output
    games = parse_games(out.read_text())
    assert len(games) == 2
    for g in games:
        assert g.players == 4 and [len(d.hands[0]) for d in g.hands[0].deals] == [4, 3, 2]
        replay = Replay(g).run()
        assert replay.finished
    # the second game swaps the seats: greedy sits E and W
    assert games[0].names == ["greedy", "random", "greedy", "random"]
    assert games[1].names == ["random", "greedy", "random", "greedy"]
    doc = json.loads(r.stderr if r.stderr.strip().startswith("{") else r.stdout)
    assert {row["player"] for row in doc["players"]} == {"greedy+greedy", "random+random"}
    assert sum(row["won"] for row in doc["players"]) == 2
    r = run(["play", "greedy", "random", "greedy", "random", "--rules", "lmodire"])
    assert r.exit_code == 2 and r.stderr == ("error: rules: lmodire is for 2 players, not 4 "
                                             "(presets for 4 players: pagat, french, online)\n")


def test_arena_four_players_command():
    r = run(["arena", "greedy", "random", "--players", "4", "--rules", "pagat", "--pairs", "2",
             "--json", "-q"])
    assert r.exit_code == 0, r.output
    doc = json.loads(r.stdout)
    assert doc["players"] == 4 and doc["hands"] == 4
    assert doc["margin"] == pytest.approx(doc["a_points"] - doc["b_points"])
    r = run(["arena", "greedy", "random", "--players", "4", "--pairs", "1"])
    assert r.exit_code == 2 and "error:" in r.stderr


# --- composing four-player puzzles ------------------------------------------------


@pytest.mark.parametrize("rules", ["pagat", "french"])
def test_composed_four_player_candidates_are_legal(rules):
    deal = 3 if rules == "pagat" else 2       # the last deal's cards a player
    for theme in ("hit", "missa", "sweep", "declaration", "avoid-hit"):
        cands = list(compose(theme, seed=4, rules_name=rules, limit=3, players=4))
        assert len(cands) == 3
        assert not [c for c in cands if isinstance(c, NotationError)]
        assert len({format_position(c) for c in cands}) == 3
        for pos in cands:
            assert pos.players == 4 and pos.turn == 0 and pos.stock == []
            sizes = [len(h) for h in pos.hands]
            k = sizes[0]
            assert 1 <= k <= deal and len({c.rank for c in pos.hands[0]}) >= 2
            # the seats after the mover that hold one fewer are the last ones
            fewer = [i for i in (1, 2, 3) if sizes[i] == k - 1]
            assert all(sizes[i] == k for i in (1, 2, 3) if i not in fewer)
            assert fewer == list(range(4 - len(fewer), 4))
            assert len(pos.table) + sum(sizes) + sum(pos.taken) == 40
            if theme == "hit":
                # W, the previous player, just laid a lone card S can hit
                assert pos.prev is not None
                assert pos.prev.rank in [c.rank for c in pos.hands[0]]
                assert sizes[3] == k - 1
    with pytest.raises(ValueError, match=r"rules: lmodire is for 2 players, not 4 \(presets"):
        next(compose("hit", rules_name="lmodire", players=4))


@pytest.mark.parametrize("rules", ["pagat", "french"])
def test_composed_four_player_puzzles_are_verified_by_the_reference(rules):
    gen = generate(None, 6, seed=7, rules_name=rules, players=4)
    assert len(gen.puzzles) == 6 and gen.illegal == 0
    for p in gen.puzzles:
        pos = parse_position(p.line())
        assert pos.players == 4
        value, per_rank = reference(pos)
        best = [r for r, v in per_rank.items() if v == value]
        assert best == [parse_card(pos.opcode("bm")).rank]
        assert value == float(pos.opcode("v"))
        second = max((v for r, v in per_rank.items() if r != best[0]), default=None)
        assert second is not None and value - second >= 2
        assert value - second == float(pos.opcode("margin"))


@pytest.mark.parametrize("name", ["composed-pagat4.txt", "composed-french4.txt"])
def test_shipped_four_player_composed_sets(name):
    """The shipped sets: `puzzles check` verifies them (exact search) and
    the reference minimax agrees with every bm and v."""
    path = PUZZLES / name
    r = run(["puzzles", "check", str(path)])
    assert r.exit_code == 0, r.output
    lines = parse_file(path.read_text())
    assert len(lines) >= 8
    for _n, pos in lines:
        assert pos.players == 4 and pos.opcode("source") == "composed"
        value, per_rank = reference(pos)
        assert [r for r, v in per_rank.items() if v == value] == \
            [parse_card(pos.opcode("bm")).rank]
        assert value == float(pos.opcode("v"))


def test_generate_command_composes_four_player_puzzles(tmp_path):
    out = tmp_path / "p.txt"
    r = run(["puzzles", "generate", "--theme", "missa", "--rules", "pagat", "--players", "4",
             "--count", "2", "--seed", "2", "-o", str(out)])
    assert r.exit_code == 0, r.output
    lines = parse_file(out.read_text())
    assert len(lines) == 2 and all(pos.players == 4 for _n, pos in lines)
    assert all("missa" in pos.opcode("themes").split() for _n, pos in lines)
    r = run(["puzzles", "generate", "--rules", "lmodire", "--players", "4", "--count", "1"])
    assert r.exit_code == 2 and "lmodire is for 2 players, not 4" in r.output
    assert PRESETS["pagat"].players == (2, 4)


# --- a person at one seat of four -------------------------------------------------


def test_human_player_reads_a_card_and_refuses_bad_ones():
    from solver.games.human import HumanPlayer, Quit
    from solver.games.players import make_player
    # pagat-4p.txt, hand 1, deal 1, play 6: E holds 3c 4o (dealt 3c 11c 4o,
    # 11c taken the 11o); S 3b, E 11c, N 5e (took 5b), W 11e, S 6c were played
    game = loads((GAMES / "pagat-4p.txt").read_text())
    step = next(s for s in Replay(game) if (s.hand, s.deal, s.number) == (1, 1, 6))
    view = step.state.view()
    assert [str(c) for c in view.hands[1]] == ["3c", "4o"]
    typed = iter(["8", "", "3e", "12", "3"])
    shown = []
    player = HumanPlayer(read=lambda prompt: next(typed), write=shown.append)
    card = player.choose(view, None)
    assert str(card) == "3c"
    assert shown[:6] == [
        "-- you are E (partner W, side EW); score SN 0, EW 0; piles SN 2, EW 2",
        "   this deal: S 3b, E 11c, N 5e, W 11e, S 6c",
        "   table: 2o 7e 3b 11e 6c",
        "   S just laid 6c",
        "   your hand: 3c 4o",
        "   rank 8 does not exist in a Spanish 40-card deck: '8'"]
    assert shown[6:] == ["   E holds no 3e (hand: 3c.4o)", "   E holds no 12 (hand: 3c.4o)"]
    pos = view

    def closed(prompt):
        raise EOFError
    with pytest.raises(Quit, match="the input ended"):
        HumanPlayer(read=closed, write=shown.append).choose(pos, None)
    with pytest.raises(Quit, match="stopped by the player"):
        HumanPlayer(read=lambda p: "q", write=shown.append).choose(pos, None)
    assert make_player("human").name == "human"


def test_play_a_human_seat_against_three_engine_seats(tmp_path):
    """`play human greedy greedy greedy`: the person (stdin) sits S, the
    engine seats its partner N and E, W. The input tries the ranks in turn
    (each refused line is asked again) until the match ends."""
    out = tmp_path / "game.txt"
    typed = "8\n1\n2\n3\n4\n5\n6\n7\n10\n11\n12\n" * 80
    r = run(["play", "human", "greedy", "greedy", "greedy", "--rules", "pagat", "--no-swap",
             "--seed", "2", "-q", "-o", str(out)], stdin=typed)
    assert r.exit_code == 0, r.output
    game = loads(out.read_text())
    assert game.players == 4 and game.names == ["human", "greedy", "greedy", "greedy"]
    assert Replay(game).run().finished
    assert "-- you are S (partner N, side SN)" in r.stderr
    assert "N plays (a rank" not in r.stderr        # only S asks
    # every play is told as it is made, the other seats' replies included
    assert "   E (greedy) plays " in r.stderr and "   S (human) plays " in r.stderr
    assert "== the hand is over: SN " in r.stderr
    # the input runs out at once: the session ends cleanly (not an interruption)
    r = run(["play", "human", "greedy", "greedy", "greedy", "--rules", "pagat", "-q"], stdin="")
    assert r.exit_code == 0 and r.stderr.strip().endswith("the input ended: 0 of 1 game finished")
    assert "interrupted" not in r.stderr
    r = run(["arena", "human", "greedy", "--players", "4", "--rules", "pagat"])
    assert r.exit_code == 2 and "use `play` to play as human" in r.stderr
