"""cdsim.analysis.anytime and boundary: the normal-mixture evidence, and the error rates of the
anytime verdicts on synthetic cells whose truth is known exactly (``cdsim.analysis.synthetic``;
the scenarios of tests/scenarios.py), including cells stopped undecided and extended.

Error rates are measured with many small stages (a look after each), where a confidence
sequence comes closest to its stated level, and at alpha = 0.3 where a 15% bound makes a
few hundred cells a sharp check. ``.venv/bin/python -m tests.test_anytime [cells]`` runs
the larger measurement quoted in docs/statistics.md.
"""

from __future__ import annotations

import math
import sys
import zlib
from dataclasses import dataclass, replace

import numpy as np
import pytest
from scipy import integrate
from scipy import stats as sps

from cdsim.analysis import anytime as at
from cdsim.analysis import predict
from cdsim.analysis.boundary import Mixture, best_rho, boundary_z, log_evidence
from cdsim.analysis.candidates import WinTable, win_table
from cdsim.analysis.synthetic import Synth, dnorm
from cdsim.errors import CdsimError
from tests.scenarios import EPS, Scenario, at_most, scenario

# ------------------------------------------------------------------------- the boundary

MIX = Mixture.design(100, 0.0125)


@pytest.mark.parametrize(("z", "t", "rho"), [(0.5, 10, 3.0), (2.0, 400, 50.0), (-1.0, 30, 7.0),
                                             (3.3, 5000, 600.0)])
def test_log_evidence_is_the_half_normal_mixture(z: float, t: int, rho: float) -> None:
    """The closed form is the mixture over lambda >= 0 (half-normal prior, precision rho) of
    exp(lambda s - lambda^2 t / 2), s = z sqrt(t), integrated numerically."""
    s = z * math.sqrt(t)
    scale = 1 / math.sqrt(t + rho)

    def integrand(u: float) -> float:  # lambda = u * scale keeps the integrand near unit width
        lam = u * scale
        return (2 * math.sqrt(rho / (2 * math.pi)) * scale
                * math.exp(lam * s - lam * lam * (t + rho) / 2))

    value, _ = integrate.quad(integrand, 0, np.inf, limit=200)
    assert float(log_evidence(z, t, rho)) == pytest.approx(math.log(value), rel=1e-6, abs=1e-9)


def test_boundary_solves_the_evidence_and_is_tightest_at_its_design() -> None:
    """Robbins' mixture alone is tightest at its design (3.28 standard errors at 1.25%, one
    look would need 2.24); with 80% on the single bet tuned there it is about 3.05 there,
    and within 10% of Robbins' alone four times earlier or later."""
    rho, a = best_rho(1000, 0.0125), 0.0125
    t = np.array([50.0, 250.0, 1000.0, 4000.0, 20_000.0])
    z = boundary_z(t, a, rho)
    assert np.allclose(log_evidence(z, t, rho), math.log(1 / a), atol=1e-6)
    assert int(np.argmin(z)) == 2 and 3.2 < z[2] < 3.35
    mix = Mixture.design(1000, a)
    zm = mix.z_at(t, a)
    assert np.allclose(mix.log_evidence(zm, t), math.log(1 / a), atol=1e-6)
    assert int(np.argmin(zm)) == 2 and 2.95 < zm[2] < 3.12
    assert (zm[[1, 3]] < 1.1 * z[[1, 3]]).all(), (zm, z)


def test_a_null_walk_crosses_the_boundary_at_most_alpha_of_the_time() -> None:
    """Gaussian groups, variance known, a look after every group for 3,000 groups: the
    e-process in use crosses 1/alpha in at most alpha of the walks and not far below it
    (Ville's bound is nearly attained by a continuously watched martingale). Halving or
    doubling the boundary fails this."""
    rng = np.random.default_rng(21)
    a, paths, steps = 0.05, 4000, 3000
    mix = Mixture.design(500, a)
    crossed = np.zeros(paths, dtype=bool)
    s = np.zeros(paths)
    for start in range(0, steps, 500):  # in blocks: 4,000 x 500 normals at a time
        walk = s[:, None] + np.cumsum(rng.standard_normal((paths, 500)), axis=1)
        t = np.arange(start + 1, start + 501, dtype=np.float64)
        crossed |= (mix.log_evidence(walk / np.sqrt(t), t) >= math.log(1 / a)).any(axis=1)
        s = walk[:, -1]
    rate = crossed.mean()
    assert at_most(int(crossed.sum()), paths, a), rate
    assert rate > 0.6 * a, rate


