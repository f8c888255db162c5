"""The card line calibrated on its own (issue 62 item 3): a card margin in points of its
takers' win difference (``cards.CARD_MARGIN``, ``--card-margin``), "about right" reachable
at a quick look's size for a card whose truth is inside it, and wrong lines at most 5%, by
simulation against a known truth at the sparsity of real 4-player games."""

from __future__ import annotations

import dataclasses
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from cdsim.analysis.cards import CARD_MARGIN, card_figures
from cdsim.analysis.paired import card_side
from cdsim.games.carpe_diem.cards import OBJECTIVE
from tests.card_sim import FOUR, terms
from tests.commands import run_cli

DEALS = 3_500  # a 4-player quick look's stop: 14,000 games a side (docs/statistics.md)
RUNS = 150


def _lines(truth: float, seed: int) -> Counter[str]:
    """The card line of ``RUNS`` looks of ``DEALS`` 4-player deals whose takers' true win
    difference is ``truth`` (one taker a game: truth = p - (1 - p) / 3)."""
    s = dataclasses.replace(FOUR, taker_wins=(3 * truth + 1) / 4)
    assert s.truth()["win_difference"] == pytest.approx(truth)
    rng = np.random.default_rng(seed)
    return Counter(card_side(card_figures(terms(rng, s, DEALS), OBJECTIVE)["win_difference"],
                             CARD_MARGIN) for _ in range(RUNS))


def test_a_card_inside_the_margin_is_about_right_in_most_looks() -> None:
    """B05 at 9 VP: its takers' true win difference at 4 players is +0.66 pts (issue 62)."""
    said = _lines(0.0066, 1)
    assert said["about right"] >= 0.7 * RUNS, said
    assert said["too weak"] + said["too strong"] <= 0.05 * RUNS, said


def test_at_the_margin_every_verdict_is_wrong_at_most_5_percent() -> None:
    """A truth exactly at +margin is neither inside it nor beyond it: any verdict is wrong."""
    said = _lines(CARD_MARGIN, 2)
    assert said["not decided"] >= 0.95 * RUNS, said


def test_a_card_well_beyond_the_margin_is_too_weak_and_never_about_right() -> None:
    said = _lines(-2 * CARD_MARGIN, 3)
    assert said["about right"] + said["too strong"] <= 0.05 * RUNS, said
    assert said["too weak"] >= 0.8 * RUNS, said


def test_the_command_line_s_card_margin_is_the_analysis_one() -> None:
    from cdsim.cli import whatif

    assert whatif.CARD_MARGIN == CARD_MARGIN


@pytest.mark.parametrize("value", ["0", "0.6", "-0.04", "nan"])
def test_a_bad_card_margin_is_one_line(value: str, tmp_path: Path,
                                       monkeypatch: pytest.MonkeyPatch,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run_cli(["whatif", "--set", "objective.B05.reward.vp=6",
                              "--card-margin", value, "--out", f"{tmp_path}/w"],
                             monkeypatch, capsys)
    assert code == 2 and "--card-margin must be between 0.001 and 0.5" in err, (code, err)
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_the_docs_state_the_card_margin_and_the_deals_the_code_uses() -> None:
    from cdsim.analysis.card_intervals import MIN_DEALS

    text = " ".join((Path(__file__).parents[1] / "docs" / "statistics.md").read_text().split())
    assert f"**Its margin, {100 * CARD_MARGIN:g} pts**" in text
    assert f"the card taken in at least {MIN_DEALS} deals" in text
