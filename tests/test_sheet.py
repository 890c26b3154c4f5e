"""Puzzle sheets (solver/puzzles/sheet.py): the drawing holds every card once,
marks the card just played, and lists the answers."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from solver.notation import parse_position
from solver.puzzles.puzzle import make_puzzle
from solver.puzzles.sheet import CELL_W as CELL_W_, card_svg, cell_height, puzzle_svg, sheet_html, sheet_svg
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


def test_html_pages_hold_the_rows_an_a4_page_fits():
    """Six two-player drawings (290 px) fit an A4 page; four-player ones
    (pagat, up to 466 px) fit two rows, so a page holds 4, not 6 (the
    print split each page of 6 over two, with 2 puzzles on the second;
    measured in chromium's print of positions/puzzles/composed-pagat4.txt:
    3 pages now, 4 before)."""
    from pathlib import Path
    from solver.notation import parse_file
    from solver.puzzles.sheet import PAGE_BODY_H, ROW_GAP, page_starts
    root = Path(__file__).resolve().parent.parent
    four = root / "positions" / "puzzles" / "composed-pagat4.txt"
    items = [pos for _n, pos in parse_file(four.read_text())]
    heights = [cell_height(p) for p in items]
    assert len(items) == 12 and max(heights) > (PAGE_BODY_H - 2 * ROW_GAP) / 3
    doc = sheet_html(items, answers=False)
    pages = doc.split('<section class="page">')[1:]
    assert [page.count("<svg") for page in pages] == [4, 4, 4]
    starts = page_starts(heights, 6)
    for a, b in zip(starts, starts[1:] + [len(items)]):
        rows = [max(heights[i:i + 2]) for i in range(a, b, 2)]
        assert sum(rows) + ROW_GAP * (len(rows) - 1) <= PAGE_BODY_H
    assert page_starts([290] * 12, 6) == [0, 6]


def test_four_player_drawing_is_taller_and_holds_every_hand():
    from solver.puzzles.sheet import CELL_H, cell_height
    pos = parse_position("7.11 3/6/3.5/3.5 - N rules=pagat taken=23,9 last=E")
    assert cell_height(pos) > CELL_H == cell_height(parse_position(HIT))
    svg = puzzle_svg(pos, 1)
    assert svg.count('class="card"') == 2 + 1 + 1 + 2 + 2
    assert f'height="{cell_height(pos) - 2}"' in svg
    assert "piles SN 23, EW 9" in svg


# --- layout geometry ---------------------------------------------------------

FOUR = "7.11.1.2.3.4.5 3o.11c/6/3.5/3.5 - N rules=pagat taken=17,9 last=E prev=5"


def boxes(svg: str):
    """The text boxes and card rectangles of one drawing: text boxes
    estimated from the font size (0.6 em a character, the baseline at 0.8
    em), each tagged with the card it belongs to (None outside a card)."""
    root = ET.fromstring(f'<svg xmlns="http://www.w3.org/2000/svg">{svg}</svg>')
    texts, cards, hands = [], [], {}
    table = None

    def walk(el, card, seat):
        tag = el.tag.split("}")[-1]
        cls = el.get("class", "")
        if tag == "g" and cls.startswith("card"):
            card = el
        if tag == "g" and cls == "hand":
            seat = el.get("data-seat")
            hands.setdefault(seat, [])
        if tag == "rect" and card is not None and el.get("rx") == "4":
            r = tuple(float(el.get(k)) for k in ("x", "y", "width", "height"))
            cards.append((card, r))
            if seat:
                hands[seat].append(r)
        if tag == "rect" and cls == "table":
            nonlocal table
            table = tuple(float(el.get(k)) for k in ("x", "y", "width", "height"))
        if tag == "text":
            text = "".join(el.itertext())
            fs = float(el.get("font-size"))
            w = len(text) * fs * 0.6
            x = float(el.get("x"))
            x -= {"middle": w / 2, "end": w}.get(el.get("text-anchor"), 0)
            y = float(el.get("y")) - 0.8 * fs
            texts.append((card, text, (x, y, w, fs)))
        for child in el:
            walk(child, card, seat)

    walk(root, None, None)
    return texts, cards, hands, table


def overlap(a, b) -> bool:
    return (a[0] < b[0] + b[2] and b[0] < a[0] + a[2]
            and a[1] < b[1] + b[3] and b[1] < a[1] + a[3])


def centre(r):
    return r[0] + r[2] / 2, r[1] + r[3] / 2


def assert_nothing_overlaps(svg: str) -> None:
    texts, cards, _hands, _table = boxes(svg)
    for i, (ca, ta, a) in enumerate(texts):
        for cb, tb, b in texts[i + 1:]:
            assert not overlap(a, b), (ta, tb, a, b)
        for card, r in cards:
            if card is not ca:
                assert not overlap(a, r), (ta, r)
    rects = [r for _c, r in cards]
    for i, a in enumerate(rects):
        for b in rects[i + 1:]:
            assert not overlap(a, b), (a, b)


def test_suit_letter_and_court_name_do_not_overprint():
    for rank in (10, 11, 12):
        texts, _cards, _h, _t = boxes(card_svg(Card(rank, "c"), 0, 0))
        named = {t: b for _c, t, b in texts}
        assert "c" in named
        court = next(b for t, b in named.items() if t in ("Sota", "Caballo", "Rey"))
        assert not overlap(named["c"], court)
    assert_nothing_overlaps(card_svg(Card(11, "c"), 0, 0))


def test_four_players_sit_around_the_table():
    pos = parse_position(FOUR)
    svg = puzzle_svg(pos, 1)
    assert_nothing_overlaps(svg)
    _texts, _cards, hands, table = boxes(svg)
    tx, ty = centre(table)
    c = {seat: (sum(centre(r)[0] for r in rs) / len(rs), sum(centre(r)[1] for r in rs) / len(rs))
         for seat, rs in hands.items()}
    assert set(c) == {"S", "E", "N", "W"}
    assert c["S"][1] > ty > c["N"][1]                 # S below, N above
    assert c["E"][0] > tx > c["W"][0]                 # E right, W left
    assert abs(c["S"][0] - tx) < 1 and abs(c["N"][0] - tx) < 1
    assert c["N"][1] < c["W"][1] < c["S"][1] and c["N"][1] < c["E"][1] < c["S"][1]
    # every hand's cards lie outside the table, and inside the drawing
    for rs in hands.values():
        for r in rs:
            assert not overlap(r, table)
            assert 0 <= r[0] and r[0] + r[2] <= CELL_W_ and r[1] + r[3] <= cell_height(pos)


def test_two_player_drawings_do_not_overlap():
    for line in (HIT, SHOW, "1.2.3.4.5.6 10c.11o.12e/3.7 - S taken=13,16 last=N"):
        assert_nothing_overlaps(puzzle_svg(parse_position(line), 1))


def test_a_puzzle_played_for_the_match_says_so_without_overlap():
    """A line played for the match (puzzles sheet passes match_answer's
    heading and chance): a line more under the drawing, the answer in the
    match's words instead of the points."""
    pos = parse_position("12c 6e.2o/2e.2b - S dealer=N score=40,39 taken=19,16 last=N "
                         "gone=1c.2c.1o.3b.4b.3o.6c.6b.7o.10b.7b.7c.3e.3c.7e.5e.10c.4e.6o."
                         "10o.10e.11b.11e.12o.12e.4c.5b.4o.11c.12b.11o.5o.5c.1e.1b "
                         "declared=N:ronda2 ; bm 6 ; v -2")
    from solver.puzzles.puzzle import match_answer
    heading, chance = match_answer(pos)
    assert (heading, chance) == ("playing for the match: S 40, N 39, target 41", "100%")
    svg = puzzle_svg(pos, 1, match=heading)
    assert_nothing_overlaps(svg)
    assert heading in svg and cell_height(pos, True) == cell_height(pos) + 13
    doc = sheet_svg([pos], matches=[(heading, chance)])
    assert "1. 6  (playing for the match: S 40, N 39, target 41; 100% to win it)" in doc
    assert "value -2" not in doc
    assert match_answer(parse_position(HIT)) is None


