"""The ladder's ratings (cdsim/analysis/ratings.py): Bradley-Terry and Plackett-Luce fits
against known answers, the lower bound of a clean sweep, a bootstrap that resamples whole
deals, and the head-to-head counts. The ladder end to end is tests/test_ladder.py."""

from __future__ import annotations

import math
from itertools import permutations

import numpy as np
import polars as pl
import pytest

from cdsim.analysis import ratings as rt


def test_bradley_terry_known_answers() -> None:
    # a beats b in 75% of 400 games: the gap is 400 log10(3) = 190.85 Elo
    theta = rt.bradley_terry([[0, 300], [100, 0]], prior=0)
    assert rt.elo(theta, 1)[0] == pytest.approx(400 * math.log10(3), abs=1e-6)
    # the virtual games shrink it, by under a point with 400 games
    shrunk = rt.elo(rt.bradley_terry([[0, 300], [100, 0]]), 1)[0]
    assert 189.9 < shrunk < 400 * math.log10(3)
    # strengths 1 : 2 : 4 with exactly the expected results: 120.4 Elo between neighbours
    wins = [[0, 100, 100], [200, 0, 100], [400, 200, 0]]
    ratings = rt.elo(rt.bradley_terry(wins, prior=0), 0)
    assert ratings == pytest.approx([0, 400 * math.log10(2), 800 * math.log10(2)], abs=1e-6)
    # a clean sweep has no maximum-likelihood rating; the virtual games give a finite one
    swept = rt.elo(rt.bradley_terry([[0, 40], [0, 0]]), 1)[0]
    assert 300 < swept < 1500
    # what a sweep does show: 100 of 100 deals won -> a share of at least 0.05^(1/100)
    assert rt.Sweep(0, 1, meetings=200, deals=100).gap_at_least == pytest.approx(
        400 * math.log10(0.05 ** 0.01 / (1 - 0.05 ** 0.01)))
    # a stack of resamples is fitted at once, each as if alone
    stack = rt.bradley_terry(np.array([[[0, 300], [100, 0]], [[0, 40], [0, 0]]]))
    assert rt.elo(stack, 1)[:, 0] == pytest.approx([shrunk, swept], abs=1e-6)


def _orders_from_wins(wins: np.ndarray) -> np.ndarray:
    k = len(wins)
    return np.array([(i, j) for i in range(k) for j in range(k) for _ in range(int(wins[i, j]))])


@pytest.mark.parametrize("prior", [0.0, rt.PRIOR_GAMES])
def test_plackett_luce_on_two_player_orders_is_bradley_terry(prior: float) -> None:
    rng = np.random.default_rng(7)
    wins = rng.integers(5, 60, size=(4, 4)) * (1 - np.eye(4, dtype=np.int64))
    bt = rt.elo(rt.bradley_terry(wins, prior=prior), None)
    pl_fit = rt.elo(rt.plackett_luce(_orders_from_wins(wins), 4, prior=prior), None)
    assert pl_fit == pytest.approx(bt, abs=1e-4)
    assert np.ptp(bt) > 50  # not a trivially flat answer


def test_plackett_luce_known_answer_for_three_player_orders() -> None:
    # every order of strengths 1 : 2 : 4 weighted by its exact probability: the fit is exact
    pi = np.array([1.0, 2.0, 4.0])
    orders = np.array(list(permutations(range(3))))
    prob = [pi[a] / pi.sum() * pi[b] / (pi[b] + pi[c]) for a, b, c in orders]
    theta = rt.plackett_luce(orders, 3, weights=np.array(prob) * 6000, prior=0)
    assert rt.elo(theta, 0) == pytest.approx([0, 400 * math.log10(2), 800 * math.log10(2)],
                                              abs=1e-3)
    # one strategy in two seats (a, a, b; strengths 1 : 3): orders a a b, a b a, b a a come
    # with probabilities 2/5 * 1/4, 2/5 * 3/4 and 3/5
    theta = rt.plackett_luce([[0, 0, 1], [0, 1, 0], [1, 0, 0]], 2, weights=[100, 300, 600],
                             prior=0)
    assert rt.elo(theta, 0)[1] == pytest.approx(400 * math.log10(3), abs=1e-3)


@pytest.mark.parametrize("players", [2, 3])
def test_the_bootstrap_resamples_whole_deals(players: int) -> None:
    # each deal's games played twice over (perfectly correlated copies): resampling deals,
    # the intervals stay as wide; resampling games would narrow them by sqrt(2)
    rng = np.random.default_rng(3)
    orders = np.array([rng.permutation(3)[:players] for _ in range(300)])
    deal = np.arange(300) // players

    def spread(copies: int) -> np.ndarray:
        games = rt.Games(np.repeat(orders, copies, axis=0), np.repeat(deal, copies),
                         np.zeros(300 * copies, dtype=np.int64), pl.DataFrame())
        _, resampled = rt.bootstrap_fits(games, 3, 100, seed=1)
        return np.asarray(rt.elo(resampled, 0).std(axis=0)[1:])

    assert spread(2) / spread(1) == pytest.approx([1, 1], rel=0.05)


def test_head_to_head_counts_every_pair_of_seats() -> None:
    # game 1: a, b, a (a first and third); game 2: b, a, c
    ahead, meetings = rt.head_to_head(np.array([[0, 1, 0], [1, 0, 2]]), 3)
    assert ahead[0, 1] == 1 and ahead[1, 0] == 2  # b ahead of a's second seat and in game 2
    assert meetings[0, 1] == meetings[1, 0] == 3 and meetings[0, 0] == 0
    assert (ahead[0, 2], ahead[1, 2], meetings[2, 0]) == (1, 1, 1)
