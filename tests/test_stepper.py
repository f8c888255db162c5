"""Every replay page steps through one shared script (cdsim/view/pages/stepper.js): its
controls, keys, play and slider live there once, each game's script only draws a step.
Checked in the page's text (no game script carries stepping code of its own) and in headless
chromium (a page whose shared step player is changed steps as the changed one does)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from cdsim import core
from cdsim.games import GAMES as REGISTERED
from cdsim.games import game_spec
from cdsim.view import pages
from tests.commands import run_cli
from tests.test_replay import browser, open_page

pytestmark = pytest.mark.skipif(not core.available(), reason="needs the compiled core")
__all__ = ["browser"]  # the fixture, shared with tests/test_replay.py

GAMES = {  # each game with a replay page: the command that writes it
    "carpe-diem": ["play", "--players", "2", "--seed", "3"],
    "castles": ["play", "--game", "castles", "--players", "2", "--seed", "1"],
    "mediterranean": ["play", "--game", "mediterranean", "--players", "3", "--seed", "7"],
}
# what stepping is made of: a page script holding any of these steps by itself
STEPPING = ("addEventListener", "setInterval", '"slider"', '"step-label"', "replaceState",
            "location.hash", "dataset.ready", "function go(", "function play(")


def test_every_replay_page_is_covered() -> None:
    assert set(GAMES) == {name for name, spec in REGISTERED.items() if spec.view is not None}


@pytest.mark.parametrize("game", sorted(GAMES))
def test_no_game_script_carries_its_own_step_player(game: str) -> None:
    page = game_spec(game).drawn("--html").replay
    script = "\n".join(map(page.text, page.scripts))
    assert [word for word in STEPPING if word in script] == []
    assert script.count("stepper(") == 1
    shared = pages._asset("stepper.js")
    assert all(word in shared for word in STEPPING)  # the words name what the player does


def _write(game: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
           capsys: pytest.CaptureFixture[str]) -> Path:
    page = tmp_path / f"{game}.html"
    monkeypatch.chdir(tmp_path)
    code, _, err = run_cli([*GAMES[game], "--html", str(page)], monkeypatch, capsys)
    assert code == 0, err
    assert page.read_text().count("function stepper(") == 1
    return page


@pytest.mark.parametrize("game", sorted(GAMES))
def test_each_page_steps_through_the_shared_script(
        browser: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str], game: str) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    def step() -> int:
        return int(browser.find_element(By.ID, "step-label").get_attribute("data-step"))

    page = _write(game, tmp_path, monkeypatch, capsys)
    open_page(browser, page)
    body = browser.find_element(By.TAG_NAME, "body")
    assert step() == 0 and body.get_attribute("data-stepper") == "shared"
    browser.find_element(By.ID, "next").click()
    assert step() == 1
    body.send_keys(Keys.END)
    last = int(browser.find_element(By.ID, "slider").get_attribute("max"))
    assert step() == last > 1 and browser.find_element(By.ID, "next").get_attribute("disabled")
    body.send_keys(Keys.HOME)
    assert step() == 0
    # the address follows the step once the steps settle, and stepping fast (300 keys at
    # once) is not throttled by the browser for rewriting the address at every step
    from selenium.webdriver.support.ui import WebDriverWait

    WebDriverWait(browser, 5).until(lambda d: d.execute_script("return location.hash") == "#step=1")
    browser.execute_script("""for (let k = 0; k < 300; k++) document.dispatchEvent(
        new KeyboardEvent("keydown", {key: k % 2 ? "ArrowLeft" : "ArrowRight"}));""")
    WebDriverWait(browser, 5).until(lambda d: d.execute_script("return location.hash") == "#step=1")
    assert not [e for e in browser.get_log("browser") if e["level"] in ("SEVERE", "WARNING")]
    # a shared player whose "next" jumps two steps: every page must jump two, or it has its own
    real = pages._asset

    def jumping(name: str) -> str:
        text = real(name)
        return text.replace("go(at + 1));", "go(at + 2));") if name == "stepper.js" else text

    monkeypatch.setattr(pages, "_asset", jumping)
    page = _write(game, tmp_path, monkeypatch, capsys)
    open_page(browser, page)
    browser.find_element(By.ID, "next").click()
    assert step() == 2
