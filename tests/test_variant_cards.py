"""A study's variants and sweep values against the changed cards: study.json's ``changed``
and the base and variant figures of B05 (checked against the run report's own per-card
table), a variant and a sweep value equal to the base, a study made before the card table
(one line, no traceback), and the table in study.html in headless chromium."""

from __future__ import annotations

import json
import math
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import polars as pl
import pytest

from cdsim.analysis.cards import card_outcomes
from cdsim.batch.read import card_rows, open_run
from cdsim.games.carpe_diem.cards import CARDS
from cdsim.study import play
from cdsim.study.model import load_study
from reports.study import write
from reports.study.cards import HEADER, OLD_RUNS
from tests.test_replay import browser  # noqa: F401  (the headless chromium fixture)

# 2 players, two scripted players in both seat orders, one stage of 240 deals (B05 taken in
# enough of them for its figures); B05 at 6 VP
# as a three-line override, a variant that changes nothing, and a sweep of B05's reward
# over 6 and its shipped 8.
TINY = """\
name = "cards"
seed = 11
games = 480
chunk_size = 480
players = [2]
tolerance = 0.3
[[population]]
name = "pair"
lineup = ["greedy", "bread"]
[[variant]]
name = "B05-at-6"
components = "variants/b05.toml"
[[variant]]
name = "same"
components = "variants/same.toml"
[[sweep]]
name = "B05-reward"
entry = "objective.B05"
key = "reward.vp"
values = [6, 8]
"""
B05 = 'base = "default"\n[[objective]]\nid = "B05"\nreward = { vp = 6 }\n'
FIGURES = ("taken_share", "done_share", "mean_vp", "win_difference")


@pytest.fixture(scope="module")
def study(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any]]:
    """The tiny study, played and reported: its folder and study.json."""
    folder = tmp_path_factory.mktemp("cards")
    (folder / "variants").mkdir()
    (folder / "variants" / "b05.toml").write_text(B05)
    (folder / "variants" / "same.toml").write_text('base = "default"\n')
    (folder / "study.toml").write_text(TINY)
    root = folder / "out"
    play.run(load_study(folder / "study.toml"), root, jobs=1)
    write(root)
    return root, json.loads((root / "study.json").read_text())


def _cell(data: dict[str, Any], variant: str | None) -> dict[str, Any]:
    return next(c for c in data["cells"] if c["variant"] == variant)


def test_a_variant_names_the_changed_card_and_its_figures_against_the_base(
        study: tuple[Path, dict[str, Any]]) -> None:
    root, data = study
    cell = _cell(data, "B05-at-6")
    assert cell["changed"] == ["objective.B05"] and cell["cards_missing"] is None
    (card,) = cell["cards"]
    assert (card["kind"], card["card"]) == ("objective", "B05")
    for side in ("base", "variant"):
        for name in FIGURES:
            f = card[side][name]
            low, high = f["interval"]
            assert low <= f["value"] <= high and low < high, (side, name, f)
    # the base side is the run report's own figure of B05 on the base cell's games (its
    # stages' runs, each numbering its games and deals from 0, one after the other)
    parts: list[pl.DataFrame] = []
    for run in (r for stage in _cell(data, None)["stages"] for r in stage["runs"]):
        rows = card_rows(open_run(root / run))
        games, deals = (sum(int(f[c].max()) + 1 for f in parts) for c in ("game", "setup"))
        parts.append(rows.with_columns(pl.col("game") + games, pl.col("setup") + deals))
    table = card_outcomes(pl.concat(parts), CARDS.kinds).filter(pl.col("card") == "B05")
    for name, column in (("taken_share", "taken_share"), ("done_share", "done_share"),
                         ("mean_vp", "mean_vp"), ("win_difference", "difference")):
        assert card["base"][name]["value"] == pytest.approx(table[column][0], abs=1e-5)
    # B05 pays 6 instead of 8 on the same deals: the paired change of its mean VP is below 0
    change = card["change"]["mean_vp"]
    assert change["value"] == pytest.approx(card["variant"]["mean_vp"]["value"]
                                            - card["base"]["mean_vp"]["value"], abs=1e-4)
    assert change["interval"][1] < 0
    md = (root / "study.md").read_text()
    assert "objective card 'B05': reward.vp: 8 -> 6" in md
    assert "B05 at 6 VP: taken by " in md and "(base " in md


