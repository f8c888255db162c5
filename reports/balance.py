"""`cdsim balance` and a report's starting-VP section: the words of a run's balance.

The runs are opened, pooled and judged below (``cdsim.batch.balance``: the study's
procedure on one run, a one-stage cell, with the commands that confirm a vector on fresh
games); this module renders its ``BalanceResult`` as text, tables and JSON (and names what
it judges with, for the command's callers). Seats are counted from 1.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypedDict

import numpy as np

from cdsim.analysis.balance import Balance, check_tolerance, words
from cdsim.analysis.cell import Shares
from cdsim.analysis.fmt import interval, number, pp, vec
from cdsim.analysis.rare import note
from cdsim.batch.balance import BalanceResult
from cdsim.games import counts_said

__all__ = ["as_json", "check_tolerance", "comparison_table", "explain", "format_text", "gap_text",
           "words"]


def _zone(b: Balance) -> str:
    return f" (indifference zone ±{pp(b.zone)})" if b.zone else ""


def gap_text(s: Shares) -> str:
    low, high = s.gap_interval
    if (low, high) == (0.0, 1.0):  # no bound before MIN_GROUPS deals (shares)
        return f"largest seat gap {pp(s.largest_gap)} (too few games to bound it)"
    return f"largest seat gap {pp(s.largest_gap)} (95% interval {100 * low:.1f} to {pp(high)})"


def _offsets(result: Balance) -> str:
    if not result.offsets:
        return ""
    parts = [f"seat {s + 2} {o.offset:+.1f} VP" + (f" ({o.low:+.1f} to {o.high:+.1f})"
                                                    if np.isfinite([o.low, o.high]).all() else
                                                    " (no interval from these games)")
             if np.isfinite(o.offset) else f"seat {s + 2} beyond ±{result.radius} VP"
             for s, o in enumerate(result.offsets)]
    return "Fair offset over seat 1 (95% interval): " + ", ".join(parts) + "."


def explain(result: BalanceResult, counts: Sequence[int]) -> str:
    """One paragraph: the verdict in the study's words, the run's own vector, and what
    would confirm the most equal one; ``counts``: the game's player counts
    (``GameSpec.player_counts``), those above 2 named where the vectors to test are chosen
    on the games themselves."""
    b = result.balance
    v = b.verdict
    what = ("this run as one stage" if b.stages == 1 else
            f"the cell's {b.stages} stages, as the study judges them")
    text = (f"Re-ranked {b.games:,} logged games exactly (no player reads VP totals) over the "
            f"vectors within ±{b.radius} VP of {vec(b.current.vector)}, judged by the study's "
            f"procedure on {what}. ")
    if v.decision == "confirmed":
        text += (f"**{vec(v.vector)}: confirmed fair** within ±{pp(b.tolerance)}{_zone(b)} "
                 f"({gap_text(b.best)}); the procedure confirms a vector {pp(b.tolerance + b.zone)} "
                 f"or more unfair in at most {v.alpha / 2:.1%} of cells. ")
    elif v.decision == "no fair vector":
        text += (f"**No fair vector**: every vector within ±{b.radius} VP has a seat pair "
                 f"shown more than ±{pp(b.tolerance - b.zone)} apart{_zone(b)} (wrong in at most "
                 f"{v.alpha / 2:.1%} "
                 f"of cells); the most equal is {vec(v.vector)} ({gap_text(b.best)}). ")
    else:
        more = counts_said(tuple(n for n in counts if n > 2) or (b.players,))
        why = (f"with {more} players the vectors to test are chosen on these games, so only "
               "fresh games can confirm one" if b.players > 2 and b.radius > 0 and b.stages == 1
               else "these games do not show it within the tolerance")
        text += (f"**{vec(v.vector)}: most equal so far (not confirmed)**, {gap_text(b.best)}; "
                 f"{why}. ")
    if result.rare:  # the proposed vector carries the warning
        text += note(result.rare) + " "
    if b.current.vector != v.vector:
        text += f"Now ({vec(b.current.vector)}): {gap_text(b.current)}. "
    text += _offsets(b)
    if result.confirm:
        games = (f"about {b.confirm_games:,} fresh games{result.games_time(b.confirm_games)} "
                 "confirm it with 80% chance if its observed gap is the truth (optimistic: it "
                 "was picked on these games)"
                 if b.confirm_games else "it is unlikely to be confirmed at its observed gap")
        text += (f" To confirm {vec(v.vector)} ({games}): `{result.confirm[0]}`, then "
                 f"`{result.confirm[1]}`; or let `cdsim study run` decide.")
    return text.strip()


def comparison_table(result: BalanceResult) -> tuple[list[str], list[list[object]]]:
    b = result.balance
    header = ["seat", f"now: start VP {vec(b.current.vector)}", "win share [95% CI]",
              f"{words(b)}: {vec(b.best.vector)}", "win share [95% CI]"]
    rows: list[list[object]] = []
    for s in range(b.players):
        c, r = b.current, b.best
        rows.append([s + 1, c.vector[s], interval(c.share[s], c.low[s], c.high[s]),
                     r.vector[s], interval(r.share[s], r.low[s], r.high[s])])
    return header, rows


def format_text(result: BalanceResult) -> str:
    header, rows = comparison_table(result)
    table: list[list[object]] = [list(header), *rows]
    widths = [max(len(str(r[i])) for r in table) for i in range(len(header))]
    lines = ["  ".join(str(x).ljust(w) for x, w in zip(r, widths, strict=True)).rstrip()
             for r in table]
    b = result.balance
    lines += ["", f"verdict: {words(b)}: {vec(b.verdict.vector)} (tolerance ±{pp(b.tolerance)}, "
              f"zone ±{pp(b.zone)})", *([note(result.rare)] if result.rare else []),
              f"now: {gap_text(b.current)}", f"{vec(b.best.vector)}: {gap_text(b.best)}"]
    if b.offsets:
        lines.append(_offsets(b))
    if result.confirm:
        games = (f"about {b.confirm_games:,} fresh games{result.games_time(b.confirm_games)} "
                 "confirm it with 80% chance if its observed gap is the truth"
                 if b.confirm_games else
                 "it is unlikely to be confirmed at its observed gap")
        lines += [f"not confirmed by these games; confirm {vec(b.verdict.vector)} on fresh "
                  f"ones ({games}):", f"  {result.confirm[0]}", f"  {result.confirm[1]}"]
    return "\n".join(lines)


# ``cdsim balance --json`` (and a report's ``balance``), key by key in the order written.

class SeatShareJson(TypedDict):
    seat: int  # from 1
    start_vp: int
    wins: int
    share: float
    low: float
    high: float


class VectorJson(TypedDict):
    start_vp: list[int]
    seats: list[SeatShareJson]
    largest_gap: float
    gap_interval: list[float]


class OffsetJson(TypedDict):
    seat: int  # from 2: over seat 1
    offset: float | None
    low: float | None
    high: float | None


class ShiftCurveJson(TypedDict):
    seat: int
    shifts: list[int]
    share: list[float]
    low: list[float]
    high: list[float]


class RareWinnerJson(TypedDict):
    strategy: str
    wins: int
    seats: int
    share: float


class BalanceJson(TypedDict):
    runs: list[str]
    warnings: list[str]
    games: int
    players: int
    tolerance: float
    zone: float
    radius: int
    decision: str
    words: str
    vector: list[int]
    confirmed: bool
    verdict: dict[str, object]  # the verdict's own model_dump (cdsim.analysis)
    current: VectorJson
    most_equal: VectorJson
    fair_offsets: list[OffsetJson]
    confirm_command: list[str]
    confirm_games: int | None
    shift_curves: list[ShiftCurveJson]
    rare_winners: list[RareWinnerJson]  # strategies winning below rare.FLOOR of their seats
    note: str  # the warning the proposed vector carries ("" without rare winners)


def _seats(s: Shares) -> list[SeatShareJson]:
    return [SeatShareJson(seat=i + 1, start_vp=s.vector[i], wins=s.wins[i],
                          share=float(s.share[i]), low=float(s.low[i]), high=float(s.high[i]))
            for i in range(len(s.vector))]


def _vector(s: Shares) -> VectorJson:
    return VectorJson(start_vp=list(s.vector), seats=_seats(s), largest_gap=s.largest_gap,
                      gap_interval=list(s.gap_interval))


def as_json(result: BalanceResult) -> BalanceJson:
    """The balance as plain data (``cdsim balance --json``, a report's ``balance``); seats
    are counted from 1 and keyed (``seat``)."""
    b = result.balance
    shifts, share, low, high = b.curves
    return BalanceJson(
        runs=list(result.runs), warnings=list(result.warnings), games=b.games,
        players=b.players, tolerance=b.tolerance, zone=b.zone, radius=b.radius,
        decision=b.verdict.decision, words=words(b), vector=list(b.verdict.vector),
        confirmed=b.confirmed, verdict=b.verdict.model_dump(mode="json"),
        current=_vector(b.current), most_equal=_vector(b.best),
        fair_offsets=[OffsetJson(seat=s + 2, offset=number(o.offset), low=number(o.low),
                                 high=number(o.high)) for s, o in enumerate(b.offsets)],
        confirm_command=list(result.confirm), confirm_games=b.confirm_games,
        shift_curves=[ShiftCurveJson(seat=s + 1, shifts=list(shifts), share=share[s].tolist(),
                                     low=low[s].tolist(), high=high[s].tolist())
                      for s in range(b.players)],
        rare_winners=[RareWinnerJson(strategy=r.strategy, wins=r.wins, seats=r.seats,
                                     share=r.share) for r in result.rare],
        note=note(result.rare))
