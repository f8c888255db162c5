"""One run, one wall time, one play time and one game count (issue 61 item 2): the terminal,
the page (read in headless chromium) and study.json say the same, written by the same
rule, with the machine and its load when play began and ended; a stop at any moment leaves
the manifest counting every finished chunk, as the folder and the progress count them; the
progress ETA of `study run` and `whatif` never counts past the time budget; the pace an
estimate rests on includes the looks between plays.

No test times anything: the figures are compared with each other, the clock's time is
given."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from cdsim.batch.folder import RunFolder
from cdsim.batch.progress import StudyProgress
from cdsim.study import clock as clock_module
from cdsim.study.clock import Clock
from cdsim.study.machine import machine_words, run_words
from cdsim.study.store import STUDY_MANIFEST
from tests.commands import run_cli
from tests.conftest import core_or_skip
from tests.test_minutes import STUDY, _interrupt_after
from tests.test_replay import browser  # noqa: F401  (the headless chromium fixture)

WHATIF = ["whatif", "--set", "objective.B05.reward.vp=6", "--players", "2", "--play",
          "scripted", "--games", "1200"]
FIGURES = re.compile(r"\(([\d,]+ games, [^()]*? wall, [^()]*? of it playing)[;)]")


def _manifest(root: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((root / STUDY_MANIFEST).read_text())
    return data


def _folder_games(root: Path) -> int:
    """The games of every finished chunk in the study folder's run folders."""
    return sum(RunFolder(run).games_done() for run in (root / "cells").iterdir())


def _page_rows(browser: Any, page: Path) -> dict[str, str]:  # noqa: F811
    """The page's settings rows as a reader sees them: first cell -> second cell."""
    browser.get(page.as_uri())
    assert not [e for e in browser.get_log("browser") if e["level"] == "SEVERE"]
    rows = browser.execute_script(
        "return Array.from(document.querySelectorAll('tr')).map("
        "(r) => Array.from(r.cells).map((c) => c.innerText.trim()))")
    return {r[0]: r[1] for r in rows if len(r) == 2}


def _agree(browser: Any, root: Path, printed: str, label: str) -> None:  # noqa: F811
    """The terminal's figures and machine line, the page's and study.json's, the same."""
    data = json.loads((root / "study.json").read_text())
    figures = run_words(data["games_played"], data["wall_seconds"], data["play_seconds"])
    machine = machine_words(data["machine"])
    terminal = FIGURES.findall(printed)
    assert terminal == [figures], (terminal, figures)
    assert f"{label}: played on {machine}\n" in printed
    rows = _page_rows(browser, root / "study.html")
    assert rows["wall time"].startswith(f"{figures} (finished "), rows["wall time"]
    assert rows["machine"] == machine
    assert re.search(r"load average [\d.]+ when play began, [\d.]+ when it ended", machine)
    # the one game count is the folder's: every finished chunk
    assert data["games_played"] == _folder_games(root)
    assert 0 < data["play_seconds"] <= data["wall_seconds"]


def test_the_terminal_the_page_and_study_json_give_one_run_the_same_times(
        browser: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,  # noqa: F811
        capsys: pytest.CaptureFixture[str]) -> None:
    """A small whatif and a small study run: the games, wall time and play time the
    terminal prints, the page's settings row and study.json's fields, written by one rule;
    the machine with its cores and its load when play began and ended, the same in all
    three; the progress's closing count the same game count."""
    core_or_skip()
    monkeypatch.setenv("CDSIM_PROGRESS_SECONDS", "1000")
    out = tmp_path / "wi"
    code, printed, err = run_cli([*WHATIF, "--out", str(out)], monkeypatch, capsys)
    assert code == 0, err
    _agree(browser, out, printed, "whatif")
    done = _manifest(out)["games_played"]
    assert f"whatif: {done}/{done} games, done" in err
    path = tmp_path / "timed.toml"
    path.write_text(STUDY)
    study = tmp_path / "s"
    code, printed, err = run_cli(["study", "run", str(path), "--out", str(study)], monkeypatch,
                                 capsys)
    assert code == 0, err
    done = _manifest(study)["games_played"]
    assert f"study timed: {done}/{done} games, done" in err
    code, _, err = run_cli(["study", "report", str(study), "-q"], monkeypatch, capsys)
    assert code == 0, err
    _agree(browser, study, printed, "study timed")