# --- layout in general: every text and card inside its box ---------------------

THREE_SIX = "1.2.3.4.5.6 7.10/7.11/7.12 - S rules=french taken=10,10,8 last=N prev=6 ; bm 7"
FOUR_VOLEUR = ("2.3.4.5 1.6.7/1.6.7/1.6.7/10.10.11 ~1.2.2.2.3.3.3.4.4.5.5.6.7.10.10.11.11.11.12.12 "
               "S rules=french voleur=yes taken=2,2 last=E tops=12,5 prev=5 ; bm 1")


def inside(a, box) -> bool:
    return (box[0] <= a[0] and a[0] + a[2] <= box[0] + box[2]
            and box[1] <= a[1] and a[1] + a[3] <= box[1] + box[3])


def assert_laid_out(pos, match: str | None = None, show_themes: bool = False,
                    number: int = 1) -> None:
    """Nothing overlaps; every text and card lies inside the drawing (its
    12 px margins for the text), the table's cards and notes inside the
    table's box; the drawing is cell_height tall."""
    svg = puzzle_svg(pos, number, show_themes, match=match)
    assert_nothing_overlaps(svg)
    texts, cards, hands, table = boxes(svg)
    height = cell_height(pos, match is not None, show_themes)
    assert f'height="{height - 2}"' in svg
    cell = (0, 0, CELL_W_, height)
    margins = (10, 0, CELL_W_ - 20, height)
    for card, text, box in texts:
        if card is None:
            assert inside(box, margins), (text, box, CELL_W_)
    for _card, r in cards:
        assert inside(r, cell), r
    in_hands = {r for rs in hands.values() for r in rs}
    on_table = [r for _c, r in cards if r not in in_hands]
    assert len(on_table) == len(pos.table)
    for r in on_table:
        assert inside(r, table), (r, table)
    for card, text, box in texts:
        if card is None and ("just laid" in text or "on show" in text or text == "empty table"):
            assert inside(box, table), (text, box, table)
        elif card is None:                       # a label or fact: off the table
            assert not overlap(box, table), (text, box, table)


