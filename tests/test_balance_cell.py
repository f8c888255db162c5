"""`cdsim balance --cell STUDY/KEY`: a study cell's line-ups pooled per stage, its stages
judged as the study's stages."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from cdsim.analysis import anytime
from cdsim.analysis.candidates import CellGames
from cdsim.batch.config import RunConfig
from cdsim.batch.folder import RunFolder
from cdsim.batch.queue import run_chunks
from cdsim.batch.read import open_run, seat_arrays

LINEUPS = (("greedy", "random"), ("random", "greedy"))


def cdsim(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "cdsim", *args], capture_output=True,
                          text=True, check=False)


def play(run: Path, seed: int, strategies: tuple[str, ...], games: int = 40) -> Path:
    config = RunConfig(players=2, games=games, seed=seed, strategies=strategies,
                       start_vp=(8, 9), rotate_seats=True, chunk_size=20)
    run_chunks(RunFolder(run), RunFolder(run).begin(config, False, False), 1, "loky")
    return run


@pytest.fixture(scope="module")
def study(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A study folder as `cdsim study run` lays it out: cell 2p.duel, two stages, two
    line-ups a stage (one seed per stage), and a neighbouring cell that must not be read."""
    root = tmp_path_factory.mktemp("study")
    cells = root / "cells"
    for stage, seed in enumerate((5, 6)):
        for lineup in LINEUPS:
            play(cells / f"2p.duel+s{stage}.{'-'.join(lineup)}", seed, lineup)
    play(cells / "2p.duel.variant+s0", 7, ("random", "random"))
    return root


def test_a_cell_pools_its_lineups_per_stage(study: Path) -> None:
    out = cdsim("balance", "--cell", str(study / "2p.duel"), "--radius", "3", "--json")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["games"] == 160 and len(data["runs"]) == 4
    assert not any("variant" in r for r in data["runs"])
    stages = []
    for stage in (0, 1):  # by hand: a deal is one group across both line-ups of its stage
        arrays = [seat_arrays(open_run(study / "cells" / f"2p.duel+s{stage}.{'-'.join(x)}"))
                  for x in LINEUPS]
        stages.append(CellGames(np.concatenate([a.base for a in arrays]),
                                np.concatenate([a.tiebreak_order for a in arrays]),
                                np.concatenate([a.setup for a in arrays])))
    assert [s.groups for s in stages] == [20, 20]  # 40 games a line-up, 2 rotations a deal
    verdict = anytime.decide_games(stages, (8, 9), 3, 0.02)
    assert data["vector"] == list(verdict.vector) and data["decision"] == verdict.decision
    # the interval rests on the deal groups: pooling the line-ups' deals apart would widen it
    assert data["verdict"]["gap_interval"] == pytest.approx(list(verdict.gap_interval))
    assert [x["stage"] for x in data["verdict"]["looks"]] == [0, 1][:len(verdict.looks)]
    assert (study / "balance_shift-2p.duel.png").read_bytes().startswith(b"\x89PNG")


def test_a_cell_that_is_not_there_is_one_line(study: Path, tmp_path: Path) -> None:
    for args in (["--cell", str(study / "3p.duel")], ["--cell", str(tmp_path / "2p.duel")],
                 [str(study / "cells" / "2p.duel.variant+s0"), "--cell", str(study / "2p.duel")],
                 []):
        out = cdsim("balance", *args)
        assert out.returncode == 2, out.stdout + out.stderr
        assert out.stderr.startswith("cdsim: error:") and out.stderr.count("\n") == 1, out.stderr


def test_balance_judges_with_the_zone_it_is_given(study: Path) -> None:
    """--zone reaches the verdict (default 0.5 pp): the cell's stages are judged as
    ``decide`` judges them with that zone."""
    for flags, zone in (((), 0.005), (("--zone", "0.01"), 0.01)):
        out = cdsim("balance", "--cell", str(study / "2p.duel"), "--radius", "3", "--json",
                    "--tolerance", "0.3", *flags)
        assert out.returncode == 0, out.stderr
        data = json.loads(out.stdout)
        assert data["zone"] == zone and data["verdict"]["zone"] == zone
        assert data["verdict"]["explain"].startswith(("Fair within ±30.0 pp (to", "Undecided",
                                                      "No whole-VP"))
