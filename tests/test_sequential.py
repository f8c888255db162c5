"""cdsim.analysis.sequential: re-ranking, deal-group intervals, the schedule, the choice rules,
and the error rates of the staged verdicts on synthetic cells whose truth is known exactly.

Synthetic cells (``cdsim.analysis.synthetic``): exact win shares, deal groups correlated as
in a real study. The tolerances are larger than the study's 0.02 so that a
cell needs thousands of games, not hundreds of thousands; the error rates do not depend on
that scale.

``.venv/bin/python tests/test_sequential.py [cells] [scenario ...]`` runs the larger
measurement quoted in docs/statistics.md (default 2,000 cells per scenario).
"""

from __future__ import annotations

import itertools
import math
import sys
import zlib
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from functools import cache

import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st
from numpy.typing import NDArray
from scipy import optimize
from scipy import stats as sps

from cdsim.analysis import sequential as seq
from cdsim.analysis.sequential import CellGames, Schedule
from cdsim.analysis.synthetic import Synth, dnorm
from cdsim.errors import CdsimError


def _twin_cell() -> Synth:
    """2 players, fine VP: seat 1's mean solved so that (0,0) and (0,1) sit at +g and -g."""
    def cell(mu: float) -> Synth:
        return Synth((dnorm(mu, 3.0), dnorm(0.0, 3.0)), skill=dnorm(0, 1.5))

    def asymmetry(mu: float) -> float:
        sh = cell(mu).true_shares([(0, 0), (0, 1)])
        return float((sh[:, 0] - sh[:, 1]).sum())

    return cell(float(optimize.brentq(asymmetry, 0.0, 2.0, xtol=1e-13)))


@dataclass(frozen=True)
class Scenario:
    """A synthetic cell with the procedure's settings. ``tol=None``: the tolerance is the
    cell's smallest true gap, so the best vector sits exactly on the boundary."""

    cell: Synth
    rulebook: tuple[int, ...]
    radius: int
    tol: float | None
    budget: int
    first: int
    m: int = 3
    truth: dict[tuple[int, ...], float] = field(default_factory=dict, compare=False)

    @property
    def vectors(self) -> NDArray[np.int64]:
        return seq.candidates(self.rulebook, self.radius)

    @property
    def gaps(self) -> dict[tuple[int, ...], float]:
        if not self.truth:
            v = self.vectors
            self.truth.update({tuple(int(x) for x in row): float(g)
                               for row, g in zip(v, self.cell.true_gaps(v), strict=True)})
        return self.truth

    @property
    def tolerance(self) -> float:
        return min(self.gaps.values()) if self.tol is None else self.tol


