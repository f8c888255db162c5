"""The per-card figures of a batch of games: per card of each kind the game's card table
follows (``cdsim.games.features.CardKind``: which outcomes count as taking it and as done,
and whether its VP count per take or per kept card; e.g. Carpe Diem's objective cards, taken
and fulfilled, and its fountain cards, drawn and kept), how often the seats took it, how
often it was done, the VP it brought and whether the seats that took it won more often than
comparable seats that did not.

``card_outcomes`` takes a frame of card rows (``cdsim.batch.read.card_rows``: the card table
joined to each seat's deal, strategy and result) and returns the per-card table, for a run
report or a study's variant section alike (``reports.cards`` formats it).

**The win difference compares like with like.** A card's takers are compared with the seats
*of the same strategy* that did not take it, in the games where some seat took it (so the
card was in play: e.g. Carpe Diem's objective card on the grid, its fountain card come up):
within each strategy, its takers' win share minus its other seats' win share, and the strata
weighted by their takers (the others' share is standardised to the takers' mix of
strategies). Pooling all seats instead measures who took the card: at a table with a weak
strategy, every card the weak player seeks looks bad and every card the strong player seeks
looks good (e.g. Carpe Diem's: 41 of 60 objective cards and all 24 fountain cards
"significant" in 2,000 games of random + greedy at 4 players). With one strategy at the
table both are the same. A strategy whose seats all took the card (or none did) has no one
to compare with and takes no part.

It is still an **association, not an effect**: within a strategy, a seat that takes a card
may be a seat that was doing well already. The card's effect is a study's paired change: the
same deals under a variant of the card (``paired_change``). Its 95% interval treats the
games of one deal as one cluster (``stats.paired_difference`` over each game's linearised
influence), never narrower than for independent seats.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy as np
import polars as pl
from numpy.typing import NDArray

from cdsim.analysis import card_intervals
from cdsim.analysis.stats import Z95, paired_difference
from cdsim.games.features import CardKind

# The card margin: a changed card whose takers' win difference lies within +-4 pts is "about
# right" (``cdsim whatif``'s card line, --card-margin). At 4 players Carpe Diem's shipped
# objective cards' own differences fall in a middle group within +-3.8 pts (25 of 60) and
# the rest beyond +-4.9 pts (docs/statistics.md, "The card margin").
CARD_MARGIN = 0.04
NEEDED = ("game", "seat", "setup", "won", "strategy", "kind", "card", "outcome", "vp")
TABLE_COLUMNS = ("kind", "card", "seats", "taken", "taken_share", "times", "done_share",
                 "mean_vp", "games", "win_takers", "win_others", "difference", "low", "high",
                 "strength", "top_strategy", "strata")
# ``card_terms``' per-strategy columns: one list entry per strategy of the frame (sorted)
BY_STRATEGY = ("took_by", "took_won_by", "seats_by", "winners_by")

Array = NDArray[np.integer[Any]] | NDArray[np.floating[Any]] | NDArray[np.bool_]


@dataclass(frozen=True)
class Difference:
    """The takers' win share, the comparable others' (the same strategies' seats that did not
    take the card, standardised to the takers' mix), their difference and its deal-clustered
    95% interval (nan where no strategy has both); ``strata``: the strategies compared."""

    takers: float
    others: float
    difference: float
    low: float
    high: float
    strata: int = 1

    @property
    def strength(self) -> float:
        """|difference| in half-widths of its interval: the outliers' order (nan: none)."""
        half = (self.high - self.low) / 2
        return abs(self.difference) / half if half > 0 else float("nan")


def _columns(a: Array) -> NDArray[np.float64]:
    """A per-game count as (games, strata): one stratum when given per game only."""
    x = np.asarray(a, dtype=float)
    return x.reshape(len(x), -1)


def win_difference(took: Array, took_won: Array, seats: Array, winners: Array, setup: Array,
                   small: bool = False) -> Difference:
    """The takers' win share minus that of the seats of their strategies that did not take
    the card, over games g and strategies s (arrays (games, strategies), or one entry per
    game for a single strategy): ``took[g, s]`` seats of s took the card, ``took_won[g, s]``
    of them won, ``seats[g, s]`` seats of s played, ``winners[g, s]`` of them won;
    ``setup[g]`` the game's deal. Within s the difference is p1_s - p0_s; the strata with
    takers and others both are weighted by their takers n1_s, so D = sum_s n1_s (p1_s -
    p0_s) / N1. D is a ratio of sums, linearised per game, and ``stats.paired_difference``
    of ``D + G v_g`` gives its deal-clustered interval (its mean is D, its cluster sums are
    those of the influence v_g). A difference of 0.05 means the takers won 5 points more
    often than the others of their strategies. ``small``: a whatif's or a study's few deals
    (``card_figures``): Student's t on the deals less one for the normal quantile, and the
    interval kept within [-1, 1]."""
    t, tw, m, w = (_columns(a) for a in (took, took_won, seats, winners))
    n1, n0 = t.sum(axis=0), (m - t).sum(axis=0)
    both = (n1 > 0) & (n0 > 0)
    nan = float("nan")
    if not both.any():
        total1, total0 = n1.sum(), n0.sum()
        return Difference(tw.sum() / total1 if total1 else nan,
                          (w - tw).sum() / total0 if total0 else nan, nan, nan, nan, 0)
    t, tw, m, w, n1, n0 = t[:, both], tw[:, both], m[:, both], w[:, both], n1[both], n0[both]
    others, rest = w - tw, m - t
    p1, p0 = tw.sum(axis=0) / n1, others.sum(axis=0) / n0
    weight = n1 / n1.sum()
    d = float(weight @ (p1 - p0))
    influence = ((tw - t * (p0 + d)).sum(axis=1)
                 - ((others - p0 * rest) * (n1 / n0)).sum(axis=1)) / n1.sum()
    deals = np.asarray(setup, dtype=np.int64)
    z = card_intervals.t95(int(np.unique(deals).size)) if small else Z95
    mean, _, high = paired_difference(d + len(t) * influence, deals, z)
    if small:  # the jackknife's correction for a few deals, t on their effective number
        spread = card_intervals.clustered_variance(influence, t.sum(axis=1), deals)
        z = spread.z
        high = mean + z * math.sqrt(spread.variance)
    # Never narrower than for independent seats (Agresti-Caffo within each strategy: one
    # win and one loss added to each side), as stats.design_effect is floored at 1: a few
    # games, or a side that never won, would make the clustered interval vanish.
    a1, a0 = (tw.sum(axis=0) + 1) / (n1 + 2), (others.sum(axis=0) + 1) / (n0 + 2)
    floor = z * math.sqrt(float(weight**2 @ (a1 * (1 - a1) / (n1 + 2)
                                                + a0 * (1 - a0) / (n0 + 2))))
    half = max(float(high[0] - mean[0]), floor)
    low, high_end = (max(-1.0, d - half), min(1.0, d + half)) if small else (d - half, d + half)
    return Difference(float(weight @ p1), float(weight @ p0), d, low, high_end, int(both.sum()))


def _check(cards: pl.DataFrame) -> None:
    missing = [c for c in NEEDED if c not in cards.columns]
    if missing:
        raise ValueError(f"card rows need the columns {', '.join(missing)}")


@dataclass(frozen=True)
class _Table:
    """Each game's seats and winners per strategy, once per frame (not per card)."""

    games: NDArray[np.int64]  # game ids, sorted
    strategies: tuple[str, ...]  # sorted
    seats: NDArray[np.float64]  # (games, strategies)
    winners: NDArray[np.float64]
    setup: NDArray[np.int64]  # per game

    @classmethod
    def of(cls, seats: pl.DataFrame) -> _Table:
        games = np.sort(seats["game"].unique().to_numpy())
        strategies = tuple(sorted(str(s) for s in seats["strategy"].unique()))
        m, w = cls.counts(games, strategies, seats)
        setup = seats.unique("game").sort("game")["setup"].to_numpy().astype(np.int64)
        return cls(games, strategies, m, w, setup)

    @staticmethod
    def counts(games: NDArray[np.int64], strategies: tuple[str, ...], seats: pl.DataFrame
               ) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
        """Seats and their winners per (game, strategy) of a frame of (game, seat) rows."""
        shape = (len(games), len(strategies))
        if not seats.height:
            return np.zeros(shape), np.zeros(shape)
        g = np.searchsorted(games, seats["game"].to_numpy())
        # a strategy's place among the sorted names: its code as an enum of them
        s = seats["strategy"].cast(pl.String).cast(pl.Enum(strategies)).to_physical().to_numpy()
        cell = g * len(strategies) + s.astype(np.int64)
        # counts of whole seats and wins: exact sums in any order, as np.add.at made them
        m = np.bincount(cell, minlength=shape[0] * shape[1]).astype(np.float64)
        w = np.bincount(cell, weights=seats["won"].cast(pl.Float64).to_numpy(),
                        minlength=shape[0] * shape[1]).astype(np.float64)
        return m.reshape(shape), w.reshape(shape)


class UnknownKind(ValueError):
    """Card rows of a kind the game's card table does not follow (its ``CardTable.kinds``)."""


def _kinds(cards: pl.DataFrame, kinds: Sequence[CardKind]) -> dict[str, CardKind]:
    """The game's ``kinds`` by name; ``UnknownKind`` names a kind of the rows it lacks."""
    known = {k.kind: k for k in kinds}
    unknown = sorted(set(cards["kind"].unique().to_list()) - set(known))
    if unknown:
        raise UnknownKind(f"card rows of kind {unknown[0]!r}, which the game's card table "
                         "does not follow")
    return known


def card_outcomes(cards: pl.DataFrame, kinds: Sequence[CardKind]) -> pl.DataFrame:
    """The per-card table of a frame of card rows (columns ``NEEDED``; every seat of every
    game has rows, e.g. Carpe Diem's seats each resolve 8 objective cards), one row per card
    that was taken, the game's ``kinds`` in their order, each kind sorted so the outliers
    come first (largest |difference| against its interval). Columns ``TABLE_COLUMNS``:
    ``taken_share`` of all seats; ``times`` taken; ``done_share`` of those times done (a
    kind counted per take) or of the taking seats that kept it to the end (per kept card);
    ``mean_vp`` per take (a failed take's cost included) or per kept card; ``games`` where
    some seat took it; the takers' win share, the comparable others' and their difference
    with its 95% interval (``win_difference``, within strategies); ``strata``: strategies
    compared."""
    _check(cards)
    known = _kinds(cards, kinds)
    seats = cards.select("game", "seat", "setup", "won", "strategy").unique(["game", "seat"])
    table = _Table.of(seats)
    appearances = seats.group_by("strategy").len().rename({"len": "all"})  # once, not per card
    rows = []
    # only the columns a card's row reads are split by card (a run's card rows carry more)
    for (kind, card), part in cards.select(NEEDED).partition_by(
            ["kind", "card"], as_dict=True, maintain_order=True).items():
        rows.append(_card_row(known[str(kind)], str(card), part, seats.height, table,
                              appearances))
    if not rows:
        return pl.DataFrame(schema={c: pl.Float64 for c in TABLE_COLUMNS})
    out = pl.DataFrame(rows)
    order = pl.col("kind").replace_strict({k: i for i, k in enumerate(known)},
                                          return_dtype=pl.Int64)
    return (out.with_columns(pl.col("strength").fill_nan(None))
            .sort([order, "strength", "card"], descending=[False, True, False],
                  nulls_last=True).select(TABLE_COLUMNS))


# Any: one row of a polars frame: counts, shares and names by column
def _card_row(kind: CardKind, card: str, part: pl.DataFrame, all_seats: int, table: _Table,
              appearances: pl.DataFrame) -> dict[str, Any]:
    """One card's row of ``card_outcomes`` (``appearances``: seats per strategy)."""
    taken = part.filter(pl.col("outcome").is_in(kind.taken))
    by_seat = taken.group_by("game", "seat").agg(pl.col("won").first(), pl.col("strategy").first())
    t, tw = _Table.counts(table.games, table.strategies, by_seat)
    some = t.sum(axis=1) > 0  # the games where some seat took it
    diff = win_difference(t[some], tw[some], table.seats[some], table.winners[some],
                          table.setup[some])
    done = part.filter(pl.col("outcome") == kind.done_outcome)
    if kind.counted == "kept card":  # kept at the end, of the seats that took it
        done_share = done.select("game", "seat").unique().height / max(by_seat.height, 1)
        mean_vp = done["vp"].mean() if done.height else None
    else:
        done_share = done.height / max(taken.height, 1)
        mean_vp = taken["vp"].mean() if taken.height else None
    by_strategy = by_seat.group_by("strategy").len().join(appearances, on="strategy")
    top = by_strategy.with_columns(share=pl.col("len") / pl.col("all")).sort(
        ["share", "strategy"], descending=[True, False])
    return {"kind": kind.kind, "card": card, "seats": all_seats, "taken": by_seat.height,
            "taken_share": by_seat.height / max(all_seats, 1), "times": taken.height,
            "done_share": done_share, "mean_vp": mean_vp, "games": int(some.sum()),
            "win_takers": diff.takers, "win_others": diff.others,
            "difference": diff.difference, "low": diff.low, "high": diff.high,
            "strength": diff.strength, "strata": diff.strata,
            "top_strategy": top["strategy"][0] if top.height else ""}


def by_seat(cards: pl.DataFrame, kinds: Sequence[CardKind]) -> pl.DataFrame:
    """Each card's taken share per seat (seats counted from 1; the outcomes that count as
    taking it its kind's, of the game's ``kinds``): card, kind, seat, share; "by whom"
    beside the per-card table."""
    _check(cards)
    _kinds(cards, kinds)
    # the games each seat played (took a card in): distinct games counted per group, not
    # the (game, seat) rows made unique first (a run's millions of card rows)
    seats = cards.group_by("seat").agg(pl.col("game").n_unique().alias("all"))
    taken = cards.filter(pl.any_horizontal(
        (pl.col("kind") == k.kind) & pl.col("outcome").is_in(k.taken) for k in kinds))
    took = taken.group_by("kind", "card", "seat").agg(pl.col("game").n_unique().alias("len"))
    return (took.join(seats, on="seat").with_columns(
        share=pl.col("len") / pl.col("all"), seat=pl.col("seat") + 1)
        .select("kind", "card", "seat", "share").sort("kind", "card", "seat"))


# -- one card's figures with intervals, and a variant against its base -------------------------

FIGURES = ("taken_share", "done_share", "mean_vp")  # a card's figures, with its win difference


def figures(kind: CardKind) -> dict[str, tuple[str, str]]:
    """Each of ``FIGURES`` of a card of ``kind`` as a ratio of per-game sums (numerator,
    denominator) of ``card_terms``' columns: the taken share of the seats; per take, the
    done share of the takes and the VP per take; per kept card, the kept share of the
    taking seats and the VP per kept card."""
    per_take = kind.counted == "take"
    return {"taken_share": ("took", "seats"),
            "done_share": ("done", "times") if per_take else ("kept", "took"),
            "mean_vp": ("vp", "times") if per_take else ("vp", "kept_cards")}


def card_terms(cards: pl.DataFrame, kind: CardKind, card: str) -> pl.DataFrame:
    """One row per game of a frame of card rows (every game, the card taken or not): its deal
    (``setup``), ``seats``, ``winners``, the seats that ``took`` (drew) the card and those
    of them that won (``took_won``), the ``times`` taken, the takes ``done`` (fulfilled),
    the seats that ``kept`` it and the ``kept_cards``, and the ``vp`` it brought (``kind``
    counted per take: every take; per kept card: the kept cards; e.g. Carpe Diem's objective
    and fountain cards) with the lowest and highest one take (card) brought
    (``vp_low``, ``vp_high``: 0 without one); and ``BY_STRATEGY``, the same seat counts per
    strategy of the frame (lists, strategies sorted): the per-game sums behind
    ``card_figures``."""
    _check(cards)
    seats = cards.select("game", "seat", "setup", "won", "strategy").unique(["game", "seat"])
    games = (seats.group_by("game").agg(pl.len().alias("seats"), pl.col("setup").first(),
                                        pl.col("won").sum().alias("winners")).sort("game"))
    table = _Table.of(seats)
    part = cards.filter((pl.col("kind") == kind.kind) & (pl.col("card") == card))
    taken = part.filter(pl.col("outcome").is_in(kind.taken))
    done = part.filter(pl.col("outcome") == kind.done_outcome)
    paid = taken if kind.counted == "take" else done
    counts = [
        taken.group_by("game").agg(pl.col("seat").n_unique().alias("took"),
                                   pl.len().alias("times")),
        taken.unique(["game", "seat"]).group_by("game").agg(
            pl.col("won").sum().alias("took_won")),
        done.group_by("game").agg(pl.len().alias("done"), pl.col("seat").n_unique().alias("kept"),
                                  pl.len().alias("kept_cards")),
        paid.group_by("game").agg(pl.col("vp").sum().alias("vp"),
                                  pl.col("vp").min().alias("vp_low"),
                                  pl.col("vp").max().alias("vp_high"))]
    out = games
    for c in counts:
        out = out.join(c, on="game", how="left")
    t, tw = _Table.counts(table.games, table.strategies,
                          taken.unique(["game", "seat"]).select("game", "strategy", "won"))
    by = dict(zip(BY_STRATEGY, (t, tw, table.seats, table.winners), strict=True))
    # each a fixed-width array column (games x strategies), built from numpy as it is: a
    # list per game through Python took seconds on a study's frames
    return out.fill_null(0).sort("game").with_columns(
        pl.Series(name, np.asarray(values, dtype=np.float64).reshape(len(values), -1))
        for name, values in by.items())


def ratio_terms(num: Array, den: Array) -> NDArray[np.float64]:
    """Per-game terms whose mean is the ratio R = sum(num) / sum(den) and whose deviations
    are its linearised influence (``R + G (num_g - R den_g) / sum(den)``), so that
    ``stats.paired_difference`` over them, clustered by deal, gives R's interval, and over
    two designs' terms on the same games, the interval of the change; nan without any den."""
    y, x = np.asarray(num, dtype=float), np.asarray(den, dtype=float)
    total = x.sum()
    if total == 0:
        return np.full(len(y), np.nan)
    r = y.sum() / total
    return np.asarray(r + len(y) * (y - r * x) / total, dtype=np.float64)


def _interval(terms: NDArray[np.float64], setup: Array) -> tuple[float, float, float]:
    if not len(terms) or np.isnan(terms).any():
        return (float("nan"),) * 3
    mean, low, high = paired_difference(terms, np.asarray(setup, dtype=np.int64))
    return float(mean[0]), float(low[0]), float(high[0])


def _stacked(terms: pl.DataFrame, column: str) -> NDArray[np.float64]:
    values = terms[column].to_numpy()
    return np.asarray(values, dtype=float).reshape(len(terms), -1)


class Takes(NamedTuple):
    """What one card's figures rest on: the seats that took (drew) it, the deals where some
    seat did, and the games played."""

    seats: int
    deals: int
    games: int


def takes(terms: pl.DataFrame) -> Takes:
    """The takes behind one card's ``card_terms``."""
    setup = terms["setup"].to_numpy()
    return Takes(int(terms["took"].sum()), card_intervals.deals_with(terms["took"].to_numpy(),
                                                                     setup), terms.height)


def card_figures(terms: pl.DataFrame, kind: CardKind) -> dict[str, tuple[float, float, float]]:
    """Each of ``FIGURES`` of one card's ``card_terms`` and its ``win_difference`` (as
    ``card_outcomes`` has it: within strategies, over the games where some seat took it):
    (estimate, low, high), 95%, the games of one deal as one cluster, every interval inside
    the figure's range (``card_intervals``). nan: never taken, or a figure on the takers
    where fewer than ``card_intervals.MIN_DEALS`` deals had a take (too few to say). The
    mean VP's range reaches down to ``kind.worst_vp`` (a failed take's cost) where it has
    one."""
    setup = terms["setup"].to_numpy()
    ratios = figures(kind)
    col = {name: (terms[n].to_numpy(), terms[d].to_numpy()) for name, (n, d) in ratios.items()}
    out: dict[str, tuple[float, float, float]] = {}
    out["taken_share"] = card_intervals.share(*col["taken_share"], setup)
    few = takes(terms).deals < card_intervals.MIN_DEALS
    out["done_share"] = (card_intervals.NAN3 if few else card_intervals.share(
        *col["done_share"], setup, card_intervals.MIN_DEALS))
    paid = terms.filter(pl.col(ratios["mean_vp"][1]) > 0)
    low, high = (paid["vp_low"].to_numpy(), paid["vp_high"].to_numpy())
    worst = [] if kind.worst_vp is None else [kind.worst_vp]
    bounds = (float(min([*low, *worst], default=0)), float(max(high, default=0)))
    out["mean_vp"] = card_intervals.NAN3 if few else card_intervals.mean(
        *col["mean_vp"], setup, bounds)
    if few:
        return out | {"win_difference": card_intervals.NAN3}
    some = terms.filter(pl.col("took") > 0)
    took, took_won, seats, winners = (_stacked(some, c) for c in BY_STRATEGY)
    diff = win_difference(took, took_won, seats, winners, some["setup"].to_numpy(),
                          small=True)
    return out | {"win_difference": (diff.difference, diff.low, diff.high)}


def paired_change(base: pl.DataFrame, variant: pl.DataFrame, kind: CardKind
                  ) -> dict[str, tuple[float, float, float]]:
    """Each of ``FIGURES``, variant minus base, on the games both played (``card_terms`` of
    the same deals under two component sets, matched by game): (change, low, high), 95%,
    deals as clusters; identical designs give exactly 0 with [0, 0]. These are the card's
    effects: the same deals, only the card changed."""
    both = base.join(variant, on="game", suffix="_v").sort("game")
    setup = both["setup"].to_numpy()
    out = {}
    for name, (n, d) in figures(kind).items():
        diff = (ratio_terms(both[f"{n}_v"].to_numpy(), both[f"{d}_v"].to_numpy())
                - ratio_terms(both[n].to_numpy(), both[d].to_numpy()))
        out[name] = _interval(diff, setup)
    return out


class VariantFigures(NamedTuple):
    """One card's figures under a base and a variant, and the change (``card_change``)."""

    base: dict[str, tuple[float, float, float]]
    variant: dict[str, tuple[float, float, float]]
    change: dict[str, tuple[float, float, float]]
    takes: tuple[Takes, Takes]  # base, variant


def card_change(base: pl.DataFrame, variant: pl.DataFrame, kind: CardKind, card: str
                ) -> VariantFigures:
    """``card``'s figures in the card rows of a base and of a variant played on the same deals
    (games numbered alike), and the change: ``paired_change``'s, and the win difference's
    change, variant minus base, unpaired (its two sides compare other seats) and so without
    an interval (nan)."""
    terms = [card_terms(f, kind, card) for f in (base, variant)]
    before, after = (card_figures(t, kind) for t in terms)
    change = paired_change(terms[0], terms[1], kind)
    change["win_difference"] = (after["win_difference"][0] - before["win_difference"][0],
                                math.nan, math.nan)
    return VariantFigures(before, after, change, (takes(terms[0]), takes(terms[1])))


__all__ = ["BY_STRATEGY", "CARD_MARGIN", "FIGURES", "NEEDED", "TABLE_COLUMNS", "Difference",
           "Takes", "UnknownKind", "VariantFigures", "by_seat", "card_change", "card_figures",
           "card_outcomes", "card_terms", "figures", "paired_change", "ratio_terms", "takes",
           "win_difference"]
