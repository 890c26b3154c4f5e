"""A match played one card at a time: people and engine levels at the seats.

:class:`LiveGame` is what the play page of ``ronda-solve serve`` plays
(:mod:`solver.web.play`): a :class:`Setup` (the rules, the player count,
who sits where, the target) and a seed; hand ``h`` is shuffled by
:func:`solver.games.match.hand_rng` ``(seed, h)`` and dealt as
:func:`solver.games.match.play_match` deals it (S leads the first hand, the
deal passes on after each). The game is its setup, its seed and the cards
played (:attr:`LiveGame.moves`): :meth:`LiveGame.restore` replays them, so a
stored game resumes exactly where it was.

Nothing here searches: an engine seat's card comes from outside
(:meth:`engine_request` says what the engine may see: the seat's view as a
position line and a decision seed; :meth:`play` takes the card), a hint is
recorded with :meth:`add_hint`.

What a person is shown is :meth:`state` for a seat: its own hand, the
table, the other hands' sizes (and the cards of a declared pair or triple
by rank), the cards gone, the piles, the score, the declarations of the
deal, the card just laid, a hit pile on show and who may answer it. The
seed and the cards still hidden never leave the server before the end:
:meth:`record` for a browser keeps only the finished hands and no ``Seed``
tag until the game is over.

>>> g = LiveGame(Setup(seats=("human", "2")), seed="7")
>>> g.status(), g.turn_name()
('play', 'S')
>>> card = g.hs.hands[0][0]
>>> _ = g.play(str(card), seat=0)
>>> g.status(), g.turn_name(), len(g.moves)
('engine', 'N', 1)
"""

from __future__ import annotations

import datetime
import re
import unicodedata
from collections import Counter
from dataclasses import dataclass, field

from ..cards import RANKS, Card, CardError, format_cards, parse_card
from ..notation import format_position
from ..position import SEAT_NAMES, n_sides, side_names, side_of
from ..rules import PRESETS, Rules, RulesError, check_players, preset
from .levels import LEVELS, decision_seed, level
from .match import HandState, PlayError, PlayEvent, deal_hand, hand_rng
from .record import DealRecord, GameRecord, HandRecord, Play, check

#: the longest match the play page deals (as play_match's max_hands)
MAX_HANDS = 100


#: the bidirectional embeddings, overrides and isolates (U+202A-E, U+2066-9)
_BIDI = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


class SetupError(ValueError):
    """A setup that cannot be played (one line naming the field)."""


class MoveError(ValueError):
    """A play that is refused: not this seat's turn, a card not in the
    hand, the hand or the game over (one line)."""


