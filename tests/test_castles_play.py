"""``cdsim play --game castles``: one game of The Castles of Tuscany on the core, its final
table, its decisions in words (``--trace``), ``--json``, its replay page (``--html``,
checked in a real browser as tests/test_replay.py checks Carpe Diem's), the same game a
run deals from the same seed and setup, and every bad input one line and exit 2."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from cdsim import core
from cdsim.games import game_spec
from cdsim.games.castles.view import WORDS, replay_data
from cdsim.games.recorded import play_recorded
from tests.commands import run_cli
from tests.test_replay import browser, embedded, open_page

pytestmark = pytest.mark.skipif(not core.available(), reason="needs the compiled core")
__all__ = ["browser"]  # the fixture, shared with tests/test_replay.py

LINEUP = "greedy,random,castle-monastery,animal-farms"
TABLE = re.compile(r"^\s+(\d) (\S+)\s+((?:-?\d+\s+)+)(-?\d+)\s+(\d)(  winner)?$")


def play(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
         *extra: str) -> tuple[int, str, str]:
    return run_cli(["play", "--game", "castles", "--players", "4", "--strategies", LINEUP,
                  "--seed", "1", *extra], monkeypatch, capsys)


def table(out: str) -> dict[int, tuple[str, list[int], int, int, bool]]:
    """The final table's rows by seat: player, VP by source, final VP, rank, winner."""
    rows = {}
    for line in out.splitlines():
        m = TABLE.match(line)
        if m:
            rows[int(m[1])] = (m[2], [int(v) for v in m[3].split()], int(m[4]), int(m[5]),
                               bool(m[6]))
    return rows


