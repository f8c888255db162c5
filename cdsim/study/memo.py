"""What a study's report computed before, kept in the study folder by the digest of what
made it (``Memo``), so that a report written again computes only what changed.

Its figures cost seconds each (a cell's fair offsets: a bootstrap of Newton solves; a skill
panel's vectors not shown unfair: every candidate re-ranked on every stage; a chart drawn by
matplotlib) while a study's games change only when it plays. A figure is kept under the
digest of its exact inputs (the games' arrays, not the files' names or dates) and of the code
that computes it (the source files of ``cdsim.analysis`` or ``reports.charts``, numpy's and
matplotlib's versions), so what is found is what a fresh computation gives, byte for byte.
A figure that cannot be read is computed again; one that cannot be kept (a read-only study
folder) is only not kept. ``Memo(None)`` keeps nothing."""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import zipfile
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any, TypeVar

import numpy as np

from cdsim.analysis.candidates import CellGames, WinTable, win_table
from cdsim.batch.folder import atomic_write

MEMO = "report-cache"  # the folder in a study folder
ANALYSIS = Path(__file__).resolve().parent.parent / "analysis"  # the figures' code
T = TypeVar("T")


def games_digest(stages: Iterable[CellGames]) -> str:
    """The digest of a cell's finished stages' games (every array, its type and shape)."""
    h = hashlib.blake2b(digest_size=20)
    for g in stages:
        for a in (g.gained, g.tiebreak, g.group):
            h.update(f"{a.dtype.str}{a.shape}".encode())
            h.update(np.ascontiguousarray(a).data)
    return h.hexdigest()


def code_digest(files: Iterable[Path], *versions: str) -> str:
    """The digest of the code behind a figure: its source files and library versions."""
    h = hashlib.blake2b(digest_size=20)
    for path in sorted(files):
        h.update(path.name.encode())
        h.update(path.read_bytes())
    for v in versions:
        h.update(v.encode())
    return h.hexdigest()


def analysis_code() -> str:
    """What computes the cells' figures: cdsim.analysis's sources, this file (how a figure
    is kept) and numpy's and scipy's versions."""
    from importlib.metadata import version

    return code_digest([*ANALYSIS.glob("*.py"), Path(__file__)], np.__version__,
                       version("scipy"))


def key(*parts: object) -> str:
    """The digest of a figure's inputs, exactly: arrays by type, shape and bytes, floats by
    their hex (a repr may round), sequences and mappings item by item, the rest by repr."""
    h = hashlib.blake2b(digest_size=20)
    for part in parts:
        _feed(h, part)
    return h.hexdigest()


def _feed(h: Any, part: object) -> None:
    if isinstance(part, np.ndarray):
        h.update(f"array{part.dtype.str}{part.shape}:".encode())
        h.update(np.ascontiguousarray(part).data)
    elif isinstance(part, np.generic):  # a numpy scalar: as the Python number it holds
        _feed(h, part.item())
        return
    elif isinstance(part, float):
        h.update(f"float:{part.hex()}".encode())
    elif isinstance(part, list | tuple):
        h.update(f"{type(part).__name__}{len(part)}(".encode())
        for item in part:
            _feed(h, item)
        h.update(b")")
    elif isinstance(part, dict):
        h.update(f"dict{len(part)}(".encode())
        for k, v in part.items():
            _feed(h, k)
            _feed(h, v)
        h.update(b")")
    elif part is None or isinstance(part, bool | int | str | bytes):
        h.update(f"{type(part).__name__}:{part!r}".encode())
    else:  # nothing else is a figure's input: refused, never keyed by a loose repr
        raise TypeError(f"cannot key a {type(part).__name__}")
    h.update(b"\x00")


