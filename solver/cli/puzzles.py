"""``ronda-solve puzzles ...``: generate, check, quiz, sheet.

The commands parse arguments, call :mod:`solver.puzzles.puzzle`,
:mod:`solver.puzzles.sheet` and render; progress and figures go to stderr so
stdout stays clean. Exit status: 0 success; 1 a line failed its check or
could not be read; 2 usage (a bad option, a file that exists without
``--force`` or cannot be written); 130, 143, 129 interrupted by SIGINT
(Ctrl-C), SIGTERM, SIGHUP: ``generate`` writes the puzzles found so far,
``quiz`` prints the score so far (:mod:`solver.runtime.interrupt`). Files are
written whole or not at all (:mod:`solver.runtime.output`).
"""

from __future__ import annotations

import json
import random
import sys
import time
from pathlib import Path

import click
from rich.console import Console
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from .params import (INTEGER, NO_POSITION, InputError, InputFile, Number, Whole, input_name,
                     read_input, settings_of)
from ..numbers import counted, signed, tidy
from ..cards import CardError, parse_card
from ..runtime.interrupt import Signals, exit_interrupted, stoppable
from ..notation import NotationError, parse_file
from ..runtime.output import OutputError, check_output, is_stdout, write_output
from ..runtime.streams import stdin_closed
from ..puzzles.puzzle import (answer_ranks, DEFAULT_MARGIN, LEVELS, SOURCES, Generation, check_text,
                      as_played_for_the_match, chance_gap_text, chance_text, exact_values,
                      generate as generate_puzzles, match_heading, singled_out)
from ..position import seat_names
from ..analysis.hidden import hides_cards, mover_view
from .render import LEADS_LEGEND, position_panel
from ..puzzles.themes import THEME_TITLES, THEMES


@click.group("puzzles")
def puzzles() -> None:
    """Teaching puzzles: generate, check, quiz, print."""


def _output_error(err: OutputError) -> None:
    """One error line on stderr, exit 2."""
    click.echo(f"error: {err}", err=True)
    sys.exit(2)


def _check_output(output: str, force: bool) -> None:
    if not is_stdout(output):
        try:
            check_output(output, force)
        except OutputError as e:
            _output_error(e)


def _write(output: str, text: str, force: bool) -> None:
    try:
        write_output(output, text, force)
    except OutputError as e:
        _output_error(e)


@puzzles.command("generate")
@click.option("--theme", type=click.Choice([*THEMES, "any"]), default="any", show_default=True,
              help="The idea the puzzles must teach.")
@click.option("--count", type=Whole(1), default=10, show_default=True,
              help="Puzzles to find.")
@click.option("--seed", type=INTEGER, default=0, show_default=True, help="Seed of the candidates.")
@click.option("-o", "--output", type=click.Path(dir_okay=False, allow_dash=True), default="-",
              show_default=True, help="File to write (- for standard output).")
@click.option("--force", is_flag=True, help="Overwrite an existing output file.")
@click.option("--source", type=click.Choice(SOURCES), default="composed", show_default=True,
              help="composed: CP-SAT model of the theme; selfplay: hands played by --agents; "
                   "mined: greedy playouts of random deals.")
@click.option("--margin", type=Number(0, min_open=True, unit="points"), default=DEFAULT_MARGIN,
              show_default=True, help="Points the best play must beat every other play by.")
@click.option("--level", type=click.Choice(["1", "2", "3"]), default=None,
              help="Keep only puzzles of this level.")
@click.option("--rules", "rules_name", default="lmodire", show_default=True,
              help="Rules preset of the positions.")
@click.option("--set", "settings", multiple=True, metavar="KEY=VALUE",
              help="Override a rule parameter (repeatable), e.g. --set hit=1,5; "
                   "written on every line.")
@click.option("--players", type=click.Choice(["2", "3", "4"]), default="2", show_default=True,
              help="Players (3: each seat for itself, max^n values, --rules french; "
                   "4: partnerships S+N against E+W).")