@cache
def scenario(name: str) -> Scenario:
    return {
        # (a) (0,1,2) makes the three seats identical: true gap 0; its neighbours are >= 0.10
        "fair": Scenario(Synth((dnorm(2, 3), dnorm(1, 3), dnorm(0, 3)), skill=dnorm(0, 2),
                               deal=dnorm(0, 1.5)), (0, 0, 0), 2, 0.06, 6000, 300),
        # (b) VP in steps of 4: a 1-VP shift only decides ties; the best gap is 0.070 > 2 tol
        "unfair": Scenario(Synth((dnorm(3, 5, 4), dnorm(0, 5, 4), dnorm(0, 5, 4)),
                                 deal=dnorm(0, 4, 4)), (0, 0, 0), 2, 0.03, 6000, 300),
        # (c) one vector class exactly on the boundary, every other far from it
        "border": Scenario(Synth((dnorm(1.5, 4, 4), dnorm(0, 4, 4)), skill=dnorm(0, 4, 4)),
                           (0, 0), 3, None, 4000, 200),
        # two vectors exactly on the boundary on either side (the next are 16 pp further),
        # both tested at each stage (m = 2): without Bonferroni the rate would double
        "twin": Scenario(_twin_cell(), (0, 0), 3, None, 4000, 200, m=2),
        # 3 players whose mean VP differ by thirds: three vectors are the same cell up to a
        # permutation of the seats, so all three sit exactly on the boundary (the next are
        # 8 pp further), and all three are tested at each stage: Bonferroni matters
        "thirds": Scenario(Synth(tuple(dnorm(q / 3, 3) for q in range(3)), skill=dnorm(0, 1.5),
                                 deal=dnorm(0, 1)), (0, 0, 0), 1, None, 3000, 150),
        # 4 players whose mean VP differ by quarters: four vectors are the same cell up to
        # a permutation of the seats, so all four sit exactly on the boundary, the next are
        # 5 pp further; one is tested per stage (m = 1), so a choice made on the tested games
        # would pick the luckiest of four (the winner's curse)
        "curse": Scenario(Synth(tuple(dnorm(q / 4, 3) for q in range(4)), skill=dnorm(0, 1.5),
                                deal=dnorm(0, 1)), (0, 0, 0, 0), 1, None, 4000, 200, m=1),
        # study scale, for the measurement only (python tests/test_sequential.py): 4 players,
        # VP spread like a real game, tol 0.02; (0,1,2,2) is exactly fair, its neighbours
        # are 2.3 pp apart ("study") or it is 1.2 pp apart and they 2.4 pp ("study-near")
        "study": Scenario(Synth((dnorm(2, 12), dnorm(1, 12), dnorm(0, 12), dnorm(0, 12)),
                                skill=dnorm(0, 8), deal=dnorm(0, 3)),
                          (0, 0, 0, 0), 2, 0.02, 200_000, 12_500),
        "study-near": Scenario(Synth((dnorm(2.5, 12), dnorm(1, 12), dnorm(0, 12), dnorm(0, 12)),
                                     skill=dnorm(0, 8), deal=dnorm(0, 3)),
                               (0, 0, 0, 0), 2, 0.02, 200_000, 12_500),
    }[name]


@dataclass
class Tally:
    cells: int = 0
    confirmed_right: int = 0
    confirmed_wrong: int = 0  # the confirmed vector's true gap is >= tol (the boundary counts)
    no_fair_right: int = 0
    no_fair_wrong: int = 0  # some candidate's true gap is <= tol
    undecided: int = 0
    games: int = 0

    def row(self) -> str:
        c = self.cells
        return (f"{c} cells: confirmed {self.confirmed_right / c:.3f} right, "
                f"{self.confirmed_wrong / c:.4f} wrong; no fair vector {self.no_fair_right / c:.3f} "
                f"right, {self.no_fair_wrong / c:.4f} wrong; undecided {self.undecided / c:.3f}; "
                f"mean games {self.games / c:.0f}")


EPS = 1e-9


def run_cells(sc: Scenario, alpha: float, cells: int, seed: int) -> Tally:
    """Run ``cells`` independent cells of a scenario through ``decide`` and score each verdict
    against the exact truth."""
    tol = sc.tolerance
    schedule = Schedule.doubling(sc.budget, sc.first, alpha, multiple=sc.cell.players)
    fair_exists = min(sc.gaps.values()) <= tol + EPS
    tally = Tally()
    for i in range(cells):
        rng = np.random.default_rng([seed, i])

        def play(_stage: int, games: int, rng: np.random.Generator = rng) -> CellGames:
            return sc.cell.play(rng, games)

        d = seq.decide(play, schedule, sc.rulebook, tol=tol, radius=sc.radius, m=sc.m)
        tally.cells += 1
        tally.games += d.games
        if d.decision == "confirmed":
            if sc.gaps[d.vector] >= tol - EPS:
                tally.confirmed_wrong += 1
            else:
                tally.confirmed_right += 1
        elif d.decision == "no fair vector":
            if fair_exists:
                tally.no_fair_wrong += 1
            else:
                tally.no_fair_right += 1
        else:
            tally.undecided += 1
    return tally