@pytest.mark.parametrize("kind", ["whatif", "study"])
def test_a_stopped_run_counts_every_finished_chunk_and_its_resume_adds_its_own(
        kind: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """Ctrl-C in the middle: the manifest's game count is the folder's finished chunks (it
    counted none of an interrupted command's games: a resumed run then said fewer games
    than it had played, 6,564 against 7,064), its play time and wall time grown; the resume
    adds its own, and the terminal's figures are the manifest's."""
    core_or_skip()
    out = tmp_path / kind
    path = tmp_path / "timed.toml"
    path.write_text(STUDY)
    args = ([*WHATIF, "--out", str(out), "--quiet"] if kind == "whatif" else
            ["study", "run", str(path), "--out", str(out), "-q"])
    _interrupt_after(monkeypatch, 300)
    code, _, err = run_cli(args, monkeypatch, capsys)
    assert code == 130, err
    stopped = _manifest(out)
    assert stopped["games_played"] == _folder_games(out) >= 300
    assert 0 < stopped["play_seconds"] <= stopped["wall_seconds"]
    monkeypatch.undo()
    code, printed, err = run_cli([*args, "--resume"], monkeypatch, capsys)
    assert code == 0, err
    done = _manifest(out)
    assert done["games_played"] == _folder_games(out) > stopped["games_played"]
    assert done["wall_seconds"] > stopped["wall_seconds"]
    figures = run_words(done["games_played"], done["wall_seconds"], done["play_seconds"])
    assert FIGURES.findall(printed) == [figures]


@pytest.mark.parametrize("kind", ["whatif", "study"])
def test_the_progress_eta_never_counts_past_the_time_budget(
        kind: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """`study run --minutes` and `whatif --minutes` give the progress their time budget's
    end: every ETA it shows ends there at the latest (the likely end, cut at the budget);
    without a budget none is set."""
    core_or_skip()
    seen: list[tuple[float | None, float, float]] = []
    plan_work = StudyProgress.plan_work

    def spy(self: StudyProgress, total: int, done: int, work: Any) -> None:
        plan_work(self, total, done, work)
        now = clock_module.time.perf_counter()
        seen.append((self.deadline, now, self.eta()))
    monkeypatch.setattr(StudyProgress, "plan_work", spy)
    path = tmp_path / "timed.toml"
    path.write_text(STUDY)
    for minutes in ("1", "0"):
        seen.clear()
        out = tmp_path / f"{kind}-{minutes}"
        args = ([*WHATIF, "--out", str(out), "--quiet", "--minutes", minutes]
                if kind == "whatif" else
                ["study", "run", str(path), "--out", str(out), "-q", "--minutes", minutes])
        code, _, err = run_cli(args, monkeypatch, capsys)
        assert code == 0, err
        assert seen
        for deadline, now, eta in seen:
            if minutes == "0":
                assert deadline is None
                continue
            assert deadline is not None and deadline - now <= 60
            assert eta <= max(0.0, deadline - now)


def test_the_pace_includes_the_looks_between_plays(monkeypatch: pytest.MonkeyPatch) -> None:
    """The pace is play and looks: 2 s playing, 8 s judging the stages, 2 s playing again,
    then 4 s of looks since: 1,000 games of 1 recorded ms in 16 s of wall time. (A pace of
    play alone said a cheap game's study took a quarter of what it took.) The manifest takes
    the games and play seconds once each."""
    now = [0.0]
    monkeypatch.setattr(clock_module.time, "perf_counter", lambda: now[0])
    clock = Clock(None, jobs=2)
    clock.per_game_ms = {"2p.x": 1.0}
    with clock.playing():
        now[0] = 2.0
        clock.chunk("2p.x+s0", 500)
    now[0] = 10.0
    with clock.playing():
        now[0] = 12.0
        clock.chunk("2p.x+s1", 500)
    assert clock.unrecorded() == (1000, 4.0) and clock.unrecorded() == (0, 0.0)
    now[0] = 16.0
    assert clock.spent() == pytest.approx(16.0)
    assert clock.seconds(500, 2.0) == pytest.approx(16.0)  # 1,000 recorded ms at 16 ms each
    assert clock.pace() == "measured here: 1,000 games in 16 s, 4 s of it playing, the rest " \
                           "judging the stages"
    rate = clock.rate()
    assert rate is not None and rate.seconds == pytest.approx(16.0)
    # the run is over: writing its pages (40 s here) is no part of the pace its closing
    # lines say (a busy whatif said "in 4 min" under "3 min 0 s wall")
    clock.finish()
    now[0] = 56.0
    assert clock.spent() == pytest.approx(16.0)


def test_the_pace_is_said_once_play_and_looks_have_measured_a_few_seconds(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """`study run` says its time here once a few seconds are measured, the looks counted
    with the play: a cheap game's first round plays for a fraction of a second and judges
    its stages for many, and the line waited for rounds of play, said late or never."""
    from cdsim.batch.progress import Work
    from cdsim.cli import studies

    now = [0.0]
    monkeypatch.setattr(clock_module.time, "perf_counter", lambda: now[0])
    clock = Clock(None, jobs=2)
    clock.per_game_ms = {"2p.x": 1.0}
    with clock.playing():
        now[0] = 0.5
        clock.chunk("2p.x+s0", 100)
    planned = studies._planned("x", StudyProgress("x", quiet=True), clock)
    work = Work(1000.0, 100.0, {"2p.x": 1.0})
    now[0] = 1.0  # 1 s measured: too little to say
    planned(1000, 100, work)
    assert capsys.readouterr().out == ""
    now[0] = 3.0  # 0.5 s of play and 2.5 s of looks
    planned(1000, 100, work)
    said = capsys.readouterr().out
    assert said.startswith("study x: measured here: 100 games in 3 s, "), said
    assert "the rest judging the stages" in said and "the 900 games left at most" in said
    planned(1000, 100, work)  # said once
    assert capsys.readouterr().out == ""
