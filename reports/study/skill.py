"""The study report's "fair starting VP by skill" section: per player count the verdict's
sentence, the chart of each skilled population at its ladder rating with its fair
compensation per seat, and the table. The figures and the verdict are
``cdsim.analysis.skill``'s (see there, and docs/statistics.md, for what they claim); this
module gathers a study's cells for them, reads the ratings file and lays the section out.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cdsim.analysis.skill import (
    Point,
    cross_unfair,
    order,
    point,
    population_rating,
    unfair_level,
    verdict,
)
from cdsim.players.registry import STRATEGIES_DIR
from cdsim.study.store import run_folder
from reports import charts
from reports.charts import SkillRow
from reports.fmt import pp, vec
from reports.report import Doc

if TYPE_CHECKING:
    from reports.study.cell import CellResult

RATINGS = STRATEGIES_DIR / "ratings.json"


# -- the ratings file -------------------------------------------------------------------------

def load_ratings(path: Path = RATINGS) -> dict[str, Any]:
    """The ratings file's ``players`` table ({} when there is none)."""
    if not path.is_file():
        return {}
    table: dict[str, Any] = json.loads(path.read_text()).get("players", {})
    return table


# -- per player count -------------------------------------------------------------------------

@dataclass(frozen=True)
class Panel:
    players: int
    points: tuple[Point, ...]  # weakest first
    kind: str
    sentence: str
    unfair: dict[tuple[str, str], bool]
    level: float
    ladder: dict[str, Any] | None  # the ratings file's entry for this player count
    notes: tuple[str, ...]


def members(cell: CellResult) -> tuple[str, ...]:
    return tuple(dict.fromkeys([n for x in cell.lineups for n in x] + list(cell.pool)))


def played_weights(root: Path, cell: CellResult) -> dict[str, str]:
    """The learned weights digest each learned spelling played (the run manifests)."""
    out: dict[str, str] = {}
    for runs in cell.stage_runs:
        for key in runs:
            path = run_folder(root, key) / "manifest.json"
            if path.is_file():
                for spec, w in json.loads(path.read_text()).get("weights", {}).items():
                    out[spec] = str(w.get("digest", ""))
    return out


def panels(root: Path, cells: Sequence[CellResult], players: Sequence[int], tolerance: float,
           alpha: float, ratings: Mapping[str, Any] | None = None) -> dict[int, Panel]:
    """One panel per player count with a skilled base cell."""
    table = load_ratings() if ratings is None else ratings
    level = unfair_level(alpha)
    out: dict[int, Panel] = {}
    for p in players:
        skilled = [c for c in cells if c.players == p and not c.floor and c.variant is None]
        if not skilled:
            continue
        ladder = table.get(str(p))
        pts, notes = [], []
        for c in skilled:
            names = members(c)
            rating = population_rating(ladder, names)
            note = ""
            measured = (ladder or {}).get("weights", {})
            for spec, digest in played_weights(root, c).items():
                if spec in measured and measured[spec].get("digest") != digest:
                    note = (f"{c.population} played {spec} with weights {digest[:12]}, the ladder "
                            f"rated weights {str(measured[spec].get('digest'))[:12]}: its rating "
                            "may not describe the player that played (make ratings)")
                    notes.append(note)
            if rating is None:
                notes.append(f"{c.population} has no rating (" + (
                    f"the {p}-player ladder did not rate "
                    + ", ".join(n for n in names if n not in (ladder or {}).get("ratings", {}))
                    if ladder else f"no {p}-player ladder in strategies/ratings.json")
                    + "): drawn apart, at no rating position")
            pts.append(point(c, rating, tolerance, level, note))
        unfair = cross_unfair(skilled, tolerance, level)
        kind, sentence = verdict(p, pts, unfair, tolerance)
        out[p] = Panel(p, tuple(order(pts)), kind, sentence, unfair, level, ladder, tuple(notes))
    return out