def test_the_final_table_is_the_game_a_run_deals_from_that_seed_and_setup(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = play(monkeypatch, capsys, "--setup", "2")
    assert code == 0, err
    rows = table(out)
    assert sorted(rows) == [1, 2, 3, 4]
    assert [rows[s][0] for s in (1, 2, 3, 4)] == LINEUP.split(",")
    assert sum(r[4] for r in rows.values()) == 1  # one winner
    assert sorted(r[3] for r in rows.values()) == [1, 2, 3, 4]
    for _, parts, final, _, _ in rows.values():
        assert sum(parts) == final  # the breakdown by source sums to the final VP
    # the same deal as game 2 of a run with this seed (`cdsim simulate --game castles`)
    spec = game_spec("castles")
    module = core.module()
    assert module is not None
    names = LINEUP.split(",")
    chunk = module.play_chunk(spec.load_components(None), 4, [0] * 4, 1,
                              np.array([2]), np.array([2]), np.arange(4, dtype=np.uint8),
                              [(n, []) for n in names])
    assert [rows[s][2] for s in (1, 2, 3, 4)] == chunk["final_vp"].tolist()
    # the same seed plays the same game; another seed another
    assert play(monkeypatch, capsys, "--setup", "2")[1] == out
    assert table(play(monkeypatch, capsys, "--setup", "3")[1]) != rows


def test_two_mcts_seats_end_the_game_that_once_never_ended() -> None:
    """Before T4.2's decision (docs/rules-castles.md) a draw from two empty piles was an
    option, and in this game both searches drew nothing forever. In a child process, so
    a stall fails the test instead of hanging the suite."""
    args = ["play", "--game", "castles", "--players", "2", "--strategies", "mcts,mcts",
            "--seed", "0", "--setup", "5"]
    try:
        done = subprocess.run([sys.executable, "-m", "cdsim", *args], capture_output=True,
                              text=True, timeout=300, check=False)
    except subprocess.TimeoutExpired:
        pytest.fail("the game did not end within 300 s")
    assert done.returncode == 0, done.stderr
    rows = table(done.stdout)
    assert sorted(r[3] for r in rows.values()) == [1, 2]


def test_json_and_trace_say_the_same_game(monkeypatch: pytest.MonkeyPatch,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = play(monkeypatch, capsys, "--json")
    assert code == 0, err
    game = json.loads(out)
    assert game["game"] == "castles" and game["players"] == 4 and game["setup"] is None
    code, text, err = play(monkeypatch, capsys, "--trace")
    assert code == 0, err
    rows = table(text)
    assert {s["seat"]: s["final_vp"] for s in game["seats"]} == {k: r[2] for k, r in rows.items()}
    assert [list(s["breakdown"].values()) for s in game["seats"]] == [rows[k][1] for k in (1, 2, 3, 4)]
    steps = [line for line in text.splitlines() if re.match(r"^\s*\d+ phase \d seat \d ", line)]
    recorded = play_recorded(game_spec("castles"), None, 1, None,
                             [(n, ()) for n in LINEUP.split(",")], [0] * 4)
    assert len(steps) == len(recorded.decisions) > 100
    assert "lays the territory pieces" in steps[0] and "seat 1 (greedy)" in steps[0]
    assert any("places a" in line and "from storage" in line for line in steps)
    assert any(line.endswith("pays a" + line.split("pays a", 1)[-1]) for line in steps
               if "pays" in line)


def test_start_vp_are_added_to_the_final_vp(monkeypatch: pytest.MonkeyPatch,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    plain = table(play(monkeypatch, capsys)[1])
    code, out, err = play(monkeypatch, capsys, "--start-vp", "0,1,2,30")
    assert code == 0, err
    given = table(out)
    assert [given[s][2] - plain[s][2] for s in (1, 2, 3, 4)] == [0, 1, 2, 30]
    assert given[4][4]  # 30 VP ahead wins


def test_the_replay_data_rebuilds_every_frame() -> None:
    spec = game_spec("castles")
    game = play_recorded(spec, None, 5, 1, [("greedy", ()), ("random", ())], [0, 0])
    data = replay_data(game, spec.title, "ab" * 32, True, spec.breakdown())
    frames = [d.frame for d in game.decisions] + [game.end]
    assert len(data["steps"]) == len(frames)  # type: ignore[arg-type]
    state: dict[str, Any] = {"seats": []}
    for step, frame in zip(data["steps"], frames, strict=True):  # type: ignore[call-overload]
        d = step["d"]
        seats = list(state["seats"])
        for seat, changed in d.get("seats", {}).items():
            while len(seats) <= int(seat):
                seats.append({})
            seats[int(seat)] = seats[int(seat)] | changed
        state = state | d | {"seats": seats}
        assert state == frame
    assert data["steps"][-1]["k"] == "final"  # type: ignore[index]
    # a step keeps only what changed: far smaller than the frames
    assert len(json.dumps(data)) * 4 < len(json.dumps(frames))


BAD = [
    (["--game", "castle"], "--game: unknown game 'castle'", "did you mean 'castles'"),
    (["--game", "castles", "--players", "5"], "--players: castles is played by 2, 3, 4", ""),
    (["--game", "castles", "--strategies", "villa"], "--strategies: 'villa' is not a castles "
     "player", "castle-monastery"),
    (["--game", "castles", "--strategies", "greedy,random,greedy"], "--strategies names 3 "
     "players for 4 seats", ""),
    (["--game", "castles", "--strategies", "greedy,,random,greedy"], "--strategies names an "
     "empty strategy", ""),
    (["--game", "castles", "--strategy-params", "villa.chimney=1"], "--strategy-params: "
     "castles is played by its built-in players", ""),
    (["--game", "castles", "--decision-timeout", "5"], "--decision-timeout: castles", ""),
    (["--game", "castles", "--start-vp", "1,2"], "--start-vp needs 4 values", ""),
    (["--game", "castles", "--seed", "-1"], "--seed and --setup must be between", ""),
]


@pytest.mark.parametrize(("args", "says", "also"), BAD)
def test_bad_input_is_one_line(monkeypatch: pytest.MonkeyPatch,
                               capsys: pytest.CaptureFixture[str], args: list[str], says: str,
                               also: str) -> None:
    code, out, err = run_cli(["play", "--players", "4", *args], monkeypatch, capsys)
    assert code == 2 and not out
    assert err.startswith("cdsim: error: ") and err.count("\n") == 1, err
    assert says in err and also in err


def test_a_time_limit_set_for_python_strategies_is_no_flag_given_to_castles(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("CDSIM_DECISION_TIMEOUT", "5")
    code, out, err = play(monkeypatch, capsys)
    assert code == 0, err
    assert table(out)


@pytest.mark.parametrize(("text", "says"), [
    ("{", "not a castles component file"),
    ("[1]", "a castles component file is a JSON object"),
    ('{"tilez": []}', "unknown key 'tilez'"),
    ('{"pieces": []}', "castles"),
])
def test_a_broken_component_file_is_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                             capsys: pytest.CaptureFixture[str], text: str,
                                             says: str) -> None:
    path = tmp_path / "castles.json"
    path.write_text(text)
    code, out, err = play(monkeypatch, capsys, "--components", str(path))
    assert code == 2 and not out
    assert err.startswith(f"cdsim: error: {path}") and err.count("\n") == 1, err
    assert says in err


def test_a_component_file_that_plays_is_named_on_the_page(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    module = core.module()
    assert module is not None
    base = json.loads(module.builtin_components("castles"))
    path = tmp_path / "castles.json"
    path.write_text(json.dumps({"pieces": base["pieces"]}))  # the built-in values, restated
    page = tmp_path / "g.html"
    code, out, err = play(monkeypatch, capsys, "--components", str(path), "--html", str(page))
    assert code == 0, err
    data = embedded(page.read_text())
    assert data["components"]["digest"] == game_spec("castles").components_digest(str(path))[0][:12]
    assert data["components"]["default"] is False
    assert table(out) == table(play(monkeypatch, capsys)[1])  # the same set plays the same game


def test_carpe_diem_is_the_default_game(monkeypatch: pytest.MonkeyPatch,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    args = ["play", "--players", "2", "--seed", "3", "--strategies", "greedy"]
    code, out, err = run_cli(args, monkeypatch, capsys)
    assert code == 0, err
    assert run_cli([*args, "--game", "carpe-diem"], monkeypatch, capsys) == (0, out, err)
    assert "seat strategy      start cards villas" in out


# -- in a browser ---------------------------------------------------------------------------
SHOWN = """
const seats = [...document.querySelectorAll("#players .player")];
return {
  step: Number(document.getElementById("step-label").dataset.step),
  trace: document.getElementById("trace").textContent,
  covered: seats.map((p) => p.querySelectorAll("svg.board g.space.covered").length),
  spaces: seats.map((p) => p.querySelectorAll("svg.board g.space").length),
  red: seats.map((p) => Number(p.dataset.red)),
  display: document.querySelectorAll("#market .display svg.tile").length,
};
"""


def test_the_castles_replay_in_the_browser(browser: Any, tmp_path: Path,
                                           monkeypatch: pytest.MonkeyPatch,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    page = tmp_path / "castles.html"
    code, out, err = play(monkeypatch, capsys, "--html", str(page))
    assert code == 0, err
    assert "replay: " in out
    final = {seat: row[2] for seat, row in table(out).items()}
    data = embedded(page.read_text())
    browser.set_window_size(1600, 1000)
    open_page(browser, page)
    shown = browser.execute_script(SHOWN)
    assert shown["step"] == 0 and "seat 1 lays the territory pieces" in shown["trace"]
    assert shown["spaces"] == [0, 0, 0, 0]  # no board is laid before the first decision
    body = browser.find_element(By.TAG_NAME, "body")
    # every step in turn: its words, the boards and the red VP of the state it was taken in
    count = {s: 0 for s in range(4)}
    for i, step in enumerate(data["steps"][:-1]):
        shown = browser.execute_script(SHOWN)
        assert shown["step"] == i and step["t"] in shown["trace"]
        for seat, changed in step["d"].get("seats", {}).items():
            if "filled" in changed:
                count[int(seat)] = bin(changed["filled"]).count("1")
        assert shown["covered"] == [count[s] for s in range(4)]
        body.send_keys(Keys.ARROW_RIGHT)
    assert not [e for e in browser.get_log("browser") if e["level"] in ("SEVERE", "WARNING")]
    body.send_keys(Keys.HOME)
    assert browser.execute_script(SHOWN)["step"] == 0
    body.send_keys(Keys.END)
    shown = browser.execute_script(SHOWN)
    assert shown["step"] == len(data["steps"]) - 1 and "final scoring" in shown["trace"]
    assert all(n == 30 for n in shown["spaces"])
    rows = browser.find_elements(By.CSS_SELECTOR, "#final tbody tr")
    assert {int(r.get_attribute("data-seat")): int(r.get_attribute("data-final"))
            for r in rows} == final
    # the sources in words (the code name on hover), never colour_bonus or storage_token
    heads = browser.find_elements(By.CSS_SELECTOR, "#final thead th")
    assert [h.text for h in heads][2:-2] == [WORDS[k] for k in data["breakdown"]]
    assert [h.get_attribute("title") for h in heads][2:-2] == data["breakdown"]
    assert "_" not in " ".join(h.text for h in heads)
    for row, (seat, want) in zip(rows, sorted(table(out).items()), strict=True):
        parts = [int(c.text) for c in row.find_elements(By.CSS_SELECTOR, "td[data-part]")]
        assert (seat, parts) == (int(row.get_attribute("data-seat")), want[1])
    browser.find_element(By.ID, "prev").click()
    assert browser.execute_script(SHOWN)["step"] == len(data["steps"]) - 2
    assert not browser.find_elements(By.CSS_SELECTOR, "#final")
    assert not [e for e in browser.get_log("browser") if e["level"] in ("SEVERE", "WARNING")]


def test_the_final_table_heads_its_columns_in_whole_words(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """Audit of issue 60: no abbreviated heads (``harv-g``, ``store``, ``left``): each VP
    source in one or two lines of whole words, every source of the breakdown headed."""
    code, out, err = play(monkeypatch, capsys)
    assert code == 0, err
    lines = out.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("seat strategy"))
    heads = f"{lines[at - 1]} {lines[at]}".split()
    for short in ("harv-g", "harv-r", "store", "left", "colour", "spare"):
        assert short not in lines[at].split(), lines[at]
    assert {"harvest", "green", "red", "storage", "tokens", "leftovers", "bonuses"} <= set(heads)
    assert not [h for h in heads if "-" in h or "_" in h], heads
    assert len(table(out)) == 4  # the rows as before
