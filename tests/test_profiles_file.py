"""A new scripted player is one table of the profiles file (issue 51 item 4): added to a
copy named by CDSIM_PROFILES, it plays by name in every process of a run, with no change
to the core; a faulty table is one line naming the file and table, exit 2."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import polars as pl
import pytest

from cdsim import core
from cdsim.games.carpe_diem.players.profiles import PROFILES_FILE

pytestmark = pytest.mark.skipif(not core.available(), reason="the compiled core plays")

ROOT = Path(__file__).resolve().parents[1]
HOARDER = '\n[hoarder]\ndescription = "stores tiles"\nstore = 4.0\nfavoured = ["market"]\n'


def cdsim(args: list[str], profiles: Path, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "CDSIM_PROFILES": str(profiles), "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "cdsim", *args], capture_output=True,
                          text=True, env=env, cwd=cwd, timeout=300)


def test_a_table_added_to_a_profiles_file_plays_in_a_run_and_a_game(tmp_path: Path) -> None:
    profiles = tmp_path / "profiles.toml"
    profiles.write_text(PROFILES_FILE.read_text(encoding="utf-8") + HOARDER, encoding="utf-8")
    game = cdsim(["play", "--players", "2", "--strategies", "hoarder,greedy", "--seed", "3",
                  "--json"], profiles, tmp_path)
    assert game.returncode == 0, game.stderr
    seats = json.loads(game.stdout)["seats"]
    assert [s["strategy"] for s in seats] == ["hoarder", "greedy"]
    # two worker processes: each hands its core the same file
    run = cdsim(["simulate", "--players", "2", "--games", "40", "--strategies",
                 "hoarder,greedy", "--jobs", "2", "--chunk-size", "10", "--out", "run", "-q"],
                profiles, tmp_path)
    assert run.returncode == 0, run.stderr
    rows = seat_rows(tmp_path / "run")
    assert set(rows["strategy"]) == {"hoarder", "greedy"}
    # its weights are its own: the same games with greedy in its seat end otherwise
    same = cdsim(["simulate", "--players", "2", "--games", "40", "--strategies",
                  "greedy,greedy", "--jobs", "1", "--chunk-size", "10", "--out", "base", "-q"],
                 profiles, tmp_path)
    assert same.returncode == 0, same.stderr
    base = seat_rows(tmp_path / "base")
    assert rows["final_vp"].to_list() != base["final_vp"].to_list()


def seat_rows(folder: Path) -> pl.DataFrame:
    parts = sorted((folder / "games").glob("*.parquet"))
    return pl.concat([pl.read_parquet(p) for p in parts]).sort("game", "seat")


def test_a_faulty_table_is_one_line_naming_the_file_and_the_table(tmp_path: Path) -> None:
    profiles = tmp_path / "profiles.toml"
    profiles.write_text(PROFILES_FILE.read_text(encoding="utf-8")
                        + "\n[hoarder]\nstores = 4.0\n", encoding="utf-8")
    out = cdsim(["play", "--players", "2", "--strategies", "hoarder,greedy"], profiles, tmp_path)
    assert out.returncode == 2, out.stderr
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and str(profiles) in lines[0] and "[hoarder]" in lines[0], lines
    assert "stores" in lines[0]
    taken = tmp_path / "taken.toml"
    taken.write_text(PROFILES_FILE.read_text(encoding="utf-8") + '\n[mcts]\ndescription = "x"\n',
                     encoding="utf-8")
    out = cdsim(["strategies"], taken, tmp_path)
    assert out.returncode == 2 and "[mcts]: the name of another built-in player" in out.stderr
    broken = tmp_path / "broken.toml"
    broken.write_text("[defaults\n", encoding="utf-8")
    out = cdsim(["play", "--players", "2", "--strategies", "greedy"], broken, tmp_path)
    assert out.returncode == 2, out.stderr
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and str(broken) in lines[0] and "not a profiles file" in lines[0], lines


def test_a_broken_profiles_file_blocks_only_the_commands_that_name_a_carpe_diem_player(
        tmp_path: Path) -> None:
    """Issue 62 (fuzz 8): the file is read when a Carpe Diem player is named or played, so
    a report of a run made without it and The Castles of Tuscany's commands run."""
    run = cdsim(["simulate", "--players", "2", "--games", "20", "--strategies", "greedy,villa",
                 "--out", "run", "-q"], PROFILES_FILE, tmp_path)
    assert run.returncode == 0, run.stderr
    broken = tmp_path / "broken.toml"
    broken.write_text("broken [[[\n", encoding="utf-8")
    for args in (["report", "run"], ["balance", "run"],
                 ["play", "--game", "castles", "--players", "2", "--strategies", "greedy"],
                 ["simulate", "--game", "castles", "--players", "2", "--games", "20",
                  "--strategies", "castle-monastery,random", "--out", "castles", "-q"],
                 ["strategies", "--game", "castles"],
                 ["components", "check", "default"]):
        out = cdsim(args, broken, tmp_path)
        assert out.returncode == 0, (args, out.stderr)
    for args in (["play", "--players", "2", "--strategies", "greedy"],
                 ["play", "--players", "2", "--strategies", "random,mcts@2"],
                 ["simulate", "--players", "2", "--games", "20", "--strategies", "villa",
                  "--out", "cd", "-q"], ["strategies"]):
        out = cdsim(args, broken, tmp_path)
        lines = out.stderr.strip().splitlines()
        assert out.returncode == 2 and len(lines) == 1, (args, out.stderr)
        assert str(broken) in lines[0] and "not a profiles file" in lines[0], (args, lines)
    assert not (tmp_path / "cd").exists()  # refused before its folder is made
