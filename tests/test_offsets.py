"""cdsim.analysis.offsets: the fair offset per seat and its cluster-bootstrap interval,
against synthetic cells whose fair point is known exactly (``cdsim.analysis.synthetic``).
``.venv/bin/python -m tests.test_offsets [cells]`` runs the measurement in docs/statistics.md."""

from __future__ import annotations

import numpy as np
import pytest

from cdsim.analysis.candidates import CellGames
from cdsim.analysis.offsets import box, exact_point, fair_offsets, interpolate, solve
from cdsim.analysis.synthetic import Synth, dnorm
from cdsim.errors import CdsimError
from tests.scenarios import at_most

# seat 1 is 1.3 VP ahead on average; a deal favours a seat in both rotations (clustered)
TWO = Synth((dnorm(1.3, 4), dnorm(0, 4)), skill=dnorm(0, 2), deal=dnorm(0, 2))
THREE = Synth((dnorm(2.3, 3), dnorm(1, 3), dnorm(0, 3)), skill=dnorm(0, 2), deal=dnorm(0, 1.5))


def test_interpolation_and_newton_recover_a_known_plane() -> None:
    """On shares that are exactly linear in the offsets the interpolation is exact and the
    fair point is the plane's root."""
    lo = np.array([-2, -1])
    axes = np.meshgrid(np.arange(-2, 3), np.arange(-1, 4), indexing="ij")
    values = np.stack([0.03 * (axes[0] - 0.4) + 0.01 * (axes[1] - 1.7),
                       0.005 * (axes[0] - 0.4) + 0.02 * (axes[1] - 1.7)], axis=-1)[None]
    x = solve(values, lo, np.zeros((1, 2)))[0]
    assert x == pytest.approx([0.4, 1.7], abs=1e-9)
    at_half = interpolate(values, lo, np.array([[0.5, 2.5]]))[0]
    assert at_half == pytest.approx([0.03 * 0.1 + 0.01 * 0.8, 0.005 * 0.1 + 0.02 * 0.8])


def test_a_batch_solves_each_row_as_alone() -> None:
    """``solve`` works on a whole batch at once (every resample of the bootstrap, each point
    with its nudged copies in one interpolation): each row's point is the one it has solved
    alone, bit for bit, also where Newton does not converge (NaN)."""
    rng = np.random.default_rng(3)
    for d in (1, 2, 3):
        values = rng.normal(size=(40, *(5,) * d, d))
        lo = rng.integers(-3, 3, size=d)
        start = lo + 2 + 2 * rng.normal(size=(40, d))
        whole = solve(values, lo, start)
        alone = np.concatenate([solve(values[i:i + 1], lo, start[i:i + 1]) for i in range(40)])
        assert np.isnan(whole).any() and np.isfinite(whole).any()
        assert whole.tobytes() == alone.tobytes()
        points = start + 0.3 * rng.normal(size=start.shape)
        assert interpolate(values, lo, points).tobytes() == np.concatenate(
            [interpolate(values[i:i + 1], lo, points[i:i + 1]) for i in range(40)]).tobytes()


def test_two_players_the_fair_offset_is_the_median_margin() -> None:
    """Symmetric VP distributions: the median of seat 1's margin is its mean lead, 1.3 VP;
    the estimate on many games is close to it."""
    truth = exact_point(TWO.true_shares(box((0, 0), 6)), (0, 0), 6)
    assert truth[0] == pytest.approx(1.3, abs=0.01)
    (est,) = fair_offsets(TWO.play(np.random.default_rng(1), 40_000), (0, 0), resamples=50)
    assert est.offset == pytest.approx(1.3, abs=0.08) and est.low < est.offset < est.high


def coverage(cell: Synth, rulebook: tuple[int, ...], centre: tuple[int, ...], games: int,
             reps: int, seed: int, resamples: int) -> tuple[list[int], float]:
    """How often each seat's interval misses the exact fair offset, and the mean width."""
    truth = exact_point(cell.true_shares(box(centre, 2 if len(centre) > 2 else 6)), centre,
                        2 if len(centre) > 2 else 6) - rulebook[0]
    misses = [0] * len(truth)
    width = 0.0
    for i in range(reps):
        data = cell.play(np.random.default_rng([seed, i]), games)
        got = fair_offsets(data, rulebook, around=centre, radius=2, resamples=resamples, seed=i)
        for s, (f, t) in enumerate(zip(got, truth, strict=True)):
            misses[s] += not f.low <= t <= f.high
        width += float(np.mean([f.high - f.low for f in got])) / reps
    return misses, width


def test_two_player_interval_covers_95_percent() -> None:
    """95% intervals cover the exact fair offset in about 95% of 150 cells of 1,200 games.
    Resampling games instead of deal groups, or halving the interval, falls clearly short."""
    misses, width = coverage(TWO, (0, 0), (0, 0), 1200, 150, 91, 200)
    assert at_most(misses[0], 150, 0.05) and misses[0] >= 1, misses
    assert 0.2 < width < 2.0, width


def test_three_player_intervals_cover_95_percent() -> None:
    """The same at 3 players, the two offsets solved jointly (50 cells of 3,000 games)."""
    misses, _ = coverage(THREE, (0, 0, 0), (0, 1, 2), 3000, 50, 92, 120)
    assert all(at_most(m, 50, 0.05) for m in misses), misses


def test_the_same_seed_gives_the_same_interval_and_stages_concatenate() -> None:
    rng = np.random.default_rng(93)
    a, b = TWO.play(rng, 600), TWO.play(rng, 600)
    one = fair_offsets([a, b], (0, 0), resamples=100, seed=4)
    assert one == fair_offsets(CellGames.concat(a, b), (0, 0), resamples=100, seed=4)
    assert one != fair_offsets([a, b], (0, 0), resamples=100, seed=5)
    with pytest.raises(CdsimError):
        fair_offsets(a, (0, 0, 0))


def measure(reps: int) -> None:  # pragma: no cover - by hand
    """The coverage figures of docs/statistics.md."""
    for name, cell, rulebook, centre, games in (("2 players", TWO, (0, 0), (0, 0), 1200),
                                                 ("3 players", THREE, (0, 0, 0), (0, 1, 2), 3000)):
        misses, width = coverage(cell, rulebook, centre, games, reps, 1000, 400)
        cover = ", ".join(f"{1 - m / reps:.3f}" for m in misses)
        print(f"{name}: {reps} cells of {games:,} games, coverage per seat {cover}, "
              f"mean width {width:.2f} VP", flush=True)


if __name__ == "__main__":
    import sys

    measure(int(sys.argv[1]) if len(sys.argv) > 1 else 400)
