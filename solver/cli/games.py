"""The ``play``, ``arena`` and ``annotate`` commands of ``ronda-solve``:
parse arguments, call the library (:mod:`solver.games.arena`,
:mod:`solver.games.annotate`), render (:mod:`solver.cli.render_games`).

Bad input gives one error line on stderr naming the line, field and
problem, and a non-zero exit: 1 for a game that cannot be read or
analysed, 2 for a usage error (an unknown player, an output file that
exists without ``--force``, or cannot be written).

Ctrl-C, SIGTERM and SIGHUP stop the workers; the games (pairs of hands)
finished so far are kept: written, summed up, and the command says on
stderr that it was interrupted and exits 130, 143 or 129
(:mod:`solver.runtime.interrupt`). Output files are written whole or not at all
(:mod:`solver.runtime.output`).
"""

from __future__ import annotations

import json
import sys
import time

import click
from rich.console import Console

from .params import (INTEGER, POSITIVE, InputFile, WORKERS, Whole, input_name, one_target,
                     read_input, settings_of)
from ..numbers import tidy
from ..analysis.methods import METHODS
from ..engine.compile import CompileError
from ..runtime.interrupt import Signals
from ..runtime.output import OutputError, check_output, is_stdout, write_output
from ..runtime.streams import stdin_closed
from ..games.record import GameRecord, RecordError, dumps_all, from_match, parse_games
from ..notation import field_error
from ..rules import PRESETS, RulesError, check_players, preset

_SETTINGS = {"help_option_names": ["-h", "--help"]}


def _fail(message: str, code: int = 1) -> None:
    click.echo(f"error: {message}", err=True)
    sys.exit(code)


def _one_line_tag(_ctx, _param, value: str | None) -> str | None:
    """A game-record tag's value from an option: one line, as a record
    writes its tags (``[Event "..."]``, one a line, docs/records.md); a
    line break would split the tag over two lines of the record."""
    if value is not None and len((value + ".").splitlines()) > 1:
        raise click.BadParameter("a record's tag is one line, and this text has a line break")
    return value


def _rules(name: str, settings: tuple[str, ...], target: int | None):
    try:
        # all at once: players=2 makes table_cards=0 playable wherever it is
        over = settings_of(settings)
        one_target(over, target)
        rules = preset(name).with_overrides(over)
    except ValueError as err:       # RulesError too
        _fail(str(err), 2)
    if target is not None:
        try:
            rules = rules.with_overrides({"target": str(target)})
        except ValueError as err:
            _fail(f"--target: {err}", 2)
    return rules


def _check_output(path: str | None, force: bool) -> str | None:
    """The ``-o`` path, refused (exit 2) when it exists without ``--force``
    or its folder cannot take it; None for standard output. Nothing is
    created before there is something to write."""
    if is_stdout(path):
        return None
    try:
        check_output(path, force)
    except OutputError as err:
        _fail(str(err), 2)
    return path


def _write(path: str, text: str, force: bool) -> None:
    """Write the file whole (exit 2 with one error line if it cannot be)."""
    try:
        write_output(path, text, force)
    except OutputError as err:
        _fail(str(err), 2)


def _progress(quiet: bool, what: str):
    """Progress on stderr: on a terminal one line rewritten in place about
    once a second; elsewhere (a file, a pipe) one line when the work is
    done; nothing with ``quiet``."""
    if quiet:
        return None
    t0 = time.perf_counter()
    last = [0.0]
    terminal = sys.stderr.isatty()

    def progress(done: int, total: int) -> None:
        now = time.perf_counter()
        if not terminal:
            if done == total:
                click.echo(f"{what} {done}/{total}, {now - t0:.0f} s", err=True)
            return
        if done == total or now - last[0] >= 1.0:
            last[0] = now
            click.echo(f"\r{what} {done}/{total}, {now - t0:.0f} s", err=True,
                       nl=done == total)
    return progress


@click.command("play", context_settings=_SETTINGS)
@click.argument("players", nargs=-1, required=True)
@click.option("--rules", "rules_name", type=click.Choice(sorted(PRESETS)), default="lmodire",
              show_default=True, help="Rule preset.")
@click.option("--set", "settings", multiple=True, metavar="KEY=VALUE",
              help="Override a rule parameter (repeatable), e.g. --set hit=1,5.")
@click.option("--target", type=Whole(1), help="Match target (default: the preset's).")
@click.option("--games", type=Whole(1), default=1, show_default=True)
@click.option("--seed", default="0", show_default=True, help="Seed of the decks and players.")
@click.option("--no-swap", is_flag=True,
              help="Do not replay each pair of games with the seats swapped.")
