"""Printable puzzle sheets: every puzzle of a set drawn with its cards
(SVG), then the answers; as one SVG picture or an HTML page laid out for
A4 printing (six puzzles a page, the answers on the pages after).

Nothing here computes a value: the answers are the puzzle lines' own
``bm``, ``v``, ``themes`` and ``c`` opcodes.

>>> from solver.notation import parse_position
>>> pos = parse_position('4.6.11 4.10.12/6.7 - S taken=16,16 last=N prev=4 ; bm 4 ; v -1')
>>> svg = sheet_svg([pos], title="demo")
>>> svg.startswith("<svg") and svg.count('class="card') == 8
True
"""

from __future__ import annotations

import html
import textwrap
from typing import NamedTuple

from ..cards import Card, RANK_NAMES
from ..notation import unwritten_piles
from ..position import Position, seat_names, side_names

CARD_W, CARD_H, GAP = 38, 56, 6
CELL_W, CELL_H = 370, 290
LEVEL_NAMES = {"1": "easy", "2": "medium", "3": "hard"}


def _esc(text: object) -> str:
    return html.escape(str(text), quote=True)


def card_svg(card: Card | None, x: float, y: float, mark: str = "") -> str:
    """One card at ``(x, y)`` (px, top-left): its rank large in the
    middle and small in the top-left corner, the suit letter in the
    top-right corner, the court name (Sota, Caballo, Rey) underneath;
    ``None`` draws a card back. ``mark``: ``"prev"`` (just
    played: orange frame) or ``"faint"`` (the other hands)."""
    if card is None:
        return (f'<g class="card back"><rect x="{x}" y="{y}" width="{CARD_W}" height="{CARD_H}" '
                f'rx="4" fill="#35608f" stroke="#1d3550"/>'
                f'<rect x="{x + 4}" y="{y + 4}" width="{CARD_W - 8}" height="{CARD_H - 8}" '
                f'rx="2" fill="none" stroke="#9fb9d6" stroke-dasharray="2 2"/></g>')
    stroke, width = ("#e07b00", 2.5) if mark == "prev" else ("#333", 1)
    fill = "#fbfaf5" if mark != "faint" else "#f1efe6"
    ink = "#9b1c1c" if card.rank in (1, 10, 11, 12) else "#1b1b1b"
    parts = ['<g class="card">',
             f'<rect x="{x}" y="{y}" width="{CARD_W}" height="{CARD_H}" rx="4" fill="{fill}" '
             f'stroke="{stroke}" stroke-width="{width}"/>',
             f'<text x="{x + 4}" y="{y + 11}" font-size="9" fill="{ink}">{card.rank}</text>',
             f'<text x="{x + CARD_W / 2}" y="{y + CARD_H / 2 + 8}" font-size="22" '
             f'font-weight="bold" text-anchor="middle" fill="{ink}">{card.rank}</text>']
    name = RANK_NAMES.get(card.rank)
    if name:
        parts.append(f'<text x="{x + CARD_W / 2}" y="{y + CARD_H - 5}" font-size="7.5" '
                     f'text-anchor="middle" fill="{ink}">{name}</text>')
    if card.suit:
        # top right, across from the corner rank: never over the court name
        parts.append(f'<text x="{x + CARD_W - 4}" y="{y + 11}" font-size="8" '
                     f'text-anchor="end" fill="#555">{card.suit}</text>')
    parts.append("</g>")
    return "".join(parts)


def cell_height(pos: Position, match: bool = False, show_themes: bool = False) -> int:
    """Height (px) of one puzzle's drawing: ``CELL_H`` for two players, a
    card row more for a third player, the seats around the table for
    four (:func:`_table4_height`); the table taller when its cards take
    more than one row or its notes go under them (:func:`_rows_table`); a
    line more for each line of facts past two (:func:`_fact_lines`) and
    (``match``) for a puzzle played for the match, and for each line of
    themes under the title (``show_themes``, :func:`_title_parts`)."""
    extra = FACT_H * (len(_fact_lines(pos)) - 2 + (1 if match else 0)
                      + len(_title_parts(pos, show_themes)[2]))
    if pos.players == 4:
        return TITLE_H + _table4_height(pos) + FOOT_H + extra
    return (CELL_H + (pos.players - 2) * (CARD_H + 4) + _rows_table(pos).height - ROWS_TABLE_H
            + extra)


