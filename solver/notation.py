"""Position lines (NOTATION.md): a strict parser, a canonical formatter and a
lenient file reader.

A position line is::

    <table> <hands> <stock> <turn> [key=value ...] [; opcode operand ; ...]

:func:`parse_position` reads one line into a :class:`~solver.position.Position`
and checks that it can be a real Ronda position; anything wrong raises a
:class:`NotationError` that names the line, the field and the problem.
:func:`format_position` writes the canonical line back, so that
``parse_position(format_position(p)) == p`` for every valid position and
``format_position(parse_position(s)) == s`` for every canonical line.
:func:`parse_file` reads a whole position file and collects the errors.

>>> pos = parse_position("1.3.5.11 2.2.7/4.6.12 ? S")
>>> pos.hands[1], pos.stock_kind, pos.turn
([Card(rank=4, suit=None), Card(rank=6, suit=None), Card(rank=12, suit=None)], 'unknown', 0)
>>> format_position(pos)
'1.3.5.11 2.2.7/4.6.12 ? S'
>>> parse_position("1.3.5.8 2.2.7/4.6.12 ? S", line=3)
Traceback (most recent call last):
...
solver.notation.NotationError: line 3, table: rank 8 does not exist in a Spanish 40-card deck
"""

from __future__ import annotations

import dataclasses
import re
from collections import Counter
from typing import Iterator, Sequence

from .cards import RANK_INDEX, RANKS, SUITS, Card
from .position import (
    SEAT_NAMES,
    DealHistory,
    Declaration,
    Position,
    Show,
    side_names,
    side_of,
)
from .rules import (DEFAULT_PRESET, Rules, RulesError, deal_sizes, format_value, player_counts,
                    preset, stock_sizes,
                    target_winner)

__all__ = [
    "NotationError",
    "parse_position",
    "format_position",
    "parse_file",
    "loads",
    "dumps",
    "KEY_ORDER",
]

#: Keys other than rule parameters, in canonical order (rule parameters come
#: right after ``rules=``, in the order they were written).
KEY_ORDER: tuple[str, ...] = (
    "rules", "dealer", "score", "taken", "last", "gone", "tops", "declared", "prev", "show",
    "hist",
)

#: Rule parameters that a line may override (every Rules field but ``name``).
RULE_KEYS: tuple[str, ...] = tuple(
    f.name for f in dataclasses.fields(Rules) if f.name != "name")

#: Opcodes whose operand is a quoted text; the quotes are not stored.
QUOTED_OPCODES: tuple[str, ...] = ("id", "c")

_DECK = 40
_ALL_SEATS = "SENW"
_INT_RE = re.compile(r"0|[1-9][0-9]*")
_CARD_RE = re.compile(r"([0-9]+)(.*)")
_SHOW_RE = re.compile(r"([^:@]+):([^:@]+)(?:@(.*))?")
_DECL_RE = re.compile(r"([A-Za-z]+):([a-z]+)(.*)")
_OPCODE_RE = re.compile(r"[a-z][a-z0-9_]*")
_NUMBER_RE = re.compile(r"[+-]?[0-9]+(?:\.[0-9]+)?")
_QUOTED_RE = re.compile(r'"([^"]*)"')


class NotationError(ValueError):
    """A position line that cannot be a position.

    Attributes: ``line`` (1-based line number or ``None``), ``field`` (the
    field or key at fault: ``table``, ``hands``, ``stock``, ``turn``, ``line``
    for the line's shape, a key name such as ``taken`` or ``target``, or an
    opcode name) and ``problem`` (what is wrong, in words).

    >>> str(NotationError("hands", "rank 8 does not exist in a Spanish 40-card deck", 3))
    'line 3, hands: rank 8 does not exist in a Spanish 40-card deck'
    >>> str(NotationError("prev", "5 is not on the table"))
    'prev: 5 is not on the table'
    """

    def __init__(self, field: str, problem: str, line: int | None = None) -> None:
        super().__init__(field, problem, line)
        self.field = field
        self.problem = problem
        self.line = line

    def __str__(self) -> str:
        where = f"line {self.line}, " if self.line is not None else ""
        return f"{where}{self.field}: {self.problem}"


def field_error(e: BaseException, text: str | None = None) -> str:
    """An error of a position as one ``field: problem`` line: an error
    that carries its field (``field`` and ``problem``, as NotationError
    and a refused table's SearchMemoryError, ``memory: ...``) names it,
    any other is the position's (``position: ``, then ``text``, by
    default the error's message).

    >>> field_error(NotationError("prev", "5 is not on the table", 3))
    'prev: 5 is not on the table'
    >>> field_error(ValueError("the hand is over"))
    'position: the hand is over'
    """
    field, problem = getattr(e, "field", None), getattr(e, "problem", None)
    if field and problem is not None:
        return f"{field}: {problem}"
    return f"position: {e if text is None else text}"


# ---------------------------------------------------------------------------
# Small readers. Each raises NotationError(field, problem) without a line;
# parse_position adds the line number.


def _card(text: str, field: str) -> Card:
    """Read one card (``5``, ``10c``) for ``field``."""
    m = _CARD_RE.fullmatch(text)
    if text == "":
        raise NotationError(field, "empty card (two '.' in a row, or a '.' at an end)")
    if m is None or m.group(1).startswith("0"):
        raise NotationError(
            field, f"{text!r} is not a card (a rank 1-7 or 10-12 and an optional suit o, c, e, b)")
    if len(m.group(1)) > 2:
        raise NotationError(field, f"rank {m.group(1)[:6]}... does not exist in a Spanish "
                                   "40-card deck")
    rank = int(m.group(1))
    suit = m.group(2)
    if rank not in RANK_INDEX:
        raise NotationError(field, f"rank {rank} does not exist in a Spanish 40-card deck")
    if suit == "":
        return Card(rank, None)
    if len(suit) != 1 or suit not in SUITS:
        raise NotationError(field, f"unknown suit {suit!r} in {text!r} (suits: o, c, e, b)")
    return Card(rank, suit)


def _cards(text: str, field: str) -> list[Card]:
    """Read a ``.``-joined card list, ``-`` for none."""
    if text == "-":
        return []
    if text == "":
        raise NotationError(field, "empty card list (write '-' for none)")
    return [_card(part, field) for part in text.split(".")]


def _hand(text: str) -> list[Card | None]:
    """Read one hand: cards and ``?`` joined by ``.``, ``-`` for none."""
    if text == "-":
        return []
    if text == "":
        raise NotationError("hands", "empty hand (write '-' for a hand without cards)")
    return [None if part == "?" else _card(part, "hands") for part in text.split(".")]


def _seat(text: str, field: str, players: int) -> int:
    """Read a seat letter for ``players`` players, as a seat index."""
    names = SEAT_NAMES[players]
    if text in names:
        return names.index(text)
    listed = " ".join(names)
    if len(text) == 1 and text in _ALL_SEATS:
        raise NotationError(
            field, f"seat {text} does not exist with {players} players (seats: {listed})")
    raise NotationError(field, f"unknown seat {text!r} (seats: {listed})")


