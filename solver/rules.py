"""The rule parameters and the four presets (RULES.md, "Presets").

One rules engine, parameters not forks: every difference between the seed
documents is a field of :class:`Rules`. A position may name a preset
(``rules=pagat``) and override any field (``target=21``, ``hit=1,5``).

>>> PRESETS["lmodire"].hit
(1, 5, 10)
>>> PRESETS["french"].with_overrides({"target": "21"}).target
21
>>> deal_sizes(PRESETS["french"], 4)
(4, 3, 2)
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass
from typing import Sequence


class RulesError(ValueError):
    """An unknown preset or parameter, or a parameter value that cannot be read."""


@dataclass(frozen=True)
class Rules:
    """The parameters of one reading of the rules.

    Units: every ``*_points``/value field is in game points; ``target`` in
    points; ``first_deal_4p`` in cards a player.

    Fields (source seed in brackets, see RULES.md):

    - ``name``: preset name the rules came from.
    - ``players``: player counts the preset knows (2, 3 or 4; 4 = S+N v E+W).
    - ``target``: match target (41 [002, 003], 51 [000]).
    - ``seven_ten_adjacent``: 7 and 10 are consecutive in runs (all but 000).
    - ``table_rule``: ``"distinct"`` opening table [002, 003] or ``"free"``.
    - ``ronda``: points of a Ronda (pair in hand), 0 = no declarations [001].
    - ``tringa``: points of a Tringa (three of a kind); 0 = a three of a kind
      counts as a Ronda of that rank [000].
    - ``declare_tie``: ``"nobody"`` [002, 000] or ``"split"`` (each tied side
      gets half, rounded up) [003] when opposing sides hold the same best hand.
    - ``declare_contested``: points for the best hand when the other side
      declared too (seed 000: the higher Ronda takes 2); 0 = the hand's own
      value.
    - ``hit``: points of a hit, the answer for 5 and the answer for 10;
      ``(1,)`` means hits and no answers [000].
    - ``missa``: points of a missa (clearing a non-empty table).
    - ``missa_on_last_card``: whether a missa counts on the very last card of
      the hand (no in 002, 003).
    - ``capture_point``: points for every capture [000: 1].
    - ``last_capture_bonus``: points for the last capturer at the end [000: 1].
    - ``win_check``: ``"immediate"`` [002, 003] or ``"end_of_hand"`` [000].
    - ``first_deal_4p``: cards a player on the first deal of a four-player
      hand (4 in 000, else 3); later deals give 3 while the stock allows and
      the last deal splits the rest evenly.
    - ``voleur``: the Ronda voleur variant [000]: the top card of each
      opponent pile counts as a table card (decisions V1-V7 in
      docs/rules.md); the two-sided engine takes 2 and 4 players.
    - ``decl_cumulative``: the best declaration also takes the value of every
      beaten declaration of the other sides (Tringa over Ronda: 5 + 1; a
      partner's hand adds nothing; ties follow ``declare_tie``; it overrides
      ``declare_contested``) (house rule, issue 11).
    - ``missa_last_round``: a missa counts in the last round of the hand (each
      player's last card, the final ``players`` plays); ``no`` is a house
      rule (issue 11). ``missa_on_last_card`` still governs the very last card.
    - ``deal_size``: cards a player a deal (3; 4 in the ``online`` house rule,
      issue 11).
    - ``table_cards``: cards laid face up at the start of a hand (4; 0 in the
      ``online`` house rule, issue 11). ``40 - table_cards`` cards are dealt.
    """

    name: str = "lmodire"
    players: tuple[int, ...] = (2,)
    target: int = 41
    seven_ten_adjacent: bool = True
    table_rule: str = "distinct"
    ronda: int = 1
    tringa: int = 5
    declare_tie: str = "nobody"
    declare_contested: int = 0
    hit: tuple[int, ...] = (1, 5, 10)
    missa: int = 1
    missa_on_last_card: bool = False
    capture_point: int = 0
    last_capture_bonus: int = 0
    win_check: str = "immediate"
    first_deal_4p: int = 3
    voleur: bool = False
    decl_cumulative: bool = False
    missa_last_round: bool = True
    deal_size: int = 3
    table_cards: int = 4

    def with_overrides(self, overrides: dict[str, str], check: bool = True) -> "Rules":
        """A copy with parameters replaced from their notation text
        (``{"target": "21", "hit": "1,5"}``).

        Raises RulesError naming the parameter for an unknown name or a value
        of the wrong shape, and (``check``) if the rules cannot be played.
        """
        changes: dict[str, object] = {}
        for key, text in overrides.items():
            if key not in _FIELD_TYPES or key == "name":
                raise RulesError(f"unknown rule parameter {key!r}")
            changes[key] = _parse_value(key, text)
        rules = dataclasses.replace(self, **changes)  # type: ignore[arg-type]
        if check:
            rules.validate()
        return rules

    def validate(self) -> None:
        """Raise RulesError if the parameters cannot be played."""
        if self.table_rule not in ("distinct", "free"):
            raise RulesError(f"table_rule must be distinct or free, not {self.table_rule!r}")
        if self.declare_tie not in ("nobody", "split"):
            raise RulesError(f"declare_tie must be nobody or split, not {self.declare_tie!r}")
        if self.win_check not in ("immediate", "end_of_hand"):
            raise RulesError(f"win_check must be immediate or end_of_hand, not {self.win_check!r}")
        if self.target < 1:
            raise RulesError(f"target must be at least 1 point, not {self.target}")
        if not 1 <= len(self.hit) <= 3 or any(h < 0 for h in self.hit):
            raise RulesError(f"hit takes 1 to 3 non-negative values, not {format_value(self.hit)}")
        for name in _POINTS:
            if getattr(self, name) < 0:
                raise RulesError(f"{name} is points won, 0 or more, not {getattr(self, name)}")
        if not self.players or any(p not in (2, 3, 4) for p in self.players):
            raise RulesError(f"players must be among 2, 3, 4, not {format_value(self.players)}")
        if self.first_deal_4p not in (3, 4):
            raise RulesError(f"first_deal_4p must be 3 or 4, not {self.first_deal_4p}")
        if self.deal_size not in (3, 4):
            raise RulesError(f"deal_size must be 3 or 4, not {self.deal_size}")
        if self.table_cards not in (0, 4):
            raise RulesError(f"table_cards must be 4 or 0, not {self.table_cards}")
        dealt = 40 - self.table_cards
        for p in self.players:
            if dealt % p:
                raise RulesError(
                    f"table_cards={self.table_cards} leaves {dealt} cards to deal, which "
                    f"{p} players cannot share evenly (set players= or table_cards=)")

    def system(self) -> str:
        """The rule system as a record's ``Rules`` tag writes it: the preset
        and the house rules set on it, the target left out (``french
        voleur=yes``)."""
        over = self.overrides_from(PRESETS[self.name]) if self.name in PRESETS else {}
        return " ".join([self.name] + [f"{k}={v}" for k, v in over.items() if k != "target"])

    def overrides_from(self, base: "Rules") -> dict[str, str]:
        """The parameters where this differs from ``base``, as notation text."""
        out = {}
        for f in dataclasses.fields(self):
            if f.name != "name" and getattr(self, f.name) != getattr(base, f.name):
                out[f.name] = format_value(getattr(self, f.name))
        return out


_FIELD_TYPES: dict[str, str] = {
    f.name: str(f.type) for f in dataclasses.fields(Rules)
}


def format_value(value: object) -> str:
    """Notation text of a parameter value (``(1, 5)`` -> ``"1,5"``, ``True`` -> ``"yes"``)."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, tuple):
        return ",".join(str(v) for v in value)
    return str(value)


def _parse_value(key: str, text: str) -> object:
    kind = _FIELD_TYPES[key]
    try:
        if kind == "bool":
            low = text.lower()
            if low in ("yes", "true", "1", "on"):
                return True
            if low in ("no", "false", "0", "off"):
                return False
            raise ValueError
        if kind == "int":
            return _small(key, text)
        if kind.startswith("tuple"):
            return tuple(_small(key, v) for v in text.split(","))
        return text
    except ValueError as err:
        shown = repr(text) if len(text) <= 24 else repr(text[:24]) + "..."
        limit = (f" (at most {MAX_RULE_VALUE})" if isinstance(err, _TooLarge)
                 else " (yes or no)" if kind == "bool" else "")
        raise RulesError(f"parameter {key} cannot be {shown}{limit}") from None


#: the largest rule value (points, a target): the compiled core works on
#: int64 half-points, and no rule page uses more than a few hundred
MAX_RULE_VALUE = 100_000


#: the parameters that are points a side wins (``hit`` is checked apart):
#: a negative value is no rule, and the words would print it as "+-1"
_POINTS = ("ronda", "tringa", "declare_contested", "missa", "capture_point",
           "last_capture_bonus")


def _small(key: str, text: str) -> int:
    # ASCII digits only, as score= and taken= read them: int() alone would
    # also take "1_0" (10) and other scripts' digits ("٣")
    if not re.fullmatch(r"\s*[+-]?[0-9]{1,6}\s*", text):
        raise ValueError
    v = int(text)
    if v > MAX_RULE_VALUE:
        raise _TooLarge
    if v < -MAX_RULE_VALUE:
        raise ValueError
    return v


class _TooLarge(ValueError):
    """A number past :data:`MAX_RULE_VALUE` (the message states the limit)."""


PRESETS: dict[str, Rules] = {
    # seed 002 (Lmodire, English): the default.
    "lmodire": Rules(),
    # seed 003 (Korean, after pagat.com): 2 or 4 players, tied declarations split.
    "pagat": Rules(name="pagat", players=(2, 4), declare_tie="split"),
    # seed 001 (Ronda MOD 1.15, Ukrainian): free table, no declarations,
    # missa on the last card counts.
    "mod": Rules(name="mod", table_rule="free", ronda=0, tringa=0,
                 missa_on_last_card=True),
    # seed 000 (French): 7 and 10 not adjacent, free table, Ronda only
    # (higher takes 2), hits without answers, capture point, last-capture
    # bonus, end-of-hand win at 51, 4 cards on the first four-player deal.
    "french": Rules(name="french", players=(2, 3, 4), target=51,
                    seven_ten_adjacent=False, table_rule="free", ronda=1,
                    tringa=0, declare_contested=2, hit=(1,),
                    missa_on_last_card=True, capture_point=1,
                    last_capture_bonus=1, win_check="end_of_hand",
                    first_deal_4p=4),
    # house rule of online rooms (issue 11; no seed): lmodire's scoring, no
    # table cards, 4 cards a deal (2 players: 5 deals of 4; 4 players: 4, 4,
    # then the last 8 cards 2 each).
    "online": Rules(name="online", players=(2, 4), deal_size=4, table_cards=0),
}

DEFAULT_PRESET = "lmodire"


def preset(name: str) -> Rules:
    """The preset called ``name``; raises RulesError for an unknown name."""
    try:
        return PRESETS[name]
    except KeyError:
        raise RulesError(
            f"unknown preset {name!r} (known: {', '.join(PRESETS)})") from None


def player_counts(players) -> str:
    """The player counts as a sentence lists them: "2", "2 or 4", "2, 3 or 4"
    (messages said "2, 4").

    >>> player_counts((2,)), player_counts((2, 4)), player_counts((2, 3, 4))
    ('2', '2 or 4', '2, 3 or 4')
    """
    counts = [str(p) for p in players]
    return counts[0] if len(counts) == 1 else ", ".join(counts[:-1]) + " or " + counts[-1]


def check_players(rules: Rules, players: int, source: str | None = None,
                  give: str = "give {} players") -> None:
    """Raise RulesError unless ``rules`` has a game for ``players`` players:
    the one line the commands, the composer and the web board all give.
    ``source``: where a ``players=`` override came from (``"--set"``), when
    one was given: the line then names it, not the preset, and ``give``
    (a format of the counts allowed) says how to give the right count.

    >>> check_players(PRESETS["lmodire"], 3)
    Traceback (most recent call last):
    ...
    solver.rules.RulesError: rules: lmodire is for 2 players, not 3 (presets for 3 players: french)
    >>> check_players(PRESETS["french"].with_overrides({"players": "3"}), 2, "--set")
    Traceback (most recent call last):
    ...
    solver.rules.RulesError: players=3 (from --set) does not allow 2 players: give 3 players or drop players=
    >>> check_players(PRESETS["french"].with_overrides({"players": "2,3,4"}), 5, "--set")
    Traceback (most recent call last):
    ...
    solver.rules.RulesError: players=2,3,4 (from --set) does not allow 5 players: give 2, 3 or 4 players or drop players=
    """
    if players in rules.players:
        return
    allowed = player_counts(rules.players)
    if source is not None:
        counts = player_counts(rules.players)
        raise RulesError(f"players={','.join(str(p) for p in rules.players)} (from {source}) "
                         f"does not allow {players} players: {give.format(counts)} "
                         f"or drop players=")
    has = [name for name, r in PRESETS.items() if players in r.players]
    hint = f" (presets for {players} players: {', '.join(has)})" if has else ""
    raise RulesError(f"rules: {rules.name} is for {allowed} players, not {players}{hint}")


def deal_sizes(rules: Rules, players: int) -> tuple[int, ...]:
    """Cards each player receives on each deal of a hand, in order.

    ``40 - table_cards`` cards are dealt (36 with the usual 4 on the table),
    ``deal_size`` a player a deal (3; 4 in the ``online`` house rule, issue
    11), except that with ``first_deal_4p = 4`` (seed 000) four players get
    4 on the first deal; then ``deal_size`` while the stock allows, then the
    rest evenly. Raises RulesError when the rest cannot be shared evenly
    (three players with no table cards).

    >>> deal_sizes(PRESETS["lmodire"], 2)
    (3, 3, 3, 3, 3, 3)
    >>> deal_sizes(PRESETS["french"], 3)
    (3, 3, 3, 3)
    >>> deal_sizes(PRESETS["online"], 2), deal_sizes(PRESETS["online"], 4)
    ((4, 4, 4, 4, 4), (4, 4, 2))
    """
    left = 40 - rules.table_cards
    if left % players:
        raise RulesError(f"{left} cards cannot be dealt evenly to {players} players")
    size = rules.deal_size
    sizes: list[int] = []
    if players == 4 and rules.first_deal_4p == 4:
        sizes.append(4)
        left -= 16
    while left >= size * players:
        sizes.append(size)
        left -= size * players
    if left:
        sizes.append(left // players)
    return tuple(sizes)


def stock_sizes(rules: Rules, players: int) -> dict[int, int]:
    """Valid stock sizes (cards) mapped to the index of the deal that stock
    will give next (``len(deal_sizes)`` when the stock is empty)."""
    sizes = deal_sizes(rules, players)
    out = {}
    for k in range(len(sizes) + 1):
        out[sum(sizes[k:]) * players] = k
    return out


def dealt_this_deal(rules: Rules, players: int, stock: int) -> int:
    """Cards each player was dealt on the deal in play, the stock holding
    ``stock`` cards (a size :func:`stock_sizes` lists; another counts as
    the last deal's).

    >>> dealt_this_deal(PRESETS["lmodire"], 2, 30), dealt_this_deal(PRESETS["lmodire"], 2, 0)
    (3, 3)
    >>> [dealt_this_deal(PRESETS["online"], 4, n) for n in (24, 8, 0)]
    [4, 4, 2]
    """
    sizes = deal_sizes(rules, players)
    return sizes[stock_sizes(rules, players).get(stock, len(sizes)) - 1]


def target_winner(score: Sequence[int], target: int) -> int | None:
    """The side that has won on ``score``: of the sides at ``target`` or
    over, the one with the most points (two tied, as a split declaration
    can leave them: nobody yet), else None."""
    reached = [s for s, n in enumerate(score) if n >= target]
    if not reached:
        return None
    top = max(score[s] for s in reached)
    best = [s for s in reached if score[s] == top]
    return best[0] if len(best) == 1 else None
