"""A study report keeps its costly figures in the study folder (cdsim.study.memo): written
again, it computes and draws none of them and its pages are the same bytes; a kept figure
that cannot be read, or a folder it may not write, only costs the computation; a figure is
found only under the digest of its exact inputs and code; figures of games or code that are
gone are removed."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest

from cdsim.analysis.candidates import CellGames, candidates, win_table
from cdsim.study.memo import (
    MEMO,
    Memo,
    analysis_code,
    float_rows,
    kept_table,
    key,
    read_table,
    table_bytes,
)
from tests.test_skill import two_population_study

PAGES = ("study.html", "study.md", "study.json")


def _pages(root: Path) -> dict[str, bytes]:
    files = [root / p for p in PAGES] + sorted((root / "charts").glob("*.png"))
    return {f.name: f.read_bytes() for f in files}


def test_a_report_written_again_computes_nothing_and_says_the_same(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from cdsim.study import cell, skill
    from reports import charts
    from reports.study import write

    root = two_population_study(tmp_path)  # reported once: its figures kept
    first = _pages(root)
    kept = sorted(p.name for p in (root / MEMO).iterdir())
    assert {k.split("-")[0] for k in kept} == {"offsets", "shown", "chart"}, kept

    def computed(*_: object) -> None:
        raise AssertionError("computed again")

    with monkeypatch.context() as m:
        m.setattr(cell, "cell_offsets", computed)
        m.setattr(skill, "not_shown_unfair", computed)
        m.setattr(charts, "_png", computed)
        write(root)
    assert _pages(root) == first
    assert sorted(p.name for p in (root / MEMO).iterdir()) == kept

    # a kept figure that is not one (a torn or foreign file): computed again, and kept again
    spoilt = next((root / MEMO).glob("offsets-*"))
    spoilt.write_text('{"not": "rows"}')
    chart = next((root / MEMO).glob("chart-*"))
    chart.write_bytes(b"")
    (root / MEMO / "chart-gone-0000").write_bytes(b"a chart no page shows any more")
    write(root)
    assert _pages(root) == first
    assert spoilt.read_text() != '{"not": "rows"}' and chart.read_bytes() == \
        first[chart.name.split("-")[1] + ".png"]
    assert not (root / MEMO / "chart-gone-0000").exists()

    # no cache at all (the first report): the same pages
    shutil.rmtree(root / MEMO)
    write(root)
    assert _pages(root) == first


def test_a_folder_it_may_not_write_only_keeps_nothing(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("")
    memo = Memo(tmp_path / "file" / MEMO)  # its folder cannot be made
    calls: list[int] = []
    for _ in range(2):
        assert memo.bytes("chart-x", (1,), lambda: calls.append(1) or b"png") == b"png"
    assert len(calls) == 2
    memo.prune(["chart"])


def test_a_figure_is_found_only_under_its_exact_inputs(tmp_path: Path) -> None:
    memo = Memo(tmp_path)
    made: list[str] = []

    def make(tag: str) -> list[list[float]]:
        made.append(tag)
        return [[0.1, float("nan")]]

    a, b = np.array([0.123456789012]), np.array([0.123456789013])
    assert repr(a) == repr(b)  # numpy's repr rounds: the key reads the bytes
    assert memo.json("offsets", (a,), lambda: make("a"), float_rows) == [[0.1, pytest.approx(
        float("nan"), nan_ok=True)]]
    memo.json("offsets", (a,), lambda: make("again"), float_rows)
    memo.json("offsets", (b,), lambda: make("b"), float_rows)
    memo.json("offsets", (a.astype(np.float32),), lambda: make("c"), float_rows)
    assert made == ["a", "b", "c"]
    assert key(0.1 + 0.2) != key(0.3) and key((1, 2)) != key([1, 2]) != key("[1, 2]")
    assert key(True) != key(1) and key(np.float64(0.5)) == key(0.5)
    assert Memo(tmp_path, "other code").json("offsets", (a,), lambda: make("d"),
                                             float_rows) and made[-1] == "d"
    with pytest.raises(TypeError, match="cannot key"):
        key(object())


# -- a stage's win table: kept by `cdsim study run`, read once by its report ------------------

def _games(seed: int, n: int = 3, games: int = 240) -> CellGames:
    rng = np.random.default_rng(seed)
    return CellGames(rng.integers(0, 30, size=(games, n)),
                     np.argsort(rng.random((games, n)), axis=1),
                     np.repeat(np.arange(games // n), n))


def test_a_kept_win_table_is_the_computed_one_bit_for_bit(tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    from cdsim.study import memo as memo_module

    games, vectors = _games(1), candidates((8, 9, 13), 2)
    table = win_table(games, vectors)
    back = read_table(table_bytes(table))
    assert back is not None
    for name in ("vectors", "wins", "cross", "wm"):
        a, b = getattr(table, name), getattr(back, name)
        assert a.dtype == b.dtype and a.tobytes() == b.tobytes(), name
    assert (back.games, back.groups, back.size_sq) == (table.games, table.groups, table.size_sq)
    assert read_table(b"not a table") is None and read_table(table_bytes(table)[:-9]) is None

    memo = Memo(tmp_path, "code")
    first = kept_table(memo, games, vectors)  # computed and kept
    assert [p.name.split("-")[1] for p in tmp_path.iterdir()] == ["table"]

    def computed(*_: object) -> None:
        raise AssertionError("computed again")

    monkeypatch.setattr(memo_module, "win_table", computed)
    again = kept_table(Memo(tmp_path, "code"), games, vectors)  # found
    assert again.cross.tobytes() == first.cross.tobytes()
    with pytest.raises(AssertionError, match="computed again"):  # other games: not found
        kept_table(Memo(tmp_path, "code"), _games(2), vectors)


def test_the_run_keeps_each_stage_s_table_and_its_report_reads_them_once(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The skill panel re-ranked every stage of every skilled cell over its candidates, as
    the study's plan had just done: the plan keeps them, the panel's flags are made of them
    (the same flags as computed), and the report removes them once it has kept the flags."""
    from cdsim.analysis.skill import not_shown_unfair, unfair_level
    from cdsim.study import memo as memo_module
    from cdsim.study import play
    from cdsim.study.model import load_study
    from cdsim.study.results import read_results
    from cdsim.study.skill import kept_shown_fair
    from reports.study import write
    from tests.test_skill import TWO

    (tmp_path / "two.toml").write_text(TWO)
    root = tmp_path / "two"
    play.run(load_study(tmp_path / "two.toml"), root, jobs=1)
    tables = sorted((root / MEMO).glob("win-table-*"))
    result = read_results(root, memo=Memo(None))  # nothing kept or read
    stages = sum(len(c.stages) for c in result.cells)
    assert len(tables) == stages > 0

    shutil.copytree(root / MEMO, tmp_path / "copy")  # the report's own left as the run left it
    memo = Memo(tmp_path / "copy", analysis_code())
    monkeypatch.setattr(memo_module, "win_table", lambda *_: pytest.fail("computed again"))
    level = unfair_level(result.manifest.alpha)
    for cell in result.cells:
        vectors = candidates(cell.rulebook, cell.radius)
        kept = kept_shown_fair(memo, cell)(cell.stages, vectors, result.tolerance, level)
        assert (kept == not_shown_unfair(cell.stages, vectors, result.tolerance, level)).all()
    monkeypatch.undo()

    write(root)
    assert not list((root / MEMO).glob("win-table-*"))  # read once
    first = _pages(root)
    shutil.rmtree(root / MEMO)  # no table kept: the same pages
    write(root)
    assert _pages(root) == first
