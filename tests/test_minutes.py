"""A time budget and a report at any moment (issue 52, item 1): ``--minutes`` stops a study
or a whatif at a chunk boundary, the finished stages judged; a stopped or interrupted folder
reports (provisional, with the resume command that works); ``--resume`` plays a raised
``--games`` to the game; progress counts the games already played; Ctrl-C stops promptly;
time estimates at this run's measured rate, saying which.

A time budget is simulated by a clock that runs out after so many games (no test waits
for a real minute), an interrupt by a stop raised after so many games."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from cdsim.batch import cost
from cdsim.study.clock import Clock, TimeUp
from cdsim.study.manifest import PlayRate
from cdsim.study.store import STUDY_MANIFEST
from tests.commands import run_cli, run_main
from tests.conftest import core_or_skip
from tests.test_replay import browser  # noqa: F401  (the headless chromium fixture)

ROOT = Path(__file__).resolve().parents[1]

# Strong play at 2 players: one game a deal, chunks of 2,000 games, so each stage of each
# side is one chunk: a first stage of 30 games, then 50 a look up to the 600 of the budget
# (stages 30, 50 x 11, 20).
STRONG = ["whatif", "--set", "objective.B05.reward.vp=6", "--players", "2", "--play",
          "strong", "--games", "600"]


def _manifest(root: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((root / STUDY_MANIFEST).read_text())
    return data


def _out_of_time_after(monkeypatch: pytest.MonkeyPatch, games: int) -> None:
    """Every clock with a budget runs out once this run has played ``games``."""
    monkeypatch.setattr(Clock, "expired",
                        lambda self: self.minutes is not None and self.games >= games)


def _interrupt_after(monkeypatch: pytest.MonkeyPatch, games: int) -> None:
    """Ctrl-C once this run has played ``games`` (at a chunk, as a stop may come)."""
    chunk = Clock.chunk

    def stop(self: Clock, key: str, n: int) -> None:
        chunk(self, key, n)
        if self.games >= games:
            raise KeyboardInterrupt
    monkeypatch.setattr(Clock, "chunk", stop)


def test_the_clock_says_what_its_estimates_rest_on() -> None:
    """Before a chunk finishes: the recorded costs over the cores, said so; after, this
    run's wall time playing per recorded ms, said so; a budget runs out at its time."""
    clock = Clock(None, jobs=2)
    assert clock.seconds(1000, 2.0) == pytest.approx(1000 * 2.0 / 1000 / 2)
    assert "recorded costs" in clock.basis() and clock.rate() is None
    clock.per_game_ms = {"2p.strong": 3.0}
    clock.played_seconds = 6.0
    clock.chunk("2p.strong+s0", 1000)  # 3,000 recorded ms played in 6 s: twice the table
    assert clock.seconds(500, 4.0) == pytest.approx(500 * 4.0 * 6.0 / 3000)
    assert "this run's rate" in clock.basis() and "1,000 games" in clock.basis()
    assert clock.rate() == PlayRate(games=1000, weighed_ms=3000.0, seconds=6.0)
    assert not clock.expired() and clock.left() is None
    spent = Clock(1.0, start=time.perf_counter() - 61)
    assert spent.expired()
    with pytest.raises(TimeUp):
        spent.chunk("2p.strong+s0", 10)
    assert cost.duration(spent.seconds(0, 1.0)) == "0 s"