def _ints(text: str, field: str, players: int) -> tuple[int, ...]:
    """Read one non-negative integer per side, comma-separated."""
    sides = side_names(players)
    parts = text.split(",")
    if len(parts) != len(sides):
        raise NotationError(
            field, f"expected {len(sides)} numbers, one per side ({','.join(sides)}), "
                   f"got {len(parts)}")
    for part in parts:
        if not _INT_RE.fullmatch(part):
            raise NotationError(field, f"{_short(part)} is not a whole number of 0 or more")
        if len(part) > 9:
            raise NotationError(field, f"{_short(part)} is too large (at most 9 digits)")
    return tuple(int(p) for p in parts)


def _short(text: str, most: int = 24) -> str:
    """``repr`` of user text, cut short when long."""
    return repr(text) if len(text) <= most else repr(text[:most]) + "..."


def _declarations(text: str, players: int) -> list[Declaration]:
    """Read ``declared=`` entries ``seat:kind[rank]``, comma-separated."""
    if text == "-":
        return []
    out = []
    for entry in text.split(","):
        m = _DECL_RE.fullmatch(entry)
        if m is None:
            raise NotationError(
                "declared", f"{entry!r} is not seat:kind[rank] (like N:ronda or E:tringa5)")
        seat = _seat(m.group(1), "declared", players)
        kind = m.group(2)
        if kind not in ("ronda", "tringa"):
            raise NotationError("declared", f"unknown declaration {kind!r} (ronda or tringa)")
        rank = None
        if m.group(3):
            card = _card(m.group(3), "declared")
            if card.suit is not None:
                raise NotationError(
                    "declared", f"a declaration names a rank, not a card: {entry!r}")
            rank = card.rank
        out.append(Declaration(seat, kind, rank))
    return out


_PLAY_RE = re.compile(r"([SENW])(.+)")


def _tops(text: str, players: int, field: str = "tops") -> tuple[Card | None, ...]:
    """``tops=5,-``: one card or ``-`` a side, in ``taken=`` order (V7);
    ``field``: the key an error names (``hist`` for its tops part)."""
    parts = text.split(",")
    sides = side_names(players)
    what = "entries" if field == "tops" else "pile tops at the deal's start"
    if len(parts) != len(sides):
        raise NotationError(
            field, f"expected {len(sides)} {what}, one a side ({','.join(sides)}), "
                   f"got {len(parts)}")
    for i, t in enumerate(parts):
        entry = (f"entry {i + 1} ({sides[i]})" if field == "tops"
                 else f"pile top {i + 1} ({sides[i]}) at the deal's start")
        if t == "":
            # an empty entry is not an empty card of a '.'-list: say it in tops' terms
            raise NotationError(
                field, f"{entry} is empty (one top card a side, "
                       f"in taken= order, separated by ',', '-' for an empty pile)")
        if "." in t:
            # a '.'-list where one card goes: not an unknown suit '.5'
            raise NotationError(
                field, f"{entry} '{t}' is more than one card (one top card a side, "
                       f"in taken= order, separated by ',', '-' for an empty pile)")
    return tuple(None if t == "-" else _card(t, field) for t in parts)


def _no_top_on_nothing(field: str, tops: tuple[Card | None, ...], piles: Sequence[int],
                       players: int, sizes: str) -> None:
    """Refuse a pile top (``tops=``, or ``hist=``'s at the deal's start) on
    a side whose pile has no card; ``sizes`` says where the sizes were read
    (``(taken=0,36)``)."""
    sides = side_names(players)
    for side, (top, size) in enumerate(zip(tops, piles)):
        if top is not None and size == 0:
            raise NotationError(field, f"{sides[side]}'s pile has no card {sizes}, "
                                       f"so no top {top}")


def _hist(text: str, players: int) -> DealHistory:
    """Read ``hist=TABLE:PLAYS``: the table when the deal was dealt, then the
    plays as ``seat``+``card`` joined by commas (``-`` for none); Ronda
    voleur adds ``:TOPS:PILES``, each side's pile top (``-`` for none) and
    pile size when the deal was dealt."""
    fields = text.split(":")
    if len(fields) not in (2, 4):
        raise NotationError(
            "hist", f"expected TABLE:PLAYS (like 1.3.10.12:S4,N12), or TABLE:PLAYS:TOPS:PILES "
                    f"in Ronda voleur (like 1.3:S4:5,-:12,10), got {text!r}")
    table_text, plays_text = fields[0], fields[1]
    tops = piles = None
    if len(fields) == 4:
        tops = _tops(fields[2], players, "hist")
        sizes = fields[3].split(",")
        # as taken= reads them: digits only (int() also took +26, 2_6, ２６)
        if not all(_INT_RE.fullmatch(v) and len(v) <= 9 for v in sizes):
            raise NotationError("hist", f"the piles at the deal's start are numbers, "
                                        f"not {_short(fields[3])}")
        piles = tuple(int(v) for v in sizes)
        if len(piles) != len(tops) or any(not 0 <= n <= 40 for n in piles):
            raise NotationError("hist", f"expected {len(tops)} pile sizes from 0 to 40, "
                                        f"got {fields[3]!r}")
        _no_top_on_nothing("hist", tops, piles, players, "at the deal's start (size 0)")
    table = _cards(table_text, "hist")
    plays: list[tuple[int, Card]] = []
    if plays_text != "-":
        for entry in plays_text.split(","):
            m = _PLAY_RE.fullmatch(entry)
            if not m:
                raise NotationError(
                    "hist", f"{entry!r} is not a play seat+card (like S4 or N12e)")
            plays.append((_seat(m.group(1), "hist", players), _card(m.group(2), "hist")))
    return DealHistory(table, plays, tops, piles)


def _show(text: str, players: int) -> Show:
    """Read ``show=rank:size[@seat]``."""
    m = _SHOW_RE.fullmatch(text)
    if m is None:
        raise NotationError("show", f"{text!r} is not rank:size[@seat] (like 7:2 or 7:3@N)")
    card = _card(m.group(1), "show")
    if card.suit is not None:
        raise NotationError("show", f"a show names a rank, not a card: {m.group(1)!r}")
    if m.group(2) not in ("2", "3"):
        raise NotationError(
            "show", f"the size of a pile on show is 2 (after a hit) or 3 (after an answer), "
                    f"not {m.group(2)!r}")
    seat = _seat(m.group(3), "show", players) if m.group(3) is not None else None
    return Show(card.rank, int(m.group(2)), seat)


# ---------------------------------------------------------------------------
# Splitting a line.


