"""A run's Parquet parts checked before they are read or resumed: a finished chunk's part
holds that chunk's games of this run and nothing else (``check_part``), with the columns a
report reads and their types (``part_schema``)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cdsim.batch.config import RunConfig
from cdsim.errors import CdsimError

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


def needed(config: RunConfig) -> tuple[str, ...]:
    """The columns readers read: every column of its game's seat rows."""
    return config.spec.row_fields()


TEXT_COLUMNS = ("strategy",)
BOOL_COLUMNS = ("won", "tiebreak")  # every other needed column holds integers
FIX = "delete it and its chunk from manifest.json, then --resume"


def _dtype_problem(name: str, dtype: DataType, declared: str | None = None) -> str | None:
    """What ``name``'s column should hold if ``dtype`` is not it: its type as the game
    declares it (``GameSpec.columns``: "str", "bool", "int"), else by its name."""
    import polars as pl

    if declared == "str" or (declared is None and name in TEXT_COLUMNS):
        return None if dtype == pl.String else "text"
    if declared == "bool" or (declared is None and name in BOOL_COLUMNS):
        return None if dtype == pl.Boolean else "true/false"
    return None if dtype.is_integer() else "integers"


def _row_flags(lf: Any, config: RunConfig) -> Any:
    """Each row's misdeal and wrong starting VP (``_figures`` sums them)."""
    import polars as pl

    players = config.players
    start_vp = list(config.starting_vp)
    game, seat = pl.col("game"), pl.col("seat")
    dealt = game // players if config.rotate_seats else game  # the reproducibility contract
    return lf.with_columns(
        (pl.col("setup") != dealt).alias("__misdealt"),
        (pl.col("start_vp") != pl.lit(pl.Series(start_vp)).gather(
            seat.clip(0, players - 1))).alias("__vp"))


def _figures(config: RunConfig, whole: bool) -> list[Any]:
    """What ``check_part`` checks of a part, as aggregations over its rows (of
    ``_row_flags``), in the order ``_judge`` reads them; seeds, counts and names as lists.
    ``whole``: over the whole frame (a select), else over each group (an agg)."""
    import polars as pl

    players = config.players

    def values(name: str) -> Any:
        unique = pl.col(name).unique()
        return unique.implode() if whole else unique

    game, seat = pl.col("game"), pl.col("seat")
    return [pl.len().alias("rows"), game.n_unique().alias("games"), game.min().alias("low"),
            game.max().alias("high"), pl.struct(game, seat).n_unique().alias("places"),
            (seat.min() >= 0).and_(seat.max() < players).alias("seats"),
            pl.col("__misdealt").sum().alias("misdealt"), pl.col("__vp").sum().alias("vp"),
            values("seed").alias("seeds"), values("players").alias("counts"),
            values("strategy").alias("names"),
            pl.sum_horizontal(pl.col(list(needed(config))).null_count()).alias("nulls")]


def _part_figures(part: Path, config: RunConfig) -> tuple[Any, ...]:
    """What ``check_part`` checks, read in one pass over the part (one line if it cannot
    be read)."""
    import polars as pl

    try:
        return tuple(_row_flags(pl.scan_parquet(part), config).select(
            _figures(config, whole=True)).collect().row(0))
    except Exception as exc:
        raise CdsimError(f"{part}: corrupt part file ({type(exc).__name__}); {FIX}") from None


def check_parts(parts: Sequence[tuple[int, Path]], chunks: Sequence[tuple[int, int]],
                config: RunConfig) -> None:
    """``check_part`` of each (index, part) of one run, its figures read in one pass over
    all of them (a run's hundreds of parts: one query, not hundreds); where that pass fails,
    part by part, so that the line names the part."""
    import polars as pl

    for _, part in parts:
        _check_schema(part, config)
    paths = [str(part) for _, part in parts]
    try:
        found = {str(r[0]): tuple(r[1:]) for r in _row_flags(
            pl.scan_parquet(paths, include_file_paths="__part"), config)
            .group_by("__part").agg(_figures(config, whole=False)).collect().rows()}
    except Exception:  # a part unlike the others: the per-part check names it
        found = {}
    for index, part in parts:
        figures = found.get(str(part))
        if figures is None:
            figures = _part_figures(part, config)
        _judge(part, index, chunks[index], config, figures)


def check_part(part: Path, index: int, chunk: tuple[int, int],
               config: RunConfig) -> None:
    """A finished chunk's part holds its games of this run (``config``: the manifest's) and
    nothing else: the columns a report reads, with their types and no nulls; the chunk's
    games first..last-1, each with every seat once and dealt the setup its id says; the
    run's seed, player count and starting VP; only the run's players, as spelled. A part of
    another run (copied in, or left by one) or games counted twice are refused, not mixed
    in."""
    _check_schema(part, config)
    _judge(part, index, chunk, config, _part_figures(part, config))


def _check_schema(part: Path, config: RunConfig) -> None:
    schema = part_schema(part)
    missing = [c for c in needed(config) if c not in schema]
    if missing:
        raise CdsimError(f"{part}: not a cdsim games part (missing columns: "
                         f"{', '.join(missing[:5])})")
    declared = dict(config.spec.columns()[0])
    for name in needed(config):
        want = _dtype_problem(name, schema[name], declared.get(name))
        if want:
            raise CdsimError(f"{part}: column {name!r} holds {schema[name]}, not {want}; {FIX}")


def _judge(part: Path, index: int, chunk: tuple[int, int], config: RunConfig,
           figures: tuple[Any, ...]) -> None:
    first, last = chunk
    players, seed = config.players, config.seed
    rows, games, low, high, places, seats, misdealt, vp, seeds, counts, spelled, nulls = figures
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


__all__ = ["FIX", "check_part", "check_parts", "needed", "part_schema"]
