"""Decided starting-VP verdicts in which every game counts and a cell can always go on.

The rule and its driver (``decide``), on the concepts of four modules, whose names this
module also gives (the public entry): the sizes and settings fixed before a cell plays
(``cdsim.analysis.design``), the evidence (``cdsim.analysis.evidence``), the verdict record
and its sentences (``cdsim.analysis.verdict``) and one cell's state across its looks
(``cdsim.analysis.sequential``).

A cell (one player count, one population) is played in *stages*; after each stage (a
*look*) the verdict is a pure function of the games of all stages so far and of where the
stages end: ``decide(tables, rulebook, ...)`` with ``tables[k]`` the win table
(``candidates.win_table``) of stage ``k``'s games over the candidates. Resuming a cell is
calling it again on the same stages; extending it (a raised budget) is calling it with more
stages appended. A stage's games never change once a later stage exists.

The rule
--------
The error budget ``alpha`` (5%) is split once: ``alpha_c = CONFIRM_SHARE * alpha`` (2.5%)
against a wrong *confirmed*, the rest ``alpha_n`` against a wrong *no fair vector*.

Evidence: for one vector and one seat pair on a run of deal groups, the difference of the
two seats' win shares ``d`` (per deal group, so rotations are paired) and its deal-group
standard error give, for a null such as ``p_i - p_j >= tolerance``, the normal-mixture
e-value of ``cdsim.analysis.boundary`` (an asymptotic confidence sequence). Its running
maximum over the looks gives an anytime p-value: valid at any look, at any stopping time,
and after any number of further looks or a raised budget. The e-value's prior is fixed from
the settings alone (``design_games``, the games at which the boundary is tightest). With a
zone and a design (a study cell) 80% of each test's e-value (``PLANNED_WEIGHT``) is a test
planned for the cell's own stages (``planned_looks``: doubling from the first stage to
``design_games``), made a martingale (``boundary.Planned``): it spends the test's level at
the looks the cell makes instead of leaving most of it to looks that never come, and stays
valid at any other look; the rest is the mixture, which carries an extended cell past its
plan. A look that skips a planned one drops the planned part (docs/statistics.md).

The indifference zone ``zone`` (``d``; a study's default ``ZONE``, 0.5 pp) puts the two
decisions on two bounds, as fishtest's SPRT tests between ``elo0`` and ``elo1``: fair is
shown against gaps of ``hi = tolerance + d``, unfair against gaps of ``lo = tolerance - d``.
A vector whose largest gap lies between the two may be called either; outside them the error
rates below hold. ``zone = 0`` is the rule without a zone (both against ``tolerance``).

1. **confirmed** - a vector is *shown fair* when, for every seat pair, both ``p_i - p_j >=
   hi`` and ``p_i - p_j <= -hi`` are rejected (intersection-union: its confidence sequence
   lies inside ``(-hi, +hi)``). Which vectors are tested:

   - 2 players, or a single candidate: every candidate is tested on **all** games. At 2
     players win share is monotone in the offset (more VP for seat 2 never turns a win of
     seat 2 into a loss), so the truly unfair vectors are two runs at the ends; with the
     p-values made monotone in the offset (running maxima from either end), a wrong
     confirmation needs the one unfair vector nearest the fair ones on one side to pass.
     Each side gets ``alpha_c / 2`` (one side with a single candidate: ``alpha_c``).
   - 3 and 4 players: after stage 0, up to ``m`` vectors are *chosen* on stage 0's games
     (the near-tied most equal ones, ``NEAR_Z``), and each is tested on every game played
     after its choice. They are tested in their chosen order at the selection's full level
     (fixed-sequence testing): the second counts as shown fair only once the first is, and
     so on, so no Bonferroni split is needed. **Revisiting the choice**: at a later look
     whose most equal vector on all games so far is not being tested (in no earlier choice,
     or waiting behind an unconfirmed vector of its sequence), a new choice is made the same
     way (skipping the vectors first in line or shown fair) and tested on the games after
     it. Choice ``j`` spends ``w_j alpha_c``: ``w_1 = FIRST_CHOICE`` (0.8), ``w_j = (1 -
     FIRST_CHOICE) / 2**(j-1)`` after, which sums to 1 over any number of choices.

   The *set shown fair* is every vector shown fair so far; the one named is the most equal
   of them: the smallest observed gap on all games, then the fewest VP changed from the
   rulebook, then first lexicographically (``candidates.rank_by_gap``). ``best_gap_low``
   bounds the most equal candidate's gap from below (each pair and side at ``alpha_n / (2 pairs)``, the
   argument of 2: one fixed vector). ``within_best`` bounds how much more equal than the
   named vector any candidate is: the named vector's upper bound less the least lower
   bound of the *other* candidates (if the most equal is another, it is one fixed vector;
   if it is the named one, nothing is claimed wrongly), wrong in at most ``alpha`` of
   cells; at most ``zone`` is the naming promise, said where shown.
2. **no fair vector** - every candidate has some seat pair shown to lie more than ``lo``
   apart: ``p_i - p_j <= lo`` or ``p_i - p_j >= -lo`` rejected, each pair at ``alpha_n /
   pairs``, on all games so far (nothing is chosen, so every game may be used).
3. **undecided** - neither; ``games_needed`` says how many more games would confirm the
   most promising tested vector with chance ``POWER`` (``predicted_games``).

The first look at which 1 or 2 holds decides the cell; later stages are ignored. With
``naming`` (a study's ``name_within_zone``) a confirmation decides only once the named
vector's ``within_best`` is at most ``zone``: the cell looks on (choosing again, so the most
equal vector gets tested), which changes no error rate (every test is valid at any look;
the set shown fair only grows); ``naming_games`` bounds the games it may take.

Why every cell ends (``zone > 0``): ``cdsim.analysis.design``'s docstring, whose
``worst_case_games`` is the games that decide a cell whatever its truth.

Use (a study cell)
------------------
::

    vectors = candidates(rulebook, radius)                 # fixed for the cell
    tables = [win_table(games_of_stage(k), vectors) ...]   # one per stage played (cacheable)
    verdict = decide(tables, rulebook, tolerance, alpha, m, design_games=DESIGN, predict=stopping)
    verdict.model_dump(mode="json")                        # the manifest's / study.json's record
    sizes = stage_sizes(budget, first, deal, played=sizes_played)  # raised budget: appended
    offsets = offsets.fair_offsets(stage_games, rulebook, around=verdict.vector, radius=radius)

``DESIGN`` (None: ``design_groups``'s default) is part of the cell's identity; the budget is
not (raising it extends the cell). Play the next stage while the verdict is undecided and
``len(tables) < len(sizes)``.

Why the error rates hold (for any true win shares)
---------------------------------------------------
*Wrong confirmed* (the set shown fair holds a vector whose true gap is ``hi`` or more; read
``tolerance`` as ``hi`` in this paragraph and as ``lo`` in the next): at most ``alpha_c``. A
choice is fixed by games played before its test games, which are fresh deals, so given the
choice its p-values are valid. In a fixed sequence a wrong confirmation needs the *first*
truly unfair vector of the sequence to pass, one fixed hypothesis: chance at most the
choice's level ``w_j alpha_c``; a truly unfair vector has a pair with ``|p_i - p_j| >=
tolerance``, and its one violated side must be rejected (intersection-union). Summing over
the choices (a union bound, whatever their number) gives ``alpha_c``. At 2 players the two
ends each cost at most ``alpha_c / 2``. *Wrong no fair vector* (some candidate ``v*`` is
fair): ``v*`` is one fixed vector, not chosen from the data, so no correction over the
candidates is needed; it is declared unfair only if one of its pairs, truly within
``tolerance``, has a null rejected: ``alpha_n / pairs`` for the side nearer the truth, plus
the chance that the estimate runs more than ``2 tolerance`` past the truth the other way
(far below the rounding of any rate: the old staged test made the same argument); at most
``alpha_n`` in all. Together at most ``alpha`` per cell, at any
look, also after extensions. The approximation behind it is the central limit theorem on
deal groups (each test looks from ``MIN_GROUPS`` groups on).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from cdsim.analysis.boundary import Mixture
from cdsim.analysis.candidates import (
    REPORT_LEVEL,
    CellGames,
    IntArray,
    Vector,
    WinTable,
    candidates,
    rank_by_gap,
    win_table,
)
from cdsim.analysis.design import (
    CONFIRM_SHARE,
    FIRST_CHOICE,
    MAX_TOLERANCE,
    MIN_GROUPS,
    MIN_TOLERANCE,
    NEAR_Z,
    PLAN_SHAPE,
    REVISIT,
    ZONE,
    check_tolerance,
    check_zone,
    choice_weight,
    closing_z,
    design_groups,
    levels,
    naming_games,
    pair_variance,
    planned_looks,
    stage_sizes,
    tolerance_problem,
    worst_case_games,
    zone_problem,
)
from cdsim.analysis.evidence import Choice, Evidence, as_vector, monotone_fair, near_tied
from cdsim.analysis.sequential import SequentialCell
from cdsim.analysis.verdict import ChoiceRecord, Decision, Look, Verdict, is_settled
from cdsim.errors import CdsimError


def _check(tables: Sequence[WinTable], rulebook: Sequence[int], tolerance: float, alpha: float,
           m: int) -> tuple[Vector, IntArray]:
    if not 0 < tolerance < 1:
        raise CdsimError(f"tolerance must be a share between 0 and 1 (e.g. 0.02), got {tolerance}")
    if not 0 < alpha < 1:
        raise CdsimError(f"alpha must be between 0 and 1, got {alpha}")
    if m < 1:
        raise CdsimError(f"m (vectors chosen at a time) must be 1 or more, got {m}")
    if not tables:
        raise CdsimError("a verdict needs the games of at least one stage")
    rule = tuple(int(x) for x in rulebook)
    vectors = tables[0].vectors
    if vectors.shape[1] != len(rule):
        raise CdsimError(f"the rulebook vector has {len(rule)} seats, the games {vectors.shape[1]}")
    if any(not np.array_equal(t.vectors, vectors) for t in tables):
        raise ValueError("every stage's win table must hold the same candidate vectors")
    if int((vectors == np.asarray(rule)).all(axis=1).sum()) != 1:
        raise ValueError("the candidate vectors must include the rulebook vector once")
    if tables[0].groups < 1:
        raise CdsimError("the first stage has no games")
    return rule, vectors


def decide(tables: Sequence[WinTable], rulebook: Sequence[int], tolerance: float = 0.02,
           alpha: float = 0.05, m: int = 3, design_games: int | None = None,
           predict: bool = True, zone: float = 0.0, plan: Sequence[int] | None = None,
           naming: bool = False) -> Verdict:
    """The verdict of a cell from its stages so far (see the module docstring).

    ``tables[k]``: stage ``k``'s win table over the candidates (``win_table(games,
    candidates(rulebook, radius))``; the same vectors in every table). ``m``: vectors
    chosen at a time (3 and 4 players). ``design_games``: where the boundaries are tightest
    (``design_groups``); a setting of the cell, never changed once it has games.
    ``predict=False`` skips ``games_needed`` (a driver that plays on anyway needs it only
    when it stops). ``zone``: the indifference zone (fair is shown against gaps of
    ``tolerance + zone``, unfair against ``tolerance - zone``; 0: against ``tolerance`` both
    ways). ``naming`` (with a zone): a confirmed cell is decided only once its named
    vector is shown within the zone of the most equal candidate (``within_best``); until
    then it looks on (choosing again as an undecided cell does), and its stages running
    out leave it confirmed with the name not shown. Pure: the same tables give the same
    verdict, so a resumed or extended cell re-derives its state."""
    rule, vectors = _check(tables, rulebook, tolerance, alpha, m)
    check_zone(zone, tolerance, "zone")
    per_group = tables[0].games / tables[0].groups
    groups = design_groups(len(rule), tolerance, alpha, per_group, design_games)
    looks_planned = (planned_looks(tables[0].games, per_group, design_games, plan)
                     if zone > 0 and (design_games is not None or plan is not None) else ())
    cell = SequentialCell(vectors, rule, tolerance, alpha, m,
                          Mixture.design(groups, alpha * CONFIRM_SHARE / 2), zone, looks_planned)
    cell.design = groups
    looks: list[Look] = []
    decision: Decision = "undecided"
    fair: list[int] = []
    naming = naming and zone > 0
    for k, table in enumerate(tables):
        cell.look(table)
        fair = cell.fair_rows()
        none_fair, unfair = cell.all_unfair()
        decided = bool(fair) or none_fair
        if decided and fair and naming:  # confirmed: decided once the name is shown close
            row = cell.named_row(fair)
            near = cell.within_best(row, cell.tested_on(row)[0])
            decided = near is not None and near <= zone
        chosen = () if decided else cell.choose(k)
        assert cell.total is not None
        looks.append(Look(stage=k, games=cell.total.games, fair_set=cell.named(fair),
                          shown_unfair=unfair, chosen=chosen))
        if decided:
            decision = "confirmed" if fair else "no fair vector"
            break
    if fair and decision == "undecided":  # naming: its stages ran out before the name showed
        decision = "confirmed"
    return _verdict(cell, decision, fair, tuple(looks), predict, naming)


def gap_with_interval(table: WinTable, mixture: Mixture, level: float = REPORT_LEVEL
                      ) -> tuple[float, tuple[float, float]]:
    """A one-vector table's largest seat gap with an interval at ``level``, simultaneous
    over the pairs and valid at any look: each pair's confidence sequence at ``(1 - level) /
    (2 pairs)`` a side; [largest lower bound on ``|p_i - p_j|``, largest upper bound]."""
    diff, se = table.pair_stats()
    d, s = np.abs(diff[0]), se[0]
    if table.groups < MIN_GROUPS or not np.isfinite(s).all():
        return float(table.gaps[0]), (0.0, 1.0)
    z = float(mixture.z_at(np.asarray(float(table.groups)), (1 - level) / (2 * len(d))))
    low = float(np.maximum(d - z * s, 0.0).max())
    return float(table.gaps[0]), (low, float(min(1.0, (d + z * s).max())))


def _verdict(cell: SequentialCell, decision: Decision, fair: list[int], looks: tuple[Look, ...],
             predict: bool, naming: bool = False) -> Verdict:
    total = cell.total
    assert total is not None
    rows = np.asarray(fair, dtype=np.int64)
    needed: int | None = None
    watch: Vector | None = None
    first = 0
    if decision == "confirmed":  # the most equal of the set shown fair (all games)
        named = cell.named_row(fair)
        tested, first = cell.tested_on(named)
    else:
        named = int(rank_by_gap(cell.vectors, total.spreads, cell.rule)[0])
        tested = total.take(named)
        if decision == "undecided" and predict:
            needed, watch = cell.watch()
    gap, interval = gap_with_interval(tested, cell.mixture)
    if decision == "confirmed":
        # the confirmation shows every pair below tolerance + zone, with its own tests (the
        # planned ones among them, at its level): the interval never reaches past what it
        # showed (the reporting interval is the mixture's alone, simultaneous over pairs)
        interval = (interval[0], min(interval[1], cell.tolerance + cell.zone))
    either = cell.games_to_decide(named) if decision == "undecided" and predict else None
    near = cell.within_best(named, tested) if decision == "confirmed" else None
    return Verdict(decision=decision, vector=as_vector(cell.vectors[named]),
                   fair_set=cell.named(rows), largest_gap=gap, gap_interval=interval,
                   games=total.games, games_tested=tested.games, tested_from=first,
                   games_needed=needed, watch=watch, decided_at=looks[-1].stage,
                   choices=cell.records(), looks=looks, tolerance=cell.tolerance, alpha=cell.alpha,
                   zone=cell.zone, best_gap_low=cell.best_gap_low(), games_to_decide=either,
                   within_best=near, naming=naming)


def decide_games(stages: Sequence[CellGames], rulebook: Sequence[int], radius: int = 6,
                 tolerance: float = 0.02, alpha: float = 0.05, m: int = 3,
                 design_games: int | None = None, zone: float = 0.0) -> Verdict:
    """``decide`` on the games of each stage (rows per stage, as a study stores them):
    re-ranks every candidate within ``±radius`` of ``rulebook``."""
    vectors = candidates(rulebook, radius)
    return decide([win_table(g, vectors) for g in stages], rulebook, tolerance, alpha, m, design_games,
                  zone=zone)


__all__ = ["CONFIRM_SHARE", "FIRST_CHOICE", "MAX_TOLERANCE", "MIN_GROUPS", "MIN_TOLERANCE",
           "NEAR_Z", "PLAN_SHAPE", "REVISIT", "ZONE", "Choice", "ChoiceRecord", "Decision",
           "Evidence", "Look", "SequentialCell", "Verdict", "check_tolerance", "check_zone",
           "choice_weight", "closing_z", "decide", "decide_games", "design_groups",
           "gap_with_interval", "is_settled", "levels", "monotone_fair", "naming_games",
           "near_tied", "pair_variance", "planned_looks", "stage_sizes", "tolerance_problem",
           "worst_case_games", "zone_problem"]
