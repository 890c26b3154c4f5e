"""Game collections from the command line: files, directories (every
``*.txt`` under them, sorted) and globs, each file holding one or more
game records (docs/records.md)."""

from __future__ import annotations

import glob
import hashlib
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

from ..games.record import GameRecord, RecordError, dumps, parse_games
from ..runtime.streams import not_utf8


@dataclass
class Item:
    """One game of the collection: its ``source`` file, its ``number`` in
    that file (from 1), the ``game`` (None when it could not be read),
    ``error`` (one line, or None), ``digest`` (SHA-1 of its canonical
    record text); ``no_game`` marks the item of a file that holds no game
    (empty, or only comments): it stands for the file, not for a game."""

    source: str
    number: int
    game: GameRecord | None
    error: str | None = None
    digest: str = ""
    no_game: bool = False


class InputError(Exception):
    """A path or glob that names no file (one line)."""


def files_of(paths: tuple[str, ...]) -> list[Path]:
    """The files ``paths`` name, in order, each once: a file as it is, a
    directory's ``*.txt`` files (recursively, sorted), a glob's matches
    (sorted). Raises InputError for one that names nothing."""
    out: list[Path] = []
    for text in paths:
        p = Path(text)
        if text == "-" and not p.exists():
            # the workers read the collection's files themselves (and
            # --resume knows a game by its file): no standard input
            raise InputError("-: batch reads files, not standard input: save the games "
                             "to a file (or use `ronda-solve annotate -` for one record)")
        if p.is_dir():
            found = sorted(x for x in p.rglob("*.txt") if x.is_file())
        elif p.is_file():
            found = [p]
        elif any(ch in text for ch in "*?["):
            found = sorted(Path(x) for x in glob.glob(text, recursive=True)
                           if Path(x).is_file())
        else:
            raise InputError(f"{text}: no such file or directory")
        if not found:
            raise InputError(f"{text}: names no game file")
        for f in found:
            if f not in out:
                out.append(f)
    return out


def games_of(files: list[Path]) -> Iterator[Item]:
    """Every game of ``files``, readable or not (a file that is not UTF-8,
    or holds no game, is one unreadable item)."""
    for f in files:
        try:
            text = f.read_text(encoding="utf-8-sig")
        except UnicodeDecodeError as e:     # as the other commands say it
            yield Item(str(f), 1, None, f"{f}: {not_utf8(e)}")
            continue
        except OSError as e:
            yield Item(str(f), 1, None, f"{f}: cannot be read ({e.strerror or e})")
            continue
        games = parse_games(text)
        if not games:           # as annotate says it
            yield Item(str(f), 1, None, f"{f}: no game in the file", no_game=True)
        for n, g in enumerate(games, start=1):
            if isinstance(g, RecordError):
                yield Item(str(f), n, None, f"{f}: game {n}: {g}")
            elif not g.hands:
                yield Item(str(f), n, None, f"{f}: game {n} has tags but no hand")
            else:
                digest = hashlib.sha1(dumps(g).encode()).hexdigest()
                yield Item(str(f), n, g, None, digest)
