"""reports/ only formats documents (DESIGN.md's rings; issue 42): every fit, resample, test,
interval, mean and crossing it shows is computed in cdsim/analysis/ (a run's aggregates in
cdsim.analysis.rows, a sweep's in cdsim.analysis.sweep). import-linter keeps scipy and the
interval kit of cdsim.analysis.stats out of reports/ (pyproject's contract); this test keeps
out numpy's estimation kit -- random numbers (a bootstrap), linear algebra (a fit),
percentiles, spreads and running sums (an interval, a convergence) -- Polars' and numpy's
aggregations (a group_by, a mean over games, a sum of means), and the private helpers of
cdsim.analysis (a statistic half-moved). Every module of reports/, its packages' too. Read
from the source with ``ast``: nothing is imported."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

REPORTS = Path(__file__).resolve().parent.parent / "reports"
NUMPY = ("np", "numpy")
# numpy's names that compute a statistic rather than lay one out
ESTIMATION = frozenset({"random", "linalg", "percentile", "nanpercentile", "quantile",
                        "nanquantile", "median", "std", "nanstd", "var", "nanvar", "cov",
                        "corrcoef", "average", "mean", "nanmean", "nanmedian", "cumsum",
                        "nancumsum", "bincount", "histogram"})
# the methods (of a Polars frame, column or expression, or a numpy array) that group rows or
# summarise them into a figure; a count (.sum() of games, .n_unique()) and layout stay
AGGREGATION = frozenset({"group_by", "group_by_dynamic", "agg", "over", "rolling", "mean",
                         "median", "std", "var", "quantile", "cum_sum", "cumsum",
                         "sum_horizontal", "mean_horizontal", "value_counts", "describe",
                         "corr", "cov", "ewm_mean"})


def problems(source: str) -> list[str]:
    """What in ``source`` computes a statistic that belongs in cdsim/analysis/."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
                and node.value.id in NUMPY and node.attr in ESTIMATION):
            found.append(f"line {node.lineno}: {node.value.id}.{node.attr}")
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
              and node.func.attr in AGGREGATION):
            found.append(f"line {node.lineno}: .{node.func.attr}(...)")
        elif isinstance(node, ast.ImportFrom) and node.module:
            if node.module.split(".")[0] == "numpy" and node.module != "numpy.typing":
                found.append(f"line {node.lineno}: from {node.module} import ...")
            elif node.module.startswith("cdsim.analysis"):
                found.extend(f"line {node.lineno}: {node.module}.{a.name} (private)"
                             for a in node.names if a.name.startswith("_"))
            elif node.module == "numpy":
                found.extend(f"line {node.lineno}: from numpy import {a.name}"
                             for a in node.names if a.name in ESTIMATION)
        elif isinstance(node, ast.Import):
            found.extend(f"line {node.lineno}: import {a.name}" for a in node.names
                         if a.name.startswith(("numpy.random", "numpy.linalg", "scipy")))
    return found


@pytest.mark.parametrize("path", sorted(REPORTS.rglob("*.py")),
                         ids=lambda p: str(p.relative_to(REPORTS)))
def test_reports_compute_no_statistics_of_their_own(path: Path) -> None:
    assert problems(path.read_text()) == [], f"{path.name}: move it to cdsim/analysis/"


def test_every_module_of_reports_is_read() -> None:
    assert {"report.py", "charts.py", "study/__init__.py", "study/page.py",
            "study/sweep.py"} <= {
        str(p.relative_to(REPORTS)) for p in REPORTS.rglob("*.py")}


@pytest.mark.parametrize("line", [
    "rng = np.random.default_rng(1)",
    "low = np.percentile(boot, 2.5, axis=0)",
    "step = np.linalg.solve(h, g)",
    "from numpy.random import default_rng",
    "from cdsim.analysis.candidates import _quantile",
    "import scipy.stats",
    'table = lf.group_by("seat").agg(pl.col("won").sum().alias("wins"))',
    'margin = pl.col("final_vp").max().over("game") - pl.col("final_vp")',
    "share = np.cumsum(won, axis=0) / played[:, None]",
    'label = f"mean {values.mean():.1f}"',
    "net = sources.select(list(BREAKDOWN)).sum_horizontal()",
])
def test_the_check_sees_a_statistic_moved_back(line: str) -> None:
    assert problems(line)
    assert not problems("share = np.where(meetings > 0, share, np.nan)\n"
                        "from cdsim.analysis.ratings import fit_ladder\n"
                        "from numpy.typing import NDArray\n"
                        "games = int(f.pairing_games.sum())\n"
                        'same = frames[0]["game"].n_unique() == frames[1]["game"].n_unique()\n'
                        'game = pl.struct("stage", "game").rank("dense")\n'
                        "top = float(np.max(high))")


# the modules that read a study folder's runs and games (cdsim.study.results reads them for
# the study report, once, below it)
READERS = ("cdsim.study.store", "cdsim.study.games", "cdsim.batch.read", "cdsim.batch.folder")


def reads_a_study(source: str) -> list[str]:
    """The imports in ``source`` of a module that reads a study folder."""
    found = []
    for node in ast.walk(ast.parse(source)):
        names = ([node.module or ""] if isinstance(node, ast.ImportFrom) else
                 [a.name for a in node.names] if isinstance(node, ast.Import) else [])
        found += [f"line {node.lineno}: {n}" for n in names if n.startswith(READERS)]
    return found


@pytest.mark.parametrize("path", sorted((REPORTS / "study").rglob("*.py")),
                         ids=lambda p: str(p.relative_to(REPORTS)))
