"""cdsim/analysis/balance.py: a one-run balance is the study's procedure on one stage, and it
says "confirmed" only where that procedure confirms."""

from __future__ import annotations

import numpy as np
import pytest

from cdsim.analysis import anytime
from cdsim.analysis.balance import assess, shift_curves, words
from cdsim.analysis.candidates import CellGames, rerank_winners


def games(players: int, count: int, lead: int = 0, seed: int = 0) -> CellGames:
    """``count`` games, one per deal, every seat's gain from one wide distribution; seat 1
    gains ``lead`` VP more (a seat advantage)."""
    rng = np.random.default_rng(seed)
    gained = rng.integers(0, 60, size=(count, players))
    gained[:, 0] += lead
    tiebreak = np.argsort(rng.random((count, players)), axis=1)
    return CellGames(gained, tiebreak, np.arange(count))


def test_two_players_can_be_confirmed_by_one_run() -> None:
    cell = games(2, 6000)
    result = assess(cell, (10, 10), tolerance=0.06, radius=2)
    same = anytime.decide_games([cell], (10, 10), 2, 0.06, 0.05)
    assert result.verdict.vector == same.vector and result.verdict.decision == same.decision
    assert result.confirmed and words(result) == "confirmed fair"
    assert result.confirm_games is None  # nothing left to confirm


def test_three_players_are_never_confirmed_by_one_run() -> None:
    # the vectors to test are chosen on stage 0: with one stage nothing is tested yet
    result = assess(games(3, 6000), (10, 10, 10), tolerance=0.06, radius=2)
    assert result.verdict.decision == "undecided" and not result.confirmed
    assert words(result) == "most equal so far (not confirmed)"
    assert result.confirm_games is not None and result.confirm_games > 0


def test_a_seat_far_ahead_is_no_fair_vector() -> None:
    result = assess(games(2, 6000, lead=30), (10, 10), tolerance=0.02, radius=2)
    assert result.verdict.decision == "no fair vector" and not result.confirmed
    assert words(result).startswith("no fair vector")
    assert result.best.largest_gap > 0.3


def test_the_fair_offset_finds_a_known_lead() -> None:
    result = assess(games(2, 6000, lead=3), (10, 10), tolerance=0.02, radius=6)
    (seat2,) = result.offsets
    assert seat2.low < 3 < seat2.high  # seat 2 needs about 3 VP over seat 1
    assert result.verdict.vector[1] - result.verdict.vector[0] == pytest.approx(3, abs=1)


def test_shift_curves_are_the_reranked_shares() -> None:
    cell = games(3, 300)
    shifts, share, low, high = shift_curves(cell, (8, 9, 13))
    for s in range(3):
        for j, d in enumerate(shifts):
            v = np.array([8, 9, 13])
            v[s] += d
            wins = np.bincount(rerank_winners(cell.gained, cell.tiebreak, v), minlength=3)
            assert share[s, j] == pytest.approx(wins[s] / 300)
    assert (low <= share).all() and (share <= high).all()