def _split_line(text: str) -> tuple[str, list[str]]:
    """Split a line into its fields part and its opcode segments, dropping
    the comment. ``#`` and ``;`` inside double quotes (opcode operands only)
    belong to the text."""
    fields: str | None = None
    segments: list[str] = []
    current: list[str] = []
    quoted = False
    for ch in text:
        if ch == '"' and fields is not None:
            quoted = not quoted
        elif not quoted and ch == "#":
            break
        elif not quoted and ch == ";":
            if fields is None:
                fields = "".join(current)
            else:
                segments.append("".join(current))
            current = []
            continue
        current.append(ch)
    if fields is None:
        fields = "".join(current)
    else:
        segments.append("".join(current))
    return fields, segments


def _strip_comment(text: str) -> str:
    """The line without its comment (quote-aware after the first ``;``)."""
    fields, segments = _split_line(text)
    return ";".join([fields, *segments]) if segments else fields


def _opcodes(segments: list[str], players: int) -> list[tuple[str, str]]:
    """Read ``opcode operand`` segments into ``(name, operand)`` pairs
    (``vv``, a value vector, needs three ``players``)."""
    if segments and segments[-1].strip() == "":
        segments = segments[:-1]  # a trailing ';' is allowed
    ops: list[tuple[str, str]] = []
    seen: set[str] = set()
    for seg in segments:
        parts = seg.strip().split(None, 1)
        if not parts:
            raise NotationError("opcode", "empty opcode between two ';'")
        name = parts[0]
        operand = parts[1].strip() if len(parts) > 1 else ""
        if not _OPCODE_RE.fullmatch(name):
            raise NotationError(
                "opcode", f"{name!r} is not an opcode name (lowercase letters, digits and _)")
        if name in seen:
            raise NotationError(name, "opcode given twice")
        seen.add(name)
        if operand.count('"') % 2:
            raise NotationError(name, "unterminated quote")
        if name in QUOTED_OPCODES:
            m = _QUOTED_RE.fullmatch(operand)
            if m is None:
                raise NotationError(name, f'the operand must be one quoted text, like {name} "..."')
            operand = m.group(1)
        elif name in ("bm", "am"):
            if not operand:
                raise NotationError(name, "expected one or more cards")
            moves = operand.split()
            for move in moves:
                _card(move, name)
            operand = " ".join(moves)
        elif name == "v":
            if not _NUMBER_RE.fullmatch(operand):
                raise NotationError(name, f"expected a number of points, got {operand!r}")
        elif name == "vv":
            if players != 3:
                raise NotationError(
                    name, f"a value vector is for three players; this line has {players}")
            numbers = operand.split()
            if len(numbers) != 3 or not all(_NUMBER_RE.fullmatch(x) for x in numbers):
                raise NotationError(
                    name, f"expected 3 numbers (one per seat), got {_short(operand)}")
        ops.append((name, operand))
    return ops


# ---------------------------------------------------------------------------
# The parser.


def parse_position(text: str, line: int | None = None) -> Position:
    """Read one position line (NOTATION.md) into a Position, strictly.

    ``text`` is one line; a ``#`` comment and surrounding whitespace are
    ignored. ``line`` is the 1-based line number to name in errors.

    The Position is filled as its docstring says: hands in seat order,
    ``None`` for ``?``; seats as indices; ``score``/``taken`` ``None`` when
    absent; ``overrides`` holds the rule parameter texts in line order and
    ``rules`` the preset with them applied; the operands of ``id`` and ``c``
    are stored without their quotes, ``bm``/``am`` as single-space-separated
    cards, any other opcode as written.

    Raises NotationError (with ``line``; the first problem found wins) for
    anything that is not a valid position, in this order: the line's shape
    (``line``), cards and fields (``table``, ``hands``, ``stock``), rules
    that do not allow the number of hands (when the rule keys can be read:
    :func:`_players_first`), ``turn``, each key in line order (unknown,
    given twice, bad value, a
    seat that does not exist), the opcodes, the rules (``rules`` or the
    parameter's name), then the consistency checks of :func:`_check`.
    docs/notation.md lists every message.
    """
    try:
        return _parse(text)
    except NotationError as err:
        err.line = line
        err.args = (err.field, err.problem, line)
        raise


def _parse(text: str) -> Position:
    text = text.strip()
    if "\n" in text or "\r" in text:
        raise NotationError("line", "a position is a single line")
    head, segments = _split_line(text)
    tokens = head.split()
    if not tokens:
        raise NotationError("line", "empty line, expected <table> <hands> <stock> <turn>")
    positional = 0
    while positional < len(tokens) and "=" not in tokens[positional]:
        positional += 1
    if positional > 4:
        extra = tokens[4:positional]
        named = " ".join(repr(t[:24]) for t in extra[:3]) + (" ..." if len(extra) > 3 else "")
        raise NotationError(
            "line", f"expected 4 fields <table> <hands> <stock> <turn> before any key, "
                    f"got {positional}: {named} after the turn "
                    f"{'is one field' if len(extra) == 1 else f'are {len(extra)} fields'} "
                    f"too many (a key is written key=value)")
    if positional != 4:
        raise NotationError(
            "line", f"expected 4 fields <table> <hands> <stock> <turn> before any key, "
                    f"got {positional}")
    for tok in tokens[4:]:
        if "=" not in tok:
            raise NotationError("line", f"unexpected field {tok!r} after the keys (key=value)")

    table_text, hands_text, stock_text, turn_text = tokens[:4]
    table = _cards(table_text, "table")
    hand_texts = hands_text.split("/")
    if len(hand_texts) not in (2, 3, 4):
        raise NotationError(
            "hands", f"expected 2, 3 or 4 hands joined by '/', got {len(hand_texts)}")
    hands = [_hand(h) for h in hand_texts]
    players = len(hands)

    if "?" in stock_text and stock_text != "?":
        raise NotationError("stock", "'?' stands for the whole stock and cannot be in a list")
    if stock_text == "?":
        stock_kind, stock = "unknown", []
    elif stock_text.startswith("~"):
        if stock_text == "~":
            raise NotationError("stock", "'~' must be followed by a card list or '-'")
        stock_kind, stock = "shuffled", _cards(stock_text[1:], "stock")
    else:
        stock_kind, stock = "known", _cards(stock_text, "stock")
    _players_first(tokens[4:], players)
    turn = _seat(turn_text, "turn", players)

    pos = Position(table=table, hands=hands, stock_kind=stock_kind, stock=stock, turn=turn)
    preset_name = DEFAULT_PRESET
    given: set[str] = set()
    for tok in tokens[4:]:
        key, _, value = tok.partition("=")
        if key == "":
            raise NotationError("line", f"a key is missing before '=' in {tok!r}")
        if key not in KEY_ORDER and key not in RULE_KEYS:
            raise NotationError(
                key, "unknown key (keys: " + ", ".join(KEY_ORDER)
                + ", or a rule parameter such as target)")
        if key in given:
            raise NotationError(key, "given twice")
        given.add(key)
        if value == "":
            raise NotationError(key, "empty value")
        if key == "rules":
            preset_name = value
        elif key in RULE_KEYS:
            pos.overrides[key] = value
        elif key == "dealer":
            pos.dealer = _seat(value, key, players)
        elif key == "last":
            pos.last = _seat(value, key, players)
        elif key in ("score", "taken"):
            setattr(pos, key, _ints(value, key, players))
        elif key == "gone":
            pos.gone = _cards(value, key)
        elif key == "tops":
            pos.tops = _tops(value, players)
        elif key == "declared":
            pos.declared = _declarations(value, players)
        elif key == "prev":
            pos.prev = _card(value, key)
        elif key == "show":
            pos.show = _show(value, players)
        elif key == "hist":
            pos.hist = _hist(value, players)
    pos.ops = _opcodes(segments, players)

    pos.preset = preset_name
    pos.rules = _rules(preset_name, pos.overrides, players)
    _check(pos)
    return pos


