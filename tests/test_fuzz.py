"""A seeded fuzz test (issue 19): mutated position lines and game records
of every rule system through the parsers, the searches, the JSON
documents, the command line (in-process and a few real processes) and
the web API. Nothing may raise anything but the documented one-line
errors, no output may hold a traceback, every exit status is one the
README documents, and every JSON document is strict JSON.

Counts (seed :data:`SEED`): :data:`LINES` mutated position lines, of which
every one is parsed (and, when it parses, written back and read again),
a seeded third of those that parse is evaluated with tiny budgets and
its JSON document checked, and :data:`CLI_LINES` go through the command
line; :data:`RECORDS` mutated records for each rule system (lmodire,
pagat, mod, french, online, Ronda voleur; two, three and four players),
each replayed, and a few annotated. The run takes a minute or two.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from solver.analysis.document import analysis_json
from solver.analysis.evaluation import evaluate
from solver.cli.main import main
from solver.engine.compile import CompileError
from solver.games.record import GameRecord, RecordError, dumps, parse_games
from solver.notation import NotationError, format_position, parse_position

ROOT = Path(__file__).resolve().parent.parent
SEED = 19
LINES = 5000
CLI_LINES = 600
RECORDS = 500

#: the characters and tokens mutations draw from: the notation's own, and
#: what breaks parsers (NUL, a form feed, U+2028, a BOM, huge numbers)
ALPHABET = list("0123456789.?~-/=,; SNEWxoebc\"'#") + ["\x00", "\x0c", "\u2028", "\ufeff",
                                                      "é", "\t", "7e7", "-1", "01"]
VALUES = ["", "0", "-1", "41", "999999999999999999999", "1e9", "nan", "inf", "?", "S", "N",
          "yes", "no", "1,2", "1,2,3,4,5", "S:ronda12", "12.12.12.12.12", "\u2028", "x" * 300]
KEYS = ["taken", "score", "last", "prev", "dealer", "rules", "target", "hit", "declared",
        "hist", "gone", "tops", "voleur", "deal_size", "table_cards", "show", "players",
        "missa_last_round", "decl_cumulative"]


SYSTEMS = {
    "lmodire": ROOT / "positions/games/engine-v-greedy.txt",
    "pagat-4p": ROOT / "positions/games/pagat-4p.txt",
    "mod": ROOT / "tests/fuzz_seeds/mod.txt",
    "french-3p": ROOT / "positions/games/french-3p.txt",
    "french-4p": ROOT / "positions/games/french-4p.txt",
    "online": ROOT / "tests/fuzz_seeds/online.txt",
    "voleur": ROOT / "positions/games/voleur-short.txt",
}


def _seed_lines() -> list[str]:
    """The shipped position lines, and positions met replaying the shipped
    records of every system (each as every card is known and as the mover
    sees it)."""
    from solver.games.record import Replay
    out = []
    for f in sorted((ROOT / "positions").rglob("*.txt")):
        if "games" in f.parts:
            continue
        for line in f.read_text(encoding="utf-8").splitlines():
            if line.strip() and not line.lstrip().startswith("#"):
                out.append(line)
    for path in sorted(set(SYSTEMS.values())):
        for game in parse_games(path.read_text(encoding="utf-8"))[:3]:
            for k, step in enumerate(Replay(game)):
                if k % 3 == 0:
                    out.append(format_position(step.state.full_position()))
                    out.append(format_position(step.state.view(step.seat)))
    return out


def mutate_line(rng: random.Random, line: str, pool: list[str]) -> str:
    """Zero to three random edits of ``line`` (characters, tokens, keys,
    splices with another line of ``pool``): a third are left whole, so
    that the searches see many positions, not only the parser."""
    for _ in range(rng.choice((0, 0, 1, 1, 2, 3))):
        op = rng.randrange(8)
        toks = line.split(" ")
        if op == 0 and line:                        # replace a character
            i = rng.randrange(len(line))
            line = line[:i] + rng.choice(ALPHABET) + line[i + 1:]
        elif op == 1:                               # insert a character
            i = rng.randrange(len(line) + 1)
            line = line[:i] + rng.choice(ALPHABET) + line[i:]
        elif op == 2 and line:                      # delete a stretch
            i = rng.randrange(len(line))
            line = line[:i] + line[i + rng.randint(1, 4):]
        elif op == 3 and len(toks) > 1:             # drop or duplicate a token
            i = rng.randrange(len(toks))
            toks[i:i + 1] = [] if rng.random() < 0.5 else [toks[i], toks[i]]
            line = " ".join(toks)
        elif op == 4:                               # a key with an odd value
            line = f"{line} {rng.choice(KEYS)}={rng.choice(VALUES)}"
        elif op == 5 and toks:                      # change a key's value
            keyed = [i for i, t in enumerate(toks) if "=" in t]
            if keyed:
                i = rng.choice(keyed)
                toks[i] = toks[i].split("=")[0] + "=" + rng.choice(VALUES)
                line = " ".join(toks)
        elif op == 6:                               # splice with another line
            other = rng.choice(pool)
            line = line[:rng.randrange(len(line) + 1)] + other[rng.randrange(len(other) + 1):]
        else:                                       # swap two tokens
            if len(toks) > 1:
                i, j = rng.randrange(len(toks)), rng.randrange(len(toks))
                toks[i], toks[j] = toks[j], toks[i]
                line = " ".join(toks)
    return line


def _one_line(text: str) -> None:
    assert text and "\n" not in text and "Traceback" not in text, repr(text)


def _strict_json(doc) -> str:
    return json.dumps(doc, allow_nan=False)


@pytest.fixture(scope="module")
def mutated_lines() -> list[str]:
    rng = random.Random(SEED)
    pool = _seed_lines()
    return [mutate_line(rng, rng.choice(pool), pool) for _ in range(LINES)]


def test_mutated_lines_parse_or_fail_in_one_line(mutated_lines):
    """Every line: a position whose canonical line reads back the same, or
    one NotationError line; a seeded third of those that parse is
    evaluated with tiny budgets (an answer and a strict JSON document, or
    one error line)."""
    rng = random.Random(SEED + 1)
    parsed = evaluated = 0
    for text in mutated_lines:
        try:
            pos = parse_position(text)
        except NotationError as e:
            _one_line(str(e))
            continue
        parsed += 1
        canon = format_position(pos)
        assert format_position(parse_position(canon)) == canon, text
        if rng.random() >= 1 / 3:
            continue
        evaluated += 1
        try:
            a = evaluate(pos, samples=8, time_budget=0.01, memory_mb=8, workers=1)
        except (CompileError, ValueError) as e:     # BudgetError is a ValueError
            _one_line(str(e))
            continue
        assert a.moves and a.best, text
        _strict_json(analysis_json(a, 1))
    print(f"{parsed} of {LINES} lines parsed, {evaluated} evaluated")
    assert parsed > LINES // 4 and evaluated > LINES // 20   # not only the parser


def test_mutated_lines_through_the_command_line(mutated_lines, tmp_path):
    """One file of CLI_LINES lines, --jsonl: exit 0, 1 or 3, every output
    line strict JSON, every stderr line one error, no traceback."""
    f = tmp_path / "fuzz.txt"
    f.write_text("\n".join(mutated_lines[:CLI_LINES]) + "\n", encoding="utf-8")
    r = CliRunner().invoke(main, ["--jsonl", "--time", "0.01", "--samples", "8",
                                  "--workers", "1", "--objective", "points", str(f)])
    assert r.exception is None or isinstance(r.exception, SystemExit), r.exception
    assert r.exit_code in (0, 1, 3)
    assert "Traceback" not in r.output
    docs = [json.loads(line, parse_constant=_no_constant) for line in r.stdout.splitlines()]
    assert len(docs) >= CLI_LINES // 2
    for d in docs:
        if "error" in d and "moves" not in d:
            _one_line(d["error"])


def _no_constant(name):
    raise ValueError(f"{name} is not JSON")


def test_mutated_lines_in_real_processes(mutated_lines, tmp_path):
    """A few real processes: the table output, --json, and a puzzle check,
    each on 150 mutated lines."""
    f = tmp_path / "fuzz.txt"
    f.write_text("\n".join(mutated_lines[CLI_LINES:CLI_LINES + 150]) + "\n", encoding="utf-8")
    for args, codes in ((["--time", "0.01", "--objective", "points", str(f)], (0, 1, 3)),
                        (["--json", "--time", "0.01", "--objective", "points", str(f)],
                         (0, 1, 3)),
                        (["puzzles", "check", str(f)], (0, 1, 2))):
        p = subprocess.run([sys.executable, "-m", "solver.cli.main", *args], cwd=ROOT,
                           capture_output=True, text=True, timeout=600)
        assert p.returncode in codes, (args, p.stderr[-2000:])
        assert "Traceback" not in p.stderr and "Traceback" not in p.stdout
        if "--json" in args:
            json.loads(p.stdout, parse_constant=_no_constant)


def test_mutated_lines_through_the_web_api(mutated_lines):
    pytest.importorskip("fastapi")
    from fastapi.testclient import TestClient
    from solver.web.app import Config, create_app
    with TestClient(create_app(Config(searches=1, queue=4, time=0.05))) as c:
        for i, text in enumerate(mutated_lines[-300:]):
            path = "/api/analyse" if i % 10 == 0 else "/api/position"
            r = c.post(path, json={"line": text})
            assert r.status_code in (200, 400, 422), (text, r.text)
            doc = json.loads(r.text, parse_constant=_no_constant)
            if r.status_code != 200:
                assert list(doc) == ["error"]
                _one_line(doc["error"])


# --- records ------------------------------------------------------------------------




def mutate_record(rng: random.Random, text: str) -> str:
    """One to three edits of a record: lines dropped, repeated or swapped,
    a card or a tag changed, characters changed."""
    lines = text.splitlines()
    for _ in range(rng.randint(1, 3)):
        if not lines:
            break
        op = rng.randrange(7)
        i = rng.randrange(len(lines))
        if op == 0:
            del lines[i]
        elif op == 1:
            lines.insert(i, lines[i])
        elif op == 2:
            j = rng.randrange(len(lines))
            lines[i], lines[j] = lines[j], lines[i]
        elif op == 3:                               # a card changed
            toks = lines[i].split(" ")
            k = rng.randrange(len(toks))
            toks[k] = rng.choice(["1", "7", "12", "5o", "3c", "8", "13", "-", "?", "x", ""])
            lines[i] = " ".join(toks)
        elif op == 4:                               # a tag's value changed
            tags = [k for k, line in enumerate(lines) if line.startswith("[")]
            if tags:
                k = rng.choice(tags)
                name = lines[k][1:].split(" ")[0]
                lines[k] = f'[{name} "{rng.choice(VALUES)}"]'
        elif op == 5 and lines[i]:                  # a character
            j = rng.randrange(len(lines[i]))
            lines[i] = lines[i][:j] + rng.choice(ALPHABET) + lines[i][j + 1:]
        else:                                       # cut the record here
            lines = lines[:i + 1]
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("system", sorted(SYSTEMS))
def test_mutated_records_replay_or_fail_in_one_line(system):
    """RECORDS mutated records of the system: each game replays (and is
    written back to a record that replays the same) or is one
    RecordError line."""
    text = SYSTEMS[system].read_text(encoding="utf-8")
    first = parse_games(text)
    assert first and all(isinstance(g, GameRecord) for g in first), system
    rng = random.Random(f"{SEED}-{system}")
    read = 0
    for _ in range(RECORDS):
        for item in parse_games(mutate_record(rng, text)):
            if isinstance(item, RecordError):
                _one_line(str(item))
                continue
            read += 1
            again = parse_games(dumps(item))
            assert len(again) == 1 and isinstance(again[0], GameRecord)
            assert dumps(again[0]) == dumps(item)
    assert read > 0                 # some mutations leave a sound game


@pytest.mark.parametrize("system", ["lmodire", "pagat-4p", "french-3p", "voleur"])
def test_mutated_records_through_annotate(system, tmp_path):
    """A few mutated records of each system annotated in a real process:
    exit 0 or 1, one error line a bad game, no traceback."""
    text = SYSTEMS[system].read_text(encoding="utf-8")
    rng = random.Random(f"{SEED}-annotate-{system}")
    f = tmp_path / "records.txt"
    f.write_text("".join(mutate_record(rng, text) for _ in range(3)), encoding="utf-8")
    p = subprocess.run([sys.executable, "-m", "solver.cli.main", "annotate", str(f), "--view",
                        "full", "--samples", "2", "--luck-samples", "0", "-q", "--json"],
                       cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert p.returncode in (0, 1), p.stderr[-2000:]
    assert "Traceback" not in p.stderr
    for line in p.stderr.splitlines():
        assert line.startswith("error: "), line
    json.loads(p.stdout, parse_constant=_no_constant)