class Memo:
    """A folder of figures, each a file named by its kind and digest (``folder/KIND-KEY``);
    ``folder`` None keeps nothing. ``code`` is added to every key (``analysis_code``)."""

    def __init__(self, folder: Path | None, code: str = "") -> None:
        self.folder = folder
        self.code = code
        self.used: set[str] = set()  # the files this report found or kept

    def prune(self, kinds: Sequence[str]) -> None:
        """Remove the figures of ``kinds`` this report did not use: those of games or code
        that are gone (a report reads all of its figures of these kinds)."""
        if self.folder is None or not self.folder.is_dir():
            return
        for path in self.folder.iterdir():
            if path.name not in self.used and path.name.startswith(
                    tuple(f"{k}-" for k in kinds)):
                with contextlib.suppress(OSError):  # a folder we may not write: as it was
                    path.unlink(missing_ok=True)

    def find(self, kind: str, inputs: Sequence[object],
             readable: Callable[[bytes], bool] = lambda _: True) -> bytes | None:
        """The kept figure of ``kind`` made from ``inputs`` if there is one and it is
        ``readable``, else None (``bytes``'s first half: a figure made elsewhere is then
        ``keep``-t)."""
        if self.folder is None:
            return None
        path = self.folder / f"{kind}-{key(self.code, *inputs)}"
        self.used.add(path.name)
        try:
            data = path.read_bytes()
        except OSError:
            return None
        return data if readable(data) else None

    def keep(self, kind: str, inputs: Sequence[object], data: bytes) -> None:
        """Keep ``data`` as the figure of ``kind`` made from ``inputs`` (not kept: in a
        folder it may not write, or with no folder)."""
        if self.folder is None:
            return
        path = self.folder / f"{kind}-{key(self.code, *inputs)}"
        self.used.add(path.name)
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            atomic_write(path, lambda tmp: tmp.write_bytes(data))
        except OSError:  # a folder we may not write: the figure is only not kept
            pass

    def bytes(self, kind: str, inputs: Sequence[object], make: Callable[[], bytes],
              readable: Callable[[bytes], bool] = lambda _: True) -> bytes:
        """The figure of ``kind`` made from ``inputs``: the kept one if ``readable``, else
        made by ``make`` and kept."""
        found = self.find(kind, inputs, readable)
        if found is not None:
            return found
        data = make()
        self.keep(kind, inputs, data)
        return data

    def json(self, kind: str, inputs: Sequence[object], make: Callable[[], T],
             shape: Callable[[object], bool]) -> T:
        """A figure kept as JSON (a float's repr reads back the same float; NaN kept):
        ``make``'s value, or the kept one if ``shape`` accepts it."""
        def readable(data: bytes) -> bool:
            try:
                return shape(json.loads(data))
            except ValueError:
                return False

        value: T = json.loads(self.bytes(kind, inputs, lambda: json.dumps(make()).encode(),
                                         readable))
        return value


TABLE = "win-table"  # a stage's win table over a cell's candidates (``kept_table``)
_TABLE_ARRAYS = ("vectors", "wins", "cross", "wm", "games", "groups", "size_sq")


def table_bytes(table: WinTable) -> bytes:
    """``table`` as a kept figure: its arrays and counts, bit for bit (an .npz)."""
    buf = io.BytesIO()
    np.savez(buf, vectors=table.vectors, wins=table.wins, cross=table.cross, wm=table.wm,
             games=np.asarray(table.games), groups=np.asarray(table.groups),
             size_sq=np.asarray(table.size_sq))  # _TABLE_ARRAYS
    return buf.getvalue()


def read_table(data: bytes) -> WinTable | None:
    """The win table ``table_bytes`` kept, or None where ``data`` is not one."""
    try:
        with np.load(io.BytesIO(data), allow_pickle=False) as z:
            a = {name: z[name] for name in _TABLE_ARRAYS}
    except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile):
        return None
    v, n = a["vectors"].shape if a["vectors"].ndim == 2 else (-1, -1)
    if (v < 0 or a["wins"].shape != (v, n) or a["cross"].shape != (v, n, n)
            or a["wm"].shape != (v, n) or any(a[k].shape != () for k in _TABLE_ARRAYS[4:])):
        return None
    return WinTable(a["vectors"].astype(np.int64), a["wins"].astype(np.int64),
                    a["cross"].astype(np.float64), a["wm"].astype(np.float64),
                    int(a["games"]), int(a["groups"]), float(a["size_sq"]))


def kept_table(memo: Memo, games: CellGames, vectors: np.ndarray[Any, Any]) -> WinTable:
    """``win_table(games, vectors)``, kept in ``memo`` under the digest of the games and
    the vectors: `cdsim study run` keeps each stage's as it judges it, its report's skill
    panel reads them rather than re-ranking every stage again."""
    inputs = (games_digest([games]), np.asarray(vectors, dtype=np.int64))
    found = memo.find(TABLE, inputs, lambda data: read_table(data) is not None)
    table = read_table(found) if found is not None else None
    if table is None:
        table = win_table(games, vectors)
        memo.keep(TABLE, inputs, table_bytes(table))
    return table


def float_rows(value: object) -> bool:
    """Whether ``value`` is None or rows of floats (a kept figure's shape)."""
    return value is None or (isinstance(value, list) and all(
        isinstance(r, list) and all(isinstance(x, float) for x in r) for r in value))


def flags(value: object) -> bool:
    """Whether ``value`` is a list of true/false."""
    return isinstance(value, list) and all(isinstance(x, bool) for x in value)


__all__ = [
    "MEMO",
    "TABLE",
    "Memo",
    "analysis_code",
    "code_digest",
    "flags",
    "float_rows",
    "games_digest",
    "kept_table",
    "key",
    "read_table",
    "table_bytes",
]
