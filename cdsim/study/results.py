"""A study folder read once for its report (``read_results``): the study manifest as its
model, each cell with a finished stage as a ``CellResult`` (the seat win shares behind its
verdict, its fair offsets, a variant's paired difference to its base and its changed
cards), and the "fair starting VP by skill" panels. Everything here is read or computed
below the report (``cdsim.analysis`` computes every figure); ``reports.study`` only words
and lays out these records."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path

from cdsim.errors import CdsimError
from cdsim.study.cards import swept_card, variant_cards
from cdsim.study.cell import CellResult, read_cell, with_difference
from cdsim.study.manifest import StudyManifest
from cdsim.study.skill import Panel, panels
from cdsim.study.store import study_manifest_of


@dataclass(frozen=True)
class StudyResults:
    """What a study's report shows: its manifest, its cells with a finished stage (base
    cells and variants alike, in the manifest's order), the cells with none yet
    (``missing``, by key) and the skill panels by player count."""

    manifest: StudyManifest
    cells: tuple[CellResult, ...]
    missing: tuple[str, ...] = ()
    by_skill: dict[int, Panel] = field(default_factory=dict)

    @property
    def tolerance(self) -> float:
        return self.manifest.tolerance


def _with_base(root: Path, manifest: StudyManifest, cell: CellResult,
               base: CellResult | None) -> CellResult:
    """A variant's paired difference to its base cell and its changed cards; a base cell as
    it is."""
    cell = with_difference(cell, base)
    stages = min(len(cell.stages), len(base.stages)) if base is not None else 0
    cards = variant_cards(root, cell.state, base.state if base is not None else None, stages,
                          swept_card(manifest, cell.variant))
    return replace(cell, cards=cards)


def read_results(root: Path) -> StudyResults:
    """The study in ``root`` as its report shows it; a study with no finished stage is one
    line saying how to go on."""
    manifest = study_manifest_of(root)
    read = [(state.key, read_cell(root, state)) for state in manifest.cells]
    cells = [c for _, c in read if c is not None]
    if not cells:
        raise CdsimError(f"{root}: no cell has finished a stage yet; continue with "
                         f"cdsim study run {manifest.source or 'STUDY.toml'} --out {root} "
                         "--resume")
    bases = {(c.players, c.population): c for c in cells if c.variant is None}
    cells = [_with_base(root, manifest, c, bases.get((c.players, c.population))) for c in cells]
    return StudyResults(manifest, tuple(cells), tuple(k for k, c in read if c is None),
                        panels(root, cells, manifest.players, manifest.tolerance,
                               manifest.alpha))


__all__ = ["StudyResults", "read_results"]
