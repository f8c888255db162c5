"""A strategy given by file is shown by its class's ``name`` in tables, reports and
replays, never by the machine path the manifests keep (issue 52, item 5)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from cdsim.games.names import shown_name, shown_names
from tests.commands import run_main
from tests.conftest import core_or_skip

BAKER = ("class Baker:\n    name = 'baker'\n    reads_scores = False\n\n"
         "    def choose(self, view, options):\n        return options[0]\n")


def _bot(folder: Path, body: str = BAKER, file: str = "pastry.py") -> str:
    """The bot's file (not baker.py: loading a file puts its folder on sys.path, where
    another test must not find a module ``baker``)."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / file).write_text(body)
    return f"{(folder / file).resolve()}:Baker"


def test_a_file_strategy_is_shown_by_its_name(tmp_path: Path) -> None:
    spelled = _bot(tmp_path / "a")
    assert shown_name(spelled) == "baker"  # read from the file, not run
    nameless = _bot(tmp_path / "b", BAKER.replace("    name = 'baker'\n", ""))
    assert shown_name(nameless) == "Baker (pastry.py)"  # no literal name: the class's
    greedy = _bot(tmp_path / "c", BAKER.replace("'baker'", "'greedy'"))
    assert shown_name(greedy) == "Baker (pastry.py)"  # never a built-in's name
    for other in ("greedy", "villa@chimney=1", "strategies.examples.baker:Baker"):
        assert shown_name(other) == other
    twin = _bot(tmp_path / "d")  # another file of the same name: both said apart
    both = shown_names(["greedy", spelled, twin])
    assert both["greedy"] == "greedy" and both[spelled] != both[twin]


def test_tables_reports_and_replays_show_the_name(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """They showed /abs/path/baker.py:Baker (columns broken, a machine path leaked)."""
    core_or_skip()
    monkeypatch.setattr(sys, "path", list(sys.path))  # loading the file appends its folder
    spelled = _bot(tmp_path / "bots")
    path = spelled.rpartition(":")[0]
    run = tmp_path / "run"
    code, err = run_main(["simulate", "--players", "2", "--games", "8", "--strategies",
                          f"greedy,{spelled}", "--out", str(run), "--jobs", "1"],
                         monkeypatch, capsys)
    assert code == 0, err
    assert json.loads((run / "manifest.json").read_text())["config"]["strategies"] == \
        ["greedy", spelled]  # the manifest keeps the file
    code, err = run_main(["report", str(run)], monkeypatch, capsys)
    assert code == 0, err
    page = (run / "report.md").read_text()
    assert "| line-up by seat | greedy, baker |" in page and "| baker | 8 |" in page
    tables = [line for line in page.splitlines() if line.startswith("| ")
              and "command" not in line]
    assert not [line for line in tables if path in line]
    html = tmp_path / "replay.html"
    code, err = run_main(["play", "--players", "2", "--strategies", f"greedy,{spelled}",
                          "--seed", "1", "--html", str(html)], monkeypatch, capsys)
    assert code == 0, err
    assert path not in html.read_text() and '"strategy":"baker"' in html.read_text()


def test_a_study_page_shows_the_name(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    core_or_skip()
    monkeypatch.setattr(sys, "path", list(sys.path))
    from cdsim.study import play
    from cdsim.study.model import load_study
    from reports.study import write

    spelled = _bot(tmp_path / "bots")
    path = tmp_path / "s.toml"
    path.write_text(f'name = "s"\ngames = 120\nplayers = [2]\ntolerance = 0.3\n'
                    f'[[population]]\nname = "mix"\nlineup = ["greedy", "{spelled}"]\n')
    root = tmp_path / "out"
    play.run(load_study(path), root, jobs=1)
    write(root)
    page = (root / "study.md").read_text()
    assert "**mix** (greedy, baker, each in all seat rotations" in page
    assert "**mix**: greedy, baker (seats rotated)" in page
    assert spelled not in page


def test_a_ladder_shows_the_name(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                 capsys: pytest.CaptureFixture[str]) -> None:
    core_or_skip()
    monkeypatch.setattr(sys, "path", list(sys.path))
    spelled = _bot(tmp_path / "bots")
    out = tmp_path / "ladder"
    code, err = run_main(["ladder", "--strategies", f"random,{spelled}", "--games", "20",
                          "--out", str(out), "--jobs", "1"], monkeypatch, capsys)
    assert code == 0, err
    page = (out / "ladder.md").read_text()
    assert "| strategies | random, baker |" in page
    assert not [line for line in page.splitlines() if spelled in line
                and not line.startswith("| command |")]  # the command as it was given
    assert json.loads((out / "ladder.json").read_text())["strategies"] == ["random", spelled]
