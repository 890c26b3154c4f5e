"""Output files written whole or not at all.

Every command that writes a file (``-o``) goes through here:

- :func:`check_output` before the work starts: the file must not exist
  (unless ``force``) and its folder must exist and be writable, so a long
  run does not fail at its end for a reason known at its start;
- :func:`write_output` at the end: the text goes to a temporary file in
  the same folder, is flushed to disk, and is then renamed into place.
  Without ``force`` the rename refuses an existing file atomically (a hard
  link, which fails if the name exists), so a file created during the run
  is never overwritten. With ``force`` the old file is replaced in one
  step. On any failure (a missing or read-only folder, a full disk, an
  interruption) the temporary file is removed and the old file is left as
  it was.

Errors are :class:`OutputError`, whose message is one line
(``cannot write out.txt: No space left on device``).

>>> import os, tempfile
>>> d = tempfile.mkdtemp()
>>> path = os.path.join(d, "out.txt")
>>> write_output(path, "one\\n")
>>> check_output(path)  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
solver.runtime.output.OutputError: ...out.txt exists; use --force to overwrite it
>>> write_output(path, "two\\n", force=True); open(path).read()
'two\\n'
"""

from __future__ import annotations

import errno
import os
import stat
import tempfile


class OutputError(Exception):
    """An output file that cannot be written; the message is one line.
    ``kept``: the temporary file holding the text when it was kept (the
    target was created by someone else during the run), else None."""

    def __init__(self, message: str, kept: str | None = None) -> None:
        super().__init__(message)
        self.kept = kept


def is_stdout(path: str | None) -> bool:
    """Whether ``path`` means standard output (None or ``-``)."""
    return path is None or path == "-"


def check_output(path: str, force: bool = False) -> None:
    """Refuse, before any work, an output ``path`` that exists (without
    ``force``), that is a folder, or whose folder is missing, not a folder
    or not writable, or an empty name. Raises OutputError."""
    if path == "":
        raise OutputError("an empty file name: give a path, or - for standard output")
    folder = _folder(path)
    if os.path.isdir(path):
        raise OutputError(f"cannot write {path}: it is a folder")
    if os.path.lexists(path) and not force:
        raise OutputError(f"{path} exists; use --force to overwrite it")
    if not os.path.exists(folder):
        raise OutputError(f"cannot write {path}: no folder {folder}")
    if not os.path.isdir(folder):
        raise OutputError(f"cannot write {path}: {folder} is not a folder")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise OutputError(f"cannot write {path}: folder {folder} is not writable")


def write_output(path: str, text: str, force: bool = False) -> None:
    """Write ``text`` (UTF-8) to ``path`` whole or not at all (see the
    module docstring). Raises OutputError; the old file, if any, is then
    unchanged."""
    folder = _folder(path)
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{os.path.basename(path)}.", suffix=".tmp",
                                   dir=folder)
    except OSError as err:
        raise OutputError(_reason(path, err)) from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, _mode(path))
        if force:
            os.replace(tmp, path)
        else:
            _link_new(tmp, path)
    except FileExistsError:
        raise OutputError(f"{path} exists (it was created during the run); "
                          f"the output is kept in {tmp}", kept=tmp) from None
    except OSError as err:
        _remove(tmp)
        raise OutputError(_reason(path, err)) from None
    except BaseException:
        _remove(tmp)
        raise


def _link_new(tmp: str, path: str) -> None:
    """Give ``tmp`` the name ``path`` unless ``path`` exists (FileExistsError),
    atomically; ``tmp`` is gone afterwards."""
    try:
        os.link(tmp, path)
    except OSError as err:
        if err.errno not in (errno.EPERM, errno.ENOTSUP, errno.EOPNOTSUPP, errno.EMLINK,
                             errno.EXDEV, errno.ENOSYS):
            raise
        # no hard links on this file system: claim the name, then replace it
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666))
        os.replace(tmp, path)
        return
    os.unlink(tmp)


def _folder(path: str) -> str:
    return os.path.dirname(os.path.abspath(path))


def _mode(path: str) -> int:
    """The permissions of the file replaced, or the umask's for a new one."""
    try:
        return stat.S_IMODE(os.stat(path).st_mode)
    except OSError:
        mask = os.umask(0)
        os.umask(mask)
        return 0o666 & ~mask


def _reason(path: str, err: OSError) -> str:
    return f"cannot write {path}: {err.strerror or err}"


def _remove(tmp: str) -> None:
    try:
        os.unlink(tmp)
    except OSError:
        pass