@click.option("--agents", default="greedy", show_default=True,
              help="Self-play players, one spec or one per seat: greedy, random, mc:N, engine:K.")
@click.option("--max-candidates", type=Whole(1), default=None,
              help="Stop after this many candidates (default 200 per puzzle asked).")
@click.option("--json", "as_json", is_flag=True, help="Print the figures as JSON on stderr.")
@stoppable
def generate_cmd(theme, count, seed, output, force, source, margin, level, rules_name,
                 settings, players, agents, max_candidates, as_json) -> None:
    """Find COUNT puzzles of THEME, verified by exact search, and write
    them as puzzle lines."""
    from ..games.players import is_human
    from ..rules import check_players, preset
    try:
        given = settings_of(settings)
        rules = preset(rules_name).with_overrides(given)
        check_players(rules, int(players), "--set" if "players" in given else None,
                      "use --players {}")
    except ValueError as e:             # RulesError too
        click.echo(f"error: {e}", err=True)
        sys.exit(2)
    # as the lines write them (and the seeds take them): the parameters'
    # order, notation text, a preset's own value left out
    overrides = rules.overrides_from(preset(rules_name))
    if any(is_human(spec) for spec in agents.split(",")):
        click.echo("error: the puzzle generator plays its hands without a person: "
                   "use `play` to play as human", err=True)
        sys.exit(2)
    err = Console(stderr=True)
    _check_output(output, force)
    t = None if theme == "any" else theme
    latest = [Generation(t, source)]

    def progress(gen):
        latest[0] = gen
        if err.is_terminal:
            err.print(f"[dim]{len(gen.puzzles)}/{counted(count, 'puzzle')}, "
                      f"{counted(gen.candidates, 'candidate')}[/]",
                      highlight=False)

    t0 = time.perf_counter()
    interrupted = None
    try:
        gen = generate_puzzles(t, count, seed=seed, margin=margin, source=source,
                               level=int(level) if level else None,
                               max_candidates=max_candidates, rules_name=rules_name,
                               players=int(players), agents=agents, progress=progress,
                               overrides=overrides)
    except ValueError as e:             # a theme, source or rules that do not apply
        click.echo(f"error: {e}", err=True)
        sys.exit(2)
    except KeyboardInterrupt as e:      # keep the puzzles found so far
        interrupted = e
        gen = latest[0]
        gen.seconds = time.perf_counter() - t0
    lines = [f"# {counted(len(gen.puzzles), 'puzzle')}, theme {theme}, source {source}"
             + (f" ({agents})" if source == "selfplay" else "")
             + f", seed {seed}, margin {margin:g}, rules {rules_name}"
             + "".join(f" {k}={v}" for k, v in overrides.items()) + f", {players} players; "
             f"generated by ronda-solve puzzles generate"
             + (" (interrupted)" if interrupted is not None else "")]
    lines += [p.line() for p in gen.puzzles]
    text = "\n".join(lines) + "\n"
    if output == "-":
        if gen.puzzles or interrupted is not None:
            sys.stdout.write(text)
    elif gen.puzzles:
        # no file of a header alone (puzzles check refuses it: no position)
        _write(output, text, force)
    if as_json:
        err.print_json(json.dumps({
            "theme": theme, "source": source, "seed": seed, "puzzles": len(gen.puzzles),
            "asked": count, "candidates": gen.candidates, "illegal": gen.illegal,
            "duplicates": gen.duplicates, "rejected": gen.rejected,
            "seconds": round(gen.seconds, 3)}))
    else:
        err.print(gen.summary(), highlight=False)
    if interrupted is not None:
        where = f" in {output}" if output != "-" and gen.puzzles else ""
        exit_interrupted(interrupted, f"{len(gen.puzzles)} of {counted(count, 'puzzle')} "
                                      f"found{where}")
    if not gen.puzzles:
        # nothing to give: a failure, said once (in --json the document says it)
        if not as_json:
            click.echo(f"error: no puzzle found within {counted(gen.candidates, 'candidate')}"
                       + ("" if output == "-" else f"; {output} not written"), err=True)
        sys.exit(1)
    if len(gen.puzzles) < count and not as_json:
        err.print(f"[yellow]only {len(gen.puzzles)} of {count} found within "
                  f"{counted(gen.candidates, 'candidate')}[/]", highlight=False)


