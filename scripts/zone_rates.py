"""The indifference zone measured (docs/statistics.md, "The indifference zone"): by hand,
never in the tests (minutes, not seconds).

    .venv/bin/python -m scripts.zone_rates one [reps]     # one vector, the study's settings
    .venv/bin/python -m scripts.zone_rates cells [cells]  # synthetic cells at the zone's edges
    .venv/bin/python -m scripts.zone_rates continue [cells]  # games_needed comes true?

``one``: 2 players, one seat pair whose true difference is ``theta``, per-game variance
``VAR``, the study's settings (tolerance 2 pp, zone 0.5 pp, alpha 5%, the budget a study
without ``games`` gets, stages of 1/64 then doubling): the chance of each verdict and the
mean games to a decision, beside the fixed-sample test of the same error rates (one look
at ``n`` games deciding between gaps of ``tol - zone`` and ``tol + zone``). The stage
means are drawn from their normal distribution (the central limit theorem the procedure
itself assumes), so a million-game cell costs microseconds.

``cells``: the synthetic cells of tests/scenarios.py (their truth known exactly), with the
zone at a fifth of the best gap and the tolerance put so that the best gap sits at one edge
of the zone (every wrong verdict possible is then as likely as it can be), at alpha = 5%.
"""

from __future__ import annotations

import math
import sys

import numpy as np
from scipy import special

from cdsim.analysis import anytime as at
from cdsim.analysis.boundary import Mixture
from tests.scenarios import scenario
from tests.test_zone import cells

TOL, ZONE, ALPHA = 0.02, 0.005, 0.05
VAR = 0.92  # per game, the 2-player strong cell's (issue 40)
OLD_BUDGET = 333_568  # the worst case before the planned looks (the mixture alone)


def fixed_sample(var: float = VAR) -> int:
    """Games of a one-look test with the same error rates: wrong "fair" at alpha_c / 2 when
    the gap is tol + zone, wrong "no fair vector" at alpha_n when it is tol - zone."""
    fair, unfair = at.levels(2, ALPHA)
    z = float(special.ndtri(1 - fair)) + float(special.ndtri(1 - unfair))
    return math.ceil((z / (2 * ZONE)) ** 2 * var)