def test_a_variant_equal_to_the_base_changes_nothing_and_its_figures_are_the_base_s(
        study: tuple[Path, dict[str, Any]]) -> None:
    _, data = study
    same = _cell(data, "same")
    assert same["changed"] == [] and same["cards"] == []
    assert "styles" not in same and "components" not in same  # nothing changed: no effect
    assert "styles" in _cell(data, "B05-at-6")  # a changed card: each style's effect
    (sweep,) = data["sweeps"]
    rows = {r["value"]: r for r in sweep["rows"]}
    assert rows[6]["changed"] == ["objective.B05"] and rows[8]["changed"] == []
    # the value the base has: B05 still shown (one row per value), identical to the base
    (card,) = rows[8]["cards"]
    assert card["card"] == "B05" and card["base"] == card["variant"]
    for name in FIGURES[:3]:
        assert card["change"][name] == {"value": 0.0, "interval": [0.0, 0.0]}
    # the value 6 is the B05-at-6 variant again: the same figures
    assert rows[6]["cards"][0]["variant"] == _cell(data, "B05-at-6")["cards"][0]["variant"]


def test_a_study_made_before_the_card_table_says_so_in_one_line(
        study: tuple[Path, dict[str, Any]], tmp_path: Path) -> None:
    root, _ = study
    old = tmp_path / "old"
    shutil.copytree(root, old)
    for manifest in (old / "cells").glob("*/manifest.json"):
        shutil.rmtree(manifest.parent / "cards")
        run = json.loads(manifest.read_text())
        del run["format"]  # as cdsim wrote them before the card table
        manifest.write_text(json.dumps(run))
    out = subprocess.run([sys.executable, "-m", "cdsim", "study", "report", str(old)],
                         capture_output=True, text=True, check=False)
    said = [line for line in out.stderr.splitlines() if not line.startswith("study report: ")]
    assert out.returncode == 0 and said == [], out.stderr  # its progress lines only
    data = json.loads((old / "study.json").read_text())
    cell = _cell(data, "B05-at-6")
    assert cell["changed"] == ["objective.B05"] and cell["cards"] == []
    assert cell["cards_missing"] == OLD_RUNS and "\n" not in OLD_RUNS
    variants = (old / "study.md").read_text().split("## Variants\n", 1)[1].split("\n## ", 1)[0]
    lines = [x for x in variants.splitlines() if "card table" in x]
    assert lines == [f"Not shown: {OLD_RUNS}."]


def test_study_html_shows_the_changed_cards_table(
        browser: Any, study: tuple[Path, dict[str, Any]]) -> None:  # noqa: F811
    from selenium.webdriver.common.by import By

    root, data = study
    browser.get((root / "study.html").as_uri())
    tables = [t for t in browser.find_elements(By.TAG_NAME, "table")
              if t.find_elements(By.TAG_NAME, "th")
              and t.find_elements(By.TAG_NAME, "th")[-1].text == HEADER[-1]]
    assert len(tables) == 1 and tables[0].is_displayed()
    rows = [[td.text for td in tr.find_elements(By.TAG_NAME, "td")]
            for tr in tables[0].find_elements(By.TAG_NAME, "tr")[1:]]
    assert [r[2] for r in rows] == ["taken", "fulfilled", "mean VP per take",
                                    "win difference (pts)"]
    taken = _cell(data, "B05-at-6")["cards"][0]["variant"]["taken_share"]["value"]
    assert rows[0][1] == "B05" and rows[0][4].startswith(f"{100 * taken:.1f}%")
    assert not math.isnan(taken)
    body = browser.find_element(By.TAG_NAME, "body").text
    assert "the swept card B05 under each value" in body
