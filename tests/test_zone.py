"""The indifference zone (cdsim.analysis.anytime, ``zone``): every cell ends, and the two
errors stay within their rates at the zone's edges, on synthetic cells whose truth is known
exactly (tests/scenarios.py). Fast and seeded: a few hundred cells at alpha = 0.3, where a
15% bound is a sharp check; scripts/zone_rates.py measures the study's own settings for
docs/statistics.md.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest
from scipy import special

from cdsim.analysis import anytime as at
from cdsim.analysis.candidates import WinTable, win_table
from cdsim.errors import CdsimError
from tests.scenarios import EPS, Scenario, at_most, scenario


@dataclass
class Tally:
    cells: int = 0
    wrong_fair: int = 0  # the set shown fair holds a vector at tolerance + zone or more
    wrong_none: int = 0  # "no fair vector" where some vector is at tolerance - zone or less
    confirmed: int = 0
    no_fair: int = 0
    undecided: int = 0
    games: int = 0

    def row(self) -> str:
        return (f"{self.cells} cells: confirmed {self.confirmed} ({self.wrong_fair} wrong), no "
                f"fair vector {self.no_fair} ({self.wrong_none} wrong), undecided "
                f"{self.undecided}; mean games {self.games / max(self.cells, 1):.0f}")

    def score(self, v: at.Verdict, gaps: dict[tuple[int, ...], float], tolerance: float,
              zone: float) -> None:
        self.cells += 1
        self.games += v.games
        if v.decision == "confirmed":
            self.confirmed += 1
            self.wrong_fair += any(gaps[f] >= tolerance + zone - EPS for f in v.fair_set)
        elif v.decision == "no fair vector":
            self.no_fair += 1
            self.wrong_none += min(gaps.values()) <= tolerance - zone + EPS
        else:
            self.undecided += 1


def tables(sc: Scenario, sizes: list[int], rng: np.random.Generator) -> list[WinTable]:
    return [win_table(sc.cell.play(rng, s), sc.vectors) for s in sizes]


def cells(sc: Scenario, tolerance: float, zone: float, alpha: float, n: int, seed: int,
          budget: int | None = None, extend: bool = False) -> Tally:
    """``n`` cells in doubling stages up to ``budget`` (default: the worst case, so every
    cell must end); ``extend``: judged at half the budget first, then on all of it."""
    worst = at.worst_case_games(sc.cell.players, tolerance, zone, alpha)
    assert worst is not None
    budget = budget or worst
    sizes = list(at.stage_sizes(budget, max(budget // 32, 30 * sc.cell.players),
                                sc.cell.players))
    tally = Tally()
    for i in range(n):
        played = tables(sc, sizes, np.random.default_rng([seed, i]))
        if extend:
            half = next(k for k in range(len(sizes)) if sum(sizes[:k + 1]) >= budget // 2)
            first = at.decide(played[:half + 1], sc.rulebook, tolerance, alpha, sc.m,
                              design_games=budget, predict=False, zone=zone)
            if first.decision != "undecided":
                tally.score(first, sc.gaps, tolerance, zone)
                continue
        v = at.decide(played, sc.rulebook, tolerance, alpha, sc.m, design_games=budget,
                      predict=False, zone=zone)
        tally.score(v, sc.gaps, tolerance, zone)
    return tally


@pytest.mark.parametrize("name", ["border", "thirds"])
def test_a_cell_whose_best_vector_sits_at_the_tolerance_ends(name: str) -> None:
    """The best vector exactly at the tolerance: without a zone such a cell need never end;
    with one, every cell ends within ``worst_case_games`` (either verdict is right there),
    and (one vector at 2 players) neither side is always chosen. At 3 players the budget is twice one vector's
    worst case (``REVISIT``): at one, a misled first choice left 15 of these 40 undecided."""
    sc = scenario(name)
    tolerance = sc.tolerance
    c = cells(sc, tolerance, tolerance / 4, 0.05, 40, seed=11)
    assert c.undecided == 0, c.row()
    assert c.wrong_fair == c.wrong_none == 0, c.row()
    if name == "border":
        assert c.confirmed > 0 and c.no_fair > 0, c.row()


@pytest.mark.parametrize(("name", "side"), [("border", "fair"), ("border", "none"),
                                            ("twin", "fair"), ("thirds", "fair"),
                                            ("thirds", "none"), ("curse", "fair")])
def test_errors_at_the_edges_of_the_zone(name: str, side: str) -> None:
    """``fair``: tolerance + zone is the best vector's gap, so every confirmation is wrong: at most
    alpha_c of the cells. ``none``: tolerance - zone is the best gap, so every "no fair vector" is
    wrong: at most alpha_n. The cells end all the same."""
    sc = scenario(name)
    best, alpha = min(sc.gaps.values()), 0.3
    zone = best / 5
    tolerance = best - zone if side == "fair" else best + zone
    c = cells(sc, tolerance, zone, alpha, 150, seed=len(name) + (side == "fair"))
    assert c.undecided == 0, c.row()
    assert at_most(c.wrong_fair, c.cells, alpha * at.CONFIRM_SHARE), c.row()
    assert at_most(c.wrong_none, c.cells, alpha * (1 - at.CONFIRM_SHARE)), c.row()
    right = c.no_fair if side == "fair" else c.confirmed
    assert right > c.cells // 2, c.row()  # the right call, most of the time


@pytest.mark.parametrize("name", ["near-twin", "fair"])
def test_the_named_vector_is_within_what_the_verdict_says_of_the_most_equal(name: str) -> None:
    """``within_best`` bounds how much less equal the named vector is than the most equal
    candidate, wrong in at most alpha of cells: near-twin names the 8.7 pp vector in place
    of the 8.0 pp one in about half its cells, and the bound covers that; where the
    most equal vector stands 10 pp clear of the rest (fair), the verdict shows its name
    within the zone."""
    sc = scenario(name)
    tolerance, zone, alpha = (0.03, 0.0075, 0.3) if name == "fair" else (sc.tolerance, 0.02, 0.1)
    best = min(sc.gaps.values())
    worst = at.worst_case_games(sc.cell.players, tolerance, zone, alpha)
    assert worst is not None
    sizes = list(at.stage_sizes(worst, max(worst // 32, 30 * sc.cell.players), sc.cell.players))
    confirmed = misnamed = wrong = shown = 0
    for i in range(120):
        v = at.decide(tables(sc, sizes, np.random.default_rng([9, i])), sc.rulebook, tolerance,
                      alpha, sc.m, design_games=worst, predict=False, zone=zone)
        if v.decision != "confirmed":
            continue
        assert v.within_best is not None
        excess = sc.gaps[v.vector] - best
        confirmed += 1
        misnamed += excess > EPS
        wrong += v.within_best < excess - EPS
        shown += v.within_best <= zone
    assert confirmed > 100, confirmed
    assert at_most(wrong, confirmed, alpha), (wrong, confirmed)
    if name == "near-twin":
        assert misnamed > 20, misnamed  # the bound is put to work
    else:
        assert misnamed == 0 and shown == confirmed, (misnamed, shown, confirmed)


@pytest.mark.parametrize(("name", "tolerance", "zone", "alpha"),
                         [("fair", 0.06, 0.015, 0.3), ("near-twin", 0.12, 0.02, 0.1)])
def test_a_cell_that_plays_on_for_its_name_ends_with_it_shown(
        name: str, tolerance: float, zone: float, alpha: float) -> None:
    """``naming``: a confirmed cell plays on until its name is shown within the zone of the
    most equal candidate, and within ``naming_games`` every cell gets there. Without it
    most of these cells stop with the name not shown (fair: 84 of 120 at confirmation);
    near-twin's two best vectors lie 0.7 pp apart, inside the zone, so either name keeps
    the promise, and the bound still never falls below the truth."""
    sc = scenario(name)
    players = sc.cell.players
    named_from = len(sc.vectors) if players == 2 else sc.m
    worst = at.worst_case_games(players, tolerance, zone, alpha)
    assert worst is not None
    budget = max(worst, at.naming_games(players, zone, alpha, named_from))
    sizes = list(at.stage_sizes(budget, max(budget // 64, 30 * players), players))
    best, longer = min(sc.gaps.values()), 0
    for i in range(30):
        played = tables(sc, sizes, np.random.default_rng([3, i]))
        v = at.decide(played, sc.rulebook, tolerance, alpha, sc.m, design_games=budget,
                      predict=False, zone=zone, naming=True)
        plain = at.decide(played, sc.rulebook, tolerance, alpha, sc.m, design_games=budget,
                          predict=False, zone=zone)
        assert v.decision == plain.decision == "confirmed" and v.settled and v.naming
        assert v.within_best is not None and v.within_best <= zone, v.explain
        assert sc.gaps[v.vector] - best <= v.within_best + EPS
        assert "no candidate is more than" in v.explain
        assert v.games >= plain.games and set(plain.fair_set) <= set(v.fair_set)
        longer += v.games > plain.games
    assert longer >= 10, longer  # the name is what the later games were for


def test_extending_at_the_zone_edge_keeps_the_rate() -> None:
    """Looked at after half the budget, then on all of it (the earlier games kept): the
    wrong confirmations at either look stay within alpha_c."""
    sc = scenario("twin")
    best, alpha = min(sc.gaps.values()), 0.3
    c = cells(sc, best * 0.8, best * 0.2, alpha, 200, seed=5, extend=True)
    assert c.undecided == 0, c.row()
    assert at_most(c.wrong_fair, c.cells, alpha * at.CONFIRM_SHARE), c.row()


def test_a_resumed_cell_with_a_zone_is_the_same_cell() -> None:
    sc = scenario("border")
    tolerance = sc.tolerance
    worst = at.worst_case_games(2, tolerance, tolerance / 4, 0.05)
    assert worst is not None
    sizes = list(at.stage_sizes(worst, worst // 32, 2))
    played = tables(sc, sizes, np.random.default_rng(7))
    whole = at.decide(played, sc.rulebook, tolerance, design_games=worst, zone=tolerance / 4)
    k = whole.decided_at + 1
    assert whole.decision != "undecided"
    assert at.decide(played[:k], sc.rulebook, tolerance, design_games=worst, zone=tolerance / 4) == whole
    assert whole.model_dump(mode="json")["zone"] == tolerance / 4


def test_the_named_vector_is_the_most_equal_shown_fair() -> None:
    """Ranked by gap, not by VP moved: the rulebook's 0/0 (gap 14.6 pp) and 0/1 (5.0 pp)
    are both shown fair within 17 pp to 2 pp; 0/1 is named (the rule before named 0/0)."""
    sc = scenario("border")
    played = tables(sc, [40_000], np.random.default_rng(3))
    v = at.decide(played, (0, 0), 0.17, zone=0.02)
    assert v.decision == "confirmed" and {(0, 0), (0, 1)} <= set(v.fair_set), v.fair_set
    assert v.vector == (0, 1)
    assert 0 < v.best_gap_low <= 0.0504 <= v.gap_interval[1]


def test_worst_case_games_follow_the_question() -> None:
    """Within 1.3 times the fixed-sample test of the same error rates (one look between
    gaps of 1.5 and 2.5 pp: 176,490 games at the prior variance; the planned looks spend
    the error budget there); quadrupled by halving the zone; smaller for more players (a
    smaller variance per pair); none without a zone."""
    two = at.worst_case_games(2, 0.02, 0.005, 0.05)
    half = at.worst_case_games(2, 0.02, 0.0025, 0.05)
    four = at.worst_case_games(4, 0.02, 0.005, 0.05)
    assert two is not None and half is not None and four is not None
    fair, unfair = at.levels(2, 0.05)
    fixed = ((special.ndtri(1 - fair) + special.ndtri(1 - unfair)) / 0.01) ** 2
    assert fixed < two < 1.3 * fixed, (two, fixed)
    assert 3.9 < half / two < 4.1 and four < 2 * two
    assert at.worst_case_games(2, 0.02, 0.0, 0.05) is None


@pytest.mark.parametrize("zone", [-0.001, 0.02, 0.5, float("nan"), 1e300])
def test_a_zone_outside_its_range_is_one_line(zone: float) -> None:
    with pytest.raises(CdsimError, match="--zone must be at least 0 and below the tolerance"):
        at.check_zone(zone, 0.02, "--zone")
    assert at.check_zone(0.0, 0.02, "--zone") == 0.0


def test_a_study_without_games_gets_the_worst_case(tmp_path: Path) -> None:
    """``games`` left out: each cell's budget is its worst case (whole deals), its design
    there; a population's own ``games`` still wins, and without a zone the old default."""
    from cdsim.study.model import load_study

    path = tmp_path / "q.toml"
    path.write_text('name = "q"\nplayers = [2, 4]\ntolerance = 0.1\nzone = 0.02\n'
                    '[[population]]\nname = "mix"\nlineup = ["greedy", "villa", "bread", "landscape"]\n'
                    '[[population]]\nname = "r"\nlineup = ["random"]\ngames = 1000\n')
    study = load_study(path)
    budgets = {c.key: (c.games, c.design) for c in study.cells}
    for players, deal in ((2, 12), (4, 4)):
        worst = at.worst_case_games(players, 0.1, 0.02, 0.05)
        assert worst is not None
        games = -(-worst // deal) * deal
        assert budgets[f"{players}p.mix"] == (games, games)
    assert budgets["2p.r"] == (1000, 1000)
    path.write_text(path.read_text().replace("zone = 0.02", "zone = 0"))
    assert load_study(path).cells[0].games == 100_008  # 100,000 in whole deals of 12


def test_games_to_decide_comes_true() -> None:
    """An undecided cell at the tolerance says at most how many more games decide it either
    way; one more stage of that many does, in nearly every cell."""
    sc = scenario("border")
    tolerance = sc.tolerance
    decided = asked = 0
    for i in range(40):
        rng = np.random.default_rng([17, i])
        played = tables(sc, [200, 400, 800], rng)
        v = at.decide(played, sc.rulebook, tolerance, zone=tolerance / 4)
        if v.decision != "undecided":
            continue
        assert v.games_to_decide is not None and f"at most about {v.games_to_decide:,}" in v.explain
        asked += 1
        more = tables(sc, [v.games_to_decide], rng)
        decided += at.decide(played + more, sc.rulebook, tolerance, predict=False,
                             zone=tolerance / 4).decision != "undecided"
    assert asked >= 30 and decided >= 0.9 * asked, (decided, asked)
    assert at.decide(played, sc.rulebook, tolerance).games_to_decide is None  # no zone, no bound


def test_extended_past_its_plan_the_rate_holds() -> None:
    """A cell planned for a budget too small to decide it (half its worst case), judged at
    the end of its plan and then extended by stages the plan did not hold (the planned part
    is spent; the mixture carries on): wrong confirmations at either look stay within
    alpha_c, and so at the other edge do wrong "no fair vector" calls."""
    sc = scenario("twin")
    best, alpha = min(sc.gaps.values()), 0.3
    zone = best / 5
    for side, tolerance in (("fair", best - zone), ("none", best + zone)):
        worst = at.worst_case_games(2, tolerance, zone, alpha)
        assert worst is not None
        budget = worst // 2
        sizes = list(at.stage_sizes(budget, budget // 32, 2))
        more = list(at.stage_sizes(4 * budget, budget // 32, 2, played=sizes))[len(sizes):]
        tally = Tally()
        for i in range(150):
            rng = np.random.default_rng([77, i, side == "fair"])
            played = tables(sc, sizes, rng)
            v = at.decide(played, sc.rulebook, tolerance, alpha, sc.m, design_games=budget,
                          predict=False, zone=zone)
            if v.decision == "undecided":
                v = at.decide(played + tables(sc, more, rng), sc.rulebook, tolerance, alpha, sc.m,
                              design_games=budget, predict=False, zone=zone)
            tally.score(v, sc.gaps, tolerance, zone)
        assert at_most(tally.wrong_fair, tally.cells, alpha * at.CONFIRM_SHARE), tally.row()
        assert at_most(tally.wrong_none, tally.cells, alpha * (1 - at.CONFIRM_SHARE)), tally.row()


def test_the_planned_looks_spend_the_error_budget() -> None:
    """One pair at each edge of the zone, the study's stages, alpha 5% (the stage means
    drawn from their normal law, scripts/zone_rates.py): the wrong rates come within their
    bounds (1.25% a wrong "fair" at one end of the 2-player family, 2.5% a wrong "no fair
    vector") and use most of them, where the mixture alone used a seventh; every cell ends
    within the worst case, and a cell at the tolerance needs on average at most 1.3 times
    the fixed-sample test's games."""
    from scripts.zone_rates import TOL, ZONE, fixed_sample, one_vector

    reps = 20_000
    fair, _, open_, _ = one_vector(TOL + ZONE, reps, seed=3)
    _, none, _, _ = one_vector(TOL - ZONE, reps, seed=4)
    _, _, middle_open, games = one_vector(TOL, reps, seed=5)
    bound_fair, bound_none = at.levels(2, 0.05)
    assert at_most(round(fair * reps), reps, bound_fair) and fair > 0.5 * bound_fair, fair
    assert at_most(round(none * reps), reps, bound_none) and none > 0.3 * bound_none, none
    assert open_ == middle_open == 0.0
    assert games < 1.3 * fixed_sample(), games / fixed_sample()


def test_the_planned_value_reads_a_seat_pair_table_of_any_layout() -> None:
    """``Planned.value`` on a (vectors, pairs) table as ``WinTable.pair_stats`` makes it
    (Fortran-ordered at 3 and 4 players) gives the values of the same numbers in C order,
    the same on every call: it once wrote its result through a copy and returned
    uninitialised memory, so a 3-player cell's "no fair vector" came and went from one run
    to the next (tests/test_study.py's tiny study)."""
    from cdsim.analysis.boundary import planned

    plan = planned((30.0, 90.0, 210.0, 720.0), 0.005)
    wins = np.arange(60).reshape(20, 3)
    i, j = np.array([0, 0, 1]), np.array([1, 2, 2])
    s = (wins[:, i] - wins[:, j]) / 7.0 - 4.0  # fancy-indexed: Fortran order, like pair_stats
    assert not s.flags["C_CONTIGUOUS"]
    for t in (30.0, 50.0, 90.0):
        want = plan.value(np.ascontiguousarray(s), t)
        for _ in range(3):
            np.testing.assert_array_equal(plan.value(s, t), want)
        assert want.shape == s.shape and ((want >= 0) & (want <= 1)).all()


def test_a_confirmed_interval_never_reaches_past_what_was_shown() -> None:
    """A confirmation shows every seat pair below tolerance + zone with its own tests (the
    planned ones among them); the reported interval (the mixture's, simultaneous over the
    pairs) may be wider, and a page then read "confirmed fair" beside an interval reaching
    past the bound (the default study's 2-player random cell: 0.0-2.7 pp beside "shown
    below 2.5 pp"). Its upper end stops at the bound; at least one of these cells would
    reach past it otherwise."""
    sc = scenario("border")
    best, alpha = min(sc.gaps.values()), 0.3
    zone = best / 5
    tolerance = best  # the truth at the tolerance: confirmed about half the time
    worst = at.worst_case_games(sc.cell.players, tolerance, zone, alpha)
    assert worst is not None
    sizes = list(at.stage_sizes(worst, max(worst // 32, 60), sc.cell.players))
    past = confirmed = 0
    for i in range(60):
        v = at.decide(tables(sc, sizes, np.random.default_rng([3, i])), sc.rulebook, tolerance,
                      alpha, sc.m, design_games=worst, predict=False, zone=zone)
        if v.decision != "confirmed":
            continue
        confirmed += 1
        assert v.gap_interval[1] <= tolerance + zone, v
        past += v.gap_interval[1] == tolerance + zone
    assert confirmed > 10 and past > 0, (confirmed, past)