@click.option("-o", "--output", help="Write the records to this file (default: stdout).")
@click.option("--force", is_flag=True, help="Overwrite the -o file.")
@click.option("--event", default="self-play", show_default=True, callback=_one_line_tag,
              help="The Event tag (one line).")
@click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON.")
@click.option("-q", "--quiet", is_flag=True, help="No progress on stderr.")
def play_command(players, rules_name, settings, target, games, seed, no_swap, output, force,
                 event, as_json, quiet) -> None:
    """Play whole games between PLAYERS (one per seat: S N, or S E N W) and
    write their records. Players: random, greedy, greedy:P (a random card
    with chance P), mc:N (N random playouts a play), engine:K (K
    determinisations), engine:Ts (T seconds a decision), human (you, at the keyboard:
    e.g. `play human engine:10 engine:10 engine:10 --rules pagat`)."""
    from ..games.arena import game_rows
    from ..games.players import is_human, make_player
    from .render_games import play_table

    rules = _rules(rules_name, settings, target)
    for spec in players:
        try:
            make_player(spec)
        except ValueError as err:
            _fail(str(err), 2)
    try:
        check_players(rules, len(players), "--set" if "players" in settings_of(settings) else None)
    except RulesError as e:
        _fail(str(e), 2)
    if any(is_human(spec) for spec in players) and stdin_closed():
        _fail("standard input is closed (nothing to read a human seat's plays from)", 2)
    out = _check_output(output, force)
    with Signals() as sig:
        logs, quit_ = _play(players, games, rules, seed, no_swap, quiet, sig)
        rows = game_rows(list(players), logs, swap=not no_swap)
        text = dumps_all([from_match(log, {"Event": event}) for log in logs])
        summary_to = Console(stderr=out is None)
        if out is None:
            sys.stdout.write(text)
        elif logs or not (sig.interrupted or quit_):
            _write(out, text, force)
        if as_json:
            click.echo(json.dumps(tidy({"players": rows,
                                        "partial": sig.interrupted or quit_ is not None}),
                                  indent=2), err=out is None)
        elif logs:
            summary_to.print(play_table(rows, swapped=not no_swap and len(logs) > 1))
        where = "" if out is None or not logs else f" in {out}"
        if quit_ is not None:
            click.echo(f"{quit_}: {len(logs)} of {games} game{'s' * (games != 1)} "
                       f"finished{where}", err=True)
        if sig.interrupted:
            sig.exit(f"{len(logs)} of {games} games finished{where}")


def _play(players, games, rules, seed, no_swap, quiet, sig) -> tuple[list, object]:
    """``(logs, quit)``: the games' MatchLogs, and the person's
    :class:`~solver.games.human.Quit` when one ended the session (else
    None); on an interruption or a quit, the games finished. With a
    ``human`` seat every play is told on stderr as it is made (the
    engine's replies included) and so is the end of each hand."""
    from ..games.arena import iter_games
    from ..games.human import Quit, announce
    from ..games.players import is_human

    logs: list = []
    humans = [i for i, spec in enumerate(players) if is_human(spec)]
    progress = None if humans else _progress(quiet, "games")
    on_play = None
    if humans:
        p = len(players)
        k = 3 if p == 3 else 2

        def on_play(game, hs, event):
            rot = game % k if not no_swap else 0
            names = [players[(s + rot) % p] for s in range(p)]
            for line in announce(hs, event, names):
                click.echo(line, err=True)
    try:
        for log in iter_games(list(players), games=games, rules=rules, seed=seed,
                              swap=not no_swap, on_play=on_play):
            logs.append(log)
            if progress is not None:
                progress(len(logs), games)
    except (ValueError, CompileError) as err:
        _fail(str(err), 2)
    except Quit as q:
        return logs, q
    except KeyboardInterrupt as err:
        sig.caught(err)
    return logs, None


@click.command("arena", context_settings=_SETTINGS)
@click.argument("a")
@click.argument("b")
@click.option("--pairs", type=Whole(1), default=500, show_default=True,
              help="Seat-swapped pairs of hands (two hands each).")
@click.option("--rules", "rules_name", type=click.Choice(sorted(PRESETS)), default="lmodire",
              show_default=True)
@click.option("--set", "settings", multiple=True, metavar="KEY=VALUE",
              help="Override a rule parameter (repeatable).")
