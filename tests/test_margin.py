"""cdsim whatif's verdicts in a designer's terms: the designer's margin (the default
--precision) and the error rates it keeps, "seat balance moves by at most X pp (95%)" beside
every decision, and one line per changed card (too weak, about right, too strong) with every
card figure's interval."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

from cdsim.analysis import paired
from cdsim.analysis.cards import CARD_MARGIN
from cdsim.analysis.paired import Comparison, SeatChange, card_side
from cdsim.games.carpe_diem.cards import OBJECTIVE
from cdsim.study.cards import CardChange, Figure
from tests.commands import run_cli
from tests.conftest import core_or_skip

LOOKS = range(500, 10_001, 500)  # a look every 500 deals up to 10,000 (a quick look's scale)
RUNS = 200
SWAP = 0.03  # the share of deals whose winner the change turns to seat 2 (and as many back)


def _said(shift: float, seed: int) -> list[str]:
    """``RUNS`` synthetic comparisons at 2 players whose seat 2 truly gains ``shift`` (a
    paired difference per deal of -1, 0 or +1, as a one-card change makes them: most deals
    keep their winner), each looked at at every ``LOOKS`` until decided: the outcomes at
    the designer's margin."""
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(RUNS):
        step = rng.choice([-1.0, 0.0, 1.0], size=LOOKS[-1],
                          p=[SWAP - shift / 2, 1 - 2 * SWAP, SWAP + shift / 2])
        per_deal = np.stack([-step, step], axis=1)
        outcome = "undecided"
        for end in LOOKS:
            outcome = paired.compare(per_deal[:end], LOOKS[-1], paired.MARGIN).outcome
            if outcome != "undecided":
                break
        out.append(outcome)
    return out


def test_a_wrong_unchanged_is_rarer_than_alpha_at_the_edge_of_the_margin() -> None:
    """Seat 2 truly gains the whole margin (or twice it): "unchanged" is wrong, and said in
    at most ``ALPHA`` of the comparisons."""
    for shift, seed in ((paired.MARGIN, 3), (2 * paired.MARGIN, 7)):
        said = _said(shift, seed)
        assert said.count("unchanged") <= paired.ALPHA * RUNS, shift
    assert said.count("changed") > RUNS / 2  # twice the margin: most are found to move


def test_a_wrong_moves_is_rarer_than_alpha_inside_the_margin() -> None:
    """Seat 2 truly gains 0 or half the margin: "changed" (seat balance moves by the margin
    or more) is wrong, and said in at most ``ALPHA`` of the comparisons; most of them end
    "unchanged" within the looks (the margin is one a quick look decides)."""
    for shift, seed in ((0.0, 4), (paired.MARGIN / 2, 5)):
        said = _said(shift, seed)
        assert said.count("changed") <= paired.ALPHA * RUNS, shift
    assert _said(0.0, 6).count("unchanged") > RUNS / 2


def _comparison(ends: list[tuple[float, float]], outcome: str = "undecided") -> Comparison:
    seats = tuple(SeatChange(i + 1, (lo + hi) / 2, lo, hi) for i, (lo, hi) in enumerate(ends))
    return paired.judge(seats, paired.MARGIN, 1000, 100) if outcome == "judge" else \
        Comparison("undecided", seats, 1000, 100, paired.MARGIN)


def test_the_bound_is_the_largest_end_of_the_seats_intervals_rounded_up() -> None:
    c = _comparison([(-0.0123, 0.004), (-0.004, 0.0101)])
    assert c.bound() == pytest.approx(0.0123)
    assert c.bound_words().startswith(
        "seat balance moves by at most 1.3 pp (95%);")  # 1.23 up, not 1.2
    assert _comparison([(-0.002, 0.017)]).bound_words().startswith(
        "seat balance moves by at most 1.7 pp (95%);")  # the high end when it is the larger
    before = Comparison("undecided", (SeatChange(1, math.nan, -math.inf, math.inf),), 0, 0,
                        paired.MARGIN)
    assert before.bound() == math.inf and "no bound yet" in before.bound_words()
    # beside every outcome: a decided one too
    decided = _comparison([(-0.004, 0.006), (-0.006, 0.004)], "judge")
    assert decided.outcome == "unchanged" and "at most 0.6 pp" in decided.bound_words()


def test_a_card_is_too_weak_about_right_or_too_strong_only_when_its_interval_says_so() -> None:
    m = 0.02
    assert card_side((0.05, 0.03, 0.07), m) == "too strong"
    assert card_side((-0.05, -0.07, -0.03), m) == "too weak"
    assert card_side((0.0, -0.01, 0.015), m) == "about right"
    assert card_side((0.02, 0.01, 0.03), m) == "not decided"  # across +margin
    assert card_side((0.02, -0.03, 0.03), m) == "not decided"  # wider than the margin
    assert card_side((0.02, 0.02, 0.03), m) == "not decided"  # the edge is not beyond it
    assert card_side((math.nan, math.nan, math.nan), m) == "not decided"


