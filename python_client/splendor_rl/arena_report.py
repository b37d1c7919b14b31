"""The arena's report: ratings (openskill's Plackett-Luce), the pairwise matrix with Wilson intervals, score
margins and game lengths, from the games' records (arena.game_record); as a dict (arena.json), CSV files, a PNG
and a summary for people. Everything here is a function of the records in game order, so the same games give the
same report byte for byte."""

from __future__ import annotations

import csv
import itertools
import json
import os
from statistics import NormalDist
from typing import Sequence

from openskill.models import PlackettLuce

from .evaluate import wilson

Z95 = NormalDist().inv_cdf(0.975)  # mu ± Z95 sigma: the 95% interval of a normal belief


def rate(names: Sequence[str], records: Sequence[dict]) -> dict[str, tuple[float, float]]:
    """(mu, sigma) per entrant: one Plackett-Luce match per game, in game order, each seat a team of one ranked by
    its place (shared places are ties). tau=0: an entrant's strength does not drift during the arena, so its
    uncertainty may keep shrinking with more games."""
    model = PlackettLuce(tau=0)
    ratings = {name: model.rating(name=name) for name in names}
    for record in records:
        teams = model.rate([[ratings[name]] for name in record["seats"]], ranks=record["places"])
        for name, [rating] in zip(record["seats"], teams):
            ratings[name] = rating
    return {name: (r.mu, r.sigma) for name, r in ratings.items()}


def entrant_rows(entrants: Sequence[dict], records: Sequence[dict]) -> list[dict]:
    """The ratings table, best mu first: rating with a 95% interval (mu ± 1.96 sigma), games, wins, seats played,
    and means over the entrant's games of its points, its margin over the others' mean and the game's length."""
    ratings = rate([e["name"] for e in entrants], records)
    rows = []
    for entrant in entrants:
        name = entrant["name"]
        mine = [(r, r["seats"].index(name)) for r in records if name in r["seats"]]
        mu, sigma = ratings[name]
        seats = [0] * max((len(r["seats"]) for r, _ in mine), default=0)
        for _, seat in mine:
            seats[seat] += 1
        rows.append({"name": name, "kind": entrant["kind"], "source": entrant["source"], "mu": mu, "sigma": sigma,
                     "low": mu - Z95 * sigma, "high": mu + Z95 * sigma, "games": len(mine),
                     "wins": sum(seat in r["winners"] for r, seat in mine), "seats": seats,
                     "mean_points": mean(r["points"][seat] for r, seat in mine),
                     "mean_margin": mean(margin_over_others(r["points"], seat) for r, seat in mine),
                     "mean_decisions": mean(r["decisions"] for r, _ in mine)})
    rows.sort(key=lambda row: -row["mu"])
    return [{"rank": rank, **row} for rank, row in enumerate(rows, 1)]


def margin_over_others(points: Sequence[int], seat: int) -> float:
    others = [p for s, p in enumerate(points) if s != seat]
    return points[seat] - sum(others) / len(others)


def mean(values) -> float:
    values = list(values)
    return sum(values) / len(values) if values else 0.0


def pairwise(names: Sequence[str], records: Sequence[dict]) -> list[dict]:
    """For every ordered pair (A, B) that sat at one table: in how many of those games A finished ahead of B,
    behind, or tied; A's score rate (ties count half, so rate(A, B) + rate(B, A) = 1) with a 95% Wilson
    interval; and A's mean points minus B's."""
    tally = {(a, b): [0, 0, 0, 0] for a, b in itertools.permutations(names, 2)}  # ahead, behind, tied, margin
    for record in records:
        for sa, sb in itertools.permutations(range(len(record["seats"])), 2):
            counts = tally[record["seats"][sa], record["seats"][sb]]
            pa, pb = record["places"][sa], record["places"][sb]
            counts[0 if pa < pb else 1 if pa > pb else 2] += 1
            counts[3] += record["points"][sa] - record["points"][sb]
    rows = []
    for (a, b), (ahead, behind, tied, margin) in tally.items():
        games = ahead + behind + tied
        if games:
            low, high = wilson(ahead + tied / 2, games)
            rows.append({"entrant": a, "opponent": b, "games": games, "ahead": ahead, "behind": behind,
                         "tied": tied, "rate": (ahead + tied / 2) / games, "low": low, "high": high,
                         "mean_margin": margin / games})
    return rows


