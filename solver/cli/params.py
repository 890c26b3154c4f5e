"""Click parameter types shared by the commands."""

from __future__ import annotations

import math

import click

from ..runtime.streams import stdin_closed


def _not_plain(value) -> str | None:
    """Why the text ``value`` is no number as the command line writes one,
    or None: Python's ``int`` and ``float`` also read other scripts' digits
    (``'١'``, Arabic-Indic 1, was 1) and ``_`` between digits (``'1_0'``
    was 10), which the rule fields (``target=``) and ``score=`` refuse."""
    if not isinstance(value, str):
        return None
    if not value.isascii():
        return "digits are ASCII 0-9"
    if "_" in value:
        return "no '_' between digits"
    return None


class _Whole:
    def convert(self, value, param, ctx):
        """The int, or a usage error naming the option."""
        if not isinstance(value, int):
            why = _not_plain(value)
            try:
                int(value)
            except (TypeError, ValueError):
                why = why or ""
            if why is not None:
                self.fail(f"{value!r} is not a whole number" + (f" ({why})" if why else ""),
                          param, ctx)   # type: ignore
        return super().convert(value, param, ctx)   # type: ignore[misc]


class Whole(_Whole, click.IntRange):
    """A whole number in a range: a text that is not one is refused in
    words (``'abc' is not a whole number``; click said ``is not a valid
    integer range``)."""


class Integer(_Whole, click.types.IntParamType):
    """Any whole number (``--seed``), refused in the same words."""


#: any whole number
INTEGER = Integer()

#: the most threads or processes an option may ask for: more only wait for
#: the cores, and each holds its own tables (100,000 search threads took
#: 7 GB and 10 s to start, so --time and the seed's answer were not kept)
MOST_WORKERS = 256

#: ``--workers``, ``--jobs``, ``--cluster``: 1 to :data:`MOST_WORKERS`
WORKERS = Whole(1, MOST_WORKERS)


class Number(click.FloatRange):
    """A number in a range, ``unit`` what it counts: a text that is not a
    number is refused in words (``'abc' is not a number of seconds``;
    click said ``is not a valid positive number``)."""

    def __init__(self, *args, unit: str = "", **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.unit = unit

    def convert(self, value, param, ctx):
        """The float, or a usage error naming the option."""
        if not isinstance(value, (int, float)):
            why = _not_plain(value)
            try:
                float(value)
            except (TypeError, ValueError):
                why = why or ""
            if why is not None:
                self.fail(f"{value!r} is not a number" + (f" of {self.unit}" if self.unit
                                                          else "")
                          + (f" ({why})" if why else ""), param, ctx)
        v = super().convert(value, param, ctx)
        if not math.isfinite(v):
            # nan passes every range check (each comparison is false)
            self.fail(f"{value!r} is not a finite number", param, ctx)
        return v


class Positive(Number):
    """A positive, finite number (``nan`` and ``inf`` are refused)."""

    name = "positive number"


#: a number of seconds (``--time``)
POSITIVE = Positive(0, min_open=True, unit="seconds")

#: the largest ``--memory`` (MB) taken: 2**40 MB, 2**60 bytes, which every
#: table size computed from it still counts in 64 bits (a larger budget,
#: 1e20 or 1e308, overflowed them: a traceback, not an answer)
MAX_MEMORY_MB = 1 << 40


class Megabytes(Positive):
    """A memory budget in MB: positive, finite and at most
    :data:`MAX_MEMORY_MB` (the system refuses far less anyway, which the
    search then says in one line)."""

    name = "megabytes"

    def convert(self, value, param, ctx):
        """The float, or a usage error naming the option."""
        v = super().convert(value, param, ctx)
        if v > MAX_MEMORY_MB:
            self.fail(f"{value!r} MB is more than a search table can address "
                      f"(at most {MAX_MEMORY_MB:,} MB)", param, ctx)
        return v


MEGABYTES = Megabytes(0, min_open=True, unit="megabytes")


class InputFile(click.File):
    """``click.File`` for reading, whose ``-`` (standard input) is refused
    with a usage error when the process has no standard input
    (``ronda-solve - <&-``), instead of click's traceback."""

    def convert(self, value, param, ctx):
        """The open file, or a usage error naming the argument."""
        if value == "-" and stdin_closed():
            self.fail("standard input is closed (nothing to read from '-')", param, ctx)
        return super().convert(value, param, ctx)


def settings_of(items: tuple[str, ...]) -> dict[str, str]:
    """The ``--set NAME=VALUE`` options as a dict (applied together, as a
    position line's parameters: their order does not matter); ValueError
    for an item without ``=`` or a name given twice."""
    over: dict[str, str] = {}
    for item in items:
        key, eq, value = item.partition("=")
        key = key.strip()
        if not eq:
            raise ValueError(f"--set: {item!r} is not NAME=VALUE")
        if key in over:
            raise ValueError(f"--set {key} is given twice")
        over[key] = value.strip()
    return over


def one_target(over: dict[str, str], target: int | None) -> None:
    """ValueError when ``--set target=`` and ``--target`` give two targets
    (the same one twice is no conflict)."""
    if target is not None and "target" in over and over["target"].strip() != str(target):
        raise ValueError(f"--set target={over['target']} and --target {target} disagree: "
                         "give the target once")


#: what a file without a position line gets (the line is ``NAME: ...``)
NO_POSITION = "no position in the file (it is empty or holds only comments and blank lines)"


class InputError(click.ClickException):
    """A file that cannot be read: ``error: NAME: why`` on stderr, exit 1."""

    exit_code = 1

    def show(self, file=None) -> None:
        """One line on stderr."""
        click.echo(f"error: {self.format_message()}", err=True)


def input_name(f) -> str:
    """How messages name an input file: its path, ``-`` for standard input
    (as it is given on the command line) in every command."""
    name = getattr(f, "name", "-")
    return "-" if name == "<stdin>" else name


def read_input(f) -> str:
    """The whole text of an input file opened by :class:`InputFile` (at
    most :data:`~solver.runtime.streams.MAX_FILE` bytes of UTF-8); raises
    :class:`InputError` naming the file otherwise."""
    from ..runtime.streams import FileTooLarge, not_utf8, read_bounded
    name = input_name(f)
    try:
        data = read_bounded(f, name)
    except FileTooLarge as e:
        raise InputError(str(e)) from None
    except UnicodeDecodeError as e:
        raise InputError(f"{name}: {not_utf8(e)}") from None
    except OSError as e:
        raise InputError(f"{name}: {e.strerror or e}") from None
    return data.decode("utf-8") if isinstance(data, bytes) else data
