"""The answer first in report.html, `cdsim power`'s equivalence answer, and `cdsim balance`
pooling runs of one setup with a confirm command that runs as printed."""

from __future__ import annotations

import json
import re
import shlex
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from cdsim.analysis.anytime import design_groups
from cdsim.analysis.candidates import CellGames, gap_interval, win_table
from cdsim.analysis.predict import confirmation_games
from cdsim.batch.balance import pool
from cdsim.batch.config import RunConfig
from cdsim.batch.folder import RunFolder
from cdsim.batch.queue import run_chunks
from cdsim.batch.read import open_run, seat_arrays
from cdsim.cli import main
from reports.report import write as write_report


def simulate(run: Path, seed: int, games: int = 60, start_vp: tuple[int, ...] = (8, 9, 13)
             ) -> Path:
    config = RunConfig(players=3, games=games, seed=seed, strategies=("greedy", "landscape", "bread"),
                       start_vp=start_vp, rotate_seats=True, chunk_size=15)
    run_chunks(RunFolder(run), RunFolder(run).begin(config, False, False), 1, "loky")
    return run


def cli(args: list[str], monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "argv", ["cdsim", *args])
    code = 0
    try:
        main()
    except SystemExit as exc:
        code = int(exc.code or 0)
    out = capsys.readouterr()
    return code, out.out, out.err


def test_report_html_opens_with_the_answer(tmp_path: Path) -> None:
    run = simulate(tmp_path / "run", 1)
    page = write_report(run, tmp_path / "rep", 0.3).read_text()
    body = page.split("<body>", 1)[1]
    assert body.index('class="answers"') < body.index("<h2>Run</h2>")  # first, after the title
    box = body.split('class="answers"', 1)[1].split("</section>", 1)[0]
    assert "3 players" in box and "starting VP <b>8/9/13</b>: largest seat gap" in box
    assert "pp (too few games to bound it) on 60 games" in box  # 20 deals: below MIN_GROUPS
    assert ": most equal so far (not confirmed)" in box  # 3 players, one run: never confirmed
    md = (tmp_path / "rep" / "report.md").read_text()
    assert md.index("> ### 3 players") < md.index("## Run")


def test_a_small_run_reports_an_interval_of_its_own_games(tmp_path: Path) -> None:
    """Issue 41: a 400-game report printed "largest seat gap 8.0 pp (95% interval 0.0 to
    53.9 pp)", the procedure's confidence sequence (valid at any look, so wide this early)
    beside seat intervals of ±4.4 pp. The report's interval is that of its own games:
    simultaneous over the seat pairs, Student's t on the deals."""
    config = RunConfig(players=4, games=400, seed=1, strategies=("greedy",) * 4, chunk_size=100)
    run = tmp_path / "run"
    run_chunks(RunFolder(run), RunFolder(run).begin(config, False, False), 1, "loky")
    md = (write_report(run, tmp_path / "rep").parent / "report.md").read_text()
    box = next(line for line in md.splitlines() if "starting VP **8/9/10/11**" in line)
    found = re.search(r"largest seat gap ([\d.]+) pp \(95% interval ([\d.]+) to ([\d.]+) pp\)",
                      box)
    assert found, box
    games = seat_arrays(open_run(run))
    table = win_table(CellGames(games.base, games.tiebreak_order, games.setup),
                      [(8, 9, 10, 11)])
    low, high = gap_interval(*table.pair_stats(), table.groups - 1)
    assert [float(x) for x in found.groups()] == pytest.approx(
        [100 * table.gaps[0], 100 * low[0], 100 * high[0]], abs=0.051)
    assert float(found[3]) < 25  # not 53.9


