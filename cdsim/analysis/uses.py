"""A changed component's verdict figures from its *use* in the seat rows (any component that
is not a card: a tile placed, a harvest tile scored from; ``cdsim.games.features.ComponentUse`` says
which column counts a seat's uses), and the effect of a change on each style's win share.

The figures are the card line's (``cards.card_figures``), with "used" for "taken": how
often the seats use it (a share of all seats, Wilson on the deal-clustered effective number,
``card_intervals.share``), how many times a using seat does (a mean kept within the counts
seen), and the win share of the seats that use it minus that of the other seats of their
strategies (``cards.win_difference`` within strategies, on the games where some seat used
it, t on the deals' effective number, inside [-100, +100] pts). A figure on the users needs a
use in at least ``card_intervals.MIN_DEALS`` deals, as a card's needs a take there. The
verdict is the card margin's (``paired.card_side``): the same estimator on a per-seat count,
so its calibration is the card line's (docs/statistics.md, "A verdict for any component").

**Each style's effect** is a paired change on the same deals: a strategy's win share (its
seats' wins over its seats) under the change minus under the base, each game's
linearised terms (``cards.ratio_terms``) differenced game by game, its 95% interval
clustered by deal (t on the deals less one) and kept inside [-1, 1]; on fewer than
``paired.MIN_CHANGED`` deals that the change altered for the strategy, an estimate without
an interval (too few changed deals to say: the seat answer's rule of issue 62). A component
whose use the rows do not record still has this."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import polars as pl
from numpy.typing import NDArray

from cdsim.analysis import card_intervals
from cdsim.analysis.card_intervals import NAN3, Figure
from cdsim.analysis.cards import BY_STRATEGY, Takes, ratio_terms, takes, win_difference
from cdsim.analysis.paired import MIN_CHANGED
from cdsim.analysis.stats import paired_difference

SEATS = ("game", "setup", "seat", "strategy", "won")  # the seat-row columns these read
FIGURES = ("use_share", "per_user", "win_difference")


def use_terms(seats: pl.DataFrame, column: str) -> pl.DataFrame:
    """One row per game of a frame of seat rows (``SEATS`` and ``column``, a seat's count of
    uses): its deal (``setup``), ``seats``, ``winners``, the seats that used the component
    (``took``, as a card's terms name its takers) and those of them that won
    (``took_won``), its ``times`` used in all, and ``BY_STRATEGY``: the same seat counts per
    strategy of the frame (fixed-width arrays, strategies sorted); what ``use_figures``
    reads."""
    rows = seats.select(*SEATS, pl.col(column).cast(pl.Int64).alias("uses")).with_columns(
        used=(pl.col("uses") > 0).cast(pl.Int64))
    games = (rows.group_by("game").agg(
        pl.col("setup").first(), pl.len().alias("seats"),
        pl.col("won").cast(pl.Int64).sum().alias("winners"),
        pl.col("used").sum().alias("took"),
        (pl.col("used") * pl.col("won").cast(pl.Int64)).sum().alias("took_won"),
        pl.col("uses").sum().alias("times")).sort("game"))
    ids = games["game"].to_numpy()
    strategies = sorted(str(s) for s in rows["strategy"].unique())
    g = np.searchsorted(ids, rows["game"].to_numpy())
    s = np.searchsorted(np.array(strategies), rows["strategy"].cast(pl.String).to_numpy())
    used, won = rows["used"].to_numpy(), rows["won"].cast(pl.Int64).to_numpy()
    by = []
    for weight in (used, used * won, np.ones_like(used), won):
        grid = np.zeros((len(ids), len(strategies)))
        np.add.at(grid, (g, s), weight)
        by.append(grid)
    return games.with_columns(pl.Series(name, grid) for name, grid in
                              zip(BY_STRATEGY, by, strict=True))


def use_figures(terms: pl.DataFrame) -> dict[str, Figure]:
    """``FIGURES`` of one component's ``use_terms``: (estimate, low, high), 95%, deals as
    clusters, each inside its range; nan where it was never used, a figure on the users
    nan (too few to say) where fewer than ``card_intervals.MIN_DEALS`` deals had a use, and
    the win difference nan where fewer deals had a seat that did not use it (no others to
    set its users against: every seat is dealt Castles cards of most colours)."""
    setup = terms["setup"].to_numpy()
    took = terms["took"].to_numpy()
    out = {"use_share": card_intervals.share(took, terms["seats"].to_numpy(), setup)}
    if takes(terms).deals < card_intervals.MIN_DEALS:
        return out | {"per_user": NAN3, "win_difference": NAN3}
    times = terms["times"].to_numpy()
    used = took > 0
    bounds = (float((times[used] / took[used]).min()), float((times[used] / took[used]).max()))
    out["per_user"] = card_intervals.mean(times, took, setup, (min(1.0, bounds[0]), bounds[1]))
    if card_intervals.deals_with(terms["seats"].to_numpy() - took, setup) < \
            card_intervals.MIN_DEALS:  # (nearly) every seat used it: no others to compare
        return out | {"win_difference": NAN3}
    some = terms.filter(pl.col("took") > 0)
    took_s, won_s, seats_s, winners_s = (
        np.asarray(some[c].to_numpy(), dtype=float).reshape(some.height, -1)
        for c in BY_STRATEGY)
    diff = win_difference(took_s, won_s, seats_s, winners_s, some["setup"].to_numpy(),
                          small=True)
    return out | {"win_difference": (diff.difference, diff.low, diff.high)}


@dataclass(frozen=True)
class UseFigures:
    """One component's figures under the base and the change (``use_change``), and what
    each side rests on (the seats that used it, the deals where one did, the games)."""

    base: dict[str, Figure]
    variant: dict[str, Figure]
    takes: tuple[Takes, Takes]


def use_change(base: pl.DataFrame, variant: pl.DataFrame, column: str) -> UseFigures:
    """A component's ``use_figures`` in the seat rows of a base and of a variant played on
    the same deals."""
    terms = [use_terms(f, column) for f in (base, variant)]
    before, after = (use_figures(t) for t in terms)
    return UseFigures(before, after, (takes(terms[0]), takes(terms[1])))


@dataclass(frozen=True)
class StyleEffect:
    """One strategy's win share under the base, and the change's effect on it (variant
    minus base on the same games; estimate, low, high, 95%)."""

    strategy: str
    base: float
    effect: Figure


def style_effects(base: pl.DataFrame, variant: pl.DataFrame) -> tuple[StyleEffect, ...]:
    """Each strategy's paired change of win share between the seat rows (``SEATS``) of a
    base and a variant on the same games (matched by game id), strategies sorted; none
    with fewer than two strategies (one strategy's share cannot move: its seats hold every
    win)."""
    frames = [f.select(SEATS) for f in (base, variant)]
    strategies = sorted(set(frames[0]["strategy"].cast(pl.String)) & set(
        frames[1]["strategy"].cast(pl.String)))
    if len(strategies) < 2:
        return ()
    per_game = []
    for f in frames:
        per_game.append(f.with_columns(pl.col("won").cast(pl.Int64)).group_by("game", "strategy")
                        .agg(pl.len().alias("n"), pl.col("won").sum().alias("w"),
                             pl.col("setup").first()))
    games = (frames[0].select("game", "setup").unique("game")
             .join(frames[1].select("game").unique(), on="game").sort("game"))
    setup = games["setup"].to_numpy().astype(np.int64)
    out = []
    for s in strategies:
        sides = []
        for f in per_game:
            mine = games.join(f.filter(pl.col("strategy") == s).select("game", "n", "w"),
                              on="game", how="left").fill_null(0)
            sides.append((mine["w"].to_numpy(), mine["n"].to_numpy()))
        (wb, nb), (wv, nv) = sides
        share = float(wb.sum() / nb.sum()) if nb.sum() else math.nan
        effect = _paired(ratio_terms(wv, nv) - ratio_terms(wb, nb), setup)
        if card_intervals.deals_with(np.abs(wv - wb) + np.abs(nv - nb), setup) < \
                MIN_CHANGED:  # too few changed deals for an interval (#62)
            effect = (effect[0], math.nan, math.nan)
        out.append(StyleEffect(s, share, effect))
    return tuple(out)


@dataclass(frozen=True)
class SourceChange:
    """The VP a seat scores from one source (a seat-row column, ``vp_frame``) a game, under
    the base and the change, and the change's paired effect on it (estimate, low, high)."""

    base: float
    variant: float
    effect: Figure


def source_change(base: pl.DataFrame, variant: pl.DataFrame, column: str) -> SourceChange:
    """The mean of ``column`` per seat under a base and a variant's seat rows on the same
    games, and its paired change (per game, clustered by deal, t on the deals less one; no
    interval on fewer than ``paired.MIN_CHANGED`` deals where a game's total of it
    changed)."""
    sums = []
    for f in (base, variant):
        sums.append(f.group_by("game").agg(pl.col("setup").first(), pl.len().alias("n"),
                                           pl.col(column).cast(pl.Float64).sum().alias("vp"))
                    .sort("game"))
    both = sums[0].join(sums[1].select("game", "n", "vp"), on="game", suffix="_v")
    setup = both["setup"].to_numpy().astype(np.int64)
    vb, nb = both["vp"].to_numpy(), both["n"].to_numpy()
    vv, nv = both["vp_v"].to_numpy(), both["n_v"].to_numpy()
    effect = _paired(ratio_terms(vv, nv) - ratio_terms(vb, nb), setup, share=False)
    if card_intervals.deals_with(np.abs(vv - vb), setup) < MIN_CHANGED:
        effect = (effect[0], math.nan, math.nan)
    mean = [float(v.sum() / n.sum()) if n.sum() else math.nan for v, n in ((vb, nb), (vv, nv))]
    return SourceChange(mean[0], mean[1], effect)


def _paired(terms: NDArray[np.float64], setup: NDArray[np.int64], share: bool = True
            ) -> Figure:
    """The mean of paired per-game terms with its deal-clustered 95% interval (t on the
    deals less one), inside [-1, 1] for a change of ``share`` (a VP change is not bounded
    so); exactly 0 [0, 0] where every game is the same."""
    if not len(terms) or np.isnan(terms).any():
        return NAN3
    deals = int(np.unique(setup).size)
    mean, low, high = paired_difference(terms, setup, card_intervals.t95(deals))
    if not share:
        return (float(mean[0]), float(low[0]), float(high[0]))
    return (float(mean[0]), max(-1.0, float(low[0])), min(1.0, float(high[0])))


__all__ = ["FIGURES", "SEATS", "SourceChange", "StyleEffect", "UseFigures", "source_change",
           "style_effects", "use_change", "use_figures", "use_terms"]