def _rules(name: str, overrides: dict[str, str], players: int) -> Rules:
    """The preset with the overrides applied together (``rules=online
    players=3 table_cards=4`` is a game although ``players=3`` alone is
    not); an error names its parameter: the one whose value cannot be read,
    else the first whose removal makes the rules playable. Checks that the
    rules allow ``players``."""
    rules = _rules_of(name, overrides)
    _check_players(rules, name, overrides, players)
    return rules


def _players_first(keys: list[str], players: int) -> None:
    """Before the keys are read one by one: when the line's rules (its
    ``rules=`` and rule parameters, read as :func:`_rules` reads them) do
    not allow its number of hands, say that first, as :func:`_rules` would
    (``players: players=3 does not allow 2 players``), rather than a key
    whose shape follows from the number of hands (``taken=10,11,11`` has a
    number a side of the rules, not of the hands). Lines whose rule keys
    are not all readable are left to the keys' own order."""
    name, overrides, seen = DEFAULT_PRESET, {}, set()
    for tok in keys:
        key, _, value = tok.partition("=")
        if key != "rules" and key not in RULE_KEYS:
            continue
        if key in seen or value == "":
            return
        seen.add(key)
        if key == "rules":
            name = value
        else:
            overrides[key] = value
    try:
        rules = _rules_of(name, overrides)
    except NotationError:
        return
    _check_players(rules, name, overrides, players)


def _rules_of(name: str, overrides: dict[str, str]) -> Rules:
    """The preset ``name`` with ``overrides`` (see :func:`_rules`)."""
    try:
        rules = preset(name)
    except RulesError as err:
        raise NotationError("rules", str(err)) from None
    for key, value in overrides.items():     # names and shapes, one at a time
        try:
            rules.with_overrides({key: value}, check=False)
        except RulesError as err:
            raise NotationError(key, str(err)) from None
    try:
        rules = rules.with_overrides(overrides)
    except RulesError as err:
        field = next((key for key in overrides
                      if _playable(rules, {k: v for k, v in overrides.items() if k != key})),
                     "rules")
        raise NotationError(field, str(err)) from None
    return rules


def _check_players(rules: Rules, name: str, overrides: dict[str, str], players: int) -> None:
    """The rules allow ``players`` players (the line's number of hands)."""
    if players not in rules.players:
        allowed = player_counts(rules.players)
        if "players" in overrides:
            raise NotationError(
                "players", f"players={overrides['players']} does not allow {players} players")
        raise NotationError(
            "rules", f"rules={name} is for {allowed} players, not {players} "
                     f"(override with players=)")


def _playable(rules: Rules, overrides: dict[str, str]) -> bool:
    try:
        rules.with_overrides(overrides)
    except RulesError:
        return False
    return True


# ---------------------------------------------------------------------------
# Consistency checks.


def _same(a: Card, b: Card) -> bool:
    """Whether two cards can be the same card (same rank, suits agree)."""
    return a.rank == b.rank and (a.suit is None or b.suit is None or a.suit == b.suit)


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _check(pos: Position) -> None:
    """Raise NotationError if ``pos`` cannot be a position (see parse_position).

    The checks run in this order, the first failure wins: card counts
    (ranks, suited duplicates), no pair on a distinct table, captured cards (``gone``/``taken``, ``?``),
    the 40 cards and the stock size, hand sizes and ``dealer``, ``last``,
    ``prev``, ``show``, ``declared``, then the ``bm``/``am`` moves.
    """
    counts = _check_cards(pos)
    _check_table(pos)
    stock_n = _check_deck(pos)
    deal_size = _check_hand_sizes(pos, stock_n)
    played = sum(deal_size - len(hand) for hand in pos.hands)
    _check_last(pos)
    _check_tops(pos, counts)
    _check_prev(pos, played, deal_size)
    _check_show(pos, played, counts)
    _check_declared(pos, deal_size)
    _check_hist(pos, played)
    _check_moves(pos)


def _check_cards(pos: Position) -> Counter[int]:
    """No suited card twice, no rank over 4 times in table, hands, stock and
    gone (``prev`` is one of the table cards). Returns the rank counts."""
    counts: Counter[int] = Counter()
    seen: set[Card] = set()
    groups = (
        ("table", pos.table),
        ("hands", [c for h in pos.hands for c in h if c is not None]),
        ("stock", pos.stock),
        ("gone", pos.gone or []),
    )
    for field, cards in groups:
        for card in cards:
            if card.suit is not None:
                if card in seen:
                    raise NotationError(field, f"card {card} appears twice")
                seen.add(card)
            counts[card.rank] += 1
            if counts[card.rank] > 4:
                raise NotationError(
                    field, f"rank {card.rank} appears more than 4 times (a deck has 4)")
    return counts


def _check_table(pos: Position) -> None:
    """With ``table_rule=distinct`` the opening table holds four different
    ranks, and a card of a rank on the table always captures it, so the
    table can never hold two cards of one rank."""
    if pos.rules.table_rule != "distinct":
        return
    ranks = [c.rank for c in pos.table]
    for rank in ranks:
        if ranks.count(rank) > 1:
            raise NotationError(
                "table", f"two {rank}s cannot lie on the table with table_rule=distinct "
                f"(a card always takes its rank)")