def at_most(count: int, cells: int, bound: float) -> bool:
    """``count`` of ``cells`` is consistent with a rate <= bound (one-sided binomial, 0.1%)."""
    return bool(sps.binom.sf(count - 1, cells, bound) > 1e-3)


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
    assert seq.rerank_winners(gained, tb, vector).tolist() == expected
    table = seq.win_table(CellGames(gained, tb, np.arange(len(gained))), vector[None, :])
    assert table.wins[0].tolist() == np.bincount(expected, minlength=len(vector)).tolist()


def test_win_table_blocks_concat_and_sums() -> None:
    rng = np.random.default_rng(3)
    cell = scenario("fair").cell
    a, b = cell.play(rng, 600), cell.play(rng, 300)  # both label their deals 0, 1, ...
    vectors = seq.candidates((0, 0, 0), 2)
    whole = seq.win_table(CellGames.concat(a, b), vectors)
    parts = seq.win_table(a, vectors) + seq.win_table(b, vectors, max_cells=1)  # one at a time
    for name in ("wins", "cross", "wm"):
        assert np.allclose(getattr(whole, name), getattr(parts, name))
    assert (whole.games, whole.groups, whole.size_sq) == (parts.games, parts.groups, parts.size_sq)
    assert (whole.wins.sum(axis=1) == 900).all()
    assert np.allclose(seq.win_share_matrix(a.gained, a.tiebreak, vectors).sum(axis=1), 1)


def test_memory_stays_bounded_for_four_players_radius_six() -> None:
    vectors = seq.candidates((0, 1, 2, 3), 6)
    assert vectors.shape == (13**3, 4) and (vectors[:, 0] == 0).all()
    assert seq.block_size(len(vectors), 100_000, 4) * 100_000 * 4 <= seq.MAX_CELLS
    rng = np.random.default_rng(4)
    games = Synth(tuple(dnorm(i, 3) for i in range(4)), skill=dnorm(0, 2)).play(rng, 800)
    small = seq.win_table(games, vectors, max_cells=800 * 4 * 7)  # blocks of 7 vectors
    assert np.array_equal(small.wins, seq.win_table(games, vectors).wins)


def test_exact_truth_matches_simulation() -> None:
    """The synthetic truth is right: exact shares vs 90,000 simulated games, per vector and
    seat within 4.5 deal-group standard errors."""
    rng = np.random.default_rng(5)
    for name in ("fair", "curse", "border"):
        sc = scenario(name)
        games = sc.cell.play(rng, 90_000)
        table = seq.win_table(games, sc.vectors)
        exact = sc.cell.true_shares(sc.vectors)
        # one seat's share against the rest: its variance from the same group statistics
        w = table.cross[:, np.arange(sc.cell.players), np.arange(sc.cell.players)]
        p = table.shares
        ss = w - 2 * p * table.wm + p**2 * table.size_sq
        se = np.sqrt(np.maximum(ss, 1e-12)) / table.games
        assert (np.abs(p - exact) < 4.5 * se + 1e-9).all(), name


# ------------------------------------------------------------------- pair intervals

def test_pair_intervals_equal_groups_are_the_mean_of_group_fractions() -> None:
    rng = np.random.default_rng(6)
    games = Synth((dnorm(1, 3), dnorm(0, 3), dnorm(0, 3)), skill=dnorm(0, 2)).play(rng, 300)
    win = seq.rerank_winners(games.gained, games.tiebreak, (0, 0, 0))
    diff, low, high = seq.pair_intervals(win, games.group, 3, level=0.9)
    t = sps.t.ppf(0.95, 99)
    for k, (i, j) in enumerate(seq.pairs(3)):
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
    true_diff = np.array([truth[i] - truth[j] for i, j in seq.pairs(3)])
    reps = 400
    rng = np.random.default_rng(7)
    covered = np.zeros((2, 3))
    for _ in range(reps):
        games = cell.play(rng, 180)
        win = seq.rerank_winners(games.gained, games.tiebreak, (0, 0, 0))
        for row, group in enumerate((games.group, np.arange(games.games))):
            _, low, high = seq.pair_intervals(win, group, 3, level=0.9)
            covered[row] += (low <= true_diff) & (true_diff <= high)
    rate = covered / reps
    assert (np.abs(rate[0] - 0.9) < 0.045).all(), rate[0]  # deal groups: nominal
    assert rate[1].min() < 0.85, rate[1]  # games as if independent: too narrow here


