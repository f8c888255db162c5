"""A variant's changed components that are not cards, each with what its use means and its
figures under the base and the variant (``ComponentChange``), and the variant's effect on
each strategy's win share (``cdsim.analysis.uses``), from the seat rows of the stages both
cells finished: ``cdsim whatif``'s verdict line for any component (#61 item 4)."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

import polars as pl

from cdsim.analysis.cards import Takes
from cdsim.analysis.uses import (
    SEATS,
    SourceChange,
    StyleEffect,
    source_change,
    style_effects,
    use_change,
)
from cdsim.batch.read import open_run
from cdsim.batch.uses import use_rows, watched_only
from cdsim.games import GameSpec
from cdsim.games.features import ComponentUse
from cdsim.study.manifest import CellState
from cdsim.study.store import run_folder

Figure = tuple[float, float, float]  # estimate, low, high (95%)


@dataclass(frozen=True)
class ComponentChange:
    """One changed component (``entry``: ``tile.L-bakery``) under the base and the variant:
    what its use means (``use``) and, where the rows record it, ``cdsim.analysis.uses``'
    figures (empty where they do not)."""

    entry: str
    keys: tuple[str, ...]  # the changed keys, as "count 5 -> 7"
    use: ComponentUse
    base: dict[str, Figure]
    variant: dict[str, Figure]
    takes: tuple[Takes, Takes] | None = None  # what base and variant rest on
    source: SourceChange | None = None  # the VP source it scores through, where it has one

    @property
    def recorded(self) -> bool:
        return self.use.column is not None and self.takes is not None


@dataclass(frozen=True)
class VariantUses:
    """A variant's changed components (cards aside) and each strategy's effect."""

    components: tuple[ComponentChange, ...] = ()
    styles: tuple[StyleEffect, ...] = ()


def seat_frame(root: Path, cell: CellState, stages: int, columns: Sequence[str],
               uses: Mapping[str, Sequence[str]] | None = None) -> pl.DataFrame:
    """The seat rows (``columns``) of the cell's first ``stages`` stages, each game and deal
    numbered across its runs and stages as ``cdsim.study.cards`` numbers its card rows (in
    the same order for a variant as for its base); and a column each of ``uses`` (name ->
    the entries whose use rows it sums, ``cdsim.batch.uses``: a seat's count, 0 where it
    has no row), left out where some run holds no use rows."""
    parts, missing = [], set()
    for stage, runs in enumerate(s.runs for s in cell.stages[:stages]):
        for place, key in enumerate(runs):
            run = open_run(run_folder(root, key))
            frame = run.scan(tuple(dict.fromkeys(columns))).collect()
            rows = use_rows(run.path, run.manifest.finished) if uses else None
            for name, entries in (uses or {}).items():
                if rows is None:
                    missing.add(name)
                    continue
                counts = (watched_only(rows, entries).group_by("game", "seat")
                          .agg(pl.col("count").sum().alias(name)))
                frame = frame.join(counts, on=["game", "seat"], how="left").with_columns(
                    pl.col(name).fill_null(0))
            parts.append(frame.with_columns(stage=pl.lit(stage), place=pl.lit(place)))
    frame = pl.concat(parts, how="diagonal").drop(*missing, strict=False)
    return frame.with_columns(
        game=pl.struct("stage", "place", "game").rank("dense").cast(pl.Int64),
        setup=pl.struct("stage", "setup").rank("dense").cast(pl.Int64))


def use_entries(use: ComponentUse, keys: Sequence[str]) -> tuple[str, ...]:
    """The entries whose use rows count a use of ``use`` (its ``uses``), a table's rows
    narrowed to the rows its changed ``keys`` name where each is one (``points.4 3 -> 5``:
    the villa table's row of 4 chimneys, ``villa_table.4``; a whole list's change: the rows
    it changes, ``vp [1, 3, 6] -> [1, 4, 6]``: ``area_vp.1``)."""
    assert use.uses is not None
    if "." in use.uses:
        return (use.uses,)
    rows = [k.split(" ", 1)[0].split(".") for k in keys]
    if rows and all(len(r) == 2 and r[1].isdigit() for r in rows):
        return tuple(dict.fromkeys(f"{use.uses}.{r[1]}" for r in rows))
    lists = [_changed_rows(k) for k in keys]  # "vp [1, 3, 6] -> [1, 4, 6]": row 1
    if lists and all(r is not None for r in lists):
        return tuple(dict.fromkeys(f"{use.uses}.{i}" for r in lists for i in r or ()))
    return (use.uses,)


def _changed_rows(key: str) -> tuple[int, ...] | None:
    """The places (from 0) where a whole list's change ("vp [1, 3, 6] -> [1, 4, 6]")
    differs; None where the key is not one of two lists of one length."""
    found = re.fullmatch(r"\S+ \[([-\d, ]*)\] -> \[([-\d, ]*)\]", key)
    if found is None:
        return None
    old, new = ([x.strip() for x in part.split(",") if x.strip()] for part in found.groups())
    if len(old) != len(new):
        return None
    return tuple(i for i, (a, b) in enumerate(zip(old, new, strict=True)) if a != b)


def variant_uses(root: Path, cell: CellState, base: CellState, stages: int, game: GameSpec,
                 changed: Sequence[tuple[str, tuple[str, ...]]]) -> VariantUses:
    """The figures of the ``changed`` entries (entry, its changed keys; cards left out by
    the caller) and each strategy's effect, on the first ``stages`` stages of ``cell``
    and its ``base``."""
    if not stages:
        return VariantUses()
    read = game.component_use
    uses = [(entry, keys, read(entry) if read is not None else
             ComponentUse(entry, "used it", why=f"{game.title} says nothing of its use"))
            for entry, keys in changed]
    columns = [*SEATS, *(c for _, _, u in uses for c in (u.column, u.source) if c is not None)]
    counted = {f"use:{entry}": use_entries(use, keys) for entry, keys, use in uses
               if use.column is None and use.uses is not None}
    frames = (seat_frame(root, base, stages, columns, counted),
              seat_frame(root, cell, stages, columns, counted))
    if frames[0]["game"].n_unique() != frames[1]["game"].n_unique():
        return VariantUses()  # not the same deals: nothing paired to say
    out = []
    for entry, keys, use in uses:
        source = (None if use.source is None else
                  source_change(frames[0], frames[1], use.source))
        column = use.column
        if column is None and all(f"use:{entry}" in f.columns for f in frames):
            column = f"use:{entry}"
        if column is None:
            out.append(ComponentChange(entry, keys, use, {}, {}, source=source))
            continue
        use = replace(use, column=column)
        found = use_change(frames[0], frames[1], column)
        out.append(ComponentChange(entry, keys, use, found.base, found.variant, found.takes,
                                   source))
    return VariantUses(tuple(out), style_effects(frames[0], frames[1]))


__all__ = ["ComponentChange", "Figure", "VariantUses", "seat_frame", "use_entries",
           "variant_uses"]
