"""Match-equity tables and match annotations for people and machines:
rich tables, JSON documents, an SVG heat map. Nothing here computes. (A
position answered for the match is drawn by :mod:`.render` and written by
:mod:`solver.analysis.document`, as any other answer.)"""

from __future__ import annotations

from rich.console import Group
from rich.table import Table
from rich.text import Text

from ..match_equity.table import MatchTable
from ..numbers import apportion, percent as _pct, percent_gap, signed, tenths, tidy


def _swing(shown_tenths: int) -> str:
    """A swing in points of percentage from the tenths of a percent of the
    chances as printed (``+39.0``, ``-1.0``, ``0.0``)."""
    return signed(shown_tenths / 10, ".1f")


def _origin(t) -> Text:
    """Where a table came from, its checks, in a few dim lines."""
    notes = Text(f"{t.hands:,} self-play hands by {t.player} on every seat; needs up to "
                 f"{t.limit} (any target to {t.limit}); rebuilt by: {t.command}\n", style="dim")
    for e in t.intervals:
        if e.get("target") != t.target:
            continue
        if "a" in e:
            line = (f"{e['a']:>2}-{e['b']:<2} {'A' if e['a_deals'] else 'B'} deals: "
                    f"{100 * e['equity']:.1f}% (95% {100 * e['ci95'][0]:.1f}-"
                    f"{100 * e['ci95'][1]:.1f})")
            if "simulated" in e:
                s = e["simulated"]
                line += (f"; direct simulation of {s['matches']:,} matches "
                         f"{100 * s['equity']:.1f}% ± {100 * s['se']:.1f}")
        else:
            line = (f"{'-'.join(map(str, e['scores']))}, {'SEN'[e['dealer']]} deals: "
                    + _shares(e["equity"]) + "%")
            if "simulated" in e:
                s = e["simulated"]
                line += (f"; direct simulation of {s['matches']:,} matches "
                         + _shares(s["equity"]) + "%")
        notes.append(line + "\n")
    checks = t.meta.get("checks", {})
    for c in checks.get("seeds", []):
        d, where = _check_at(c, t.target)
        notes.append(f"independent builds (seeds {' and '.join(c['seeds'])}, "
                     f"{c['hands'][0]:,} hands each) differ by at most {100 * d['max']:.2f}%, "
                     f"on average {100 * d['mean']:.3f}% {where}\n")
    g = checks.get("greedy")
    if g:
        d, where = _check_at(g, t.target)
        notes.append(f"greedy self-play ({g['hands']:,} hands) differs by at most "
                     f"{100 * d['max']:.2f}%, on average {100 * d['mean']:.2f}% {where}\n")
    return notes


def _shares(chances) -> str:
    """Each seat's chance of the match, ``/``-separated to one decimal and
    adding up to 100 as printed (largest remainders: 33.4/33.3/33.3)."""
    return "/".join(f"{t / 10:.1f}" for t in apportion([float(x) for x in chances], 1000))


def _check_at(check: dict, target: int) -> tuple[dict, str]:
    """A build check's figures for the target shown, and what they cover:
    the target's own figures when the check was made at it, else the whole
    table's (every score to its limit) or the target it was made at."""
    d = check["at_target"]
    if d["target"] == target:
        return d, f"(to {target})"
    if "at_limit" in check:
        return check["at_limit"], f"(checked over the whole table, to {check['at_limit']['target']})"
    return d, f"(checked to {d['target']})"


def _scores(T: int, step: int) -> list[int]:
    scores = list(range(0, T, step))
    if scores[-1] != T - 1:
        scores.append(T - 1)
    return scores


def met_renderable(t: MatchTable, a_deals: bool, step: int = 1) -> Group:
    """The table as rows (A's score) and columns (B's score), percent."""
    T = t.target
    grid = t.grid(a_deals)
    scores = _scores(T, step)
    tab = Table(title=f"P(A wins the match), {t.rules} {t.players}p to {T}, "
                      f"{'A' if a_deals else 'B'} deals next", header_style="bold",
                show_edge=False, pad_edge=False, padding=(0, 0))
    tab.add_column("A\\B", justify="right", style="bold")
    for b in scores:
        tab.add_column(str(b), justify="right")
    for a in scores:
        tab.add_row(str(a), *[f"{round(100 * grid[a, b]):3d}" for b in scores])
    return Group(tab, _origin(t))


