"""``ronda-solve met``: print a shipped match-equity table."""

from __future__ import annotations

import json
import sys

import click
from rich.console import Console

from ..numbers import tidy
from ..rules import PRESETS
from ..runtime.interrupt import stoppable
from .render_match import met_renderable, met_svg
from ..match_equity.table import load


@click.command("met", context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--rules", "rules_name", type=click.Choice(sorted(PRESETS)), default="lmodire",
              show_default=True)
@click.option("--players", type=click.Choice(["2", "4"]), default="2", show_default=True)
@click.option("--target", type=click.IntRange(1), default=None,
              help="Match target (default: the preset's).")
@click.option("--deals", type=click.Choice(["A", "B"]), default="A", show_default=True,
              help="Which side deals the next hand.")
@click.option("--step", type=click.IntRange(1), default=None,
              help="Show every STEP-th score (default: fits 80 columns).")
@click.option("--json", "as_json", is_flag=True, help="The whole table as JSON.")
@click.option("--svg", "svg", type=click.Path(dir_okay=False),
              help="Write a heat map of the table to this SVG file ('-': stdout).")
@stoppable
def met_command(rules_name, players, target, deals, step, as_json, svg) -> None:
    """Print a match-equity table: P(side A wins the match) from each score
    (A's points down, B's across), built by self-play (docs/match.md)."""
    try:
        t = load(rules_name, int(players), target)
    except ValueError as e:
        click.echo(f"error: {e}", err=True)
        sys.exit(2)
    a_deals = deals == "A"
    if svg:
        text = met_svg(t, a_deals)
        if svg == "-":
            sys.stdout.write(text)
        else:
            from ..runtime.output import OutputError, write_output
            try:
                write_output(svg, text, force=True)
            except OutputError as e:
                click.echo(f"error: {e}", err=True)
                sys.exit(2)
        return
    if as_json:
        json.dump(tidy(t.to_json()), sys.stdout)
        sys.stdout.write("\n")
        return
    step = step or max(1, -(-t.target // 20))
    Console(soft_wrap=False).print(met_renderable(t, a_deals, step))