@puzzles.command("check")
@click.argument("files", nargs=-1, required=True, type=InputFile("r", encoding="utf-8"))
@click.option("--margin", type=Number(0, unit="points"), default=DEFAULT_MARGIN, show_default=True,
              help="Points the best play must beat every other play by.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON document instead.")
@stoppable
def check_cmd(files, margin, as_json) -> None:
    """Re-verify every line of FILES that names a best play (bm) with the
    exact method: one best play, beating every other by the margin; and
    its value, margin, themes, level and line when the line gives them. A
    plain line (a teacher's own position with bm, maybe v) is verified the
    same way, and the themes the engine finds are printed."""
    out = Console(soft_wrap=True)
    err = Console(stderr=True, soft_wrap=True)
    total = failed = 0
    doc = []
    errors = []         # files with no line to check: each one line, null in JSON
    for f in files:
        name = input_name(f)
        try:
            checks = check_text(read_input(f), margin)
        except InputError as e:         # this file left out, the others still checked
            errors.append({"file": name, "line": None, "error": e.format_message()})
            err.print(Text(f"error: {e.format_message()}", style="bold red"), highlight=False)
            continue
        if not checks:
            errors.append({"file": name, "line": None, "error": f"{name}: {NO_POSITION}"})
            err.print(Text(f"error: {name}: {NO_POSITION}", style="bold red"), highlight=False)
        for checked in checks:
            total += 1
            found = checked.found
            examined = None if found is None else {
                "best": found.best, "value": found.value, "margin": found.margin,
                "themes": found.themes, "pv": found.pv,
                "level": found.level if singled_out(found.margin) else None}
            entry = {"file": name, "line": checked.line, "id": checked.id,
                     "ok": checked.ok, "objective": checked.objective,
                     "objective_note": checked.note, "chances": checked.chances,
                     "problems": [{"field": p.field, "problem": p.problem}
                                  for p in checked.problems],
                     "found": examined}
            if checked.chances is not None and examined is not None:
                # played for the match: found is the match's answer (its best
                # play, chance and line); the points examination, whose best
                # play is not the answer, is given as points
                best = next(iter(checked.chances))
                seen = checked.match_found
                entry["found"] = {"best": best, "chance": checked.chances[best],
                                  "pv": checked.match_pv or [],
                                  "themes": seen.written.split() if seen else [],
                                  "unjudged": seen.unjudged if seen else [],
                                  "level": seen.level if seen else None}
                entry["points"] = examined
            doc.append(entry)
            if checked.ok:
                if as_json:
                    continue
                if checked.objective == "match":
                    # the answer judged for the match: say so, whatever the line
                    out.print(Text(f"{name}: line {checked.line}: verified, {checked.note}"
                                   + _match_found_text(checked)), highlight=False)
                elif found is not None and checked.plain:
                    themes = " ".join(found.themes) or "none"
                    out.print(Text(f"{name}: line {checked.line}: verified: {found.best} "
                                   f"({signed(found.value)}, by {found.margin:g}); themes found: "
                                   f"{themes}; level {found.level}"
                                   + (f" ({checked.note})" if checked.note else "")),
                              highlight=False)
                elif checked.note:      # a score written, judged in points: why
                    out.print(Text(f"{name}: line {checked.line}: verified, {checked.note}"),
                              highlight=False)
                continue
            failed += 1
            if not as_json:
                if checked.note:
                    err.print(Text(f"{name}: line {checked.line}: {checked.note}", style="yellow"),
                              highlight=False)
                for problem in checked.problems:
                    err.print(Text(f"error: {name}: line {checked.line}, {problem}", style="bold red"),
                              highlight=False)
    if as_json:
        json.dump(tidy({"verified": total - failed, "failed": failed, "margin": margin,
                        "lines": doc, "errors": errors}), sys.stdout, indent=2)
        sys.stdout.write("\n")
    elif total or not errors:       # (no line read: the errors above say why)
        style = "bold red" if failed else "bold green"
        out.print(f"[{style}]{total - failed} of {total} lines verified (exact)"
                  + (f", {failed} failed" if failed else "") + "[/]", highlight=False)
    if failed or errors:
        sys.exit(1)


