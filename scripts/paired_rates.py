"""cdsim whatif's comparison measured at real-game sparsity (docs/statistics.md, "Too few
changed deals" and "The size beside the bound"): synthetic 2-player comparisons whose
truth is known (tests/sparse_pairs.py), looked at as a whatif looks.

    python -m scripts.paired_rates rates [RUNS]    # error rates, before and now
    python -m scripts.paired_rates played [RUNS]   # the same as a whatif plays now (its
                                                   # design, stages shortened, no cap)
    python -m scripts.paired_rates margin [RUNS]   # a true shift at the margin: decided at
                                                   # the budget, and by the more games said
    python -m scripts.paired_rates whatif [RUNS]   # the same as a whatif plays it now: its
                                                   # design and stages, no cap

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


def played(runs: int) -> None:
    """``rates``'s table for the rule as it is, at a whatif's own looks now
    (``sparse_pairs.whatif_schedule``: designed for 12,000 games a side, a first stage of
    30 deals, stages of 84 shortened to the games said; capped at 40,008 for the
    simulation alone)."""
    plan = sp.whatif_schedule()
    print("| true shift of seat 2 | unchanged | measured | changed | undecided | wrong "
          "| decided at the first look | \"at most 0.0 pp\" | bound below the truth "
          "| largest shift's interval misses | mean games a side |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for k, shift in enumerate(SHIFTS):
        r = sp.run(shift, runs, 400 + k, schedule=plan)
        o = r.outcomes
        print(f"| {100 * shift:.1f} pp | {o['unchanged']} | {o['measured']} | {o['changed']} "
              f"| {o['undecided']} | {r.wrong()} ({100 * r.wrong() / runs:.1f}%) "
              f"| {r.first_look} | {r.zero_bound} | {r.bound_misses} | {r.size_misses} | "
              f"{r.deals * sp.GAMES / runs:,.0f} |", flush=True)


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


STOPS = (12_000, 24_000, 40_008)  # games a side where a whatif's time might run out
CAP = 200_004  # games a side a simulated whatif plays at most (every one decides before)


def whatif(runs: int) -> None:
    """A true shift at the margin played as a 2-player scripted whatif plays it now
    (``sparse_pairs.whatif_schedule``: its design, first stage and stages shortened to the
    games said, no cap), at several shares of deals changed: the share decided by each of
    ``STOPS`` games a side, the games by which 80% are decided, and for those undecided at
    a stop, how often the "about N more games a side would decide it" they said was enough
    (decided by the stop + N) and how many more they truly took against N."""
    plan = sp.whatif_schedule()
    print(f"design {plan.design * sp.GAMES:,} games a side, first stage {plan.first} deals, "
          f"stages of {plan.step} deals; {runs} whatifs a row, a true shift of exactly the "
          "margin")
    head = " | ".join(f"decided by {s:,}" for s in STOPS)
    more = " | ".join(f"undecided at {s:,}: N enough / asked, median taken / N" for s in STOPS)
    print(f"| deals changed | per-deal sd | {head} | median games | 80% decided by | "
          f"wrong | {more} |")
    print("|---" * (5 + 2 * len(STOPS)) + "|")
    for k, changed in enumerate((0.1, 0.2, 0.3, 0.5)):
        rng = np.random.default_rng(300 + k)
        ends: list[int] = []
        sds: list[float] = []
        wrong = 0
        said: dict[int, list[tuple[int, int]]] = {s: [] for s in STOPS}  # (N, truly more)
        for _ in range(runs):
            per_deal = sp.deals(rng, paired.MARGIN, -(-CAP // sp.GAMES), changed)
            sds.append(float(per_deal[:, 1].std(ddof=1)))
            found = sp.until_decided(per_deal, plan)
            last = found[-1]
            assert last.outcome != "undecided", "raise CAP"
            wrong += last.outcome == "unchanged"
            end = last.deals * sp.GAMES
            ends.append(end)
            for stop in STOPS:
                before = [x for x in found if x.deals * sp.GAMES <= stop]
                if not before or before[-1].outcome != "undecided" or before[-1].more is None:
                    continue
                at = before[-1].deals * sp.GAMES
                said[stop].append((before[-1].more, end - at))
        arr = np.asarray(ends)
        shares = " | ".join(f"{100 * float(np.mean(arr <= s)):.0f}%" for s in STOPS)
        cells = []
        for stop in STOPS:
            pairs = said[stop]
            if not pairs:
                cells.append("-")
                continue
            enough = sum(taken <= n for n, taken in pairs)
            ratio = float(np.median([taken / max(n, 1) for n, taken in pairs]))
            cells.append(f"{enough} / {len(pairs)} ({100 * enough / len(pairs):.0f}%), "
                         f"{ratio:.2f}")
        print(f"| {100 * changed:.0f}% | {float(np.mean(sds)):.3f} | {shares} | "
              f"{int(np.median(arr)):,} | {int(np.quantile(arr, 0.8)):,} | {wrong} | "
              f"{' | '.join(cells)} |", flush=True)


if __name__ == "__main__":
    what = sys.argv[1] if len(sys.argv) > 1 else "rates"
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 1000
    {"rates": rates, "played": played, "margin": margin, "whatif": whatif}[what](count)
