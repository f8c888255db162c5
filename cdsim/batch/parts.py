"""A run's Parquet parts checked before they are read or resumed: a finished chunk's part
holds that chunk's games of this run and nothing else (``check_part``), with the columns a
report reads and their types (``part_schema``)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from cdsim.batch.config import RunConfig
from cdsim.errors import CdsimError
from cdsim.rules.game import DEFAULT_START_VP
from cdsim.rules.records import ROW_FIELDS

if TYPE_CHECKING:  # polars is imported where a part is read: the commands start without it
    from polars import DataType

def part_schema(path: Path) -> dict[str, DataType]:
    """A part file's column types, or one error line if it is missing or corrupt."""
    import polars as pl

    try:
        return dict(pl.read_parquet_schema(path))
    except Exception as exc:
        raise CdsimError(f"{path}: corrupt or missing part file ({type(exc).__name__}); "
                         "delete it and its chunk from manifest.json, then --resume") from None


NEEDED = ROW_FIELDS  # what readers read
TEXT_COLUMNS = ("strategy",)
BOOL_COLUMNS = ("won", "tiebreak")  # every other needed column holds integers
FIX = "delete it and its chunk from manifest.json, then --resume"


def _dtype_problem(name: str, dtype: DataType) -> str | None:
    import polars as pl

    if name in TEXT_COLUMNS:
        return None if dtype == pl.String else "text"
    if name in BOOL_COLUMNS:
        return None if dtype == pl.Boolean else "true/false"
    return None if dtype.is_integer() else "integers"


def _part_figures(part: Path, config: RunConfig) -> tuple[Any, ...]:
    """What ``check_part`` checks, read in one pass over the part (one line if it cannot
    be read)."""
    import polars as pl

    players = config.players
    start_vp = list(config.start_vp or DEFAULT_START_VP[players])
    game, seat = pl.col("game"), pl.col("seat")
    dealt = game // players if config.rotate_seats else game  # the reproducibility contract
    try:
        return tuple(pl.scan_parquet(part).select(
            pl.len().alias("rows"), game.n_unique().alias("games"), game.min().alias("low"),
            game.max().alias("high"), pl.struct(game, seat).n_unique().alias("places"),
            (seat.min() >= 0).and_(seat.max() < players).alias("seats"),
            (pl.col("setup") != dealt).sum().alias("misdealt"),
            (pl.col("start_vp") != pl.lit(pl.Series(start_vp)).gather(
                seat.clip(0, players - 1))).sum().alias("vp"),
            pl.col("seed").unique().implode().alias("seeds"),
            pl.col("players").unique().implode().alias("counts"),
            pl.col("strategy").unique().implode().alias("names"),
            pl.sum_horizontal(pl.col(list(NEEDED)).null_count()).alias("nulls")).collect().row(0))
    except Exception as exc:
        raise CdsimError(f"{part}: corrupt part file ({type(exc).__name__}); {FIX}") from None


def check_part(part: Path, index: int, chunk: tuple[int, int],
               config: RunConfig) -> None:
    """A finished chunk's part holds its games of this run (``config``: the manifest's) and
    nothing else: the columns a report reads, with their types and no nulls; the chunk's
    games first..last-1, each with every seat once and dealt the setup its id says; the
    run's seed, player count and starting VP; only the run's players, as spelled. A part of
    another run (copied in, or left by one) or games counted twice are refused, not mixed
    in."""
    first, last = chunk
    players, seed = config.players, config.seed
    schema = part_schema(part)
    missing = [c for c in NEEDED if c not in schema]
    if missing:
        raise CdsimError(f"{part}: not a cdsim games part (missing columns: "
                         f"{', '.join(missing[:5])})")
    for name in NEEDED:
        want = _dtype_problem(name, schema[name])
        if want:
            raise CdsimError(f"{part}: column {name!r} holds {schema[name]}, not {want}; {FIX}")
    rows, games, low, high, places, seats, misdealt, vp, seeds, counts, spelled, nulls = \
        _part_figures(part, config)
    want_rows = (last - first) * players
    if nulls:
        raise CdsimError(f"{part}: {nulls} empty (null) values in the columns a report reads; {FIX}")
    if rows != want_rows or games != last - first or low != first or high != last - 1:
        raise CdsimError(f"{part}: chunk {index} should hold games {first}-{last - 1} x {players} "
                         f"seats ({want_rows} rows), it holds {rows} rows of {games} games "
                         f"({low}-{high}); {FIX}")
    if places != rows or not seats:
        raise CdsimError(f"{part}: chunk {index} holds a game with a seat twice or a seat "
                         f"outside 1-{players}; {FIX}")
    if misdealt:
        raise CdsimError(f"{part}: chunk {index} holds games whose setup is not the one their "
                         f"game id deals (games of another chunk or run under these ids); {FIX}")
    strangers = sorted(set(spelled) - {spec.spelling for spec in config.lineup})
    if list(seeds) != [seed] or list(counts) != [players] or strangers or vp:
        what = (f"players {', '.join(map(repr, strangers[:3]))}" if strangers else
                f"seed {sorted(seeds)[:3]}" if list(seeds) != [seed] else
                f"{sorted(counts)[:3]} players" if list(counts) != [players] else
                "other starting VP")
        raise CdsimError(f"{part}: a part of another run ({what}, not this run's); {FIX}")


__all__ = ["FIX", "NEEDED", "check_part", "part_schema"]
