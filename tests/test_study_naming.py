"""A study's ``name_within_zone``: a confirmed cell plays on until the vector it names is
shown within the zone of the most equal candidate (anytime.decide's ``naming``; the
synthetic cells of tests/test_zone.py measure the rule itself). Here: the key goes from
the file to the verdict and the manifest, the cell plays on, and a bad use is one line."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from reports.study import write
from tests.test_study import cdsim, study_file

NAMING = """\
name = "naming"
seed = 5
games = 720
chunk_size = 60
players = [2]
tolerance = 0.3
zone = 0.01
{naming}
[[population]]
name = "random"
lineup = ["random"]
"""


def _run(tmp_path: Path, naming: str) -> dict[str, object]:
    folder = tmp_path / ("on" if naming else "off")
    path = study_file(folder, NAMING.format(naming=naming))
    out = cdsim("study", "run", str(path), "--jobs", "1", cwd=folder)
    assert out.returncode == 0, out.stderr
    root = folder / "studies" / "naming"
    write(root)  # study.md
    manifest = json.loads((root / "study-manifest.json").read_text())
    assert isinstance(manifest, dict)
    return manifest


def test_a_cell_plays_on_for_its_name(tmp_path: Path) -> None:
    """Without the key the 30 pp cell is confirmed at its first look; with it, the cell
    plays on, its name not shown within 1 pp of the most equal in 720 games, and says so."""
    plain, named = _run(tmp_path, ""), _run(tmp_path, "name_within_zone = true")
    assert plain["name_within_zone"] is False and named["name_within_zone"] is True
    before, after = plain["cells"][0]["decision"], named["cells"][0]["decision"]  # type: ignore[index]
    assert before["decision"] == after["decision"] == "confirmed"
    assert not before["naming"] and after["naming"]
    assert before["games"] < after["games"] == 720
    assert after["within_best"] > 0.01
    assert "more games would tell them apart" in after["explain"]
    page = (tmp_path / "on" / "studies" / "naming" / "study.md").read_text()
    assert "| name within the zone | a confirmed cell played on" in page
    assert "how close the name is: another candidate may be up to" in page
    assert "name within the zone" not in (tmp_path / "off" / "studies" / "naming" /
                                          "study.md").read_text()


def test_a_raised_budget_plays_on_for_a_name_not_shown(tmp_path: Path) -> None:
    """Confirmed with the name not shown when the budget ran out: a resume with more games
    plans that cell's games (not "decided on") and plays them."""
    _run(tmp_path, "name_within_zone = true")
    folder = tmp_path / "on"
    root = folder / "studies" / "naming"
    out = cdsim("study", "run", str(folder / "study.toml"), "--out", str(root), "--resume",
                "--games", "1440", "--jobs", "1", cwd=folder)
    assert out.returncode == 0, out.stderr
    assert "decided on" not in out.stdout and "2p.random: " in out.stdout, out.stdout
    cell = json.loads((root / "study-manifest.json").read_text())["cells"][0]
    assert cell["decision"]["games"] == 1440 and cell["decision"]["naming"]


def test_one_candidate_needs_no_more_games_for_its_name() -> None:
    """Radius 0: the only candidate is the most equal, so naming changes nothing."""
    from cdsim.analysis import anytime as at
    from cdsim.analysis.candidates import candidates, win_table
    from tests.scenarios import scenario

    sc = scenario("fair")
    vectors = candidates((0, 1, 2), 0)
    rng = np.random.default_rng(1)
    tables = [win_table(sc.cell.play(rng, s), vectors) for s in (600, 1200, 2400)]
    plain = at.decide(tables, (0, 1, 2), 0.06, zone=0.015)
    named = at.decide(tables, (0, 1, 2), 0.06, zone=0.015, naming=True)
    assert plain.decision == "confirmed" and named.settled and named.within_best == 0.0
    assert named.games == plain.games


def test_naming_needs_a_zone(tmp_path: Path) -> None:
    path = study_file(tmp_path, NAMING.format(naming="name_within_zone = true").replace(
        "zone = 0.01", "zone = 0"))
    out = cdsim("study", "run", str(path), cwd=tmp_path)
    assert out.returncode == 2 and "Traceback" not in out.stderr, out.stderr
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and "name_within_zone" in lines[0] and "zone above 0" in lines[0], lines
