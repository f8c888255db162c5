"""reports/ only formats documents (DESIGN.md's rings; issue 42): every fit, resample, test
and interval it shows is computed in cdsim/analysis/. import-linter keeps scipy out of
reports/ (pyproject's contract); this test keeps out numpy's estimation kit -- random
numbers (a bootstrap), linear algebra (a fit), percentiles and spreads (an interval) -- and
the private helpers of cdsim.analysis (a statistic half-moved). Read from the source with
``ast``: nothing is imported."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

REPORTS = Path(__file__).resolve().parent.parent / "reports"
NUMPY = ("np", "numpy")
# numpy's names that compute a statistic rather than lay one out
ESTIMATION = frozenset({"random", "linalg", "percentile", "nanpercentile", "quantile",
                        "nanquantile", "median", "std", "nanstd", "var", "nanvar", "cov",
                        "corrcoef", "average"})


def problems(source: str) -> list[str]:
    """What in ``source`` computes a statistic that belongs in cdsim/analysis/."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
                and node.value.id in NUMPY and node.attr in ESTIMATION):
            found.append(f"line {node.lineno}: {node.value.id}.{node.attr}")
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


@pytest.mark.parametrize("path", sorted(REPORTS.glob("*.py")), ids=lambda p: p.name)
def test_reports_compute_no_statistics_of_their_own(path: Path) -> None:
    assert problems(path.read_text()) == [], f"{path.name}: move it to cdsim/analysis/"


@pytest.mark.parametrize("line", [
    "rng = np.random.default_rng(1)",
    "low = np.percentile(boot, 2.5, axis=0)",
    "step = np.linalg.solve(h, g)",
    "from numpy.random import default_rng",
    "from cdsim.analysis.candidates import _quantile",
    "import scipy.stats",
])
def test_the_check_sees_a_statistic_moved_back(line: str) -> None:
    assert problems(line)
    assert not problems("share = np.where(meetings > 0, share, np.nan)\n"
                        "from cdsim.analysis.ratings import fit_ladder\n"
                        "from numpy.typing import NDArray")