def test_power_answers_the_equivalence_question(monkeypatch: pytest.MonkeyPatch,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = cli(["power", "--players", "2", "--tolerance", "0.02", "--gap", "0",
                          "--json"], monkeypatch, capsys)
    assert code == 0, err
    data = json.loads(out)
    # the anytime test of one vector at alpha's confirmation share (2.5%), boundary tightest
    # where the study's cells put it
    design = design_groups(2, 0.02, 0.05, 1.0)
    assert data["games_equivalence"] == confirmation_games(2, 0.0, 0.02, 0.025, design)
    assert data["games_study"] > data["games_equivalence"]  # the two ends: 1.25% each
    assert {"games_chi2", "games_pair", "games_ci"} <= set(data)
    code, out, _ = cli(["power", "--players", "4", "--gap", "0.01"], monkeypatch, capsys)
    assert code == 0 and "Equivalence: a vector whose seats truly lie 1.0 pp apart" in out
    wider = json.loads(cli(["power", "--players", "4", "--gap", "0.01", "--json"], monkeypatch,
                           capsys)[1])["games_equivalence"]
    assert wider > json.loads(cli(["power", "--players", "4", "--json"], monkeypatch,
                                  capsys)[1])["games_equivalence"]
    code, _, err = cli(["power", "--gap", "0.02", "--tolerance", "0.02"], monkeypatch, capsys)
    assert code == 2 and "--gap must be" in err and err.count("\n") == 1


def test_balance_pools_runs_and_prints_a_confirm_command_that_runs(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    one, two = simulate(tmp_path / "one", 1), simulate(tmp_path / "two", 2)
    code, out, err = cli(["balance", str(one), str(two), "--tolerance", "0.3", "--radius", "3",
                          "--json"], monkeypatch, capsys)
    assert code == 0, err
    data = json.loads(out)
    assert data["games"] == 120 and data["runs"] == [str(one), str(two)]
    assert "small run" in err and all("small run" in w for w in data["warnings"])
    alone = json.loads(cli(["balance", str(one), "--tolerance", "0.3", "--radius", "3",
                            "--json"], monkeypatch, capsys)[1])
    assert alone["games"] == 60
    opened = [open_run(one), open_run(two)]
    pooled, _ = pool(opened, [seat_arrays(r) for r in opened], 0.3)
    assert len(np.unique(pooled.setup)) == 40  # 20 deals each (3 rotations), kept apart
    simulate_cmd, balance_cmd = data["confirm_command"]
    assert f"--start-vp {','.join(map(str, data['vector']))}" in simulate_cmd
    assert "--seed 3" in simulate_cmd  # fresh deals: no pooled run's seed
    for printed in (simulate_cmd, balance_cmd):  # runs as printed
        words = shlex.split(printed)
        assert words[0] == "cdsim"
        done = subprocess.run([sys.executable, "-m", "cdsim", *words[1:]], capture_output=True,
                              text=True, check=False)
        assert done.returncode == 0, done.stderr
    confirm = Path(shlex.split(simulate_cmd)[-1])
    assert list(RunFolder(confirm).read().config.start_vp) == data["vector"]
    code, out, _ = cli(["balance", str(one), str(two), "--tolerance", "0.3", "--radius", "3"],
                       monkeypatch, capsys)
    assert code == 0 and "2 runs pooled" in out and "  cdsim simulate --players 3" in out


def test_balance_refuses_other_setups_and_warns_on_partial_runs(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    one = simulate(tmp_path / "one", 1)
    same_seed = simulate(tmp_path / "again", 1)
    other = simulate(tmp_path / "other", 2, start_vp=(8, 9, 10))
    code, _, err = cli(["balance", str(one), str(same_seed)], monkeypatch, capsys)
    assert code == 2 and "same seed 1" in err
    code, _, err = cli(["balance", str(one), str(other)], monkeypatch, capsys)
    assert code == 2 and "not the same setup" in err and "start_vp" in err
    code, _, err = cli(["balance", str(one), str(one)], monkeypatch, capsys)
    assert code == 2 and "given twice" in err
    partial = simulate(tmp_path / "partial", 3)
    manifest = RunFolder(partial).read()
    manifest.finished = manifest.finished[:-1]
    RunFolder(partial).part(len(manifest.chunks) - 1).unlink()
    RunFolder(partial).write(manifest)
    code, _, err = cli(["balance", str(one), str(partial), "--tolerance", "0.3", "--radius", "2"],
                       monkeypatch, capsys)
    assert code == 0 and f"{partial}: partial run, 45 of 60 games" in err
