"""The study's documents (``cdsim study report``): the page (``page``: study.html, study.md,
study.json), the answer it opens with (``answer``: the boxes and headlines), its cells
(``cell``), the changed cards (``cards``), the sweeps (``sweep``) and the skill panel
(``skill``). The names callers use are given here too."""

from reports.study.answer import headline, headlines
from reports.study.page import (
    CellResult,
    Shares,
    StudyResults,
    analyse,
    as_json,
    build,
    verdict_json,
    write,
)

__all__ = ["CellResult", "Shares", "StudyResults", "analyse", "as_json", "build", "headline",
           "headlines", "verdict_json", "write"]
