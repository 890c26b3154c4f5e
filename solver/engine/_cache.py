"""Keep numba's on-disk cache of the compiled core consistent.

numba checks only a cached function's own source file, not the functions it
calls in other modules: after an edit of ``engine/core.py`` the cached
kernels of ``search/kernels.py`` would still run the old engine, inlined.
So the cache is stamped with a hash of every compiled module's source; when
the stamp differs, the cache files of those modules are removed before any
kernel is loaded (they are compiled again on first use).

Loading is also kept safe from signals: llvmlite hands each cached object
to LLVM through a Python callback, which a signal's exception must not
cut in half (:func:`shield_loading`, run when this module is imported,
before any kernel is loaded).
"""

from __future__ import annotations

import hashlib
import os
import sys
import time
from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent.parent
#: the modules whose kernels call each other
COMPILED = ("engine/core.py", "engine/sampling.py", "engine/endgame.py", "engine/endgame3.py",
            "search/kernels.py",
            "search/kernels_vec.py", "search/parallel.py", "value/net.py",
            "search/deal_kernels.py", "value/train.py")


def _cache_dirs() -> list[Path]:
    base = os.environ.get("NUMBA_CACHE_DIR")
    dirs = []
    for module in COMPILED:
        src = _PACKAGE / module
        if base:
            # numba's user-provided locator mirrors the source path under it
            dirs.append(Path(base) / str(src.parent).lstrip(os.sep))
        dirs.append(src.parent / "__pycache__")
    return dirs


def check() -> bool:
    """Remove stale cache files when the compiled sources changed; returns
    whether it did. Never raises (a read-only install simply recompiles).
    Then, when the cache holds no search core, say so at once
    (:func:`announce_if_empty`): ``core`` calls this as it is imported,
    before any kernel is loaded or compiled."""
    removed = _clear_stale()
    announce_if_empty()
    return removed


def _clear_stale() -> bool:
    digest = hashlib.sha256()
    for module in COMPILED:
        try:
            digest.update((_PACKAGE / module).read_bytes())
        except OSError:
            return False
    stamp = digest.hexdigest()
    stamp_file = _PACKAGE / "search" / "__pycache__" / "core-sources.stamp"
    try:
        if stamp_file.read_text() == stamp:
            return False
    except OSError:
        pass
    stems = tuple(Path(m).stem + "." for m in COMPILED)
    for d in _cache_dirs():
        try:
            for f in d.iterdir():
                if f.name.startswith(stems) and f.suffix in (".nbi", ".nbc"):
                    f.unlink()
        except OSError:
            continue
    try:
        stamp_file.parent.mkdir(exist_ok=True)
        stamp_file.write_text(stamp)
    except OSError:
        pass
    return True


#: the notice of a first compile (an empty cache)
NOTICE = "compiling the search core (once; later runs load it from the cache)..."
#: when this process began compiling the core into an empty cache
#: (``time.perf_counter()``, the notice said then); None: not seen
compiling_since: float | None = None


def announce_if_empty(stream=None) -> None:
    """Say :data:`NOTICE` on ``stream`` (stderr by default) when numba's
    cache holds no search core, before the engine's modules are loaded:
    their kernels with a written signature compile as they are imported,
    minutes on a slow machine before
    :func:`solver.search.compiled.ensure_compiled` could say anything."""
    global compiling_since
    if compiling_since is not None or _core_cached():
        return
    print(NOTICE, file=stream if stream is not None else sys.stderr, flush=True)
    compiling_since = time.perf_counter()


def _core_cached() -> bool:
    """Whether the cache holds the search core's last kernel (read from the
    cache's folder, no kernel loaded); True when numba caches it where
    this cannot look (the package's folder not writable, no
    ``NUMBA_CACHE_DIR``): no notice rather than a wrong one."""
    base = os.environ.get("NUMBA_CACHE_DIR")
    src = _PACKAGE / "search"
    if base:
        folder = Path(base) / str(src).lstrip(os.sep)
    else:
        folder = src / "__pycache__"
        if not os.access(folder if folder.exists() else src, os.W_OK):
            return True
    try:
        return any(folder.glob("kernels.solve_samples-*.nbi"))
    except OSError:
        return True


def on_disk(kernel) -> bool:
    """Whether numba's on-disk cache holds compiled code of ``kernel`` (a
    dispatcher with ``cache=True``): whether its first call loads rather
    than compiles."""
    try:
        index = kernel._cache._cache_file._index_path
    except AttributeError:   # pragma: no cover - another numba layout
        return False
    return os.path.exists(index)


def shield_loading() -> None:
    """Run llvmlite's object-cache callbacks (``ExecutionEngine``'s
    ``_raw_object_cache_getbuffer`` and ``_raw_object_cache_notify``,
    which LLVM calls from native code while numba loads or compiles a
    kernel) with the signals' exceptions held off
    (:func:`solver.runtime.interrupt.shielded`). Once per process; another
    llvmlite without them is left as it is."""
    try:
        from llvmlite.binding.executionengine import ExecutionEngine
    except ImportError:     # pragma: no cover - numba always brings llvmlite
        return
    from ..runtime.interrupt import shielded
    for name in ("_raw_object_cache_getbuffer", "_raw_object_cache_notify"):
        hook = getattr(ExecutionEngine, name, None)
        if hook is not None and not getattr(hook, "shielded", False):
            setattr(ExecutionEngine, name, shielded(hook))


shield_loading()