def _check_deck(pos: Position) -> int:
    """``gone`` agrees with ``taken``; ``?`` after captures needs ``gone``;
    the cards add up to 40; the stock fills whole deals. Returns the stock
    size (for ``?``: the rest of the deck)."""
    p = pos.players
    piles = pos.pile_sizes()
    taken_sum = sum(piles)
    taken_text = ",".join(map(str, piles))
    if pos.gone is not None and len(pos.gone) != taken_sum:
        gone_n = _plural(len(pos.gone), "card")
        if pos.taken is None:
            raise NotationError("gone", f"gone holds {gone_n} but taken= is absent (0 each)")
        raise NotationError("gone", f"gone holds {gone_n} but taken={taken_text} makes {taken_sum}")
    if taken_sum and pos.gone is None:
        if pos.stock_kind == "unknown":
            raise NotationError(
                "stock", f"'?' with taken={taken_text} needs gone= (the captured cards)")
        if any(c is None for h in pos.hands for c in h):
            raise NotationError(
                "hands", f"'?' with taken={taken_text} needs gone= (the captured cards)")

    in_hands = sum(len(h) for h in pos.hands)
    held = len(pos.table) + in_hands
    taken_desc = f"taken={taken_text}" if pos.taken is not None else "taken 0 (taken= absent)"
    if pos.stock_kind == "unknown":
        stock_n = _DECK - held - taken_sum
        if stock_n < 0:
            raise NotationError(
                "stock", f"'?' is the rest of the deck, but the table ({len(pos.table)}), "
                         f"the hands ({in_hands}) and {taken_desc} already make "
                         f"{held + taken_sum}, more than 40")
    else:
        stock_n = len(pos.stock)
        total = held + stock_n + taken_sum
        hidden = any(c is None for h in pos.hands for c in h)
        if pos.taken is None and total < _DECK and not hidden:
            pass    # the rest is in piles not written: values count the cards left
        elif total != _DECK:
            if pos.taken is None and total < _DECK:
                raise NotationError(
                    "taken", f"the table ({len(pos.table)}), the hands ({in_hands}) and the "
                             f"stock ({stock_n}) make {total} cards: with a hidden card, "
                             "taken= (and gone=) must say where the other "
                             f"{_DECK - total} are")
            raise NotationError(
                "taken", f"the table ({len(pos.table)}), the hands ({in_hands}), "
                         f"the stock ({stock_n}) and {taken_desc} make {total} cards, not 40")
    sizes = stock_sizes(pos.rules, p)
    if sizes.get(stock_n, 0) < 1:
        valid = ", ".join(str(n) for n, k in sorted(sizes.items()) if k >= 1)
        what = _plural(stock_n, "card")
        if pos.stock_kind == "unknown":
            what = f"'?' leaves {what} for the stock"
        raise NotationError(
            "stock", f"{what}, which is not a stock between whole deals ({p} players: {valid})")
    return stock_n


def _score_words(pos: Position, won: int | None = None) -> str:
    """``" (the final score S 0, N 2)"`` for a line that writes a score
    (``"the score"`` while cards are still on the table, not yet swept),
    else ``""``; with the side ``won`` that has won the match, ``"; N has
    won the match"`` inside the brackets."""
    if pos.score is None:
        return ""
    what = "the final score" if not pos.table else "the score"
    names = side_names(pos.players)
    return (f" ({what} " + ", ".join(f"{s} {n}" for s, n in zip(names, pos.score))
            + (f"; {names[won]} has won the match" if won is not None else "") + ")")


def _check_hand_sizes(pos: Position, stock_n: int) -> int:
    """The mover holds 1 to the deal size; after the mover, in play order,
    the seats yet to play this round hold as many cards as the mover, then
    those that have played one fewer; ``dealer`` agrees. Returns the size of
    the current deal."""
    p = pos.players
    names = SEAT_NAMES[p]
    deals = deal_sizes(pos.rules, p)
    deal = stock_sizes(pos.rules, p)[stock_n] - 1
    deal_size = deals[deal]
    mover = pos.turn
    h = len(pos.hands[mover])
    if h == 0:
        won = (None if pos.score is None
               else target_winner(pos.score, pos.rules.target))
        if stock_n == 0 and not any(pos.hands):
            # the end of a hand (the web board writes it after the last
            # card): nothing is left to play, which is the thing to say
            raise NotationError("hands", "the hand is over: no card is left to play"
                                + _score_words(pos, won))
        if won is not None and not any(pos.hands):
            # a match won at a deal's end (win_check immediate): the next
            # deal is not dealt
            raise NotationError("hands", f"the match is over: {side_names(pos.players)[won]} "
                                         f"has won at the target {pos.rules.target}"
                                         + _score_words(pos))
        raise NotationError("hands", f"{names[mover]} is to play but holds no card")
    if h > deal_size:
        raise NotationError(
            "hands", f"{names[mover]}, to play, holds {_plural(h, 'card')} but deal "
                     f"{deal + 1} of {len(deals)} gives {deal_size} a player")
    fewer_at: int | None = None
    for step in range(1, p):
        seat = (mover + step) % p
        hs = len(pos.hands[seat])
        if hs not in (h, h - 1):
            raise NotationError(
                "hands", f"{names[seat]} holds {_plural(hs, 'card')} but {names[mover]}, to "
                         f"play, holds {h}: every hand holds {h} or {h - 1}")
        if hs == h - 1 and fewer_at is None:
            fewer_at = seat
        elif hs == h and fewer_at is not None:
            raise NotationError(
                "hands", f"{names[seat]} holds {_plural(h, 'card')} after {names[fewer_at]} "
                         f"with {h - 1}: after {names[mover]} (to play) the seats yet to play "
                         f"this round come first")
    leader = fewer_at if fewer_at is not None else mover
    if pos.dealer is not None and (pos.dealer + 1) % p != leader:
        raise NotationError(
            "dealer", f"dealer={names[pos.dealer]} does not agree with the hand sizes, "
                      f"which make {names[(leader - 1) % p]} the dealer")
    return deal_size


def unwritten_piles(pos: Position) -> int:
    """Cards a line leaves out because its piles are not written (no
    ``taken=``, every hand known, fewer than 40 cards): its values then
    count only the cards still to be won (each play's value shifted by the
    same amount; the best plays are the same)."""
    if pos.taken is not None or pos.stock_kind == "unknown":
        return 0
    if any(c is None for h in pos.hands for c in h):
        return 0
    return _DECK - len(pos.table) - sum(len(h) for h in pos.hands) - len(pos.stock)


def _check_last(pos: Position) -> None:
    """Captures need ``last=``, and the last capturer's side has a pile."""
    p = pos.players
    names = SEAT_NAMES[p]
    piles = pos.pile_sizes()
    if sum(piles) and pos.last is None:
        raise NotationError(
            "taken", "cards were taken, so last= (the side that captured last) is needed")
    if pos.last is not None and piles[side_of(pos.last, p)] == 0:
        if pos.taken is None:
            if unwritten_piles(pos):
                return      # the piles are not written: any side may have captured
            raise NotationError(
                "last", f"last={names[pos.last]} but taken= is absent (nobody has captured)")
        raise NotationError(
            "last", f"last={names[pos.last]} but that side has taken no card "
                    f"(taken={','.join(map(str, piles))})")


