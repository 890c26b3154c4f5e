"""Standard streams that may be closed or full, and input of bounded size.

- :func:`stream_error`: an ``OSError`` that reached the top of a command
  (standard output on a full disk, a closed pipe, an unreadable file)
  becomes one line on stderr and exit status 2, never a traceback; what
  Python still holds for standard output is dropped, so nothing fails
  again at exit.
- :func:`stdin_closed`: whether there is a standard input to read ``-``
  from (``ronda-solve - <&-`` has none).
- :func:`bounded_lines`: the lines of a binary file, none longer than
  :data:`MAX_LINE` bytes (``/dev/zero`` is one line that never ends: it
  gets one error and the rest of the file is not read).
- :func:`read_bounded`: a whole file of at most :data:`MAX_FILE` bytes.

>>> import io
>>> list(bounded_lines(io.BytesIO(b"a\\nb"), 4))
[b'a\\n', b'b']
>>> out = list(bounded_lines(io.BytesIO(b"ok\\n" + b"x" * 10), 4))
>>> out[0], type(out[1]).__name__, str(out[1])
(b'ok\\n', 'LineTooLong', 'longer than 4 bytes (the rest of the file is not read)')
"""

from __future__ import annotations

import errno
import os
import sys

#: the longest input line read (bytes): a position or record line is short
MAX_LINE = 100_000
#: the largest input file read whole (bytes): records, puzzle sets
MAX_FILE = 64 << 20


class LineTooLong(ValueError):
    """A line longer than the limit; the file's reading stops there."""

    def __init__(self, limit: int) -> None:
        super().__init__(f"longer than {limit:,} bytes (the rest of the file is not read)")
        self.limit = limit


class FileTooLarge(ValueError):
    """A file larger than the limit (its message is one line)."""


def bounded_lines(f, limit: int = MAX_LINE):
    """Yield the lines of binary file ``f`` (with their ``\\n``); a line
    longer than ``limit`` bytes is yielded as a :class:`LineTooLong`
    instance and ends the reading (such a line may never end)."""
    while True:
        line = f.readline(limit + 1)
        if not line:
            return
        if len(line) > limit and not (len(line) == limit + 1 and line.endswith(b"\n")):
            yield LineTooLong(limit)
            return
        yield line


def read_bounded(f, name: str = "-", limit: int = MAX_FILE):
    """The whole content of file ``f`` (text or binary), at most ``limit``
    bytes (characters for a text file); raises :class:`FileTooLarge` past
    that."""
    data = f.read(limit + 1)
    if len(data) > limit:
        raise FileTooLarge(f"{name}: larger than {limit >> 20} MB; not read")
    return data


def not_utf8(e: UnicodeDecodeError) -> str:
    """What a file's bytes that are not UTF-8 are, in the words every
    command uses, a position's line as its notation error names it:
    ``line 2, line: not UTF-8 text (byte 0xe9 at column 7)``."""
    data = bytes(e.object)
    line = data[:e.start].count(b"\n") + 1
    start = data.rfind(b"\n", 0, e.start) + 1
    column = column_of(data[start:e.start], start == 0)
    text = f"line {line}, line: {bad_byte(data[e.start], column)}"
    return text + (UTF16 if is_utf16(data[:2]) else "")


def column_of(before: bytes, file_start: bool) -> int:
    r"""The column (from 1, in characters, as an editor counts them) of the
    byte after ``before``, the valid UTF-8 that starts its line; a
    byte-order mark that starts the file (the line is its first:
    ``file_start``) is no column.

    >>> column_of(b"caf\xc3\xa9 ", False), column_of(b"\xef\xbb\xbf[Event", True)
    (6, 7)
    """
    if file_start and before.startswith(b"\xef\xbb\xbf"):
        before = before[3:]
    return len(before.decode("utf-8", errors="replace")) + 1


def bad_byte(byte: int, column: int) -> str:
    """The words of a byte that is not UTF-8 at ``column`` (from 1) of its
    line.

    >>> bad_byte(0xe9, 7)
    'not UTF-8 text (byte 0xe9 at column 7)'
    """
    return f"not UTF-8 text (byte 0x{byte:02x} at column {column})"


#: what a UTF-16 file's error adds (Windows' Notepad writes it as "Unicode")
UTF16 = ": it is UTF-16 text; save it as UTF-8"


def is_utf16(start: bytes) -> bool:
    """Whether bytes starting a file are a UTF-16 byte-order mark."""
    return start[:2] in (b"\xff\xfe", b"\xfe\xff")


def stdin_closed() -> bool:
    """Whether the process has no standard input (file descriptor 0 is
    closed)."""
    if sys.stdin is None:       # Python found no file descriptor 0 at start
        return True
    try:
        fd = sys.stdin.fileno()
    except (OSError, ValueError, AttributeError):   # not a real file (a test's)
        return False
    try:
        os.fstat(fd)
    except OSError:
        return True
    return False


#: what each errno says when writing standard output fails
_WHY = {errno.ENOSPC: "No space left on device", errno.EPIPE: "the reader went away"}


def stream_error(e: OSError, code: int = 2) -> None:
    """Report ``e`` (an I/O error no command caught) in one line on stderr
    and exit with ``code``; standard output, which may be what failed, is
    pointed at the null device first so that Python's last flush cannot
    fail again."""
    what = e.filename if getattr(e, "filename", None) else "standard output"
    why = e.strerror or _WHY.get(e.errno or 0) or str(e)
    _drop_stdout()
    if e.errno == errno.EPIPE:
        sys.exit(code)
    try:
        print(f"error: cannot write {what}: {why}" if what == "standard output"
              else f"error: {what}: {why}", file=sys.stderr, flush=True)
    except (OSError, ValueError, AttributeError):
        pass
    sys.exit(code)


def _drop_stdout() -> None:
    """Point file descriptor 1 at the null device (what is still buffered
    for standard output is lost, as it could not be written)."""
    try:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, 1)
        os.close(null)
    except OSError:
        pass