# ------------------------------------------------------------------------- schedule

@given(st.integers(1, 2_000_000), st.integers(1, 100_000), st.integers(1, 4),
       st.floats(1e-4, 0.5))
def test_schedule_spends_at_most_alpha(budget: int, first: int, multiple: int, alpha: float) -> None:
    size = -(-first // multiple) * multiple
    assume(size <= budget // multiple * multiple)
    s = Schedule.doubling(budget, first, alpha, multiple)
    assert math.fsum(s.alphas) <= alpha
    assert len(s.sizes) == len(s.alphas)
    assert s.budget == budget // multiple * multiple
    assert all(x % multiple == 0 for x in s.sizes)
    assert s.sizes[0] == size or len(s.sizes) == 1
    assert all(b == 2 * a for a, b in itertools.pairwise(s.sizes[:-1]))
    if len(s.sizes) > 1:
        assert s.sizes[-1] >= 2 * s.sizes[-2]
    assert np.allclose(np.array(s.alphas) / np.array(s.sizes), alpha / s.budget)


def test_schedule_rejects_bad_input() -> None:
    with pytest.raises(CdsimError):
        Schedule.doubling(100, 200)
    with pytest.raises(CdsimError):
        Schedule((100, 100), (0.03, 0.03), 0.05)
    with pytest.raises(CdsimError):
        Schedule((100,), (0.01,), 1.5)
    assert Schedule.doubling(10_000, 1000, multiple=3).sizes == (1002, 2004, 6993)


# --------------------------------------------------------------------- choice rules

def test_choice_rule_fewest_vp_then_gap_then_lexicographic() -> None:
    vectors = [(0, 1, 2), (0, 0, 1), (0, 0, -1), (0, 1, 0), (0, 0, 0)]
    # (0,0,0) is not among the passing ones here; (0,1,2) has the smallest gap but moves 3 VP
    assert seq.choose_vector(vectors[:4], [0, 5, 5, 7], (0, 0, 0)) == 2  # tie on gap: lex
    assert seq.choose_vector(vectors[:4], [0, 5, 4, 3], (0, 0, 0)) == 3
    assert seq.choose_vector(vectors, [0, 5, 4, 3, 9], (0, 0, 0)) == 4  # the rulebook first
    assert seq.rank_by_gap(vectors, [0, 5, 5, 3, 9], (0, 0, 0)).tolist() == [0, 3, 2, 1, 4]


def test_shown_unfair_corrects_for_pairs_and_tost_for_nothing() -> None:
    """The per-pair level of the unfair test is alpha / pairs; the TOST is at alpha itself."""
    df, tol, a = 10_000, 0.02, 0.05
    z1, z3 = float(sps.t.ppf(1 - a, df)), float(sps.t.ppf(1 - a / 3, df))
    se = np.full((1, 3), 0.01)
    between = tol + 0.5 * (z1 + z3) * 0.01  # beyond the one-pair bound, within Bonferroni's
    assert not seq.shown_unfair(np.array([[between, 0, 0]]), se, df, tol, a)[0]
    assert seq.shown_unfair(np.array([[tol + 1.01 * z3 * 0.01, 0, 0]]), se, df, tol, a)[0]
    assert seq.tost(np.array([[tol - 1.01 * z1 * 0.01, 0, 0]]), se, df, tol, a)[0]
    assert not seq.tost(np.array([[tol - 0.99 * z1 * 0.01, 0, 0]]), se, df, tol, a)[0]


def test_stage_chooses_on_fit_and_tests_on_fresh() -> None:
    """Stage 0 tests the rulebook vector alone; later the tested vectors come from the fitting
    games and the verdict from the fresh ones: many fitting games of another cell (where
    (0,0,0) is fair) make the stage test the wrong vectors, and it confirms nothing (tested
    on the fitting games, or on all games, (0,0,0) would pass)."""
    rng = np.random.default_rng(8)
    fair = scenario("fair").cell  # (0,1,2) is fair
    other = Synth((dnorm(0, 3), dnorm(0, 3), dnorm(0, 3)), skill=dnorm(0, 2))  # (0,0,0) is
    fresh = fair.play(rng, 6000)
    first = seq.decide_stage(CellGames.empty(3), fresh, (0, 0, 0), 0.05, 0.05, radius=2)
    assert first.tested == ((0, 0, 0),) and first.decision == "undecided"
    assert first.games_needed is not None and first.games_fit == 0
    good = seq.decide_stage(fair.play(rng, 3000), fresh, (0, 0, 0), 0.05, 0.05, radius=2)
    assert good.decision == "confirmed" and good.vector == (0, 1, 2)
    assert good.tested[0] == (0, 1, 2) and len(good.tested) <= 3
    assert good.gap_interval[0] <= good.largest_gap <= good.gap_interval[1] < 0.05
    assert (good.games_fit, good.games_confirm) == (3000, 6000)
    misled = seq.decide_stage(other.play(rng, 60_000), fresh, (0, 0, 0), 0.05, 0.05, radius=2)
    assert (0, 1, 2) not in misled.tested and misled.decision == "undecided"


def test_decide_plays_the_schedule_until_decided() -> None:
    cell = scenario("fair").cell
    rng = np.random.default_rng(9)
    calls: list[tuple[int, int]] = []

    def play(stage: int, games: int) -> CellGames:
        calls.append((stage, games))
        return cell.play(rng, games)

    schedule = Schedule.doubling(60_000, 3000, 0.05, multiple=3)
    d = seq.decide(play, schedule, (0, 0, 0), tol=0.05, radius=2)
    assert d.decision == "confirmed" and d.vector == (0, 1, 2)
    assert calls == [(k, schedule.sizes[k]) for k in range(len(calls))]
    assert len(d.stages) == len(calls) < len(schedule.sizes)
    assert d.games == sum(s for _, s in calls)
    assert "0/1/2" in d.explain()
    budget = Schedule.doubling(900, 300, 0.05, multiple=3)
    short = seq.decide(lambda _k, g: cell.play(rng, g), budget, (0, 0, 0), tol=0.05, radius=2)
    assert short.decision == "undecided" and short.games == 900
    assert short.games_needed is not None and short.games_needed > 900
    assert "more games" in short.explain()


def test_decide_played_is_decide_on_the_same_stages() -> None:
    """A driver that plays the stages itself (the study) reaches the verdict ``decide``
    reaches on the same games, and knows when to play on (``pending``)."""
    cell = scenario("fair").cell
    schedule = Schedule.doubling(60_000, 3000, 0.05, multiple=3)
    vectors = seq.candidates((0, 0, 0), 2)
    stages = [cell.play(np.random.default_rng([11, k]), size)
              for k, size in enumerate(schedule.sizes)]
    whole = seq.decide(lambda k, _g: stages[k], schedule, (0, 0, 0), tol=0.05, radius=2)
    tables = [seq.win_table(g, vectors) for g in stages]
    for k in range(1, len(stages) + 1):
        part = seq.decide_played(tables[:k], schedule, (0, 0, 0), tol=0.05)
        assert part.pending == (k < len(whole.stages))
        if not part.pending:
            assert replace(part, pending=False) == whole  # the stages after it change nothing
    first = seq.decide_played(tables[:1], schedule, (0, 0, 0), tol=0.05)
    assert first.pending and "stages left" in first.explain()
    with pytest.raises(CdsimError):
        seq.decide_played([], schedule, (0, 0, 0))


def test_seat_intervals_are_simultaneous_deal_group_intervals() -> None:
    """Known answer: equal deal groups, so each seat's share is the mean of the groups'
    win fractions and its standard error theirs; the interval uses t at 2.5% / seats."""
    rng = np.random.default_rng(12)
    winners = rng.integers(0, 3, size=(40, 6))  # 40 deals of 6 games
    games = CellGames(np.eye(3, dtype=np.int64)[winners.reshape(-1)] * 5,
                      np.tile(np.arange(3), (240, 1)), np.repeat(np.arange(40), 6))
    table = seq.win_table(games, [(0, 0, 0)])
    share, low, high = table.seat_intervals()
    fractions = np.stack([(winners == s).mean(axis=1) for s in range(3)], axis=1)
    se = fractions.std(axis=0, ddof=1) / np.sqrt(40)
    q = sps.t.ppf(1 - 0.05 / 6, 39)
    assert np.allclose(share[0], fractions.mean(axis=0))
    assert np.allclose(high[0] - share[0], q * se) and np.allclose(share[0] - low[0], q * se)


@pytest.mark.parametrize(("players", "gap"), [(2, 0.0), (4, 0.01)])
def test_equivalence_games_give_the_stated_power(players: int, gap: float) -> None:
    """``cdsim power``'s equivalence answer: at that many independent games, a vector whose
    seats truly lie ``gap`` apart passes the all-pairs TOST (multinomial variances) at least
    about 80% of the time, and at half as many clearly less often."""
    tol, alpha = 0.02, 0.05
    n = seq.equivalence_games(players, gap, tol, alpha)
    assert n is not None
    if players == 2:  # closed form: 2 Phi(z - tol sqrt(n)) = 0.2
        assert n == pytest.approx(((sps.norm.ppf(0.95) + sps.norm.ppf(0.9)) / tol) ** 2, rel=1e-3)
    p = np.full(players, 1 / players)
    p[0] += gap / 2
    p[-1] -= gap / 2
    i, j = (np.array(x) for x in zip(*seq.pairs(players), strict=True))
    rng = np.random.default_rng(13)

    def passes(games: int) -> float:
        wins = rng.multinomial(games, p, size=2000) / games
        d = wins[:, i] - wins[:, j]
        se = np.sqrt((wins[:, i] + wins[:, j] - d**2) / games)
        z = sps.norm.ppf(1 - alpha)
        return float(((np.abs(d) + z * se) < tol).all(axis=1).mean())

    assert passes(n) >= 0.77
    assert passes(n // 2) < 0.7
    assert seq.equivalence_games(players, tol, tol) is None
    assert seq.equivalence_games(players, gap, tol, deff=2.0) >= 2 * n - players  # type: ignore[operator]


def test_games_needed_gives_the_stated_power() -> None:
    """At ``games_for_power``'s answer for the true differences and variances, a confirmation
    stage passes about 80% of the time (at least; each pair gets more than 80%)."""
    cell = scenario("fair").cell
    rng = np.random.default_rng(10)
    vector, tol, alpha = (0, 1, 2), 0.05, 0.005
    big = seq.win_table(cell.play(rng, 300_000), np.array([vector]))
    _, se = big.pair_stats()
    true_diff = np.zeros(3)  # the three seats are identical under (0,1,2)
    games = seq.games_for_power(true_diff, se[0] ** 2 * big.games, tol, alpha, multiple=3)
    assert games is not None and games % 3 == 0
    passed = 0
    for _ in range(300):
        t = seq.win_table(cell.play(rng, games), np.array([vector]))
        diff, s = t.pair_stats()
        passed += bool(seq.tost(diff, s, t.groups - 1, tol, alpha)[0])
    assert 0.75 <= passed / 300 <= 0.97, (games, passed)
    assert seq.games_for_power([0.0, 0.05], [0.5, 0.5], tol, alpha) is None


# -------------------------------------------------------------------- error rates

@pytest.mark.parametrize(("name", "alpha", "cells"), [
    ("border", 0.05, 400), ("twin", 0.05, 400), ("thirds", 0.05, 300), ("curse", 0.05, 300),
    ("curse", 0.3, 400),
])
def test_error_rates_hold_on_the_boundary(name: str, alpha: float, cells: int) -> None:
    """Best vector exactly on the boundary (true gap = tol): a confirmation is counted wrong
    (the limit of a vector just over tol) and so is a "no fair vector" call. Wrong
    confirmations stay within alpha/2, wrong "no fair" calls within alpha/2 (binomial
    margin). The larger alpha makes the check sharp enough to catch vectors chosen on the
    games they are tested on (curse: the luckiest of four boundary vectors)."""
    sc = scenario(name)
    t = run_cells(sc, alpha, cells, seed=zlib.crc32(name.encode()) + int(alpha * 100))
    share = seq.CONFIRM_SHARE
    assert at_most(t.confirmed_wrong, t.cells, alpha * share), t.row()
    assert at_most(t.no_fair_wrong, t.cells, alpha * (1 - share)), t.row()
    assert at_most(t.confirmed_wrong + t.no_fair_wrong, t.cells, alpha), t.row()
    assert t.confirmed_right == 0 and t.no_fair_right == 0  # everything decided is wrong here


def test_one_stage_bonferroni_over_tested_vectors() -> None:
    """One stage at alpha_k = 0.2 in the twin cell, where both tested vectors sit exactly on
    the boundary (on opposite sides, so at most one passes): wrong confirmations stay within
    alpha_k/2 = 0.1; testing each at alpha_k/2 instead of alpha_k/4 would make them 0.2."""
    sc = scenario("twin")
    vectors = sc.vectors
    rng = np.random.default_rng(13)
    cells, wrong, both, alpha_k = 800, 0, 0, 0.2
    for _ in range(cells):
        fit = seq.win_table(sc.cell.play(rng, 400), vectors)
        fresh = seq.win_table(sc.cell.play(rng, 1600), vectors)
        d = seq.decide_tables(1, fit, fresh, sc.rulebook, sc.tolerance, alpha_k, m=2)
        both += set(d.tested) == {(0, 0), (0, 1)}
        wrong += d.decision == "confirmed"
    assert both >= 0.95 * cells  # the two boundary vectors are near-tied on the fitting games
    assert at_most(wrong, cells, alpha_k * seq.CONFIRM_SHARE), wrong / cells


def test_power_and_errors_in_a_fair_cell() -> None:
    sc = scenario("fair")
    t = run_cells(sc, 0.05, 150, seed=11)
    assert at_most(t.confirmed_wrong, t.cells, 0.025), t.row()
    assert t.no_fair_wrong == 0, t.row()
    assert t.confirmed_right >= 0.75 * t.cells, t.row()


def test_power_and_errors_in_an_unfair_cell() -> None:
    sc = scenario("unfair")
    assert min(sc.gaps.values()) > 2 * sc.tolerance  # the cell is what it says
    t = run_cells(sc, 0.05, 150, seed=12)
    assert t.confirmed_wrong == 0 or at_most(t.confirmed_wrong, t.cells, 0.025), t.row()
    assert t.no_fair_right >= 0.75 * t.cells, t.row()


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


# ------------------------------------------------------------------- measurement

def measure(cells: int, names: Sequence[str]) -> None:  # pragma: no cover - by hand
    """The table of docs/statistics.md: each scenario's verdicts over ``cells`` cells (the
    study-scale ones over a fiftieth: each plays up to 200,000 games)."""
    runs = [("fair", 0.05), ("unfair", 0.05), ("border", 0.05), ("twin", 0.05), ("thirds", 0.05),
            ("curse", 0.05), ("curse", 0.3), ("study", 0.05), ("study-near", 0.05)]
    for name, alpha in runs:
        if names and name not in names:
            continue
        sc = scenario(name)
        count = max(1, cells // 50) if name.startswith("study") else cells
        t = run_cells(sc, alpha, count, seed=1000 + int(alpha * 100))
        print(f"{name:10s} alpha={alpha:<5} tol={sc.tolerance:.4f}  {t.row()}", flush=True)


if __name__ == "__main__":
    measure(int(sys.argv[1]) if len(sys.argv) > 1 else 2000, sys.argv[2:])
