"""cdsim.analysis.candidates: re-ranking, win tables and their memory bound, deal-group
intervals (seats, pairs, the largest gap), the choice rules, and the synthetic cells' exact
truth (``cdsim.analysis.synthetic``, the scenarios of tests/scenarios.py) against simulation.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from numpy.typing import NDArray
from scipy import stats as sps

from cdsim.analysis import candidates as cand
from cdsim.analysis.candidates import CellGames
from cdsim.analysis.synthetic import Synth, dnorm
from tests.scenarios import scenario

# ------------------------------------------------------------------------ re-ranking

@st.composite
def small_games(draw_: st.DrawFn) -> tuple[NDArray[np.int64], NDArray[np.int64], NDArray[np.int64]]:
    n = draw_(st.integers(2, 4))
    g = draw_(st.integers(1, 30))
    gained = np.array(draw_(st.lists(st.integers(-3, 6), min_size=g * n, max_size=g * n))).reshape(g, n)
    perms = list(itertools.permutations(range(n)))
    tb = np.array([perms[i] for i in draw_(st.lists(st.integers(0, len(perms) - 1), min_size=g,
                                                     max_size=g))])
    vector = np.array(draw_(st.lists(st.integers(-4, 4), min_size=n, max_size=n)))
    return gained, tb, vector


@given(small_games())
def test_rerank_matches_the_rule(case: tuple[NDArray[np.int64], ...]) -> None:
    gained, tb, vector = case
    expected = []
    for g, t in zip(gained, tb, strict=True):
        keys = [(int(vector[s] + g[s]), -int(t[s])) for s in range(len(vector))]
        expected.append(keys.index(max(keys)))
    assert cand.rerank_winners(gained, tb, vector).tolist() == expected
    table = cand.win_table(CellGames(gained, tb, np.arange(len(gained))), vector[None, :])
    assert table.wins[0].tolist() == np.bincount(expected, minlength=len(vector)).tolist()


def test_win_table_blocks_concat_and_sums() -> None:
    rng = np.random.default_rng(3)
    cell = scenario("fair").cell
    a, b = cell.play(rng, 600), cell.play(rng, 300)  # both label their deals 0, 1, ...
    vectors = cand.candidates((0, 0, 0), 2)
    whole = cand.win_table(CellGames.concat(a, b), vectors)
    parts = cand.win_table(a, vectors) + cand.win_table(b, vectors, max_cells=1)  # one at a time
    for name in ("wins", "cross", "wm"):
        assert np.allclose(getattr(whole, name), getattr(parts, name))
    assert (whole.games, whole.groups, whole.size_sq) == (parts.games, parts.groups, parts.size_sq)
    assert (whole.wins.sum(axis=1) == 900).all()
    assert np.allclose(cand.win_share_matrix(a.gained, a.tiebreak, vectors).sum(axis=1), 1)


def test_win_table_is_its_deals_counts_exactly() -> None:
    """Each vector's wins, cross products and size-weighted counts are the sums of its deals'
    win counts, to the bit, whether a deal holds several games or one (the shortcut for one
    game a deal, a non-rotated run's or a study's strong cell's, equals the sums)."""
    rng = np.random.default_rng(8)
    played = scenario("fair").cell.play(rng, 400)
    vectors = cand.candidates((0, 0, 0), 1)
    for group in (played.group, np.arange(played.games)):  # deals of several games; of one
        games = CellGames(played.gained, played.tiebreak, group)
        table = cand.win_table(games, vectors, max_cells=3000)  # blocks of a few vectors
        _, deal = np.unique(group, return_inverse=True)
        for row, v in enumerate(vectors):
            counts = np.zeros((deal.max() + 1, 3))
            np.add.at(counts, (deal, cand.rerank_winners(games.gained, games.tiebreak, v)), 1)
            assert np.array_equal(table.wins[row], counts.sum(axis=0))
            assert np.array_equal(table.cross[row], counts.T @ counts)
            assert np.array_equal(table.wm[row], counts.T @ counts.sum(axis=1))


def test_memory_stays_bounded_for_four_players_radius_six() -> None:
    vectors = cand.candidates((0, 1, 2, 3), 6)
    assert vectors.shape == (13**3, 4) and (vectors[:, 0] == 0).all()
    assert cand.block_size(len(vectors), 100_000, 4) * 100_000 * 4 <= cand.MAX_CELLS
    rng = np.random.default_rng(4)
    games = Synth(tuple(dnorm(i, 3) for i in range(4)), skill=dnorm(0, 2)).play(rng, 800)
    small = cand.win_table(games, vectors, max_cells=800 * 4 * 7)  # blocks of 7 vectors
    assert np.array_equal(small.wins, cand.win_table(games, vectors).wins)


# ----------------------------------------------------------------- synthetic truth

def test_exact_truth_matches_simulation() -> None:
    """The synthetic truth is right: exact shares vs 90,000 simulated games, per vector and
    seat within 4.5 deal-group standard errors."""
    rng = np.random.default_rng(5)
    for name in ("fair", "curse", "border"):
        sc = scenario(name)
        games = sc.cell.play(rng, 90_000)
        table = cand.win_table(games, sc.vectors)
        exact = sc.cell.true_shares(sc.vectors)
        # one seat's share against the rest: its variance from the same group statistics
        w = table.cross[:, np.arange(sc.cell.players), np.arange(sc.cell.players)]
        p = table.shares
        ss = w - 2 * p * table.wm + p**2 * table.size_sq
        se = np.sqrt(np.maximum(ss, 1e-12)) / table.games
        assert (np.abs(p - exact) < 4.5 * se + 1e-9).all(), name


def test_fixtures_are_what_they_claim() -> None:
    twin = scenario("twin")
    sh = twin.cell.true_shares([(0, 0), (0, 1)])
    assert sh[0, 0] - sh[0, 1] == pytest.approx(-(sh[1, 0] - sh[1, 1]), abs=1e-12)
    for name, tied in (("thirds", 3), ("curse", 4)):
        gaps = sorted(scenario(name).gaps.values())
        assert gaps[tied - 1] == pytest.approx(gaps[0], abs=1e-12) and gaps[tied] > gaps[0] + 0.04
    border = sorted(scenario("border").gaps.values())
    assert border[0] == pytest.approx(border[2]) and border[3] > 2 * border[0]  # (0,1..3)
    fair = scenario("fair").gaps
    assert fair[(0, 1, 2)] < 1e-12 and sorted(fair.values())[1] > 0.06 + 0.04


# ------------------------------------------------------------------------- intervals

def test_pair_intervals_equal_groups_are_the_mean_of_group_fractions() -> None:
    rng = np.random.default_rng(6)
    games = Synth((dnorm(1, 3), dnorm(0, 3), dnorm(0, 3)), skill=dnorm(0, 2)).play(rng, 300)
    win = cand.rerank_winners(games.gained, games.tiebreak, (0, 0, 0))
    diff, low, high = cand.pair_intervals(win, games.group, 3, level=0.9)
    t = sps.t.ppf(0.95, 99)
    for k, (i, j) in enumerate(cand.pairs(3)):
        per_group = ((win == i).astype(float) - (win == j)).reshape(100, 3).mean(axis=1)
        half = t * per_group.std(ddof=1) / 10
        assert diff[k] == pytest.approx(per_group.mean())
        assert (low[k], high[k]) == pytest.approx((per_group.mean() - half, per_group.mean() + half))


def test_pair_intervals_cover_by_simulation() -> None:
    """90% pair intervals cover the true differences about 90% of the time in a cell whose
    deals favour seats (positively correlated rotations), where treating games as
    independent would not."""
    cell = Synth((dnorm(1, 2), dnorm(0, 2), dnorm(0, 2)), deal=dnorm(0, 4))
    truth = cell.true_shares([(0, 0, 0)])[0]
    true_diff = np.array([truth[i] - truth[j] for i, j in cand.pairs(3)])
    reps = 400
    rng = np.random.default_rng(7)
    covered = np.zeros((2, 3))
    for _ in range(reps):
        games = cell.play(rng, 180)
        win = cand.rerank_winners(games.gained, games.tiebreak, (0, 0, 0))
        for row, group in enumerate((games.group, np.arange(games.games))):
            _, low, high = cand.pair_intervals(win, group, 3, level=0.9)
            covered[row] += (low <= true_diff) & (true_diff <= high)
    rate = covered / reps
    assert (np.abs(rate[0] - 0.9) < 0.045).all(), rate[0]  # deal groups: nominal
    assert rate[1].min() < 0.85, rate[1]  # games as if independent: too narrow here


def _equal_deals(rng: np.random.Generator, deals: int, per_deal: int, p: list[float]
                 ) -> tuple[NDArray[np.int64], CellGames]:
    """Games of 3 seats whose winners are drawn with chances ``p``, in deals of equal size;
    the winner gains 5 VP, the others none (so the vector (0,0,0) keeps them)."""
    winners = rng.choice(3, size=(deals, per_deal), p=p)
    games = CellGames(np.eye(3, dtype=np.int64)[winners.reshape(-1)] * 5,
                      np.tile(np.arange(3), (deals * per_deal, 1)),
                      np.repeat(np.arange(deals), per_deal))
    return winners, games


def test_seat_intervals_are_simultaneous_deal_group_intervals() -> None:
    """Known answer: equal deal groups, so each seat's share is the mean of the groups'
    win fractions and its standard error theirs; the interval uses t at 2.5% / seats."""
    winners, games = _equal_deals(np.random.default_rng(12), 40, 6, [1 / 3] * 3)
    table = cand.win_table(games, [(0, 0, 0)])
    share, low, high = table.seat_intervals()
    fractions = np.stack([(winners == s).mean(axis=1) for s in range(3)], axis=1)
    se = fractions.std(axis=0, ddof=1) / np.sqrt(40)
    q = sps.t.ppf(1 - 0.05 / 6, 39)
    assert np.allclose(share[0], fractions.mean(axis=0))
    assert np.allclose(high[0] - share[0], q * se) and np.allclose(share[0] - low[0], q * se)


def test_a_seat_share_near_0_has_a_wilson_interval_inside_0_to_100() -> None:
    """A seat that rarely or never wins on few deals: the t interval reached below 0 (cut
    to [0, x]) or had no width ([0, 0] for a seat that never won). Now such a share's
    interval is Wilson's on the effective games: inside [0, 1], holding the share, and wider
    than nothing; a share well inside keeps its t interval."""
    rng = np.random.default_rng(15)
    winners, games = _equal_deals(rng, 30, 4, [0.49, 0.49, 0.02])
    winners[:, :] = np.where(winners == 2, 0, winners)  # seat 3 never wins...
    winners[0, 0] = 2  # ...but once
    games = CellGames(np.eye(3, dtype=np.int64)[winners.reshape(-1)] * 5, games.tiebreak,
                      games.group)
    share, low, high = cand.win_table(games, [(0, 0, 0)]).seat_intervals()
    assert ((low >= 0) & (low <= share) & (share <= high) & (high <= 1)).all()
    assert low[0, 2] > 0  # Wilson's: a share won once is not cut to 0 from below
    assert high[0, 2] > share[0, 2] + 0.01
    never = CellGames(games.gained * 0 + np.eye(3, dtype=np.int64)[winners.reshape(-1) % 2] * 5,
                      games.tiebreak, games.group)
    share, low, high = cand.win_table(never, [(0, 0, 0)]).seat_intervals()
    assert share[0, 2] == 0 and low[0, 2] == 0 and high[0, 2] > 0.02  # not [0, 0]
    assert ((low >= 0) & (high <= 1)).all()


def test_gap_interval_is_the_widest_of_the_simultaneous_pair_bounds() -> None:
    """Known answer: equal deal groups, so each pair's difference is the mean of the groups'
    win-fraction differences; the largest gap's interval runs from the largest lower bound
    on ``|p_i - p_j|`` (floored at 0) to the largest upper bound, t at 2.5% / pairs. Seat 1
    wins more often, so one pair's lower bound is above 0 and another's is floored; with
    equal seats every bound is floored."""
    winners, games = _equal_deals(np.random.default_rng(14), 60, 6, [0.5, 0.25, 0.25])
    table = cand.win_table(games, [(0, 0, 0)])
    diff, se = table.pair_stats()
    low, high = cand.gap_interval(diff, se, table.groups - 1)
    q = sps.t.ppf(1 - 0.05 / 6, 59)
    lows, highs = [], []
    for i, j in cand.pairs(3):
        per_deal = (winners == i).mean(axis=1) - (winners == j).mean(axis=1)
        half = q * per_deal.std(ddof=1) / np.sqrt(60)
        lows.append(max(abs(per_deal.mean()) - half, 0.0))
        highs.append(abs(per_deal.mean()) + half)
    assert min(lows) == 0.0 < max(lows)  # the cases the test means to cover
    assert (low[0], high[0]) == pytest.approx((max(lows), max(highs)))
    assert low[0] <= table.gaps[0] <= high[0]
    wider_low, wider_high = cand.gap_interval(diff, se, table.groups - 1, level=0.99)
    assert wider_low[0] < low[0] and wider_high[0] > high[0]
    _, even = _equal_deals(np.random.default_rng(15), 30, 6, [1 / 3] * 3)
    diff, se = cand.win_table(even, [(0, 0, 0)]).pair_stats()
    assert (np.abs(diff) < 3 * se).all()  # equal seats: every pair's bound falls below 0
    assert cand.gap_interval(diff, se, 29)[0][0] == 0.0


# --------------------------------------------------------------------- choice rules

def test_choice_rule_gap_then_fewest_vp_then_lexicographic() -> None:
    vectors = [(0, 1, 2), (0, 0, 1), (0, 0, -1), (0, 1, 0), (0, 0, 0)]
    assert cand.rank_by_gap(vectors, [0, 5, 5, 3, 9], (0, 0, 0)).tolist() == [0, 3, 2, 1, 4]