def one_vector(theta: float, reps: int, seed: int = 0, planned: bool = True,
               stages: str = "doubling") -> tuple[float, float, float, float]:
    """(share fair, share no fair vector, share undecided, mean games to the end).
    ``planned=False``: the e-value without the planned looks (the mixture alone, the rule
    before). ``stages``: the study's doubling stages, or ``"16"`` equal ones."""
    budget = at.worst_case_games(2, TOL, ZONE, ALPHA) if planned else OLD_BUDGET
    assert budget is not None
    sizes_t = (at.stage_sizes(budget, budget // 64, 2) if stages == "doubling"
               else (budget // int(stages),) * int(stages))
    sizes = np.asarray(sizes_t, dtype=np.float64)
    rng = np.random.default_rng(seed)
    mixture = Mixture.design(budget, ALPHA * at.CONFIRM_SHARE / 2)
    fair_level, unfair_level = at.levels(2, ALPHA)
    cell = at.SequentialCell(np.array([[0, 0]]), (0, 0), TOL, ALPHA, 3, mixture, ZONE,
                    at.planned_looks(int(sizes[0]), 1.0, budget) if planned else ())
    fair_plan = cell.planned(0, fair_level)
    apart_plan = cell.planned(0, unfair_level)
    means = theta + rng.standard_normal((reps, len(sizes))) * np.sqrt(VAR / sizes)
    games = np.cumsum(sizes)
    running = np.cumsum(means * sizes, axis=1) / games
    hi, lo = TOL + ZONE, TOL - ZONE
    up = low = apart_hi = apart_lo = np.full(reps, -np.inf)
    verdict = np.zeros(reps, dtype=np.int64)  # 0 undecided, 1 fair, 2 none
    spent = np.full(reps, float(games[-1]))
    ev = at.Evidence(np.zeros(1, dtype=np.int64), mixture, fair_plan=fair_plan, apart_plan=apart_plan)
    for k, t in enumerate(games):
        se = math.sqrt(VAR / t)
        d = running[:, k]
        n = int(t)
        up = np.maximum(up, ev._log_e((hi - d) / se, n, fair_plan))
        low = np.maximum(low, ev._log_e((d + hi) / se, n, fair_plan))
        apart_hi = np.maximum(apart_hi, ev._log_e((d - lo) / se, n, apart_plan))
        apart_lo = np.maximum(apart_lo, ev._log_e((-lo - d) / se, n, apart_plan))
        fair = np.minimum(up, low) >= math.log(1 / fair_level)
        none = np.maximum(apart_hi, apart_lo) >= math.log(1 / unfair_level)
        new = (verdict == 0) & (fair | none)
        verdict[new] = np.where(fair[new], 1, 2)
        spent[new] = t
    return ((verdict == 1).mean(), (verdict == 2).mean(), (verdict == 0).mean(),
            float(spent.mean()))


def one(reps: int, stages: str = "doubling") -> None:
    n = fixed_sample()
    worst = at.worst_case_games(2, TOL, ZONE, ALPHA, variance=VAR)
    print(f"fixed-sample test of the same error rates: {n:,} games; the worst case at this "
          f"variance {worst:,} (before: 306,944), with the prior variance "
          f"{at.worst_case_games(2, TOL, ZONE, ALPHA):,} (before: {OLD_BUDGET:,}); stages: {stages}")
    print("| true gap | fair: before / now | no fair vector: before / now | undecided now | "
          "mean games: before / now | / fixed sample: before / now |")
    print("|---|---|---|---|---|---|")
    for theta in (0.0, 0.01, TOL - ZONE, TOL - ZONE / 2, TOL, TOL + ZONE / 2, TOL + ZONE, 0.03):
        f0, n0, _, g0 = one_vector(theta, reps, planned=False, stages=stages)
        fair, none, open_, games = one_vector(theta, reps, stages=stages)
        print(f"| {100 * theta:.2f} pp | {f0:.2%} / {fair:.2%} | {n0:.2%} / {none:.2%} | "
              f"{open_:.2%} | {g0:,.0f} / {games:,.0f} | {g0 / n:.2f} / {games / n:.2f} |",
              flush=True)


def edges(n: int) -> None:
    print("| cell | edge | cells | confirmed (wrong) | no fair vector (wrong) | undecided | mean games |")
    print("|---|---|---|---|---|---|---|")
    for name, side in (("border", "fair"), ("border", "none"), ("twin", "fair"),
                       ("thirds", "fair"), ("thirds", "none"), ("curse", "fair")):
        sc = scenario(name)
        best = min(sc.gaps.values())
        zone = best / 5
        tol = best - zone if side == "fair" else best + zone
        c = cells(sc, tol, zone, ALPHA, n, seed=9000 + len(name) + (side == "fair"))
        edge = "tol + zone" if side == "fair" else "tol - zone"
        print(f"| {name} ({sc.cell.players} players) | best gap at {edge} | {c.cells} | "
              f"{c.confirmed} ({c.wrong_fair}, {c.wrong_fair / c.cells:.2%}) | {c.no_fair} "
              f"({c.wrong_none}, {c.wrong_none / c.cells:.2%}) | {c.undecided} | "
              f"{c.games / c.cells:,.0f} |", flush=True)


def continuation(name: str, margin: float, budget: int, n: int, seed: int = 4000,
                 spread: float | None = None) -> tuple[int, int, int, int]:
    """Undecided cells of ``name`` (tolerance ``margin`` above the best gap, zone a quarter
    of the tolerance, doubling stages to ``budget``) continued by one fresh stage of
    exactly ``games_needed`` games: (confirmed, continued, undecided, of them with no
    number)."""
    from cdsim.analysis import predict
    from tests.test_zone import tables

    if spread is not None:  # every watched vector's, chosen or not
        predict.SPREAD = predict.SPREAD_CHOSEN = spread
    sc = scenario(name)
    tol = min(sc.gaps.values()) + margin
    zone = tol / 4
    sizes = list(at.stage_sizes(budget, max(budget // 16, 30 * sc.cell.players), sc.cell.players))
    passed = done = undecided = none = 0
    for i in range(n):
        rng = np.random.default_rng([seed, i])
        played = tables(sc, sizes, rng)
        v = at.decide(played, sc.rulebook, tol, ALPHA, sc.m, design_games=budget, zone=zone)
        if v.decision != "undecided":
            continue
        undecided += 1
        if v.games_needed is None:
            none += 1
            continue
        more = tables(sc, [max(v.games_needed, sc.cell.players)], rng)
        done += 1
        passed += at.decide(played + more, sc.rulebook, tol, ALPHA, sc.m, design_games=budget,
                            predict=False, zone=zone).decision == "confirmed"
    return passed, done, undecided, none


def continued(n: int) -> None:
    print("| cell | tolerance above the best gap | budget | undecided | with a number | "
          "confirmed by one stage of that many |")
    print("|---|---|---|---|---|---|")
    for name, margin, budget in (("border", 0.02, 2000), ("border", 0.01, 3000),
                                 ("curse", 0.03, 1500), ("curse", 0.015, 3000)):
        passed, done, undecided, _ = continuation(name, margin, budget, n)
        print(f"| {name} ({scenario(name).cell.players} players) | {100 * margin:.1f} pp | "
              f"{budget:,} | {undecided} | {done} | {passed} ({passed / max(done, 1):.0%}) |",
              flush=True)


if __name__ == "__main__":
    what = sys.argv[1] if len(sys.argv) > 1 else "one"
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 0
    if what == "one":
        one(count or 200_000)
    elif what == "one16":
        one(count or 200_000, "16")
    elif what == "continue":
        continued(count or 300)
    else:
        edges(count or 1000)

