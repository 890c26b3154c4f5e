"""Game records: exact round trips, leniency about whitespace and tags,
strictness about cards, with errors naming the line, hand, deal and play."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from solver.cards import Card
from solver.games.match import play_match
from solver.games.players import make_player
from solver.games.record import (SAMPLE, GameRecord, RecordError, Replay, check, commands, dumps,
                                 dumps_all, from_match, loads, parse_games)
from solver.rules import PRESETS

GAMES = Path(__file__).resolve().parent.parent / "positions" / "games"


@pytest.fixture(scope="module")
def engine_game() -> GameRecord:
    log = play_match(PRESETS["lmodire"], [make_player("engine:3"), make_player("engine:3")],
                     seed=4)
    return from_match(log)


def test_a_game_between_two_engines_reads_back_identical(engine_game):
    text = dumps(engine_game)
    again = loads(text)
    assert again == engine_game
    assert dumps(again) == text
    replay = Replay(again).run()
    assert replay.finished and max(replay.score) >= 41
    assert again.tags["Result"] == "-".join(map(str, replay.score))


@pytest.mark.parametrize("path", sorted(GAMES.glob("*.txt")), ids=lambda p: p.name)
def test_shipped_games_are_canonical(path):
    text = path.read_text()
    games = parse_games(text)
    assert all(isinstance(g, GameRecord) for g in games)
    assert dumps_all(games) == text


def test_sample_reads_as_documented():
    g = loads(SAMPLE)
    assert g.names == ["Amina", "Karim"] and g.first_dealer == 1
    deal = g.hands[0].deals[0]
    assert deal.hands == [[Card(2, "o"), Card(2, "c"), Card(7, "e")],
                          [Card(4, "o"), Card(6, "o"), Card(12, "b")]]
    assert [str(p.card) + p.mark for p in deal.plays] == ["7e", "4o", "2o?", "6o", "2c", "12b"]
    assert deal.plays[1].comments == ["takes the 4"]
    events = Replay(g).run().events
    assert [e.effect for e in events] == [
        "lays", "takes 4o.4c", "lays", "takes 6o.6e.7e", "takes 2c.2o", "lays"]


def test_whitespace_is_free_and_unknown_tags_are_kept():
    squeezed = re.sub(r"\s+", " ", SAMPLE.replace("]\n", "]"))
    loose = SAMPLE.replace("1. 7e 4o", "\n\n 1.\t7e\n   4o   ").replace(
        '[Event "sample"]', '[Event   "sample"]\n[Opening "Casablanca"]')
    assert loads(squeezed) == loads(SAMPLE)
    g = loads(loose)
    assert g.tags["Opening"] == "Casablanca"
    assert g.hands == loads(SAMPLE).hands


def test_hands_may_be_left_out_when_the_plays_show_them(engine_game):
    g = loads(dumps(engine_game))
    for hand in g.hands:
        for deal in hand.deals:
            if deal.plays and len(deal.plays) == 6:
                deal.hands = None
    text = dumps(g)
    assert "deal 1\n" in text
    again = loads(text)
    assert again == g and dumps(again) == text
    assert Replay(again).run().score == Replay(engine_game).run().score


def test_tags_escape_and_comments_round_trip():
    g = loads(SAMPLE)
    g.tags["Annotator"] = 'she said "2c!" \\ twice'
    g.hands[0].deals[0].plays[4].mark = "!"
    g.hands[0].deals[0].plays[4].comments = ["[%eval +1.00]", "a Ronda"]
    g.hands[0].comments.append("first hand")
    text = dumps(g)
    assert '[Annotator "she said \\"2c!\\" \\\\ twice"]' in text
    assert "3. 2c! {[%eval +1.00]} {a Ronda} 12b" in text
    assert loads(text) == g


def test_commands_in_comments():
    assert commands("[%eval -1.50] [%best 5o +2.50] nice") == {"eval": "-1.50",
                                                               "best": "5o +2.50"}


def test_several_games_in_one_file(engine_game):
    text = dumps_all([engine_game, loads(SAMPLE)])
    games = parse_games(text)
    assert [type(g) for g in games] == [GameRecord, GameRecord]
    bad = text.replace("2. 2o? 6o", "2. 2o? 6c")
    games = parse_games(bad)
    assert isinstance(games[0], GameRecord) and isinstance(games[1], RecordError)
    with pytest.raises(RecordError, match="2 games in the text"):
        loads(text)


@pytest.mark.parametrize("old,new,message", [
    ("2. 2o? 6o", "2. 2o? 6c",
     "line 11, hand 1, deal 1, play 4: N plays 6c: 6c is not in N's hand (6o.12b)"),
    ("7e 4o", "7e 7e", "line 10, hand 1, deal 1, play 2: N plays 7e: 7e is not in N's hand "
                       "(4o.6o.12b)"),
    ("3. 2c", "3. 8c", "line 12, hand 1, deal 1, play 5: rank 8 does not exist in a Spanish "
                       "40-card deck: '8c'"),
    ("3. 2c 12b", "3. 2c 12b 4.", "line 12, hand 1, deal 1: round 4. but deal 1 has 3 rounds"),
    ("2. 2o? 6o", "2. 2o? 3. 6o", "line 11, hand 1, deal 1: round number 3. in the middle "
                                  "of round 2 (1 of 2 plays made)"),
    ('[Dealer "N"]', '[Dealer "E"]',
     "line 6, Dealer: seat 'E' does not exist with 2 players (seats: S N)"),
    ("lmodire", "lmodir", "line 2, Rules: unknown preset 'lmodir' (known: lmodire, pagat, "
                          "mod, french, online)"),
    ("table 1o.4c.6e.11b", "table 1o.4c.5e.11b",
     "line 8, hand 1, table: the opening table 1o.4c.5e.11b breaks table_rule=distinct "
     "(4 different ranks, no two consecutive)"),
    ("{takes the 4}", "{takes the 4", "line 10, syntax: a comment '{' is not closed by '}'"),
    ('[Target "41"]', '[Target "x"]', "line 3, Target: 'x' is not a whole number of points (1 to 100000)"),
    ('[Dealer "N"]', '[Dealer "N"]\n[Result "3-1"]',
     'line 7, Result: the match is not over (score 1-0); write "*"'),
    ("{takes the 4}", "{takes the 4} foo", "line 10, hand 1, deal 1, play 3: unexpected 'foo' "
     "(expected a card, a round number '2.', 'deal', 'hand', 'undealt' or a comment)"),
    ("deal 1 S 2o.2c.7e N 4o.6o.12b", "deal 1 S 2o.2c.7e",
     "line 9, hand 1, deal 1: the deal line gives some hands but not N's"),
    ("deal 1 S 2o.2c.7e N 4o.6o.12b", "deal 1 S 2o.2c.7e.1c N 4o.6o.12b",
     "line 9, hand 1, deal 1: deal 1 gives 3 cards a player, but S has 4"),
    ("hand 1 dealer N", "hand 2 dealer N",
     "line 8, hand 1: hands are numbered from 1 in order: expected hand 1, got '2'"),
    ("deal 1 S 2o.2c.7e N 4o.6o.12b", "deal 1 S 2o.2c.7e N 4o.6o.11b",
     "line 9, hand 1, deal 1: N's 11b was already seen in this hand (hand 1, table)"),
])
def test_errors_name_the_line_and_the_play(old, new, message):
    assert old in SAMPLE
    with pytest.raises(RecordError) as err:
        loads(SAMPLE.replace(old, new, 1))
    assert str(err.value) == message


def test_an_incomplete_deal_needs_its_hands():
    text = SAMPLE.replace("deal 1 S 2o.2c.7e N 4o.6o.12b", "deal 1").replace("3. 2c 12b\n", "")
    with pytest.raises(RecordError, match=r"line 9, hand 1, deal 1: the deal has 4 plays, "
                                          r"not all its cards: write its hands"):
        loads(text)


def test_a_hand_after_the_match_was_won_is_refused(engine_game):
    g = loads(dumps(engine_game))
    g.hands.append(g.hands[-1])
    with pytest.raises(RecordError, match="the match was already won by"):
        loads(dumps(g))


def test_result_and_winner_are_checked(engine_game):
    text = dumps(engine_game)
    result = engine_game.tags["Result"]
    with pytest.raises(RecordError, match=f"Result: the plays give {result}, not 0-0"):
        loads(text.replace(f'[Result "{result}"]', '[Result "0-0"]'))
    winner = engine_game.tags["Winner"]
    other = "N" if winner == "S" else "S"
    with pytest.raises(RecordError, match=f"Winner: the plays give {winner}, not {other}"):
        loads(text.replace(f'[Winner "{winner}"]', f'[Winner "{other}"]'))


VOLEUR = (GAMES / "voleur-short.txt").read_text()


@pytest.mark.parametrize("blank", [0, 2])
@pytest.mark.parametrize("old, new, tag_line, message", [
    ('[Rules "french voleur=yes"]', '[Rules "frnch"]', 2,
     "Rules: unknown preset 'frnch' (known: lmodire, pagat, mod, french, online)"),
    ('[Target "21"]', '[Target "abc"]', 3,
     "Target: 'abc' is not a whole number of points (1 to 100000)"),
    ('[Target "21"]', '[Target "100001"]', 3,
     "Target: '100001' is not a whole number of points (1 to 100000)"),
    ('[Dealer "N"]', '[Dealer "Q"]', 6,
     "Dealer: seat 'Q' does not exist with 2 players (seats: S N)"),
    ('[Result "14-29"]', '[Result "14-28"]', 8, "Result: the plays give 14-29, not 14-28"),
    ('[Winner "N"]', '[Winner "X"]', 9, "Winner: 'X' is not a side (S N)"),
])
def test_a_bad_tag_is_reported_at_its_own_line(blank, old, new, tag_line, message):
    """Issue 19: the tag's line, not the game's first line, wherever the game starts."""
    assert VOLEUR.splitlines()[tag_line - 1] == old
    text = "\n" * blank + VOLEUR.replace(old, new, 1)
    with pytest.raises(RecordError) as err:
        check(loads(text))
    assert str(err.value) == f"line {tag_line + blank}, {message}"


def test_a_rules_tag_target_below_one_is_refused_at_its_line():
    text = SAMPLE.replace('[Target "41"]\n', "").replace('[Rules "lmodire"]',
                                                          '[Rules "lmodire target=0"]')
    with pytest.raises(RecordError) as err:
        check(loads(text))
    assert str(err.value) == "line 2, Rules: target must be at least 1 point, not 0"


def test_a_rules_tag_is_read_as_one_set_of_overrides():
    """``play --rules online --set players=3 --set table_cards=4`` records
    ``[Rules "online players=3 table_cards=4"]``: players=3 alone cannot be
    played on online (40 cards for three), the pair can, in either order;
    the record reads back, positions and all (annotate reads them)."""
    rules = PRESETS["online"].with_overrides({"players": "3", "table_cards": "4"})
    players = [make_player("random") for _ in range(3)]
    record = from_match(play_match(rules, players, seed=5, max_hands=1))
    text = dumps(record)
    assert '[Rules "online players=3 table_cards=4"]' in text
    for tag in ("online players=3 table_cards=4", "online table_cards=4 players=3"):
        again = loads(text.replace("online players=3 table_cards=4", tag))
        assert again.rules == rules
        assert Replay(again).run().events          # every card checked on the way
    with pytest.raises(RecordError, match="line 2, Rules: table_cards=0 leaves 40 cards"):
        loads(text.replace("online players=3 table_cards=4", "online players=3")).rules
    with pytest.raises(RecordError, match="players is given twice"):
        loads(text.replace("online players=3", "online players=3 players=3")).rules


def test_a_rules_tag_players_that_does_not_fit_the_seats_is_named():
    """Item 4: the Rules tag's players= refuses the two seats, not french."""
    text = VOLEUR.replace('[Rules "french voleur=yes"]', '[Rules "french voleur=yes players=3"]')
    with pytest.raises(RecordError) as err:
        loads(text).rules
    assert str(err.value) == ("line 2, Rules: players=3 (from the Rules tag) does not allow 2 "
                              "players: give 3 seat tags or drop players=")
