"""The study's documents (``cdsim study report``): the page (``page``: study.html, study.md,
study.json, answer first), its cells (``cell``), the changed cards (``cards``), the sweeps
(``sweep``) and the skill panel (``skill``). The names callers use are given here too."""

from reports.study.page import (
    analyse,
    as_json,
    build,
    headline,
    headlines,
    verdict_json,
    write,
)

__all__ = ["analyse", "as_json", "build", "headline", "headlines", "verdict_json", "write"]