def _match_found_text(checked) -> str:
    """A plain line played for the match: the themes and level the engine
    finds for the match's play, and the themes it cannot judge for the
    match (``; themes found for the match: hit; level 1; not judged for
    the match: avoid-hit``); "" for a line that writes its themes."""
    seen = checked.match_found
    if seen is None or not checked.plain:
        return ""
    text = f"; themes found for the match: {seen.written or 'none'}"
    if "declaration" in seen.themes:
        # true of the play, but on a line it would draw the puzzle from the
        # mover's seat, which is judged in points (MatchIdea.written)
        text += " (and declaration, a theme a line played for the match cannot carry)"
    if seen.level is not None:
        text += f"; level {seen.level}"
    if seen.unjudged:
        text += f"; not judged for the match: {', '.join(seen.unjudged)}"
    return text


#: the files and filters give nothing to ask or draw
NO_PUZZLE = "no puzzle to {verb} (check the files and the filters)"


def _load(files) -> tuple[list, int]:
    """Every readable puzzle line of the files, and how many were not: each
    of those is one error line on stderr naming its file, line and field,
    and is left out (the others are still asked or drawn)."""
    out, bad = _load_numbered(files)
    return [pos for _name, _lineno, pos in out], bad


def _load_numbered(files, errors: list | None = None) -> tuple[list, int]:
    """:func:`_load`, each puzzle as ``(file name, line number, position)``.
    With ``errors``, the error lines are not printed but appended to it as
    ``((file's index, line number), text)``, for a caller that reports
    other errors of the same lines and prints them all in file order."""
    out, bad = [], 0

    def say(where, text):
        if errors is None:
            click.echo(text, err=True)
        else:
            errors.append((where, text))

    for index, f in enumerate(files):
        name = input_name(f)
        try:
            lines = parse_file(read_input(f))
        except InputError as e:         # this file left out, the others still read
            say((index, 0), f"error: {e.format_message()} (left out)")
            bad += 1
            continue
        if not lines:
            say((index, 0), f"error: {name}: {NO_POSITION}")
            bad += 1
        for lineno, item in lines:
            if isinstance(item, NotationError):
                say((index, lineno), f"error: {name}: {item} (left out)")
                bad += 1
                continue
            out.append((index, name, lineno, item))
    if errors is None:
        out = [item[1:] for item in out]
    return out, bad


def _filter(items, theme, level, pos=lambda item: item):
    """The items whose line has ``theme`` and ``level`` (when given): the
    match play's for a line played for the match
    (:func:`as_played_for_the_match`), as the quiz and the sheet show it."""
    if not (theme or level):
        return items
    drawn = [(item, as_played_for_the_match(pos(item))) for item in items]
    return [item for item, line in drawn
            if (not theme or theme in (line.opcode("themes") or "").split())
            and (not level or line.opcode("level") == level)]


@puzzles.command("quiz")
@click.argument("files", nargs=-1, required=True, type=InputFile("r", encoding="utf-8"))
@click.option("--theme", type=click.Choice(list(THEMES)), default=None, help="Only this theme.")
@click.option("--level", type=click.Choice(["1", "2", "3"]), default=None, help="Only this level.")
@click.option("--count", type=Whole(1), default=None, help="Ask this many puzzles.")
@click.option("--shuffle/--in-order", default=False, show_default=True,
              help="Ask the puzzles in a seeded random order.")
