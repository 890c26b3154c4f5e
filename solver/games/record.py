"""Game records: played games of Ronda written down, PGN style.

A record is tag pairs, then the hands: each hand's dealer and opening
table, then its deals, each with the plays in order, numbered by round (one
card a seat). docs/records.md is the reference; a short one::

    [Event "Casablanca club"]
    [Rules "lmodire"]
    [Target "41"]
    [S "Amina"]
    [N "Karim"]
    [Dealer "N"]
    [Result "41-35"]
    [Winner "S"]

    hand 1 dealer N table 1o.3c.5e.11b
    deal 1 S 2o.2c.7e N 4c.6o.12b
    1. 7e 4c
    2. 2o 6o
    3. 2c! {a Ronda of 2s, and the hit} 12b
    deal 2
    1. ...

Hands dealt may be written on the deal line (``S 2o.2c.7e N ...``) or left
out when the plays show them (every card dealt is played); ``undealt``
lists the cards never dealt when the match ended during a hand. Comments
``{...}`` follow the game, a hand or deal line, or a play; marks ``!``,
``?``, ``!!``, ``??``, ``!?``, ``?!`` follow a card.

:func:`loads` reads one game strictly: the syntax, then a replay of every
play (:class:`Replay`) that raises :class:`RecordError` naming the line,
the hand, deal and play, and the problem. Whitespace and line breaks
between tokens are free; unknown tags are kept. :func:`dumps` writes the
canonical text: ``loads(dumps(g)) == g`` and, for canonical text ``s``,
``dumps(loads(s)) == s``.

>>> g = loads(SAMPLE)
>>> g.players, g.rules.name, g.target, g.names
(2, 'lmodire', 41, ['Amina', 'Karim'])
>>> dumps(g) == SAMPLE
True
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Iterator

from ..cards import RANK_INDEX, SUITS, Card, format_cards
from .match import HandState, MatchLog, PlayError, PlayEvent
from ..notation import BOM_INSIDE, RECORD_TAG, NotationError, parse_lines
from ..position import SEAT_NAMES, n_sides, side_names
from ..rules import MAX_RULE_VALUE, Rules, RulesError, check_players, deal_sizes, preset

MARKS: tuple[str, ...] = ("!!", "??", "!?", "?!", "!", "?")

SAMPLE = """\
[Event "sample"]
[Rules "lmodire"]
[Target "41"]
[S "Amina"]
[N "Karim"]
[Dealer "N"]

