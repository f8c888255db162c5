"""study.html in headless chromium: each seat's fair offset is in the answer box as a reader
sees it ("seat 2 needs +0.4 VP (0.0 to +0.8)") and its chart is drawn (a loaded image of
real size, captioned)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from tests.test_replay import browser  # noqa: F401  (the headless chromium fixture)
from tests.test_skill import two_population_study


def test_study_page_shows_each_seats_fair_offset(browser: Any, tmp_path: Path) -> None:  # noqa: F811
    from selenium.webdriver.common.by import By

    root = two_population_study(tmp_path)
    data = json.loads((root / "study.json").read_text())
    scripted = data["verdicts"]["2"]["scripted"]
    offset = scripted["fair_offset"]["2"]
    low, high = scripted["fair_offset_interval"]["2"]
    browser.set_window_size(1400, 1000)
    browser.get((root / "study.html").as_uri())
    answers = browser.find_element(By.CSS_SELECTOR, ".answers").text
    said = f"seat 2 needs {offset:+.1f} VP ({low:+.1f} to {high:+.1f})"
    assert said in answers, answers
    img = browser.find_element(By.CSS_SELECTOR, "figure#fair_offsets_2p img")
    size = browser.execute_script("return [arguments[0].complete, arguments[0].naturalWidth, "
                                  "arguments[0].getBoundingClientRect().width]", img)
    assert size[0] and size[1] > 400 and size[2] > 300
    caption = browser.find_element(By.CSS_SELECTOR, "figure#fair_offsets_2p figcaption").text
    assert re.match(r"2 players: each population's fair offset per seat", caption)
    # how far the answer rests on the box, in one line (issue 61 item 8)
    box = data["box_entries"]
    assert (box["box"], box["total"]) == (13, 168)
    body = browser.find_element(By.TAG_NAME, "body").text
    assert "Components: 13 of 168 entries are the box's; the rest reconstructed" in body
