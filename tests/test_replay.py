"""The HTML replay (`cdsim play --html`) and the component sheet (`cdsim components show`).

The replay is made from the core's typed events and snapshots (cdsim/games/carpe_diem/view/replay.py): it is
checked in Python against the events (each step shows the state after its own events),
against the Python rules (the tiles and features drawn) and against a reworded trace
(nothing but the words changes). The pages are checked in a real browser: Debian's
chromium driven by Selenium, stepping through whole games. Where no browser can be
started those tests skip and say why, unless CDSIM_REQUIRE_BROWSER is set (CI), where
that is a failure.
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
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from cdsim.games.carpe_diem.engine.table import Table
from cdsim.games.carpe_diem.players.registry import make_lineup, parse_params
from cdsim.games.carpe_diem.rules.components import load_components
from cdsim.games.carpe_diem.rules.game import PHASES, ROUNDS
from cdsim.games.carpe_diem.rules.kinds import ARTISAN, CELLS, MARKET, rotate
from cdsim.games.carpe_diem.view import VIEW, trace
from cdsim.games.carpe_diem.view.components import components_data
from cdsim.games.carpe_diem.view.replay import OPENS, Recorder, completions, view
from cdsim.view.pages import components_page, replay_page

ROOT = Path(__file__).resolve().parents[1]
IMG = ROOT / "docs" / "img"
MIX = "greedy,villa,landscape,bread"
MCTS = "mcts@20,greedy"
# where Debian's chromium and chromium-driver put them
CHROMIUM = os.environ.get("CDSIM_CHROMIUM", "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("CDSIM_CHROMEDRIVER", "/usr/bin/chromedriver")


def cdsim(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "cdsim", *args], capture_output=True, text=True,
                          check=False, cwd=ROOT)


def table(players: int, names: str, seed: int, **options: Any) -> Table:
    """A new table (fresh players); one name fills every seat, a longer list gives its
    first ``players`` names."""
    specs = names.split(",")
    lineup = make_lineup(specs if len(specs) == 1 else specs[:players], players,
                         parse_params(None))
    return Table(None, lineup, seed, **options)


def record_game(players: int, names: str, seed: int) -> tuple[Table, dict[str, Any]]:
    played = table(players, names, seed, events=True, mirror=True)
    recorder = Recorder(played)
    played.play()
    return played, recorder.finish()


recorded = cache(record_game)  # the tests below only read what it returns


def states(data: dict[str, Any]) -> list[dict[str, Any]]:
    """Each step's full state, as the page rebuilds it from the deltas."""
    out: list[dict[str, Any]] = []
    current: dict[str, Any] = {}
    for step in data["steps"]:
        current = current | step["d"]
        out.append(current)
    return out