hand 1 dealer N table 1o.4c.6e.11b
deal 1 S 2o.2c.7e N 4o.6o.12b
1. 7e 4o {takes the 4}
2. 2o? 6o
3. 2c 12b
"""


class RecordError(NotationError):
    """A record that cannot be a played game.

    ``line``: 1-based line of the text (None when not known); ``field``:
    where, e.g. ``Rules`` (a tag), ``hand 2``, ``hand 2, deal 3``, ``hand 2,
    deal 3, play 5``, ``syntax``; ``problem``: what is wrong. ``str``:
    ``"line 14, hand 2, deal 3, play 5: N plays 7e, not in N's hand (...)"``
    (the form of every input error, shared with NotationError).
    """


# --- the model ----------------------------------------------------------------


@dataclass
class Play:
    """One card played: ``card``, an optional ``mark`` (one of MARKS, or
    ``""``), the ``comments`` that follow it (texts without braces)."""

    card: Card
    mark: str = ""
    comments: list[str] = field(default_factory=list)
    line: int | None = field(default=None, compare=False, repr=False)


@dataclass
class DealRecord:
    """One deal: ``plays`` in order (round by round, the leader first);
    ``hands`` the cards dealt per seat when written (else None: the plays
    show them); ``comments`` after the deal line."""

    plays: list[Play] = field(default_factory=list)
    hands: list[list[Card]] | None = None
    comments: list[str] = field(default_factory=list)
    line: int | None = field(default=None, compare=False, repr=False)


@dataclass
class HandRecord:
    """One hand: ``dealer`` seat (None: the seat after the previous
    hand's dealer); ``table`` the opening cards; ``deals``; ``undealt`` the
    cards never dealt when the match ended during the hand (None: not
    written); ``comments`` after the hand line."""

    table: list[Card]
    deals: list[DealRecord] = field(default_factory=list)
    dealer: int | None = None
    undealt: list[Card] | None = None
    comments: list[str] = field(default_factory=list)
    line: int | None = field(default=None, compare=False, repr=False)


@dataclass
class GameRecord:
    """A played game: ``tags`` (name -> value, in written order), the game
    ``comments`` before the first hand, the ``hands``.

    Known tags (docs/records.md): ``Rules`` (a preset and ``key=value``
    overrides, as on a position line), ``Target``, the seats ``S E N W``
    (player names; which are present gives the player count), ``Dealer``
    (of the first hand), ``StartScore`` (match score before the first hand,
    ``a-b`` per side), ``Result`` (final score ``a-b`` or ``*``),
    ``Winner`` (a side, ``S`` or ``SN``...). Others are kept as written.
    """

    tags: dict[str, str] = field(default_factory=dict)
    hands: list[HandRecord] = field(default_factory=list)
    comments: list[str] = field(default_factory=list)
    line: int | None = field(default=None, compare=False, repr=False)
    tag_lines: dict[str, int] = field(default_factory=dict, compare=False, repr=False)

    # derived from the tags (they raise RecordError naming the tag and its line)

    def line_of(self, *tags: str) -> int | None:
        """The line of the first of ``tags`` that was read from a text, else
        the game's first line."""
        for tag in tags:
            if tag in self.tag_lines:
                return self.tag_lines[tag]
        return self.line

    @property
    def players(self) -> int:
        """2, 3 or 4, from the seat tags present (2 without any)."""
        seats = {s for s in "SENW" if s in self.tags}
        for p, names in SEAT_NAMES.items():
            if seats == set(names):
                return p
        if not seats or seats <= {"S", "N"}:
            return 2
        raise RecordError("S", f"seat tags {' '.join(s for s in 'SENW' if s in seats)} are "
                               "not a table (S N; S E N; or S E N W)",
                          self.line_of(*(s for s in "SENW" if s in seats)))

    @property
    def names(self) -> list[str]:
        """Player names per seat ("?" when a seat tag is missing)."""
        return [self.tags.get(s, "?") for s in SEAT_NAMES[self.players]]

    @property
    def rules(self) -> Rules:
        """The Rules of the ``Rules`` tag (default lmodire), with the
        ``Target`` tag's target."""
        text = self.tags.get("Rules", "lmodire").split()
        if not text:
            raise RecordError("Rules", "empty (expected a preset such as lmodire)",
                              self.line_of("Rules"))
        try:
            rules = preset(text[0])
            overrides: dict[str, str] = {}
            for item in text[1:]:
                key, eq, value = item.partition("=")
                if not eq or not value:
                    raise RulesError(f"expected key=value, not {item!r}")
                if key == "target" and "Target" in self.tags:
                    raise RulesError("give the target in the Target tag only")
                if key in overrides:
                    raise RulesError(f"{key} is given twice")
                overrides[key] = value
            # together: players=3 table_cards=4 is a game, players=3 alone is not
            rules = rules.with_overrides(overrides)
        except RulesError as err:
            raise RecordError("Rules", str(err), self.line_of("Rules")) from None
        if "Target" in self.tags:
            value = self.tags["Target"]
            if not re.fullmatch(r"[1-9][0-9]{0,5}", value) or int(value) > MAX_RULE_VALUE:
                raise RecordError("Target", f"{value[:24]!r} is not a whole number of points "
                                            f"(1 to {MAX_RULE_VALUE})", self.line_of("Target"))
            rules = rules.with_overrides({"target": value})
        if self.players not in rules.players and "players" in overrides:
            try:
                check_players(rules, self.players, "the Rules tag", "give {} seat tags")
            except RulesError as err:
                raise RecordError("Rules", str(err), self.line_of("Rules")) from None
        if self.players not in rules.players:
            raise RecordError("Rules", f"{rules.name} is for "
                              f"{', '.join(map(str, rules.players))} players, not "
                              f"{self.players} (override with players=)", self.line_of("Rules"))
        return rules

    @property
    def target(self) -> int:
        """The match target, points."""
        return self.rules.target

    def _scores(self, tag: str) -> list[int] | None:
        text = self.tags.get(tag)
        if text is None or text == "*":
            return None
        k = n_sides(self.players)
        parts = text.split("-")
        if len(parts) != k or not all(re.fullmatch(r"[0-9]{1,9}", p) for p in parts):
            raise RecordError(tag, f"expected {k} scores joined by '-' "
                                   f"({'-'.join(side_names(self.players))}), got {text!r}",
                              self.line_of(tag))
        return [int(p) for p in parts]

    @property
    def start_score(self) -> list[int]:
        """Match points per side before the first hand (``StartScore``)."""
        return self._scores("StartScore") or [0] * n_sides(self.players)

    @property
    def first_dealer(self) -> int:
        """The dealer of the first hand: the ``Dealer`` tag, else the first
        hand line's; raises RecordError when neither says or they differ."""
        tag = self.tags.get("Dealer")
        seat = None
        if tag is not None:
            seat = _seat(tag, self.players, "Dealer", self.line_of("Dealer"))
        first = self.hands[0].dealer if self.hands else None
        if seat is not None and first is not None and seat != first:
            raise RecordError("Dealer", f"the tag says {tag} but hand 1 is dealt by "
                              f"{SEAT_NAMES[self.players][first]}", self.line_of("Dealer"))
        if seat is None:
            seat = first
        if seat is None:
            raise RecordError("Dealer", "the first dealer is not given (a Dealer tag or "
                              "'dealer X' on the first hand line)", self.line)
        return seat


def _seat(text: str, players: int, where: str, line: int | None) -> int:
    names = SEAT_NAMES[players]
    if text not in names:
        raise RecordError(where, f"seat {text!r} does not exist with {players} players "
                                 f"(seats: {' '.join(names)})", line)
    return names.index(text)


# --- reading ------------------------------------------------------------------

_CARD_RE = re.compile(r"(1[0-2]|[1-7])([oceb]?)")
_PLAY_RE = re.compile(r"(1[0-2]|[1-7])([oceb]?)(!!|\?\?|!\?|\?!|!|\?)?")
_ROUND_RE = re.compile(r"([1-9][0-9]{0,2})\.")
_INT_RE = re.compile(r"[1-9][0-9]*")


def _tokens(text: str, line0: int = 1) -> Iterator[tuple[str, str, int]]:
    """``(kind, text, line)``: kind ``tag`` (the bracketed text), ``comment``
    (without braces) or ``word``."""
    i, n, line = 0, len(text), line0
    while i < n:
        ch = text[i]
        if ch == "\n":
            line += 1
            i += 1
        elif ch.isspace():
            i += 1
        elif ch == "{":
            j = text.find("}", i)
            if j < 0:
                raise RecordError("syntax", "a comment '{' is not closed by '}'", line)
            body = text[i + 1:j]
            yield "comment", body, line
            line += body.count("\n")
            i = j + 1
        elif ch == "[":
            m = RECORD_TAG.match(text, i)
            if m is None:
                end = text.find("\n", i)
                bad = text[i:end if end >= 0 else n].strip()
                raise RecordError("syntax", f'expected a tag pair [Name "value"], got {bad!r}',
                                  line)
            yield "tag", m.group(0), line
            line += m.group(0).count("\n")
            i = m.end()
        else:
            j = i
            while j < n and not text[j].isspace() and text[j] not in "{[":
                j += 1
            if "\ufeff" in text[i:j]:
                raise RecordError("syntax", BOM_INSIDE, line)
            yield "word", text[i:j], line
            i = j


def _card(word: str, where: str, line: int) -> Card:
    m = _CARD_RE.fullmatch(word)
    if m is None:
        digits = re.match(r"[0-9]+", word)
        if digits and (len(digits.group(0)) > 2 or int(digits.group(0)) not in RANK_INDEX):
            raise RecordError(where, f"rank {digits.group(0)[:6]} does not exist in a "
                                     f"Spanish 40-card deck: {word[:24]!r}", line)
        raise RecordError(where, f"{word!r} is not a card (a rank 1-7 or 10-12 and an "
                                 f"optional suit {', '.join(SUITS)})", line)
    return Card(int(m.group(1)), m.group(2) or None)


def _cards(word: str, where: str, line: int) -> list[Card]:
    if word == "-":
        return []
    return [_card(w, where, line) for w in word.split(".")]


def _unescape(value: str) -> str:
    return re.sub(r"\\(.)", r"\1", value)


class _Reader:
    """The syntax of one game (tags, then movetext); no rule is checked."""

    def __init__(self, tokens: list[tuple[str, str, int]]) -> None:
        self.toks = tokens
        self.i = 0

    def peek(self) -> tuple[str, str, int] | None:
        return self.toks[self.i] if self.i < len(self.toks) else None

    def take(self) -> tuple[str, str, int]:
        tok = self.toks[self.i]
        self.i += 1
        return tok

    def word(self, where: str, what: str, after_line: int) -> tuple[str, int]:
        tok = self.peek()
        if tok is None or tok[0] != "word":
            raise RecordError(where, f"expected {what}",
                              tok[2] if tok is not None else after_line)
        self.i += 1
        return tok[1], tok[2]

    def game(self) -> GameRecord:
        g = GameRecord()
        while (tok := self.peek()) is not None and tok[0] == "tag":
            self.take()
            m = RECORD_TAG.fullmatch(tok[1])
            assert m is not None
            name, value = m.group(1), _unescape(m.group(2))
            if g.line is None:
                g.line = tok[2]
            if name in g.tags:
                raise RecordError(name, "tag given twice", tok[2])
            g.tags[name] = value
            g.tag_lines[name] = tok[2]
        players = g.players
        target: list[str] = g.comments
        hand: HandRecord | None = None
        deal: DealRecord | None = None
        hand_no = 0
        while (tok := self.peek()) is not None and tok[0] != "tag":
            kind, text, line = self.take()
            if g.line is None:
                g.line = line
            if kind == "comment":
                target.append(text)
                continue
            if text == "hand":
                num, nline = self.word("syntax", "a hand number after 'hand'", line)
                hand_no += 1
                if num != str(hand_no):
                    raise RecordError(f"hand {hand_no}", f"hands are numbered from 1 in order: "
                                      f"expected hand {hand_no}, got {num!r}", nline)
                dealer = None
                w, wline = self.word(f"hand {hand_no}", "'dealer' or 'table'", nline)
                if w == "dealer":
                    seat, sline = self.word(f"hand {hand_no}", "a seat after 'dealer'", wline)
                    dealer = _seat(seat, players, f"hand {hand_no}", sline)
                    w, wline = self.word(f"hand {hand_no}", "'table' and the opening cards",
                                         sline)
                if w != "table":
                    raise RecordError(f"hand {hand_no}", f"expected 'table', got {w!r}", wline)
                cards, cline = self.word(f"hand {hand_no}", "the opening table's cards", wline)
                hand = HandRecord(_cards(cards, f"hand {hand_no}, table", cline),
                                  dealer=dealer, line=line)
                g.hands.append(hand)
                deal = None
                target = hand.comments
            elif text == "deal":
                if hand is None:
                    raise RecordError("syntax", "a deal before any 'hand' line", line)
                where = f"hand {hand_no}, deal {len(hand.deals) + 1}"
                if hand.undealt is not None:
                    raise RecordError(where, "a deal after 'undealt' (undealt ends the hand)",
                                      line)
                num, nline = self.word(where, "a deal number after 'deal'", line)
                if num != str(len(hand.deals) + 1):
                    raise RecordError(where, f"deals are numbered from 1 in order: expected "
                                      f"deal {len(hand.deals) + 1}, got {num!r}", nline)
                deal = DealRecord(line=line)
                hands: dict[int, list[Card]] = {}
                while (nxt := self.peek()) is not None and nxt[0] == "word" \
                        and nxt[1] in SEAT_NAMES[players]:
                    self.take()
                    seat = SEAT_NAMES[players].index(nxt[1])
                    if seat in hands:
                        raise RecordError(where, f"{nxt[1]}'s hand written twice", nxt[2])
                    cards, cline = self.word(where, f"{nxt[1]}'s cards", nxt[2])
                    hands[seat] = _cards(cards, where, cline)
                if hands:
                    missing = [SEAT_NAMES[players][s] for s in range(players) if s not in hands]
                    if missing:
                        raise RecordError(where, "the deal line gives some hands but not "
                                                 f"{', '.join(missing)}'s", line)
                    deal.hands = [hands[s] for s in range(players)]
                hand.deals.append(deal)
                target = deal.comments
            elif text == "undealt":
                if hand is None or not hand.deals:
                    raise RecordError("syntax", "'undealt' before any deal", line)
                if hand.undealt is not None:
                    raise RecordError(f"hand {hand_no}", "'undealt' given twice", line)
                cards, cline = self.word(f"hand {hand_no}", "the undealt cards", line)
                hand.undealt = _cards(cards, f"hand {hand_no}, undealt", cline)
                deal = None
                target = hand.comments
            elif (m := _ROUND_RE.fullmatch(text)) is not None:
                if deal is None:
                    raise RecordError("syntax", f"round {text} outside a deal", line)
                done = len(deal.plays)
                where = f"hand {hand_no}, deal {len(hand.deals)}"  # type: ignore[union-attr]
                if done % players:
                    raise RecordError(where, f"round number {text} in the middle of round "
                                      f"{done // players + 1} ({done % players} of {players} "
                                      "plays made)", line)
                if int(m.group(1)) != done // players + 1:
                    raise RecordError(where, f"expected round {done // players + 1}., got "
                                      f"{text}", line)
                sizes = deal_sizes(g.rules, players)
                if len(hand.deals) <= len(sizes) \
                        and done // players + 1 > sizes[len(hand.deals) - 1]:  # type: ignore[union-attr]
                    raise RecordError(where, f"round {text} but deal {len(hand.deals)} has "  # type: ignore[union-attr]
                                      f"{sizes[len(hand.deals) - 1]} rounds", line)  # type: ignore[union-attr]
            elif (m := _PLAY_RE.fullmatch(text)) is not None:
                if deal is None:
                    raise RecordError("syntax", f"a play {text!r} outside a deal (write "
                                      "'deal 1' first)", line)
                play = Play(Card(int(m.group(1)), m.group(2) or None), m.group(3) or "",
                            line=line)
                deal.plays.append(play)
                target = play.comments
            else:
                where = "syntax" if deal is None else (
                    f"hand {hand_no}, deal {len(hand.deals)}, "  # type: ignore[union-attr]
                    f"play {len(deal.plays) + 1}")
                if re.match(r"[0-9]", text):
                    _card(re.sub(r"[!?]+$", "", text), where, line)   # names a bad card
                raise RecordError(where, f"unexpected {text!r} (expected a card, a round "
                                  "number '2.', 'deal', 'hand', 'undealt' or a comment)", line)
        return g


def parse_games(text: str) -> list[GameRecord | RecordError]:
    """Every game of a file (a new game starts at a tag after movetext),
    each read and checked by :func:`check`; errors are collected, not
    raised. An unreadable token stops the rest of its game; text that
    cannot be split into tokens (a comment not closed, a bad tag, a
    byte-order mark past the start) ends the file there: the whole games
    before it are read, then its error. A byte-order mark at the start is
    skipped, and so are comments with no game."""
    if text.startswith("\ufeff"):
        text = text[1:]
    toks: list[tuple[str, str, int]] = []
    stop = None
    try:
        for tok in _tokens(text):
            toks.append(tok)
    except RecordError as err:
        stop = err
    chunks: list[list[tuple[str, str, int]]] = []
    for tok in toks:
        if not chunks or (tok[0] == "tag" and chunks[-1] and chunks[-1][-1][0] != "tag"):
            chunks.append([])
        chunks[-1].append(tok)
    if stop is not None and chunks and not _starts_a_game(text, stop.line, chunks[-1]):
        # the game the error is in is not read (its text stops there); the
        # games before it are (files joined with cat lost every game: a
        # byte-order mark before the second one's tags)
        chunks.pop()
    out: list[GameRecord | RecordError] = []
    for chunk in chunks:
        if all(tok[0] == "comment" for tok in chunk):
            continue            # a file of comments only holds no game
        try:
            g = _Reader(chunk).game()
            check(g)
            out.append(g)
        except RecordError as err:
            out.append(err)
    if stop is not None:
        out.append(stop)
    if out and isinstance(out[0], RecordError):
        line = _position_line(text)
        if line is not None:
            return [RecordError("syntax", POSITION_FILE, line)]
    return out


def _starts_a_game(text: str, line: int | None, last: list) -> bool:
    """Whether an unreadable line ``line`` of ``text`` starts a new game (a
    tag, a byte-order mark before it) after a game's movetext (``last``,
    the tokens read before it), so that game is whole."""
    lines = text.split("\n")
    if line is None or not 1 <= line <= len(lines) or not last or last[-1][0] == "tag":
        return False
    return lines[line - 1].lstrip("\ufeff \t\r").startswith("[")


#: the one error of a position file read as game records
POSITION_FILE = ("a position, not a game record: evaluate it with "
                 "`ronda-solve FILE` (annotate reads played games)")


def _position_line(text: str) -> int | None:
    """The line of ``text``'s first position when ``text`` is a position
    file (its first line that is not blank or a comment reads as a
    position), else None.

    >>> _position_line("# a comment\\n5.7 1.2.3/4.6.7 - S")
    2
    >>> _position_line('[Event "x"]') is None
    True
    """
    for number, item in parse_lines(text.split("\n")):
        return None if isinstance(item, NotationError) else number
    return None


def loads(text: str) -> GameRecord:
    """Read exactly one game, strictly; raises RecordError (the first
    problem: syntax, tags, then the replay of every play)."""
    games = parse_games(text)
    if not games:
        raise RecordError("syntax", "no game in the text (expected tag pairs and hands)")
    first = games[0]
    if isinstance(first, RecordError):
        raise first
    if len(games) > 1:
        raise RecordError("syntax", f"{len(games)} games in the text; use parse_games",
                          games[1].line if isinstance(games[1], GameRecord) else None)
    return first


# --- writing ------------------------------------------------------------------


def _comment(text: str) -> str:
    if "}" in text:
        raise ValueError(f"a comment cannot hold '}}': {text!r}")
    return "{" + text + "}"


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


def dumps(game: GameRecord) -> str:
    """The canonical text of one game: tag pairs one a line in their order,
    a blank line, the game comments, then per hand a ``hand`` line (its
    comments after it), per deal a ``deal`` line (hands when written,
    seat by seat) and one line per round, and ``undealt`` when given.

    Raises ValueError for a comment holding ``}`` (it could not be read
    back)."""
    names = SEAT_NAMES[game.players]
    p = game.players
    out = [f'[{k} "{_escape(v)}"]' for k, v in game.tags.items()]
    out.append("")
    out.extend(_comment(c) for c in game.comments)
    for h, hand in enumerate(game.hands, start=1):
        head = f"hand {h}"
        if hand.dealer is not None:
            head += f" dealer {names[hand.dealer]}"
        out.append(head + f" table {format_cards(hand.table)}")
        out.extend(_comment(c) for c in hand.comments)
        for d, deal in enumerate(hand.deals, start=1):
            head = f"deal {d}"
            if deal.hands is not None:
                head += "".join(f" {names[s]} {format_cards(cards)}"
                                for s, cards in enumerate(deal.hands))
            out.append(head)
            out.extend(_comment(c) for c in deal.comments)
            for start in range(0, len(deal.plays), p):
                parts = [f"{start // p + 1}."]
                for play in deal.plays[start:start + p]:
                    parts.append(f"{play.card}{play.mark}")
                    parts.extend(_comment(c) for c in play.comments)
                out.append(" ".join(parts))
        if hand.undealt is not None:
            out.append(f"undealt {format_cards(hand.undealt)}")
    return "\n".join(out) + "\n"


def dumps_all(games: list[GameRecord]) -> str:
    """Several games, a blank line between them."""
    return "\n".join(dumps(g) for g in games)


def commands(comment: str) -> dict[str, str]:
    """The ``[%name value]`` commands of a comment (PGN style), e.g.
    ``commands("[%eval -1.50] [%loss 2.00] nice") == {"eval": "-1.50",
    "loss": "2.00"}``."""
    return {m.group(1): m.group(2).strip()
            for m in re.finditer(r"\[%([A-Za-z_]+)\s*([^\]]*)\]", comment)}


# --- replaying: the legality check --------------------------------------------


@dataclass
class Step:
    """One play about to be made in a replay: ``hand``, ``deal``, ``number``
    (1-based: play number within the deal), ``seat``, the ``play`` record,
    ``state`` the HandState just before it (do not change it), ``index``
    the play's 0-based number in the whole game."""

    hand: int
    deal: int
    number: int
    seat: int
    play: Play
    state: HandState
    index: int


class Replay:
    """Replays a record with :class:`~solver.games.match.HandState`, checking
    every card. Iterate it to get a :class:`Step` before each play (the
    play is made when the loop asks for the next one); or call
    :meth:`run`. Afterwards: ``states`` (each hand's final HandState),
    ``events`` (the PlayEvent of every play, in order), ``score``,
    ``winner`` (a side or None), ``finished`` (the match was won).

    Raises RecordError naming the line, hand, deal and play."""

    def __init__(self, game: GameRecord) -> None:
        self.game = game
        self.rules = game.rules
        self.players = game.players
        self.names = SEAT_NAMES[self.players]
        self.states: list[HandState] = []
        self.events: list[PlayEvent] = []
        self.score = game.start_score
        self.winner: int | None = None
        self.finished = False

    def run(self) -> "Replay":
        """Replay every play; returns self."""
        for _step in self:
            pass
        return self

    def _deal_hands(self, h: int, hand: HandRecord, leader: int) -> list[list[list[Card]] | None]:
        """Each deal's hands: as written, or gathered from its plays."""
        sizes = deal_sizes(self.rules, self.players)
        p = self.players
        if len(hand.deals) > len(sizes):
            raise RecordError(f"hand {h}", f"{len(hand.deals)} deals, but a hand of "
                              f"{p} players has {len(sizes)}", hand.deals[len(sizes)].line)
        out: list[list[list[Card]] | None] = []
        for d, deal in enumerate(hand.deals, start=1):
            size = sizes[d - 1]
            where = f"hand {h}, deal {d}"
            if len(deal.plays) > size * p:
                raise RecordError(f"{where}, play {size * p + 1}", f"a deal of {size} cards "
                                  f"a player has {size * p} plays",
                                  deal.plays[size * p].line)
            if deal.hands is not None:
                for s, cards in enumerate(deal.hands):
                    if len(cards) != size:
                        raise RecordError(where, f"deal {d} gives {size} cards a player, but "
                                          f"{self.names[s]} has {len(cards)}", deal.line)
                out.append(deal.hands)
            elif len(deal.plays) == size * p:
                got: list[list[Card]] = [[] for _ in range(p)]
                for i, play in enumerate(deal.plays):
                    got[(leader + i) % p].append(play.card)
                out.append(got)
            else:
                out.append(None)
        return out

    def _check_cards(self, h: int, hand: HandRecord, leader: int) -> None:
        """Refuse a suited card seen twice or a fifth card of a rank in hand
        ``h``, at the line and play that brings it (the deal line when the
        deal's hands are written there), naming where it was first seen.

        Raises:
            RecordError: located at the offending card's line.
        """
        p = self.players
        seen_suited: dict[Card, str] = {}
        count = [0] * len(RANK_INDEX)
        first_of_rank: dict[int, str] = {}

        def see(card: Card, where: str, line: int | None, whose: str) -> None:
            if card.suit and card in seen_suited:
                raise RecordError(where, f"{whose}{card} was already seen in this hand "
                                  f"({seen_suited[card]})", line)
            if count[card.index] >= 4:
                raise RecordError(where, f"{whose}{card} is a fifth card of rank {card.rank} "
                                  f"(a deck has 4; the first is in {first_of_rank[card.index]})",
                                  line)
            count[card.index] += 1
            first_of_rank.setdefault(card.index, where)
            if card.suit:
                seen_suited[card] = where

        for c in hand.table:
            see(c, f"hand {h}, table", hand.line, "the table's ")
        for d, deal in enumerate(hand.deals, start=1):
            if deal.hands is not None:
                for s, cards in enumerate(deal.hands):
                    for c in cards:
                        see(c, f"hand {h}, deal {d}", deal.line, f"{self.names[s]}'s ")
                # each play is a card its seat was dealt (checked here, before a
                # wrong deal line can show up as a duplicate in a later deal)
                left = [list(cards) for cards in deal.hands]
                for k, play in enumerate(deal.plays, start=1):
                    seat = (leader + k - 1) % p
                    c = play.card
                    match = next((x for x in left[seat] if x == c or
                                  (not c.suit and x.rank == c.rank)), None)
                    if match is None:
                        held = ".".join(str(x) for x in left[seat]) or "-"
                        who = self.names[seat]
                        raise RecordError(f"hand {h}, deal {d}, play {k}",
                                          f"{who} plays {c}: {c} is not in {who}'s hand "
                                          f"({held})", play.line)
                    left[seat].remove(match)
                continue
            for k, play in enumerate(deal.plays, start=1):
                seat = (leader + k - 1) % p
                see(play.card, f"hand {h}, deal {d}, play {k}", play.line,
                    f"{self.names[seat]}'s play ")
        for c in hand.undealt or ():
            see(c, f"hand {h}, undealt", hand.line, "undealt ")

    def __iter__(self) -> Iterator[Step]:
        g = self.game
        rules, p = self.rules, self.players
        dealer = g.first_dealer
        score = list(self.score)
        index = 0
        for h, hand in enumerate(g.hands, start=1):
            if self.finished:
                raise RecordError(f"hand {h}", "the match was already won by "
                                  f"{side_names(p)[self.winner]}", hand.line)  # type: ignore[index]
            if hand.dealer is not None:
                dealer = hand.dealer
            leader = (dealer + 1) % p
            deal_hands = self._deal_hands(h, hand, leader)
            self._check_cards(h, hand, leader)
            stock: list[Card] | None = None
            if all(x is not None for x in deal_hands):
                cards = [c for hands in deal_hands for i in range(p)
                         for c in hands[(leader + i) % p]]  # type: ignore[index]
                if hand.undealt is not None:
                    cards += hand.undealt
                dealt = 40 - rules.table_cards
                if len(cards) == dealt:
                    stock = cards
                elif hand.undealt is not None:
                    raise RecordError(f"hand {h}, undealt", f"the deals ({len(cards) - len(hand.undealt)} "
                                      f"cards) and undealt ({len(hand.undealt)}) make "
                                      f"{len(cards)} cards, not {dealt}", hand.line)
            try:
                hs = HandState(rules, p, dealer, hand.table, score=score,
                               target=rules.target, stock=stock)
            except PlayError as err:
                raise RecordError(f"hand {h}, table", str(err), hand.line) from None
            self.states.append(hs)
            for d, deal in enumerate(hand.deals, start=1):
                where = f"hand {h}, deal {d}"
                if hs.finished:
                    raise RecordError(where, "the match was already won by "
                                      f"{hs.side_name(hs.winner)}", deal.line)  # type: ignore[arg-type]
                if not hs.awaiting_deal:   # pragma: no cover - plays were checked
                    raise RecordError(where, "the previous deal is not finished", deal.line)
                if stock is None and deal_hands[d - 1] is None:
                    raise RecordError(where, f"the deal has {len(deal.plays)} plays, not all "
                                      f"its cards: write its hands on the deal line "
                                      f"(deal {d} S ... N ...)", deal.line)
                try:
                    hs.deal(None if stock is not None else deal_hands[d - 1])
                except PlayError as err:
                    raise RecordError(where, str(err), deal.line) from None
                for k, play in enumerate(deal.plays, start=1):
                    here = f"{where}, play {k}"
                    if hs.finished:
                        raise RecordError(here, "the match was already won by "
                                          f"{hs.side_name(hs.winner)}", play.line)  # type: ignore[arg-type]
                    seat = hs.turn
                    yield Step(h, d, k, seat, play, hs, index)
                    index += 1
                    try:
                        self.events.append(hs.play(play.card))
                    except PlayError as err:
                        raise RecordError(here, f"{self.names[seat]} plays {play.card}: {err}",
                                          play.line) from None
                if not hs.finished and not hs.awaiting_deal and d < len(hand.deals):
                    raise RecordError(where, f"the deal stops after {len(deal.plays)} plays "
                                      "but another deal follows", deal.line)
            score = list(hs.score)
            if hs.winner is not None:
                self.winner = hs.winner
                self.finished = True
            complete = hs.finished and hs.winner is None
            if not hs.finished and h < len(g.hands):
                raise RecordError(f"hand {h}", "the hand stops before its end but another hand "
                                  "follows", hand.line)
            if complete and hand.undealt is not None:
                raise RecordError(f"hand {h}, undealt", "every card was dealt in this hand",
                                  hand.line)
            dealer = (dealer + 1) % p
        self.score = score
        self._check_result()

    def _check_result(self) -> None:
        g = self.game
        names = side_names(self.players)
        result = g.tags.get("Result")
        if result is not None and result != "*":
            want = g._scores("Result")
            if not self.finished:
                raise RecordError("Result", f"the match is not over (score "
                                  f"{'-'.join(map(str, self.score))}); write \"*\"",
                                  g.line_of("Result"))
            if want != self.score:
                raise RecordError("Result", f"the plays give {'-'.join(map(str, self.score))}, "
                                  f"not {result}", g.line_of("Result"))
        winner = g.tags.get("Winner")
        if winner is not None and winner != "*":
            if winner not in names:
                raise RecordError("Winner", f"{winner!r} is not a side ({' '.join(names)})",
                                  g.line_of("Winner"))
            if self.winner is None or names[self.winner] != winner:
                got = "nobody yet" if self.winner is None else names[self.winner]
                raise RecordError("Winner", f"the plays give {got}, not {winner}",
                                  g.line_of("Winner"))


def check(game: GameRecord) -> Replay:
    """Check a record: its tags and every card, by replaying it. Returns
    the finished :class:`Replay`; raises RecordError."""
    game.rules  # noqa: B018 - reads and checks the tags
    return Replay(game).run()


# --- from self-play -----------------------------------------------------------


def from_match(log: MatchLog, tags: dict[str, str] | None = None) -> GameRecord:
    """The record of a simulated match: tags ``Event`` (from ``tags`` or
    "self-play"), ``Rules``, ``Target``, seat names, ``Dealer``, ``Seed``,
    ``StartScore`` (when not zero), ``Result``, ``Winner``, then ``tags``;
    every deal's hands written; ``undealt`` when the match ended during a
    hand."""
    rules = log.rules
    names = SEAT_NAMES[log.players]
    t: dict[str, str] = {"Event": (tags or {}).get("Event", "self-play")}
    t["Rules"] = rules.system()
    t["Target"] = str(rules.target)
    for s, name in enumerate(log.names):
        t[names[s]] = name
    t["Dealer"] = names[log.first_dealer]
    if log.seed is not None:
        t["Seed"] = str(log.seed)
    if any(log.start_score):
        t["StartScore"] = "-".join(map(str, log.start_score))
    t["Result"] = "-".join(map(str, log.score)) if log.winner is not None else "*"
    t["Winner"] = side_names(log.players)[log.winner] if log.winner is not None else "*"
    for k, v in (tags or {}).items():
        t[k] = v
    g = GameRecord(tags=t)
    for hl in log.hands:
        hand = HandRecord(list(hl.table), dealer=hl.dealer,
                          undealt=None if hl.undealt is None else list(hl.undealt))
        for hands, plays in zip(hl.deals, hl.plays):
            hand.deals.append(DealRecord([Play(c) for c in plays],
                                         [list(h) for h in hands]))
        g.hands.append(hand)
    return g


__all__ = [
    "RecordError", "Play", "DealRecord", "HandRecord", "GameRecord", "MARKS",
    "loads", "dumps", "dumps_all", "parse_games", "check", "commands", "Replay", "Step",
    "from_match",
]
