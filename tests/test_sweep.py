"""A study's [[sweep]]: B05's reward over a few values, each value a variant on the base's
deals; study.json's rows and the sentence, the chart (in headless chromium), a value that
changes nothing, a value added on --resume, and bad sweeps (one line, exit 2)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from cdsim.batch.folder import RunFolder
from cdsim.errors import CdsimError
from cdsim.study import play
from cdsim.study.file import write_template
from cdsim.study.model import load_study
from reports.study import write
from tests.commands import run_main
from tests.test_replay import browser  # noqa: F401  (the headless chromium fixture)

# 2 players, two scripted players in both seat orders (a deal is 2 games): a first stage of
# 30 deals, a wide tolerance so that the cells decide at once.
TINY = """\
name = "sweep"
seed = 11
games = 240
chunk_size = 60
players = [2]
tolerance = 0.3
[[population]]
name = "pair"
lineup = ["greedy", "bread"]
[[sweep]]
name = "B05-reward"
entry = "objective.B05"
key = "reward.vp"
values = [VALUES]
"""
VALUES = [6, 8, 12]  # 8: B05's shipped reward, a value that changes nothing


def sweep_file(folder: Path, values: list[int], text: str = TINY) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "sweep.toml"
    path.write_text(text.replace("VALUES", ", ".join(map(str, values))))
    return path


@pytest.fixture(scope="module")
def swept(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any]]:
    """The tiny sweep study, played and reported: its folder and study.json."""
    folder = tmp_path_factory.mktemp("sweep")
    root = folder / "out"
    play.run(load_study(sweep_file(folder, VALUES)), root, jobs=1)
    write(root)
    return root, json.loads((root / "study.json").read_text())


def test_a_sweep_gives_one_row_per_value_and_its_chart(swept: tuple[Path, dict[str, Any]]
                                                       ) -> None:
    root, data = swept
    (sweep,) = data["sweeps"]
    assert (sweep["entry"], sweep["key"], sweep["base_value"]) == ("objective.B05", "reward.vp", 8)
    assert [r["value"] for r in sweep["rows"]] == VALUES
    assert [r["variant"] for r in sweep["rows"]] == [f"B05-reward={v}" for v in VALUES]
    for row in sweep["rows"]:
        assert list(row["fair_offset"]) == ["1", "2"] and row["fair_offset"]["1"] == 0.0
        assert list(row["difference"]) == ["1", "2"] and row["paired_games"] == row["games"]
        # the sentence's test, on the interval itself: seat 2's offset at 8/9 is +1
        low, high = row["fair_offset_interval"]["2"]
        covers = low is not None and high is not None and low <= 1 <= high
        assert row["start_vp_offset"] == {"1": 0, "2": 1}
        assert row["fair_at_start_vp"] is covers
    (said,) = sweep["fair"]
    good = [r["value"] for r in sweep["rows"] if r["fair_at_start_vp"]]
    assert said["values"] == good
    assert (("reward.vp = " + ", ".join(map(str, good))) in said["sentence"] if good
            else "none of the values tried" in said["sentence"])
    png = root / "charts" / "sweep_B05-reward_2p_pair.png"
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and png.stat().st_size > 5000
    md = (root / "study.md").read_text()
    body = md.split("## Sweeps")[1].split("## How this was computed")[0]
    assert said["sentence"] in body and "charts/sweep_B05-reward_2p_pair.png" in body
    # two tables (fair offsets; changes against the base and the card), a row per value
    labels = ["| base (8)", *(f"| {v}" for v in VALUES)]
    assert [line.split(" | ")[0] for line in body.splitlines() if line.startswith("| ")] \
        == ["| reward.vp", *labels] * 2  # each after its header


def test_the_values_play_the_base_cells_deals(swept: tuple[Path, dict[str, Any]]) -> None:
    root, data = swept
    cells = {c["key"]: c for c in data["cells"]}
    base = cells["2p.pair"]

    def seeds(cell: dict[str, Any]) -> list[int]:
        return [RunFolder(root / run).read().config.seed
                for stage in cell["stages"] for run in stage["runs"]]

    for value in VALUES:
        cell = cells[f"2p.pair.B05-reward={value}"]
        assert seeds(cell) == seeds(base) and len(cell["stages"]) == len(base["stages"])
        config = RunFolder(root / cell["stages"][0]["runs"][0]).read().config
        written = root / "sweeps" / f"B05-reward={value}.toml"
        assert config.components == str(written.resolve())
        assert f"reward = {{ vp = {value} }}" in written.read_text()


def test_a_value_that_changes_nothing_gives_the_base_rows(swept: tuple[Path, dict[str, Any]]
                                                         ) -> None:
    root, data = swept
    (sweep,) = data["sweeps"]
    (base,) = sweep["base_rows"]
    rows = {r["value"]: r for r in sweep["rows"]}
    same = rows[8]
    for key in ("games", "fair_offset", "fair_offset_interval", "fair_at_start_vp"):
        assert same[key] == base[key], key
    assert same["difference"] == {"1": 0.0, "2": 0.0}
    # no deal changed: within the share of deals changed can reach, never [0, 0] (issue 62)
    assert all(low == -high and 0 < high < 0.05
               for low, high in same["difference_interval"].values())
    cells = {c["key"]: c for c in data["cells"]}
    runs = [r for s in cells["2p.pair.B05-reward=8"]["stages"] for r in s["runs"]]
    base_runs = [r for s in cells["2p.pair"]["stages"] for r in s["runs"]]
    assert [RunFolder(root / r).digest() for r in runs] == \
        [RunFolder(root / r).digest() for r in base_runs]
    # B05 at 12 VP is another game: some run's rows differ from the base's
    other = [r for s in cells["2p.pair.B05-reward=12"]["stages"] for r in s["runs"]]
    assert [RunFolder(root / r).digest() for r in other] != \
        [RunFolder(root / r).digest() for r in base_runs]


def test_the_page_tells_what_the_sweep_played(swept: tuple[Path, dict[str, Any]]) -> None:
    """A sweep page said "variants: none", and its fair-offset chart had no point at the
    base's value when no value tried was the base's, though its table had that row."""
    from dataclasses import replace

    from reports.study import analyse
    from reports.study.sweep import chart_points

    root, _ = swept
    md = (root / "study.md").read_text()
    assert ("| variants | **B05-reward=6**, **B05-reward=8**, **B05-reward=12** (the values "
            "of sweep B05-reward) |") in md
    (group,) = analyse(root).sweeps
    assert [v for v, _ in chart_points(group)] == VALUES  # 8: a value tried, drawn once
    without = replace(group, values=tuple((v, c) for v, c in group.values if v != 8))
    points = chart_points(without)
    assert [v for v, _ in points] == VALUES and points[1][1] is group.base


def test_a_value_added_on_resume_plays_only_its_cells(tmp_path: Path) -> None:
    root = tmp_path / "out"
    play.run(load_study(sweep_file(tmp_path, [6, 8])), root, jobs=1)
    before = {p: p.stat().st_mtime_ns for p in (root / "cells").rglob("*.parquet")}
    assert before
    manifest = play.run(load_study(sweep_file(tmp_path, [6, 8, 9])), root, jobs=1,
                      resume=True)
    assert {p: p.stat().st_mtime_ns for p in before} == before  # nothing replayed
    keys = [c.key for c in manifest.cells]
    assert "2p.pair.B05-reward=9" in keys and len(keys) == 4
    new = {p for p in (root / "cells").rglob("*.parquet")} - set(before)
    assert new and all("B05-reward=9" in str(p) for p in new)
    # another key is another sweep: refused, naming it
    with pytest.raises(CdsimError, match=r"sweep 'B05-reward': its key differs"):
        play.run(load_study(sweep_file(tmp_path, [6, 8], TINY.replace(
            'key = "reward.vp"', 'key = "requires.fish"'))), root, jobs=1,
            resume=True)


BAD = [
    (('entry = "objective.B99"', 'entry = "objective.B05"'),
     "sweep 'B05-reward': entry 'objective.B99': the base has no objective card 'B99'"),
    (('entry = "objective.B5"', 'entry = "objective.B05"'),  # not B15: same id, no zero
     "sweep 'B05-reward': entry 'objective.B5': the base has no objective card 'B5' (did you "
     "mean 'B05'?)"),
    (('entry = "objective.b05"', 'entry = "objective.B05"'),  # not D05: same id, lower case
     "sweep 'B05-reward': entry 'objective.b05': the base has no objective card 'b05' (did "
     "you mean 'B05'?)"),
    (('entry = "objectif.B05"', 'entry = "objective.B05"'),
     "sweep 'B05-reward': entry 'objectif.B05': unknown table 'objectif' (did you mean "
     "'objective'?"),
    (('key = "reward.pv"', 'key = "reward.vp"'),
     "sweep 'B05-reward': key 'reward.pv': reward has no 'pv' (it has: vp)"),
    (('key = "deck"', 'key = "reward.vp"'),
     "sweep 'B05-reward': key 'deck' holds 'B' in the base, not an integer"),
    (("values = []", "values = [VALUES]"), "sweep 'B05-reward': values must have at least 1 "
     "entry, got 0"),
    (('values = [6, "7"]', "values = [VALUES]"),
     "sweep 'B05-reward': values.1 must be an integer, got '7'"),
    (("values = [6, 7.5]", "values = [VALUES]"),
     "sweep 'B05-reward': values.1 must be an integer, got 7.5"),
    (("values = [6, 7, 6]", "values = [VALUES]"), "sweep 'B05-reward': values: lists 6 twice"),
    (("values = [-3]", "values = [VALUES]"),
     "sweep 'B05-reward': reward.vp = -3: objective card 'B05': reward.vp must be between 0"),
]


@pytest.mark.parametrize(("change", "expect"), BAD)
def test_a_bad_sweep_is_one_line_and_exit_2(
        change: tuple[str, str], expect: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    new, old = change
    path = sweep_file(tmp_path, VALUES, TINY.replace(old, new))
    code, err = run_main(["study", "run", str(path), "--out", str(tmp_path / "out")],
                          monkeypatch, capsys)
    assert code == 2, err
    assert err.startswith("cdsim: error: ") and err.count("\n") == 1, err
    assert f"{path}: {expect}" in err, err
    assert not (tmp_path / "out").exists()  # nothing ran


def test_study_init_shows_a_commented_sweep(tmp_path: Path) -> None:
    write_template(tmp_path / "mine.toml")
    text = (tmp_path / "mine.toml").read_text()
    block = text[text.index("# [[sweep]]"):].split("\n\n")[0]
    (tmp_path / "on.toml").write_text(text.replace(block, re.sub(r"(?m)^# ", "", block)))
    spec = load_study(tmp_path / "on.toml")  # uncommented, it is a valid sweep
    assert [v.name for v in spec.variants] == [f"B05-reward={v}" for v in (6, 7, 8, 9)]


def test_the_sweep_chart_is_drawn_in_a_browser(
        browser: Any, swept: tuple[Path, dict[str, Any]]) -> None:  # noqa: F811
    from selenium.webdriver.common.by import By

    root, data = swept
    browser.set_window_size(1400, 1000)
    browser.get((root / "study.html").as_uri())
    img = browser.find_element(By.CSS_SELECTOR, 'figure[id="sweep_B05-reward_2p_pair"] img')
    browser.execute_script("arguments[0].scrollIntoView()", img)
    size = browser.execute_script("return [arguments[0].complete, arguments[0].naturalWidth, "
                                  "arguments[0].getBoundingClientRect().width]", img)
    assert size[0] and size[1] > 400 and size[2] > 300
    assert img.is_displayed()
    caption = browser.find_element(By.CSS_SELECTOR,
                                   'figure[id="sweep_B05-reward_2p_pair"] figcaption').text
    assert caption.startswith("2 players, pair: each seat's fair offset over seat 1")
    body = browser.find_element(By.TAG_NAME, "body").text
    assert data["sweeps"][0]["fair"][0]["sentence"] in body


def test_no_table_is_wider_than_the_page(browser: Any, tmp_path: Path) -> None:  # noqa: F811
    """At 4 players the per-value table (offsets, changes, the card's figures) was 1,700
    px wide on a 1,400 px page: every table of a sweep's page fits the window."""
    text = (TINY.replace("players = [2]", "players = [4]\nradius = 2")
            .replace('["greedy", "bread"]', '["greedy", "villa", "landscape", "bread"]')
            .replace("games = 240", "games = 1200").replace("chunk_size = 60", "chunk_size = 600"))
    root = tmp_path / "out"
    play.run(load_study(sweep_file(tmp_path, [6, 10], text)), root, jobs=1)
    write(root)
    browser.set_window_size(1400, 1000)
    browser.get((root / "study.html").as_uri())
    width = browser.execute_script("return window.innerWidth")
    tables = browser.execute_script(
        "return Array.from(document.querySelectorAll('table')).map(t => "
        "[t.rows[0].cells.length, t.getBoundingClientRect().right, t.scrollWidth])")
    assert max(cols for cols, _, _ in tables) >= 6  # the sweep's tables are there
    assert all(right <= width and scroll <= width for _, right, scroll in tables), tables
    boxes = browser.execute_script("return Array.from(document.querySelectorAll('.wide'))"
                                   ".map(w => [w.scrollWidth, w.clientWidth])")
    assert boxes and all(scroll <= client for scroll, client in boxes), boxes