def test_a_whatif_out_of_time_reports_what_it_has_and_resumes_to_the_same_answer(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """Out of time after two looks: it stops there, says so and what more would take, its
    pages and ``study report`` say provisional; the resume command it names finishes it,
    with the comparison an uninterrupted run reaches, and the pages are no longer
    provisional."""
    core_or_skip()
    whole = tmp_path / "whole"
    code, err = run_main([*STRONG, "--out", str(whole), "--quiet"], monkeypatch, capsys)
    assert code == 0, err
    stopped = tmp_path / "stopped"
    _out_of_time_after(monkeypatch, 160)  # stage 0 (30 a side) and stage 1 (50 a side)
    code, said, err = run_cli([*STRONG, "--out", str(stopped), "--quiet", "--minutes", "5"],
                           monkeypatch, capsys)
    assert code == 0, err
    m = _manifest(stopped)
    assert m["stopped"] == "its time budget of 5 min"
    (comparison,) = m["whatif"]["comparisons"]
    assert comparison["games"] == 80  # the looks finished: 30 + 50 a side
    assert [s["games"] for s in m["cells"][0]["stages"]] == [30, 50]
    assert "2p strong: not decided yet" in said and "(80 games a side)" in said
    assert "play stopped (its time budget of 5 min): the pages are provisional" in said
    assert "times at this run's rate here" in said
    assert "**Provisional**: play stopped (its time budget of 5 min)" in (
        stopped / "study.md").read_text()
    code, err = run_main(["study", "report", str(stopped), "-q"], monkeypatch, capsys)
    assert code == 0, err
    again = m["resume"]
    assert again == f"cdsim {' '.join(STRONG)} --out {stopped} --quiet --minutes 5 --resume"
    monkeypatch.undo()
    code, err = run_main(again.split()[1:], monkeypatch, capsys)
    assert code == 0, err
    after = _manifest(stopped)
    assert "stopped" not in after
    assert after["whatif"]["comparisons"] == _manifest(whole)["whatif"]["comparisons"]
    assert "Provisional" not in (stopped / "study.md").read_text()
    assert "provisional" not in json.loads((stopped / "study.json").read_text())


def test_an_interrupted_whatif_reports_and_its_resume_command_works(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """A stop in the middle of a stage (Ctrl-C) is one line and exit 130, naming the
    --resume command; ``study report`` then reads the stages finished (it refused with "no
    cell has finished a stage yet": the whatif recorded its cells only at its end), says
    provisional in the terminal and on the page, and names the same command, which
    continues it (progress counting the games already played)."""
    core_or_skip()
    out = tmp_path / "wi"
    _interrupt_after(monkeypatch, 130)  # after stage 1 is written, before its look
    code, err = run_main([*STRONG, "--out", str(out), "--quiet"], monkeypatch, capsys)
    assert code == 130 and err.count("\n") == 1, err
    command = err.strip().rpartition("continue with ")[2]
    assert command == f"cdsim {' '.join(STRONG)} --out {out} --quiet --resume"
    m = _manifest(out)
    assert m["stopped"] == "interrupted" and m["resume"] == command
    assert [len(c["stages"]) for c in m["cells"]] == [1, 1]  # the look at stage 0
    monkeypatch.undo()
    code, err = run_main(["study", "report", str(out), "-q"], monkeypatch, capsys)
    assert code == 0, err
    page = json.loads((out / "study.json").read_text())
    assert page["provisional"].startswith("play stopped (interrupted)")
    assert page["provisional"].endswith(f"Continue with {command}")
    assert "the 100 games of finished chunks of stages not yet finished are kept" in (
        page["provisional"])  # stage 1, written but not yet looked at
    assert "**Provisional**: play stopped (interrupted)" in (out / "study.md").read_text()
    monkeypatch.setenv("CDSIM_PROGRESS_SECONDS", "0")  # a progress line at every chunk
    args = command.split()[1:]
    args.remove("--quiet")
    code, err = run_main(args, monkeypatch, capsys)
    assert code == 0, err
    first = next(line for line in err.splitlines() if line.startswith("whatif: ") and "/" in line)
    done = int(first.split(": ")[1].split("/")[0])
    assert done > 130, first  # the 130 played before, and the chunk just finished
    assert "stopped" not in _manifest(out)


def test_a_whatif_stopped_before_its_first_look_names_its_own_resume_command(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """Nothing to report yet (stopped in its first stage): one line, exit 2, naming the
    whatif's own --resume command (it named `cdsim study run changes/whatif.toml ...`,
    which plays another schedule)."""
    core_or_skip()
    out = tmp_path / "wi"
    _interrupt_after(monkeypatch, 1)  # the first chunk of stage 0
    code, err = run_main([*STRONG, "--out", str(out), "--quiet"], monkeypatch, capsys)
    assert code == 130, err
    command = err.strip().rpartition("continue with ")[2]
    monkeypatch.undo()
    code, err = run_main(["study", "report", str(out), "-q"], monkeypatch, capsys)
    assert code == 2 and err.count("\n") == 1, err
    assert err.strip().endswith(f"no cell has finished a stage yet; continue with {command}")


def test_a_resumed_whatif_plays_a_raised_budget_to_the_game(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """A strong whatif resumed with --games 1500 stopped at 645 games a side: its stages
    were re-planned for the new budget and the folders of the old ones taken for them. The
    stages begun keep their sizes, the new budget adds stages after them, the design stays
    the one it started with, and it plays exactly the budget."""
    core_or_skip()
    out = tmp_path / "wi"
    small = [a if a != "600" else "300" for a in STRONG]
    code, err = run_main([*small, "--out", str(out), "--quiet"], monkeypatch, capsys)
    assert code == 0, err
    before = _manifest(out)["cells"][0]
    assert sum(s["games"] for s in before["stages"]) == 300
    code, err = run_main([*STRONG, "--out", str(out), "--quiet", "--resume"], monkeypatch,
                         capsys)
    assert code == 0, err
    after = _manifest(out)
    (comparison,) = after["whatif"]["comparisons"]
    assert comparison["games"] == 600 or comparison["outcome"] != "undecided"
    cell = after["cells"][0]
    kept = [s["games"] for s in before["stages"]]
    assert [s["games"] for s in cell["stages"]][:len(kept)] == kept
    assert cell["design_games"] == before["design_games"] == 300
    if comparison["outcome"] == "undecided":
        assert sum(s["games"] for s in cell["stages"]) == 600
    # its intervals are the sequences designed for the 300 games it started with
    from cdsim.analysis import paired
    from cdsim.study.games import stage_games

    base, change = ([stage_games([out / "cells" / r for r in s["runs"]]) for s in c["stages"]]
                    for c in after["cells"])
    expect = paired.compare(paired.deal_differences(base, change, cell["rulebook"]),
                            paired.design_deals(300, 1))
    assert comparison["seats"] == [[s.change, s.low, s.high] for s in expect.seats]


STUDY = """\
name = "timed"
seed = 5
games = 720
first_stage = 90
chunk_size = 45
players = [2]
tolerance = 0.02
[[population]]
name = "random"
lineup = ["random"]
"""


def test_a_study_out_of_time_stops_at_a_chunk_and_resumes_to_the_same_verdicts(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """`study run --minutes` (here the study file's ``minutes``) stops at the chunk where
    the time ran out: the finished stages are judged, the cell still playing says what more
    would take at this run's rate, and the report is provisional; --resume ends where an
    uninterrupted run does."""
    core_or_skip()
    path = tmp_path / "timed.toml"
    path.write_text("minutes = 10\n" + STUDY)
    whole = tmp_path / "whole"
    code, err = run_main(["study", "run", str(path), "--out", str(whole), "-q"], monkeypatch,
                         capsys)
    assert code == 0, err
    stopped = tmp_path / "stopped"
    _out_of_time_after(monkeypatch, 180)  # stage 0 (90) and half of stage 1 (180)
    code, said, err = run_cli(["study", "run", str(path), "--out", str(stopped), "-q"],
                           monkeypatch, capsys)
    assert code == 0, err
    m = _manifest(stopped)
    assert m["stopped"] == "its time budget of 10 min"
    (cell,) = m["cells"]
    assert cell["decision"] is None and [s["games"] for s in cell["stages"]] == [90, 180]
    assert "2p.random (floor): stopped: a --resume plays at most 630 more games to its budget" in said
    assert "play stopped (its time budget of 10 min): the report is provisional" in said
    code, said, err = run_cli(["study", "report", str(stopped), "-q"], monkeypatch, capsys)
    assert code == 0, err
    assert "provisional: play stopped (its time budget of 10 min)" in said
    assert "the 90 games of finished chunks of stages not yet finished are kept" in said
    monkeypatch.undo()
    code, err = run_main(["study", "run", str(path), "--out", str(stopped), "--resume", "-q"],
                         monkeypatch, capsys)
    assert code == 0, err
    done = _manifest(stopped)
    assert "stopped" not in done
    assert done["cells"] == _manifest(whole)["cells"]


@pytest.mark.parametrize("args", [["--minutes", "-1"], ["--minutes", "nan"],
                                  ["--minutes", "1e9"]])
def test_a_bad_time_budget_is_one_line(args: list[str], tmp_path: Path,
                                       monkeypatch: pytest.MonkeyPatch,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "timed.toml"
    path.write_text(STUDY)
    code, err = run_main(["study", "run", str(path), "--out", str(tmp_path / "s"), *args],
                         monkeypatch, capsys)
    assert code == 2 and err.count("\n") == 1 and "--minutes" in err, err
    assert not (tmp_path / "s").exists()
    code, err = run_main([*STRONG, "--out", str(tmp_path / "w"), *args], monkeypatch, capsys)
    assert code == 2 and err.count("\n") == 1 and "--minutes" in err, err
    assert not (tmp_path / "w").exists()
    path.write_text("minutes = -1\n" + STUDY)
    code, err = run_main(["study", "run", str(path), "--out", str(tmp_path / "s")],
                         monkeypatch, capsys)
    assert code == 2 and err.count("\n") == 1 and "minutes" in err, err


def test_a_time_budget_of_0_is_none_for_a_study_as_for_whatif(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """--minutes 0 (or ``minutes = 0``) means no time budget, as whatif's --minutes 0 does,
    even over a study file's own minutes."""
    core_or_skip()
    monkeypatch.setattr(Clock, "left", lambda self: None if self.minutes is None else 0.0)
    path = tmp_path / "timed.toml"
    for i, (head, args) in enumerate([("minutes = 0\n", []),
                                      ("minutes = 10\n", ["--minutes", "0"])]):
        path.write_text(head + STUDY)
        out = tmp_path / f"s{i}"
        code, err = run_main(["study", "run", str(path), "--out", str(out), "-q", *args],
                             monkeypatch, capsys)
        assert code == 0, err
        assert "stopped" not in _manifest(out)  # played to its end: no budget ran out


def test_out_of_time_before_any_stage_finished_is_no_error_for_whatif_as_for_a_study(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """A time budget spent before any stage finished stops both commands alike: exit 0,
    the stop said with its --resume command (a run stopped by its own budget is not a user
    error)."""
    core_or_skip()
    monkeypatch.setattr(Clock, "left", lambda self: None if self.minutes is None else 0.0)
    path = tmp_path / "timed.toml"
    path.write_text("minutes = 1\n" + STUDY)
    code, said, err = run_cli(["study", "run", str(path), "--out", str(tmp_path / "s"), "-q"],
                              monkeypatch, capsys)
    assert code == 0, err
    assert "no chunk finished yet; continue with" in said
    out = tmp_path / "w"
    code, said, err = run_cli(["whatif", "--set", "objective.B05.reward.vp=6", "--players",
                               "2", "--games", "600", "--play", "scripted", "--out", str(out),
                               "--quiet"], monkeypatch, capsys)
    assert code == 0, err
    assert "play stopped (its time budget of 3 min) before any stage finished" in said
    assert said.rstrip().endswith("--resume") and not err
    assert _manifest(out)["stopped"].startswith("its time budget")


def test_the_quick_look_plays_strong_only_if_its_games_fit_the_time_left(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """The default whatif (no --play) plays scripted first and says so in one line; strong
    play only if its games fit in the time left at this run's rate: here no time is left
    once the scripted comparison ends, so strong is not begun, said with its time and how
    to ask for it, and the pages are provisional."""
    core_or_skip()
    monkeypatch.setattr(Clock, "left", lambda self: None if self.minutes is None else 0.001)
    out = tmp_path / "quick"
    code, printed, err = run_cli(["whatif", "--set", "objective.B05.reward.vp=6", "--players",
                               "2", "--games", "600", "--out", str(out), "--quiet"],
                              monkeypatch, capsys)
    assert code == 0, err
    said = printed.splitlines()
    assert said[0].startswith("whatif: the quick look, time budget 3 min (--minutes): "
                              "scripted play first"), said[0]
    assert any(line.startswith("  2p scripted: ") and "games a side" in line for line in said)
    strong = next(line for line in said if line.startswith("  2p strong: "))
    assert "not begun: its 600 games a side take about" in strong
    assert "ask for it with --play strong" in strong
    m = _manifest(out)
    assert m["stopped"] == "its time budget of 3 min; strong play not begun"
    assert {c["play"] for c in m["whatif"]["comparisons"]} == {"scripted"}
    # with no time budget the same question plays both
    both = tmp_path / "both"
    code, err = run_main(["whatif", "--set", "objective.B05.reward.vp=6", "--players", "2",
                          "--games", "600", "--out", str(both), "--quiet", "--minutes", "0"],
                         monkeypatch, capsys)
    assert code == 0, err
    assert {c["play"] for c in _manifest(both)["whatif"]["comparisons"]} == {"scripted",
                                                                               "strong"}
    assert "stopped" not in _manifest(both)


def test_ctrl_c_stops_a_whatif_within_seconds_and_keeps_what_it_played(tmp_path: Path) -> None:
    """A real Ctrl-C (SIGINT) in the middle of a whatif: exit 130 and one line naming the
    --resume command, soon (the chunks being played end before their next game), and what
    it played is reportable."""
    core_or_skip()
    out = tmp_path / "wi"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen(
        [sys.executable, "-m", "cdsim", "whatif", "--set", "objective.B05.reward.vp=6",
         "--play", "strong", "--out", str(out), "--quiet"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=tmp_path,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        deadline = time.monotonic() + 120
        while not (out / "cells").is_dir() or len(list((out / "cells").iterdir())) < 4:
            assert proc.poll() is None and time.monotonic() < deadline, proc.stderr
            time.sleep(0.1)
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=30)  # a guard, not a measurement
    finally:
        proc.kill()
    assert proc.returncode == 130, err
    assert err.count("\n") == 1 and "continue with cdsim whatif" in err, err
    assert _manifest(out)["stopped"] == "interrupted"


def test_a_provisional_page_says_so_in_the_browser(
        browser: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,  # noqa: F811
        capsys: pytest.CaptureFixture[str]) -> None:
    """study.html of a study stopped by its time budget, as a reader sees it: the page
    loads without errors, says provisional above the answer with the command that goes on
    (no Markdown marks), and every table fits a 1400 px page, as other pages are checked."""
    from selenium.webdriver.common.by import By

    from tests.test_page_text import MARKS

    core_or_skip()
    path = tmp_path / "timed.toml"
    path.write_text(STUDY)
    root = tmp_path / "stopped"
    _out_of_time_after(monkeypatch, 180)
    code, _, err = run_cli(["study", "run", str(path), "--out", str(root), "-q", "--minutes", "1"],
                        monkeypatch, capsys)
    assert code == 0, err
    code, _, err = run_cli(["study", "report", str(root), "-q"], monkeypatch, capsys)
    assert code == 0, err
    browser.set_window_size(1400, 1000)
    browser.get((root / "study.html").as_uri())
    assert not [e for e in browser.get_log("browser") if e["level"] == "SEVERE"]
    text = browser.find_element(By.TAG_NAME, "body").text
    said = ("Provisional: play stopped (its time budget of 1 min) before every comparison "
            "and cell was decided")
    assert said in text and f"Continue with cdsim study run {path} --out {root} --resume" in text
    assert text.index("Provisional") < text.index("Headlines")
    assert not MARKS.findall(text)
    widths = browser.execute_script(
        "return Array.from(document.querySelectorAll('table')).map("
        "(t) => t.getBoundingClientRect().right)")
    assert widths and max(widths) <= 1400, widths
