"""Every figure of a run's report, read once (``cdsim report``): the run folder opened, its
rows and per-game arrays read, and each figure computed by ``cdsim.analysis`` (the seat and
strategy shares with their intervals, the VP over the game, the final VP, the running
shares, the games a seat gap needs, the per-card table and the starting-VP balance). A
figure the run's game has no columns for (the VP over the game, the cards) is None, and its
section is left out of the page.
``reports.report`` words and lays out what ``read_results`` returns, and computes nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import polars as pl

from cdsim.analysis.cards import UnknownKind, by_seat, card_outcomes
from cdsim.analysis.rows import (
    Convergence,
    FinalVP,
    GameShape,
    SeatBalance,
    Strategies,
    convergence,
    final_vp,
    game_shape,
    power_table,
    seat_balance,
    strategies,
)
from cdsim.analysis.stats import Power
from cdsim.batch.balance import BalanceResult, analyse
from cdsim.batch.read import (
    GameWithoutCards,
    NoCardTable,
    Run,
    SeatArrays,
    card_rows,
    open_run,
    seat_arrays,
)
from cdsim.errors import CdsimError

POWER_EFFECTS = (0.02, 0.03, 0.05, 0.10)  # the seat gaps whose games the report names

__all__ = ["POWER_EFFECTS", "CardSection", "RunResults", "card_section", "judge",
           "read_results", "results_of"]


@dataclass(frozen=True)
class CardSection:
    """The per-card table (``cdsim.analysis.cards.card_outcomes``) and its breakdown by seat
    (``by_seat``) of a run, or why there are none (``missing``)."""

    table: pl.DataFrame | None
    seats: pl.DataFrame | None
    missing: str = ""


def card_section(run: Run) -> CardSection | None:
    """The run's card figures; a run without the card table, or with rows of a kind its
    game's card table does not follow, says so in one line; None: the run's game has no
    cards."""
    try:
        cards = card_rows(run)
    except GameWithoutCards:
        return None
    except NoCardTable as exc:
        return CardSection(None, None, str(exc))
    kinds = run.spec.cards.kinds if run.spec.cards is not None else ()
    try:
        return CardSection(card_outcomes(cards, kinds), by_seat(cards, kinds))
    except UnknownKind as exc:
        return CardSection(None, None, f"{run.path}/cards: {exc}")


def judge(run: Run, arrays: SeatArrays, tolerance: float) -> BalanceResult | str:
    """The run's balance (``cdsim.batch.balance``, the study's engine on one run), or why
    there is none (e.g. a player that reads VP totals): the answer box and the starting-VP
    section both show this one result, so they cannot disagree."""
    try:
        return analyse(run, arrays, tolerance)
    except CdsimError as exc:
        return str(exc)


@dataclass(frozen=True)
class RunResults:
    """What ``cdsim report`` shows of one run, computed: the run as opened (its settings and
    manifest), its starting VP by seat and each section's figures."""

    run: Run
    start_vp: tuple[int, ...]  # the run's starting VP by seat (its first game's)
    judged: BalanceResult | str  # the starting-VP balance, or why there is none
    seats: SeatBalance
    strategies: Strategies
    shape: GameShape | None  # ``game_shape``: per seat and moment, quartiles and mean of VP
    final: FinalVP
    convergence: Convergence
    cards: CardSection | None
    power: tuple[Power, ...]  # ``power_table`` of ``POWER_EFFECTS``


def results_of(run: Run, tolerance: float = 0.02,
               effects: Sequence[float] = POWER_EFFECTS) -> RunResults:
    """Every figure of the report of the opened ``run``."""
    arrays = seat_arrays(run)
    judged = judge(run, arrays, tolerance)
    seats = seat_balance(run, arrays)
    return RunResults(
        run=run, start_vp=tuple(int(x) for x in arrays.start_vp[0]), judged=judged,
        seats=seats, strategies=strategies(run), shape=game_shape(run), final=final_vp(run),
        convergence=convergence(arrays, seats.deff), cards=card_section(run),
        power=power_table(run.players, effects))


def read_results(path: Path, tolerance: float = 0.02) -> RunResults:
    """Open the run folder ``path`` and compute every figure of its report."""
    return results_of(open_run(path), tolerance)