def _check_tops(pos: Position, counts: Counter[int]) -> None:
    """``tops=`` (Ronda voleur, V7): only with ``voleur=yes``; a top lies on
    a non-empty pile (``taken=``); a top is one of the captured cards, so
    with ``gone=`` it is one of them (two tops two different cards), and
    without ``gone=`` it counts with the other cards seen (4 a rank, a
    suited card once); with ``show=`` the hitter's pile has the hit rank
    on top."""
    p = pos.players
    if pos.tops is None:
        if pos.rules.voleur and pos.show is not None:
            raise NotationError(
                "tops", f"show={pos.show.rank}:{pos.show.size} in Ronda voleur needs tops= "
                        "(the hitter's pile has the hit card on top)")
        return
    if not pos.rules.voleur:
        raise NotationError("tops", "tops= needs voleur=yes (pile tops only count in Ronda voleur)")
    piles = pos.pile_sizes()
    sides = side_names(p)
    taken_text = (f"taken={','.join(map(str, piles))}" if pos.taken is not None
                  else "no taken=: 0 each")
    _no_top_on_nothing("tops", pos.tops, piles, p, f"({taken_text})")
    # a suited top is one card: not two tops, nor a card seen elsewhere
    # (with gone= a top is one of its cards, which _check_cards counted)
    suited = {c for c in pos.table + pos.stock if c.suit is not None}
    suited |= {c for h in pos.hands for c in h if c is not None and c.suit is not None}
    for top in pos.tops:
        if top is not None and top.suit is not None:
            if top in suited:
                raise NotationError("tops", f"card {top} appears twice")
            suited.add(top)
    if pos.gone is not None:
        _tops_in_gone(pos.tops, pos.gone, sides)
    else:
        extra: Counter[int] = Counter()
        for top in pos.tops:
            if top is None:
                continue
            extra[top.rank] += 1
            if counts[top.rank] + extra[top.rank] > 4:
                raise NotationError(
                    "tops", f"rank {top.rank} appears more than 4 times (a deck has 4)")
    if pos.show is not None:
        hitter = side_of((pos.turn - 1) % p, p)
        top = pos.tops[hitter]
        if top is None or top.rank != pos.show.rank:
            raise NotationError(
                "tops", f"show={pos.show.rank}:{pos.show.size}: the hitter's pile "
                        f"({sides[hitter]}) has the hit card on top, not "
                        f"{'-' if top is None else top}")


def _tops_in_gone(tops: tuple[Card | None, ...], gone: Sequence[Card],
                  sides: Sequence[str]) -> None:
    """Each top is a different card of ``gone``: as many cards of its rank
    in ``gone`` as tops of that rank, and a suited top is its own card or an
    unsuited one of ``gone`` (the suited tops are distinct: checked before).
    Suited tops take their cards first (their own if ``gone`` holds it), so
    an unsuited top never takes the card a suited one needs."""
    have = Counter(c.rank for c in gone)
    want = Counter(t.rank for t in tops if t is not None)
    for side, top in enumerate(tops):
        if top is None or have[top.rank] >= want[top.rank]:
            continue
        n, k = want[top.rank], have[top.rank]
        if n == 1:
            raise NotationError(
                "tops", f"the top {top} of {sides[side]}'s pile is not among gone= "
                        "(a top is a captured card)")
        r = top.rank
        held = f"no {r}" if k == 0 else f"only one {r}" if k == 1 else f"only {k} {r}s"
        raise NotationError("tops", f"{n} tops are {r} but gone= holds {held}")
    left = list(gone)
    for side, top in enumerate(tops):
        if top is None or top.suit is None:
            continue
        i = next((i for i, c in enumerate(left) if c == top), None)
        if i is None:
            i = next((i for i, c in enumerate(left) if c.rank == top.rank and c.suit is None),
                     None)
        if i is None:
            raise NotationError(
                "tops", f"the top {top} of {sides[side]}'s pile is not among gone= "
                        "(a top is a captured card)")
        del left[i]


def _check_prev(pos: Position, played: int, deal_size: int) -> None:
    """``prev``: a card played in this deal, still on the table."""
    if pos.prev is None:
        return
    if played == 0:
        raise NotationError(
            "prev", f"no card has been played in the current deal "
                    f"(every hand holds {deal_size})")
    if not any(_same(pos.prev, c) for c in pos.table):
        raise NotationError("prev", f"{pos.prev} is not on the table")


def _check_show(pos: Position, played: int, counts: Counter[int]) -> None:
    """``show``: answers exist in the rules, enough cards played this deal,
    the pile is the previous player's (who captured last) and holds the
    shown cards (``taken=``), no card of the rank left on the table, and the
    shown cards fit the rank count."""
    show = pos.show
    if show is None:
        return
    p = pos.players
    names = SEAT_NAMES[p]
    previous = (pos.turn - 1) % p
    text = f"show={show.rank}:{show.size}"
    if len(pos.rules.hit) < show.size:
        answer = "5" if show.size == 2 else "10"
        raise NotationError(
            "show", f"the rules have no answer for {answer} "
                    f"(hit={format_value(pos.rules.hit)})")
    if pos.prev is not None:
        raise NotationError(
            "show", "prev= and show= cannot both hold: the player who just played "
                    "either left a card or captured")
    if played < show.size:
        raise NotationError(
            "show", f"{text} needs at least {show.size} cards played in the current deal, "
                    f"not {played}")
    if show.seat is not None and show.seat != previous:
        raise NotationError(
            "show", f"the pile on show belongs to the player who just played "
                    f"({names[previous]}), not {names[show.seat]}")
    if pos.last is None:
        raise NotationError(
            "show", f"{text} needs last= (the player who just played captured last)")
    if side_of(pos.last, p) != side_of(previous, p):
        raise NotationError(
            "show", f"the pile on show is {names[previous]}'s, who captured last, "
                    f"but last={names[pos.last]}")
    piles = pos.pile_sizes()
    side = side_of(previous, p)
    if pos.taken is not None and piles[side] < show.size:
        raise NotationError(
            "show", f"{text} shows {show.size} cards of {side_names(p)[side]}'s pile, "
                    f"which holds {piles[side]} (taken={','.join(map(str, piles))})")
    if any(c.rank == show.rank for c in pos.table):
        raise NotationError(
            "show", f"the table holds a {show.rank}, but the hit took every "
                    f"{show.rank} on the table")
    if pos.gone is not None:
        have = sum(1 for c in pos.gone if c.rank == show.rank)
        if have < show.size:
            raise NotationError(
                "show", f"gone holds {have} of rank {show.rank}, fewer than the "
                        f"{show.size} on show")
    elif counts[show.rank] + show.size > 4:
        raise NotationError(
            "show", f"{show.size} of rank {show.rank} on show and {counts[show.rank]} "
                    f"elsewhere make more than 4")