def _card(win: Figure) -> CardChange:
    nan: Figure = (math.nan, math.nan, math.nan)
    base = {"taken_share": (0.38, 0.36, 0.40), "done_share": (0.6, 0.55, 0.65),
            "mean_vp": (7.9, 7.6, 8.2), "win_difference": (-0.142, -0.2, -0.08)}
    variant = {"taken_share": (0.31, 0.29, 0.33), "done_share": (0.62, 0.57, 0.67),
               "mean_vp": (5.1, 4.9, 5.3), "win_difference": win}
    return CardChange(OBJECTIVE, "B05", ("reward.vp 8 -> 6",), base, variant,
                      dict.fromkeys(base, nan))


def test_every_card_figure_in_the_terminal_carries_its_interval() -> None:
    """Strong play at 300 games a side printed "+17.3 pts (base -14.2 pts)": noise read as
    a finding. Now every figure has its interval, and one holding 0 is said undecided."""
    from cdsim.study.whatif_words import card_figures, card_line

    said = card_figures(_card((0.173, -0.05, 0.39)))
    assert "taken by 31.0% [29.0, 33.0] of seats (base 38.0% [36.0, 40.0])" in said
    assert "fulfilled 62.0% [57.0, 67.0]" in said and "5.1 VP [4.9, 5.3] on average" in said
    assert "+17.3 pts [-5.0, +39.0], not decided: its interval holds 0" in said
    assert "(base -14.2 pts [-20.0, -8.0])." in said  # decided: no such words
    assert card_figures(_card((0.1, math.nan, math.nan))).count("too few games") == 1
    line = card_line(_card((0.173, -0.05, 0.39)), 0.015)
    assert line.startswith("B05: not decided (could be too weak or about right or too strong)")
    assert "+17.3 pts [-5.0, +39.0] against a card margin of ±1.5 pts" in line
    strong = card_line(_card((0.173, 0.05, 0.29)), 0.015, ", neutral near reward.vp = 5.2")
    assert strong.startswith("B05: too strong: its takers' win difference +17.3 pts")
    assert strong.endswith("neutral near reward.vp = 5.2")


def test_the_command_line_s_margin_is_the_analysis_one() -> None:
    from cdsim.cli import whatif

    assert whatif.MARGIN == paired.MARGIN


def test_whatif_prints_the_bound_and_a_line_per_card(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """A small whatif: its comparison's line says how far seat balance can move, and the
    changed card gets its verdict line and its figures, each with an interval."""
    core_or_skip()
    out = tmp_path / "wi"
    code, said, err = run_cli(["whatif", "--set", "objective.B05.reward.vp=6", "--players", "4",
                            "--play", "scripted", "--games", "600", "--out", str(out),
                            "--quiet"], monkeypatch, capsys)
    assert code == 0, err
    printed = said.splitlines()
    head = next(line for line in printed if line.startswith("  4p scripted: "))
    assert "; seat balance moves by at most " in head and " pp (95%" in head
    assert "games a side" in head and "at most 0.0 pp" not in head
    verdict = next(i for i, line in enumerate(printed) if line.startswith("      B05: "))
    assert any(w in printed[verdict] for w in ("too weak", "about right", "too strong",
                                               "not decided"))
    assert f"against a card margin of ±{100 * CARD_MARGIN:.1f} pts" in printed[verdict]
    figures = printed[verdict + 1]
    assert figures.startswith("      B05 at 6 VP: taken by ")
    assert figures.count(" [") >= 6  # taken, fulfilled, VP, win difference, base's too


def test_a_card_is_neutral_near_the_value_its_sweep_finds() -> None:
    """Only the sweep of this player count, play and card gives "neutral near V"; none
    where the sweep finds no crossing."""
    from types import SimpleNamespace
    from typing import cast

    from cdsim.analysis.sweep import Neutral
    from cdsim.study.sweep_groups import SweepGroup
    from cdsim.study.whatif_words import neutral_near

    cell = SimpleNamespace(cards=SimpleNamespace(cards=[_card((0.0, -0.1, 0.1))]))

    def group(players: int, at: float | None, ends: tuple[float, ...]) -> SweepGroup:
        return cast(SweepGroup, SimpleNamespace(
            players=players, population="scripted", neutral=Neutral(at, ends),
            values=((4, cell), (10, cell)), sweep=SimpleNamespace(key="reward.vp")))

    found = [group(2, 5.24, (4.1, 6.3)), group(3, None, ())]
    assert neutral_near(found, 2, "scripted", "B05") == (
        ", neutral near reward.vp = 5.2 (95% interval 4.1 to 6.3)")
    assert neutral_near(found, 3, "scripted", "B05") == ""  # no crossing: no claim
    assert neutral_near(found, 2, "strong", "B05") == ""
    assert neutral_near(found, 2, "scripted", "F01") == ""
    assert "reaches beyond" in neutral_near([group(2, 5.0, (4.5,))], 2, "scripted", "B05")
