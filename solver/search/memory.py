"""Zeroed arrays for the search's tables, on the pages that suit their size.

numpy asks Linux for transparent huge pages (2 MB) for every large array.
For a table of a few tens of megabytes that pays (fewer TLB misses: 12
unseen cards with two threads took 1.2-1.4 s for the bench's ten positions
against 2.1-2.2 s on small pages). For the gigabyte tables of an 18-unseen
expectimax it does not: on a virtual machine that hands its free memory
back to the host (free page reporting, which reports free blocks of 2 MB
and more), each fresh huge page costs about 10 ms to fault in, and a table
growing to 2 GB stalled the search 13-16 s of system time while every
thread waited (docs/performance.md). :func:`zeroed` gives an array of
``SMALL_PAGES_BYTES`` or more small pages; smaller ones keep numpy's choice.
Pages are committed as they are written, as with ``np.zeros``.

>>> a = zeroed((1 << 24, 4), np.uint64)
>>> a.shape, int(a[12345].sum()), huge_pages(a), huge_pages(zeroed((4, 2), np.int64))
((16777216, 4), 0, False, True)
"""

from __future__ import annotations

import mmap

import numpy as np

#: arrays of this many bytes or more are placed on small pages
SMALL_PAGES_BYTES = 128 << 20


class SearchMemoryError(ValueError):
    """The system would not give a table the memory the budget allows
    (``--memory`` over what the machine can map): one line for the user,
    as any other error of a position, naming its field (``memory``)."""

    field = "memory"

    def __init__(self, problem: str) -> None:
        super().__init__(problem)
        self.problem = problem

    def __str__(self) -> str:
        return f"{self.field}: {self.problem}"


def zeroed(shape: tuple[int, ...], dtype) -> np.ndarray:
    """``np.zeros(shape, dtype)``, on small pages from ``SMALL_PAGES_BYTES``
    on (where the system lets us say so: Linux). Raises SearchMemoryError
    when the system refuses the memory."""
    dtype = np.dtype(dtype)
    nbytes = int(np.prod(shape)) * dtype.itemsize
    try:
        if nbytes < SMALL_PAGES_BYTES or not hasattr(mmap, "MADV_NOHUGEPAGE"):
            return np.zeros(shape, dtype)
        mm = mmap.mmap(-1, nbytes, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
    except (OSError, MemoryError) as e:
        why = getattr(e, "strerror", None) or "out of memory"
        raise SearchMemoryError(f"the system refused the {nbytes / 2 ** 20:,.0f} MB "
                                f"of a search table ({why.lower()}): lower --memory") from None
    mm.madvise(mmap.MADV_NOHUGEPAGE)
    return np.frombuffer(mm, dtype=dtype).reshape(shape)


def own_lines(shape: tuple[int, ...], dtype) -> np.ndarray:
    """``np.zeros(shape, dtype)`` alone on its cache lines: it starts on a
    64-byte boundary and 128 bytes of padding follow it, so that an array
    one thread writes at every node (its counters, its vectors) never
    shares a line with another thread's (false sharing)."""
    dtype = np.dtype(dtype)
    nbytes = int(np.prod(shape)) * dtype.itemsize
    raw = np.zeros(nbytes + 256, np.uint8)
    start = -raw.ctypes.data % 64
    return raw[start:start + nbytes].view(dtype).reshape(shape)


def huge_pages(a: np.ndarray) -> bool:
    """Whether ``a`` was left to numpy's choice of pages (huge pages where
    Linux gives them), as opposed to placed on small pages by :func:`zeroed`."""
    base = a
    while isinstance(base, np.ndarray) and base.base is not None:
        base = base.base
    if isinstance(base, memoryview):
        base = base.obj
    return not isinstance(base, mmap.mmap)