def as_json(panel: Panel) -> dict[str, Any]:
    ladder = panel.ladder or {}
    return {
        "verdict": panel.kind, "sentence": panel.sentence, "level": panel.level,
        "ratings_source": {k: ladder.get(k) for k in ("command", "date", "components_digest",
                                                      "weights")} if ladder else None,
        "shown_unfair": [{"vector_of": a, "for": b, "shown_unfair": v}
                         for (a, b), v in panel.unfair.items()],
        "notes": list(panel.notes),
        "populations": [{
            "population": p.population, "members": list(p.rating.members) if p.rating else None,
            "rating": p.rating.value if p.rating else None,
            "rating_interval": [p.rating.low, p.rating.high] if p.rating else None,
            "decision": p.decision, "vector": list(p.vector), "fair_set": [list(v) for v in p.fair_set],
            "games": p.games,
            "compensation": p.comp.tolist(), "compensation_low": p.low.tolist(),
            "compensation_high": p.high.tolist(), "vectors_not_shown_unfair": p.plausible,
        } for p in panel.points]}


# -- the report section -----------------------------------------------------------------------

def _span(p: Point, s: int) -> str:
    lo, hi = int(p.low[s]), int(p.high[s])
    return f"{int(p.comp[s]):+d}" + (f" [{lo:+d}, {hi:+d}]" if (lo, hi) != (p.comp[s],) * 2 else "")


def section(doc: Doc, by_players: Mapping[int, Panel], tolerance: float) -> None:
    """The sentence per player count, the chart (one panel per player count) and a table."""
    if not by_players:
        return
    doc.h("Fair starting VP by skill", 2)
    for panel in by_players.values():
        doc.p(panel.sentence)
    if all(len(panel.points) < 2 for panel in by_players.values()):
        return  # one skilled population per player count: nothing to set side by side
    rows: list[tuple[int, list[SkillRow]]] = []
    for panel in by_players.values():
        rows.append((panel.players, [
            (p.population, p.rating.value if p.rating else None,
             p.rating.low if p.rating else 0.0, p.rating.high if p.rating else 0.0,
             p.comp, p.low, p.high, p.confirmed) for p in panel.points]))
    level = next(iter(by_players.values())).level
    doc.chart("skill", charts.skill(rows),
              "Fair starting VP by skill: for each player count, each skilled population at its "
              "ladder rating (x, Elo; grey bar: 95% interval; the floor is not drawn), and per "
              "seat the starting VP over seat 1 of its decided vector (filled: confirmed fair; "
              "hollow: the most equal vector of an unconfirmed cell). Vertical bars span that "
              "seat's compensation over every vector the data did not show unfair (a pair of "
              f"seats more than ±{pp(tolerance)} apart at level {level:.3f}); a truly fair "
              f"vector falls outside them with chance at most {level:.1%}. If the points for "
              "stronger populations sit higher or lower, the answer moves with skill; the "
              "sentences above say whether that is decided.")
    notes = [n for panel in by_players.values() for n in panel.notes]
    if notes:
        doc.p("Ratings: " + "; ".join(notes) + ".")
    table = []
    for panel in by_players.values():
        for p in panel.points:
            r = p.rating
            table.append([
                f"{panel.players}", p.population,
                f"{r.value:+.0f} [{r.low:+.0f}, {r.high:+.0f}]" if r else "no rating",
                ", ".join(r.members) if r else "-",
                f"{p.decision} {vec(p.vector)}",
                ", ".join(_span(p, s) for s in range(len(p.comp))),
                f"{p.plausible:,}", f"{p.games:,}"])
    doc.table(["players", "population", "rating [95%]", "members", "verdict",
               "seats 2.. over seat 1 [not shown unfair]", "vectors not shown unfair", "games"],
              table)
    ladders = [(panel.players, panel.ladder) for panel in by_players.values() if panel.ladder]
    if ladders:
        doc.p("Ratings measured by " + "; ".join(
            f"`{lad.get('command', '')}` ({lad.get('date', '')}, {lad.get('deals', '?')} deals"
            + "".join(f", {spec} weights {str(w.get('digest', ''))[:12]}"
                      for spec, w in lad.get("weights", {}).items()) + ")"
            for _, lad in ladders) + ".")
    doc.p("A population's rating is the mean of its members' ratings on that player count's "
          "ladder (the ladder's mean is 0), its interval the 2.5–97.5% percentiles of that mean "
          "over the ladder's bootstrap resamples of deals (strategies/ratings.json, `make "
          "ratings`). 'Moves with skill' is said only when one population's confirmed vector "
          "is shown unfair on another's games (or the other has no fair vector); 'does not "
          "move' only when each confirmed vector was also shown fair for the others.")
