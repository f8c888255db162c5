"""The sizes and settings of a cell's anytime verdict (``cdsim.analysis.anytime``), fixed
before it plays: the levels its tests spend (``CONFIRM_SHARE``, ``choice_weight``,
``levels``), the deal groups at which its boundaries are tightest (``design_groups``), its
stages (``stage_sizes``) and planned looks (``planned_looks``), the games that decide it
whatever its truth (``worst_case_games``) or that show its name (``naming_games``), and the
checks of the tolerance and zone a user asks for.

Why every cell ends (``zone > 0``): a vector tested on ``T`` groups whose confidence
sequences are narrower than ``h_c`` (fair side) and ``h_n`` (unfair side) with ``h_c + h_n
< 2 d`` is decided either way: if its largest estimated gap ``g`` is below ``hi - h_c`` it
is shown fair, and otherwise ``g >= hi - h_c > lo + h_n`` shows it unfair. The half-widths
shrink as ``1 / sqrt(T)``, so a cell always ends; ``worst_case_games`` is the ``T`` at which
that holds for a prior per-game variance, the cell's budget when a study leaves ``games``
out.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import numpy as np
from scipy import special

from cdsim.analysis.boundary import PLANNED_WEIGHT, Mixture, planned
from cdsim.analysis.candidates import pairs
from cdsim.analysis.predict import POWER
from cdsim.errors import CdsimError

CONFIRM_SHARE = 0.5  # of alpha: against a wrong "confirmed"; the rest: "no fair vector"
# the indifference zone of a study and of `cdsim balance`: fair is shown against gaps of
# tolerance + ZONE, unfair against gaps of tolerance - ZONE, so that every cell ends
# (docs/statistics.md)
ZONE = 0.005
# the tolerances a user may ask for: below 0.1 pp no budget could decide (a cell's design
# size, ~1/tolerance**2 games, grows past any float), and a gap of 100 pp is every outcome
MIN_TOLERANCE = 0.001
MAX_TOLERANCE = 1.0
FIRST_CHOICE = 0.8  # of alpha_c: the first choice's level; later choices share the rest
NEAR_Z = 2.0  # near-tied: observed largest gap within this many standard errors of the least
MIN_GROUPS = 30  # deal groups a test needs before it may look
REVISIT = 2  # 3 and 4 players: a misled first choice is tested again on the later games


def tolerance_problem(tolerance: float) -> str | None:
    """Why a user may not ask for ``tolerance`` ("must be ..."), or None."""
    if MIN_TOLERANCE <= tolerance < MAX_TOLERANCE:
        return None
    return (f"must be between {MIN_TOLERANCE:g} and {MAX_TOLERANCE:g} (e.g. 0.02 = 2 pp), "
            f"got {tolerance:g}")


def check_tolerance(tolerance: float, name: str) -> float:
    """``tolerance``, or one error line naming ``name`` (the flag)."""
    problem = tolerance_problem(tolerance)
    if problem:
        raise CdsimError(f"{name} {problem}")
    return tolerance


def zone_problem(zone: float, tolerance: float) -> str | None:
    """Why a user may not ask for the indifference zone ``zone`` beside the tolerance
    ``tolerance`` ("must be ..."), or None: from 0 (no zone: a cell whose best vector sits
    at the tolerance may never end) to below the tolerance (tolerance - zone is a gap shown
    unfair)."""
    if 0 <= zone < tolerance and math.isfinite(zone):
        return None
    return (f"must be at least 0 and below the tolerance ({tolerance:g}), e.g. 0.005 = 0.5 pp, "
            f"got {zone:g}")


def check_zone(zone: float, tolerance: float, name: str) -> float:
    """``zone``, or one error line naming ``name`` (the flag or key)."""
    problem = zone_problem(zone, tolerance)
    if problem:
        raise CdsimError(f"{name} {problem}")
    return zone


def choice_weight(j: int) -> float:
    """The share of ``alpha_c`` the ``j``-th choice (1-based) spends."""
    return FIRST_CHOICE if j == 1 else (1 - FIRST_CHOICE) / 2 ** (j - 1)


def design_groups(players: int, tolerance: float, alpha: float, games_per_group: float,
                  design_games: int | None = None) -> float:
    """Deal groups at which the boundaries are tightest. By default the games a one-look
    equivalence test at ``alpha / 4`` needs to confirm, with 80% chance, a vector whose
    critical pair lies ``tolerance / 2`` inside the tolerance (per-game variance ``2 /
    players``): where the decisions that are hard to make fall. A setting: fix it when the
    cell starts."""
    if design_games is None:
        z = float(special.ndtri(1 - alpha * CONFIRM_SHARE / 2)) + float(special.ndtri(POWER))
        design_games = math.ceil((z / (tolerance / 2)) ** 2 * 2 / players)
    return max(1.0, design_games / games_per_group)


def pair_variance(players: int) -> float:
    """The prior per-game variance of a seat pair's win difference: two seats at the fair
    share ``1 / n`` (``p_i + p_j - (p_i - p_j)**2``), no help from paired rotations (they
    only lower it: 0.92 measured at 2 strong players)."""
    return 2 / players


def levels(players: int, alpha: float) -> tuple[float, float]:
    """(a fair side's level, an unfair pair's level) of the first test a cell makes: at 2
    players ``alpha_c / 2`` (the family's ends), else the first choice's ``FIRST_CHOICE
    alpha_c``; ``alpha_n / pairs``."""
    alpha_c = alpha * CONFIRM_SHARE
    fair = alpha_c / 2 if players == 2 else FIRST_CHOICE * alpha_c
    return fair, (alpha - alpha_c) / len(pairs(players))


PLAN_SHAPE = 64  # the worst case assumes a study's stages: the first 1/64 of it, then doubling


def closing_z(players: int, alpha: float) -> float:
    """The two margins for chance, in standard errors of the tested games, at the last of a
    study's planned looks (``PLAN_SHAPE``): the planned part's last crossing value on the
    fair side plus the unfair side's. At 3 and 4 players the fair side is the first
    choice's, tested from the second stage on (its standard errors are over the games
    after the first stage, a 63/64 share)."""
    fair, unfair = levels(players, alpha)
    times = planned_looks(1024, 1.0, PLAN_SHAPE * 1024)
    after = tuple(t - times[0] for t in times[1:])
    z_fair = planned(times, PLANNED_WEIGHT * fair).crossing_z()[-1]
    if players > 2:
        z_fair = planned(after, PLANNED_WEIGHT * fair).crossing_z()[-1] * math.sqrt(
            times[-1] / after[-1])
    return float(z_fair + planned(times, PLANNED_WEIGHT * unfair).crossing_z()[-1])


def worst_case_games(players: int, tolerance: float, zone: float, alpha: float,
                     variance: float | None = None, design_games: int | None = None) -> int | None:
    """A cell's budget that decides it whatever its truth: the games after which every
    candidate is decided (the module docstring: ``h_c + h_n <= 2 zone``), for the per-game
    variance ``variance`` of a pair's difference (default ``pair_variance``). ``design_games``
    None: a cell planned to end there (a study that leaves ``games`` out), decided at its
    last planned look (``closing_z``). Otherwise the cell's plan ends at ``design_games``:
    that many if its last look decides, else the games after which the mixture alone (the
    rest of the e-value, ``1 - PLANNED_WEIGHT``) does, tightest at ``design_games``. At 3 and
    4 players ``REVISIT`` times that: a first choice made on stage 0's few games may put a
    worse vector first and block the most equal one, which is then chosen again and tested
    on the later games only (tests/test_zone.py). None without a zone: a vector whose gap
    is the tolerance may then never be decided."""
    if zone <= 0:
        return None
    factor = 1 if players == 2 else REVISIT
    var = pair_variance(players) if variance is None else variance
    planned_end = math.ceil((closing_z(players, alpha) / (2 * zone)) ** 2 * var)
    if design_games is None:
        return planned_end * factor
    if planned_end <= design_games:
        return design_games * factor
    fair, unfair = (level * (1 - PLANNED_WEIGHT) for level in levels(players, alpha))

    mixture = Mixture.design(design_games, alpha * CONFIRM_SHARE / 2)
    return _closing_games(lambda _: mixture, (fair, unfair), var, 2 * zone) * factor


def _closing_games(design: Callable[[float], Mixture], levels: tuple[float, float], var: float,
                   width: float) -> int:
    """The least games (to 0.1%) after which two one-sided margins at ``levels`` add up to
    at most ``width``, a game's variance ``var``, the boundary ``design(games)``'s."""
    def closed(games: float) -> bool:
        mix = design(games)
        t = np.asarray(games)
        z = float(mix.z_at(t, levels[0])) + float(mix.z_at(t, levels[1]))
        return z * math.sqrt(var / games) <= width

    high = 1024.0
    while not closed(high):
        high *= 2
    low = high / 2
    while high - low > max(1.0, high / 1000):
        mid = (low + high) / 2
        low, high = (low, mid) if closed(mid) else (mid, high)
    return math.ceil(high)


def naming_games(players: int, zone: float, alpha: float, named_from: int,
                 variance: float | None = None) -> int:
    """The games after which a cell that plays on for its name (``decide``'s ``naming``)
    shows it within the zone whatever its truth: two candidates with the same gap need the
    named one's upper bound and the other's lower bound (``SequentialCell.within_best``, the
    mixture's alone: the planned looks are the decisions') less than ``zone`` apart, on
    the per-game variance ``variance`` (default ``pair_variance``), the boundary tightest
    there (a study budgets its cells so). ``named_from``: the vectors the name is taken
    from (``SequentialCell.named_level``: every candidate at 2 players, else the vectors of the
    first choice). At 3 and 4 players ``REVISIT`` times that, as ``worst_case_games``."""
    var = pair_variance(players) if variance is None else variance
    up = alpha * CONFIRM_SHARE / max(1, named_from)
    if players > 2:
        up *= FIRST_CHOICE
    low = alpha * (1 - CONFIRM_SHARE) / (2 * len(pairs(players)))
    return _closing_games(lambda games: Mixture.design(games, alpha * CONFIRM_SHARE / 2),
                          (up, low), var, zone) * (1 if players == 2 else REVISIT)


def planned_looks(first: int, per_group: float, design_games: int | None,
                  plan: Sequence[int] | None = None) -> tuple[float, ...]:
    """A cell's planned looks in cumulative deal groups: after each stage of ``plan``
    (games), by default the doubling stages from ``first`` games to ``design_games``
    (``stage_sizes``; one look when the first stage holds them all). Settings only."""
    if plan is None:
        assert design_games is not None
        deal = max(1, round(per_group))
        plan = stage_sizes(design_games, first, deal) if first < design_games else (first,)
    return tuple(float(x) / per_group for x in np.cumsum(np.asarray(plan, dtype=np.float64)))


def stage_sizes(budget: int, first: int, multiple: int = 1, played: Sequence[int] = ()
                ) -> tuple[int, ...]:
    """Stage sizes (games) for a budget: ``first``, then each twice the one before, the last
    taking what is left (2 to 6 times the one before); sizes are multiples of ``multiple``
    (whole deals). ``played``: stages already played, kept as they are; a raised budget
    appends stages after them (the next twice the last), so extending never changes a
    stage that has games."""
    if multiple < 1:
        raise CdsimError(f"multiple must be 1 or more, got {multiple}")
    sizes = [int(s) for s in played]
    left = budget // multiple * multiple - sum(sizes)
    size = 2 * sizes[-1] if sizes else -(-first // multiple) * multiple
    if not sizes and (size < 1 or size > left):
        raise CdsimError(f"the first stage ({first} games) must be between 1 and the budget "
                         f"({budget} games)")
    while left > 0:
        if left < 3 * size:
            sizes.append(left)
            break
        sizes.append(size)
        left -= size
        size *= 2
    return tuple(sizes)
