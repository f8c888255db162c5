"""Open a run folder for reading: its manifest and a lazy scan of its finished parts.

Only the parts the manifest lists as finished are read (a part written just
before a kill, but not yet recorded, is replayed by --resume and ignored here).
Every problem with the folder is a CdsimError: one line, exit 2.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl
from numpy.typing import NDArray

from cdsim.batch.folder import RunFolder, part_schema
from cdsim.errors import CdsimError
from cdsim.rules.records import BREAKDOWN, SEAT_FIELDS

NEEDED = (*SEAT_FIELDS, "game", "setup", "players", "tiebreak")
TEXT_COLUMNS = ("strategy",)
BOOL_COLUMNS = ("won", "tiebreak")  # every other needed column holds integers
FIX = "delete it and its chunk from manifest.json, then --resume"


def _dtype_problem(name: str, dtype: Any) -> str | None:
    if name in TEXT_COLUMNS:
        return None if dtype == pl.String else "text"
    if name in BOOL_COLUMNS:
        return None if dtype == pl.Boolean else "true/false"
    return None if dtype.is_integer() else "integers"


def check_part(part: Path, index: int, first: int, last: int, players: int) -> None:
    """A finished chunk's part holds its games and nothing else: the columns a report reads,
    with their types and no nulls, games first..last-1 each once, ``players`` rows each."""
    schema = part_schema(part)
    missing = [c for c in NEEDED if c not in schema]
    if missing:
        raise CdsimError(f"{part}: not a cdsim games part (missing columns: "
                         f"{', '.join(missing[:5])})")
    for name in NEEDED:
        want = _dtype_problem(name, schema[name])
        if want:
            raise CdsimError(f"{part}: column {name!r} holds {schema[name]}, not {want}; {FIX}")
    try:
        stats = pl.scan_parquet(part).select(
            pl.len().alias("rows"), pl.col("game").n_unique().alias("games"),
            pl.col("game").min().alias("low"), pl.col("game").max().alias("high"),
            pl.sum_horizontal(pl.col(list(NEEDED)).null_count()).alias("nulls")).collect().row(0)
    except Exception as exc:
        raise CdsimError(f"{part}: corrupt part file ({type(exc).__name__}); {FIX}") from None
    rows, games, low, high, nulls = stats
    want_rows = (last - first) * players
    if nulls:
        raise CdsimError(f"{part}: {nulls} empty (null) values in the columns a report reads; {FIX}")
    if rows != want_rows or games != last - first or low != first or high != last - 1:
        raise CdsimError(f"{part}: chunk {index} should hold games {first}-{last - 1} x {players} "
                         f"seats ({want_rows} rows), it holds {rows} rows of {games} games "
                         f"({low}-{high}); {FIX}")


@dataclass(frozen=True)
class Run:
    path: Path
    manifest: dict[str, Any]
    parts: tuple[Path, ...]
    players: int
    games: int  # finished games (what the report is about)
    planned: int  # games the run was asked for

    @property
    def config(self) -> dict[str, Any]:
        return dict(self.manifest["config"])

    @property
    def rotated(self) -> bool:
        return bool(self.config.get("rotate_seats"))

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
    try:
        config = manifest["config"]
        players = int(config["players"])
        planned = int(config["games"])
        chunks = [tuple(c) for c in manifest["chunks"]]
        finished = sorted(int(i) for i in manifest["finished"])
    except (KeyError, TypeError, ValueError) as exc:
        raise CdsimError(f"{folder.manifest_path}: incomplete manifest ({exc})") from None
    if not finished:
        raise CdsimError(f"{path}: the run has no finished games yet; "
                         "continue it with cdsim simulate --out ... --resume")
    parts = tuple(folder.part(i) for i in finished)
    for i, part in zip(finished, parts, strict=True):
        check_part(part, i, chunks[i][0], chunks[i][1], players)
    games = sum(chunks[i][1] - chunks[i][0] for i in finished)
    return Run(path, manifest, parts, players, games, planned)


@dataclass(frozen=True)
class SeatArrays:
    """Per-game arrays shaped (games, seats), rows sorted by game id."""

    setup: NDArray[np.int64]  # (G,) the dealt setup of each game
    start_vp: NDArray[np.int64]
    base: NDArray[np.int64]  # final VP without the starting VP
    tiebreak_order: NDArray[np.int64]  # 0 = wins every VP tie (R10.6: lowest scroll, then stack)
    won: NDArray[np.bool_]

    @property
    def players(self) -> int:
        return int(self.base.shape[1])


def seat_arrays(run: Run) -> SeatArrays:
    """The columns the balance analysis needs, as (games, seats) numpy arrays."""
    df = (run.scan(("game", "setup", "seat", "start_vp", "final_vp", "scroll", "stack", "won"))
          .sort(["game", "seat"]).collect())
    n = run.players
    if df.height % n:
        raise CdsimError(f"{run.path}: {df.height} rows is not a whole number of "
                         f"{n}-player games")

    def grid(col: str) -> Any:
        return df[col].to_numpy().reshape(-1, n)

    scroll, stack = grid("scroll"), grid("stack")
    key = scroll * (n + 1) + stack  # R10.6: furthest behind, then lower in the stack
    order = np.argsort(np.argsort(key, axis=1, kind="stable"), axis=1)
    return SeatArrays(setup=grid("setup")[:, 0], start_vp=grid("start_vp"),
                      base=grid("final_vp") - grid("start_vp"), tiebreak_order=order,
                      won=grid("won").astype(bool))


__all__ = ["BREAKDOWN", "NEEDED", "Run", "SeatArrays", "open_run", "seat_arrays"]