def test_three_players_six_table_cards_the_note_clears_the_cards():
    """Found on a sheet: the 'N just laid 6' note was drawn over the sixth
    table card (pushed left to stay in the drawing)."""
    pos = parse_position(THREE_SIX)
    assert_laid_out(pos)
    assert_laid_out(pos, match="playing for the match: S 40, E 39, N 12, target 51")


def test_four_players_voleur_facts_fit_the_drawing():
    """Found on a sheet: with four players and voleur's tops the first line
    of facts ran past the drawing's right edge; it is broken between facts
    (assert_laid_out: the drawing grows by the lines it adds)."""
    pos = parse_position(FOUR_VOLEUR)
    assert_laid_out(pos)
    svg = puzzle_svg(pos, 1)
    facts = [t for _c, t, _b in boxes(svg)[0] if "stock" in t or "tops" in t or "rules" in t]
    assert len(facts) == 3 and any("tops SN 12, EW 5" in t for t in facts)


def _variants():
    """Every player count and rule system, 0 to 14 cards on the table,
    with and without the card just laid and a pile on show, long stocks in
    order and rule overrides."""
    from dataclasses import replace
    from solver.position import Show
    bases = [
        parse_position("1.2 2.4/4 - S taken=17,18 last=N prev=2"),
        parse_position("1.2 2.4/4 - S rules=mod taken=17,18 last=N prev=2"),
        parse_position("1.2 2.4/4 - S rules=french voleur=yes target=21 hit=1,5 "
                       "missa_on_last_card=yes taken=17,18 last=N tops=12,5 prev=2"),
        parse_position(THREE_SIX),
        parse_position(THREE_SIX.replace("rules=french", "rules=french voleur=yes")
                       .replace("prev=6", "tops=12,11,10 prev=6")),
        parse_position("7.11 3/6/3.5/3.5 - N rules=pagat taken=23,9 last=E"),
        parse_position(FOUR),
        parse_position(FOUR_VOLEUR),
        parse_position(SHOW),
    ]
    deck = [Card(r, s) for s in "ocbe" for r in (1, 2, 3, 4, 5, 6, 7, 10, 11, 12)]
    for base in bases:
        for n in range(0, 15):
            table = deck[:n]
            for prev in (None, table[-1] if table else None):
                for show in (None, base.show or Show(size=2, rank=12, seat=0)):
                    yield replace(base, table=table, prev=prev, show=show)
        yield replace(base, stock_kind="known", stock=deck[14:34])
        # short hands (or none) and every seat to play: its label beside the table
        for size in (0, 1):
            for turn in range(base.players):
                hands = [deck[34 + k:34 + k + (size or seat == turn)]
                         for k, seat in enumerate(range(base.players))]
                yield replace(base, hands=hands, turn=turn, table=deck[:5], prev=deck[4])