def build_report(run: dict, records: Sequence[dict]) -> dict:
    """arena.json: the arguments that decided the games (`run`), totals, ratings, the pairwise table and every
    game's record."""
    names = [e["name"] for e in run["entrants"]]
    totals = {"games": len(records), "truncated": sum(r["truncated"] for r in records),
              "mean_decisions": mean(r["decisions"] for r in records),
              "tables": len({r["table"] for r in records})}
    return {"run": run, "totals": totals, "ratings": entrant_rows(run["entrants"], records),
            "pairwise": pairwise(names, records), "games": list(records)}


def write_files(report: dict, out: str) -> list[str]:
    """arena.json, ratings.csv, pairwise.csv, games.csv and arena.png in `out`; their paths."""
    os.makedirs(out, exist_ok=True)
    paths = [os.path.join(out, name) for name in
             ("arena.json", "ratings.csv", "pairwise.csv", "games.csv", "arena.png")]
    with open(paths[0], "w") as f:
        json.dump(report, f, indent=1)
        f.write("\n")
    write_csv(paths[1], [spread(row, "seats", "games_seat") for row in report["ratings"]])
    write_csv(paths[2], report["pairwise"])
    write_csv(paths[3], [game_columns(r) for r in report["games"]])
    plot(report, paths[4])
    return paths


def spread(row: dict, key: str, prefix: str) -> dict:
    """`row` with its list `key` spread over columns prefix0, prefix1… (one per seat), for CSV."""
    out = {k: v for k, v in row.items() if k != key}
    out.update({f"{prefix}{seat}": value for seat, value in enumerate(row[key])})
    return out


def game_columns(record: dict) -> dict:
    """A game as one CSV row: entrant, points and place of each seat; who won follows from the places."""
    row = {k: v for k, v in record.items() if k != "winners"}
    for key, prefix in (("seats", "entrant"), ("points", "points"), ("places", "place")):
        row = spread(row, key, prefix)
    return row


