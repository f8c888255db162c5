"""The pages say what the terminal says (#61 item 3), each page read in headless chromium:
a whatif's page leads with the change's answer as `cdsim whatif` printed it (whether seat
balance moves, how far at most, each changed card's verdict line at the card margin),
and `cdsim study report` of it prints the same; a sweep's page judges seat moves
at the run's precision; a study stopped by its time budget says stopped, and what a
`--resume` would play, where the terminal does."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from cdsim.analysis.cards import CARD_MARGIN
from cdsim.study.clock import Clock
from tests.commands import run_cli
from tests.conftest import core_or_skip
from tests.test_replay import browser  # noqa: F401  (the headless chromium fixture)

PRECISION = "0.02"  # not the default (1 pp) nor the study reports' (0.5 pp)


def whatif(folder: Path, change: str) -> str:
    """`cdsim whatif` of ``change`` at 2 players, scripted, 600 games a side: its stdout."""
    done = subprocess.run([sys.executable, "-m", "cdsim", "whatif", "--set", change,
                           "--players", "2", "--play", "scripted", "--games", "600",
                           "--minutes", "0", "--precision", PRECISION, "--out", str(folder),
                           "--jobs", "1", "--quiet"],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.fixture(scope="module")
def one(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    core_or_skip()
    root = tmp_path_factory.mktemp("says") / "b05"
    return root, whatif(root, "objective.B05.reward.vp=6")


def boxes(browser: Any, page: Path) -> list[tuple[str, list[str]]]:  # noqa: F811
    """The answer boxes as a reader sees them: (title, every line of every group)."""
    from selenium.webdriver.common.by import By

    browser.get(page.as_uri())
    return [(s.find_element(By.TAG_NAME, "h2").text,
             [li.text for li in s.find_elements(By.TAG_NAME, "li")])
            for s in browser.find_elements(By.CSS_SELECTOR, ".answers section.answer")]


def said(out: str, head: str) -> tuple[str, list[str]]:
    """The terminal's answer line for ``head`` ("2p scripted") and its indented card lines."""
    lines = out.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith(f"  {head}: "))
    cards = []
    for line in lines[at + 1:]:
        if not line.startswith("      "):
            break
        cards.append(line.strip())
    return lines[at].removeprefix(f"  {head}: "), cards


def test_the_whatif_page_leads_with_the_terminal_s_answer(browser: Any,  # noqa: F811
                                                           one: tuple[Path, str]) -> None:
    root, out = one
    found = boxes(browser, root / "study.html")
    title, lines = found[0]  # the change's box leads
    assert title.startswith("What ") and title.endswith(" does"), found
    answer, cards = said(out, "2p scripted")
    assert answer.startswith(lines[0]), (lines[0], answer)  # the terminal adds its time
    assert "seat balance" in lines[0] and "at most" in lines[0] and "(95%" in lines[0]
    assert cards and all(card in lines for card in cards), (cards, lines)
    # each changed card's line at the card margin (not the seats' precision), or why not
    assert any(line.startswith("B05: ") and (f"card margin of ±{100 * CARD_MARGIN:.1f} pts"
                                             in line or "needs more games" in line)
               for line in lines), lines
    assert not any("undecided" in line for line in lines)  # the base's verdict is below it


def test_study_report_of_a_whatif_prints_the_whatif_s_answer(
        one: tuple[Path, str], monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    root, out = one
    code, report, err = run_cli(["study", "report", str(root), "-q"], monkeypatch, capsys)
    assert code == 0, err
    answer, cards = said(out, "2p scripted")
    again, again_cards = said(report, "2p scripted")
    assert answer.startswith(again) and again_cards == cards
    assert "starting VP" not in report.split("\n", 1)[1]  # not the base's question


def test_a_sweep_page_judges_at_the_run_s_precision(browser: Any,  # noqa: F811
                                                    tmp_path: Path) -> None:
    core_or_skip()
    root = tmp_path / "sweep"
    out = whatif(root, "objective.B05.reward.vp=4,8")
    sweeps = [lines for title, lines in boxes(browser, root / "study.html")
              if title.startswith("What ") and "= 4, 8" in title]
    assert sweeps, "no sweep box"
    text = " ".join(sweeps[0])
    assert "±2.0 pp" in text and "±0.5 pp" not in text, text
    # and what it decides there is what the terminal said of each value
    heads = [line for line in out.splitlines() if line.startswith("  2p scripted [")]
    assert len(heads) == 2
    if all("seat balance does not move" in line for line in heads):
        assert "seat balance does not move at any value tried" in text, text


def test_study_report_of_a_sweep_prints_what_whatif_printed(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    core_or_skip()
    root = tmp_path / "sweep"
    out = whatif(root, "objective.B05.reward.vp=4,8")
    code, report, err = run_cli(["study", "report", str(root), "-q"], monkeypatch, capsys)
    assert code == 0, err
    for head in ("2p scripted [B05-reward-vp=4]", "2p scripted [B05-reward-vp=8]"):
        answer, cards = said(out, head)
        again, again_cards = said(report, head)
        assert answer.startswith(again) and again_cards == cards
    neutral = [line for line in out.splitlines() if line.startswith("  2 players, scripted: ")]
    assert all(line in report.splitlines() for line in neutral)


STOPPED = """\
name = "timed"
seed = 5
games = 720
first_stage = 90
chunk_size = 45
players = [2]
tolerance = 0.02
minutes = 10
[[population]]
name = "greedy"
lineup = ["greedy"]
"""


def test_a_stopped_study_says_stopped_and_what_resume_plays(
        browser: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,  # noqa: F811
        capsys: pytest.CaptureFixture[str]) -> None:
    core_or_skip()
    path = tmp_path / "timed.toml"
    path.write_text(STOPPED)
    root = tmp_path / "stopped"
    # every clock with a budget runs out once 180 games are played: stage 0 (90) judged,
    # stage 1 part-played
    monkeypatch.setattr(Clock, "expired",
                        lambda self: self.minutes is not None and self.games >= 180)
    code, out, err = run_cli(["study", "run", str(path), "--out", str(root), "-q"],
                             monkeypatch, capsys)
    assert code == 0, err
    assert "2p.greedy: stopped: a --resume plays at most 630 more games to its budget" in out
    code, report, err = run_cli(["study", "report", str(root), "-q"], monkeypatch, capsys)
    assert code == 0, err
    assert "still playing" not in report
    found = boxes(browser, root / "study.html")
    text = " ".join(line for _, lines in found for line in lines)
    assert "stopped (its time budget of 10 min) after 90 games" in text, text
    assert "a --resume plays on, at most 630 more games to its budget" in text
    assert "still playing" not in browser.find_element("tag name", "body").text
