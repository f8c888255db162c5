"""The vector to print per player count (cdsim/analysis/recommend.py, its words in
reports/study/recommend.py): rule 1 (fair for every population) and rule 2 (the least
unfair), the games it is chosen on kept apart from those it is judged on, and the worst gap's
95% interval checked by simulation against the exact truth of synthetic games."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np

from cdsim.analysis.anytime import Decision
from cdsim.analysis.candidates import CellGames, win_table
from cdsim.analysis.cell import shares_of
from cdsim.analysis.recommend import recommend, split
from cdsim.study.cell import CellResult
from reports.study import recommend as words
from tests.study_cells import cell_result, verdict

RULE = (8, 9)


def games(shift: int, n: int, seed: int) -> CellGames:
    """2-player games: each seat gains 40-46 VP uniformly, seat 2 ``shift`` more; ties by a
    fair coin (the R10.6 order); one game per deal."""
    rng = np.random.default_rng(seed)
    gained = rng.integers(0, 7, size=(n, 2)) + 40
    gained[:, 1] += shift
    tiebreak = np.array([[0, 1], [1, 0]])[rng.integers(0, 2, size=n)]
    return CellGames(gained, tiebreak, np.arange(n))


def true_gap(shift: int, vector: tuple[int, ...]) -> float:
    """The exact largest seat gap of ``games(shift)`` at ``vector``."""
    a = np.arange(7)[:, None] + vector[0]
    b = np.arange(7)[None, :] + shift + vector[1]
    first = ((a > b).sum() + 0.5 * (a == b).sum()) / 49
    return float(abs(2 * first - 1))


def cell(population: str, stages: list[CellGames], decision: Decision,
         vector: tuple[int, ...], fair_set: tuple[tuple[int, ...], ...] = ()) -> CellResult:
    return cell_result(population, RULE, [("greedy",)], verdict(decision, vector, fair_set),
                       shares_of(win_table(stages[0], [RULE])), stages=stages, radius=4)


def test_the_split_keeps_the_judging_games_apart_from_the_choosing_ones() -> None:
    stages = [games(0, 100, 1), games(0, 300, 2), games(0, 500, 3)]
    choosing, judging = split(stages)
    assert judging is not None
    assert choosing.games + judging.games == 900
    assert choosing.games - 100 in (400, 400 + 1) and judging.games == 400  # every other deal
    assert split(stages[:1]) == (stages[0], None)  # one stage: nothing to judge on


def test_a_vector_fair_for_every_population_is_printed() -> None:
    """Both populations showed 8/8 fair, one also 8/7: 8/8 is the only vector fair for both."""
    a = cell("scripted", [games(0, 2000, 1), games(0, 4000, 2)], "confirmed", (8, 8))
    b = cell("strong", [games(0, 2000, 3), games(0, 4000, 4)], "confirmed", (8, 7),
             ((8, 7), (8, 8)))
    rec = recommend(2, [a, b], alpha=0.05)
    assert rec is not None and rec.vector == (8, 8) and rec.rule == "fair for every population"
    assert rec.common == ((8, 8),) and rec.confirm_error == 0.025
    assert [g.shown_fair for g in rec.gaps] == [True, True]
    assert rec.worst == max(g.gap for g in rec.gaps) and rec.worst_low <= rec.worst <= rec.worst_high
    text = words.sentence(rec, 0.02)
    assert text.startswith("Print **8/8** (rulebook 8/9): the only vector shown fair within ±2.0 pp")
    assert "scripted" in text and "strong" in text and "on the other deals after" in text


def test_without_a_common_fair_vector_the_least_unfair_between_the_populations() -> None:
    """Seat 2 gains 2 VP more for one population, none more for the other: their own fair
    vectors are 8/6 and 8/8; the least unfair over both lies between them, 8/7."""
    a = cell("scripted", [games(0, 4000, 1), games(0, 8000, 2)], "confirmed", (8, 8))
    b = cell("strong", [games(2, 4000, 3), games(2, 8000, 4)], "confirmed", (8, 6))
    rec = recommend(2, [a, b], alpha=0.05)
    assert rec is not None and rec.rule == "least unfair" and rec.common == ()
    assert rec.vector == (8, 7)
    assert [g.shown_fair for g in rec.gaps] == [False, False]
    assert "not shown fair for it; its own confirmed: 8/8" in words.population_words(rec.gaps[0])
    assert "least unfair" in words.why(rec, 0.02)


def test_a_population_with_one_stage_has_no_judging_games() -> None:
    a = cell("scripted", [games(0, 2000, 1)], "undecided", (8, 8))
    b = cell("strong", [games(0, 2000, 3), games(0, 2000, 4)], "undecided", (8, 8))
    rec = recommend(2, [a, b], alpha=0.05)
    assert rec is not None and not rec.judged and math.isnan(rec.gaps[0].gap)
    assert "not given" in words.worst_words(rec)
    assert words.as_json(rec, 0.02)["worst_gap"] is None


def test_the_worst_gap_interval_covers_the_truth_in_95_percent_of_studies() -> None:
    """Two populations (seat 2 gains 0 and 1 VP more), two stages each, 300 simulated
    studies: the worst gap's 95% interval at the printed vector holds the exact worst gap in
    at least 95% (allowing binomial noise: 92.5% of 300 is 3.2 standard errors below 95%)."""
    covered = 0
    runs = 300
    for k in range(runs):
        a = cell("a", [games(0, 300, 4 * k), games(0, 600, 4 * k + 1)], "undecided", (8, 8))
        b = cell("b", [games(1, 300, 4 * k + 2), games(1, 600, 4 * k + 3)], "undecided", (8, 7))
        rec = recommend(2, [a, b], alpha=0.05)
        assert rec is not None
        truth = max(true_gap(0, rec.vector), true_gap(1, rec.vector))
        covered += rec.worst_low <= truth <= rec.worst_high
    assert covered / runs >= 0.925, covered


def test_the_study_page_and_json_lead_with_the_vector_to_print(tmp_path: Path) -> None:
    import json

    from tests.test_skill import two_population_study

    root = two_population_study(tmp_path)
    data = json.loads((root / "study.json").read_text())
    rec = data["recommendations"]["2"]
    assert rec["vector"] and rec["sentence"].startswith(f"Print **{'/'.join(map(str, rec['vector']))}**")
    assert {p["population"] for p in rec["populations"]} == {"scripted", "strong"}
    assert data["headlines"]["2"].startswith("2 players: " + rec["sentence"])
    md = (root / "study.md").read_text()
    assert md.index("the vector to print") < md.index("**scripted**")