@click.option("--seed", type=INTEGER, default=0, show_default=True, help="Seed of --shuffle.")
def quiz_cmd(files, theme, level, count, shuffle, seed) -> None:
    """Ask the puzzles of FILES one by one: the position is shown, you type
    a play (a rank such as 7), the answer is explained. `h` gives the
    themes as a hint, `s` skips, `q` quits."""
    if stdin_closed():
        click.echo("error: standard input is closed (nothing to read the answers from)",
                   err=True)
        sys.exit(2)
    con = Console()
    items, bad = _load(files)
    loaded = len(items)
    items = _filter(items, theme, level)
    if shuffle:
        random.Random(seed).shuffle(items)
    if count:
        items = items[:count]
    if not items:
        # no line read: the files' own errors (said above) are why, exit 1 as
        # the sheet's, check's and ronda-solve's (it added "no puzzle to
        # ask", exit 2)
        if loaded or not bad:
            click.echo(f"error: {NO_PUZZLE.format(verb='ask')}", err=True)
        sys.exit(1 if bad else 2)
    right = asked = 0
    with Signals() as sig:
        try:
            for i, pos in enumerate(items, start=1):
                verdict = ask(con, pos, i, len(items))
                if verdict is None:
                    break
                if verdict == "skip":
                    continue
                asked += 1
                right += verdict == "right"
        except EOFError:                # Ctrl-D, or the piped answers ran out
            con.print()
        except KeyboardInterrupt as e:
            sig.caught(e)
            con.print()
        con.print(f"\n[bold]score: {right} of {asked}[/]", highlight=False)
        if sig.interrupted:
            sig.exit()
    if bad:
        sys.exit(1)                     # a line could not be read (said above)


def ask(con: Console, pos, number: int, total: int) -> str | None:
    """Ask one puzzle on ``con``: show it, read plays until a valid one (or
    ``h``, ``s``, ``q``), explain. Returns ``"right"``, ``"wrong"``,
    ``"skip"`` or None (quit)."""
    # a line played for the match: its themes (the hint) and level are the
    # match play's, not the points play's the line may write
    pos = as_played_for_the_match(pos)
    level = pos.opcode("level")
    title = f"puzzle {number}/{total}"
    if level:
        title += f"  ·  {LEVELS.get(int(level), level)}"
    title += f"  ·  {pos.seat_name(pos.turn)} to play"
    shown = _without_ops(pos)
    if hides_cards(pos):            # a declaration puzzle: only what the mover knows
        shown = mover_view(shown)
    con.print()
    con.print(position_panel(shown, title))
    if number == 1:                 # the board's marker, explained once a quiz
        con.print(Text(LEADS_LEGEND, style="dim"))
    if pos.declared:
        names = [pos.seat_name(d.seat) for d in pos.declared]
        con.print("declared this deal: " + ", ".join(
            f"{n} {d.kind}{'' if d.rank is None else ' ' + str(d.rank)}"
            for n, d in zip(names, pos.declared)), highlight=False)
    hand = [c for c in pos.hands[pos.turn] if c is not None]
    ranks = sorted({c.rank for c in hand})
    ev = _judged(pos)
    if ev is not None and ev.objective == "match":
        # the objective ronda-solve plays this line for, said before the question
        con.print(Text(match_heading(pos), style="bold magenta"))
    elif ev is not None and ev.note:     # a score written, judged in points: why
        con.print(Text(ev.note, style="dim"))
    best, warning = answer_ranks(pos)
    if warning:
        con.print(Text(f"warning: {warning}", style="yellow"))
    bm = " ".join(str(r) for r in sorted(best)) or (pos.opcode("bm") or "")
    hinted = False
    while True:
        answer = _read(f"Your play ({' '.join(map(str, ranks))}; h hint, s skip, q quit)")
        if answer in ("q", "quit"):
            return None
        if answer in ("s", "skip"):
            con.print(f"skipped: the answer was [bold green]{bm}[/]"
                      + (_chance_of_rank(ev, min(best), " ({} to win the match)") if best else ""),
                      highlight=False)
            _explain(con, pos, None)
            return "skip"
        if answer in ("h", "hint"):
            # the themes in words (a tag the set's author made up as written)
            from ..puzzles.themes import THEME_TITLES
            tags = (pos.opcode("themes") or "").split()
            themes = "; ".join(THEME_TITLES.get(t, t) for t in tags) or "no theme given"
            con.print(f"[yellow]hint: {escape(themes)}[/]", highlight=False)
            hinted = True
            continue
        try:
            rank = parse_card(answer).rank
        except CardError:
            con.print(f"[red]{escape(repr(answer))} is not a card: type a rank such as {ranks[0]}[/]",
                      highlight=False)
            continue
        if rank not in ranks:
            con.print(f"[red]you hold no {rank}: play one of {' '.join(map(str, ranks))}[/]",
                      highlight=False)
            continue
        if rank in best:
            con.print(f"[bold green]right: {bm}[/]" + _chance_of_rank(ev, rank, " ({} to win "
                                                                           "the match)")
                      + (" (with a hint)" if hinted else ""), highlight=False)
            _explain(con, pos, rank)
            return "right"
        con.print(f"[bold red]not {rank}: the answer is {bm}[/]"
                  + (f" ({_chance_of_rank(ev, min(best), '{}')} to win the match; {rank}: "
                     f"{_chance_of_rank(ev, rank, '{}')})"
                     if best and _chance_of_rank(ev, rank, "{}") else "")
                  + _same_for_you(pos, rank), highlight=False)
        _explain(con, pos, rank)
        return "wrong"


