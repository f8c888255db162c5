"""The HTML replay (`cdsim play --html`) and the component sheet (`cdsim components show`).

The recorder is checked in Python (it must not change the game; each step's state must
be the one its trace line describes). The pages are checked in a real browser: Debian's
chromium driven by Selenium. Where no browser can be started those tests skip and say
why, unless CDSIM_REQUIRE_BROWSER is set (CI), where that is a failure.
"""

from __future__ import annotations

import io
import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from cdsim.components import load_components
from cdsim.game import PHASES, ROUNDS, GameConfig, GameState, run_game
from cdsim.pages import components_page, replay_page
from cdsim.replay import Numbering, Recorder, snapshot
from cdsim.scoring import final_scoring
from strategies.registry import make_lineup, parse_params

ROOT = Path(__file__).resolve().parents[1]
IMG = ROOT / "docs" / "img"
MIX = "greedy,villa,landscape,bread"
# where Debian's chromium and chromium-driver put them
CHROMIUM = os.environ.get("CDSIM_CHROMIUM", "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("CDSIM_CHROMEDRIVER", "/usr/bin/chromedriver")


def cdsim(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "cdsim", *args], capture_output=True, text=True,
                          check=False, cwd=ROOT)


def lineup(names: str, players: int) -> list[Any]:
    """One name fills every seat; a longer list gives its first ``players`` names."""
    specs = names.split(",")
    return make_lineup(specs if len(specs) == 1 else specs[:players], players, parse_params(None))


def recorded(players: int, names: str, seed: int) -> tuple[Recorder, GameState, dict[str, Any]]:
    recorder = Recorder()
    state = recorder.new_game(GameConfig(players), lineup(names, players), seed)
    run_game(state)
    data = recorder.finish(final_scoring(state, seed))
    return recorder, state, data


def states(data: dict[str, Any]) -> list[dict[str, Any]]:
    """Each step's full state, as the page rebuilds it from the deltas."""
    out: list[dict[str, Any]] = []
    current: dict[str, Any] = {}
    for step in data["steps"]:
        current = current | step["d"]
        out.append(current)
    return out


# -- the recorder ---------------------------------------------------------------------------
@pytest.mark.parametrize(("players", "names", "seed"), [(2, "random", 3), (3, MIX, 5), (4, MIX, 7),
                                                        (4, "random", 11)])
def test_recording_leaves_the_game_unchanged(players: int, names: str, seed: int) -> None:
    plain = GameState(GameConfig(players), lineup(names, players), seed)
    run_game(plain)
    _, state, _ = recorded(players, names, seed)
    assert final_scoring(state, seed).digest() == final_scoring(plain, seed).digest()


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_step_for_every_turn_and_scoring_decision(players: int) -> None:
    _, _, data = recorded(players, MIX, 1)
    kinds = [s["k"] for s in data["steps"]]
    assert kinds.count("turn") == PHASES * ROUNDS * players
    assert kinds.count("circle") == PHASES * players
    assert kinds.count("pawn") == players
    assert kinds.count("phase") == kinds.count("scoring") == PHASES
    assert kinds[0] == "setup" and kinds[-1] == "final" and kinds.count("final") == 1
    assert all(s["t"] for s in data["steps"])  # every step shows its trace line(s)


def test_each_step_shows_the_state_its_line_describes() -> None:
    _, state, data = recorded(4, MIX, 7)
    built = [0] * 4
    for step, now in zip(data["steps"], states(data), strict=True):
        seat = step["a"]
        if step["k"] == "turn":
            first = step["t"][0]
            assert first.startswith(f"seat {seat + 1} ")  # seats counted from 1
            space = re.search(r"to space (\d+)", first)
            assert space and now[f"p{seat}"][0] == int(space[1]) - 1  # where the line says
            built[seat] += sum(1 for line in step["t"] if "builds" in line)
            assert [now[f"p{s}"][10] for s in range(4)] == built  # the tiles built so far
        if step["k"] == "phase":  # the new deal is on the depots
            assert all(len(depot) == 4 for depot in now["dp"])
        if step["k"] == "circle":
            assert seat in now["co"]
    assert states(data)[-1] == snapshot(state)  # the last step is the final state


def test_final_step_holds_the_final_scores() -> None:
    out = cdsim("play", "--players", "3", "--seed", "5", "--strategies", "greedy", "--json")
    game = json.loads(out.stdout)
    _, _, data = recorded(3, "greedy", 5)
    final = data["final"]["seats"]
    assert [s["final"] for s in final] == [s["final_vp"] for s in game["seats"]]
    assert [s["breakdown"] for s in final] == [s["breakdown"] for s in game["seats"]]