@dataclass(frozen=True)
class Setup:
    """How a game is set up: ``rules`` a preset and ``key=value``
    overrides, as a record's ``Rules`` tag (``"pagat voleur=yes"``);
    ``players`` 2, 3 or 4; ``seats`` one entry a seat in play order (S E N
    W): ``"human"`` or a level number as text; ``target`` the match target
    (None: the rules'); ``names`` the people's names (one for every human
    seat, default ``you``)."""

    rules: str = "lmodire"
    players: int = 2
    seats: tuple[str, ...] = ("human", "3")
    target: int | None = None
    names: tuple[str, ...] = ()

    def to_json(self) -> dict:
        """The setup as JSON (stored with the game)."""
        return {"rules": self.rules, "players": self.players, "seats": list(self.seats),
                "target": self.target, "names": list(self.names)}

    @classmethod
    def from_json(cls, d: dict) -> "Setup":
        """The inverse of :meth:`to_json`."""
        return cls(d["rules"], d["players"], tuple(d["seats"]), d.get("target"),
                   tuple(d.get("names", ())))

    def parsed_rules(self) -> Rules:
        """The Rules (the target applied); raises SetupError (one line)."""
        words = self.rules.split()
        if not words:
            raise SetupError("rules: empty (expected a preset such as lmodire)")
        try:
            rules = preset(words[0])
            overrides = {}
            for item in words[1:]:
                key, eq, value = item.partition("=")
                if not eq or not value:
                    raise RulesError(f"expected key=value, not {item!r}")
                if key == "target":
                    raise RulesError("give the target in its own field")
                overrides[key] = value
            if "players" in overrides:
                raise RulesError("give the players in their own field")
            if self.players not in rules.players:
                overrides = {"players": str(self.players), **overrides}
            rules = rules.with_overrides(overrides)
            if self.target is not None:
                rules = rules.with_overrides({"target": str(self.target)})
        except RulesError as e:
            raise SetupError(f"rules: {e}") from None
        return rules

    def check_new(self) -> None:
        """For a new game: the preset must be one for this many players
        (as ``play`` and a position line require; a stored game is loaded
        as it was set up). Raises SetupError."""
        words = self.rules.split()
        try:
            rules = preset(words[0]) if words else None
        except RulesError:
            return          # validate() names the problem
        if rules is not None:
            try:
                check_players(rules, self.players)
            except RulesError as e:
                raise SetupError(str(e)) from None

    def validate(self) -> Rules:
        """Check the setup; returns its Rules. Raises SetupError."""
        if self.players not in (2, 3, 4):
            raise SetupError(f"players: 2, 3 or 4, not {self.players}")
        if self.target is not None and not 1 <= self.target <= 999:
            raise SetupError(f"target: from 1 to 999 points, not {self.target}")
        rules = self.parsed_rules()
        if len(self.seats) != self.players:
            raise SetupError(f"seats: one a seat ({self.players}), not {len(self.seats)}")
        for s, who in zip(SEAT_NAMES[self.players], self.seats):
            if who == "human":
                continue
            if not re.fullmatch(r"[0-9]{1,2}", who) or not any(
                    lv.number == int(who) for lv in LEVELS):
                raise SetupError(f"seats: {s} is {who!r}, not human or a level 1 to "
                                 f"{len(LEVELS)}")
        if "human" not in self.seats:
            raise SetupError("seats: at least one seat is a person (human)")
        humans = self.seats.count("human")
        if self.names and len(self.names) != humans:
            raise SetupError(f"names: one a person ({humans}), not {len(self.names)}")
        for n in self.names:
            # (a control character, a line break or a NUL, split or soiled the
            # record's tag; a bidi override turned the name's text around)
            if (not re.fullmatch(r"[^\"\\\]\[{}]{1,40}", n)
                    or any(unicodedata.category(c) == "Cc" or c in _BIDI for c in n)):
                raise SetupError(f"names: {n[:40]!r} is not a name (1 to 40 characters, no "
                                 "quotes, brackets, braces or control characters)")
        return rules

    def seat_names(self) -> list[str]:
        """The player name of every seat: the people's names, and
        ``level 4 (club)`` for an engine seat."""
        names = list(self.names) or ["you"] * self.seats.count("human")
        out = []
        k = 0
        for who in self.seats:
            if who == "human":
                out.append(names[k])
                k += 1
            else:
                out.append(level(int(who)).label)
        return out


@dataclass
class HandLog:
    """One hand as played here: ``dealer``, the opening ``table``, each
    deal's ``hands`` and ``plays`` (cards), the declarations' points per
    side of each deal (``declared``), the ``events`` of the plays."""

    dealer: int
    table: list[Card]
    deals: list[list[list[Card]]] = field(default_factory=list)
    plays: list[list[Card]] = field(default_factory=list)
    declared: list[list[int]] = field(default_factory=list)
    events: list[PlayEvent] = field(default_factory=list)
    state: HandState | None = None