@click.option("--players", type=click.Choice(["2", "3", "4"]), default="2", show_default=True,
              help="3 (french): A against two copies of B, seat-rotated triples of hands.")
@click.option("--seed", default="0", show_default=True)
@click.option("--jobs", type=WORKERS, default=1, show_default=True,
              help="Worker processes (the result does not depend on it).")
@click.option("--luck-samples", type=Whole(0), default=32, show_default=True,
              help="Drawn deals a deal for the luck-reduced margin (0: none).")
@click.option("--clock", type=click.Choice(["wall", "cpu"]), default="wall", show_default=True,
              help="The clock of the players' time budgets (engine:0.05s) and thinking: cpu "
                   "(each process's CPU time) gives a loaded machine an idle one's players.")
@click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON.")
@click.option("-q", "--quiet", is_flag=True, help="No progress on stderr.")
def arena_command(a, b, pairs, rules_name, settings, players, seed, jobs, luck_samples,
                  clock, as_json, quiet) -> None:
    """Player A against player B over seat-swapped pairs of hands: A's
    margin per hand with a 95 % confidence interval."""
    from ..games.arena import run_arena
    from ..games.players import is_human
    from .render_games import arena_table

    rules = _rules(rules_name, settings, None)
    try:
        # a players= of --set is named as such (the arena said "lmodire is for 4
        # players, not 2" of players=4, which is --players' count)
        check_players(rules, int(players), "--set" if "players" in settings_of(settings) else None,
                      "use --players {}")
    except ValueError as err:
        _fail(str(err), 2)
    if is_human(a) or is_human(b):
        _fail("the arena plays its hands without a person: use `play` to play as human", 2)
    with Signals() as sig:
        try:
            r = run_arena(a, b, pairs=pairs, rules=rules, players=int(players), seed=seed,
                          jobs=jobs, progress=_progress(quiet, "pairs"),
                          luck_samples=luck_samples, clock=clock)
        except ValueError as err:
            _fail(str(err), 2)
        s = r.summary()
        if as_json:
            click.echo(json.dumps(tidy(s), indent=2))
        else:
            from .render_games import full_width
            Console().print(full_width(arena_table(s)))
        if r.partial:
            sig.caught()
            sig.exit(f"{s['pairs']} of {pairs} pairs finished")


@click.command("annotate", context_settings=_SETTINGS)
@click.argument("game", type=InputFile("r", encoding="utf-8"))
@click.option("--view", type=click.Choice(["player", "full"]), default="player",
              show_default=True,
              help="player: what the mover could know (sampled); full: every card known.")
@click.option("--samples", type=Whole(1), default=32, show_default=True,
              help="Determinisations a play (player view).")
@click.option("--seed", type=INTEGER, default=0, show_default=True)
@click.option("--method", type=click.Choice(METHODS), default="auto", show_default=True,
              help="Search method passed to the evaluation.")
@click.option("--thresholds", default=None,
              help="Losses in points for ?!, ? and ?? [default: 0.75,1,2 in the player view, "
                   "1,2,4 in the full view].")
@click.option("--luck-samples", type=Whole(0), default=24, show_default=True,
              help="Draws a deal for the luck of the deal (0: no luck).")
@click.option("--time", "time_budget", type=POSITIVE, default=None,
              help="Seconds a play's evaluation may take, as ronda-solve --time (every "
                   "search stops there), and a deal's luck may draw for (fewer draws); "
                   "the output says what it cut short [default: 10 a play, the luck "
                   "unbounded].")
@click.option("--jobs", type=WORKERS, default=1, show_default=True,
              help="Worker processes (the result does not depend on it).")
@click.option("--record", "as_record", is_flag=True,
              help="Print the annotated record instead of the tables.")
@click.option("-o", "--output",
              help="Also write the annotated record to this file ('-': standard output, "
                   "as --record).")
@click.option("--force", is_flag=True, help="Overwrite the -o file.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON document.")
@click.option("--all", "all_plays", is_flag=True, help="List forced plays too.")
@click.option("-q", "--quiet", is_flag=True, help="No progress on stderr.")
@click.option("--objective", type=click.Choice(["points", "match"]), default="points",
              show_default=True,
              help="match: mark plays by the loss of match-winning chance where the match "
                   "can end in the hand (docs/match.md); --thresholds then takes three "
                   "probabilities [default: 0.02,0.04,0.08].")
