"""The study report's "fair starting VP by skill" section: per player count the verdict's
sentence, the chart of each skilled population at its ladder rating with its fair
compensation per seat, and the table. The figures and the verdict are
``cdsim.analysis.skill``'s (see there, and docs/statistics.md, for what they claim), gathered
per player count by ``cdsim.study.skill``; this module lays the section out.
"""

from __future__ import annotations

from collections.abc import Mapping

from cdsim.analysis.fmt import pp, vec
from cdsim.analysis.skill import Point
from cdsim.study.skill import Panel
from reports import charts
from reports.charts import SkillRow
from reports.report import Doc


def as_json(panel: Panel) -> dict[str, object]:
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
    doc.draw("skill", charts.skill, (rows,),
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
