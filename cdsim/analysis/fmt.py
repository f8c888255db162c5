"""How cdsim writes a number, in one place: a win share in % (``pct``), a difference or a
gap of shares in percentage points (``pp``, signed ``pts``), a starting-VP vector as a
designer writes it (``vec``: 8/9/10/11), a seat as people count it (``seat_label``: from 1),
a chart's tick in % or points, and a number in JSON (``number``: no NaN, rounded where the
file says so). A page, its Markdown, the terminal, the JSON and the verdicts' own sentences
(``cdsim.analysis``: a verdict's ``explain``, a variant's change, the skill panel) then say
a number the same way. Here, the lowest ring that words a figure, so that reports/ and
cdsim.analysis share it; the figures themselves are ``cdsim.analysis``'s."""

from __future__ import annotations

import math
from collections.abc import Sequence


def pct(x: float) -> str:
    """A share in %: 0.253 -> "25.3%"."""
    return f"{100 * x:.1f}%"


def pct_or_dash(x: float | None) -> str:
    """``pct``, or "-" for a share there is none of (None, NaN)."""
    return "-" if x is None or math.isnan(x) else pct(x)


def interval(share: float, low: float, high: float) -> str:
    """A share with its interval: "25.3% [22.1%, 28.6%]"."""
    return f"{pct(share)} [{pct(low)}, {pct(high)}]"


def pp(x: float, *, unit: bool = True, sign: bool = False) -> str:
    """A difference or gap of shares in percentage points: 0.012 -> "1.2 pp"; ``sign``:
    "+1.2 pp"; without the ``unit``: "1.2"."""
    text = f"{100 * x:+.1f}" if sign else f"{100 * x:.1f}"
    return f"{text} pp" if unit else text


def pts(x: float) -> str:
    """A difference of shares in percentage points, signed, without the unit: "+1.2"."""
    return f"{100 * x:+.1f}"


def pts_interval(x: float, low: float, high: float) -> str:
    """``pts`` with its interval: "+1.2 [-0.3, +2.7]"."""
    return f"{pts(x)} [{pts(low)}, {pts(high)}]"


def vec(v: Sequence[int]) -> str:
    """A starting-VP vector as a designer writes it: 8/9/10/11 (numpy's ints too)."""
    return "/".join(str(int(x)) for x in v)


def rulebook(v: Sequence[int], bold: bool = False) -> str:
    """The rulebook's starting VP as a page names them, "rulebook 8/9" (its vector in bold
    with ``bold``); a rulebook that starts every seat alike gives no compensation for seat
    order, and is named so ("no compensation (every seat 0)"), never "rulebook 0/0"."""
    if len({int(x) for x in v}) > 1:
        return f"rulebook **{vec(v)}**" if bold else f"rulebook {vec(v)}"
    same = f"every seat {int(v[0])}" if len(v) else "none"
    return f"no compensation (**{same}**)" if bold else f"no compensation ({same})"


def seat_label(seat: int) -> str:
    """A seat as people count them (the rulebook's seat 1 is the first player, who gets 8 VP);
    the Parquet ``seat`` column and every array index stay 0-based."""
    return f"seat {seat + 1}"


def number(x: float | None, digits: int | None = None) -> float | None:
    """A number for JSON, which has no NaN: a value not found (None, NaN, infinite) is null;
    ``digits``: rounded to that many decimals."""
    if x is None or not math.isfinite(x):
        return None
    return float(x) if digits is None else round(float(x), digits)


def _decimals(x: float) -> int:
    """The decimals (up to 4) that write ``x`` exactly."""
    return next((d for d in range(4) if abs(round(x, d) - x) < 1e-6), 4)


def percent_tick(value: float, _position: object = None) -> str:
    """A share as a tick label with the decimals it needs, so the label says exactly where
    the tick is (27.5% as "27.5%", never rounded onto "28%")."""
    pct = 100 * value
    return f"{pct:.{_decimals(pct)}f}%"


def points_tick(value: float, _position: object = None) -> str:
    """A difference of shares as a tick label in percentage points, signed, with the
    decimals it needs (so "+2.5 pts" sits exactly on +0.025)."""
    points = 100 * value
    text = f"{points:+.{_decimals(points)}f}"
    return ("0" if float(text) == 0 else text) + " pts"


__all__ = ["interval", "number", "pct", "pct_or_dash", "percent_tick", "points_tick", "pp",
           "pts", "pts_interval", "seat_label", "vec"]