def annotate_command(game, view, samples, seed, method, thresholds, luck_samples, time_budget,
                     jobs, as_record, output, force, as_json, all_plays, quiet,
                     objective) -> None:
    """Evaluate every play of the games in GAME (a record file, `-` for
    stdin): value, best play, loss, marks ?! ? ??, match-deciding plays,
    a summary per player with the luck of the deal."""
    from ..games.annotate import Thresholds, annotate, annotation_json
    from .render_games import annotation_renderable

    if objective == "match":
        from ..match_equity.annotate import MATCH_THRESHOLDS, MatchThresholds
        try:
            marks = MatchThresholds.parse(thresholds) if thresholds else MATCH_THRESHOLDS
        except ValueError as err:
            _fail(str(err), 2)
    else:
        try:
            marks = Thresholds.parse(thresholds) if thresholds else None
        except ValueError as err:
            _fail(str(err), 2)
    if output == "-":
        # '-' is standard output, as for every -o: the annotated record there
        # (it wrote nothing: no file, and the tables on stdout)
        if as_json:
            _fail("-o -: standard output holds the JSON (--json); give -o a file", 2)
        as_record, output = True, None
    out = _check_output(output, force)
    name = input_name(game)
    text = read_input(game)
    items = parse_games(text)
    # --json: each error also in the document, as ronda-solve --json gives
    # them: the file, the game (its number, or null), the line, the text
    errors: list[dict] = []

    def error(game_no, line, text: str, bare: str | None = None) -> None:
        click.echo(f"error: {name}: {text}", err=True)
        # the JSON text without the line, which has its own key (``bare``)
        errors.append({"file": name, "game": game_no, "line": line, "error": bare or text})

    if not items:
        if as_json:
            error(None, None, "no game in the file")
            click.echo(json.dumps({"games": [], "errors": errors, "partial": False}, indent=2))
            sys.exit(1)
        _fail(f"{name}: no game in the file")
    failed = False
    done: list[GameRecord] = []
    docs = []
    console = Console()
    with Signals() as sig:
        try:
            for i, item in enumerate(items, start=1):
                if isinstance(item, RecordError):
                    error(None, item.line, str(item), field_error(item))
                    failed = True
                    continue
                if not item.hands:
                    error(i, item.line, f"game {i} (line {item.line}) has tags but no "
                                        "hand: nothing to annotate")
                    failed = True
                    continue
                if objective == "match":
                    if _annotate_match(item, i, name, view, samples, seed, marks, as_json,
                                       as_record, all_plays, len(items), docs, done, console,
                                       time_budget, error):
                        failed = True
                    continue
                try:
                    an = annotate(item, view=view, samples=samples, seed=seed, method=method,
                                  thresholds=marks, luck_samples=luck_samples, jobs=jobs,
                                  time_budget=time_budget,
                                  progress=_progress(quiet, f"game {i}: evaluations"))
                except (CompileError, ValueError) as err:
                    error(i, None, f"game {i}: {err}")
                    failed = True
                    continue
                done.append(an.record)
                if as_json:
                    docs.append(annotation_json(an))
                elif not as_record:
                    title = f"{name}, game {i}" if len(items) > 1 else name
                    console.print(annotation_renderable(an, title, all_plays))
        except KeyboardInterrupt as err:
            sig.caught(err)
        if as_json:
            click.echo(json.dumps({"games": docs, "errors": errors, "partial": sig.interrupted},
                                  indent=2))
        elif as_record and done:
            sys.stdout.write(dumps_all(done))
        if out is not None and done:
            _write(out, dumps_all(done), force)
        if sig.interrupted:
            where = f" (written to {out})" if out is not None and done else ""
            sig.exit(f"{len(done)} of {len(items)} games annotated{where}")
    if failed:
        sys.exit(1)


def _annotate_match(item, i, name, view, samples, seed, marks, as_json, as_record, all_plays,
                    n_items, docs, done, console, time_budget, error) -> bool:
    """annotate --objective match for one game; True when it failed
    (``error(game, line, text)`` says why)."""
    from ..match_equity.annotate import annotate_match
    from .render_match import match_annotation_json, match_annotation_renderable
    try:
        an = annotate_match(item, view=view, samples=min(samples, 16), seed=seed,
                            thresholds=marks, time_budget=time_budget)
    except (CompileError, ValueError) as err:
        error(i, None, f"game {i}: {err}")
        return True
    done.append(an.record)
    if as_json:
        docs.append(match_annotation_json(an))
    elif not as_record:
        title = f"{name}, game {i}" if n_items > 1 else name
        console.print(match_annotation_renderable(an, title, all_plays))
    return False
