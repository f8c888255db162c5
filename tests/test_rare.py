"""A strategy that never wins at its table (cdsim/analysis/rare.py, #61 item 7): below 2% of
the seats it plays, `cdsim balance` (text and JSON), the run report and a study's page and
study.json say that seat fairness is then about the other seats, beside the proposed vector."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from cdsim.analysis.rare import FLOOR, note, rare_winners
from tests.commands import run_cli

MIXED = """\
name = "rare"
seed = 2
games = 600
players = [3]
radius = 1
chunk_size = 300
tolerance = 0.08
[[population]]
name = "mixed"
lineup = ["random", "greedy", "villa"]
[[population]]
name = "greedy"
lineup = ["greedy"]
"""


def test_below_the_floor_is_named_and_at_or_above_it_is_not() -> None:
    rare = rare_winners({"random": (0, 900), "greedy": (450, 900), "edge": (18, 900),
                         "almost": (17, 900), "unseated": (0, 0)})
    assert [r.strategy for r in rare] == ["almost", "random"]  # 17/900 < 2% <= 18/900
    assert FLOOR == 0.02
    text = note(rare)
    assert text.startswith("Note: almost won 17 of the 900 seats it played (1.9%); random won 0")
    assert "seat fairness here is about the other strategies' seats" in text
    assert note(()) == ""


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """900 rotated 3-player games in which random never wins against greedy and villa."""
    folder = tmp_path_factory.mktemp("rare") / "r3"
    done = subprocess.run([sys.executable, "-m", "cdsim", "simulate", "--players", "3",
                           "--games", "900", "--strategies", "random,greedy,villa",
                           "--rotate-seats", "--seed", "1", "--out", str(folder)],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    return folder


def test_balance_and_the_report_carry_the_note_beside_the_vector(
        run: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_cli(["balance", str(run)], monkeypatch, capsys)
    assert code == 0, err
    lines = out.splitlines()
    verdict = next(i for i, line in enumerate(lines) if line.startswith("verdict: "))
    assert lines[verdict + 1].startswith("Note: random won 0 of the 900 seats it played")
    code, out, err = run_cli(["balance", str(run), "--json"], monkeypatch, capsys)
    data = json.loads(out)
    assert data["rare_winners"] == [{"strategy": "random", "wins": 0, "seats": 900, "share": 0.0}]
    assert data["note"].startswith("Note: random won 0")
    code, out, err = run_cli(["report", str(run)], monkeypatch, capsys)
    assert code == 0, err
    md = (run / "report.md").read_text()
    answer = md.split("\n## ")[0]  # the answer box, before the first section
    assert "Note: random won 0 of the 900 seats" in answer


def test_a_study_page_says_it_for_the_cell_and_the_vector_to_print(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
        ) -> None:
    (tmp_path / "rare.toml").write_text(MIXED)
    root = tmp_path / "rare"
    code, _, err = run_cli(["study", "run", str(tmp_path / "rare.toml"), "--out", str(root),
                            "--jobs", "1", "--quiet"], monkeypatch, capsys)
    assert code == 0, err
    code, _, err = run_cli(["study", "report", str(root)], monkeypatch, capsys)
    assert code == 0, err
    data = json.loads((root / "study.json").read_text())
    cells = {c["key"]: c for c in data["cells"]}
    assert cells["3p.mixed"]["note"].startswith("Note: random won 0")
    assert cells["3p.mixed"]["rare_winners"][0]["strategy"] == "random"
    assert cells["3p.greedy"]["note"] == "" and cells["3p.greedy"]["rare_winners"] == []
    assert data["recommendations"]["3"]["notes"] == ["mixed: " + cells["3p.mixed"]["note"]]
    assert cells["3p.mixed"]["note"] in data["headlines"]["3"]
    boxes = (root / "study.md").read_text().split("## Headlines")[0]
    assert boxes.count("Note: random won 0") == 2  # the vector to print's group and the cell's