def test_estimated_variance_keeps_the_rate_on_lumpy_groups() -> None:
    """The asymptotic side: groups of 4 games whose pair difference takes few values
    (mean exactly at the null), variance estimated from the data, a look every 10 groups
    from MIN_GROUPS on: the crossing rate stays within alpha."""
    rng = np.random.default_rng(22)
    a, paths, steps = 0.05, 3000, 2000
    mix = Mixture.design(400, a)
    tolerance = 0.1
    # per group: 4 games, each won by seat i (+1), seat j (-1) or another seat (0)
    wins = rng.choice([1.0, -1.0, 0.0], p=[0.3, 0.2, 0.5], size=(paths, steps, 4)).mean(axis=2)
    x = wins - (0.1 - tolerance)  # true mean of the difference sits exactly at +tolerance after the shift
    t = np.arange(1, steps + 1, dtype=np.float64)
    mean = np.cumsum(x, axis=1) / t
    var = (np.cumsum(x * x, axis=1) / t - mean**2) * t / np.maximum(t - 1, 1)
    se = np.sqrt(var / t)
    looks = np.arange(at.MIN_GROUPS, steps, 10)
    z = (tolerance - mean[:, looks]) / se[:, looks]
    crossed = (mix.log_evidence(z, t[looks]) >= math.log(1 / a)).any(axis=1)
    assert at_most(int(crossed.sum()), paths, a), crossed.mean()


def test_monotone_fair_takes_the_worst_beyond_each_vector() -> None:
    up = np.array([0.9, 0.001, 0.3, 0.002, 0.001])  # against p1 - p2 >= tolerance: the low offsets
    low = np.array([0.001, 0.002, 0.001, 0.01, 0.8])  # against p1 - p2 <= -tolerance: the high ones
    assert at.monotone_fair(up, low).tolist() == [0.9, 0.3, 0.3, 0.01, 0.8]


# ------------------------------------------------------------------ synthetic verdicts

@dataclass
class Count:
    cells: int = 0
    confirmed_right: int = 0
    confirmed_wrong: int = 0  # the set shown fair holds a vector whose true gap >= tolerance
    no_fair_right: int = 0
    no_fair_wrong: int = 0  # some candidate's true gap <= tolerance
    undecided: int = 0
    games: int = 0

    def row(self) -> str:
        c = max(self.cells, 1)
        return (f"{self.cells} cells: confirmed {self.confirmed_right / c:.3f} right, "
                f"{self.confirmed_wrong / c:.4f} wrong; no fair vector {self.no_fair_right / c:.3f} "
                f"right, {self.no_fair_wrong / c:.4f} wrong; undecided {self.undecided / c:.3f}; "
                f"mean games {self.games / c:.0f}")

    def score(self, v: at.Verdict, gaps: dict[tuple[int, ...], float], tolerance: float) -> None:
        self.cells += 1
        self.games += v.games
        if v.decision == "confirmed":
            wrong = any(gaps[f] >= tolerance - EPS for f in v.fair_set)
            self.confirmed_wrong += wrong
            self.confirmed_right += not wrong
        elif v.decision == "no fair vector":
            wrong = min(gaps.values()) <= tolerance + EPS
            self.no_fair_wrong += wrong
            self.no_fair_right += not wrong
        else:
            self.undecided += 1