class LiveGame:
    """A match in progress (see the module docstring).

    ``setup``; ``seed`` the seed of the shuffles (a string); ``moves``
    every card played so far (with its suit), in order; ``hints`` the play
    index at which a person asked for a hint, and the card the hint gave;
    ``notes`` a note on a play (an engine that ran out of time);
    ``started`` the hands dealt (a finished hand waits for
    :meth:`next_hand`); ``created`` a date (``YYYY.MM.DD``, the record's
    ``Date``).

    Raises SetupError for a bad setup, MoveError for stored moves that do
    not replay.
    """

    def __init__(self, setup: Setup, seed: str, created: str | None = None) -> None:
        self.rules = setup.validate()
        self.setup = setup
        self.seed = seed
        self.players = setup.players
        self.names = SEAT_NAMES[self.players]
        self.sides = side_names(self.players)
        self.created = created or datetime.date.today().strftime("%Y.%m.%d")
        self.moves: list[str] = []
        self.hints: dict[int, str] = {}
        self.notes: dict[int, str] = {}
        self.logs: list[HandLog] = []
        self.score = [0] * n_sides(self.players)
        self.winner: int | None = None
        self.dealer = self.players - 1
        self._start_hand()

    @classmethod
    def restore(cls, setup: Setup, seed: str, moves: list[str], started: int,
                hints: dict | None = None, notes: dict | None = None,
                created: str | None = None) -> "LiveGame":
        """The game after ``moves`` (and ``started`` hands dealt): a stored
        game as it was. Raises MoveError when the moves do not replay."""
        g = cls(setup, seed, created)
        for i, m in enumerate(moves):
            if g.status() == "hand-over":
                g.next_hand()
            try:
                g._apply(parse_card(m))
            except (PlayError, CardError, MoveError) as e:
                raise MoveError(f"stored play {i + 1} ({m}) does not replay: {e}") from None
        while len(g.logs) < started and g.status() == "hand-over":
            g.next_hand()
        g.hints = {int(k): v for k, v in (hints or {}).items()}
        g.notes = {int(k): v for k, v in (notes or {}).items()}
        return g

    # --- the hands ---------------------------------------------------------

    @property
    def hs(self) -> HandState:
        """The hand in play (or just finished)."""
        st = self.logs[-1].state
        assert st is not None
        return st

    def _deck(self, h: int) -> tuple[list[Card], list[Card]]:
        """The opening table and the stock of hand ``h``, from the seed."""
        return deal_hand(self.rules, self.players, hand_rng(self.seed, h))

    def _start_hand(self) -> None:
        h = len(self.logs) + 1
        table, stock = self._deck(h)
        hs = HandState(self.rules, self.players, self.dealer, table, score=self.score,
                       target=self.rules.target, stock=stock)
        self.logs.append(HandLog(hs.dealer, list(table), state=hs))
        self._deal_if_due()

    def _deal_if_due(self) -> None:
        hs = self.hs
        log = self.logs[-1]
        if hs.awaiting_deal and not hs.finished:
            gains = hs.deal()
            log.deals.append([list(h) for h in hs.hands])
            log.plays.append([])
            log.declared.append(list(gains))
        if hs.finished:
            self.score = list(hs.score)
            if hs.winner is not None:
                self.winner = hs.winner

    def next_hand(self) -> None:
        """Deal the next hand (after a hand is over and the match is not).
        Raises MoveError otherwise."""
        if self.status() != "hand-over":
            raise MoveError("the hand is not over" if self.winner is None
                            else "the game is over")
        self.dealer = (self.dealer + 1) % self.players
        self._start_hand()

    # --- where the game is --------------------------------------------------

    def status(self) -> str:
        """``over`` (the match is won), ``hand-over`` (waiting for
        :meth:`next_hand`), ``play`` (a person is to play) or ``engine``."""
        if self.winner is not None:
            return "over"
        hs = self.hs
        if hs.finished:
            return "over" if len(self.logs) >= MAX_HANDS else "hand-over"
        return "play" if self.is_human(hs.turn) else "engine"

    def score_now(self) -> list[int]:
        """The match score per side at this moment (during a hand too)."""
        return list(self.hs.score)

    def is_human(self, seat: int) -> bool:
        """Whether a person plays ``seat``."""
        return self.setup.seats[seat] == "human"

    def turn_name(self) -> str | None:
        """The seat to play (``S``), None between hands and at the end."""
        return self.names[self.hs.turn] if self.status() in ("play", "engine") else None

    def home(self) -> int:
        """The seat whose view a person sees: the person to play, else the
        first seat a person plays."""
        if self.status() == "play":
            return self.hs.turn
        return self.setup.seats.index("human")

    @property
    def index(self) -> int:
        """The index of the next play in the game (0-based)."""
        return len(self.moves)

    # --- playing -------------------------------------------------------------

    def play(self, card_text: str, seat: int | None = None) -> PlayEvent:
        """The mover plays the card ``card_text`` (``7e``, or ``7``: the
        first 7 of the hand). ``seat``: the seat the request speaks for (a
        person's play must be its turn; None: whoever is to play, the
        engine's card). Raises MoveError (one line), changing nothing."""
        st = self.status()
        if st == "over":
            raise MoveError("the game is over")
        if st == "hand-over":
            raise MoveError("the hand is over: deal the next hand first")
        hs = self.hs
        if seat is not None and seat != hs.turn:
            who = "the engine" if not self.is_human(hs.turn) else "a person"
            raise MoveError(f"it is {self.names[hs.turn]}'s turn ({who}), not "
                            f"{self.names[seat]}'s")
        if seat is not None and not self.is_human(seat):
            raise MoveError(f"{self.names[seat]} is played by the engine")
        try:
            card = parse_card(card_text)
        except CardError as e:
            raise MoveError(f"card: {e}") from None
        if hs.find(hs.turn, card) is None:
            raise MoveError(f"{card} is not in {self.names[hs.turn]}'s hand "
                            f"({format_cards(hs.hands[hs.turn])})")
        return self._apply(card)

    def _apply(self, card: Card) -> PlayEvent:
        hs = self.hs
        if hs.finished or hs.awaiting_deal:
            raise MoveError("no play is due")
        i = hs.find(hs.turn, card)
        if i is None:
            raise MoveError(f"{card} is not in {self.names[hs.turn]}'s hand")
        card = hs.hands[hs.turn][i]
        ev = hs.play(card)
        log = self.logs[-1]
        log.plays[-1].append(ev.card)
        log.events.append(ev)
        self.moves.append(str(ev.card))
        self._deal_if_due()
        return ev

    def engine_request(self) -> dict:
        """What the engine to play may know: ``{"line": the seat's view as
        a position line, "level": its level number, "seed": the decision
        seed, "index", "seat"}``. Raises MoveError when no engine is to
        play."""
        if self.status() != "engine":
            raise MoveError("no engine seat is to play")
        hs = self.hs
        return {"line": format_position(hs.view()), "level": int(self.setup.seats[hs.turn]),
                "seed": decision_seed(self.seed, self.index, hs.turn), "index": self.index,
                "seat": hs.turn}

    def hint_request(self) -> dict:
        """What a hint searches: the view of the person to play
        (``line``) and a ``seed``. Raises MoveError when no person is to
        play."""
        if self.status() != "play":
            raise MoveError("no person is to play")
        hs = self.hs
        return {"line": format_position(hs.view()), "index": self.index, "seat": hs.turn,
                "seed": decision_seed(self.seed, self.index, hs.turn) % (1 << 31)}

    def add_hint(self, index: int, best: str) -> None:
        """Count a hint asked before play ``index`` (its best card)."""
        self.hints.setdefault(index, best)

    # --- what a seat sees -----------------------------------------------------

    def state(self, seat: int | None = None) -> dict:
        """What ``seat`` (default :meth:`home`) is shown: see the module
        docstring; plain JSON data."""
        seat = self.home() if seat is None else seat
        hs = self.hs
        st = self.status()
        view = hs.view(seat)
        names, sides = self.names, self.sides
        log = self.logs[-1]
        my_side = side_of(seat, self.players)
        show = None
        if view.show is not None:
            owner = (hs.turn - 1) % self.players if st in ("play", "engine") else None
            show = {"rank": view.show.rank, "size": view.show.size,
                    "seat": names[owner] if owner is not None else None,
                    "answer_by": names[hs.turn] if st in ("play", "engine") else None,
                    "points": self._answer_points(view.show.size)}
        hands = {}
        for s in range(self.players):
            cards = view.hands[s]
            hands[names[s]] = [("?" if c is None else str(c)) for c in cards]
        declared = []
        for d_seat, d in self._declarations():
            declared.append({"seat": names[d_seat], "kind": d.kind, "rank": d.rank})
        deal_no = hs.deal_no
        plays = []
        k = 0
        for d, deal_plays in enumerate(log.plays, start=1):
            for c in deal_plays:
                ev = log.events[k]
                k += 1
                if d == deal_no:
                    plays.append({"seat": names[ev.seat], "card": str(ev.card),
                                  "effect": ev.effect})
        gone = Counter(c.rank for c in hs.gone())
        doc = {
            "status": st, "you": names[seat], "turn": self.turn_name(),
            "players": self.players, "seats": list(names), "sides": list(sides),
            "your_side": sides[my_side],
            "who": [{"seat": names[s], "name": n, "human": self.is_human(s),
                     "level": None if self.is_human(s) else int(self.setup.seats[s])}
                    for s, n in enumerate(self.setup.seat_names())],
            "rules": self.setup.rules, "target": self.rules.target,
            "win_check": self.rules.win_check, "voleur": self.rules.voleur,
            "hand": len(self.logs), "deal": deal_no, "deals": len(hs.sizes),
            "dealer": names[hs.dealer], "leader": names[hs.leader],
            "table": [str(c) for c in hs.table], "hands": hands,
            "prev": None if view.prev is None else str(view.prev), "show": show,
            "piles": dict(zip(sides, (len(p) for p in hs.piles))),
            "tops": (dict(zip(sides, (str(p[-1]) if p else None for p in hs.piles)))
                     if self.rules.voleur else None),
            "score": dict(zip(sides, self.hs.score)),
            "points": dict(zip(sides, hs.points)),
            "declared": declared,
            "declared_points": dict(zip(sides, log.declared[-1])) if log.declared else None,
            "plays": plays,
            "gone": {str(r): gone.get(r, 0) for r in RANKS},
            "stock": len(hs.stock or []),
            "hints": len(self.hints), "index": self.index,
            "hands_done": self.hands_done(),
            "results": self.results(),
            "winner": None if self.winner is None else sides[self.winner],
            "last_capture": None if hs.last_seat is None else names[hs.last_seat],
        }
        return doc

    def _answer_points(self, size: int) -> int:
        hit = self.rules.hit + (0, 0)
        return hit[1] if size == 2 else hit[2]

    def _declarations(self):
        """``(seat, Declaration)`` of the current deal, as announced."""
        return [(d.seat, d) for d in self.hs.declared]

    def hands_done(self) -> int:
        """Hands finished (the ones a review may show)."""
        return sum(1 for lg in self.logs if lg.state is not None and lg.state.finished)

    def results(self) -> list[dict]:
        """Each finished hand: ``hand``, ``points`` and ``score`` per
        side, the points by kind (``detail``)."""
        out = []
        for h, lg in enumerate(self.logs, start=1):
            hs = lg.state
            if hs is None or not hs.finished:
                continue
            out.append({"hand": h, "points": dict(zip(self.sides, hs.points)),
                        "score": dict(zip(self.sides, hs.score)),
                        "detail": {self.sides[s]: dict(hs.detail[s])
                                   for s in range(len(self.sides))}})
        return out

    # --- the record -----------------------------------------------------------

    def record(self, full: bool = True) -> GameRecord:
        """The game as a record (docs/records.md). ``full``: everything,
        the hand in play and the ``Seed`` included (the server's copy).
        Not ``full`` (what a browser may have): while the game is on, the
        finished hands only and no ``Seed`` (the seed would give away the
        cards still hidden); at the end, everything."""
        over = self.status() == "over"
        if not full and not over:
            logs = [lg for lg in self.logs if lg.state is not None and lg.state.finished]
        else:
            logs = self.logs
        base = PRESETS[self.rules.name]
        over_rules = {k: v for k, v in self.rules.overrides_from(base).items()
                      if k not in ("target", "players")}
        tags = {"Event": "ronda-solve serve: play", "Date": self.created,
                "Rules": " ".join([self.rules.name] + [f"{k}={v}" for k, v in over_rules.items()])}
        if self.players not in base.players:
            tags["Rules"] += f" players={self.players}"
        tags["Target"] = str(self.rules.target)
        for s, name in enumerate(self.setup.seat_names()):
            tags[self.names[s]] = name
        tags["Dealer"] = self.names[self.players - 1]
        if full or over:
            tags["Seed"] = self.seed
        if over and self.winner is not None:
            tags["Result"] = "-".join(map(str, self.score))
            tags["Winner"] = self.sides[self.winner]
        else:
            tags["Result"] = "*"
            tags["Winner"] = "*"
        g = GameRecord(tags=tags)
        index = 0
        for lg in self.logs:
            keep = lg in logs
            hs = lg.state
            hand = HandRecord(list(lg.table), dealer=lg.dealer)
            for hands, plays in zip(lg.deals, lg.plays):
                deal = DealRecord([], [list(h) for h in hands])
                for c in plays:
                    play = Play(c)
                    if index in self.hints:
                        play.comments.append(f"[%hint {self.hints[index]}]")
                    if index in self.notes:
                        play.comments.append(self.notes[index])
                    deal.plays.append(play)
                    index += 1
                hand.deals.append(deal)
            if hs is not None and hs.finished and hs.winner is not None and hs.stock:
                hand.undealt = list(hs.stock)
            if keep:
                g.hands.append(hand)
        return g

    def checked_record(self, full: bool = True) -> GameRecord:
        """:meth:`record`, replayed by the record reader (a check that
        what is stored is a game ``annotate`` reads)."""
        g = self.record(full)
        check(g)
        return g
