"""cdsim whatif's comparison measured at real-game sparsity (docs/statistics.md, "Too few
changed deals" and "The size beside the bound"): synthetic 2-player comparisons whose
truth is known (tests/sparse_pairs.py), looked at as a whatif looks.

    python -m scripts.paired_rates rates [RUNS]    # error rates, before and now
    python -m scripts.paired_rates margin [RUNS]   # a true shift at the margin: decided at
                                                   # the budget, and by the more games said

By hand, not in the tests (tests/test_paired_sparse.py runs 200 comparisons per case).
"""

from __future__ import annotations

import math
import sys
from collections.abc import Iterator
from contextlib import contextmanager

import numpy as np

from cdsim.analysis import paired
from tests import sparse_pairs as sp

SHIFTS = (0.0, 0.005, 0.01, 0.015, 0.02)


@contextmanager
def before() -> Iterator[None]:
    """The rule before issue 62: the normal sequences alone, from the first look on."""
    kept = paired.MIN_CHANGED, paired.RATE_SHARE, paired.changed_rate
    paired.MIN_CHANGED, paired.RATE_SHARE = 0, 0.0
    paired.changed_rate = lambda changed, deals, level: 1.0  # type: ignore[assignment]
    try:
        yield
    finally:
        paired.MIN_CHANGED, paired.RATE_SHARE, paired.changed_rate = kept


def rates(runs: int) -> None:
    print("| true shift of seat 2 | rule | unchanged | measured | changed | undecided | wrong "
          "| decided at the first look | \"at most 0.0 pp\" | bound below the truth "
          "| largest shift's interval misses | mean games a side |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for k, shift in enumerate(SHIFTS):
        for name in ("before", "now"):
            if name == "before":
                with before():
                    r = sp.run(shift, runs, 100 + k)
            else:
                r = sp.run(shift, runs, 100 + k)
            o = r.outcomes
            print(f"| {100 * shift:.1f} pp | {name} | {o['unchanged']} | {o['measured']} | "
                  f"{o['changed']} | {o['undecided']} | {r.wrong()} ({100 * r.wrong() / runs:.1f}%) "
                  f"| {r.first_look} | {r.zero_bound} | {r.bound_misses} | {r.size_misses} | "
                  f"{r.deals * sp.GAMES / runs:,.0f} |", flush=True)


def margin(runs: int) -> None:
    """A true shift at the margin at several per-deal spreads (the share of deals changed):
    how many are decided within the 40,008-game budget, the budget that decides them
    whatever the truth (``worst_case_deals`` at the spread), and how many of the undecided
    one more stage of the number the answer gives decides."""
    print("| deals changed | per-deal sd | decided at 40,008 games | games a side that decide "
          "any truth | undecided with a number | decided by one more stage of it | "
          "median number |")
    print("|---|---|---|---|---|---|---|")
    design = paired.design_deals(sp.BUDGET * sp.GAMES, sp.GAMES)
    for k, changed in enumerate((0.1, 0.2, 0.3, 0.5)):
        rng = np.random.default_rng(200 + k)
        decided = asked = confirmed = 0
        numbers: list[int] = []
        sds: list[float] = []
        for _ in range(runs):
            per_deal = sp.deals(rng, paired.MARGIN, sp.BUDGET, changed)
            sds.append(float(per_deal[:, 1].std(ddof=1)))
            look = None
            for end in sp.looks():
                look = paired.compare(per_deal[:end], design, paired.MARGIN,
                                      games_per_deal=sp.GAMES)
                if look.outcome != "undecided":
                    break
            assert look is not None
            if look.outcome != "undecided":
                decided += 1
                continue
            more = look.games_to_decide()
            if more is None:
                continue
            asked += 1
            numbers.append(more)
            extra = sp.deals(rng, paired.MARGIN, math.ceil(more / sp.GAMES), changed)
            later = paired.compare(np.concatenate([per_deal, extra]), design, paired.MARGIN,
                                   games_per_deal=sp.GAMES)
            confirmed += later.outcome != "undecided"
        sd = float(np.mean(sds))
        whole = paired.worst_case_deals(sd, paired.MARGIN, seats=2) * sp.GAMES
        said = f"{confirmed} ({100 * confirmed / asked:.0f}%)" if asked else "-"
        median = f"{int(np.median(numbers)):,}" if numbers else "-"
        print(f"| {100 * changed:.0f}% | {sd:.3f} | {decided} of {runs} "
              f"({100 * decided / runs:.0f}%) | {whole:,} | {asked} | {said} | {median} |",
              flush=True)


if __name__ == "__main__":
    what = sys.argv[1] if len(sys.argv) > 1 else "rates"
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 1000
    {"rates": rates, "margin": margin}[what](count)