def test_every_layout_keeps_its_texts_and_cards_in_their_boxes():
    for pos in _variants():
        assert_laid_out(pos)


def test_themes_too_long_for_the_title_go_under_it():
    """--show-themes: themes that would run into the id (top right) are
    written under the title, the drawing a line taller; short ones stay
    beside the level."""
    long = HIT + ' ; id "7f2488a" ; themes hit missa run avoid-hit sweep declaration ; level 2'
    short = HIT + ' ; id "7f2488a" ; themes hit ; level 2'
    for line in (long, short, long.replace("S taken=17,18", "S rules=french voleur=yes "
                                            "taken=17,18 tops=12,5")):
        pos = parse_position(line)
        for number in (1, 12, 123):
            assert_laid_out(pos, show_themes=True, number=number)
            assert_laid_out(pos, match="playing for the match: S 40, N 39, target 41",
                            show_themes=True, number=number)
    long_, short_ = parse_position(long), parse_position(short)
    assert cell_height(long_, show_themes=True) == cell_height(long_) + 13
    assert cell_height(short_, show_themes=True) == cell_height(short_)
    assert "\u00b7 hit</text>" in puzzle_svg(parse_position(short), 12, show_themes=True)


def test_the_answers_fit_the_sheet_svg():
    """The answers under the puzzles (10 px text) are wrapped within the
    picture's width, its 10 px margins kept."""
    c = "a long word " * 60
    pos = parse_position(HIT + f' ; bm 2 ; v 4 ; themes hit avoid-hit ; c "{c}"')
    doc = sheet_svg([pos, pos])
    root = ET.fromstring(doc)
    width = float(root.get("width"))
    lines = [el for el in root
             if el.tag.endswith("text") and "a long word" in "".join(el.itertext())]
    assert len(lines) >= 5
    for el in lines:
        text = "".join(el.itertext())
        assert float(el.get("x")) + len(text) * float(el.get("font-size")) * 0.6 <= width - 10, text


def test_a_long_svg_title_wraps_within_the_picture():
    """A title longer than the picture (750 px: 69 characters at 18 px and
    0.6 em) is written over several lines, each within the width, and the
    drawings start under the last."""
    from solver.puzzles.sheet import text_width
    title = "Très long titre " * 12
    doc = sheet_svg([puzzle(HIT)], title=title, answers=False)
    root = ET.fromstring(doc)
    width = float(root.get("width"))
    ns = "{http://www.w3.org/2000/svg}"
    heads = [t for t in root.iter(ns + "text") if t.get("font-size") == "18"]
    assert len(heads) == 3 and " ".join(t.text for t in heads) == title.strip()
    assert all(10 + text_width(t.text, 18) <= width - 10 for t in heads)
    first = next(g for g in root.iter(ns + "g") if g.get("transform", "").startswith("translate"))
    assert float(first.get("transform").split(",")[1].rstrip(")")) > float(heads[-1].get("y"))