def equal_stages(budget: int, stages: int, multiple: int) -> list[int]:
    size = -(-budget // stages // multiple) * multiple
    return [size] * stages


def play_tables(sc: Scenario, sizes: list[int], rng: np.random.Generator) -> list[WinTable]:
    return [win_table(sc.cell.play(rng, s), sc.vectors) for s in sizes]


def run(sc: Scenario, alpha: float, cells: int, seed: int, tolerance: float | None = None,
        stages: int = 12, extend: bool = False) -> Count:
    """``cells`` independent cells of ``stages`` equal stages; ``extend``: a cell still
    undecided after them gets as many stages again (the same earlier games) and is judged
    again, so a wrong verdict at either point counts."""
    tolerance = sc.tolerance if tolerance is None else tolerance
    sizes = equal_stages(sc.budget, stages, sc.cell.players)
    count = Count()
    for i in range(cells):
        rng = np.random.default_rng([seed, i])
        tables = play_tables(sc, sizes, rng)
        v = at.decide(tables, sc.rulebook, tolerance, alpha, sc.m, predict=False)
        if extend and v.decision == "undecided":
            tables += play_tables(sc, sizes, rng)
            v = at.decide(tables, sc.rulebook, tolerance, alpha, sc.m, predict=False)
        count.score(v, sc.gaps, tolerance)
    return count


@pytest.mark.parametrize(("name", "alpha", "cells"), [
    ("border", 0.3, 300), ("twin", 0.3, 300), ("thirds", 0.3, 250), ("curse", 0.3, 250),
    ("curse", 0.05, 250),
])
def test_error_rates_hold_on_the_boundary(name: str, alpha: float, cells: int) -> None:
    """Best vector(s) exactly on the boundary (true gap = tolerance): any confirmation is wrong (the
    limit of a vector just over tolerance), and so is "no fair vector". Wrong confirmations stay
    within alpha/2, wrong "no fair" calls within alpha/2. 2 players: the whole family on all
    games (border: one vector on the boundary; twin: one at each end); 3 and 4 players: the
    chosen vectors in fixed sequence (thirds, curse: three and four vectors on it)."""
    sc = scenario(name)
    c = run(sc, alpha, cells, seed=zlib.crc32(name.encode()) + int(100 * alpha))
    assert at_most(c.confirmed_wrong, c.cells, alpha * at.CONFIRM_SHARE), c.row()
    assert at_most(c.no_fair_wrong, c.cells, alpha * (1 - at.CONFIRM_SHARE)), c.row()
    assert c.confirmed_right == 0 and c.no_fair_right == 0, c.row()


@pytest.mark.parametrize("side", ["below", "above"])
def test_tolerance_just_below_and_just_above_the_best_gap(side: str) -> None:
    """3 players (thirds: three vectors share the best gap). Tolerance 3% below it: nothing
    is fair, every confirmation is wrong (at most alpha/2), "no fair vector" is right and
    comes often enough. 3% above: the three are fair; confirming them is right, "no fair
    vector" wrong (at most alpha/2)."""
    sc = scenario("thirds")
    best = min(sc.gaps.values())
    tolerance = best * (0.97 if side == "below" else 1.03)
    alpha = 0.3
    c = run(sc, alpha, 200, seed=31 + (side == "above"), tolerance=tolerance)
    assert at_most(c.confirmed_wrong, c.cells, alpha * at.CONFIRM_SHARE), c.row()
    assert at_most(c.no_fair_wrong, c.cells, alpha * (1 - at.CONFIRM_SHARE)), c.row()
    if side == "above":
        assert c.no_fair_right == 0 and c.confirmed_right > 0, c.row()
    else:
        assert c.confirmed_right == 0, c.row()


@pytest.mark.parametrize("name", ["twin", "curse"])
def test_extending_an_undecided_cell_keeps_the_error_rate(name: str) -> None:
    """A cell stopped undecided and extended (twice the games, the earlier ones kept): the
    verdicts at either point are wrong within the stated rates, as if never stopped."""
    sc = scenario(name)
    alpha = 0.3
    c = run(sc, alpha, 200, seed=41, stages=6, extend=True)
    assert at_most(c.confirmed_wrong, c.cells, alpha * at.CONFIRM_SHARE), c.row()
    assert at_most(c.no_fair_wrong, c.cells, alpha * (1 - at.CONFIRM_SHARE)), c.row()


def test_a_resumed_cell_is_the_same_cell() -> None:
    """The verdict is a function of the stages: on any prefix it is the verdict a cell that
    stopped there gets, and once decided, more stages change nothing."""
    sc = scenario("fair")
    rng = np.random.default_rng(51)
    sizes = at.stage_sizes(12_000, 300, 3)
    tables = play_tables(sc, list(sizes), rng)
    whole = at.decide(tables, sc.rulebook, 0.06)
    assert whole.decision == "confirmed" and whole.vector == (0, 1, 2)
    k = whole.decided_at + 1
    assert at.decide(tables[:k], sc.rulebook, 0.06) == whole
    assert at.decide(tables[:k + 1], sc.rulebook, 0.06) == whole
    earlier = at.decide(tables[:k - 1], sc.rulebook, 0.06)
    assert earlier.decision == "undecided" and earlier.looks == whole.looks[:k - 1]
    assert whole.model_dump(mode="json")["fair_set"] == [[0, 1, 2]]


def test_power_in_a_fair_and_an_unfair_cell() -> None:
    """Not only safe but useful: the fair cell confirms its vector and the unfair one says
    "no fair vector", most of the time (the unfair cell at twice the staged procedure's
    budget: an anytime bound on all games is wider than a one-look bound)."""
    fair = run(scenario("fair"), 0.05, 60, seed=61, stages=8)
    assert fair.confirmed_right >= 0.75 * fair.cells and fair.confirmed_wrong == 0, fair.row()
    unfair = run(replace(scenario("unfair"), budget=12_000), 0.05, 60, seed=62, stages=8)
    assert unfair.no_fair_right >= 0.75 * unfair.cells, unfair.row()


def test_the_first_choice_blocks_the_rest_of_its_sequence() -> None:
    """Fixed sequence: a chosen vector counts as shown fair only after every vector chosen
    before it in the same choice (otherwise the choice would need a Bonferroni split)."""
    cell = at.SequentialCell(np.array([[0, 0, 0], [0, 1, 1]]), (0, 0, 0), 0.05, 0.05, 2, MIX)
    ev = at.Evidence(np.array([0, 1]), MIX)
    ev.upper = np.array([[0.0, 0.0, 0.0], [9.0, 9.0, 9.0]])  # the first: no evidence
    ev.lower = ev.upper.copy()
    cell.choices.append(at.Choice(1, 0, ev))
    assert cell.fair_rows() == []
    ev.upper[0] = ev.lower[0] = 9.0
    assert cell.fair_rows() == [0, 1]


def test_choices_spend_at_most_alpha_c() -> None:
    assert math.fsum(at.choice_weight(j) for j in range(1, 60)) <= 1.0 + 1e-12
    assert at.choice_weight(1) == at.FIRST_CHOICE


def test_stage_sizes_extend_without_touching_played_stages() -> None:
    first = at.stage_sizes(16_000, 1000, 4)
    assert first == (1000, 2000, 4000, 9000)
    assert at.stage_sizes(32_000, 1000, 4, played=first) == (*first, 16_000)
    assert at.stage_sizes(64_000, 1000, 4, played=first)[:4] == first
    assert at.stage_sizes(16_000, 1000, 4, played=first) == first
    with pytest.raises(CdsimError):
        at.stage_sizes(500, 1000)


def test_bad_settings_are_one_line() -> None:
    tables = play_tables(scenario("border"), [400], np.random.default_rng(1))
    for kwargs in ({"tolerance": 0.0}, {"alpha": 1.0}, {"m": 0}):
        with pytest.raises(CdsimError):
            at.decide(tables, (0, 0), **kwargs)  # type: ignore[arg-type]
    with pytest.raises(CdsimError):
        at.decide([], (0, 0))


# ------------------------------------------------------------------------ games needed

def continuation_rate(cells: int, seed: int) -> tuple[int, int, int]:
    """Undecided 2-player cells (tolerance 2 pp above the best gap, a zone of a quarter of it,
    2,000 games) continued by exactly ``games_needed`` more games: (how many confirmed,
    how many were continued, how many were undecided)."""
    sc = scenario("border")
    tolerance = min(sc.gaps.values()) + 0.02
    sizes = at.stage_sizes(2000, 125, 2)
    done = passed = undecided = 0
    for i in range(cells):
        rng = np.random.default_rng([seed, i])
        tables = play_tables(sc, list(sizes), rng)
        v = at.decide(tables, sc.rulebook, tolerance, zone=tolerance / 4)
        undecided += v.decision == "undecided"
        if v.decision != "undecided" or v.games_needed is None:
            continue
        more = play_tables(sc, [v.games_needed], rng)
        done += 1
        passed += at.decide(tables + more, sc.rulebook, tolerance, predict=False,
                            zone=tolerance / 4).decision == "confirmed"
    return passed, done, undecided


def test_games_needed_is_calibrated() -> None:
    """A continuation of ``games_needed`` games confirms about 80% of the time: here 100 of
    142 continued cells (70%; 78-80% in the larger measurement of scripts/zone_rates.py,
    80% on real 2-player games), and nearly every undecided cell gets a number. Counting
    the uncertainty of the gap twice, as before the zone, left 40 of 88 undecided cells
    without one; aiming the prediction at 50% confirms 65% of these cells, at 95% 90.1%:
    each fails here."""
    passed, done, undecided = continuation_rate(160, 71)
    assert done >= 0.9 * undecided, (done, undecided)
    assert 0.68 <= passed / done <= 0.9, (passed, done)


# ------------------------------------------------------------------------- measurement

def confirm_rate(theta: float, budget: int, method: str, looks: list[int], reps: int = 4000,
                 var: float = 0.92, tolerance: float = 0.02, alpha: float = 0.05) -> float:
    """2 players, one vector whose ``p_1 - p_2`` is ``theta``, per-game variance ``var`` (the
    strong cell's 0.92), stages in the proportions ``looks``: the chance it is confirmed
    within ``budget`` games. "staged": the old procedure (stage 0 tests the rulebook, which
    is unfair; stage k tests the vector on its own games at alpha_k / 2, normal quantiles);
    "anytime": this one (the family at alpha_c / 2 a side on all games, default design)."""
    rng = np.random.default_rng(0)
    share = np.asarray(looks, dtype=np.float64) / sum(looks)
    n = np.maximum(1, np.round(share * budget)).astype(np.int64)
    means = theta + rng.standard_normal((reps, len(n))) * np.sqrt(var / n)
    ok = np.zeros(reps, dtype=bool)
    if method == "staged":
        for k in range(1, len(n)):
            z = float(sps.norm.isf(alpha * n[k] / n.sum() / 2))
            ok |= np.abs(means[:, k]) + z * np.sqrt(var / n[k]) < tolerance
        return float(ok.mean())
    level = alpha * at.CONFIRM_SHARE / 2
    mix = Mixture.design(at.design_groups(2, tolerance, alpha, 1.0), level)
    groups = np.cumsum(n)
    running = np.cumsum(means * n, axis=1) / groups
    up = np.full(reps, -np.inf)
    low = np.full(reps, -np.inf)
    for k, t in enumerate(groups):
        se = math.sqrt(var / t)
        up = np.maximum(up, mix.log_evidence((tolerance - running[:, k]) / se, t))
        low = np.maximum(low, mix.log_evidence((running[:, k] + tolerance) / se, t))
        ok |= np.minimum(up, low) >= math.log(1 / level)
    return float(ok.mean())


def budget_for(theta: float, method: str, looks: list[int], power: float = 0.8) -> int:
    """The budget at which ``confirm_rate`` reaches ``power`` (to 1%)."""
    low, high = 1000, 4_000_000
    while high / low > 1.01:
        mid = int(math.sqrt(low * high))
        low, high = (low, mid) if confirm_rate(theta, mid, method, looks) >= power else (mid, high)
    return high


def study_scale(cells: int) -> None:  # pragma: no cover - by hand
    """The two study-scale cells of docs/statistics.md (4 players, tolerance 0.02, 200,000 games in
    the staged procedure's four doubling stages)."""
    for name in ("study", "study-near"):
        sc = scenario(name)
        sizes = list(at.stage_sizes(sc.budget, sc.first, 4))
        count = Count()
        for i in range(cells):
            tables = play_tables(sc, sizes, np.random.default_rng([5000, i]))
            count.score(at.decide(tables, sc.rulebook, sc.tolerance, 0.05, sc.m, predict=False),
                        sc.gaps, sc.tolerance)
        print(f"{name:10s} {count.row()}", flush=True)


def measure(cells: int) -> None:  # pragma: no cover - by hand
    """The tables of docs/statistics.md."""
    doubling, equal = [1, 2, 4, 9], [1] * 16
    for theta in (0.0, 0.011):
        print(f"2 players, p1 - p2 = {theta}: staged {budget_for(theta, 'staged', doubling):,}, "
              f"anytime {budget_for(theta, 'anytime', doubling):,} (4 stages), "
              f"{budget_for(theta, 'anytime', equal):,} (16 looks)", flush=True)
    runs = [("fair", 0.05, None), ("unfair", 0.05, None), ("border", 0.05, None),
            ("twin", 0.05, None), ("thirds", 0.05, None), ("curse", 0.05, None),
            ("curse", 0.3, None)]
    for name, alpha, tolerance in runs:
        sc = scenario(name)
        c = run(sc, alpha, cells, seed=2000 + int(alpha * 100), tolerance=tolerance)
        print(f"{name:8s} alpha={alpha:<5} tolerance={sc.tolerance:.4f}  {c.row()}", flush=True)
    for extend in (False, True):
        c = run(scenario("curse"), 0.3, cells, seed=3000, stages=6, extend=extend)
        print(f"curse-6{'+6' if extend else ''} alpha=0.3  {c.row()}", flush=True)
    passed, done, _ = continuation_rate(cells, 4000)
    print(f"games_needed continuations: {passed}/{done} confirmed", flush=True)


if __name__ == "__main__":
    if sys.argv[1:2] == ["study"]:
        study_scale(int(sys.argv[2]) if len(sys.argv) > 2 else 40)
    else:
        measure(int(sys.argv[1]) if len(sys.argv) > 1 else 2000)



# ----------------------------------------------------------------------- the rules, each

def test_two_player_family_splits_alpha_c_between_its_ends() -> None:
    """At 2 players with more than one candidate each side is tested at alpha_c / 2: a
    p-value between alpha_c / 2 and alpha_c does not confirm (one vector alone would)."""
    vectors = np.array([[8, 7], [8, 8], [8, 9]])
    cell = at.SequentialCell(vectors, (8, 9), 0.02, 0.05, 3, MIX)
    alpha_c = 0.05 * at.CONFIRM_SHARE
    between = -math.log(0.75 * alpha_c)  # p = 0.75 alpha_c
    cell.everything.upper = np.full((3, 1), between)
    cell.everything.lower = np.full((3, 1), between)
    assert cell.fair_rows() == []
    cell.everything.upper[:] = cell.everything.lower[:] = -math.log(0.45 * alpha_c)
    assert cell.fair_rows() == [0, 1, 2]
    single = at.SequentialCell(vectors[2:], (8, 9), 0.02, 0.05, 3, MIX)
    single.everything.upper = single.everything.lower = np.full((1, 1), between)
    assert single.fair_rows() == [0]


def test_chosen_vectors_are_tested_only_on_later_games() -> None:
    """3 players: the vector confirmed was chosen on stage 0 and its evidence is the games
    after stage 0 only."""
    sc = scenario("fair")
    sizes = at.stage_sizes(12_000, 600, 3)
    v = at.decide(play_tables(sc, list(sizes), np.random.default_rng(81)), sc.rulebook, 0.06)
    assert v.decision == "confirmed" and v.choices[0].stage == 0
    assert v.vector == v.choices[0].vectors[0] == (0, 1, 2)
    assert v.games_tested == v.games - sizes[0]


def test_a_wrong_first_choice_is_revisited() -> None:
    """Stage 0 from another cell (where 0/0/0 is fair) misleads the first choice; a later
    look's most equal vector, 0/1/2, is in no choice, so a second choice tests it on the
    games after that look, at its smaller share of alpha_c, and confirms it."""
    sc = scenario("fair")
    other = Synth((dnorm(0, 3), dnorm(0, 3), dnorm(0, 3)), skill=dnorm(0, 2))
    rng = np.random.default_rng(82)
    misled = [win_table(other.play(rng, 240), sc.vectors)]  # too few to show anything unfair
    tables = misled + play_tables(sc, [1500, 3000, 6000, 12_000], rng)
    v = at.decide(tables, sc.rulebook, 0.06)
    assert (0, 1, 2) not in v.choices[0].vectors
    assert v.decision == "confirmed" and v.vector == (0, 1, 2)
    second = v.choices[1]
    assert second.vectors[0] == (0, 1, 2) and second.stage >= 1
    assert second.alpha == pytest.approx(at.choice_weight(2) * 0.05 * at.CONFIRM_SHARE)


def test_decide_games_and_the_explanations() -> None:
    """``decide_games`` re-ranks each stage itself; an undecided cell's paragraph names the
    games a continuation would need, a confirmed one the set shown fair."""
    sc = scenario("fair")
    rng = np.random.default_rng(83)
    stages = [sc.cell.play(rng, s) for s in at.stage_sizes(1500, 300, 3)]
    v = at.decide_games(stages, sc.rulebook, radius=sc.radius, tolerance=0.06)
    assert v == at.decide([win_table(g, sc.vectors) for g in stages], sc.rulebook, 0.06)
    assert v.decision == "undecided" and "Undecided after 1,500 games" in v.explain
    if v.games_needed is not None:
        assert f"{v.games_needed:,} more games" in v.explain
    more = stages + [sc.cell.play(rng, s) for s in (3000, 6000, 12_000)]
    done = at.decide_games(more, sc.rulebook, radius=sc.radius, tolerance=0.06)
    assert done.decision == "confirmed" and "0/1/2" in done.explain


def test_confirmation_games_grow_as_the_gap_nears_the_tolerance() -> None:
    """``predict.confirmation_games`` (for ``cdsim power``): a fair vector at 2 players and
    2 pp needs about 49,000 games at the default design, a 1.1 pp gap about four times as
    many, and a gap at the tolerance none."""
    from cdsim.analysis.predict import confirmation_games

    design = at.design_groups(2, 0.02, 0.05, 1.0)
    fair = confirmation_games(2, 0.0, 0.02, 0.0125, design)
    near = confirmation_games(2, 0.011, 0.02, 0.0125, design)
    assert fair is not None and near is not None
    assert 45_000 < fair < 53_000 and 3.5 * fair < near < 4.5 * fair
    assert confirmation_games(2, 0.02, 0.02, 0.0125, design) is None


def test_a_vector_blocked_in_its_sequence_is_chosen_again() -> None:
    """Stage 0 (300 games) put 0/0/1, 10 pp unfair, before the fair 0/1/2 in the first
    sequence, which can then never reach 0/1/2; as the most equal vector on all games,
    0/1/2 gets a sequence of its own at the next look and is confirmed there."""
    sc = scenario("fair")
    rng = np.random.default_rng(83)
    stages = [sc.cell.play(rng, s) for s in (300, 1200, 3000, 6000, 12_000)]
    v = at.decide_games(stages, sc.rulebook, radius=sc.radius, tolerance=0.06)
    first, second = v.choices[0], v.choices[1]
    assert first.vectors[0] == (0, 0, 1) and (0, 1, 2) in first.vectors[1:]
    assert second.stage == 1 and second.vectors[0] == (0, 1, 2)
    assert v.decision == "confirmed" and v.fair_set == ((0, 1, 2),)
    assert v.tested_from == 2
    assert v.games_tested == sum(g.games for g in stages[v.tested_from:v.decided_at + 1])


def test_no_fair_vector_splits_alpha_n_over_the_pairs() -> None:
    """A vector is shown unfair by one pair at alpha_n / pairs: evidence of 1 / (2 alpha_n)
    is not enough with three pairs, 1 / (alpha_n / 3.5) is."""
    ev = at.Evidence(np.array([0]), MIX)
    level = 0.025
    ev.apart_hi = np.array([[math.log(2 / level), -np.inf, -np.inf]])
    ev.apart_lo = np.full((1, 3), -np.inf)
    ev.upper = ev.lower = np.zeros((1, 3))
    assert not ev.shown_unfair(level)[0]
    ev.apart_lo[0, 2] = math.log(3.5 / level)
    assert ev.shown_unfair(level)[0]


def test_a_chosen_vector_s_games_needed_counts_half_its_estimate_s_uncertainty(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """3 players: the watched vector was chosen for looking good and its estimate rests on its
    own test games, so ``games_needed`` counts half that estimate's uncertainty
    (``predict.SPREAD_CHOSEN``; real 3-player games: continuations confirmed 52% and 69% at
    12,000 and 32,000 games without it, 75% and 77% with it, docs/statistics.md); a 2-player
    candidate, tested on every game, counts none of it (``SPREAD``)."""
    sc = scenario("fair")
    tables = play_tables(sc, list(at.stage_sizes(1500, 300, 3)), np.random.default_rng(83))
    v = at.decide(tables, sc.rulebook, 0.06, zone=0.01)
    assert v.decision == "undecided" and v.games_needed is not None
    monkeypatch.setattr(predict, "SPREAD_CHOSEN", 0.0)
    plain = at.decide(tables, sc.rulebook, 0.06, zone=0.01)
    assert plain.games_needed is not None and plain.games_needed < v.games_needed