def test_the_study_report_reads_its_folder_only_through_the_study_s_results(path: Path) -> None:
    """reports/study/ words the records of ``cdsim.study.results`` (issue 42: the study
    folder flows down once): none of its modules reads runs, games or manifests itself."""
    assert reads_a_study(path.read_text()) == [], f"{path.name}: read it in cdsim/study/"


def test_the_check_sees_a_study_read_in_the_report() -> None:
    assert reads_a_study("from cdsim.study.store import run_folder")
    assert reads_a_study("import cdsim.batch.read")
    assert not reads_a_study("from cdsim.study.results import StudyResults, read_results")


# What reports/ may take from cdsim.analysis: the records it words, constants, the check of a
# flag and the wording of a verdict -- nothing that computes a figure, an interval or a
# verdict (issue 42 item 4: the study report's come with cdsim.study.results' records)
FORMATTING = {
    "cdsim.analysis.anytime": {"CONFIRM_SHARE", "MIN_GROUPS", "ZONE", "Verdict"},
    "cdsim.analysis.balance": {"Balance", "check_tolerance", "words"},
    "cdsim.analysis.candidates": {"CellGames"},
    # a card figure shown only on enough deals: the floor, and the takes it is read from
    "cdsim.analysis.card_intervals": {"MIN_DEALS"},
    "cdsim.analysis.cards": {"Takes"},
    "cdsim.analysis.cell": {"Shares"},
    # how a number is written: one module, shared with the verdicts' own sentences
    "cdsim.analysis.fmt": {"interval", "number", "pct", "pct_or_dash", "percent_tick",
                           "points_tick", "pp", "pts", "pts_interval", "rulebook", "seat_label",
                           "vec"},
    "cdsim.analysis.offsets": {"FairOffset"},
    "cdsim.analysis.offset_shift": {"FamilyEffect", "PairedShift", "SeatShift"},
    "cdsim.analysis.paired": {"PRECISION", "Comparison"},
    # a strategy that never wins: its record and its one warning sentence (as ``words``)
    "cdsim.analysis.rare": {"RareWinner", "note"},
    "cdsim.analysis.ratings": {"ANCHOR", "PRIOR_GAMES", "RESAMPLES", "LadderFit", "anchor_of",
                               "check_resamples"},
    "cdsim.analysis.recommend": {"PopulationGap", "Recommendation"},
    "cdsim.analysis.rows": {"PHASES"},
    "cdsim.analysis.skill": {"Point"},
    "cdsim.analysis.sweep": {"Neutral"},
}
# No page calls cdsim.analysis for its figures: the run report's and `cdsim balance`'s come
# with cdsim.batch.results' and cdsim.batch.balance's records, the ladder's with
# cdsim.ladder.read_results'. A page that takes a computing function back is named here
# only if it cannot be helped, so that the list stays empty
NOT_YET: dict[str, set[str]] = {}


def computing_imports(source: str) -> set[str]:
    """What ``source`` imports from cdsim.analysis beyond ``FORMATTING`` (a whole module of
    it counts: its functions would be in reach)."""
    found = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("cdsim.analysis"):
            found |= {f"{node.module}.{a.name}" for a in node.names
                      if a.name not in FORMATTING.get(str(node.module), set())}
        elif isinstance(node, ast.ImportFrom) and node.module == "cdsim":
            found |= {f"cdsim.{a.name}" for a in node.names if a.name == "analysis"}
        elif isinstance(node, ast.Import):
            found |= {a.name for a in node.names if a.name.startswith("cdsim.analysis")}
    return found


@pytest.mark.parametrize("path", sorted(REPORTS.rglob("*.py")),
                         ids=lambda p: str(p.relative_to(REPORTS)))
def test_reports_take_no_computing_function_from_analysis(path: Path) -> None:
    """Every figure, interval and verdict a page shows reaches reports/ computed (the study
    report's through cdsim.study.results); reports/ words and lays them out."""
    assert computing_imports(path.read_text()) == NOT_YET.get(
        str(path.relative_to(REPORTS)), set()), f"{path.name}: compute it below reports/"


def test_the_check_sees_a_verdict_reached_in_the_report() -> None:
    assert computing_imports("from cdsim.analysis import paired") == {"cdsim.analysis.paired"}
    assert computing_imports("from cdsim.analysis.sweep import covers, neutral, Neutral") == {
        "cdsim.analysis.sweep.covers", "cdsim.analysis.sweep.neutral"}
    assert computing_imports("import cdsim.analysis.paired as p") == {"cdsim.analysis.paired"}
    assert computing_imports("from cdsim import analysis") == {"cdsim.analysis"}
    assert not computing_imports("from cdsim.analysis.paired import PRECISION\n"
                                 "from cdsim.study.results import StudyResults")


# the run pages (``cdsim report``, ``cdsim balance``, the ladder's) read their games only
# through cdsim.batch.results, cdsim.batch.balance and cdsim.ladder, below reports/
RUN_PAGES = ("report.py", "cards.py", "balance.py", "ladder.py")


@pytest.mark.parametrize("name", RUN_PAGES)
def test_the_run_pages_read_their_run_only_through_its_results(name: str) -> None:
    found = [line for line in reads_a_study((REPORTS / name).read_text())
             if "cdsim.batch.folder" not in line]  # report.py's atomic_write writes a page
    assert found == [], f"{name}: read it in cdsim/batch/results.py"


def test_a_run_s_results_are_frozen_records() -> None:
    from dataclasses import fields

    from cdsim.batch.results import RunResults

    assert {f.name for f in fields(RunResults)} >= {"seats", "strategies", "judged", "cards",
                                                    "convergence", "power"}
    assert RunResults.__dataclass_params__.frozen  # type: ignore[attr-defined]
