"""Matplotlib charts (Agg backend, no screen). Each function returns PNG bytes.

Matplotlib is imported when the first chart is drawn (a third of a second): a page whose
charts were kept (``Doc.draw``, ``cdsim.study.memo``) never imports it."""

from __future__ import annotations

import functools
import io
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl
from numpy.typing import NDArray

from cdsim.analysis.fmt import pct, percent_tick, points_tick, seat_label

FloatArray = NDArray[np.float64]  # figures to draw, one per point (cdsim.analysis computes them)
COLOURS = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2")
# a game's VP sources take these in its breakdown's order (Carpe Diem's seven the first
# seven; The Castles of Tuscany's nine, nine): each source its own colour up to twelve
SOURCE_COLOURS = ("#7f7f7f", "#1f77b4", "#d62728", "#bcbd22", "#9467bd", "#17becf", "#2ca02c",
                  "#ff7f0e", "#8c564b", "#e377c2", "#000080", "#808000")


@functools.cache
def code() -> str:
    """The digest of what draws a chart (this file, the tick labels' formats, matplotlib's,
    Pillow's and numpy's versions): a kept chart is kept under it (``Doc.draw``)."""
    import inspect
    from importlib.metadata import version

    from cdsim.study.memo import code_digest

    return code_digest([Path(__file__), Path(inspect.getfile(percent_tick))], version("matplotlib"),
                       version("pillow"), np.__version__)


def whole_png(data: bytes) -> bool:
    """Whether ``data`` is a whole PNG file (its signature first, its end chunk last): a
    kept chart cut short is drawn again."""
    return data.startswith(b"\x89PNG\r\n\x1a\n") and data.endswith(b"IEND\xaeB`\x82")