def _judged(pos):
    """The puzzle's exact values as the quiz judges them
    (:func:`~solver.puzzles.puzzle.exact_values`: ronda-solve's objective for
    the line), or None when the position cannot be searched exactly."""
    if hides_cards(pos):            # judged over the hidden hands (answer_ranks)
        return None
    try:
        return exact_values(pos)
    except (ValueError, NotationError):
        return None


def _explain_hidden(con: Console, pos, played: int | None) -> None:
    """A puzzle drawn from the mover's seat: every play's value in points
    averaged over the hands the mover cannot tell apart, by which the
    answer is judged (:func:`~solver.puzzles.puzzle.hidden_values`)."""
    from ..engine.compile import CompileError
    from ..puzzles.puzzle import hidden_values
    try:
        values = hidden_values(pos)
    except (ValueError, CompileError):
        return
    top = max(values.values())
    t = Table(show_edge=False, header_style="bold")
    t.add_column("play")
    t.add_column("value", justify="right")
    t.add_column("loss", justify="right")
    for move, value in values.items():
        loss = top - value
        style = "bold green" if loss <= 1e-9 else (
            "red" if played is not None and parse_card(move).rank == played else "")
        t.add_row(Text(move, style=style), signed(value, ".2f"),
                  "" if loss <= 1e-9 else f"{loss:.2f}")
    con.print(t)
    con.print(Text("value: the play's points averaged over the hands you cannot see (the "
                   "cards a declaration leaves hidden), by which the answer is judged",
                   style="dim"))


def _chance_of_rank(ev, rank: int, form: str) -> str:
    """``form`` with the chance of winning the match of the play of
    ``rank`` (:func:`~solver.puzzles.puzzle.chance_text`) when the quiz
    judges for the match, else ""."""
    if ev is None or ev.chances is None:
        return ""
    for move, chance in ev.chances.items():
        if parse_card(move).rank == rank:
            return form.format(chance_text(chance))
    return ""


def _same_for_you(pos, rank: int) -> str:
    """Three players: why a play that scores the mover as much as the
    answer is still not it (the max^n tie rule's next step), or ""."""
    if pos.players != 3:
        return ""
    try:
        ev = exact_values(pos)
    except (ValueError, NotationError):
        return ""
    mine = [v for text, v in ev.moves.items() if parse_card(text).rank == rank]
    if not mine or abs(mine[0] - ev.value) > 1e-9:
        return ""
    return (f"; {rank} scores as much for you ({signed(ev.value)}), but the answer leaves "
            "the other two less (the tie rule)")