#: the height of a line of facts under a drawing, and its font size
FACT_H, FACT_SIZE = 13, 9.5
#: the font size of the notes on the table (the card just laid, a pile on show)
NOTE_SIZE = 9
#: the width of a character, in em: a safe estimate for DejaVu Sans (its
#: average is 0.46 to 0.56 em in these texts, measured in chromium)
TEXT_EM = 0.6


def text_width(text: str, size: float) -> float:
    """The width (px) a text of font size ``size`` is given on the sheet,
    an upper estimate (``TEXT_EM`` a character)."""
    return len(text) * size * TEXT_EM


def chars_within(width: float, size: float) -> int:
    """The characters of font size ``size`` a line of ``width`` px holds
    at :func:`text_width`'s estimate (at least one)."""
    return max(1, int(width // (size * TEXT_EM)))


TITLE_H, FOOT_H = 30, 72
SIDE_X = 12                     # the left edge of a side seat's column
TABLE_COLS = 5                  # cards a row on the four-player table
# two or three players: the table's box, its cards' left edge, and its
# height with one row of cards and the notes beside them
ROWS_TABLE_X, ROWS_CARDS_X, ROWS_TABLE_H = 30, 38, CARD_H + 16
ROWS_TABLE_W = CELL_W - 44


def _label(x: float, y: float, text: str, to_play: bool, anchor: str = "start") -> str:
    fill = "#9b1c1c" if to_play else "#555"
    return (f'<text class="label" x="{x}" y="{y}" font-size="12" font-weight="bold" '
            f'text-anchor="{anchor}" fill="{fill}">{_esc(text)}</text>')


def _hand(pos: Position, seat: int, cards_xy: list[tuple[float, float]]) -> str:
    """One seat's hand, a card at each ``(x, y)``, in a ``hand`` group
    named by its seat; the other hands are drawn faint."""
    names = seat_names(pos.players)
    faint = seat != pos.turn
    out = [f'<g class="hand" data-seat="{names[seat]}">']
    for c, (x, y) in zip(pos.hands[seat], cards_xy):
        out.append(card_svg(c, x, y, "faint" if faint and c is not None else ""))
    out.append("</g>")
    return "".join(out)


def _table_cards(pos: Position, x: float, y: float, cols: int) -> str:
    out = ['<g class="table-cards">']
    marked = False
    for i, c in enumerate(pos.table):
        mark = ""
        if pos.prev is not None and not marked and c.rank == pos.prev.rank and (
                pos.prev.suit is None or c.suit == pos.prev.suit):
            mark, marked = "prev", True
        out.append(card_svg(c, x + (i % cols) * (CARD_W + GAP), y + (i // cols) * (CARD_H + GAP),
                            mark))
    out.append("</g>")
    return "".join(out)


def _table_notes(pos: Position) -> list[str]:
    names = seat_names(pos.players)
    notes = []
    if pos.prev is not None:
        notes.append(f"{names[(pos.turn - 1) % pos.players]} just laid {pos.prev}")
    if pos.show is not None:
        owner = (names[pos.show.seat] if pos.show.seat is not None
                 else names[(pos.turn - 1) % pos.players])
        notes.append(f"on show: {pos.show.size} \u00d7 {pos.show.rank} ({owner})")
    return notes


def _table4_band(pos: Position) -> tuple[float, float, float]:
    """The band between N's and S's rows of a four-player drawing:
    ``(table_h, top, band)``, the table's height, its least distance from
    the band's top (under W's and E's labels when one reaches over the
    table, as "W: no cards left" does) and the band's height."""
    rows = max(1, -(-len(pos.table) // TABLE_COLS))
    notes = len(_table_notes(pos))
    table_h = rows * (CARD_H + GAP) + 10 + 12 * notes
    column = 16 + max(len(pos.hands[1]), len(pos.hands[3]), 1) * (CARD_H + 4)
    reach = max(text_width(_seat_text(pos, s), 12) for s in (1, 3))
    top = 18 if SIDE_X + reach + 4 > SIDE_X + CARD_W + 14 else 0
    return table_h, top, max(table_h + top, column)


def _table4_height(pos: Position) -> int:
    return 2 * (CARD_H + 22) + _table4_band(pos)[2] + 12


def _around_table(pos: Position, y0: float) -> tuple[str, float]:
    """Four seats around the table: S at the bottom, N at the top, E on
    the right, W on the left (side hands in columns). Returns the drawing
    and the y below it."""
    names = seat_names(4)
    seat = {n: i for i, n in enumerate(names)}
    out = []
    row_w = lambda n: n * (CARD_W + GAP) - GAP  # noqa: E731
    # N at the top, centred, its label above
    n_cards = pos.hands[seat["N"]]
    x = (CELL_W - row_w(len(n_cards))) / 2
    out.append(_label(CELL_W / 2, y0 + 12, _seat_text(pos, seat["N"]), pos.turn == seat["N"],
                      "middle"))
    out.append(_hand(pos, seat["N"], [(x + i * (CARD_W + GAP), y0 + 18)
                                      for i in range(len(n_cards))]))
    mid = y0 + CARD_H + 22
    # W and E in columns, labels above them
    east_x = CELL_W - SIDE_X - CARD_W
    for name, cx, anchor, lx in (("W", SIDE_X, "start", SIDE_X),
                                 ("E", east_x, "end", CELL_W - SIDE_X)):
        s = seat[name]
        out.append(_label(lx, mid + 12, _seat_text(pos, s), pos.turn == s, anchor))
        out.append(_hand(pos, s, [(cx, mid + 16 + i * (CARD_H + 4))
                                  for i in range(len(pos.hands[s]))]))
    # the table between them
    tx0 = SIDE_X + CARD_W + 14
    tx1 = east_x - 14
    rows = max(1, -(-len(pos.table) // TABLE_COLS))
    notes = _table_notes(pos)
    table_h, top, band = _table4_band(pos)
    ty = mid + max((band - table_h) / 2, top)
    out.append(f'<rect class="table" x="{tx0}" y="{ty}" width="{tx1 - tx0}" height="{table_h}" '
               f'rx="8" fill="#2e7d4f" stroke="#1f5a38"/>')
    cols = min(TABLE_COLS, max(1, len(pos.table)))
    cx = tx0 + (tx1 - tx0 - row_w(cols)) / 2
    if pos.table:
        out.append(_table_cards(pos, cx, ty + 8, TABLE_COLS))
    else:
        out.append(f'<text x="{(tx0 + tx1) / 2}" y="{ty + table_h / 2 + 4}" font-size="12" '
                   f'fill="#d8eadf" text-anchor="middle">empty table</text>')
    for k, note in enumerate(notes):
        out.append(f'<text x="{(tx0 + tx1) / 2}" y="{ty + rows * (CARD_H + GAP) + 10 + 12 * k}" '
                   f'font-size="9" text-anchor="middle" fill="#ffd9a8">{_esc(note)}</text>')
    # S at the bottom, centred, its label below
    sy = mid + band + 12
    s_cards = pos.hands[seat["S"]]
    x = (CELL_W - row_w(len(s_cards))) / 2
    out.append(_hand(pos, seat["S"], [(x + i * (CARD_W + GAP), sy)
                                      for i in range(len(s_cards))]))
    out.append(_label(CELL_W / 2, sy + CARD_H + 14, _seat_text(pos, seat["S"]),
                      pos.turn == seat["S"], "middle"))
    return "".join(out), sy + CARD_H + 22


def _seat_text(pos: Position, seat: int) -> str:
    name = seat_names(pos.players)[seat]
    if seat == pos.turn:
        return f"{name} to play"
    return name if pos.hands[seat] else f"{name}: no cards left"


def _title_parts(pos: Position, show_themes: bool) -> tuple[str, str, list[str]]:
    """A drawing's title after its number: ``(level, beside, under)``, the
    level's stars and name, and (``show_themes``) the themes: ``beside``
    the level when the title still fits left of the id (measured with a
    three-digit number, so the drawing's height does not depend on it),
    else ``under`` it in lines of facts' size across the drawing."""
    level = pos.opcode("level")
    text = ""
    if level:
        stars = "\u2605" * int(level) + "\u2606" * (3 - int(level))
        text = f"  {stars} {LEVEL_NAMES.get(level, level)}"
    if not (show_themes and pos.opcode("themes")):
        return text, "", []
    # under the match the themes are the match play's (puzzles check)
    themes = pos.opcode("themes")
    beside = f"  \u00b7 {themes}"
    room = CELL_W - 24 - text_width(pos.opcode("id") or "", 9) - 8
    if text_width("999." + text + beside, 13) <= room:
        return text, beside, []
    width = CELL_W - 24
    chars = chars_within(width, FACT_SIZE)
    return text, "", textwrap.wrap(f"themes: {themes}", chars)


def puzzle_svg(pos: Position, number: int | None = None, show_themes: bool = False,
               x: float = 0, y: float = 0, match: str | None = None) -> str:
    """The drawing of one puzzle, a ``CELL_W`` x :func:`cell_height` px
    group at ``(x, y)``: a title (number, level, id), the other hands (face
    up; a declaration puzzle shows only what the mover knows, the declared
    cards, the rest face down: :func:`solver.analysis.hidden.mover_view`), the table
    with the card just played framed, a pile on show, the mover's hand, and
    the facts (stock, piles, last capture, rules, declarations: two lines,
    more when they do not fit the width, :func:`_fact_lines`), and
    ``match`` (the score and target of a puzzle played for the match,
    :func:`solver.puzzles.puzzle.match_heading`) in a line after them.
    ``show_themes``: the themes beside the level, or under the title when
    they do not fit there (:func:`_title_parts`).
    Four players sit around the table: S at the bottom, N at the top, E on
    the right, W on the left."""
    from ..analysis.hidden import hides_cards, mover_view
    if hides_cards(pos):
        pos = mover_view(pos)
    height = cell_height(pos, match is not None, show_themes)
    title = f"{number}." if number is not None else ""
    level, beside, under = _title_parts(pos, show_themes)
    title += level + beside
    pid = pos.opcode("id") or ""
    out = [f'<g transform="translate({x},{y})" font-family="DejaVu Sans, Arial, sans-serif">',
           f'<rect x="1" y="1" width="{CELL_W - 2}" height="{height - 2}" rx="8" fill="#fff" '
           f'stroke="#bbb"/>',
           f'<text x="12" y="20" font-size="13" font-weight="bold">{_esc(title)}</text>',
           f'<text x="{CELL_W - 12}" y="20" font-size="9" fill="#888" text-anchor="end">'
           f'{_esc(pid)}</text>']
    for k, text in enumerate(under):
        out.append(f'<text class="themes" x="12" y="{20 + FACT_H * (k + 1)}" '
                   f'font-size="{FACT_SIZE}" fill="#333">{_esc(text)}</text>')
    top = TITLE_H + FACT_H * len(under)
    if pos.players == 4:
        body, row_y = _around_table(pos, top)
        out.append(body)
        row_y += 6
    else:
        body, row_y = _rows(pos, top)
        out.append(body)
    for text in _fact_lines(pos):
        out.append(f'<text class="fact" x="12" y="{row_y}" font-size="{FACT_SIZE}" '
                   f'fill="#333">{_esc(text)}</text>')
        row_y += FACT_H
    if match is not None:
        out.append(f'<text class="objective" x="12" y="{row_y}" font-size="10" '
                   f'font-weight="bold" fill="#9b1c1c">{_esc(match)}</text>')
        row_y += FACT_H
    out.append(f'<text x="12" y="{height - 10}" font-size="11">Your play: '
               f'<tspan fill="#999">____________</tspan></text>')
    out.append("</g>")
    return "".join(out)


class _RowsTable(NamedTuple):
    """The table of a two- or three-player drawing: ``cols`` cards a row
    in ``rows`` rows, the box ``height`` px, and its ``notes`` (the card
    just laid, a pile on show) with each one's baseline ``(x, y)``, y from
    the box's top."""
    cols: int
    rows: int
    height: float
    notes: list[str]
    note_xy: list[tuple[float, float]]


def _rows_table(pos: Position) -> _RowsTable:
    """Lay out the table of a two- or three-player drawing: as many cards
    a row as the box holds; the notes to the right of the cards when they
    fit there (the pile on show at the top, the card just laid at the
    bottom), else a line each under the cards."""
    inner = ROWS_TABLE_X + ROWS_TABLE_W - 8           # the right edge of the cards' room
    fit = max(1, int((inner - ROWS_CARDS_X + GAP) // (CARD_W + GAP)))
    n = len(pos.table)
    cols = min(max(n, 1), fit)
    rows = max(1, -(-n // cols))
    cards_h = rows * CARD_H + (rows - 1) * GAP
    notes = _table_notes(pos)
    # the card just laid last, at the bottom of the box
    notes = notes[1:] + notes[:1] if pos.prev is not None else notes
    note_x = ROWS_CARDS_X + (cols * (CARD_W + GAP) if n else 0) + 4
    widest = max((text_width(t, NOTE_SIZE) for t in notes), default=0)
    beside = note_x + widest <= inner and cards_h >= 12 * len(notes) + 20
    if beside or not notes:
        height = cards_h + 16
        if len(notes) == 1:
            xy = [(note_x, height - 8 if pos.prev is not None else 16)]
        else:
            xy = [(note_x, 16 + (height - 24) * k / max(1, len(notes) - 1))
                  for k in range(len(notes))]
        return _RowsTable(cols, rows, height, notes, xy)
    top = 8 + cards_h
    xy = [(ROWS_CARDS_X, top + 11 + 12 * k) for k in range(len(notes))]
    return _RowsTable(cols, rows, top + 12 * len(notes) + 4, notes, xy)


def _rows(pos: Position, top: float = TITLE_H) -> tuple[str, float]:
    """Two or three players in rows from ``top`` down: the other hands at
    the top (the next player nearest the table), the table, the mover at
    the bottom."""
    names = seat_names(pos.players)
    mover = pos.turn
    out = []
    row_y = top
    others = [(mover + k) % pos.players for k in range(1, pos.players)]
    row_h = CARD_H + 8
    for seat in reversed(others):
        out.append(_label(12, row_y + CARD_H / 2 + 4, names[seat], False))
        hand = pos.hands[seat]
        if hand:
            out.append(_hand(pos, seat, [(34 + i * (CARD_W + GAP), row_y)
                                         for i in range(len(hand))]))
        else:
            out.append(f'<text x="34" y="{row_y + CARD_H / 2 + 4}" font-size="11" '
                       f'fill="#888">no cards left</text>')
        row_y += row_h
        row_h = CARD_H + 4
    t = _rows_table(pos)
    table_h = t.height
    out.append(f'<rect class="table" x="{ROWS_TABLE_X}" y="{row_y}" width="{ROWS_TABLE_W}" '
               f'height="{table_h}" rx="8" fill="#2e7d4f" stroke="#1f5a38"/>')
    if pos.table:
        out.append(_table_cards(pos, ROWS_CARDS_X, row_y + 8, t.cols))
    else:
        out.append(f'<text x="{CELL_W / 2}" y="{row_y + table_h / 2 + 4}" font-size="12" '
                   f'fill="#d8eadf" text-anchor="middle">empty table</text>')
    for text, (nx, ny) in zip(t.notes, t.note_xy):
        out.append(f'<text x="{nx}" y="{row_y + ny}" font-size="{NOTE_SIZE}" '
                   f'fill="#ffd9a8">{_esc(text)}</text>')
    row_y += table_h + 6
    out.append(_label(12, row_y + CARD_H / 2 + 4, names[mover], False).replace("#555", "#1b1b1b"))
    hand = pos.hands[mover]
    out.append(_hand(pos, mover, [(34 + i * (CARD_W + GAP), row_y) for i in range(len(hand))]))
    hand_end = 34 + len(hand) * (CARD_W + GAP)
    out.append(f'<text x="{hand_end + 4}" y="{row_y + CARD_H / 2 + 4}" font-size="11" '
               f'fill="#9b1c1c">\u2190 {names[mover]} to play</text>')
    return "".join(out), row_y + CARD_H + 16


def _facts(pos: Position) -> list[str]:
    """One or two lines of facts under a puzzle drawing."""
    names = seat_names(pos.players)
    sides = side_names(pos.players)
    if pos.stock_kind == "known" and not pos.stock:
        stock = "last deal, stock empty"
    elif pos.stock_kind == "known":
        stock = f"stock in order: {' '.join(str(c) for c in pos.stock)}"
    elif pos.stock_kind == "shuffled":
        stock = f"stock: {len(pos.stock)} cards, unknown order"
    else:
        stock = f"stock: {pos.stock_count()} cards, the cards not seen"
    missing = unwritten_piles(pos)
    if missing:
        piles = f"piles not written ({missing} cards)"
    else:
        piles = "piles " + ", ".join(f"{s} {n}" for s, n in zip(sides, pos.pile_sizes()))
    line1 = f"{stock} \u00b7 {piles}"
    if pos.rules.voleur and pos.tops is not None:
        line1 += " \u00b7 tops " + ", ".join(
            f"{s} {'-' if c is None else c}" for s, c in zip(sides, pos.tops))
    if pos.last is not None:
        line1 += f" \u00b7 last capture {names[pos.last]}"
    rules = pos.preset + ("".join(f" {k}={v}" for k, v in pos.overrides.items()))
    line2 = f"rules {rules}"
    if pos.declared:
        line2 += " \u00b7 declared " + ", ".join(
            f"{names[d.seat]} {d.kind}{'' if d.rank is None else ' ' + str(d.rank)}"
            for d in pos.declared)
    return [line1, line2]


def _fact_lines(pos: Position) -> list[str]:
    """:func:`_facts` in lines that fit the drawing's width (``CELL_W``
    less a 12 px margin each side): each fact line broken between its
    facts (at the `` · ``), a fact too long for a line of its own (a long
    stock in order) broken between words."""
    width = CELL_W - 24
    chars = chars_within(width, FACT_SIZE)
    out = []
    for line in _facts(pos):
        current = ""
        for fact in line.split(" \u00b7 "):
            joined = f"{current} \u00b7 {fact}" if current else fact
            if text_width(joined, FACT_SIZE) <= width:
                current = joined
                continue
            if current:
                out.append(current)
            pieces = textwrap.wrap(fact, chars) or [""]
            out += pieces[:-1]
            current = pieces[-1]
        out.append(current)
    return out


def _answer_lines(pos: Position, number: int, width: int,
                  match: tuple[str, str | None] | None = None) -> list[str]:
    bm = pos.opcode("bm") or "?"
    v = pos.opcode("v")
    themes = pos.opcode("themes") or ""
    margin = pos.opcode("margin")
    head = f"{number}. {bm}"
    if match is not None:
        head += f"  ({_match_meta(match)})"
    elif v is not None:
        head += f"  (value {v}"
        head += f", {margin} better than any other play)" if margin else ")"
    if themes:
        head += f"  [{themes}]"
    lines = textwrap.wrap(head, width)
    from .puzzle import seen_note
    c = seen_note(pos, pos.opcode("c"))
    if c:
        lines += ["    " + t for t in textwrap.wrap(c, width - 4)]
    return lines


def _match_meta(match: tuple[str, str | None]) -> str:
    """An answer's words under the match: ``playing for the match: S 40,
    N 39, target 41; 100% to win it``."""
    heading, chance = match
    return heading + (f"; {chance} to win it" if chance else "")


def _matches(puzzles: list[Position], matches) -> list:
    return list(matches) if matches is not None else [None] * len(puzzles)


def sheet_svg(puzzles: list[Position], title: str = "Ronda puzzles", columns: int = 2,
              answers: bool = True, show_themes: bool = False, matches=None) -> str:
    """One SVG picture: a title, every puzzle in ``columns`` columns, then
    (``answers``) the answers with their explanations. ``matches``: for
    each puzzle None (judged in points) or, played for the match,
    ``(heading, chance)`` (:func:`solver.puzzles.puzzle.match_answer`): the
    heading is drawn under the puzzle, and its answer gives the heading
    and the chance of winning the match instead of the points (``v``,
    ``margin``)."""
    matches = _matches(puzzles, matches)
    width = columns * CELL_W + (columns + 1) * 10
    # the title wrapped within the picture's width (a line of 22 px a line)
    heads = textwrap.wrap(title, chars_within(width - 20, 18)) or [""]
    body = [f'<text x="10" y="{26 + 22 * k}" font-size="18" font-weight="bold" '
            f'font-family="DejaVu Sans, Arial, sans-serif">{_esc(head)}</text>'
            for k, head in enumerate(heads)]
    y = 40 + 22 * (len(heads) - 1)
    for start in range(0, len(puzzles), columns):
        row = puzzles[start:start + columns]
        for k, pos in enumerate(row):
            m = matches[start + k]
            body.append(puzzle_svg(pos, start + k + 1, show_themes, 10 + k * (CELL_W + 10), y,
                                   None if m is None else m[0]))
        y += max(cell_height(pos, matches[start + k] is not None, show_themes)
                 for k, pos in enumerate(row)) + 10
    y += 20
    if answers and puzzles:
        body.append(f'<text x="10" y="{y}" font-size="15" font-weight="bold" '
                    f'font-family="DejaVu Sans, Arial, sans-serif">Answers</text>')
        y += 20
        chars = chars_within(width - 20, 10)   # 10 px margins
        for i, pos in enumerate(puzzles):
            for k, line in enumerate(_answer_lines(pos, i + 1, chars, matches[i])):
                weight = ' font-weight="bold"' if k == 0 else ""
                body.append(f'<text x="10" y="{y}" font-size="10"{weight} '
                            f'font-family="DejaVu Sans, Arial, sans-serif">{_esc(line)}</text>')
                y += 13
            y += 5
    height = y + 10
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
            f'viewBox="0 0 {width} {height}">'
            f'<rect width="100%" height="100%" fill="#fff"/>' + "".join(body) + "</svg>\n")


#: the height (CSS px) an A4 page gives the puzzles' rows under its
#: title: 273 mm inside the 12 mm margins is 1,032 px, less the title's
#: 16 pt and 6 mm (about 44 px)
PAGE_BODY_H = 985
#: the gap between two rows of drawings (the grid's ``gap``)
ROW_GAP = 8


def page_starts(heights: list[int], per_page: int) -> list[int]:
    """The index of each page's first puzzle on the HTML sheet: rows of two
    drawings (a row as tall as its taller one) until ``per_page`` puzzles or
    the next row would pass :data:`PAGE_BODY_H`; at least one row a page.

    >>> page_starts([290] * 8, 6), page_starts([363] * 8, 6), page_starts([466] * 5, 6)
    ([0, 6], [0, 4], [0, 4])
    """
    starts: list[int] = []
    used = 0
    count = 0
    for i in range(0, len(heights), 2):
        row = max(heights[i:i + 2])
        size = len(heights[i:i + 2])
        if not starts or count + size > per_page or used + ROW_GAP + row > PAGE_BODY_H:
            starts.append(i)
            used, count = row, size
        else:
            used += ROW_GAP + row
            count += size
    return starts


def sheet_html(puzzles: list[Position], title: str = "Ronda puzzles", per_page: int = 6,
               answers: bool = True, show_themes: bool = False, matches=None) -> str:
    """An HTML page for printing on A4: at most ``per_page`` puzzles a
    page in two columns, as many rows as fit the page
    (:func:`page_starts`), then the answers (move, value, margin, themes,
    explanation; ``matches`` as :func:`sheet_svg`'s)."""
    from .puzzle import seen_note
    matches = _matches(puzzles, matches)
    heights = [cell_height(pos, m is not None, show_themes) for pos, m in zip(puzzles, matches)]
    starts = page_starts(heights, per_page)
    pages = []
    for n, (start, end) in enumerate(zip(starts, starts[1:] + [len(puzzles)]), start=1):
        cells = []
        for i, pos in enumerate(puzzles[start:end], start=start + 1):
            m = matches[i - 1]
            h = heights[i - 1]
            cells.append(f'<svg xmlns="http://www.w3.org/2000/svg" width="{CELL_W}" '
                         f'height="{h}" viewBox="0 0 {CELL_W} {h}">'
                         + puzzle_svg(pos, i, show_themes, match=None if m is None else m[0])
                         + "</svg>")
        pages.append('<section class="page"><h1>' + _esc(title)
                     + (f" <small>({n})</small>" if len(starts) > 1 else "")
                     + '</h1><div class="grid">' + "".join(cells) + "</div></section>")
    if answers and puzzles:
        items = []
        for i, pos in enumerate(puzzles, start=1):
            bm = _esc(pos.opcode("bm") or "?")
            v = pos.opcode("v")
            margin = pos.opcode("margin")
            meta = []
            if matches[i - 1] is not None:      # the match's words, not the points
                meta.append(_esc(_match_meta(matches[i - 1])))
            else:
                if v is not None:
                    meta.append(f"value {_esc(v)}")
                if margin:
                    meta.append(f"{_esc(margin)} better than any other play")
            if pos.opcode("themes"):
                meta.append(_esc(pos.opcode("themes")))
            items.append(f"<li><b>{bm}</b> <span class=meta>{' · '.join(meta)}</span>"
                         f"<br>{_esc(seen_note(pos, pos.opcode('c')) or '')}</li>")
        pages.append('<section class="answers"><h1>Answers</h1><ol>' + "".join(items)
                     + "</ol></section>")
    style = """
@page { size: A4; margin: 12mm; }
body { font-family: "DejaVu Sans", Arial, sans-serif; margin: 0; color: #1b1b1b; }
h1 { font-size: 16pt; margin: 0 0 6mm 0; } h1 small { font-weight: normal; color: #777; }
.page { page-break-after: always; }
.grid { display: grid; grid-template-columns: repeat(2, 370px); gap: 8px; }
.answers ol { font-size: 9.5pt; padding-left: 7mm; } .answers li { margin-bottom: 2.5mm; }
.meta { color: #555; }
@media screen { body { margin: 10mm; } .page { margin-bottom: 12mm; } }
"""
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            f"<title>{_esc(title)}</title><style>{style}</style></head><body>"
            + "".join(pages) + "</body></html>\n")