def _check_declared(pos: Position, deal_size: int) -> None:
    """``declared``: the rules have that declaration, one per seat, and the
    seat's known cards (plus its unknown and already played cards; the
    plays themselves when ``hist=`` records them) can hold the pair or
    triple; with Tringas in the rules a hand holding three of a kind
    declares the Tringa, not a Ronda."""
    names = SEAT_NAMES[pos.players]
    rules = pos.rules
    declared_seats: set[int] = set()
    for decl in pos.declared:
        entry = f"{names[decl.seat]}:{decl.kind}{decl.rank if decl.rank is not None else ''}"
        if rules.ronda == 0:
            raise NotationError("declared", f"the rules ({pos.preset}) have no declarations")
        if decl.kind == "tringa" and rules.tringa == 0:
            raise NotationError(
                "declared", f"the rules ({pos.preset}) have no Tringa "
                            f"(three of a kind is a Ronda)")
        if decl.seat in declared_seats:
            raise NotationError("declared", f"{names[decl.seat]} declared twice")
        declared_seats.add(decl.seat)
        hand = pos.hands[decl.seat]
        have = Counter(c.rank for c in hand if c is not None)
        open_slots = sum(1 for c in hand if c is None) + (deal_size - len(hand))
        # hist= records the seat's plays of the deal: the hand dealt is its
        # hand and those plays (not any cards in their place)
        played = pos.plays_dealt(decl.seat, deal_size)
        dealt = bool(played)
        if dealt:
            have.update(c.rank for c in played)
            open_slots = sum(1 for c in hand if c is None)
        need = 3 if decl.kind == "tringa" else 2
        ranks = [decl.rank] if decl.rank is not None else list(RANK_INDEX)
        if not any(have[r] + open_slots >= need for r in ranks):
            raise NotationError("declared", f"{entry} does not fit {names[decl.seat]}'s hand"
                                + (" dealt (its hand and its plays in hist=)" if dealt else ""))
        if decl.kind == "ronda" and rules.tringa > 0:
            triple = [r for r in ranks if have[r] >= 3]
            if triple:
                held = "was dealt" if dealt else "holds"
                raise NotationError(
                    "declared", f"{entry}: {names[decl.seat]} {held} three {triple[0]}s "
                                f"and declares the Tringa only")
    # the declarations of one rank, with the cards of it in the hands of
    # seats that did not declare it and in a known stock, fit in 4 cards
    # (the table and the captured cards may hold the declarers' own plays)
    for rank in {d.rank for d in pos.declared if d.rank is not None}:
        claimed = {d.seat: (3 if d.kind == "tringa" else 2)
                   for d in pos.declared if d.rank == rank}
        elsewhere = sum(1 for s, hand in enumerate(pos.hands) if s not in claimed
                        for c in hand if c is not None and c.rank == rank)
        if pos.stock_kind != "unknown":
            elsewhere += sum(1 for c in pos.stock if c.rank == rank)
        if sum(claimed.values()) + elsewhere > 4:
            what = " and ".join(f"{names[s]} {n}" for s, n in claimed.items())
            raise NotationError(
                "declared", f"the declarations need {what} cards of rank {rank}"
                            + (f" and {elsewhere} more are in other hands or the stock"
                               if elsewhere else "") + ": a rank has 4 cards")


def _check_hist(pos: Position, played: int) -> None:
    """``hist``: one play for each card played this deal, in turn from the
    deal's leader, and replaying them from its table gives the line's
    table, ``prev`` and ``show``; what they captured is in ``gone``."""
    h = pos.hist
    if h is None:
        return
    if pos.rules.voleur and h.tops is None:
        raise NotationError(
            "hist", "hist= in Ronda voleur needs the pile tops and sizes at the deal's start "
                    "(TABLE:PLAYS:TOPS:PILES, like 1.3:S4:5,-:12,10)")
    if h.tops is not None and not pos.rules.voleur:
        raise NotationError("hist", "pile tops in hist= need voleur=yes")
    names = SEAT_NAMES[pos.players]
    if len(h.plays) != played:
        raise NotationError(
            "hist", f"{_plural(len(h.plays), 'play')} for the "
                    f"{_plural(played, 'card')} the hand sizes say were played this deal")
    leader = pos.leader()
    for i, (seat, _card) in enumerate(h.plays):
        want = (leader + i) % pos.players
        if seat != want:
            raise NotationError(
                "hist", f"play {i + 1} is {names[seat]}'s, but {names[want]} was to play")
    from .engine.history import replay
    try:
        r = replay(pos.rules, pos.players, leader, [c.index for c in h.table],
                   [(s, c.index) for s, c in h.plays], tops=h.top_ranks(), piles=h.piles)
    except ValueError as e:
        raise NotationError("hist", str(e)) from None
    if h.tops is not None:
        got_piles = tuple(r.piles)
        got_tops = tuple(r.tops)
        want_tops = tuple(-1 if c is None else c.index for c in (pos.tops or ()))
        if pos.taken is not None and got_piles != tuple(pos.taken):
            raise NotationError("hist", f"the plays leave piles of "
                                        f"{','.join(map(str, got_piles))}, not taken="
                                        f"{','.join(map(str, pos.taken))}")
        shown = ",".join("-" if t < 0 else str(RANKS[t]) for t in got_tops)
        if pos.tops is not None and got_tops != want_tops:
            raise NotationError("hist", f"the plays leave other pile tops than tops= says "
                                        f"(they leave {shown})")
        if pos.tops is None and any(t >= 0 for t in got_tops):
            # an absent tops= says no pile has a top: the replay must agree
            raise NotationError("hist", f"the plays leave pile tops {shown}, but the line has "
                                        f"no tops= (no top): add tops={shown}")
    if sorted(r.table) != sorted(c.index for c in pos.table):
        shown = ".".join(str(RANKS[i]) for i in sorted(r.table)) or "-"
        raise NotationError("hist", f"the plays leave {shown} on the table, not the line's table")
    prev = pos.prev.index if pos.prev is not None else -1
    if r.prev != prev:
        want = str(RANKS[r.prev]) if r.prev >= 0 else "none"
        raise NotationError("hist", f"the plays leave prev={want}, the line says "
                                    f"{pos.prev if pos.prev is not None else 'none'}")
    show = (RANK_INDEX[pos.show.rank] << 2 | pos.show.size) if pos.show else 0
    if r.show != show:
        raise NotationError("hist", "the plays leave another hit pile on show than show= says")
    if pos.gone is not None:
        left = Counter(c.index for c in pos.gone)
        left.subtract(c for took in r.captured for c in took)
        if any(v < 0 for v in left.values()):
            raise NotationError("hist", "the plays captured cards that gone= does not hold")


def _check_moves(pos: Position) -> None:
    """``bm``/``am`` moves are in the mover's hand when it is fully known."""
    hand = pos.hands[pos.turn]
    if any(c is None for c in hand):
        return
    for name, operand in pos.ops:
        if name in ("bm", "am"):
            for move in operand.split():
                card = _card(move, name)
                if not any(_same(card, c) for c in hand if c is not None):
                    raise NotationError(
                        name, f"{card} is not in {pos.seat_name(pos.turn)}'s hand")


# ---------------------------------------------------------------------------
# The formatter.


def _format_hand(hand: list[Card | None]) -> str:
    if not hand:
        return "-"
    return ".".join("?" if c is None else str(c) for c in hand)


def _format_list(cards: list[Card]) -> str:
    return ".".join(str(c) for c in cards) if cards else "-"


