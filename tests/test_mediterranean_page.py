"""The Mediterranean game's replay (``cdsim play --game mediterranean --html``), checked in
headless chromium as tests/test_replay.py checks Carpe Diem's: every step of a whole
5-player game, and the hidden rowing card (M5.1) never shown before it is turned up."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from cdsim import core
from cdsim.games import game_spec
from cdsim.games.mediterranean.components import components_text
from cdsim.games.mediterranean.view import (
    DECISIONS,
    HIDDEN_WORDS,
    NONE,
    decision_lines,
    hide,
    replay_data,
    summary_lines,
)
from cdsim.games.recorded import play_recorded
from tests.commands import run_cli
from tests.test_replay import IMG, browser, embedded, open_page, screenshot

pytestmark = pytest.mark.skipif(not core.available(), reason="needs the compiled core")
__all__ = ["browser"]  # the fixture, shared with tests/test_replay.py

LINEUP = ["greedy", "gold-first", "temple-majority", "long-haul", "random"]


def _game() -> Any:
    spec = game_spec("mediterranean")
    return play_recorded(spec, None, 7, None, [(p, ()) for p in LINEUP], (0,) * 5)


def test_a_laid_card_is_hidden_until_turned_up_in_the_data_and_the_trace() -> None:
    game = _game()
    picks = [d for d in game.decisions if d.decision == "rowing-card"]
    assert len(picks) == 3 * 5 * 5  # three rounds, five delivery turns, five seats
    # the core's frame holds the laid cards (drawn after the game) ...
    laid_raw = [d.frame for d in picks if any(s["laid"] != NONE for s in d.frame["seats"])]
    assert laid_raw, "no frame with a card laid: the test would prove nothing"
    for frame in laid_raw:
        shown = hide(frame)
        for raw, seat in zip(frame["seats"], shown["seats"], strict=True):
            if raw["laid"] != NONE:  # ... the table sees only that a card lies face down
                assert seat["laid"] == "face down"
                assert sorted(seat["hand"]) == sorted([*raw["hand"], raw["laid"]])
    data = replay_data(game, "t", "0" * 64, True, game_spec("mediterranean").breakdown())
    text = str(data)
    assert "face down" in text
    for step in data["steps"]:
        assert isinstance(step, dict)
        if step["k"] == "rowing-card":
            assert step["t"] == HIDDEN_WORDS
        for seat in step["d"].get("seats", {}).values():
            assert seat.get("laid", None) in (None, "face down")
    # the trace names no face-down card either; the extra turn's open card it names
    lines = [line for line in decision_lines(game) if ") rowing card:" in line]
    assert lines and all(line.endswith(HIDDEN_WORDS) for line in lines)
    # the cards are turned up: the seats' played cards grow after each turn's picks
    played = [sum(len(s["played"]) for s in d.frame["seats"]) for d in game.decisions
              if d.decision == "sail"]
    assert max(played) > 0


def _states(data: dict[str, Any]) -> list[dict[str, Any]]:
    """Each step's state rebuilt from the page's data, as replay.js rebuilds it."""
    state: dict[str, Any] = {"seats": []}
    out = []
    for step in data["steps"]:
        seats = list(state["seats"])
        for seat, changed in step["d"].get("seats", {}).items():
            seats[int(seat):int(seat) + 1] = [{**(seats[int(seat)] if int(seat) < len(seats)
                                                 else {}), **changed}]
        state = {**state, **step["d"], "seats": seats}
        out.append(state)
    return out


def test_the_page_data_holds_the_map_and_no_face_down_contract() -> None:
    """The map comes once from the set (every city and route of the built-in set), each
    state's contracts are named as the core's frame names them, and a face-down contract of
    the row is only its coins, though the core's frame (drawn after the game) holds its
    cards."""
    game = _game()
    data = replay_data(game, "t", "0" * 64, True, game_spec("mediterranean").breakdown())
    built_in = json.loads(components_text(None))
    assert [c["name"] for c in data["board"]["cities"]] == [c["name"] for c in built_in["cities"]]
    assert [(r["a"], r["b"]) for r in data["board"]["routes"]] == [
        (r["a"], r["b"]) for r in built_in["routes"]]
    raw_down = [o for d in game.decisions for o in d.frame["row"] if not o["face_up"]]
    assert raw_down and all("city" in o for o in raw_down), "nothing hidden: proves nothing"
    states = _states(data)
    assert len(states) == len(game.decisions) + 1
    for state, d in zip(states, game.decisions, strict=False):
        assert "board" not in state
        for offer in state["row"]:
            assert offer["face_up"] or set(offer) == {"face_up", "coins"}, offer
        for seat, raw in zip(state["seats"], d.frame["seats"], strict=True):
            assert seat["register"] == raw["register"] and seat["ship"] == raw["ship"]
    named = [c for s in states[-1]["seats"] for c in s["register"] if c["status"] != "empty"]
    assert named and all(c["city"] and c["good"] for c in named)
    sails = [s for s in data["steps"] if s["k"] == "sail"]
    assert sails and all(s["from"] and s["to"] for s in sails)
    assert any("delivers" in s for s in sails)
    assert all("column" in s for s in data["steps"] if s["k"].endswith("contract")
               and s["t"].startswith("takes "))


def test_the_trace_and_the_table_say_it_in_words() -> None:
    """Audit of issue 60: the decisions in words, not the core's kinds (``turned-contract:``,
    ``rowing-card:``), "1 temple point" (not "points"), and the final table's heads in whole
    words, the gold-temple VP and the coins left not both headed "gold"."""
    game = _game()
    lines = decision_lines(game)
    kinds = {d.decision for d in game.decisions}
    assert kinds <= set(DECISIONS), kinds - set(DECISIONS)
    for kind in kinds:  # every kind played, and none of them said in code
        assert any(f") {DECISIONS[kind]}: " in line for line in lines), kind
        assert not any(f") {kind}: " in line for line in lines if "-" in kind), kind
    spec = game_spec("mediterranean")
    more = [line for seed in range(8, 14) for line in decision_lines(play_recorded(
        spec, None, seed, None, [(p, ()) for p in LINEUP], (0,) * 5))]
    assert any("(1 temple point in " in line for line in [*lines, *more]), "no 1-point seen"
    assert not any("(1 temple points" in line for line in [*lines, *more])
    table = summary_lines(game)
    heads = " ".join(table[1:3]).split()
    assert heads.count("gold") == 1 and "coins" in heads and "left" in heads, table
    assert all(len(h) > 3 or h in ("VP", "new") for h in heads), table  # no abbreviations


SHOWN = """
return {
  step: Number(document.getElementById("step-label").dataset.step),
  trace: document.getElementById("trace").textContent,
  laid: Array.from(document.querySelectorAll("#players .player")).map((p) => p.dataset.laid),
  hand: Array.from(document.querySelectorAll("#players .player")).map((p) => Number(p.dataset.hand)),
  title: document.getElementById("step-label").textContent,
  table: document.querySelector("main.table").textContent,
  forecast: Array.from(document.querySelectorAll("#sea .stat")).filter(
    (e) => e.querySelector("span").textContent === "forecast").map(
    (e) => e.querySelector("b").textContent)[0],
  colours: Array.from(document.querySelectorAll("#players .player header")).map(
    (h) => h.style.background),
  markup: document.querySelector("main.table").innerHTML,
  cities: Array.from(document.querySelectorAll("#map g.city")).map((g) => g.dataset.city),
  ships: Array.from(document.querySelectorAll("#map g.ship")).map((g) => {
    // the ship's place and how far it lies from its city's centre
    const at = g.transform.baseVal.consolidate().matrix;
    const dot = Array.from(document.querySelectorAll("#map g.city")).find(
      (c) => c.dataset.city === g.dataset.city).querySelector(".dot").getBBox();
    return [g.dataset.city, [at.e, at.f],
      Math.hypot(at.e - dot.x - dot.width / 2, at.f - dot.y - dot.height / 2)];
  }),
  registers: Array.from(document.querySelectorAll("#players .player")).map(
    (p) => Array.from(p.querySelectorAll("ol.register li")).map(
      (li) => [li.dataset.status, li.textContent])),
  sailed: document.querySelectorAll("#map .route.sailed").length,
  ringed: Array.from(document.querySelectorAll("#map g.city.chosen")).map((g) => g.dataset.city),
  column: Array.from(document.querySelectorAll("#players ol.register li.chosen")).length,
  down: Array.from(document.querySelectorAll("#row .offer.down")).map((o) => o.textContent),
  regions: Array.from(document.querySelectorAll("#map .region-name")).map((t) => t.textContent),
  temples: Array.from(document.querySelectorAll("#temples tbody tr")).map(
    (r) => r.dataset.temple),
};
"""


def test_the_replay_of_a_whole_five_player_game_in_the_browser(
        browser: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    page = tmp_path / "g.html"
    monkeypatch.chdir(tmp_path)
    code, out, err = run_cli(["play", "--game", "mediterranean", "--players", "5", "--seed", "7",
                              "--strategies", ",".join(LINEUP), "--html", str(page)],
                             monkeypatch, capsys)
    assert code == 0 and "replay: " in out, err
    data = embedded(page.read_text())
    open_page(browser, page)
    body = browser.find_element(By.TAG_NAME, "body")
    seen_face_down = 0
    forecasts = set()
    states = _states(data)
    cities = [c["name"] for c in json.loads(components_text(None))["cities"]]
    regions = [r["name"] for r in json.loads(components_text(None))["regions"]]
    moved = sails = 0
    before = None
    for i, step in enumerate(data["steps"][:-1]):
        shown = browser.execute_script(SHOWN)
        assert shown["step"] == i and step["t"] in shown["trace"]
        assert len(shown["laid"]) == 5
        # every figure in words: no "undefined" or "null" (the forecast before the cards are
        # turned up said "null", before it was first set "undefined"), no decision in code;
        # no coordinate of the map lost either
        for word in ("undefined", "null", "NaN"):
            assert word not in shown["table"], (i, word, shown["table"])
        for word in ("undefined", "NaN"):
            assert word not in shown["markup"], (i, word)
        # the map: every city of the set, every region named, each ship in its seat's city
        assert shown["cities"] == cities
        assert shown["regions"] == [r.upper() for r in regions]
        assert shown["temples"] == [*regions, "gold"]
        state = states[i]
        assert [c for c, _, _ in shown["ships"]] == [s["ship"] for s in state["seats"]]
        assert all(10 < far < 40 for _, _, far in shown["ships"]), shown["ships"]  # beside it
        if before is not None:  # a ship that changed city is drawn elsewhere
            moved += sum(a[1] != b[1] for a, b in zip(before, shown["ships"], strict=True))
        before = shown["ships"]
        # the contracts named, in each register's order
        for seat, drawn in zip(state["seats"], shown["registers"], strict=True):
            assert [status for status, _ in drawn] == [c["status"] for c in seat["register"]]
            for (_, text), c in zip(drawn, seat["register"], strict=True):
                assert c["status"] == "empty" or (c["city"] in text and c["good"] in text and
                                                  ("gold" in text or "temple point" in text))
        assert all(text == "face down" for text in shown["down"])
        # the step's decision on the map: its sail drawn, its city ringed, its column marked
        if step["k"] == "sail" and step["from"] != step["to"]:
            sails += 1
            assert shown["sailed"] >= 1 and shown["ringed"] == [step["to"]], (i, shown["ringed"])
        if "column" in step or "delivers" in step:
            assert shown["column"] == 1, (i, step["t"])
        forecasts.add(shown["forecast"])
        assert shown["title"].endswith(DECISIONS[step["k"]]), shown["title"]
        assert not [k for k in DECISIONS if "-" in k and k in shown["title"]], shown["title"]
        assert len(set(shown["colours"])) == 5, shown["colours"]  # a colour each seat
        if step["k"] == "rowing-card":
            assert HIDDEN_WORDS in shown["trace"] and "/ wind" not in shown["trace"]
            seen_face_down += shown["laid"].count("face down")
            # a seat that has laid keeps the card counted in its hand: nothing to read off
            assert all(n >= 1 for n in shown["hand"])
        body.send_keys(Keys.ARROW_RIGHT)
    assert seen_face_down > 0
    assert sails > 0 and moved > 0, (sails, moved)  # the ships do move between steps
    assert "none yet" in forecasts and any(f.startswith("+") for f in forecasts), forecasts
    assert not [e for e in browser.get_log("browser") if e["level"] in ("SEVERE", "WARNING")]
    body.send_keys(Keys.END)
    shown = browser.execute_script(SHOWN)
    assert shown["step"] == len(data["steps"]) - 1 and "final scoring" in shown["trace"]
    rows = browser.find_elements(By.CSS_SELECTOR, "#final tbody tr")
    assert sorted(int(r.get_attribute("data-final")) for r in rows) == sorted(
        s["final_vp"] for s in data["final"])
    assert not [e for e in browser.get_log("browser") if e["level"] in ("SEVERE", "WARNING")]
    # docs/mediterranean.md's picture: a delivery in round 2
    shown_at = next(i for i, (s, st) in enumerate(zip(data["steps"], states, strict=True))
                    if s["k"] == "sail" and "delivers" in s and st["round"] == 2)
    browser.get(page.as_uri() + f"#step={shown_at + 1}")
    browser.refresh()
    assert browser.execute_script("return document.body.dataset.ready") == "1"
    screenshot(browser, IMG / "mediterranean-replay.png", 1600)


def test_a_set_with_cities_of_its_own_is_drawn_too(
        browser: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """A city the page has no place for (a set of one's own renames two) goes on a ring
    around the sea: every city drawn, every coordinate a number."""
    renamed = components_text(None).replace('"Roma"', '"Ostia"').replace('"Tarraco"',
                                                                          '"Massilia"')
    (tmp_path / "set.json").write_text(renamed)
    page = tmp_path / "g.html"
    monkeypatch.chdir(tmp_path)
    code, _, err = run_cli(["play", "--game", "mediterranean", "--players", "3", "--seed", "5",
                              "--components", str(tmp_path / "set.json"), "--html", str(page)],
                             monkeypatch, capsys)
    assert code == 0, err
    browser.get(page.as_uri() + "#step=60")
    assert browser.execute_script("return document.body.dataset.ready") == "1"
    shown = browser.execute_script(SHOWN)
    assert shown["cities"] == [c["name"] for c in json.loads(renamed)["cities"]]
    assert "Ostia" in shown["cities"] and "Massilia" in shown["cities"]
    assert "NaN" not in shown["markup"] and "undefined" not in shown["markup"]
    assert all(10 < far < 40 for _, _, far in shown["ships"]), shown["ships"]
    assert not [e for e in browser.get_log("browser") if e["level"] in ("SEVERE", "WARNING")]
