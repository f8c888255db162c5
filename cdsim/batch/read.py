"""Open a run folder for reading: its manifest and a lazy scan of its finished parts.

Only the parts the manifest lists as finished are read (a part written just
before a kill, but not yet recorded, is replayed by --resume and ignored here), each
checked to hold its chunk's games of this run (``parts.check_parts``).
Every problem with the folder is a CdsimError: one line, exit 2.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl
from numpy.typing import NDArray

from cdsim.batch.config import RunConfig
from cdsim.batch.folder import RunFolder
from cdsim.batch.manifest import RUN_FORMAT, RunManifest
from cdsim.batch.parts import check_parts, part_schema
from cdsim.errors import CdsimError
from cdsim.games import GameSpec


@dataclass(frozen=True)
class Run:
    path: Path
    manifest: RunManifest
    parts: tuple[Path, ...]
    players: int
    games: int  # finished games (what the report is about)
    planned: int  # games the run was asked for

    @property
    def config(self) -> RunConfig:
        return self.manifest.config

    @property
    def rotated(self) -> bool:
        return self.config.rotate_seats

    @property
    def spec(self) -> GameSpec:
        """The game the run played (``cdsim.games``): its columns, tie-break and words."""
        return self.config.spec

    @property
    def reads_scores(self) -> dict[str, bool]:
        """Whether each player reads VP totals, by spelling (as the manifest recorded)."""
        return self.manifest.players_read_scores()

    @property
    def complete(self) -> bool:
        return self.games == self.planned

    def scan(self, columns: tuple[str, ...] | None = None) -> pl.LazyFrame:
        lf = pl.scan_parquet(list(self.parts))
        return lf.select(columns) if columns else lf


def open_run(path: Path) -> Run:
    if not path.exists():
        raise CdsimError(f"{path}: no such run folder")
    if not path.is_dir():
        raise CdsimError(f"{path}: not a folder (give the run folder made by cdsim simulate)")
    folder = RunFolder(path)
    manifest = folder.read()
    config, chunks, finished = manifest.config, manifest.chunks, sorted(manifest.finished)
    if not finished:
        raise CdsimError(f"{path}: the run has no finished games yet; "
                         "continue it with cdsim simulate --out ... --resume")
    parts = tuple(folder.part(i) for i in finished)
    check_parts(list(zip(finished, parts, strict=True)), chunks, config)
    return Run(path, manifest, parts, config.players, manifest.games_done, config.games)


@dataclass(frozen=True)
class SeatArrays:
    """Per-game arrays shaped (games, seats), rows sorted by game id."""

    setup: NDArray[np.int64]  # (G,) the dealt setup of each game
    start_vp: NDArray[np.int64]
    base: NDArray[np.int64]  # final VP without the starting VP
    tiebreak_order: NDArray[np.int64]  # 0 = wins every VP tie (the game's tie-break)
    won: NDArray[np.bool_]

    @property
    def players(self) -> int:
        return int(self.base.shape[1])


def seat_arrays(run: Run) -> SeatArrays:
    """The columns the balance analysis needs, as (games, seats) numpy arrays."""
    ties, tie_key = run.config.spec.tiebreak
    df = (run.scan(("game", "setup", "seat", "start_vp", "final_vp", *ties, "won"))
          .sort(["game", "seat"]).collect())
    n = run.players
    if df.height % n:
        raise CdsimError(f"{run.path}: {df.height} rows is not a whole number of "
                         f"{n}-player games")

    def grid(col: str) -> Any:
        return df[col].to_numpy().reshape(-1, n)

    key = tie_key(n, *(grid(c) for c in ties))  # the game's tie-break: lowest wins
    order = np.argsort(np.argsort(key, axis=1, kind="stable"), axis=1)
    return SeatArrays(setup=grid("setup")[:, 0], start_vp=grid("start_vp"),
                      base=grid("final_vp") - grid("start_vp"), tiebreak_order=order,
                      won=grid("won").astype(bool))


class NoCardTable(CdsimError):
    """A run made before the card table (run format 1): the card section cannot be made."""


class GameWithoutCards(NoCardTable):
    """A run of a game that has no card table (its spec's ``cards`` is None): there is no
    card section to make."""


def card_rows(run: Run) -> pl.DataFrame:
    """The run's card table (one row per seat, card and what happened; docs/guide.md),
    joined to each seat's row: its deal (``setup``), ``won`` and ``strategy``. A run of
    an older format is NoCardTable (one line), a run of a game without cards
    GameWithoutCards; a missing or foreign card part, a CdsimError naming it."""
    table = run.spec.cards
    if table is None:
        raise GameWithoutCards(f"{run.path}: {run.spec.title} has no card table")
    made = run.manifest.format
    if made < RUN_FORMAT:
        raise NoCardTable(f"{run.path}: no card table (run format {made}); the card section "
                          f"needs a run made with this version of cdsim (format {RUN_FORMAT})")
    folder = RunFolder(run.path)
    paths = [folder.card_part(i) for i in sorted(run.manifest.finished)]
    for path in paths:
        schema = part_schema(path)
        bad = [c for c in table.fields if c not in schema
               or (schema[c] == pl.String) != (c in table.text)]
        if bad:
            raise CdsimError(f"{path}: not a cdsim card part (column {bad[0]!r} missing or "
                             "of another type); delete its chunk from manifest.json, then "
                             "--resume")
    cards = pl.scan_parquet(paths).select(table.fields)
    kind, column = table.paid
    seats = run.scan(("game", "seat", "setup", "won", "strategy", column))
    # a seat's rows of that kind add up to its column: a card part of another run does not
    paid = (cards.filter(pl.col("kind") == kind).group_by("game", "seat")
            .agg(pl.col("vp").sum().alias("paid")))
    disagree = seats.join(paid, on=["game", "seat"], how="left").select(
        (pl.col("paid") != pl.col(column)).fill_null(True).sum()).collect().item()
    joined = cards.join(seats.drop(column), on=["game", "seat"], how="left").collect()
    if disagree or joined["setup"].null_count():
        raise CdsimError(f"{run.path}/cards: card rows that are not this run's games (they "
                         "disagree with its seat rows); delete the card parts and their "
                         "chunks from manifest.json, then --resume")
    return joined


__all__ = ["GameWithoutCards", "NoCardTable", "Run", "SeatArrays",
           "card_rows", "open_run", "seat_arrays"]