def step_events(data: dict[str, Any], events: list[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    """The core's events of each step (``e``: where a step opens in the event list)."""
    opens = [s["e"] for s in data["steps"]]
    return [events[a:b] for a, b in zip(opens, [*opens[1:], len(events)], strict=True)]


def embedded(page: str) -> Any:
    found = re.search(r'<script type="application/json" id="replay-data">(.*?)</script>', page,
                      re.S)
    assert found is not None
    return json.loads(found[1])


# -- the recorder ---------------------------------------------------------------------------
@pytest.mark.parametrize(("players", "names", "seed"), [(2, "random", 3), (3, MIX, 5), (4, MIX, 7),
                                                        (2, MCTS, 3)])
def test_recording_leaves_the_game_unchanged(players: int, names: str, seed: int) -> None:
    plain = table(players, names, seed).play()  # the core alone, no events
    played, _ = recorded(players, names, seed)
    assert played.record().digest() == plain.digest()


@pytest.mark.parametrize(("players", "names"), [(2, MIX), (3, MIX), (4, MIX), (2, MCTS)])
def test_a_step_for_every_turn_and_scoring_decision(players: int, names: str) -> None:
    _, data = recorded(players, names, 1)
    kinds = [s["k"] for s in data["steps"]]
    assert kinds.count("turn") == PHASES * ROUNDS * players
    assert kinds.count("circle") == PHASES * players
    assert kinds.count("pawn") == players
    assert kinds.count("phase") == kinds.count("scoring") == PHASES
    assert kinds[0] == "setup" and kinds[-1] == "final" and kinds.count("final") == 1
    assert all(s["t"] for s in data["steps"])  # every step shows its trace line(s)
    for phase in range(PHASES):  # rounds and seats in order, phases counted from 0
        turns = [s for s in data["steps"] if s["k"] == "turn" and s["p"] == phase]
        assert [s["r"] for s in turns] == [r for r in range(ROUNDS) for _ in range(players)]
        assert [s["a"] for s in turns] == [(phase + k) % players
                                           for k in range(ROUNDS * players)]


@pytest.mark.parametrize(("players", "names", "seed"), [(4, MIX, 7), (2, MCTS, 3), (3, "random", 5)])
def test_each_step_shows_the_state_after_its_own_events(players: int, names: str, seed: int) -> None:
    played, data = recorded(players, names, seed)
    events = played.event_list()
    tiles = {t.id: i for i, t in enumerate(load_components().tile_types)}
    built, complete = [0] * players, [0] * players
    for step, now, mine in zip(data["steps"], states(data), step_events(data, events), strict=True):
        seat = step["a"]
        if step["k"] in ("setup", "final"):
            assert not mine and len(step["t"]) == 1
        else:  # one event opens the step, one line per event
            assert OPENS[mine[0]["type"]] == step["k"]
            assert not [e for e in mine[1:] if e["type"] in OPENS]
            assert len(step["t"]) == len(mine)
        for e in mine:
            if e["type"] in ("take", "seal") and e["cell"] is not None:
                built[e["seat"]] += 1
            if e["type"] == "complete":
                complete[e["seat"]] += 1
            if e["type"] == "phase_end":  # the VP each seat holds
                assert [now[f"p{s}"][12] for s in range(players)] == e["vp"]
        assert [now[f"p{s}"][10] for s in range(players)] == built
        assert [now[f"p{s}"][11] for s in range(players)] == complete
        if step["k"] == "pawn":  # the last pawn too: the deal is the next step's
            assert set(step["d"]) == {f"p{seat}"} and now[f"p{seat}"][0] == mine[0]["space"]
        if step["k"] == "phase":
            assert step["p"] == mine[0]["phase"] and now["sp"] == mine[0]["phase"] % players
            assert now["dp"] == [[tiles[t] for t in depot] for depot in mine[0]["depots"]]
        if step["k"] == "turn":
            assert now[f"p{seat}"][0] == mine[0]["dest"]
        if step["k"] in ("scoring", "circle"):  # nor is the next deal a circle's
            assert not {"sp", "dp", "dk"} & set(step["d"])
        if step["k"] == "circle":
            assert now["co"][mine[0]["circle"]] == seat
    assert states(data)[-1] == view(json.loads(played.core.snapshot()))  # the end
    assert data["steps"][-1]["d"] == {}


@pytest.mark.parametrize(("players", "names", "seed"), [(4, MIX, 7), (2, MCTS, 3), (3, "random", 5),
                                                        (4, "random", 11), (2, "bread", 30),
                                                        (4, "villa", 47)])
def test_tiles_and_features_drawn_are_the_python_rules(players: int, names: str,
                                                       seed: int) -> None:
    played, data = recorded(players, names, seed)
    assert played.python is not None
    comps = load_components()
    for seat, p in enumerate(played.python.players):
        shown = data["players"][seat]
        assert [b[:7] for b in shown["built"]] == [[cell, *edges, chimneys, building] for
                                                   cell, edges, chimneys, building in p.district.history]
        for b in shown["built"]:  # the tile type built there, turned
            assert tuple(b[1:5]) in {rotate(comps.tile_types[b[7]].edges, r) for r in range(4)}
        assert sorted(shown["features"]) == sorted(
            [f.kind, f.tiles, f.chimneys, list(f.cells)] for f in p.district.features)


def test_two_features_of_one_kind_in_one_step_are_told_apart() -> None:
    """An artisan's seal tile can complete a second artisan in the same turn: the cells
    the step gained are split by the sides that join them, not by being neighbours."""
    edges: list[list[int] | None] = [None] * CELLS
    edges[0], edges[1] = [0, ARTISAN, 0, 0], [0, 0, 0, ARTISAN]  # row 1: columns 1-2
    edges[2], edges[8], edges[14] = [0, 0, ARTISAN, 0], [ARTISAN, 0, ARTISAN, 0], [ARTISAN, 0, 0, 0]
    edges[20], edges[21] = [0, 0, 0, 0], [0, 0, 0, 0]  # two markets side by side
    masks = [0] * 13
    masks[ARTISAN] = sum(1 << c for c in (0, 1, 2, 8, 14))
    masks[MARKET] = 1 << 20 | 1 << 21
    after = {"players": [{"district": {"complete_mask": masks, "edges": edges}}]}
    before = {"players": [{"district": {"complete_mask": [0] * 13, "edges": edges}}]}
    done = [{"type": "complete", "seat": 0, "kind": kind, "tiles": tiles, "chimneys": 0}
            for kind, tiles in ((ARTISAN, 3), (MARKET, 1), (ARTISAN, 2), (MARKET, 1))]
    assert completions(done, before, after) == [
        (0, [ARTISAN, 3, 0, [2, 8, 14]]), (0, [MARKET, 1, 0, [20]]),
        (0, [ARTISAN, 2, 0, [0, 1]]), (0, [MARKET, 1, 0, [21]])]
    old = [0] * 13
    old[ARTISAN] = 1 << 0 | 1 << 1  # completed before this step: not this step's
    before["players"][0]["district"]["complete_mask"] = old
    assert completions(done[:1], before, after) == [(0, [ARTISAN, 3, 0, [2, 8, 14]])]


def test_rewording_the_trace_changes_nothing_else(monkeypatch: pytest.MonkeyPatch) -> None:
    _, data = recorded(4, MIX, 7)
    monkeypatch.setattr(trace, "line", lambda *args: "reworded")
    _, reworded = record_game(4, MIX, 7)

    def structure(d: dict[str, Any]) -> dict[str, Any]:
        return d | {"steps": [{k: v for k, v in s.items() if k != "t"} for s in d["steps"]]}

    assert structure(reworded) == structure(data)
    assert [len(s["t"]) for s in reworded["steps"]] == [len(s["t"]) for s in data["steps"]]
    assert {line for s in reworded["steps"][1:-1] for line in s["t"]} == {"reworded"}


def test_the_recorder_needs_events_and_the_python_rules() -> None:
    with pytest.raises(ValueError, match="events=True and mirror=True"):
        Recorder(table(2, "random", 1, mirror=True))
    with pytest.raises(ValueError, match="events=True and mirror=True"):
        Recorder(table(2, "random", 1, events=True))


def test_final_step_holds_the_final_scores() -> None:
    out = cdsim("play", "--players", "3", "--seed", "5", "--strategies", "greedy", "--json")
    game = json.loads(out.stdout)
    _, data = recorded(3, "greedy", 5)
    final = data["final"]["seats"]
    assert [s["final"] for s in final] == [s["final_vp"] for s in game["seats"]]
    assert [s["breakdown"] for s in final] == [s["breakdown"] for s in game["seats"]]
    won = next(s for s in game["seats"] if s["won"])
    assert data["steps"][-1]["t"] == [f"== final scoring: seat {won['seat']} wins with "
                                      f"{won['final_vp']} VP"]


# -- the pages as files ---------------------------------------------------------------------
def assert_self_contained(page: str) -> None:
    assert "<script src" not in page and "<link" not in page and "@import" not in page
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", page)
    assert not re.search(r"url\(\s*['\"]?(https?:)?//", page)


def test_replay_page_is_self_contained_and_small() -> None:
    _, data = recorded(4, MIX, 7)
    page = replay_page(VIEW.replay, data, "Carpe Diem")
    assert_self_contained(page)
    assert len(page.encode()) < 250_000  # a 4-player game: well under 1 MB
    assert embedded(page) == json.loads(json.dumps(data))


def test_components_page_holds_every_piece() -> None:
    comps = load_components()
    assert VIEW.sheet_page is not None  # its sheet's own files, in its package
    page = components_page(VIEW.sheet_page, components_data(comps, "the default set"),
                           "Carpe Diem components")
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
    shutil.copy(ROOT / "cdsim" / "games" / "carpe_diem" / "data" / "boards.toml", folder / "boards.toml")
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


# What the page draws at the step it shows, read in the browser.
SHOWN = """
const seats = Array.from(document.querySelectorAll("section.player"));
return {
  step: Number(document.getElementById("step-label").dataset.step),
  lines: Array.from(document.querySelectorAll("#trace > div")).map((d) => d.textContent),
  depots: Array.from(document.querySelectorAll("#central g.depot"))
    .map((g) => g.querySelectorAll(":scope > g").length),
  pawns: document.querySelectorAll("#central g.pawn").length,
  seal: document.querySelectorAll("#seal svg > g").length,
  circles: document.querySelectorAll("#cards .circle.taken").length,
  tiles: seats.map((p) => p.querySelectorAll("svg.district > g[transform]:not(.spade)").length),
  fresh: seats.map((p) => p.querySelectorAll("rect.fresh").length),
  completed: seats.map((p) => p.querySelectorAll("rect.completed").length),
  vp: seats.map((p) => Number(p.querySelector("header .vp").lastChild.textContent)),
};
"""


@pytest.mark.parametrize(("players", "seed", "names"), [(4, 7, MIX), (2, 3, MCTS)])
def test_replay_in_the_browser(browser: Any, tmp_path: Path, players: int, seed: int,
                               names: str) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    args = ("play", "--players", str(players), "--seed", str(seed), "--strategies", names)
    page = tmp_path / "replay.html"
    assert cdsim(*args, "--html", str(page)).returncode == 0
    game = json.loads(cdsim(*args, "--json").stdout)
    data = embedded(page.read_text())
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
    assert "seat 1 puts its pawn on space" in after_click[1]  # seats counted from 1
    body = browser.find_element(By.TAG_NAME, "body")
    body.send_keys(Keys.ARROW_RIGHT)
    assert step()[0] == 2 and step()[1] != after_click[1]
    body.send_keys(Keys.ARROW_LEFT)
    assert step() == after_click
    # every step in turn: its lines, and the state it draws is the step's
    body.send_keys(Keys.HOME)
    before: dict[str, Any] = {}
    for i, (want, now) in enumerate(zip(data["steps"], states(data), strict=True)):
        shown = browser.execute_script(SHOWN)
        assert shown["step"] == i and shown["lines"] == want["t"]
        assert shown["depots"] == [len(depot) for depot in now["dp"]]
        assert shown["pawns"] == sum(now[f"p{s}"][0] >= 0 for s in range(players))
        assert shown["seal"] == sum(t is not None for t in now["sl"])
        assert shown["circles"] == sum(owner >= 0 for owner in now["co"])
        assert shown["tiles"] == [now[f"p{s}"][10] for s in range(players)]
        assert shown["vp"] == ([s["final_vp"] for s in game["seats"]] if want["k"] == "final"
                               else [now[f"p{s}"][12] for s in range(players)])
        for s, player in enumerate(data["players"]):  # what this step built and completed
            was = before.get(f"p{s}", now[f"p{s}"])
            assert shown["fresh"][s] == now[f"p{s}"][10] - was[10]
            cells = {c for f in player["features"][was[11]:now[f"p{s}"][11]] for c in f[3]}
            assert shown["completed"][s] == len(cells)
        before = now
        body.send_keys(Keys.ARROW_RIGHT)
    assert not [e for e in browser.get_log("browser") if e["level"] in ("SEVERE", "WARNING")]
    body.send_keys(Keys.END)
    assert "final scoring" in step()[1]
    rows = browser.find_elements(By.CSS_SELECTOR, "#final tbody tr")
    finals = {int(r.get_attribute("data-seat")): int(r.get_attribute("data-final")) for r in rows}
    assert finals == {s["seat"]: s["final_vp"] for s in game["seats"]}
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
    if players == 4:  # the README's picture: phase 4, round 2 (boards well filled)
        shown_at = next(i for i, s in enumerate(data["steps"]) if s["k"] == "turn"
                        and s["p"] == 3 and s["r"] == 1)
        browser.get(page.as_uri() + f"#step={shown_at + 1}")
        browser.refresh()
        assert browser.execute_script("return document.body.dataset.ready") == "1"
        screenshot(browser, IMG / "replay.png", 1600)
        assert not [e for e in browser.get_log("browser") if e["level"] == "SEVERE"]


# Each final-scoring bar segment as drawn: its part, its VP and where it lies.
BARS = """
return Array.from(document.querySelectorAll("#final tbody tr")).map((row) => {
  const box = (e) => { const r = e.getBoundingClientRect(); return [r.left, r.right]; };
  return {
    final: Number(row.dataset.final),
    zero: box(row.querySelector(".bar .zero"))[0],
    total: box(row.querySelector(".bar .total-mark"))[0],
    parts: Array.from(row.querySelectorAll(".bar span[data-part]")).map(
      (s) => [s.dataset.part, Number(s.dataset.vp), ...box(s)]),
  };
});
"""


def test_the_final_scoring_bars_show_negative_vp(browser: Any, tmp_path: Path) -> None:
    """Issue 41: the final-scoring bars drew only the positive parts, so a seat that lost
    VP on failed cards (-7 VP here) was drawn longer than one with 35. Each part is now
    drawn to its size on one scale, losses left of a zero line, and a mark at the total:
    the marks are in the order of the totals."""
    page = tmp_path / "replay.html"
    args = ("play", "--players", "4", "--seed", "1", "--strategies", "random")
    assert cdsim(*args, "--html", str(page)).returncode == 0
    game = json.loads(cdsim(*args, "--json").stdout)
    assert min(s["breakdown"]["cards"] for s in game["seats"]) < 0  # the case shown
    browser.set_window_size(1600, 1000)
    browser.get(page.as_uri() + f"#step={len(embedded(page.read_text())['steps'])}")
    browser.refresh()
    assert browser.execute_script("return document.body.dataset.ready") == "1"
    rows = browser.execute_script(BARS)
    scale = {round((r - left) / abs(vp), 2) for row in rows for _, vp, left, r in row["parts"]}
    assert len({round(x, 0) for x in scale}) == 1, scale  # px per VP: one scale for all
    per_vp = min(scale)
    for row, seat in zip(rows, game["seats"], strict=True):
        assert {p: vp for p, vp, *_ in row["parts"]} == {
            k: v for k, v in seat["breakdown"].items() if v}
        for _, vp, left, right in row["parts"]:
            assert (left >= row["zero"] - 1) if vp > 0 else (right <= row["zero"] + 1)
        assert abs(row["total"] - row["zero"] - row["final"] * per_vp) <= 2
    order = sorted(rows, key=lambda row: row["final"])
    assert [row["total"] for row in order] == sorted(row["total"] for row in rows)
    screenshot(browser, tmp_path / "final.png", 1600)


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


def test_study_page_shows_the_skill_chart_and_sentence(browser: Any, tmp_path: Path) -> None:
    """study.html, in the browser: the "fair starting VP by skill" chart is drawn (a loaded
    image of real size) and its sentence is on the page as a reader sees it."""
    from selenium.webdriver.common.by import By

    from tests.test_skill import two_population_study

    root = two_population_study(tmp_path)
    sentence = json.loads((root / "study.json").read_text())["skill"]["2"]["sentence"]
    browser.set_window_size(1400, 1000)
    browser.get((root / "study.html").as_uri())
    img = browser.find_element(By.CSS_SELECTOR, "figure#skill img")
    size = browser.execute_script("return [arguments[0].complete, arguments[0].naturalWidth, "
                                  "arguments[0].getBoundingClientRect().width]", img)
    assert size[0] and size[1] > 400 and size[2] > 300
    caption = browser.find_element(By.CSS_SELECTOR, "figure#skill figcaption").text
    assert caption.startswith("Fair starting VP by skill")
    text = browser.find_element(By.TAG_NAME, "body").text
    assert sentence.replace("**", "") in text
    assert text.index("Fair starting VP by skill") < text.index("Settings")
