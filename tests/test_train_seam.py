"""``cdsim train --game castles``: the seam's trainer (cdsim/train/seam.py) over the core's
search labels, run by the one pipeline (cdsim/train/). The fit finds the margin that
separates a decision's options (a decision's shared luck cancels), a tiny run is
reproducible byte for byte for any --jobs and is what the seam's own pipeline wrote before
there was one pipeline, and bad flags are one line."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import numpy as np
import pytest

from cdsim import core
from cdsim.train import seam
from tests.commands import run_cli

needs_core = pytest.mark.skipif(not core.available() or not hasattr(core.module(),
                                                                    "search_labels"),
                                reason="needs the compiled core with search labels")


def test_the_fit_finds_the_margin_that_separates_the_options() -> None:
    rng = np.random.default_rng(59)
    decisions, options, seats, width = 600, 5, 3, 4
    rows = decisions * options
    truth = rng.normal(0, 1, width)
    inputs = rng.normal(0, 1, (rows, seats, width))
    gained = rng.integers(0, 40, (rows, seats)).astype(float)
    group = np.repeat(np.arange(decisions), options)
    luck = np.repeat(rng.normal(0, 30, (decisions, seats)), options, axis=0)
    # each seat's label: its VP gained now, its inputs' worth, and luck shared by a decision
    label = gained + inputs @ truth + luck
    labels = seam.Labels(label, gained, inputs, np.zeros(rows, dtype=np.int64), group)
    fitted = seam.fit(labels, 1, width, ridge=1e-6)
    assert np.allclose(fitted[0], truth, atol=1e-3), (fitted, truth)
    assert seam.agreement(labels, fitted) > 0.99
    # too few rows in a phase: its weights stay zero (VP gained alone)
    few = seam.Labels(label[:10], gained[:10], inputs[:10],
                      np.zeros(10, dtype=np.int64), group[:10])
    assert seam.fit(few, 1, width, ridge=1.0) == [[0.0] * width]


@needs_core
def test_a_tiny_run_gives_the_same_bytes_for_any_jobs(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    files = []
    for jobs in (1, 2, 2):
        out = tmp_path / f"w{len(files)}.json"
        code, _, err = run_cli(["train", "--game", "castles", "--games", "2,0,1", "--rounds",
                                "2", "--every", "12", "--label-playouts", "3", "--jobs",
                                str(jobs), "--quiet", "--out", str(out)], monkeypatch, capsys)
        assert code == 0, err
        files.append(out.read_bytes())
    assert files[0] == files[1] == files[2]
    # what the seam's pipeline before the one pipeline wrote for these flags (main at 601876b)
    assert hashlib.sha256(files[0]).hexdigest() == \
        "da7c9e3ff6856852ccb3de87f9224fb10c963451046b5d8cbd84e6f96e18bc59"
    data = json.loads(files[0])
    assert data["format"] == "cdsim-weights" and data["game"] == "castles"
    assert len(data["weights"]["2"]) == data["phases"] == 3
    assert all(len(row) == len(data["inputs"]) for row in data["weights"]["4"])
    assert any(w != 0 for row in data["weights"]["2"] for w in row), "round 1 fitted nothing"


@needs_core
@pytest.mark.parametrize(("flags", "said"), [
    (["--games", "2,0"], "--games: one count of games per player count"),
    (["--every", "0"], "--every must be >= 1"),
    (["--explore", "2"], "--explore must be 0-1"),
    (["--components", "x"], "--components: castles trains on its built-in"),
])
def test_bad_flags_are_one_line(flags: list[str], said: str, tmp_path: Path,
                                monkeypatch: pytest.MonkeyPatch,
                                capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run_cli(["train", "--game", "castles", "--quiet", "--out",
                            str(tmp_path / "w.json"), *flags], monkeypatch, capsys)
    assert code == 2 and said in err and err.count("\n") == 1, err
    assert not (tmp_path / "w.json").exists()


@needs_core
def test_a_game_without_a_learned_player_is_refused_before_any_work(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """The Mediterranean has no learned player: one line naming --game, before a worker
    starts (it was a worker's traceback, exit 1) and before the file is written."""
    code, out, err = run_cli(["train", "--game", "mediterranean", "--quiet", "--games",
                              "1,1,1", "--out", str(tmp_path / "w.json")], monkeypatch, capsys)
    assert code == 2 and err.count("\n") == 1, err
    assert err.startswith("cdsim: error: --game mediterranean: ") and \
        "has no learned player to train" in err, err
    assert "Traceback" not in err + out and not (tmp_path / "w.json").exists()
