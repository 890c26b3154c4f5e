"""Run a Python script so that ``perf`` names the compiled search's functions.

numba's code lives in memory that ``perf`` sees as ``[JIT]`` without names.
This runner keeps the object code of every compiled library as numba loads
it (from its cache or a fresh compile), runs the script, and at the end
writes ``/tmp/perf-PID.map``: each function symbol of each object (``nm``)
at its loaded address (the object's base from one of its global symbols,
``get_function_address``). ``perf report`` reads the map by itself.

Run::

    perf record -F 4000 -o /tmp/perf.data python bench/perf_map.py SCRIPT [ARGS...]
    perf report -i /tmp/perf.data --no-children --sort sym -n

Figures taken with it are in docs/performance.md ("Where match12's time goes,
by function").
"""
from __future__ import annotations

import os
import runpy
import subprocess
import sys
import tempfile

from numba.core import codegen

_KEPT: list[tuple[object, bytes]] = []
_HOOK = codegen.CPUCodeLibrary._object_getbuffer_hook.__func__


def _keep(cls, ll_module):
    """numba's hook that hands an object to the JIT, keeping a copy."""
    buf = _HOOK(cls, ll_module)
    if buf:
        _KEPT.append((getattr(ll_module, "_CPUCodeLibrary__library", None), bytes(buf)))
    return buf


def _symbols(obj: bytes) -> list[tuple[int, int, str, str]]:
    """``(offset, size, name, kind)`` of the object's function symbols."""
    with tempfile.NamedTemporaryFile(suffix=".o") as f:
        f.write(obj)
        f.flush()
        out = subprocess.run(["nm", "-S", "--defined-only", f.name], capture_output=True,
                             text=True, check=False).stdout
    syms = []
    for line in out.splitlines():
        p = line.split()
        if len(p) == 4 and p[2] in "tTwW":
            syms.append((int(p[0], 16), int(p[1], 16), p[3], p[2]))
    return syms


def write_map(path: str) -> int:
    """Write the kept objects' functions to the perf map ``path``; the
    number of entries."""
    lines = []
    for lib, obj in _KEPT:
        if lib is None:
            continue
        syms = _symbols(obj)
        base = None
        for off, _size, name, kind in syms:
            # a global symbol is this object's own (a weak one may resolve
            # to another library's copy)
            if kind == "T":
                addr = lib._codegen._engine.get_function_address(name)
                if addr:
                    base = addr - off
                    break
        if base is None:
            continue
        lines += [f"{base + off:x} {size:x} {name}" for off, size, name, _k in syms]
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
    return len(lines)


def main() -> None:
    if len(sys.argv) < 2:
        sys.exit("usage: python bench/perf_map.py SCRIPT [ARGS...]")
    codegen.CPUCodeLibrary._object_getbuffer_hook = classmethod(_keep)
    script = sys.argv[1]
    sys.argv = sys.argv[1:]
    try:
        runpy.run_path(script, run_name="__main__")
    finally:
        n = write_map(f"/tmp/perf-{os.getpid()}.map")
        print(f"perf_map: {n} functions of {len(_KEPT)} objects named", file=sys.stderr)


if __name__ == "__main__":
    main()
