"""The report, balance and power of a Castles run (issue 50): the page is the game's (its
title, its own VP sources and tie-break), leaves out what the game has no columns for (the
VP by phase, the cards, the failed cards) and shows the rest as a Carpe Diem page does,
its charts drawn in a real browser; `cdsim balance` re-ranks its games and prints commands
that play the game again (``--game castles``), as the replay command of a game does."""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl
import pytest

from cdsim import core
from cdsim.analysis import rows as rows_module
from cdsim.analysis.rows import strategies
from cdsim.batch.config import RunConfig, replay_command
from cdsim.batch.read import open_run, seat_arrays
from cdsim.games import game_spec
from tests.test_replay import browser  # noqa: F401  (the headless chromium fixture)

pytestmark = pytest.mark.skipif(not core.available(), reason="needs the compiled core")

LINEUP = "greedy,random,castle-monastery,animal-farms"
# what a Castles page shows, and what it leaves out (no column for it in the game's rows)
SECTIONS = ["Run", "Seat balance", "Strategies", "Final VP", "Convergence", "Starting VP",
            "How many games are enough"]
CHARTS = {"seat_win_share", "placements", "strategy_win_share", "vp_sources", "final_vp",
          "convergence", "start_vp_shift"}
CARPE_DIEM_ONLY = ("Game shape", "Cards", "cards failed", "R10.6", "R8.5", "docs/rules.md")


def cdsim(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "cdsim", *args], capture_output=True,
                          text=True, check=False)


def simulate(out: Path, *extra: str) -> Path:
    done = cdsim("simulate", "--game", "castles", "-n", "4", "--strategies", LINEUP,
                 "--games", "60", "--chunk-size", "20", "--jobs", "1", "-q",
                 "--out", str(out), *extra)
    assert done.returncode == 0, done.stderr
    return out


@pytest.fixture(scope="module")
def castles_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return simulate(tmp_path_factory.mktemp("castles") / "run", "--seed", "5")


@pytest.fixture(scope="module")
def report(castles_run: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("page")
    done = cdsim("report", str(castles_run), "--out", str(out))
    assert done.returncode == 0 and not done.stderr, done.stderr
    return out


def test_the_page_is_the_game_s_and_leaves_out_what_it_has_no_columns_for(report: Path) -> None:
    md = (report / "report.md").read_text()
    assert md.startswith("# cdsim report: run (The Castles of Tuscany)\n")
    assert re.findall(r"^## (.+)$", md, re.M) == SECTIONS
    assert "| game | The Castles of Tuscany |" in md
    assert "| rules | rule numbers refer to docs/rules-castles.md in the cdsim repository |" in md
    assert "the T13.2 tie-break (the most empty board spaces" in md
    for word in CARPE_DIEM_ONLY:
        assert word not in md, word
    assert {p.stem for p in (report / "charts").glob("*.png")} == CHARTS
    assert "`cdsim power --game castles` computes any other" in md
    # the answer box names the game, and its confirm command plays it
    assert "> ### The Castles of Tuscany, 4 players" in md
    assert "`cdsim simulate --game castles --players 4 " in md
    html = (report / "report.html").read_text()
    assert "<title>cdsim report: run (The Castles of Tuscany)</title>" in html


def test_the_strategies_figures_are_the_game_s_own_sources(castles_run: Path) -> None:
    run = open_run(castles_run)
    found = strategies(run)
    breakdown = game_spec("castles").breakdown()
    assert found.sources.columns == ["strategy", *breakdown]
    assert not found.has_failed and "failed_rate" not in found.table.columns
    # each strategy's sources add up to its mean final VP (its rows' do, game by game)
    mean = run.scan(("strategy", "final_vp")).group_by("strategy").agg(
        pl.col("final_vp").mean()).sort("strategy").collect()
    assert found.sources["strategy"].to_list() == mean["strategy"].to_list()
    np.testing.assert_allclose(found.net, mean["final_vp"].to_numpy())
    assert (found.net > 0).all()
    assert rows_module.game_shape(run) is None  # no VP logged after a scoring phase


def test_the_sources_chart_gives_each_of_the_game_s_sources_its_own_colour(
        castles_run: Path) -> None:
    from PIL import Image

    from reports import charts

    found = strategies(open_run(castles_run))
    png = Image.open(io.BytesIO(charts.vp_sources(found.sources, found.net))).convert("RGB")
    drawn = {"#{:02x}{:02x}{:02x}".format(*c) for _, c in png.getcolors(maxcolors=1 << 20)}
    sources = len(game_spec("castles").breakdown())
    colours = charts.SOURCE_COLOURS[:sources]
    assert len(set(colours)) == sources and set(colours) <= drawn  # a legend swatch each


def test_rows_names_no_carpe_diem_column() -> None:
    """rows.py reads a game's own columns from its spec (``GameSpec``), not Carpe Diem's."""
    source = Path(rows_module.__file__).read_text()
    for name in ('"failed_cards"', '"vp_phase', "BREAKDOWN", "CARDS_PER_GAME", "R10.6",
                 "cdsim.games.carpe_diem.rules"):
        assert name not in source, name


def test_report_json_of_a_castles_run(castles_run: Path, tmp_path: Path) -> None:
    done = cdsim("report", str(castles_run), "--out", str(tmp_path), "--json")
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout)
    assert found["game"] == "castles" and "cards" not in found
    assert {s["strategy"] for s in found["strategies"]} == set(LINEUP.split(","))
    assert all("failed_card_rate" not in s for s in found["strategies"])
    assert found["balance"]["games"] == 60


