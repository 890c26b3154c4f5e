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

from .cards import Card, RANK_NAMES
from .position import Position, seat_names, side_names

CARD_W, CARD_H, GAP = 38, 56, 6
CELL_W, CELL_H = 370, 290
LEVEL_NAMES = {"1": "easy", "2": "medium", "3": "hard"}


def _esc(text: object) -> str:
    return html.escape(str(text), quote=True)


def card_svg(card: Card | None, x: float, y: float, mark: str = "") -> str:
    """One card at ``(x, y)`` (px, top-left): its rank large in the
    middle, small in the corners, the court name (Sota, Caballo, Rey)
    underneath; ``None`` draws a card back. ``mark``: ``"prev"`` (just
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
        parts.append(f'<text x="{x + CARD_W - 4}" y="{y + CARD_H - 5}" font-size="8" '
                     f'text-anchor="end" fill="#555">{card.suit}</text>')
    parts.append("</g>")
    return "".join(parts)


def _row(cards: list[Card | None], x: float, y: float, mark_first: Card | None = None,
         faint: bool = False) -> str:
    out = []
    marked = False
    for i, c in enumerate(cards):
        mark = "faint" if faint else ""
        if mark_first is not None and not marked and c is not None and c.rank == mark_first.rank \
                and (mark_first.suit is None or c.suit == mark_first.suit):
            mark, marked = "prev", True
        out.append(card_svg(c, x + i * (CARD_W + GAP), y, mark))
    return "".join(out)


def cell_height(pos: Position) -> int:
    """Height (px) of one puzzle's drawing: ``CELL_H`` for two players, a
    card row more for each further player."""
    return CELL_H + (pos.players - 2) * (CARD_H + 4)


def puzzle_svg(pos: Position, number: int | None = None, show_themes: bool = False,
               x: float = 0, y: float = 0) -> str:
    """The drawing of one puzzle, a ``CELL_W`` x :func:`cell_height` px
    group at ``(x, y)``: a title (number, level, id), the other hands face
    up (a puzzle shows every card), the table with the card just played
    framed, a pile on show, the mover's hand, and two lines of facts
    (stock, piles, last capture, rules, declarations)."""
    height = cell_height(pos)
    names = seat_names(pos.players)
    mover = pos.turn
    level = pos.opcode("level")
    title = f"{number}." if number is not None else ""
    if level:
        stars = "\u2605" * int(level) + "\u2606" * (3 - int(level))
        title += f"  {stars} {LEVEL_NAMES.get(level, level)}"
    if show_themes and pos.opcode("themes"):
        title += f"  \u00b7 {pos.opcode('themes')}"
    pid = pos.opcode("id") or ""
    out = [f'<g transform="translate({x},{y})" font-family="DejaVu Sans, Arial, sans-serif">',
           f'<rect x="1" y="1" width="{CELL_W - 2}" height="{height - 2}" rx="8" fill="#fff" '
           f'stroke="#bbb"/>',
           f'<text x="12" y="20" font-size="13" font-weight="bold">{_esc(title)}</text>',
           f'<text x="{CELL_W - 12}" y="20" font-size="9" fill="#888" text-anchor="end">'
           f'{_esc(pid)}</text>']
    row_y = 30
    others = [(mover + k) % pos.players for k in range(1, pos.players)]
    row_h = CARD_H + 8
    # the other hands, face up, smaller rows
    for seat in reversed(others):
        out.append(f'<text x="12" y="{row_y + CARD_H / 2 + 4}" font-size="12" '
                   f'font-weight="bold" fill="#555">{names[seat]}</text>')
        hand = pos.hands[seat]
        if hand:
            out.append(_row(list(hand), 34, row_y, faint=True))
        else:
            out.append(f'<text x="34" y="{row_y + CARD_H / 2 + 4}" font-size="11" '
                       f'fill="#888">no cards left</text>')
        row_y += row_h
        row_h = CARD_H + 4
    # the table
    table_h = CARD_H + 16
    out.append(f'<rect x="30" y="{row_y}" width="{CELL_W - 44}" height="{table_h}" rx="8" '
               f'fill="#2e7d4f" stroke="#1f5a38"/>')
    if pos.table:
        out.append(_row(list(pos.table), 38, row_y + 8, mark_first=pos.prev))
    else:
        out.append(f'<text x="{CELL_W / 2}" y="{row_y + table_h / 2 + 4}" font-size="12" '
                   f'fill="#d8eadf" text-anchor="middle">empty table</text>')
    note_x = 38 + len(pos.table) * (CARD_W + GAP) + 4
    if pos.prev is not None:
        prev_seat = names[(mover - 1) % pos.players]
        out.append(f'<text x="{min(note_x, CELL_W - 100)}" y="{row_y + table_h - 8}" font-size="9" '
                   f'fill="#ffd9a8">{prev_seat} just laid {pos.prev}</text>')
    if pos.show is not None:
        owner = names[pos.show.seat] if pos.show.seat is not None else names[(mover - 1) % pos.players]
        out.append(f'<text x="{min(note_x, CELL_W - 120)}" y="{row_y + 16}" font-size="9" '
                   f'fill="#ffd9a8">on show: {pos.show.size} \u00d7 {pos.show.rank} ({owner})</text>')
    row_y += table_h + 6
    # the mover
    out.append(f'<text x="12" y="{row_y + CARD_H / 2 + 4}" font-size="12" '
               f'font-weight="bold">{names[mover]}</text>')
    out.append(_row(list(pos.hands[mover]), 34, row_y))
    hand_end = 34 + len(pos.hands[mover]) * (CARD_W + GAP)
    out.append(f'<text x="{hand_end + 4}" y="{row_y + CARD_H / 2 + 4}" font-size="11" '
               f'fill="#9b1c1c">\u2190 {names[mover]} to play</text>')
    row_y += CARD_H + 16
    for text in _facts(pos):
        out.append(f'<text x="12" y="{row_y}" font-size="9.5" fill="#333">{_esc(text)}</text>')
        row_y += 13
    out.append(f'<text x="12" y="{height - 10}" font-size="11">Your play: '
               f'<tspan fill="#999">____________</tspan></text>')
    out.append("</g>")
    return "".join(out)


def _facts(pos: Position) -> list[str]:
    """One or two lines of facts under a puzzle drawing."""
    names = seat_names(pos.players)
    sides = side_names(pos.players)
    if pos.stock_kind == "known" and not pos.stock:
        stock = "last deal, stock empty"
    elif pos.stock_kind == "known":
        stock = f"stock in order: {' '.join(str(c) for c in pos.stock)}"
    else:
        stock = f"stock: {len(pos.stock)} cards, unknown order"
    piles = ", ".join(f"{s} {n}" for s, n in zip(sides, pos.pile_sizes()))
    line1 = f"{stock} \u00b7 piles {piles}"
    if pos.last is not None:
        line1 += f" \u00b7 last capture {names[pos.last]}"
    rules = pos.preset + ("".join(f" {k}={v}" for k, v in pos.overrides.items()))
    line2 = f"rules {rules}"
    if pos.declared:
        line2 += " \u00b7 declared " + ", ".join(
            f"{names[d.seat]} {d.kind}{'' if d.rank is None else ' ' + str(d.rank)}"
            for d in pos.declared)
    return [line1, line2]


def _answer_lines(pos: Position, number: int, width: int) -> list[str]:
    bm = pos.opcode("bm") or "?"
    v = pos.opcode("v")
    themes = pos.opcode("themes") or ""
    margin = pos.opcode("margin")
    head = f"{number}. {bm}"
    if v is not None:
        head += f"  (value {v}"
        head += f", {margin} better than any other play)" if margin else ")"
    if themes:
        head += f"  [{themes}]"
    lines = textwrap.wrap(head, width)
    c = pos.opcode("c")
    if c:
        lines += ["    " + t for t in textwrap.wrap(c, width - 4)]
    return lines


def sheet_svg(puzzles: list[Position], title: str = "Ronda puzzles", columns: int = 2,
              answers: bool = True, show_themes: bool = False) -> str:
    """One SVG picture: a title, every puzzle in ``columns`` columns, then
    (``answers``) the answers with their explanations."""
    width = columns * CELL_W + (columns + 1) * 10
    body = [f'<text x="10" y="26" font-size="18" font-weight="bold" '
            f'font-family="DejaVu Sans, Arial, sans-serif">{_esc(title)}</text>']
    y = 40
    for start in range(0, len(puzzles), columns):
        row = puzzles[start:start + columns]
        for k, pos in enumerate(row):
            body.append(puzzle_svg(pos, start + k + 1, show_themes, 10 + k * (CELL_W + 10), y))
        y += max(cell_height(pos) for pos in row) + 10
    y += 20
    if answers and puzzles:
        body.append(f'<text x="10" y="{y}" font-size="15" font-weight="bold" '
                    f'font-family="DejaVu Sans, Arial, sans-serif">Answers</text>')
        y += 20
        chars = int(width / 5.6)
        for i, pos in enumerate(puzzles):
            for k, line in enumerate(_answer_lines(pos, i + 1, chars)):
                weight = ' font-weight="bold"' if k == 0 else ""
                body.append(f'<text x="10" y="{y}" font-size="10"{weight} '
                            f'font-family="DejaVu Sans, Arial, sans-serif">{_esc(line)}</text>')
                y += 13
            y += 5
    height = y + 10
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
            f'viewBox="0 0 {width} {height}">'
            f'<rect width="100%" height="100%" fill="#fff"/>' + "".join(body) + "</svg>\n")


def sheet_html(puzzles: list[Position], title: str = "Ronda puzzles", per_page: int = 6,
               answers: bool = True, show_themes: bool = False) -> str:
    """An HTML page for printing on A4: ``per_page`` puzzles a page in two
    columns, then the answers (move, value, margin, themes, explanation)."""
    pages = []
    for start in range(0, len(puzzles), per_page):
        cells = []
        for i, pos in enumerate(puzzles[start:start + per_page], start=start + 1):
            h = cell_height(pos)
            cells.append(f'<svg xmlns="http://www.w3.org/2000/svg" width="{CELL_W}" '
                         f'height="{h}" viewBox="0 0 {CELL_W} {h}">'
                         + puzzle_svg(pos, i, show_themes) + "</svg>")
        pages.append('<section class="page"><h1>' + _esc(title)
                     + (f" <small>({start // per_page + 1})</small>" if len(puzzles) > per_page
                        else "") + '</h1><div class="grid">' + "".join(cells) + "</div></section>")
    if answers and puzzles:
        items = []
        for i, pos in enumerate(puzzles, start=1):
            bm = _esc(pos.opcode("bm") or "?")
            v = pos.opcode("v")
            margin = pos.opcode("margin")
            meta = []
            if v is not None:
                meta.append(f"value {_esc(v)}")
            if margin:
                meta.append(f"{_esc(margin)} better than any other play")
            if pos.opcode("themes"):
                meta.append(_esc(pos.opcode("themes")))
            items.append(f"<li><b>{bm}</b> <span class=meta>{' · '.join(meta)}</span>"
                         f"<br>{_esc(pos.opcode('c') or '')}</li>")
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