def _plt() -> Any:
    """matplotlib.pyplot on the Agg backend, imported at the first chart."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def _integer_ticks() -> Any:
    from matplotlib.ticker import MaxNLocator

    return MaxNLocator(integer=True)


def _png(fig: Any) -> bytes:
    buf = io.BytesIO()
    fig.tight_layout()
    # tight_layout leaves a placeholder layout engine, for which savefig draws the whole
    # figure once more before drawing it into the PNG: the layout is done, so none (the
    # same pixels, one draw fewer)
    fig.set_layout_engine(None)
    fig.savefig(buf, format="png", dpi=110)
    _plt().close(fig)
    return buf.getvalue()


def _fair(ax: Any, players: int, horizontal: bool = True) -> None:
    (ax.axhline if horizontal else ax.axvline)(1 / players, color="black", lw=1, ls="--",
                                               label=f"fair 1/{players}")


def share_points(labels: Sequence[str], share: FloatArray, low: FloatArray, high: FloatArray,
                 players: int, title: str) -> bytes:
    """Win share per seat or strategy with its 95% interval, against the fair 1/N line. The
    axis spans the intervals and the fair line, not 0-100%: the differences between seats
    (22% against 27%) are the point; points, not bars, since the axis does not start at 0."""
    fig, ax = _plt().subplots(figsize=(6.4, 3.6))
    x = np.arange(len(labels))
    yerr = [np.clip(share - low, 0, None), np.clip(high - share, 0, None)]
    for i in x:
        ax.errorbar([i], [share[i]], yerr=[[yerr[0][i]], [yerr[1][i]]], fmt="o", ms=7,
                    color=COLOURS[i % len(COLOURS)], ecolor="black", capsize=6,
                    label="win share, 95% Wilson interval" if i == 0 else None)
        ax.annotate(pct(share[i]), (i, share[i]), textcoords="offset points",
                    xytext=(9, 0), va="center", fontsize=8,
                    bbox={"boxstyle": "round,pad=0.15", "fc": "white", "ec": "none", "alpha": 0.85})
    _fair(ax, players)
    lo = min(float(np.min(low)), 1 / players)
    hi = max(float(np.max(high)), 1 / players)
    pad = max(0.12 * (hi - lo), 0.005)
    ax.set_ylim(max(0.0, lo - pad), min(1.0, hi + pad))
    ax.yaxis.set_major_formatter(percent_tick)
    ax.set_xticks(x, labels)
    ax.set_xlim(-0.5, len(labels) - 0.5)
    ax.set_ylabel("win share (axis not from 0)")
    ax.set_title(title)
    ax.legend(loc="best", fontsize=8)
    return _png(fig)


def grouped(labels: Sequence[str], series: Sequence[tuple[str, FloatArray, FloatArray, FloatArray]],
            ylabel: str, title: str, line: float | None = None, line_label: str = "",
            grid: bool = False) -> bytes:
    """Points with interval bars, grouped: one group per label (e.g. seat), one colour per
    series (name, value, low, high); an optional horizontal reference line; ``grid``: dotted
    lines at every whole unit (whole VP)."""
    fig, ax = _plt().subplots(figsize=(6.8, 3.8))
    if grid:
        ax.yaxis.set_major_locator(_integer_ticks())
        ax.grid(axis="y", ls=":", lw=0.8, color="#999999")
    x = np.arange(len(labels))
    width = 0.8 / max(1, len(series))
    for i, (name, value, low, high) in enumerate(series):
        xs = x + (i - (len(series) - 1) / 2) * width
        v = np.asarray(value, dtype=float)
        yerr = [np.clip(v - low, 0, None), np.clip(high - v, 0, None)]
        ax.errorbar(xs, v, yerr=yerr, fmt="o", color=COLOURS[i % len(COLOURS)], capsize=4,
                    label=name)
    if line is not None:
        ax.axhline(line, color="black", lw=1, ls="--", label=line_label or None)
    ax.set_xticks(x, labels)
    ax.set_xlim(-0.6, len(labels) - 0.4)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.legend(fontsize=8, loc="center left", bbox_to_anchor=(1.01, 0.5))
    return _png(fig)


def fair_offsets(players: int, series: Sequence[tuple[str, FloatArray, FloatArray, FloatArray]]
                 ) -> bytes:
    """Each seat's fair offset (starting VP over seat 1, fractional) with its 95% interval,
    one colour per population; dotted lines at whole VP, the vectors a rulebook can print."""
    return grouped([seat_label(s) for s in range(1, players)], series,
                   "fair offset over seat 1 (VP)",
                   f"{players} players: the starting VP over seat 1 that make the seats equal",
                   0.0, "no compensation", grid=True)


def placements(df: pl.DataFrame, players: int) -> bytes:
    """Share of games each seat finished 1st..Nth (stacked horizontal bars)."""
    fig, ax = _plt().subplots(figsize=(6.4, 0.6 * players + 1.6))
    left = np.zeros(players)
    for rank in range(1, players + 1):
        part = df.filter(pl.col("rank") == rank).sort("seat")
        share = np.zeros(players)
        share[part["seat"].to_numpy()] = part["share"].to_numpy()
        ax.barh(np.arange(players), share, left=left, color=COLOURS[rank - 1],
                label=f"{rank}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(rank, 'th')}")
        for s in range(players):
            if share[s] > 0.06:
                ax.text(left[s] + share[s] / 2, s, f"{share[s]:.0%}", ha="center", va="center",
                        fontsize=8, color="white")
        left += share
    ax.set_yticks(np.arange(players), [seat_label(s) for s in range(players)])
    ax.invert_yaxis()
    ax.set_xlim(0, 1)
    ax.set_xlabel("share of games")
    ax.set_title("Placements by seat")
    ax.legend(loc="center left", bbox_to_anchor=(1.01, 0.5), fontsize=8)
    return _png(fig)


def vp_sources(df: pl.DataFrame, net: FloatArray) -> bytes:
    """Mean VP per source per strategy (the columns after ``strategy``, the game's sources
    in its order, each labelled with its name's words); negative sources (failed cards)
    stack downwards; ``net``: each strategy's sum of them."""
    names = df["strategy"].to_list()
    sources = [c for c in df.columns if c != "strategy"]
    fig, ax = _plt().subplots(figsize=(6.4, 3.8))
    x = np.arange(len(names))
    up, down = np.zeros(len(names)), np.zeros(len(names))
    for i, source in enumerate(sources):
        colour = SOURCE_COLOURS[i % len(SOURCE_COLOURS)]
        v = df[source].to_numpy().astype(float)
        pos, neg = np.clip(v, 0, None), np.clip(v, None, 0)
        ax.bar(x, pos, bottom=up, width=0.6, color=colour, label=source.replace("_", " "))
        ax.bar(x, neg, bottom=down, width=0.6, color=colour)
        up += pos
        down += neg
    ax.plot(x, net, "D", color="black", label="net mean")
    for i, v in enumerate(net):
        ax.annotate(f"{v:.1f}", (x[i], v), textcoords="offset points", xytext=(8, 0), fontsize=8,
                    va="center")
    ax.axhline(0, color="black", lw=0.8)
    ax.set_xlim(-0.7, len(names) - 0.3)
    ax.set_xticks(x, names)
    ax.set_ylabel("mean VP per game")
    ax.set_title("Where the VP come from, by strategy")
    ax.legend(fontsize=7, ncol=4, loc="upper center", bbox_to_anchor=(0.5, -0.12))
    return _png(fig)


def vp_by_phase(df: pl.DataFrame, moments: Sequence[str], players: int) -> bytes:
    """Median VP after each scoring phase and at the end (``moments``: the phases' columns
    in order, then the final one), with the interquartile band."""
    fig, ax = _plt().subplots(figsize=(6.4, 3.8))
    x = np.arange(len(moments))
    for s in range(players):
        part = df.filter(pl.col("seat") == s)
        order = [part["moment"].to_list().index(m) for m in moments]
        med = part["median"].to_numpy()[order]
        q25, q75 = part["q25"].to_numpy()[order], part["q75"].to_numpy()[order]
        xs = x + (s - (players - 1) / 2) * 0.12
        ax.errorbar(xs, med, yerr=[med - q25, q75 - med], marker="o", color=COLOURS[s], capsize=3,
                    lw=1.2, label=seat_label(s))
    ax.set_xticks(x, [*(f"after {k}" for k in range(1, len(moments))), "final"])
    ax.set_xlabel("scoring phase")
    ax.set_ylabel("VP (median; bar = middle 50%)")
    ax.set_title("VP over the game by seat")
    ax.legend(fontsize=8)
    return _png(fig)


def final_distributions(values: dict[int, FloatArray], means: dict[int, float]) -> bytes:
    fig, ax = _plt().subplots(figsize=(6.4, 3.6))
    lo = min(float(v.min()) for v in values.values())
    hi = max(float(v.max()) for v in values.values())
    bins = np.arange(np.floor(lo) - 0.5, np.ceil(hi) + 1.5, max(1.0, (hi - lo) / 60))
    for s, v in values.items():
        ax.hist(v, bins=bins.tolist(), histtype="step", density=True, lw=1.5, color=COLOURS[s],
                label=f"{seat_label(s)} (mean {means[s]:.1f})")
    ax.set_xlabel("final VP")
    ax.set_ylabel("share of games")
    ax.set_title("Final VP by seat")
    ax.legend(fontsize=8)
    return _png(fig)


def convergence(played: FloatArray, share: FloatArray, low: FloatArray, high: FloatArray,
                players: int) -> bytes:
    fig, ax = _plt().subplots(figsize=(6.4, 3.6))
    first = min(10, len(played) - 1)  # the first handful of games only show noise
    for s in range(players):
        ax.plot(played[first:], share[s, first:], color=COLOURS[s], lw=1.2, label=seat_label(s))
        ax.fill_between(played[first:], low[s, first:], high[s, first:], color=COLOURS[s],
                        alpha=0.12)
    _fair(ax, players)
    ax.set_xscale("log")
    ax.set_xlabel("games played (log scale)")
    ax.set_ylabel("running win share (95% band)")
    ax.set_title("Convergence of the seat win shares")
    ax.set_ylim(0, min(1.0, 2.5 / players))
    ax.legend(fontsize=8, ncol=players + 1)
    return _png(fig)


def shift_chart(shifts: Sequence[int], share: FloatArray, low: FloatArray, high: FloatArray,
                current: Sequence[int]) -> bytes:
    """Each seat's win share as its own starting VP shifts (the other seats' fixed)."""
    players = share.shape[0]
    fig, ax = _plt().subplots(figsize=(6.4, 3.8))
    x = np.asarray(shifts)
    for s in range(players):
        ax.plot(x, share[s], marker="o", color=COLOURS[s], label=f"{seat_label(s)} (now {current[s]})")
        ax.fill_between(x, low[s], high[s], color=COLOURS[s], alpha=0.12)
    _fair(ax, players)
    ax.axvline(0, color="grey", lw=0.8)
    ax.set_xticks(x)
    ax.set_xlabel("change of that seat's starting VP")
    ax.set_ylabel("that seat's win share (95% band)")
    ax.set_title("Win share as one seat's starting VP moves")
    ax.legend(fontsize=8)
    return _png(fig)


SkillRow = tuple[str, float | None, float, float, FloatArray, FloatArray, FloatArray, bool]


def skill(panels: Sequence[tuple[int, Sequence[SkillRow]]]) -> bytes:
    """Fair compensation per seat against the population's rating: one panel per player
    count; rows (population, rating or None, rating low, high, compensation per seat 2..N,
    its low, high, confirmed). Filled points are confirmed vectors, hollow ones the most equal
    vector of an unconfirmed cell; vertical bars span the vectors not shown unfair,
    horizontal grey bars the rating's 95% interval. Unrated populations sit right of a dotted
    line, at no rating position."""
    fig, axes = _plt().subplots(1, len(panels), figsize=(4.2 * len(panels) + 1.6, 3.9),
                             squeeze=False)
    for ax, (players, rows) in zip(axes[0], panels, strict=True):
        rated = [r for r in rows if r[1] is not None]
        lo_x = min([r[2] for r in rated], default=0.0)
        hi_x = max([r[3] for r in rated], default=0.0)
        unit = max(hi_x - lo_x, 100.0)
        seat_step = 0.025 * unit
        apart = hi_x + 0.3 * unit if rated else 0.0
        slot = 0
        bottom = min([float(np.min(r[5])) for r in rows] + [0.0]) - 0.5
        for k, (name, x, xlow, xhigh, comp, low, high, confirmed) in enumerate(rows):
            if x is None:
                at = apart + slot * 0.3 * unit
                slot += 1
            else:
                at = float(x)
            for s in range(len(comp)):
                dx = (s - (len(comp) - 1) / 2) * seat_step
                colour = COLOURS[(s + 1) % len(COLOURS)]
                ax.errorbar([at + dx], [comp[s]], yerr=[[comp[s] - low[s]], [high[s] - comp[s]]],
                            fmt="o", ms=7, color=colour, mfc=colour if confirmed else "white",
                            capsize=4, label=seat_label(s + 1) if k == 0 else None)
            if x is not None:
                ax.errorbar([at], [bottom], xerr=[[at - xlow], [xhigh - at]], fmt="|",
                            color="grey", capsize=3)
            ax.annotate(name + ("" if x is not None else " (no rating)"),
                        (at, float(np.max(high))), textcoords="offset points", xytext=(0, 8),
                        ha="center", fontsize=8)
        if rated and slot:
            ax.axvline(hi_x + 0.15 * unit, color="grey", ls=":", lw=1)
        ax.axhline(0, color="black", lw=0.8, ls="--")
        right = apart + (slot - 1) * 0.3 * unit if slot else hi_x
        ax.set_xlim((lo_x if rated else apart) - 0.2 * unit, right + 0.2 * unit)
        highs = [float(np.max(r[6])) for r in rows] + [0.0]
        ax.set_ylim(bottom - 0.7, max(highs) + 1.2)
        ax.yaxis.set_major_locator(_integer_ticks())
        if rated:
            ax.set_xlabel(f"population rating ({players}-player ladder, Elo)")
        else:
            ax.set_xticks([])
            ax.set_xlabel(f"no {players}-player ladder rating: populations in study order")
        ax.set_ylabel("starting VP over seat 1 (VP)")
        ax.set_title(f"{players} players")
        ax.legend(fontsize=7, loc="best")
    return _png(fig)


def sweep_offsets(values: Sequence[int], seats: Sequence[tuple[str, FloatArray, FloatArray,
                                                                FloatArray, float]],
                  xlabel: str, title: str, base_value: int | None = None) -> bytes:
    """Each seat's fair offset (starting VP over seat 1) against a swept component value,
    with its 95% interval; per seat ``(label, offsets, low, high, played)``, ``played`` the
    seat's offset at the starting VP the study plays (dashed, the seat's colour): where its
    interval covers that line, the seat is not shown unfair there. NaN: not located."""
    fig, ax = _plt().subplots(figsize=(6.8, 3.8))
    x = np.asarray(values, dtype=float)
    step = float(np.min(np.diff(np.sort(x)))) if len(x) > 1 else 1.0
    for i, (label, offset, low, high, played) in enumerate(seats):
        colour = COLOURS[(i + 1) % len(COLOURS)]
        v = np.asarray(offset, dtype=float)
        yerr = np.nan_to_num([np.clip(v - low, 0, None), np.clip(high - v, 0, None)])
        xs = x + (i - (len(seats) - 1) / 2) * 0.08 * step  # side by side, not on top
        ax.errorbar(xs, v, yerr=yerr, fmt="o-", color=colour, capsize=4, lw=1,
                    label=f"{label}: fair offset, 95% interval")
        ax.axhline(played, color=colour, lw=1, ls="--",
                   label=f"{label}: at the starting VP played ({played:+g})")
    if base_value is not None:
        ax.axvline(base_value, color="grey", lw=1, ls=":", label=f"the base's value ({base_value})")
    ax.xaxis.set_major_locator(_integer_ticks())
    ax.yaxis.set_major_locator(_integer_ticks())
    ax.grid(axis="y", ls=":", lw=0.8, color="#999999")
    ax.set_xlabel(xlabel)
    ax.set_ylabel("fair offset over seat 1 (VP)")
    ax.set_title(title)
    ax.legend(fontsize=7, loc="center left", bbox_to_anchor=(1.01, 0.5))
    return _png(fig)


def card_sweep(values: Sequence[int], figures: Sequence[tuple[str, FloatArray, FloatArray,
                                                             FloatArray, bool]],
               xlabel: str, title: str, base_value: int | None = None) -> bytes:
    """The swept card's own figures against the value, one panel each ``(label, estimate,
    low, high, share)`` (a share: shown in %), with 95% intervals; the win difference's panel
    marks 0, where its takers win as often as the others."""
    fig, axes = _plt().subplots(1, len(figures), figsize=(3.0 * len(figures) + 0.6, 3.2))
    x = np.asarray(values, dtype=float)
    for ax, (label, est, low, high, share) in zip(np.atleast_1d(axes), figures, strict=True):
        v = np.asarray(est, dtype=float)
        yerr = np.nan_to_num([np.clip(v - low, 0, None), np.clip(high - v, 0, None)])
        ax.errorbar(x, v, yerr=yerr, fmt="o-", color=COLOURS[1], capsize=4, lw=1)
        if "win difference" in label:
            ax.axhline(0, color="black", lw=1, ls="--")
            ax.yaxis.set_major_formatter(points_tick)
        elif share:
            ax.yaxis.set_major_formatter(percent_tick)
        if base_value is not None:
            ax.axvline(base_value, color="grey", lw=1, ls=":")
        ax.xaxis.set_major_locator(_integer_ticks())
        ax.grid(axis="y", ls=":", lw=0.8, color="#999999")
        ax.set_xlabel(xlabel)
        ax.set_title(label, fontsize=9)
    fig.suptitle(title, fontsize=10)
    return _png(fig)


def card_differences(labels: Sequence[str], difference: FloatArray, low: FloatArray,
                     high: FloatArray, title: str) -> bytes:
    """One dot and its 95% interval per card, one line each, the first label at the top:
    the takers' win share minus the others', against the no-difference line at 0."""
    n = len(labels)
    fig, ax = _plt().subplots(figsize=(6.4, 1.2 + 0.24 * max(n, 1)))
    y = np.arange(n)[::-1]
    d = np.asarray(difference, dtype=float)
    xerr = [np.clip(d - low, 0, None), np.clip(high - d, 0, None)]
    outside = (np.asarray(low) > 0) | (np.asarray(high) < 0)
    for colour, keep, name in ((COLOURS[1], outside, "interval excludes 0"),
                               (COLOURS[0], ~outside, "interval includes 0")):
        if keep.any():
            ax.errorbar(d[keep], y[keep], xerr=[xerr[0][keep], xerr[1][keep]], fmt="o", ms=5,
                        color=colour, ecolor=colour, capsize=3, label=name)
    ax.axvline(0, color="black", lw=1, ls="--", label="no difference")
    ax.set_yticks(y, labels)
    ax.set_ylim(-0.7, n - 0.3)
    ax.xaxis.set_major_formatter(points_tick)
    ax.grid(axis="x", ls=":", lw=0.8, color="#999999")
    ax.set_xlabel("win share of the seats that took it minus their strategies' other seats'")
    ax.set_title(title)
    ax.legend(fontsize=8, loc="best")
    return _png(fig)