def test_the_page_in_the_browser(browser: Any, report: Path) -> None:  # noqa: F811
    from selenium.webdriver.common.by import By

    browser.set_window_size(1400, 1000)
    browser.get((report / "report.html").as_uri())
    assert browser.find_element(By.TAG_NAME, "h1").text == \
        "cdsim report: run (The Castles of Tuscany)"
    assert browser.title == "cdsim report: run (The Castles of Tuscany)"
    headings = [h.text for h in browser.find_elements(By.CSS_SELECTOR, "h2")]
    assert headings == ["The Castles of Tuscany, 4 players", *SECTIONS]
    figures = browser.find_elements(By.TAG_NAME, "figure")
    assert {f.get_attribute("id") for f in figures} == CHARTS
    for figure in figures:
        browser.execute_script("arguments[0].scrollIntoView()", figure)
        img = figure.find_element(By.TAG_NAME, "img")
        complete, width, shown = browser.execute_script(
            "const i = arguments[0]; return [i.complete, i.naturalWidth, "
            "i.getBoundingClientRect().height]", img)
        assert complete and width > 300 and shown > 100 and img.is_displayed(), \
            figure.get_attribute("id")
    table = browser.find_elements(By.TAG_NAME, "table")[2]  # the strategies'
    header = [th.text for th in table.find_elements(By.TAG_NAME, "th")]
    assert header == ["strategy", "appearances", "wins", "win share [95% CI]", "mean final VP"]
    text = browser.find_element(By.TAG_NAME, "body").text
    assert "cards failed" not in text and "Game shape" not in text


def test_balance_re_ranks_a_castles_run_and_confirms_with_its_game(castles_run: Path,
                                                                    tmp_path: Path) -> None:
    done = cdsim("balance", str(castles_run), "--out", str(tmp_path), "--json")
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout)
    assert found["games"] == 60 and found["players"] == 4
    assert (tmp_path / "balance_shift.png").stat().st_size > 1000
    # the shares at the run's own starting VP are the logged winners'
    arrays = seat_arrays(open_run(castles_run))
    logged = arrays.won.mean(axis=0)
    now = [s["share"] for s in found["current"]["seats"]]
    np.testing.assert_allclose(now, logged)
    simulate_line, balance_line = found["confirm_command"]
    assert simulate_line.startswith("cdsim simulate --game castles --players 4 --games ")
    assert balance_line.startswith("cdsim balance ")
    text = cdsim("balance", str(castles_run), "--out", str(tmp_path))
    assert text.returncode == 0 and "cdsim simulate --game castles " in text.stdout


def test_balance_does_not_pool_two_games(castles_run: Path, tmp_path: Path) -> None:
    other = tmp_path / "carpe"
    done = cdsim("simulate", "-n", "4", "--strategies", "greedy", "--games", "20",
                 "--seed", "6", "--jobs", "1", "-q", "--out", str(other))
    assert done.returncode == 0, done.stderr
    done = cdsim("balance", str(castles_run), str(other), "--out", str(tmp_path))
    assert done.returncode == 2 and done.stderr.count("\n") == 1, done.stderr
    assert "not the same setup" in done.stderr and "'carpe-diem' vs 'castles'" in done.stderr


def test_the_replay_command_of_a_castles_game_names_the_game() -> None:
    castles = RunConfig.checked(game="castles", players=4, seed=9, games=8,
                                strategies=tuple(LINEUP.split(",")), rotate_seats=True)
    assert replay_command(castles, 5) == (
        "cdsim play --game castles --players 4 --seed 9 --setup 1 "
        "--strategies random,castle-monastery,animal-farms,greedy")
    carpe = RunConfig.checked(players=2, seed=9, games=4, strategies=("greedy", "villa"))
    assert replay_command(carpe, 3) == \
        "cdsim play --players 2 --seed 9 --setup 3 --strategies greedy,villa"


def test_power_takes_the_game() -> None:
    done = cdsim("power", "--game", "castles", "--players", "3", "--json")
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout)
    plain = json.loads(cdsim("power", "--players", "3", "--json").stdout)
    assert found == {"game": "castles"} | plain  # the same figures: they are the count's
    done = cdsim("power", "--game", "castles", "--players", "5")
    assert done.returncode == 2 and done.stderr.count("\n") == 1
    assert "--players must be 2, 3 or 4 for castles, got 5" in done.stderr
