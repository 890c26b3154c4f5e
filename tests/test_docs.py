"""The documentation stands alone (issue 19): it names nothing outside the
repository (no path on another machine, no file that does not ship, no
issue tracker or source numbering the reader cannot see), the figures it
quotes are the ones bench/doc_figures.py computes, and it says how to get
chromium and how long the tests take."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]

#: what a reader of the repository alone could not follow
OUTSIDE = [
    (r"/work/|/home/|[A-Z]:\\\\", "a path on another machine"),
    (r"\b(RULES|NOTATION|STYLE|READING)\.md\b", "a specification that does not ship"),
    (r"\bissues? ?#?\d+\b|\bissue-\d+", "an issue the reader cannot see"),
    (r"\bseeds? \(?0\d\d\b|\((?:seed )?00\d\)", "a source numbering the reader cannot see"),
    (r"mined-pagat4\.txt", "a file that does not ship"),
]


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_the_documentation_names_nothing_outside_the_repository(page):
    text = page.read_text(encoding="utf-8")
    for pattern, what in OUTSIDE:
        m = re.search(pattern, text)
        assert m is None, f"{page.name}: {m.group(0)!r}: {what}"


POSITION_FILES = sorted((ROOT / "positions").rglob("*.txt"))


@pytest.mark.parametrize("path", POSITION_FILES, ids=lambda p: p.name)
def test_the_position_files_comments_cite_only_what_ships(path):
    """A ``#`` comment of a shipped position or record file cites no
    specification or folder the repository does not ship (seeds.txt once
    cited ``RULES.md, shared/seeds``), and the docs pages it names exist."""
    comments = [line for line in path.read_text(encoding="utf-8").splitlines()
                if line.lstrip().startswith("#")]
    for line in comments:
        for pattern, what in OUTSIDE[:2] + [(r"\bshared/", "a folder that does not ship")]:
            m = re.search(pattern, line)
            assert m is None, f"{path.name}: {m.group(0)!r}: {what}"
        for page in re.findall(r"\bdocs/[\w-]+\.md\b", line):
            assert (ROOT / page).exists(), f"{path.name}: {page} does not exist"


def test_the_arena_synopsis_gives_every_player_count_and_option():
    """docs/games.md's synopsis of arena: the --players it takes (2, 3 and
    4) and every option the command has."""
    from solver.cli.games import arena_command
    text = (ROOT / "docs" / "games.md").read_text(encoding="utf-8")
    synopsis = " ".join(re.search(r"^ronda-solve arena A B [^`]*", text, re.M).group(0).split())
    players = next(p for p in arena_command.params if p.name == "players")
    assert re.search(r"--players ([0-9|]+)", synopsis).group(1) == "|".join(players.type.choices)
    for param in arena_command.params:
        if param.opts[0].startswith("--"):
            assert param.opts[0] in synopsis, f"{param.opts[0]} is not in {synopsis!r}"


def test_every_file_the_documentation_names_ships():
    """Paths written in backquotes (`positions/...`, `bench/...`,
    `tests/...`, `solver/...`) exist."""
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        for path in re.findall(r"`((?:positions|bench|tests|solver|docs)/[\w./-]+)`", text):
            if "*" in path:
                continue
            assert (ROOT / path).exists(), f"{page.name}: {path} does not exist"


def _opcodes(paths: list[Path]) -> int:
    """The test-suite opcodes (bm, am, v, vv) of the lines of ``paths``: what
    the tally counts (it said 384 where ronda-solve says 408: the three-player
    lines' vv were left out)."""
    from solver.notation import NotationError, parse_file
    n = 0
    for f in paths:
        for _line, item in parse_file(f.read_text(encoding="utf-8")):
            if not isinstance(item, NotationError):
                n += sum(1 for op in ("bm", "am", "v", "vv") if item.opcode(op) is not None)
    return n


def test_the_quoted_figures_are_the_shipped_ones():
    """The counts bench/doc_figures.py writes in (the tallies count every
    opcode as agreeing: test_puzzle_sets.py checks that they do)."""
    import sys
    sys.path.insert(0, str(ROOT / "bench"))
    from doc_figures import shipped_puzzles
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    puzzles_doc = (ROOT / "docs/puzzles.md").read_text(encoding="utf-8")
    assert f"# {shipped_puzzles()} shipped puzzles, exact" in readme
    tally = _opcodes(sorted((ROOT / "positions/puzzles").glob("*.txt")))
    assert f"test suite:\n{tally} agree, 0 disagree" in puzzles_doc
    suite = _opcodes([ROOT / "positions/suite.txt"])
    assert f"(`test suite: {suite} agree, 0\ndisagree`)" in readme


def test_the_readme_says_how_to_get_chromium_and_how_long_the_tests_take():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "apt-get install chromium" in readme
    assert re.search(r"about \d+ minutes\s+on two cores", readme)
    ci = (ROOT / ".ci/run").read_text(encoding="utf-8")
    command = re.search(r"\n(\.venv/bin/python -m pytest[^\n`]*)\n", readme).group(1)
    assert command in ci, "the CI runs the README's test command"


def _code_map() -> dict[str, str]:
    """The README's map of the code ("How it works"): the text of its
    bullets (with their indented paragraphs) by the folder of ``solver/``
    each one describes."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## How it works", 1)[1].split("\n## ", 1)[0]
    rooms: dict[str, str] = {}
    for bullet in section.split("\n- ")[1:]:
        bullet = re.split(r"\n\n(?=\S)", bullet, maxsplit=1)[0]
        m = re.match(r"`solver/(\w+/)?", bullet)
        if m:
            folder = "solver/" + (m.group(1) or "")
            rooms[folder] = rooms.get(folder, "") + bullet
    return rooms


def _named(text: str, folder: str, name: str) -> bool:
    """Whether a bullet names ``name`` (a file or ``dir/``) of ``folder``:
    alone in backquotes, or by its path from the repository's root."""
    return re.search("`(?:" + re.escape(folder) + ")?" + re.escape(name) + "`", text) is not None


def test_the_readme_map_names_every_module_in_its_room():
    """Every module of ``solver/`` is named in the bullet of its folder (a
    folder without a bullet of its own, in its parent's, by name), and
    every module a bullet names is in that folder: a newcomer finds each
    room's files by the map, and the map names no file that moved (a
    full path is test_every_file_the_documentation_names_ships's)."""
    rooms = _code_map()
    package = ROOT / "solver"
    for path in sorted(package.rglob("*.py")):
        parts = path.relative_to(package).parts
        if path.name == "__init__.py" or any(p.startswith((".", "__pycache__")) for p in parts):
            continue
        folder = "solver/" + "".join(f"{p}/" for p in parts[:-1])
        name = path.name
        while folder not in rooms and folder != "solver/":
            parent = folder[:folder.rstrip("/").rindex("/") + 1]
            folder, name = parent, folder[len(parent):]
        assert folder in rooms, f"README's map has no bullet for {folder}"
        assert _named(rooms[folder], folder, name), f"README's map does not name {folder}{name}"
    for folder, text in rooms.items():
        for name in re.findall(r"`(\w+\.py)`", text):
            assert (ROOT / folder / name).exists(), (
                f"README's map names {name} in {folder}, which has no such file")
