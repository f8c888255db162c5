"""A verdict for any component, the same on the page as in the terminal (#61 items 3 and 4),
each page read in headless chromium: the bakery swap (two --sets checked as one set) gives
the bakery tile's verdict line and figures and each style's effect; a frame part (goals
scored) and a villa-table row (villas scored at it), from the whatif's use rows, their
verdict lines; a Castles card, taken by every seat, says so and gives how many a seat took;
a Castles harvest tile, scored from, its verdict line."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import core_or_skip
from tests.test_page_says import boxes, said
from tests.test_replay import browser  # noqa: F401  (the headless chromium fixture)


def whatif(folder: Path, *sets: str, game: str | None = None) -> str:
    """`cdsim whatif` of the ``sets`` at 2 players, scripted, 600 games a side: its stdout."""
    args = [a for s in sets for a in ("--set", s)]
    done = subprocess.run([sys.executable, "-m", "cdsim", "whatif", *args,
                           *(["--game", game] if game else []), "--players", "2",
                           "--play", "scripted", "--games", "600", "--minutes", "0",
                           "--out", str(folder), "--jobs", "1", "--quiet"],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Path, str]]:
    core_or_skip()
    root = tmp_path_factory.mktemp("components")
    asked = {"bakery": (("tile.L-bakery.count=7", "tile.L-market.count=3"), None),
             "frame": (("part.3.goals.0.vp=6",), None),
             "villa": (("villa_table.points.4=7",), None),
             "farm": (("cards.farm.count=18",), "castles"),
             "harvest": (("harvest.red_vp.amount=3",), "castles")}
    return {name: (root / name, whatif(root / name, *sets, game=game))
            for name, (sets, game) in asked.items()}


def page_lines(browser: Any, root: Path) -> list[str]:  # noqa: F811
    title, lines = boxes(browser, root / "study.html")[0]  # the change's box leads
    assert title.startswith("What ") and title.endswith(" does"), title
    return lines


@pytest.mark.parametrize("name", ["bakery", "frame", "villa", "farm", "harvest"])
def test_the_page_gives_each_component_s_line_as_the_terminal_does(
        browser: Any, runs: dict[str, tuple[Path, str]], name: str) -> None:  # noqa: F811
    root, out = runs[name]
    _, lines = said(out, "2p scripted")
    shown = page_lines(browser, root)
    assert lines and all(line in shown for line in lines), (lines, shown)
    assert any(line.startswith("effect on each style's win share") for line in lines), lines


def test_the_bakery_tile_gets_a_verdict_line_at_the_card_margin(
        runs: dict[str, tuple[Path, str]]) -> None:
    _, out = runs["bakery"]
    _, lines = said(out, "2p scripted")
    bakery = [line for line in lines if line.startswith("the L-bakery tile: ")]
    assert bakery, lines
    assert any(side in bakery[0] for side in ("too weak", "about right", "too strong",
                                              "not decided")), bakery
    assert "placed a bakery in their district" in bakery[0]
    assert "card margin of ±4.0 pts" in bakery[0] or "needs more games" in bakery[0]
    assert any(line.startswith("the L-bakery tile (count 5 -> 7): use: ") for line in lines)


def test_a_frame_part_and_a_villa_table_row_get_their_verdict_lines(
        runs: dict[str, tuple[Path, str]], browser: Any) -> None:  # noqa: F811
    for name, noun, words, unit in (
            ("frame", "frame part 3", "scored a goal of it (R10.5)", "goals"),
            ("villa", "the villa table", "scored a complete villa at a changed chimney count "
             "(R10.1)", "villas")):
        root, out = runs[name]
        _, lines = said(out, "2p scripted")
        line = next(x for x in lines if x.startswith(f"{noun}: "))
        assert any(side in line for side in ("too weak", "about right", "too strong",
                                             "not decided")), line
        assert words in line and "not recorded" not in line, line
        assert "card margin of ±4.0 pts" in line or "needs more games" in line, line
        figures = next(x for x in lines if x.startswith(f"{noun} ("))
        assert f"use: {words}; used by " in figures and f" {unit} [" in figures, figures
        assert line in page_lines(browser, root) and figures in page_lines(browser, root)
        assert any((root / "cells").glob("*/uses/part-00000.parquet"))
        cell = next(c for c in json.loads((root / "study.json").read_text())["cells"]
                    if c.get("components"))
        (shown,) = cell["components"]
        assert shown["recorded"] and shown["not_recorded"] is None, shown
        assert shown["variant"]["per_user"]["value"] >= 1


def test_a_castles_card_taken_by_every_seat_says_so_and_how_many(
        runs: dict[str, tuple[Path, str]]) -> None:
    _, lines = said(runs["farm"][1], "2p scripted")
    line = next(x for x in lines if x.startswith("the farm cards: "))
    assert "every seat took one into their hand" in line and "could be )" not in line, line
    figures = next(x for x in lines if x.startswith("the farm cards (count 20 -> 18): use: "))
    assert "used by 100.0%" in figures and " cards [" in figures, figures


def test_a_castles_harvest_tile_gets_a_verdict_line(runs: dict[str, tuple[Path, str]]) -> None:
    _, lines = said(runs["harvest"][1], "2p scripted")
    line = next(x for x in lines if x.startswith("the red_vp harvest tiles: "))
    assert "scored red VP from a harvest tile" in line
    assert "card margin of ±4.0 pts" in line or "needs more games" in line
    assert any(x.startswith("the red_vp harvest tiles (amount 2 -> 3): use: ") for x in lines)
