"""Puzzle sheets (solver/sheet.py): the drawing holds every card once,
marks the card just played, and lists the answers."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from solver.notation import parse_position
from solver.puzzles import make_puzzle
from solver.sheet import card_svg, puzzle_svg, sheet_html, sheet_svg
from solver.cards import Card

HIT = "1.2 2.4/4 - S taken=17,18 last=N prev=2"
SHOW = "3 5.12/11 - S show=5:2@N taken=17,19 last=N"


def puzzle(line):
    return parse_position(make_puzzle(parse_position(line)).line())


def test_card_drawing():
    svg = card_svg(Card(11), 0, 0)
    assert ">11<" in svg and "Caballo" in svg
    assert "#e07b00" in card_svg(Card(5), 0, 0, "prev")        # the card just played
    assert 'class="card back"' in card_svg(None, 0, 0)


def test_puzzle_drawing_shows_every_card_and_the_facts():
    pos = puzzle(HIT)
    svg = puzzle_svg(pos, 1)
    assert svg.count('class="card"') == 5
    assert svg.count("#e07b00") == 1 and "N just laid 2" in svg
    assert "last deal, stock empty" in svg and "piles S 17, N 18" in svg
    assert "\u2605\u2606\u2606 easy" in svg
    assert "on show: 2 \u00d7 5 (N)" in puzzle_svg(puzzle(SHOW), 2)


def test_sheet_is_well_formed_svg_with_answers():
    doc = sheet_svg([puzzle(HIT), puzzle(SHOW)], title="Hits & answers")
    root = ET.fromstring(doc)                    # well-formed XML
    assert root.tag.endswith("svg")
    assert "Hits &amp; answers" in doc
    assert "1. 2  (value 4, 5 better than any other play)  [hit avoid-hit]" in doc
    assert "2. 5  (value 8, 11 better than any other play)  [answer5 sweep]" in doc


def test_html_pages():
    items = [puzzle(HIT)] * 7
    doc = sheet_html(items, per_page=6)
    assert doc.count('<section class="page">') == 2
    assert doc.count("<li>") == 7
    assert sheet_html(items, answers=False).count("<li>") == 0


def test_four_player_drawing_is_taller_and_holds_every_hand():
    from solver.sheet import CELL_H, cell_height
    pos = parse_position("7.11 3/6/3.5/3.5 - N rules=pagat taken=23,9 last=E")
    assert cell_height(pos) > CELL_H == cell_height(parse_position(HIT))
    svg = puzzle_svg(pos, 1)
    assert svg.count('class="card"') == 2 + 1 + 1 + 2 + 2
    assert f'height="{cell_height(pos) - 2}"' in svg
    assert "piles SN 23, EW 9" in svg