@pytest.mark.parametrize("base", [0, 1])
def test_page_counts_from_one_whichever_way_the_trace_counts(base: int) -> None:
    numbering = Numbering()
    line = f"seat {2 + base} moves to {4 + base}, takes L-dM, builds at ({1 + base}, {5 + base}) as G"
    numbering.learn(line, actor=2, pawn=4, cell=1 * 6 + 5, circle=-1)
    numbering.learn(f"seat {2 + base} takes circle {base}", actor=2, pawn=4, cell=-1, circle=0)
    circles = [(0, 1)]
    grid = ["A01", "B02"]
    assert numbering.show(line, circles, grid) == (
        "seat 3 moves to space 5, takes L-dM, builds at row 2, column 6 as G")
    assert numbering.show(f"seat {2 + base} takes circle {base}", circles, grid) == (
        "seat 3 takes the circle between A01 and B02")


# -- the pages as files ---------------------------------------------------------------------
def assert_self_contained(page: str) -> None:
    assert "<script src" not in page and "<link" not in page and "@import" not in page
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", page)
    assert not re.search(r"url\(\s*['\"]?(https?:)?//", page)


def test_replay_page_is_self_contained_and_small() -> None:
    _, _, data = recorded(4, MIX, 7)
    page = replay_page(data)
    assert_self_contained(page)
    assert len(page.encode()) < 250_000  # a 4-player game: well under 1 MB
    embedded = re.search(r'<script type="application/json" id="replay-data">(.*?)</script>', page,
                         re.S)
    assert embedded is not None and json.loads(embedded[1]) == json.loads(json.dumps(data))


def test_components_page_holds_every_piece() -> None:
    comps = load_components()
    page = components_page(comps, "the default set")
    assert_self_contained(page)
    for tile in comps.tile_types:
        assert f'"{tile.id}"' in page
    for card_id in (*comps.objectives, *comps.fountains):
        assert f'"{card_id}"' in page


def test_cli_writes_both_pages(tmp_path: Path) -> None:
    replay = tmp_path / "game.html"
    out = cdsim("play", "--players", "2", "--seed", "3", "--html", str(replay))
    assert out.returncode == 0, out.stderr
    assert replay.stat().st_size > 10_000 and f"replay: {replay}" in out.stdout
    out = cdsim("play", "--players", "2", "--seed", "3", "--json", "--html", str(replay))
    assert json.loads(out.stdout)["seed"] == 3  # --json stays one JSON object
    folder = tmp_path / "set"
    folder.mkdir()
    shutil.copy(ROOT / "cdsim" / "data" / "boards.toml", folder / "boards.toml")
    sheet = tmp_path / "set.html"
    out = cdsim("components", "show", "--components", str(folder), "--html", str(sheet))
    assert out.returncode == 0, out.stderr
    assert str(folder) in sheet.read_text()


@pytest.mark.parametrize("args", [("play", "--players", "2"), ("components", "show")])
def test_unwritable_html_path_is_one_line_exit_2(tmp_path: Path, args: tuple[str, ...]) -> None:
    out = cdsim(*args, "--html", str(tmp_path / "missing" / "page.html"))
    assert out.returncode == 2
    assert out.stderr.startswith("cdsim: error: ") and out.stderr.count("\n") == 1
    assert "page.html: cannot write" in out.stderr


