"""The mypyc-compiled hot modules (setup.py) and the guard that keeps them honest."""

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from cdsim import native

DIGEST_GAMES = """
from cdsim import native
from cdsim.game import GameConfig, play_game
from cdsim.records import digest_rows
from strategies.registry import make_lineup
rows = []
for n, lineup in ((2, ["greedy", "bread"]), (3, ["villa", "landscape", "greedy"]),
                  (4, ["greedy", "villa", "landscape", "bread"])):
    for seed in range(4):
        rows += play_game(GameConfig(n), make_lineup(lineup, n), seed).rows()
print(native.active(), digest_rows(rows))
"""


def _play(pure: bool) -> tuple[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "CDSIM_PURE"}
    if pure:
        env["CDSIM_PURE"] = "1"
    out = subprocess.run([sys.executable, "-c", DIGEST_GAMES], env=env, check=True,
                         capture_output=True, text=True).stdout.split()
    return out[0], out[1]


def test_compiled_and_pure_python_play_the_same_games() -> None:
    from tests.test_strategies import SCRIPTED_GAMES_DIGEST

    pure_active, pure_digest = _play(pure=True)
    active, digest = _play(pure=False)
    assert pure_active == "False"  # CDSIM_PURE=1 runs the sources
    assert active == str(native.stale_sources() == [])  # compiled whenever built and fresh
    assert pure_digest == digest == SCRIPTED_GAMES_DIGEST


def _fake_build(root: Path) -> None:
    record = {}
    for source in native.COMPILED.values():
        py = root / source
        py.parent.mkdir(parents=True, exist_ok=True)
        py.write_text(f"# {source}\n")
        py.with_suffix(".cpython-311-x86_64-linux-gnu.so").write_bytes(b"")
        py.with_suffix(".abi3.so").write_bytes(b"")
        record[source] = hashlib.sha256(py.read_bytes()).hexdigest()
    (root / native.RECORD).write_text(json.dumps(record))


def test_an_edited_source_is_found_stale(tmp_path: Path) -> None:
    assert native.stale_sources(tmp_path) is None  # nothing compiled
    _fake_build(tmp_path)
    assert native.stale_sources(tmp_path) == []
    (tmp_path / "cdsim/district.py").write_text("# edited\n")
    assert native.stale_sources(tmp_path) == ["cdsim/district.py"]
    (tmp_path / native.RECORD).unlink()  # no record: nothing can be trusted
    assert native.stale_sources(tmp_path) == list(native.COMPILED.values())


def test_stale_modules_are_all_imported_from_source(tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str],
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CDSIM_PURE", raising=False)  # asked for: no note (make test-pure)
    _fake_build(tmp_path)
    (tmp_path / "strategies/value.py").write_text("# edited\n")
    before = list(sys.meta_path)
    try:
        native.guard(tmp_path, note=True)  # as on a terminal
        finder = sys.meta_path[0]
        assert finder not in before
        for name, source in native.COMPILED.items():  # all of them, not just the edited one
            spec = finder.find_spec(name, None)
            assert spec is not None and spec.origin == str(tmp_path / source)
        assert finder.find_spec("cdsim.game", None) is None
    finally:
        sys.meta_path[:] = before
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "strategies/value.py changed since compiled" in err
    sys.meta_path[:] = before
    try:
        native.guard(tmp_path)  # stderr is not a terminal here: the same fall-back, no note
        assert sys.meta_path[0] not in before
    finally:
        sys.meta_path[:] = before
    assert capsys.readouterr().err == ""


def test_make_reinstalls_when_a_compiled_source_changes() -> None:
    makefile = (Path(__file__).parent.parent / "Makefile").read_text()
    line = next(x for x in makefile.splitlines() if x.startswith("NATIVE :="))
    assert line.split(":=")[1].split("#")[0].split() == list(native.COMPILED.values())
