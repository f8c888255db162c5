"""A changed Castles territory piece gets a verdict line (#61 item 4): a seat *uses* a
piece when it was dealt it (T2.6: its estate is built from it), which a watching run's use
rows count (``pieces``, by name, one each). A piece has no whole number for ``--set`` to
change (its rows are colour codes), so the change is an override file's, which is watched
as a ``--set`` is; the page gives the terminal's line, read in headless chromium."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import polars as pl
import pytest

from cdsim.games.castles import components_text
from tests.conftest import core_or_skip
from tests.test_page_says import boxes, said
from tests.test_replay import browser  # noqa: F401  (the headless chromium fixture)


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """`cdsim whatif` at 2 players, scripted, 600 games a side, of the override that gives
    the piece A-1 the rows of A-2 (a valid piece: a copy of another of its kind, TC8)."""
    core_or_skip()
    root = tmp_path_factory.mktemp("piece")
    pieces = json.loads(components_text(None))["pieces"]
    a2 = next(p for p in pieces if p["name"] == "A-2")
    for piece in pieces:
        if piece["name"] == "A-1":
            piece["left"], piece["right"] = a2["left"], a2["right"]
    override = root / "a1.json"
    override.write_text(json.dumps({"pieces": pieces}))
    folder = root / "run"
    done = subprocess.run([sys.executable, "-m", "cdsim", "whatif", "--game", "castles",
                           "--components", str(override), "--players", "2",
                           "--play", "scripted", "--games", "600", "--minutes", "0",
                           "--out", str(folder), "--jobs", "1", "--quiet"],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    return folder, done.stdout


def test_a_changed_piece_gets_its_verdict_line_on_the_page_as_in_the_terminal(
        browser: Any, run: tuple[Path, str]) -> None:  # noqa: F811
    root, out = run
    _, lines = said(out, "2p scripted")
    line = next(x for x in lines if x.startswith("the territory piece A-1: "))
    assert "were dealt it at setup (T2.6" in line and "not recorded" not in line, line
    assert "card margin of ±4.0 pts" in line or "needs more games" in line, line
    figures = next(x for x in lines if x.startswith("the territory piece A-1 ("))
    assert "; used by " in figures and " pieces [" in figures, figures
    (title, box), *_ = boxes(browser, root / "study.html")
    assert title.startswith("What ") and line in box and figures in box, (line, box)
    # the use rows: the watched piece only, dealt once to a seat of a game or to none
    parts = sorted(root.rglob("uses/part-*.parquet"))
    assert parts
    for part in parts:
        uses = pl.read_parquet(part)
        assert set(uses["kind"]) == {"pieces"} and set(uses["id"]) == {"A-1"}, part
        assert set(uses["count"]) == {1}
        assert uses.group_by("game").len()["len"].max() == 1  # one copy of a piece (T1.5)
