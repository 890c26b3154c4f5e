"""``ronda-solve met``: print a shipped match-equity table."""

from __future__ import annotations

import json
import sys

import click
from rich.console import Console

from ..numbers import tidy
from ..rules import PRESETS
from ..runtime.interrupt import stoppable
from .params import Whole, one_target, settings_of
from .render_match import met3_renderable, met_renderable, met_svg
from ..match_equity.table import MatchTable3, load


@click.command("met", context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--rules", "rules_name", type=click.Choice(sorted(PRESETS)), default="lmodire",
              show_default=True)
@click.option("--set", "settings", multiple=True, metavar="NAME=VALUE",
              help="A rule parameter other than the preset's (repeatable): voleur=yes, "
                   "decl_cumulative=yes.")
@click.option("--players", type=click.Choice(["2", "3", "4"]), default="2", show_default=True)
@click.option("--target", type=Whole(1), default=None,
              help="Match target (default: the preset's); any up to the table's limit.")
@click.option("--deals", default=None,
              help="Who deals the next hand: A or B [default: A]; three players: S, E or N "
                   "[default: N].")
@click.option("--third", type=Whole(0), default=0, show_default=True,
              help="Three players: N's score (the table shows S down, E across).")
@click.option("--step", type=Whole(1), default=None,
              help="Show every STEP-th score (default: fits 80 columns).")
@click.option("--json", "as_json", is_flag=True, help="The whole table as JSON.")
@click.option("--svg", "svg", type=click.Path(dir_okay=False),
              help="Write a heat map of the table to this SVG file ('-': stdout).")
@click.option("--force", is_flag=True, help="Overwrite the --svg file.")
@stoppable
def met_command(rules_name, settings, players, target, deals, third, step, as_json,
                svg, force) -> None:
    """Print a match-equity table: P(side A wins the match) from each score
    (A's points down, B's across), built by self-play (docs/match.md).
    Three players: each seat's chance, S's score down, E's across."""
    from .batch import _system
    players = int(players)
    if svg is not None and svg != "-":
        # checked before the table is read, as every -o file is
        from ..runtime.output import OutputError, check_output
        try:
            check_output(svg, force)
        except OutputError as e:
            click.echo(f"error: {e}", err=True)
            sys.exit(2)
    try:
        over = settings_of(settings)
        one_target(over, target)
        system = _system(rules_name, settings, players)
        if target is None and "target" in over:
            target = int(over["target"])
        t = load(system, players, target)
    except ValueError as e:
        click.echo(f"error: {e}", err=True)
        sys.exit(2)
    if isinstance(t, MatchTable3):
        seats = {"S": 0, "E": 1, "N": 2}
        if (deals or "N") not in seats:
            click.echo(f"error: --deals: three players deal from S, E or N, not {deals!r}",
                       err=True)
            sys.exit(2)
        if third >= t.target:
            click.echo(f"error: --third: {third} is not below the target {t.target}", err=True)
            sys.exit(2)
        dealer = seats[deals or "N"]
        if svg is not None:
            click.echo("error: --svg draws two-sided tables only", err=True)
            sys.exit(2)
        if as_json:
            doc = t.to_json()
            doc.update({"third": third, "dealer": deals or "N",
                        "chances": t.grid(third, dealer).round(6).tolist()})
            json.dump(tidy(doc), sys.stdout)
            sys.stdout.write("\n")
            return
        step = step or max(1, -(-t.target // 12))
        Console(soft_wrap=False).print(met3_renderable(t, third, dealer, step))
        return
    if third:
        # (it printed the two-sided table as if --third were not given)
        click.echo("error: --third: the third seat's score is for three players "
                   "(--players 3)", err=True)
        sys.exit(2)
    if (deals or "A") not in ("A", "B"):
        click.echo(f"error: --deals: A or B, not {deals!r}", err=True)
        sys.exit(2)
    a_deals = (deals or "A") == "A"
    if svg is not None:
        text = met_svg(t, a_deals)
        if svg == "-":
            sys.stdout.write(text)
        else:
            from ..runtime.output import OutputError, write_output
            try:
                write_output(svg, text, force=force)
            except OutputError as e:
                click.echo(f"error: {e}", err=True)
                sys.exit(2)
            # as the puzzle sheet says it ("192 puzzles drawn in FILE")
            click.echo(f"the table to {t.target} ({'A' if a_deals else 'B'} deals) drawn in {svg}",
                       err=True)
        return
    if as_json:
        json.dump(tidy(t.to_json()), sys.stdout)
        sys.stdout.write("\n")
        return
    step = step or max(1, -(-t.target // 20))
    Console(soft_wrap=False).print(met_renderable(t, a_deals, step))
