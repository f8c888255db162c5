"""Fair starting VP by skill: does the answer move when the players get stronger?

Per player count, each skilled population (never the floor, never a variant) is placed by
its **ladder rating** and drawn with its **fair compensation per seat**:

- *Rating* (x). ``strategies/ratings.json`` (``make ratings``, scripts/ratings.py) holds one
  measured ladder per player count (Elo, the ladder's mean at 0) with the ladder's bootstrap
  resamples. A population's rating is the mean of its distinct members' ratings (scripted =
  mean of greedy, villa, landscape, bread); its 95% interval is the 2.5-97.5 percentiles of
  that mean over the ladder's resamples (the same resampled deals for every member, so
  their correlation is kept). A population with a member the ladder did not rate has no
  rating: it is drawn apart, and the report says so. When the learned weights the study
  played differ from those the ladder measured (digests in the run and ladder manifests),
  the report says that too.
- *Compensation* (y), per seat 2..N: that seat's starting VP minus seat 1's. The point is
  the cell's decided vector (confirmed; otherwise its most equal vector, drawn hollow: not
  confirmed). The bar spans that seat's compensation over the **vectors not shown unfair**
  on all the cell's games: candidates (within the study's radius) none of whose seat pairs
  has a one-sided lower bound on ``|p_i - p_j|`` above the tolerance, at level
  ``alpha * (1 - CONFIRM_SHARE)`` split over the pairs (``anytime.Evidence.shown_unfair``,
  the test behind "no fair vector", looking after each stage). A truly fair vector is
  outside this set with chance at most 2.5% (for the default alpha); the bar is how far the
  data let each seat's compensation range, not a confidence interval of one number.

The one-sentence **verdict** per player count (``verdict``) claims only what is decided:

- *moves with skill*: some population's confirmed vector is shown unfair for another
  population (on that population's games, some seat pair's one-sided lower bound above the
  tolerance, at ``alpha * (1 - CONFIRM_SHARE)`` split over the seat pairs and the ordered
  population pairs tested), or another population's verdict is "no fair vector";
- *does not move*: every skilled population confirmed a vector and each confirmed vector is
  in every other population's set shown fair (its own confirmation games passed it);
- otherwise *not decided at these budgets*, with what would decide it.

See docs/statistics.md, "Fair starting VP by skill", for why these are honest.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from cdsim.analysis.anytime import CONFIRM_SHARE, Evidence, design_groups
from cdsim.analysis.boundary import Mixture
from cdsim.analysis.candidates import CellGames, candidates, pairs, rank_by_gap, win_table
from cdsim.analysis.stats import FloatArray, vec
from cdsim.players.registry import STRATEGIES_DIR
from cdsim.study.cells import run_folder
from reports import charts
from reports.charts import SkillRow
from reports.report import Doc

if TYPE_CHECKING:
    from reports.study_cell import CellResult

RATINGS = STRATEGIES_DIR / "ratings.json"
Vector = tuple[int, ...]


# -- ratings ----------------------------------------------------------------------------------

@dataclass(frozen=True)
class Rating:
    """A population's rating on one ladder: the mean of its members', with a 95% interval."""

    value: float
    low: float
    high: float
    members: tuple[str, ...]


def load_ratings(path: Path = RATINGS) -> dict[str, Any]:
    """The ratings file's ``players`` table ({} when there is none)."""
    if not path.is_file():
        return {}
    table: dict[str, Any] = json.loads(path.read_text()).get("players", {})
    return table


def population_rating(ladder: Mapping[str, Any] | None, members: Sequence[str]) -> Rating | None:
    """The mean of ``members``' ratings on ``ladder`` (one player count's entry of the
    ratings file) and the 2.5-97.5% percentiles of that mean over the ladder's bootstrap
    resamples; None when the ladder is missing or did not rate a member."""
    if not ladder or not members:
        return None
    rated, boot = ladder.get("ratings", {}), ladder.get("resamples", {})
    if any(m not in rated or m not in boot for m in members):
        return None
    mean = np.mean(np.array([boot[m] for m in members], dtype=np.float64), axis=0)
    low, high = np.percentile(mean, [2.5, 97.5])
    return Rating(float(np.mean([rated[m]["rating"] for m in members])), float(low),
                  float(high), tuple(members))