def format_position(pos: Position) -> str:
    """The canonical line of a position.

    Fields, then keys in the order ``rules=`` (left out for the default
    preset), the rule overrides in ``pos.overrides`` order, ``dealer``,
    ``score``, ``taken``, ``last``, ``gone``, ``declared``, ``prev``,
    ``show`` (each only when set), then `` ; opcode operand`` for each
    opcode, the operands of ``id`` and ``c`` in double quotes. Cards keep
    their suits and order.

    Raises ValueError for an ``id``/``c`` operand holding a double quote
    (it could not be read back).

    >>> from solver.cards import Card
    >>> format_position(Position(table=[Card(5, "o")], hands=[[Card(7)], [None]],
    ...                          stock_kind="known", stock=[], turn=1, taken=(20, 18), last=0))
    '5o 7/? - N taken=20,18 last=S'
    """
    p = pos.players
    names = SEAT_NAMES[p]
    if pos.stock_kind == "unknown":
        stock = "?"
    elif pos.stock_kind == "shuffled":
        stock = "~" + _format_list(pos.stock)
    else:
        stock = _format_list(pos.stock)
    parts = [
        _format_list(pos.table),
        "/".join(_format_hand(h) for h in pos.hands),
        stock,
        names[pos.turn],
    ]
    if pos.preset != DEFAULT_PRESET:
        parts.append(f"rules={pos.preset}")
    parts.extend(f"{k}={v}" for k, v in pos.overrides.items())
    if pos.dealer is not None:
        parts.append(f"dealer={names[pos.dealer]}")
    if pos.score is not None:
        parts.append("score=" + ",".join(map(str, pos.score)))
    if pos.taken is not None:
        parts.append("taken=" + ",".join(map(str, pos.taken)))
    if pos.last is not None:
        parts.append(f"last={names[pos.last]}")
    if pos.gone is not None:
        parts.append("gone=" + _format_list(pos.gone))
    if pos.tops is not None:
        parts.append("tops=" + ",".join("-" if c is None else str(c) for c in pos.tops))
    if pos.declared:
        parts.append("declared=" + ",".join(
            f"{names[d.seat]}:{d.kind}{d.rank if d.rank is not None else ''}"
            for d in pos.declared))
    if pos.prev is not None:
        parts.append(f"prev={pos.prev}")
    if pos.show is not None:
        seat = f"@{names[pos.show.seat]}" if pos.show.seat is not None else ""
        parts.append(f"show={pos.show.rank}:{pos.show.size}{seat}")
    if pos.hist is not None:
        plays = ",".join(f"{names[s]}{c}" for s, c in pos.hist.plays) or "-"
        text = f"hist={_format_list(pos.hist.table)}:{plays}"
        if pos.hist.tops is not None:
            text += (":" + ",".join("-" if c is None else str(c) for c in pos.hist.tops)
                     + ":" + ",".join(str(n) for n in pos.hist.piles or ()))
        parts.append(text)
    line = " ".join(parts)
    for name, operand in pos.ops:
        if name in QUOTED_OPCODES:
            if '"' in operand:
                raise ValueError(f"the {name} operand cannot hold a double quote: {operand!r}")
            operand = f'"{operand}"'
        line += f" ; {name} {operand}" if operand else f" ; {name}"
    return line


# ---------------------------------------------------------------------------
# Files.


def parse_file(text: str) -> list[tuple[int, Position | NotationError]]:
    """Read a position file: every line that is not blank or comment-only,
    as ``(line number, Position or NotationError)``, numbers 1-based.

    Errors are collected, not raised.

    >>> text = "# two lines\\n\\n5 1/2 - N taken=20,17 last=S\\n5 1/2 - N taken=20,16 last=S\\n"
    >>> [(n, str(r) if isinstance(r, NotationError) else format_position(r))
    ...  for n, r in parse_file(text)]  # doctest: +NORMALIZE_WHITESPACE
    [(3, '5 1/2 - N taken=20,17 last=S'),
     (4, 'line 4, taken: the table (1), the hands (2), the stock (0) and taken=20,16 make 39 cards, not 40')]
    """
    return list(parse_lines(text.split("\n")))


def parse_lines(lines) -> "Iterator[tuple[int, Position | NotationError]]":
    """Read position lines one at a time (an iterable of ``str`` or of
    ``bytes``, such as an open binary file): yields ``(line number,
    Position or NotationError)`` for every line that is not blank or
    comment-only, as each is read (so a pipe is answered line by line).
    A byte-order mark before the first line is skipped; a line that is not
    UTF-8 is an error of that line alone. Lines end at ``\\n`` only (as
    :func:`parse_file` splits them): a form feed or U+2028 is inside its
    line. From an open file, lines are read up to
    :data:`solver.runtime.streams.MAX_LINE` bytes: a longer one is an error
    and ends the file (``/dev/zero`` is one line that never ends).

    >>> [(n, type(r).__name__) for n, r in parse_lines([b"\\xef\\xbb\\xbf# x", b"5 \\xff"])]
    [(2, 'NotationError')]
    """
    if hasattr(lines, "readline") and not isinstance(lines, (str, bytes)):
        from .runtime.streams import bounded_lines
        lines = bounded_lines(lines)
    for number, raw in enumerate(lines, start=1):
        if isinstance(raw, ValueError):         # a line too long: the file ends here
            yield number, NotationError("line", str(raw), number)
            return
        if isinstance(raw, bytes):
            from .runtime.streams import bad_byte, column_of
            if number == 1:
                from .runtime.streams import UTF16, is_utf16
                if is_utf16(raw):
                    # a UTF-16 file: one error, not one a line
                    yield number, NotationError("line", bad_byte(raw[0], 1) + UTF16, number)
                    return
            try:
                raw = raw.decode("utf-8")
            except UnicodeDecodeError as e:
                column = column_of(raw[:e.start], number == 1)
                yield number, NotationError("line", bad_byte(raw[e.start], column), number)
                continue
        if number == 1 and raw.startswith("\ufeff"):
            raw = raw[1:]
        raw = raw.rstrip("\r\n")
        if _strip_comment(raw).strip() == "":
            continue
        if "\ufeff" in _strip_comment(raw):
            yield number, NotationError("line", BOM_INSIDE, number)
            continue
        if RECORD_TAG.fullmatch(raw.strip()):
            # a game record's tag such as [Event "..."]: the rest of the file
            # is that record's, one error for all of it
            yield number, NotationError("line", GAME_RECORD, number)
            return
        try:
            yield number, parse_position(raw, line=number)
        except NotationError as err:
            yield number, err


#: a game record's tag (``[Event "..."]``): its name and its quoted value
#: (solver.games.record reads records by it)
RECORD_TAG = re.compile(r'\[\s*([A-Za-z0-9_]+)\s+"((?:[^"\\]|\\.)*)"\s*\]')
#: the one error of a file that turns into a game record at a tag line
GAME_RECORD = ("a game record, not a position: mark its mistakes with "
               "`ronda-solve annotate FILE`")

#: a byte-order mark past the file's start (files joined with ``cat``)
BOM_INSIDE = "a byte-order mark (U+FEFF) in the middle of the file (only its start may have one)"

loads = parse_position
dumps = format_position
