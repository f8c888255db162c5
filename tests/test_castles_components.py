"""The Castles of Tuscany's component set on the command line: ``components check`` and
``components show --game castles`` (its tables with each entry's provenance, the territory
pieces drawn, an override's changes marked; in a real browser), bad input one line."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from cdsim import core
from cdsim.games import castles
from tests import test_replay
from tests.test_replay import browser, cdsim

pytestmark = pytest.mark.skipif(not core.available(), reason="needs the compiled core")
__all__ = ["browser"]  # the fixture, used by name


def override(tmp_path: Path) -> Path:
    bonus = json.loads(castles.components_text(None))["colour_bonus"]
    for entry in bonus:
        if entry["colour"] == "castle":
            entry["first"] = 9
    path = tmp_path / "c.json"
    path.write_text(json.dumps({"colour_bonus": bonus}))
    return path


def test_check_says_what_the_set_holds_and_changes(tmp_path: Path) -> None:
    out = cdsim("components", "check", "--game", "castles", str(override(tmp_path)))
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("ok: 8 tables") and "reconstructed" in out.stdout
    assert "changes from the built-in set: colour_bonus" in out.stdout


def test_the_castles_sheet_draws_the_pieces_and_marks_a_change(browser: Any,
                                                               tmp_path: Path) -> None:
    from selenium.webdriver.common.by import By

    page = tmp_path / "c.html"
    out = cdsim("components", "show", "--game", "castles", "--components",
                str(override(tmp_path)), "--html", str(page))
    assert out.returncode == 0, out.stderr
    test_replay.open_page(browser, page)
    changed = browser.find_elements(By.CSS_SELECTOR, "tr.changed")
    assert len(changed) == 1 and changed[0].text.startswith("castle 9 2")
    assert changed[0].get_attribute("title") == "was: first=4"
    pieces = browser.find_elements(By.CSS_SELECTOR, ".piece")
    builtin = json.loads(castles.components_text(None))
    assert [p.get_attribute("data-piece") for p in pieces] == [
        e["name"] for e in builtin["pieces"]]
    assert all(len(p.find_elements(By.CSS_SELECTOR, "polygon")) == 10 for p in pieces)
    tags = browser.find_elements(By.CSS_SELECTOR, "td .tag.reconstructed")
    assert tags and all(t.is_displayed() for t in tags)
    plain = tmp_path / "plain.html"
    assert cdsim("components", "show", "--game", "castles", "--html", str(plain)).returncode == 0
    test_replay.open_page(browser, plain)
    assert not browser.find_elements(By.CSS_SELECTOR, "tr.changed")


@pytest.mark.parametrize(("args", "said"), [
    (["check", "--game", "castle", "x.json"], "--game: unknown game 'castle'"),
    (["check", "--game", "castles", "missing.json"], "missing.json: not a castles component file"),
])
def test_bad_component_input_for_castles_is_one_line(args: list[str], said: str,
                                                     tmp_path: Path) -> None:
    out = cdsim("components", *args)
    assert out.returncode == 2 and said in out.stderr and out.stderr.count("\n") == 1, out.stderr


# The built-in set's digest: runs, studies and the fitted weights record it
# (strategies/weights/castles-learned.json), so the set read from core/src/castles/builtin.json
# is the one the code held before, byte for byte.
BUILTIN_DIGEST = "5e898aca7fa597d99d80f50198b47f01bdbb5dba6afd500dc1df8c77717809e3"


def test_the_builtin_set_is_the_recorded_one() -> None:
    assert castles.components_digest(None) == (BUILTIN_DIGEST, True)
    assert "provenance" not in castles.components_text(None)  # the file's notes stay there
