"""Synthetic whatif comparisons at real-game sparsity, against a known truth: the ground
truth behind tests/test_paired_sparse.py and scripts/paired_rates.py (docs/statistics.md,
"Too few changed deals"). Not a test file: it is imported.

A 2-player scripted whatif plays deals of 12 games (6 line-ups, each in both seat
rotations). Most deals are unchanged by a one-card change (B05 at 6 VP leaves about 91% of
2-player deals as they were: the card is not in them); in a changed deal each game turns to
seat 2 with probability ``a`` and to seat 1 with ``b`` (``a + b = SWAP``), so seat 2's true
change of win share is ``changed * (a - b)``. With ``SWAP`` = 0.3 the per-deal standard
deviation is 0.05, that of the real B05 comparison (0.053, measured on 331 of its deals,
29 of them changed). The looks are a whatif's at its default budget: a first stage of 53
deals (636 games), then stages of 278 deals (3,336 games) up to 3,334 deals (40,008 games).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

import numpy as np

from cdsim.analysis import paired
from cdsim.analysis.anytime import MIN_GROUPS
from cdsim.study import comparisons
from cdsim.study import whatif as wi
from cdsim.study.model import FIRST_SHARE

GAMES = 12  # games of one deal (2 players, 6 line-ups, both rotations)
SWAP = 0.3  # the share of a changed deal's games whose winner turns
FIRST, STEP, BUDGET = 53, 278, 3334  # deals: the first stage, the next ones, the budget
CHANGED = 0.1  # the share of deals the change alters (90% unchanged)


def looks(budget: int = BUDGET) -> list[int]:
    """The deals after each stage: the first, then equal stages up to ``budget``."""
    out = [FIRST]
    while out[-1] < budget:
        out.append(min(out[-1] + STEP, budget))
    return out


def deals(rng: np.random.Generator, shift: float, count: int, changed: float = CHANGED
          ) -> np.ndarray:
    """``count`` deals' paired differences (deals, 2 seats) whose seat 2 truly gains
    ``shift`` (a share, not pp)."""
    half = shift / changed / 2
    a, b = SWAP / 2 + half, SWAP / 2 - half
    assert b >= 0 and a <= 1, "a shift too large for this sparsity"
    alters = rng.random(count) < changed
    turns = rng.multinomial(GAMES, [a, b, 1 - a - b], size=count)
    seat2 = np.where(alters, (turns[:, 0] - turns[:, 1]) / GAMES, 0.0)
    return np.stack([-seat2, seat2], axis=1)


@dataclass
class Rates:
    """What ``RUNS`` comparisons at one truth said: outcomes, and the faults checked."""

    shift: float
    outcomes: Counter[str] = field(default_factory=Counter)
    first_look: int = 0  # decided at the first look
    zero_bound: int = 0  # "at most 0.0 pp" printed at the stop
    bound_misses: int = 0  # the bound at the stop below the true shift
    size_misses: int = 0  # the largest shift's interval at the stop misses the truth
    deals: int = 0  # deals played, all comparisons
    runs: int = 0

    def wrong(self) -> int:
        """Wrong answers: "unchanged" at a true shift of the margin or more, "changed" at
        less (seat 2 named by its interval)."""
        return self.outcomes["unchanged"] if self.shift >= paired.MARGIN else \
            self.outcomes["changed"]


def run(shift: float, runs: int, seed: int, budget: int = BUDGET,
        changed: float = CHANGED, precision: float = paired.MARGIN,
        schedule: Schedule | None = None) -> Rates:
    """``runs`` comparisons at a true shift of seat 2, each looked at until decided or at
    ``budget`` deals: at the looks of a whatif designed for its budget (``looks``), or with
    ``schedule`` as a whatif plays now (``until_decided``: its design, first stage and
    shortened stages; ``budget`` then only a cap for the simulation)."""
    rng = np.random.default_rng(seed)
    out = Rates(shift)
    design = paired.design_deals(budget * GAMES, GAMES)
    for _ in range(runs):
        per_deal = deals(rng, shift, budget, changed)
        comp = None
        if schedule is not None:
            seen = until_decided(per_deal, schedule, precision)
            comp = seen[-1].comp
            out.first_look += len(seen) == 1 and comp.outcome != "undecided"
        else:
            for k, end in enumerate(looks(budget)):
                comp = paired.compare(per_deal[:end], design, precision, games_per_deal=GAMES)
                if comp.outcome != "undecided":
                    out.first_look += k == 0
                    break
        assert comp is not None
        out.outcomes[comp.outcome] += 1
        out.deals += comp.deals
        out.runs += 1
        out.zero_bound += "at most 0.0 pp" in comp.bound_words()
        out.bound_misses += comp.bound() < shift
        found = comp.largest()
        out.size_misses += found is not None and not found[2] <= shift <= found[3]
    return out


@dataclass(frozen=True)
class Schedule:
    """A 2-player scripted whatif's stages as cdsim.study plans them (deals, not games):
    its first stage, a usual stage after it and the deals its sequences are designed for
    (``whatif.DESIGN``: where they are tightest; not a cap)."""

    first: int
    step: int
    design: int


def whatif_schedule(design_games: int | None = None) -> Schedule:
    """The stages of a whatif designed for ``design_games`` a side (its default:
    ``whatif.DESIGN["scripted"]``), by the rules of ``cdsim.study.model`` (the first stage:
    1/``FIRST_SHARE`` of the design, at least ``MIN_GROUPS`` deals) and
    ``cdsim.study.comparisons`` (a usual stage: 1/``LOOKS`` of it)."""
    games = wi.DESIGN["scripted"] if design_games is None else design_games
    design = -(-games // GAMES) * GAMES
    first = max(MIN_GROUPS * GAMES, -(-design // FIRST_SHARE // GAMES) * GAMES)
    step = max(first, -(-design // comparisons.LOOKS // GAMES) * GAMES)
    return Schedule(first // GAMES, step // GAMES, design // GAMES)


@dataclass(frozen=True)
class Look:
    """One look of a simulated whatif: its deals, its comparison and the more games a side
    it said would decide it (None: decided, or it cannot say)."""

    deals: int
    comp: paired.Comparison
    more: int | None

    @property
    def outcome(self) -> str:
        return self.comp.outcome


def until_decided(per_deal: np.ndarray, schedule: Schedule,
                  precision: float = paired.MARGIN) -> list[Look]:
    """A whatif's looks at ``per_deal`` (deals, seats) without a cap, as
    ``comparisons.Pair.next_size`` stages them: the first stage, then usual stages, each
    shortened to the games the last look says decide it (never below a quarter of a usual
    one), until a look decides or the deals run out (the last stage cut to them)."""
    out: list[Look] = []
    end = min(schedule.first, len(per_deal))
    while True:
        comp = paired.compare(per_deal[:end], schedule.design, precision,
                              games_per_deal=GAMES)
        more = comp.games_to_decide()
        out.append(Look(end, comp, more))
        if comp.outcome != "undecided" or end >= len(per_deal):
            return out
        need = None if more is None else -(-more // GAMES)
        step = schedule.step if need is None else min(
            schedule.step, max(need, schedule.step // comparisons.SHORTEST))
        end = min(end + max(1, step), len(per_deal))


__all__ = ["BUDGET", "CHANGED", "FIRST", "GAMES", "STEP", "SWAP", "Look", "Rates", "Schedule",
           "deals", "looks", "run", "until_decided", "whatif_schedule"]
