"""``anytime.decide`` judged once per stages: a study or a whatif judges every cell again
after every round, and a cell's earlier stages (a decided cell's all) would be judged again
from scratch each time, though nothing they hold has changed.

``decide`` is pure and a win table (``candidates.WinTable``) is frozen, so the verdict of
the same table objects under the same settings is the one already computed. It is kept
beside the last table (weakly: it goes when the tables go, at the end of the command that
read them), with the earlier tables held by weak reference and checked by identity, so a
verdict is found only for exactly the tables it judged. Nothing is kept on disk: a resumed
study or a changed study file reads its stages again into new tables, and judges them."""

from __future__ import annotations

import weakref
from collections.abc import Sequence

from cdsim.analysis import anytime
from cdsim.analysis.candidates import WinTable
from cdsim.analysis.verdict import Verdict

# the settings of a call: rulebook, tolerance, alpha, m, design_games, predict, zone, naming
Settings = tuple[tuple[int, ...], float, float, int, int | None, bool, float, bool]
Earlier = tuple["weakref.ref[WinTable]", ...]

_KEPT: weakref.WeakKeyDictionary[WinTable, dict[Settings, tuple[Earlier, Verdict]]] = (
    weakref.WeakKeyDictionary())


def decide(tables: Sequence[WinTable], rulebook: Sequence[int], tolerance: float,
           alpha: float, m: int, design_games: int | None, predict: bool, zone: float,
           naming: bool) -> Verdict:
    """``anytime.decide(tables, rulebook, ...)``, computed once for the same table objects
    and settings (the verdicts are frozen records, shared as they are)."""
    if not tables:  # its error, as decide says it
        return anytime.decide(tables, rulebook, tolerance, alpha, m, design_games,
                              predict=predict, zone=zone, naming=naming)
    settings: Settings = (tuple(int(x) for x in rulebook), tolerance, alpha, m, design_games,
                          predict, zone, naming)
    *before, last = tables
    kept = _KEPT.setdefault(last, {})
    found = kept.get(settings)
    if found is not None and len(found[0]) == len(before) and all(
            ref() is table for ref, table in zip(found[0], before, strict=True)):
        return found[1]
    verdict = anytime.decide(tables, rulebook, tolerance, alpha, m, design_games,
                             predict=predict, zone=zone, naming=naming)
    kept[settings] = (tuple(weakref.ref(t) for t in before), verdict)
    return verdict


__all__ = ["decide"]
