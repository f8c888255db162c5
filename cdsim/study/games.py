"""A finished run folder's games as a study's verdicts read them (``CellGames``): VP gained
and the tie-break rank per seat, and each game's deal (its setup id) as its group.
The study plans from these (``cdsim.study.plan``); its report reads the same games."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np

from cdsim.analysis.candidates import CellGames
from cdsim.batch.read import open_run, seat_arrays


def read_games(run: Path) -> CellGames:
    """The games of one run folder (its finished parts)."""
    arrays = seat_arrays(open_run(run))
    return CellGames(arrays.base, arrays.tiebreak_order, arrays.setup)


def stage_games(runs: Sequence[Path]) -> CellGames:
    """One stage's games: its line-ups' runs play the same deals (one seed), so a deal
    group is that deal in every line-up and rotation (the setup ids are shared, which
    ``CellGames.concat`` would tell apart)."""
    parts = [read_games(run) for run in runs]
    return CellGames(np.concatenate([g.gained for g in parts]),
                     np.concatenate([g.tiebreak for g in parts]),
                     np.concatenate([g.group for g in parts]))


__all__ = ["read_games", "stage_games"]