def _read(prompt: str) -> str:
    """One answer, stripped and lower-case. Raises EOFError at the end of
    the input (Ctrl-D), KeyboardInterrupt on Ctrl-C (unlike click.prompt,
    which makes both an Abort)."""
    return input(f"{prompt}: ").strip().lower()


def _without_ops(pos):
    from copy import copy
    out = copy(pos)
    out.ops = []
    return out


def _explain(con: Console, pos, played: int | None) -> None:
    """The explanation, then every play's exact value (recomputed; three
    players: the mover's entry and a column per seat)."""
    from ..puzzles.puzzle import seen_note
    c = seen_note(pos, pos.opcode("c"))
    if c:
        con.print(c, highlight=False)
    if hides_cards(pos):
        _explain_hidden(con, pos, played)
        return
    try:
        ev = exact_values(pos)
    except (ValueError, NotationError):
        return
    t = Table(show_edge=False, header_style="bold")
    t.add_column("play")
    names: tuple = ()

    def shown(move: str) -> Text:
        """The play, green when best, red when it is the one played."""
        return Text(move, style="bold green" if move in ev.best else (
            "red" if played is not None and parse_card(move).rank == played else ""))

    if ev.chances is not None:
        # the match: each play's chance of winning it and its loss in that
        # chance (the answer's measure); the points this hand said as points
        t.add_column("win match", justify="right")
        t.add_column("loss", justify="right")
        t.add_column("points this hand", justify="right")
        top = max(ev.chances.values())
        for move, value in ev.moves.items():
            t.add_row(shown(move), chance_text(ev.chances[move]),
                      chance_gap_text(top, ev.chances[move]), signed(value))
        con.print(t)
        from ..puzzles.puzzle import judge, match_line_text
        line = match_line_text(pos, judge(pos).pv)
        if line:
            con.print(Text(f"line for the match: {ev.best[0]}: {line}"), highlight=False)
        con.print(Text("win match: the mover's side's chance of winning the match after the "
                       "play (exact, the end of the hand valued by the match-equity table); "
                       "loss: how much less than the best play's chance; points this hand: "
                       "the play's value in points, not what the answer is judged by",
                       style="dim"))
    else:
        t.add_column("value", justify="right")
        names = seat_names(pos.players) if ev.seats is not None else ()
        for name in names:              # three players: each seat's own points
            t.add_column(name, justify="right")
        t.add_column("loss", justify="right")
        for move, value in ev.moves.items():
            loss = ev.points_value - value
            seats = [f"{x:g}" for x in ev.seats[move]] if ev.seats is not None else []
            t.add_row(shown(move), signed(value), *seats,
                      "" if loss == 0 else f"{loss:g}")
        con.print(t)
    if names:
        con.print(Text("value: the mover's own points (max^n); " + " ".join(names)
                       + ": each seat's own points to the end of the hand", style="dim"))
    themes = pos.opcode("themes")
    if themes:
        con.print(Text("themes: " + ", ".join(f"{n} ({THEME_TITLES.get(n, '')})"
                                               for n in themes.split()), style="dim"))


@puzzles.command("sheet")
@click.argument("files", nargs=-1, required=True, type=InputFile("r", encoding="utf-8"))
@click.option("-o", "--output", type=click.Path(dir_okay=False), required=True,
              help="sheet.svg (one picture) or sheet.html (A4 pages for printing).")
@click.option("--title", default="Ronda puzzles", show_default=True)
@click.option("--theme", type=click.Choice(list(THEMES)), default=None, help="Only this theme.")
@click.option("--level", type=click.Choice(["1", "2", "3"]), default=None, help="Only this level.")
@click.option("--count", type=Whole(1), default=None, help="At most this many puzzles.")
@click.option("--answers/--no-answers", default=True, show_default=True,
              help="Add the answers after the puzzles.")
