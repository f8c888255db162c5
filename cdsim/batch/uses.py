"""A run's use rows: which components each seat used, for a run that judges a change of
them (``RunConfig.watched``: the entries a whatif's variants change, in its base's runs and
theirs). The core records them when asked (``play_chunk(uses=True)``), each game its own
kinds of use: a row's ``kind`` is the entry's table (a frame ``part``, a ``villa_table``
row, a table of ``cards``), its ``id`` the entry within it, its ``count`` the uses (goals
of it scored, cards of it taken); what counts as a use of which entry is the game's own,
said by its spec's ``component_use`` (each game's package lists its kinds). One row per
(game, seat, kind, id) used at least once, kept for the watched entries only, in
``uses/part-NNNNN.parquet`` beside the chunk's seat rows: every other run writes none, so
its folder is what it was.

A run with a Python strategy plays on the Python table, which records no uses: its chunks
write no use part, and the verdict says the use is not recorded for it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cdsim.errors import CdsimError

if TYPE_CHECKING:  # polars is imported where rows are read: the commands start without it
    import polars as pl

USES = "uses"  # a run's use parts, beside its seat rows' parts
COLUMNS = ("game", "seat", "kind", "id", "count")
FIX = "delete the run folder's uses/ and games/ parts of that chunk and its entry in " \
    "manifest.json's finished, then --resume"


def kinds(watched: Sequence[str]) -> dict[str, set[str] | None]:
    """The use rows a run keeps for its ``watched`` entries: by kind (``part``), the ids
    (``{"3"}``), None for every id (``villa_table``, a table without ids)."""
    out: dict[str, set[str] | None] = {}
    for entry in watched:
        kind, _, ident = entry.partition(".")
        if not ident:
            out[kind] = None
        elif kind not in out:
            out[kind] = {ident}
        elif (ids := out[kind]) is not None:
            ids.add(ident)
    return out


def use_frame(made: Mapping[str, Any], watched: Sequence[str]) -> pl.DataFrame:
    """The core's ``uses`` table of a chunk (indices and the names they index) as rows of
    ``COLUMNS``, the watched entries' only, sorted by game, seat, kind and id."""
    import polars as pl

    frame = pl.DataFrame({
        "game": pl.Series(made["game"], dtype=pl.Int64),
        "seat": pl.Series(made["seat"], dtype=pl.Int64),
        "kind": pl.Series(list(made["kinds"]), dtype=pl.String).gather(made["kind"]),
        "id": pl.Series(list(made["ids"]), dtype=pl.String).gather(made["id"]),
        "count": pl.Series(made["count"], dtype=pl.Int64)})
    return watched_only(frame, watched).sort("game", "seat", "kind", "id")


def watched_only(frame: pl.DataFrame, watched: Sequence[str]) -> pl.DataFrame:
    """The rows of ``frame`` about the ``watched`` entries."""
    import polars as pl

    keep = pl.lit(False)
    for kind, ids in kinds(watched).items():
        this = pl.col("kind") == kind
        keep = keep | (this if ids is None else this & pl.col("id").is_in(sorted(ids)))
    return frame.filter(keep)


def check_use_parts(parts: Sequence[tuple[int, Path]], chunks: Sequence[tuple[int, int]],
                    players: int, watched: Sequence[str]) -> None:
    """Each (index, use part) of a run holds its chunk's games only, seats of the run, a
    count above 0 and the watched entries only; or one line naming the part."""
    import polars as pl

    for index, path in parts:
        try:
            frame = pl.read_parquet(path, columns=list(COLUMNS))
        except Exception as exc:
            raise CdsimError(f"{path}: corrupt or missing use part ({type(exc).__name__}); "
                             f"{FIX}") from None
        first, last = chunks[index]
        game, seat, count = (frame[c].to_numpy() for c in ("game", "seat", "count"))
        if frame.height and (game.min() < first or game.max() >= last or seat.min() < 0
                             or seat.max() >= players or count.min() < 1):
            raise CdsimError(f"{path}: chunk {index}'s use rows should be of games "
                             f"{first}-{last - 1}, seats 0-{players - 1}, counts above 0; "
                             f"{FIX}")
        if watched_only(frame, watched).height != frame.height:
            raise CdsimError(f"{path}: use rows of components this run does not watch "
                             f"({', '.join(watched)}); {FIX}")


def use_rows(root: Path, finished: Sequence[int]) -> pl.DataFrame | None:
    """The use rows of a run folder's ``finished`` chunks (``COLUMNS``), or None where a
    chunk has no use part (a run that watched nothing, or played with a Python strategy)."""
    import polars as pl

    paths = [root / USES / f"part-{i:05d}.parquet" for i in sorted(finished)]
    if not paths or not all(p.is_file() for p in paths):
        return None
    return pl.concat([pl.read_parquet(p, columns=list(COLUMNS)) for p in paths])


__all__ = ["COLUMNS", "USES", "check_use_parts", "kinds", "use_frame", "use_rows",
           "watched_only"]