def write_csv(path: str, rows: list[dict]) -> None:
    with open(path, "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[0]) if rows else [])
        writer.writeheader()
        writer.writerows(rows)


def plot(report: dict, path: str) -> None:
    """The pairwise score rates as a heat map beside the ratings with their intervals. A Figure with its own Agg
    canvas (not pyplot) draws without a display and leaves the user's matplotlib backend alone."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    names = [row["name"] for row in report["ratings"]]
    fig = Figure(figsize=(6 + 0.9 * len(names), 0.6 * len(names) + 3), layout="constrained")
    FigureCanvasAgg(fig)
    matrix_axes, ratings_axes = fig.subplots(1, 2, width_ratios=[len(names) + 1, 4])
    draw_matrix(matrix_axes, names, report["pairwise"])
    draw_ratings(ratings_axes, report["ratings"])
    fig.savefig(path, dpi=100)


def draw_matrix(ax, names: list[str], pairs: list[dict]) -> None:
    import numpy as np

    rates = np.full((len(names), len(names)), np.nan)
    for p in pairs:
        rates[names.index(p["entrant"]), names.index(p["opponent"])] = p["rate"]
    image = ax.imshow(rates, cmap="RdBu", vmin=0, vmax=1)
    for (i, j), value in np.ndenumerate(rates):
        if not np.isnan(value):
            # Dark text on the pale middle of the colour map, white on its dark ends.
            ax.text(j, i, f"{100 * value:.0f}%", ha="center", va="center", fontsize=9,
                    color="white" if abs(value - 0.5) > 0.3 else "black")
    ax.set_xticks(range(len(names)), names, rotation=45, ha="right")
    ax.set_yticks(range(len(names)), names)
    ax.set_title("row finished ahead of column\n(ties count half)", fontsize=9)
    ax.figure.colorbar(image, ax=ax, shrink=0.7)


def draw_ratings(ax, rows: list[dict]) -> None:
    y = range(len(rows))
    mus = [r["mu"] for r in rows]
    spans = [[r["mu"] - r["low"] for r in rows], [r["high"] - r["mu"] for r in rows]]
    ax.errorbar(mus, y, xerr=spans, fmt="o", capsize=4)
    ax.set_yticks(y, [r["name"] for r in rows])
    ax.set_ylim(len(rows) - 0.5, -0.5)  # best on top, rows as far apart as the matrix's
    ax.set_xlabel("openskill mu (95% interval)")
    ax.set_title("ratings", fontsize=9)


def plural(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"


def summary(report: dict, files: Sequence[str] = ()) -> str:
    """The report for people: one line on the games, the ratings table, the pairwise matrix."""
    run, totals = report["run"], report["totals"]
    lines = [f"{run['env']}, {run['players']} players, {run['format']}"
             + (f" (hero {run['hero']})" if run["format"] == "gauntlet" else "")
             + f": {plural(totals['tables'], 'table')} × {plural(run['deals'], 'deal')} × "
             f"{plural(run['players'], 'rotation')} = "
             f"{totals['games']} games, {totals['truncated']} truncated, "
             f"{totals['mean_decisions']:.1f} decisions a game", ""]
    lines += ratings_table(report["ratings"]) + [""] + matrix_tables(report)
    if files:
        lines += ["", "wrote " + ", ".join(files)]
    return "\n".join(lines)


def ratings_table(rows: list[dict]) -> list[str]:
    width = max(len("entrant"), *(len(r["name"]) for r in rows))
    lines = [f"rank  {'entrant':<{width}}  {'mu':>6}  {'sigma':>5}  {'95% interval':>13}  {'games':>5}  "
             f"{'wins':>5}  {'points':>6}  {'margin':>6}  {'length':>6}"]
    for r in rows:
        lines.append(f"{r['rank']:>4}  {r['name']:<{width}}  {r['mu']:6.2f}  {r['sigma']:5.2f}  "
                     f"{r['low']:6.2f}–{r['high']:6.2f}  {r['games']:>5}  {r['wins']:>5}  {r['mean_points']:6.2f}  "
                     f"{r['mean_margin']:+6.2f}  {r['mean_decisions']:6.1f}")
    return lines


def matrix_tables(report: dict) -> list[str]:
    """The pairwise score rates and mean score margins, entrants in rating order."""
    names = [r["name"] for r in report["ratings"]]
    rates = {(p["entrant"], p["opponent"]): f"{100 * p['rate']:.0f}% ({100 * p['low']:.0f}–{100 * p['high']:.0f})"
             for p in report["pairwise"]}
    margins = {(p["entrant"], p["opponent"]): f"{p['mean_margin']:+.2f}" for p in report["pairwise"]}
    return (matrix("row finished ahead of column (ties count half), 95% Wilson interval:", names, rates) + [""]
            + matrix("mean points of row minus column:", names, margins))


def matrix(title: str, names: list[str], cells: dict[tuple[str, str], str]) -> list[str]:
    width = max(len(n) for n in names)
    cell = max(width, *(len(c) for c in cells.values()))
    lines = [title, " " * width + "".join(f"  {n:>{cell}}" for n in names)]
    for a in names:
        lines.append(f"{a:<{width}}" + "".join(f"  {cells.get((a, b), '-'):>{cell}}" for b in names))
    return lines