# -- one cell ---------------------------------------------------------------------------------

def not_shown_unfair(stages: CellGames | Sequence[CellGames], vectors: np.ndarray[Any, Any],
                     tol: float, level: float, design_games: int | None = None
                     ) -> np.ndarray[Any, np.dtype[np.bool_]]:
    """Per vector: True unless some seat pair is shown more than ``tol`` apart (each pair at
    ``level / pairs``) by the anytime test behind "no fair vector" (``anytime.Evidence``),
    looking after each stage, so it stays valid however many stages a cell played. Its
    boundary is tightest at ``design_games`` (default: all the games given), a setting."""
    parts = [stages] if isinstance(stages, CellGames) else list(stages)
    games = sum(g.games for g in parts)
    groups = design_groups(parts[0].players, tol, level, games / max(1, sum(g.groups for g in parts)),
                           design_games or games)
    evidence = Evidence(np.arange(len(vectors), dtype=np.int64),
                        Mixture.design(groups, level / len(pairs(parts[0].players))))
    for g in parts:
        evidence.add(win_table(g, vectors), tol, tol)
    return ~evidence.shown_unfair(level)


@dataclass(frozen=True)
class Point:
    """One population at one player count, as the chart and the verdict see it."""

    population: str
    rating: Rating | None
    decision: str  # confirmed | no fair vector | undecided | still playing
    vector: Vector  # the decided vector, or the most equal one
    fair_set: tuple[Vector, ...]
    games: int
    games_needed: int | None
    radius: int
    comp: FloatArray = field(default_factory=lambda: np.zeros(0))  # seats 2..N over seat 1
    low: FloatArray = field(default_factory=lambda: np.zeros(0))
    high: FloatArray = field(default_factory=lambda: np.zeros(0))
    plausible: int = 0  # vectors not shown unfair
    weights_note: str = ""

    @property
    def confirmed(self) -> bool:
        return self.decision == "confirmed"


def point(cell: CellResult, rating: Rating | None, tol: float, level: float,
          weights_note: str = "") -> Point:
    """The cell's decided (or most equal) vector and its compensation bars."""
    d = cell.decision
    games = CellGames.concat(*cell.stages)
    vectors = candidates(cell.rulebook, cell.radius)
    keep = vectors[not_shown_unfair(cell.stages, vectors, tol, level)]
    if d is not None:
        v: Vector = tuple(int(x) for x in d["vector"])
    else:  # still playing: the most equal vector on the games so far
        table = win_table(games, vectors)
        v = tuple(int(x) for x in vectors[int(rank_by_gap(vectors, table.spreads,
                                                              cell.rulebook)[0])])
    comp = np.asarray(v, dtype=np.float64)[1:] - v[0]
    if len(keep):
        span = (keep - keep[:, :1])[:, 1:].astype(np.float64)
        low, high = span.min(axis=0), span.max(axis=0)
    else:
        low, high = comp.copy(), comp.copy()
    return Point(cell.population, rating, d["decision"] if d else "still playing", v,
                 tuple(tuple(int(x) for x in f) for f in (d or {}).get("fair_set") or ()),
                 cell.games, (d or {}).get("games_needed"), cell.radius, comp, low, high,
                 len(keep), weights_note)


# -- the verdict ------------------------------------------------------------------------------

def order(points: Sequence[Point]) -> list[Point]:
    """Weakest first by rating; unrated populations after, in the study's order."""
    rated = sorted((p for p in points if p.rating), key=lambda p: p.rating.value if p.rating else 0)
    return rated + [p for p in points if not p.rating]


