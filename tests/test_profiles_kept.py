"""A run holds everything that replays it (issue 61 item 6): a run or a study played with a
profiles file of one's own (CDSIM_PROFILES) keeps the tables it played in its manifest and a
copy of the file beside it, so that it resumes and reports without the variable; a resume
under another table, and a pool of runs with two players under one name, are refused in
one line; an unknown name says how to name a profiles file. Runs of the shipped players
record nothing (their manifests are pinned elsewhere: tests/test_manifest_records.py)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from cdsim import core
from cdsim.games.carpe_diem.players.profiles import STRATEGIES_DIR

pytestmark = pytest.mark.skipif(not core.available(), reason="the compiled core plays")

ROOT = Path(__file__).resolve().parents[1]
SHIPPED = (STRATEGIES_DIR / "profiles.toml").read_text(encoding="utf-8")
MILLER = '\n[miller]\ndescription = "stores tiles"\nstore = {store}\nfavoured = ["market"]\n'
RUN = ["simulate", "--players", "2", "--games", "40", "--chunk-size", "10", "--strategies",
       "miller,greedy", "--jobs", "1", "-q"]


def cdsim(args: list[str], cwd: Path, profiles: Path | None = None
          ) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "CDSIM_PROFILES"}
    env["PYTHONPATH"] = str(ROOT)
    if profiles is not None:
        env["CDSIM_PROFILES"] = str(profiles)
    return subprocess.run([sys.executable, "-m", "cdsim", *args], capture_output=True,
                          text=True, env=env, cwd=cwd, timeout=300)


def profiles_file(folder: Path, name: str, store: float) -> Path:
    path = folder / name
    path.write_text(SHIPPED + MILLER.format(store=store), encoding="utf-8")
    return path


def interrupted(run: Path, kept: int = 2) -> None:
    """The run as a kill after ``kept`` chunks leaves it (the others replay on --resume)."""
    manifest = json.loads((run / "manifest.json").read_text())
    manifest["finished"] = manifest["finished"][:kept]
    (run / "manifest.json").write_text(json.dumps(manifest))


def digest(run: Path) -> str:
    from cdsim.batch.folder import RunFolder

    return RunFolder(run).digest()


def one_line(out: subprocess.CompletedProcess[str]) -> str:
    lines = out.stderr.strip().splitlines()
    assert out.returncode == 2 and len(lines) == 1, (out.returncode, out.stderr)
    return lines[0]


def test_a_run_resumes_and_reports_from_its_folder_without_the_variable(tmp_path: Path) -> None:
    p1 = profiles_file(tmp_path, "p1.toml", 4.0)
    whole = cdsim([*RUN, "--out", "whole"], tmp_path, p1)
    assert whole.returncode == 0, whole.stderr
    run = cdsim([*RUN, "--out", "run"], tmp_path, p1)
    assert run.returncode == 0, run.stderr
    manifest = json.loads((tmp_path / "run" / "manifest.json").read_text())
    kept = manifest["profiles"]
    assert set(kept["players"]) == {"miller", "greedy"}
    assert kept["players"]["miller"]["weights"]["store"] == 4.0
    assert kept["players"]["miller"]["favoured"] == ["market"]
    assert (tmp_path / "run" / "profiles.toml").read_text() == p1.read_text()
    p1.unlink()  # the folder alone
    interrupted(tmp_path / "run")
    again = cdsim(["simulate", "--out", "run", "--resume", "-q", "--jobs", "1"], tmp_path)
    assert again.returncode == 0, again.stderr
    assert digest(tmp_path / "run") == digest(tmp_path / "whole")  # miller as it played
    interrupted(tmp_path / "run")  # given its flags again, as well
    again = cdsim([*RUN, "--out", "run", "--resume"], tmp_path)
    assert again.returncode == 0, again.stderr
    assert digest(tmp_path / "run") == digest(tmp_path / "whole")
    report = cdsim(["report", "run"], tmp_path)
    assert report.returncode == 0, report.stderr
    assert "miller" in (tmp_path / "run" / "report.md").read_text()


def test_a_changed_table_on_resume_is_refused_in_one_line(tmp_path: Path) -> None:
    p1, p2 = profiles_file(tmp_path, "p1.toml", 4.0), profiles_file(tmp_path, "p2.toml", 0.1)
    assert cdsim([*RUN, "--out", "run"], tmp_path, p1).returncode == 0
    interrupted(tmp_path / "run")
    before = (tmp_path / "run" / "manifest.json").read_text()
    line = one_line(cdsim(["simulate", "--out", "run", "--resume", "-q"], tmp_path, p2))
    assert "'miller'" in line and str(p2) in line and "CDSIM_PROFILES" in line, line
    assert (tmp_path / "run" / "manifest.json").read_text() == before  # nothing played
    # a run of the shipped players, resumed under a file that plays greedy otherwise
    greedy = tmp_path / "greedy.toml"
    greedy.write_text(SHIPPED.replace("[greedy]\n", "[greedy]\nstore = 3.0\n"), "utf-8")
    shipped = cdsim(["simulate", "--players", "2", "--games", "40", "--chunk-size", "10",
                     "--strategies", "greedy", "--jobs", "1", "-q", "--out", "plain"], tmp_path)
    assert shipped.returncode == 0, shipped.stderr
    assert not (tmp_path / "plain" / "profiles.toml").exists()
    assert "profiles" not in json.loads((tmp_path / "plain" / "manifest.json").read_text())
    interrupted(tmp_path / "plain")
    line = one_line(cdsim(["simulate", "--out", "plain", "--resume", "-q"], tmp_path, greedy))
    assert "'greedy'" in line and str(greedy) in line and "shipped" in line, line
    # the same tables under another file's name: it goes on
    same = tmp_path / "same.toml"
    same.write_text(p1.read_text(), "utf-8")
    assert cdsim(["simulate", "--out", "run", "--resume", "-q"], tmp_path, same).returncode == 0


def test_balance_refuses_runs_whose_players_differ_under_one_name(tmp_path: Path) -> None:
    p1, p2 = profiles_file(tmp_path, "p1.toml", 4.0), profiles_file(tmp_path, "p2.toml", 0.1)
    assert cdsim([*RUN, "--out", "a", "--seed", "1"], tmp_path, p1).returncode == 0
    assert cdsim([*RUN, "--out", "b", "--seed", "2"], tmp_path, p2).returncode == 0
    assert cdsim([*RUN, "--out", "c", "--seed", "3"], tmp_path, p1).returncode == 0
    line = one_line(cdsim(["balance", "a", "b"], tmp_path))
    assert "'miller'" in line and "two players under one name" in line, line
    pooled = cdsim(["balance", "a", "c"], tmp_path)  # the same tables: pooled
    assert pooled.returncode == 0, pooled.stderr
    # its confirming run names the run's own copy of the file
    assert f"CDSIM_PROFILES={Path('a') / 'profiles.toml'} cdsim simulate" in pooled.stdout


def test_an_unknown_name_says_how_to_name_a_profiles_file(tmp_path: Path) -> None:
    line = one_line(cdsim(["play", "--players", "2", "--strategies", "miller,greedy"],
                          tmp_path))
    assert "unknown strategy 'miller'" in line and "CDSIM_PROFILES=" in line, line
    p1 = profiles_file(tmp_path, "p1.toml", 4.0)
    line = one_line(cdsim(["play", "--players", "2", "--strategies", "millr,greedy"],
                          tmp_path, p1))
    assert "did you mean 'miller'" in line and f"{p1} (CDSIM_PROFILES) has no table [millr]" \
        in line, line


STUDY = """name = "mill"
seed = 1
games = 400
first_stage = 100
players = [2]
chunk_size = 50
[[population]]
name = "m"
lineup = ["miller", "greedy"]
"""


def test_a_study_keeps_its_tables_and_refuses_another_on_resume(tmp_path: Path) -> None:
    p1, p2 = profiles_file(tmp_path, "p1.toml", 4.0), profiles_file(tmp_path, "p2.toml", 0.1)
    (tmp_path / "s.toml").write_text(STUDY)
    first = cdsim(["study", "run", "s.toml", "--out", "st", "--minutes", "0.0001", "-q",
                   "--jobs", "1"], tmp_path, p1)
    assert first.returncode == 0, first.stderr
    manifest = json.loads((tmp_path / "st" / "study-manifest.json").read_text())
    assert manifest["profiles"]["players"]["miller"]["weights"]["store"] == 4.0
    cells = sorted(p.name for p in (tmp_path / "st" / "cells").iterdir())
    line = one_line(cdsim(["study", "run", "s.toml", "--out", "st", "--resume", "-q"],
                          tmp_path, p2))
    assert "'miller'" in line and str(p2) in line, line
    assert sorted(p.name for p in (tmp_path / "st" / "cells").iterdir()) == cells
    p1.unlink()
    again = cdsim(["study", "run", "s.toml", "--out", "st", "--resume", "-q", "--jobs", "1"],
                  tmp_path)
    assert again.returncode == 0, again.stderr
    report = cdsim(["study", "report", "st"], tmp_path)
    assert report.returncode == 0, report.stderr


def test_a_ladder_keeps_its_tables_too(tmp_path: Path) -> None:
    p1, p2 = profiles_file(tmp_path, "p1.toml", 4.0), profiles_file(tmp_path, "p2.toml", 0.1)
    ladder = ["ladder", "--strategies", "miller,greedy,villa", "--games", "20", "--chunk-size",
              "10", "--jobs", "1", "--resamples", "50", "--out", "lad"]
    assert cdsim(ladder, tmp_path, p1).returncode == 0
    manifest = json.loads((tmp_path / "lad" / "ladder-manifest.json").read_text())
    assert set(manifest["profiles"]["players"]) == {"miller", "greedy", "villa"}
    for pairing in (tmp_path / "lad" / "cells").iterdir():  # as if stopped before any game
        (pairing / "manifest.json").unlink()
    resume = ["ladder", "--out", "lad", "--resume", "--jobs", "1", "--resamples", "50"]
    line = one_line(cdsim(resume, tmp_path, p2))
    assert "'miller'" in line and str(p2) in line, line
    p1.unlink()
    again = cdsim(resume, tmp_path)
    assert again.returncode == 0, again.stderr


def test_the_replay_command_of_a_failed_game_names_the_run_s_own_file(tmp_path: Path) -> None:
    p1 = profiles_file(tmp_path, "p1.toml", 4.0)
    (tmp_path / "boom.py").write_text("class Boom:\n    name = 'boom'\n    reads_scores = False"
                                      "\n\n    def choose(self, view, options):\n"
                                      "        raise ValueError('boom')\n")
    out = cdsim(["simulate", "--players", "2", "--games", "2", "--strategies",
                 "miller,boom.py:Boom", "--jobs", "1", "--out", "run", "-q"], tmp_path, p1)
    assert out.returncode == 1, out.stderr
    copy = tmp_path / "run" / "profiles.toml"
    replay = out.stderr.split("replay it with: ")[1].split(";")[0]
    assert replay.startswith(f"CDSIM_PROFILES={copy} cdsim play "), replay
    p1.unlink()  # the command as printed plays miller from the run's own copy
    again = subprocess.run(replay.replace("cdsim play", f"{sys.executable} -m cdsim play"),
                           shell=True, capture_output=True, text=True, cwd=tmp_path,
                           env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=300)
    assert again.returncode == 1 and "raised ValueError: boom" in again.stderr, again.stderr
