"""The vector to print, in words (``cdsim.analysis.recommend`` chooses it and judges it; see
there and docs/statistics.md for what it claims): the sentence each player count's headline
and answer box lead with, and its study.json record."""

from __future__ import annotations

import math
from collections.abc import Sequence

from cdsim.analysis.fmt import pp, rulebook, vec
from cdsim.analysis.recommend import PopulationGap, Recommendation

# the games a recommendation is chosen on, and those it is judged on (analysis.recommend)
CHOOSING = "the choosing games"
CHOSEN_FROM = "each population's first stage and every other deal after it"
JUDGING = "the other deals after the first stages (games that did not choose it)"


def _gap(gap: float, low: float, high: float) -> str:
    return f"{pp(gap)} (95% interval {100 * low:.1f}–{pp(high)})"


def _names(rec: Recommendation) -> str:
    names = [g.population for g in rec.gaps]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def why(rec: Recommendation, tolerance: float) -> str:
    """Why this vector, by the stated rule."""
    within = f"±{pp(tolerance)}"
    if rec.rule == "fair for every population":
        if len(rec.common) == 1:
            return (f"the only vector shown fair within {within} for every skilled population "
                    f"({_names(rec)}; each confirmation is wrong in at most "
                    f"{rec.confirm_error:.1%} of cells)")
        return (f"of the {len(rec.common)} vectors shown fair within {within} for every skilled "
                f"population ({', '.join(vec(v) for v in rec.common)}; each confirmation is "
                f"wrong in at most {rec.confirm_error:.1%} of cells), the one whose worst seat "
                f"gap over the populations is smallest on {CHOOSING} ({rec.chosen_on:,}: "
                f"{CHOSEN_FROM}), then the fewest starting VP changed from the rulebook's")
    return (f"no vector was shown fair within {within} for every skilled population, so the "
            "least unfair: of the vectors lying seat by seat between each population's three "
            "most equal, the one whose worst seat gap over the populations is smallest, both "
            f"on {CHOOSING} ({rec.chosen_on:,}: {CHOSEN_FROM}), then the fewest starting VP changed "
            "from the rulebook's")


def population_words(g: PopulationGap) -> str:
    """One population's gap at the printed vector and how its own verdict stands."""
    own = (" (shown fair for it)" if g.shown_fair else
           f" (not shown fair for it; its own {g.decision}: {vec(g.own)})" if g.own else
           " (no verdict yet: its stages are unfinished)")
    if not math.isfinite(g.gap):
        return f"{g.population}: not judged (one stage only: no games apart from the choosing ones){own}"
    return f"{g.population} {_gap(g.gap, g.low, g.high)} on {g.games:,} games{own}"


def worst_words(rec: Recommendation) -> str:
    """The worst seat gap over the populations, on games that did not choose the vector."""
    if not rec.judged:
        return ("its worst seat gap over the populations is not given: a population played "
                "one stage only, so it has no games apart from the choosing ones")
    return (f"its worst seat gap over the populations is "
            f"{_gap(rec.worst, rec.worst_low, rec.worst_high)}, on {JUDGING}")


def sentence(rec: Recommendation, tolerance: float) -> str:
    """The recommendation in one paragraph: what to print, why, and how far from fair."""
    return (f"Print **{vec(rec.vector)}** ({rulebook(rec.rulebook)}): {why(rec, tolerance)}; "
            f"{worst_words(rec)}; each population's largest seat gap at it: "
            + "; ".join(population_words(g) for g in rec.gaps) + ".")


def box_lines(rec: Recommendation, tolerance: float) -> list[str]:
    """The answer box's lead group: the vector, why, the worst gap, each population's."""
    return [f"{rulebook(rec.rulebook)} → print **{vec(rec.vector)}**",
            f"why: {why(rec, tolerance)}", worst_words(rec),
            *(population_words(g) for g in rec.gaps)]


def _num(x: float) -> float | None:
    return x if math.isfinite(x) else None


def as_json(rec: Recommendation, tolerance: float, notes: Sequence[str] = ()
            ) -> dict[str, object]:
    """study.json's record of it (``recommendations`` by player count); ``notes``: the
    warnings it carries (a population with a strategy that never wins)."""
    return {"vector": list(rec.vector), "rulebook": list(rec.rulebook), "rule": rec.rule,
            "shown_fair_for_every_population": [list(v) for v in rec.common],
            "worst_gap": _num(rec.worst),
            "worst_gap_interval": ([rec.worst_low, rec.worst_high] if rec.judged else None),
            "chosen_on_games": rec.chosen_on, "confirmation_error": rec.confirm_error,
            "why": why(rec, tolerance), "sentence": sentence(rec, tolerance),
            "populations": [{"population": g.population, "largest_gap": _num(g.gap),
                             "gap_interval": ([g.low, g.high] if math.isfinite(g.gap) else None),
                             "games": g.games, "shown_fair": g.shown_fair,
                             "decision": g.decision, "vector": list(g.own) if g.own else None}
                            for g in rec.gaps], "notes": list(notes)}


__all__ = ["as_json", "box_lines", "population_words", "sentence", "why", "worst_words"]