def verdict(players: int, points: Sequence[Point], unfair: Mapping[tuple[str, str], bool],
            tol: float) -> tuple[str, str]:
    """(kind, one sentence): kind ``moves``, ``does not move``, ``not decided`` or
    ``one population``. ``points``: the skilled populations' base cells (no floor);
    ``unfair[(a, b)]``: population a's confirmed vector was shown unfair on b's games."""
    head = f"{players} players: "
    pts = order(points)
    if len(pts) < 2:
        name = pts[0].population if pts else "no skilled population"
        return ("one population", head + f"only {name} plays here, so this study cannot say "
                                         "whether the fair starting VP move with skill.")
    tolerance = f"±{100 * tol:.1f} pp"
    moved = []
    for a in pts:
        if not a.confirmed:
            continue
        for b in pts:
            if b is a:
                continue
            if unfair.get((a.population, b.population)):
                moved.append(f"{a.population}'s confirmed {vec(a.vector)} is shown unfair for "
                             f"{b.population} (a seat pair more than {tolerance} apart on its "
                             f"{b.games:,} games)")
            elif b.decision == "no fair vector" and b.radius >= a.radius:  # a's vector searched
                moved.append(f"{a.population}'s {vec(a.vector)} is confirmed fair, while no "
                             f"whole-VP vector within ±{b.radius} VP is fair for {b.population}")
    if moved:
        return "moves", head + "the fair starting VP **move with skill**: " + "; ".join(moved) + "."
    if all(p.confirmed for p in pts) and all(a.vector in b.fair_set for a in pts for b in pts):
        named = ", ".join(f"{p.population} {vec(p.vector)}" for p in pts)
        return ("does not move", head + "the fair starting VP **do not move with skill**: each "
                "population's confirmed vector was also shown fair within "
                f"{tolerance} for the others ({named}).")
    need = []
    for p in pts:
        if p.decision == "still playing":
            need.append(f"{p.population} to finish its stages")
        elif p.decision == "undecided":
            others = [f"{a.population}'s {vec(a.vector)}" for a in pts if a.confirmed]
            need.append(f"{p.population} to confirm a vector (undecided after {p.games:,} "
                        "games; " + (f"about {p.games_needed:,} more games would confirm "
                                     "its most promising vector)" if p.games_needed is not None else
                                     "more games might instead show that no vector is fair "
                                     "for it)")
                        + (f" or more {p.population} games to show {' or '.join(others)} "
                           "unfair for it" if others else ""))
    for a in pts:
        for b in pts:
            if a is not b and a.confirmed and b.confirmed and a.vector not in b.fair_set:
                need.append(f"more {b.population} games, to show {a.population}'s "
                            f"{vec(a.vector)} fair or unfair for {b.population}")
    for b in pts:
        if b.decision == "no fair vector" and any(a.confirmed and a.radius > b.radius for a in pts):
            need.append(f"{b.population} judged at more vectors than its ±{b.radius} VP (its "
                        "players read scores, so re-ranking cannot judge other vectors)")
    need = need or ["more games of each population"]
    return ("not decided", head + "whether the fair starting VP move with skill is **not "
            "decided at these budgets**: it needs " + "; ".join(need) + ".")


def cross_unfair(cells: Sequence[CellResult], tol: float, level: float
                 ) -> dict[tuple[str, str], bool]:
    """For each confirmed cell a and every other cell b: is a's vector shown unfair on b's
    games? Each test at ``level`` split over the ordered pairs tested (Bonferroni)."""
    tests = [(a, b) for a in cells for b in cells if a is not b and a.decision
             and a.decision["decision"] == "confirmed"]
    out: dict[tuple[str, str], bool] = {}
    for a, b in tests:
        assert a.decision is not None
        v = np.asarray([a.decision["vector"]], dtype=np.int64)
        out[(a.population, b.population)] = not bool(
            not_shown_unfair(b.stages, v, tol, level / len(tests))[0])
    return out


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


def panels(root: Path, cells: Sequence[CellResult], players: Sequence[int], tol: float,
           alpha: float, ratings: Mapping[str, Any] | None = None) -> dict[int, Panel]:
    """One panel per player count with a skilled base cell."""
    table = load_ratings() if ratings is None else ratings
    level = alpha * (1 - CONFIRM_SHARE)
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
            pts.append(point(c, rating, tol, level, note))
        unfair = cross_unfair(skilled, tol, level)
        kind, sentence = verdict(p, pts, unfair, tol)
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


def section(doc: Doc, by_players: Mapping[int, Panel], tol: float) -> None:
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
              f"seats more than ±{100 * tol:.1f} pp apart at level {level:.3f}); a truly fair "
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