@click.option("--show-themes", is_flag=True, help="Print the themes above each puzzle.")
@click.option("--force", is_flag=True, help="Overwrite an existing output file.")
@click.option("--margin", type=Number(0, unit="points"), default=DEFAULT_MARGIN, show_default=True,
              help="As puzzles check's: a declaration puzzle's answer must hold by this "
                   "over the hands the mover cannot tell apart.")
@stoppable
def sheet_cmd(files, output, title, theme, level, count, answers, show_themes, force,
              margin) -> None:
    """Draw the puzzles of FILES with their cards, for printing. The answer
    a line gives (bm, v) is checked first, as puzzles check does: a puzzle
    whose answer the engine contradicts is left out with one error line
    (exit 1), so that no sheet prints a wrong answer."""
    from ..puzzles.puzzle import answer_problems, as_played_for_the_match, match_answer
    from ..puzzles.sheet import sheet_html, sheet_svg
    suffix = Path(output).suffix.lower()
    if not Path(output).stem or Path(output).name.lower() in (".svg", ".html", ".htm"):
        # '.html' alone is a hidden file's name without a suffix
        raise click.UsageError(f"-o {output!r}: name the file, e.g. sheet.html (the sheet is "
                               ".svg or .html)")
    if suffix not in (".svg", ".html", ".htm"):
        raise click.UsageError(f"{output}: the sheet is .svg or .html")
    _check_output(output, force)
    errors: list = []                   # said in file order, after the checks
    numbered, bad = _load_numbered(files, errors)
    items = []
    matches = []
    for index, name, lineno, pos in _filter(numbered, theme, level, pos=lambda item: item[3]):
        if count and len(items) == count:
            break
        problems = answer_problems(pos, margin)
        if problems:
            errors.append(((index, lineno), f"error: {name}: line {lineno}, "
                           + "; ".join(str(p) for p in problems) + " (left out)"))
            bad += 1
            continue
        match = match_answer(pos)
        if answers and pos.opcode("bm") is None and match is None:
            # a line without its answer (a position, not a puzzle; a line
            # played for the match has the match's): its answer would print
            # as '?' (puzzles check fails it: bm missing)
            errors.append(((index, lineno), f"error: {name}: line {lineno}, bm: missing: the "
                           "sheet prints each puzzle's answer (left out; --no-answers draws it)"))
            bad += 1
            continue
        items.append(pos)
        # the objective each puzzle is judged by (ronda-solve's): drawn with it
        matches.append(match)
    # and its stars and themes the match play's, not the points play's
    items = [pos if m is None else as_played_for_the_match(pos)
             for pos, m in zip(items, matches)]
    for _where, text in sorted(errors, key=lambda e: e[0]):
        click.echo(text, err=True)
    if not items:
        # no empty sheet written over the output, which --force would have
        # replaced: every puzzle left out (said above), or none matched
        if bad and numbered:
            click.echo(f"error: no puzzle left to draw: {output} not written", err=True)
        elif not bad:
            click.echo(f"error: {NO_PUZZLE.format(verb='draw')}: {output} not written",
                       err=True)
            sys.exit(2)
        sys.exit(1)
    if suffix == ".svg":
        doc = sheet_svg(items, title, answers=answers, show_themes=show_themes,
                        matches=matches)
    else:
        doc = sheet_html(items, title, answers=answers, show_themes=show_themes,
                         matches=matches)
    _write(output, doc, force)
    played = sum(1 for m in matches if m is not None)
    # one line, a long path unbroken (click, not rich, which wraps at 80)
    click.echo(f"{counted(len(items), 'puzzle')} drawn in {output}"
               + (f" ({played} played for the match, said on the sheet)" if played else "")
               + (f"; {counted(bad, 'line')} left out (said above)" if bad else ""), err=True)
    if bad:
        sys.exit(1)                     # a line unreadable or its answer wrong (said above)