def met3_renderable(t, third: int, dealer: int, step: int = 1) -> Group:
    """Three players: each seat's chance, S's score down, E's across, N
    on ``third``, one table a seat."""
    T = t.target
    grid = t.grid(third, dealer)
    scores = _scores(T, step)
    # each cell's three chances in whole percents adding up to 100
    cells = {(a, b): apportion([float(grid[a, b, k]) for k in range(3)], 100)
             for a in scores for b in scores}
    parts = []
    for k, seat in enumerate("SEN"):
        tab = Table(title=f"P({seat} wins), {t.rules} 3p to {T}, N on {third}, "
                          f"{'SEN'[dealer]} deals", header_style="bold",
                    show_edge=False, pad_edge=False, padding=(0, 0))
        tab.add_column("S\\E", justify="right", style="bold")
        for b in scores:
            tab.add_column(str(b), justify="right")
        for a in scores:
            tab.add_row(str(a), *[f"{cells[a, b][k]:3d}" for b in scores])
        parts.append(tab)
    return Group(*parts, _origin(t))


def met_svg(t: MatchTable, a_deals: bool, cell: int = 14) -> str:
    """A heat map of the table as an SVG document: A's score down, B's
    across, colour from red (A loses) through white to blue (A wins)."""
    T = t.target
    grid = t.grid(a_deals)
    m = 40
    size = m + cell * T + 10
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{size}" height="{size + 20}" '
           f'font-family="sans-serif" font-size="9">',
           f'<text x="{m}" y="14" font-size="12">P(A wins), {t.rules} {t.players}p to {T}, '
           f'{"A" if a_deals else "B"} deals next ({t.hands:,} hands)</text>']
    for a in range(T):
        for b in range(T):
            p = float(grid[a, b])
            if p >= 0.5:
                k = int(255 * (1 - 2 * (p - 0.5)))
                colour = f"rgb({k},{k},255)"
            else:
                k = int(255 * (2 * p))
                colour = f"rgb(255,{k},{k})"
            out.append(f'<rect x="{m + cell * b}" y="{m + cell * a}" width="{cell}" '
                       f'height="{cell}" fill="{colour}"><title>{a}-{b}: {100 * p:.1f}%'
                       f'</title></rect>')
    for i in range(0, T, 5):
        out.append(f'<text x="{m + cell * i + 2}" y="{m - 4}">{i}</text>')
        out.append(f'<text x="4" y="{m + cell * i + cell - 3}">{i}</text>')
    out.append(f'<text x="{m}" y="{size + 14}">rows: A\'s score; columns: B\'s score</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def match_annotation_renderable(an, title: str, all_plays: bool = False) -> Group:
    """The plays valued for the match (marked ones, or all with
    ``all_plays``), each hand's swing, and the per-player summary."""
    from ..position import seat_names, side_names
    names = seat_names(an.record.players)
    sides = side_names(an.record.players)
    t = Table(title=f"{title}: match objective ({an.view} view)", header_style="bold",
              show_edge=False, title_justify="left")
    for col in ("play", "seat", "card", "win match", "best", "lost", "mark"):
        t.add_column(col, justify="right" if col in ("win match", "lost") else "left")
    shown = 0
    for n in an.notes:
        if n.status != "evaluated" or (not all_plays and not n.mark):
            continue
        shown += 1
        t.add_row(f"{n.hand}.{n.deal}.{n.number}", names[n.seat], n.card,
                  ("~" if n.cut and an.time_budget is not None else "") + _pct(n.chance),
                  f"{n.best} {_pct(n.best_chance)}",
                  percent_gap(n.best_chance, n.chance) if n.loss else "", n.mark,
                  style="bold red" if n.mark == "??" else None)
    t.caption = ("play: hand.deal.play; win match: the mover's side's chance of winning "
                 "the match after the play; best: the best play and its chance; lost: the "
                 "chance given up" + ("" if shown else "; no play marked"))
    t.caption_justify = "left"
    h = Table(title="match-equity swing of each hand", header_style="bold", show_edge=False)
    for col in ("hand", "score before", "score after", f"{sides[0]} before",
                f"{sides[0]} after", "swing"):
        h.add_column(col, justify="right")
    # each hand's swing is its printed after less its printed before, so
    # the columns add up as read, and a side's swing is the printed swings'
    # sum; a seat's lost its plays' printed losses summed; a side's luck
    # its swing plus its printed chance lost less the other side's (the
    # JSON keeps the unrounded figures)
    swing0 = 0
    for x in an.hands:
        swing = tenths(x.after) - tenths(x.before)
        swing0 += swing
        h.add_row(str(x.hand), "-".join(map(str, x.score_before)),
                  "-".join(map(str, x.score_after)), _pct(x.before), _pct(x.after),
                  _swing(swing))
    s = Table(title="players", header_style="bold", show_edge=False, title_justify="left")
    rows = an.summary()
    big = any(r["too_big"] for r in rows)
    # a seat's chance lost: its plays' printed losses summed (the plays
    # table's lost column), in tenths of a percent
    seat_lost = [0] * len(rows)
    for n in an.notes:
        if n.status == "evaluated" and n.loss:
            seat_lost[n.seat] += max(0, tenths(n.best_chance) - tenths(n.chance))
    side0 = rows[0]["side"]
    lost = {r["side"]: 0 for r in rows}
    for r, t_lost in zip(rows, seat_lost):
        lost[r["side"]] += t_lost
    cols = ["seat", "evaluated", "out of reach"] + (["too big"] if big else []) + \
        ["?! ? ??", "lost", "swing", "luck"]
    for col in cols:
        s.add_column(col, justify="left" if col == "seat" else "right")
    for r, t_lost in zip(rows, seat_lost):
        shown_lost = "<0.1%" if t_lost == 0 and r["chance_lost"] > 1e-12 else f"{t_lost / 10:.1f}%"
        s.add_row(r["seat"], str(r["evaluated"]), str(r["out_of_reach"]),
                  *([str(r["too_big"])] if big else []),
                  f"{r['?!']} {r['?']} {r['??']}", shown_lost,
                  *_side_swing_luck(r["side"], side0, swing0, lost))
    s.caption = ("players: " + ", ".join(f"{r['seat']} {r['player']}" for r in rows)
                 + "; lost: chance of winning given up, summed; swing, luck: the side's, in "
                   "points of percentage")
    s.caption_justify = "left"
    th = an.thresholds
    note = Text(f"marks by loss of match-winning chance: ?! from {_pct(th.doubtful)}, ? from "
                f"{_pct(th.bad)}, ?? from {_pct(th.very_bad)}; plays where the match cannot "
                f"end in the hand are out of reach (see the points annotation); table "
                f"{an.table.rules} {an.table.players}p to {an.table.target}, "
                f"{an.table.hands:,} hands of {an.table.player}; {an.seconds:.1f} s",
                style="dim")
    from .render_games import full_width
    if an.time_budget is not None:
        return full_width(t, h, s, note, Text(match_budget_line(an)))
    return full_width(t, h, s, note)


def _side_swing_luck(side: str, side0: str, swing0: int, lost: dict[str, int]) -> list[str]:
    """A side's swing and luck as the players table prints them, from the
    printed figures (tenths of a percent): side 0's swing the hands'
    printed swings summed, the other side's its opposite; the luck the
    swing plus the side's printed chance lost less the other side's."""
    swing = swing0 if side == side0 else -swing0
    others = sum(v for k, v in lost.items() if k != side)
    return [_swing(swing), _swing(swing + lost[side] - others)]


def match_budget_line(an) -> str:
    """What ``--time`` cut short in a match annotation: the evaluated plays
    whose sampling it stopped (their chances estimates, ``~``) and those
    whose search did not finish at all (too big)."""
    evaluated = [n for n in an.notes if n.status == "evaluated"]
    cut = sum(1 for n in evaluated if n.cut)
    big = sum(1 for n in an.notes if n.status == "too big")
    text = (f"--time {an.time_budget:g} s a play: {cut} of {len(evaluated)} evaluated plays "
            "cut short (~: an estimate)")
    if big:
        text += f"; {big} not evaluated (too big for the time)"
    return text


def match_annotation_json(an) -> dict:
    """The JSON document of a match annotation (probabilities to 6 decimals)."""
    from ..position import seat_names
    names = seat_names(an.record.players)

    def r(x):
        return None if x is None else round(x, 6)
    th = an.thresholds
    return tidy({
        "objective": "match", "view": an.view, "tags": dict(an.record.tags),
        "thresholds": {"?!": th.doubtful, "?": th.bad, "??": th.very_bad},
        "table": {"rules": an.table.rules, "players": an.table.players,
                  "target": an.table.target, "hands": an.table.hands,
                  "player": an.table.player},
        "plays": [{"hand": n.hand, "deal": n.deal, "play": n.number, "seat": names[n.seat],
                   "card": n.card, "status": n.status, "chance": r(n.chance),
                   "best": n.best, "best_chance": r(n.best_chance), "loss": r(n.loss),
                   "mark": n.mark, "moves": [{"move": m, "chance": r(c)} for m, c in n.moves],
                   **({"cut": n.cut} if an.time_budget is not None else {})}
                  for n in an.notes],
        "hands": [{"hand": x.hand, "score_before": x.score_before, "score_after": x.score_after,
                   "before": r(x.before), "after": r(x.after), "swing": r(x.swing)}
                  for x in an.hands],
        "players": [{k: (r(v) if isinstance(v, float) else v) for k, v in row.items()}
                    for row in an.summary()],
        **({"time": an.time_budget} if an.time_budget is not None else {}),
        "seconds": round(an.seconds, 3),
    })