# -- in a browser ---------------------------------------------------------------------------
@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Headless chromium under Selenium, or a skip saying why there is none."""
    def unavailable(reason: str) -> None:
        if os.environ.get("CDSIM_REQUIRE_BROWSER"):
            pytest.fail(f"CDSIM_REQUIRE_BROWSER is set but {reason}")
        pytest.skip(reason)

    try:
        from selenium import webdriver
        from selenium.common.exceptions import WebDriverException
        from selenium.webdriver.chrome.options import Options
        from selenium.webdriver.chrome.service import Service
    except ImportError:
        unavailable("selenium is not installed (pip install selenium)")
    for path, package in ((CHROMIUM, "chromium"), (CHROMEDRIVER, "chromium-driver")):
        if not Path(path).exists():
            unavailable(f"{path} is missing (apt-get install {package})")
    options = Options()
    options.binary_location = CHROMIUM
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--hide-scrollbars", "--force-device-scale-factor=1", "--window-size=1600,1000"):
        options.add_argument(arg)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    try:
        driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    except WebDriverException as exc:
        unavailable(f"chromium cannot be started: {exc.msg}")
    yield driver
    driver.quit()


def open_page(driver: Any, path: Path) -> None:
    driver.get(path.as_uri())
    driver.execute_script("return 1")
    assert driver.execute_script("return document.body.dataset.ready") == "1"
    errors = [e for e in driver.get_log("browser") if e["level"] in ("SEVERE", "WARNING")]
    assert not errors, errors


def screenshot(driver: Any, target: Path, width: int, height: int | None = None) -> None:
    """The whole page (or its top ``height`` pixels) as a small PNG for the README."""
    from PIL import Image

    driver.set_window_size(width, 1000)
    frame = driver.execute_script("return window.outerHeight - window.innerHeight")
    full = driver.execute_script("return document.documentElement.scrollHeight")
    driver.set_window_size(width, (height or full) + frame)
    png = Image.open(io.BytesIO(driver.get_screenshot_as_png())).convert("RGB")
    target.parent.mkdir(parents=True, exist_ok=True)
    png.quantize(colors=256, method=Image.Quantize.MEDIANCUT).save(target, optimize=True)


def test_replay_in_the_browser(browser: Any, tmp_path: Path) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    args = ("play", "--players", "4", "--seed", "7", "--strategies", MIX)
    page = tmp_path / "replay.html"
    assert cdsim(*args, "--html", str(page)).returncode == 0
    game = json.loads(cdsim(*args, "--json").stdout)
    browser.set_window_size(1600, 1000)
    open_page(browser, page)

    def step() -> tuple[int, str]:
        label = browser.find_element(By.ID, "step-label")
        return int(label.get_attribute("data-step")), browser.find_element(By.ID, "trace").text

    first = step()
    assert first[0] == 0 and "setup" in first[1]
    browser.find_element(By.ID, "next").click()
    after_click = step()
    assert after_click[0] == 1 and after_click[1] != first[1]
    assert "seat 1 starts on space" in after_click[1]  # seats counted from 1
    body = browser.find_element(By.TAG_NAME, "body")
    body.send_keys(Keys.ARROW_RIGHT)
    assert step()[0] == 2 and step()[1] != after_click[1]
    body.send_keys(Keys.ARROW_LEFT)
    assert step() == after_click
    body.send_keys(Keys.END)
    assert "final scoring" in step()[1]
    rows = browser.find_elements(By.CSS_SELECTOR, "#final tbody tr")
    shown = {int(r.get_attribute("data-seat")): int(r.get_attribute("data-final")) for r in rows}
    assert shown == {s["seat"] + 1: s["final_vp"] for s in game["seats"]}
    for row, seat in zip(rows, game["seats"], strict=True):
        parts = {c.get_attribute("data-part"): int(c.text)
                 for c in row.find_elements(By.CSS_SELECTOR, "td[data-part]")}
        assert parts == seat["breakdown"]
    # the frame goals the page marks as met add up to the engine's frame points (C9 layout)
    panels = browser.find_elements(By.CSS_SELECTOR, "section.player")
    assert [int(p.get_attribute("data-frame-vp")) for p in panels] == [
        s["breakdown"]["frame"] for s in game["seats"]]
    body.send_keys(Keys.HOME)
    assert step() == first
    # the README's picture: phase 4, round 2 (boards well filled, tiles on the depots)
    _, _, data = recorded(4, MIX, 7)
    shown = next(i for i, s in enumerate(data["steps"]) if s["k"] == "turn" and s["p"] == 3
                 and s["r"] == 1)
    browser.get(page.as_uri() + f"#step={shown + 1}")
    browser.refresh()
    assert browser.execute_script("return document.body.dataset.ready") == "1"
    screenshot(browser, IMG / "replay.png", 1600)
    assert not [e for e in browser.get_log("browser") if e["level"] == "SEVERE"]


def test_component_sheet_in_the_browser(browser: Any, tmp_path: Path) -> None:
    from selenium.webdriver.common.by import By

    page = tmp_path / "components.html"
    assert cdsim("components", "show", "--html", str(page)).returncode == 0
    browser.set_window_size(1600, 1000)
    open_page(browser, page)
    comps = load_components()
    tiles = browser.find_elements(By.CSS_SELECTOR, ".tile-card")
    assert len(tiles) == len(comps.tile_types)
    assert len(browser.find_elements(By.CSS_SELECTOR, "#decks .card")) == len(comps.objectives)
    assert len(browser.find_elements(By.CSS_SELECTOR, ".fountain-card")) == len(comps.fountains)
    assert len(browser.find_elements(By.CSS_SELECTOR, ".part-card[data-part]")) == len(
        comps.frame_parts)
    card = browser.find_element(By.CSS_SELECTOR, '#decks .card[data-card="B05"]')
    assert "pay 1 grapes + 1 herbs + 1 chickens + 1 fish" in card.text and "rulebook" in card.text
    screenshot(browser, IMG / "components.png", 1600, 1150)
