"""Regenerate the counts the documentation quotes, and write them in.

The figures: how many puzzles ship (README), the test-suite tally of the
shipped puzzle files (docs/puzzles.md) and of ``positions/suite.txt``
(README). Each is computed here (the tallies by evaluating every line as
``ronda-solve`` does) and replaced in place; the script prints what it
found and what it changed. ``--check`` changes nothing and exits 1 when
a document quotes another figure (tests/test_docs.py checks the counts
that need no search).

Run: ``python bench/doc_figures.py [--check]``
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def shipped_puzzles() -> int:
    """Lines with a ``bm`` in positions/puzzles/*.txt."""
    from solver.notation import NotationError, parse_file
    n = 0
    for f in sorted((ROOT / "positions/puzzles").glob("*.txt")):
        for _line, item in parse_file(f.read_text(encoding="utf-8")):
            if not isinstance(item, NotationError) and item.opcode("bm"):
                n += 1
    return n


def tally(paths: list[Path]) -> tuple[int, int]:
    """``(agree, disagree)`` of the test-suite opcodes of ``paths``, each
    line evaluated as the command does by default (points)."""
    from solver.analysis.evaluation import evaluate
    from solver.analysis.suite import verdicts
    from solver.notation import NotationError, parse_file
    agree = disagree = 0
    for f in paths:
        for _line, item in parse_file(f.read_text(encoding="utf-8")):
            if isinstance(item, NotationError):
                continue
            for _op, ok, _text in verdicts(evaluate(item, seed=0)):
                agree += ok
                disagree += not ok
    return agree, disagree


#: (file, pattern with one group for each figure, the figures' function)
def figures() -> list[tuple[str, str, tuple]]:
    puzzles = sorted((ROOT / "positions/puzzles").glob("*.txt"))
    p_agree, p_dis = tally(puzzles)
    s_agree, s_dis = tally([ROOT / "positions/suite.txt"])
    return [
        ("README.md", r"# (\d+) shipped puzzles, exact", (shipped_puzzles(),)),
        ("docs/puzzles.md", r"test suite:\n(\d+) agree, (\d+) disagree", (p_agree, p_dis)),
        ("README.md", r"tally \(`test suite: (\d+) agree, (\d+)\ndisagree`\)", (s_agree, s_dis)),
    ]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="change nothing; exit 1 on a stale figure")
    args = ap.parse_args()
    stale = 0
    for name, pattern, values in figures():
        path = ROOT / name
        text = path.read_text(encoding="utf-8")
        m = re.search(pattern, text)
        if m is None:
            print(f"{name}: pattern {pattern!r} not found")
            stale += 1
            continue
        old = tuple(int(g) for g in m.groups())
        print(f"{name}: {pattern!r}: {old} -> {values}")
        if old == tuple(values):
            continue
        stale += 1
        if not args.check:
            new = m.group(0)
            for o, v in zip(old, values):
                new = new.replace(str(o), str(v), 1)
            path.write_text(text[:m.start()] + new + text[m.end():], encoding="utf-8")
    return 1 if (stale and args.check) else 0


if __name__ == "__main__":
    sys.exit(main())
