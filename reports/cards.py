"""The card section of a report: per objective card, how often the seats took it, how often
it was fulfilled, the VP it brought and whether the seats that took it won more often than
the other seats of the same games; per fountain card, the same for drawing it.

``card_outcomes`` takes a frame of card rows (``cdsim.batch.read.card_rows``: the card table
joined to each seat's deal and result) and returns the per-card table, for a report or a
study's variant section alike.

The win difference is an association, not a cause: a seat that takes a card may be a seat
that was doing well already. It compares the seats that took the card with the other seats
of the games where some seat took it (so the card was on the grid, or the fountain card came
up), and its 95% interval treats the games of one deal as one cluster.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
import polars as pl
from numpy.typing import NDArray

from cdsim.analysis.stats import Z95, paired_difference
from cdsim.batch.read import NoCardTable, Run, card_rows

# the outcomes that count as taking (objective) or drawing (fountain) the card
TAKEN = {"objective": ("fulfilled", "failed"), "fountain": ("drawn",)}
# the outcome whose share of the takes is reported: fulfilled (objective), kept (fountain)
DONE = {"objective": "fulfilled", "fountain": "kept"}
NEEDED = ("game", "seat", "setup", "won", "strategy", "kind", "card", "outcome", "vp")
TABLE_COLUMNS = ("kind", "card", "seats", "taken", "taken_share", "times", "done_share",
                 "mean_vp", "games", "win_takers", "win_others", "difference", "low", "high",
                 "strength", "top_strategy")


Array = NDArray[np.integer[Any]] | NDArray[np.floating[Any]] | NDArray[np.bool_]


@dataclass(frozen=True)
class Difference:
    """Win share of the seats that took a card minus that of the other seats of the same
    games, with its deal-clustered 95% interval (nan where a side is empty)."""

    takers: float
    others: float
    difference: float
    low: float
    high: float

    @property
    def strength(self) -> float:
        """|difference| in half-widths of its interval: the outliers' order (nan: none)."""
        half = (self.high - self.low) / 2
        return abs(self.difference) / half if half > 0 else float("nan")


def win_difference(took: Array, took_won: Array, seats: Array, winners: Array, setup: Array
                   ) -> Difference:
    """The takers' win share minus the others', over games g (arrays of one entry per game):
    ``took[g]`` seats took the card, ``took_won[g]`` of them won, ``seats[g]`` seats played,
    ``winners[g]`` of them won (one), ``setup[g]`` its deal. Both shares are ratios; their
    difference is linearised per game and ``stats.paired_difference`` gives its
    deal-clustered interval (the mean of ``D + G v_g`` is D, its cluster sums are those of
    the influence v_g). A difference of 0.05 means the takers won 5 points more often."""
    t, tw, m, w = (np.asarray(a, dtype=float) for a in (took, took_won, seats, winners))
    n1, n0 = t.sum(), (m - t).sum()
    if n1 == 0 or n0 == 0:
        nan = float("nan")
        return Difference(tw.sum() / n1 if n1 else nan, (w - tw).sum() / n0 if n0 else nan,
                          nan, nan, nan)
    p1, p0 = tw.sum() / n1, (w - tw).sum() / n0
    influence = (tw - p1 * t) / n1 - ((w - tw) - p0 * (m - t)) / n0
    mean, _, high = paired_difference(p1 - p0 + len(t) * influence,
                                      np.asarray(setup, dtype=np.int64))
    # Never narrower than for independent seats (Agresti-Caffo: one win and one loss added
    # to each side), as stats.design_effect is floored at 1: a few games, or a side that
    # never won, would make the clustered interval vanish.
    a1, a0 = (tw.sum() + 1) / (n1 + 2), ((w - tw).sum() + 1) / (n0 + 2)
    floor = Z95 * math.sqrt(a1 * (1 - a1) / (n1 + 2) + a0 * (1 - a0) / (n0 + 2))
    half = max(float(high[0] - mean[0]), floor)
    d = float(mean[0])
    return Difference(float(p1), float(p0), d, d - half, d + half)

def _check(cards: pl.DataFrame) -> None:
    missing = [c for c in NEEDED if c not in cards.columns]
    if missing:
        raise ValueError(f"card rows need the columns {', '.join(missing)}")


def card_outcomes(cards: pl.DataFrame) -> pl.DataFrame:
    """The per-card table of a frame of card rows (columns ``NEEDED``; every seat of every
    game has rows: each resolves 8 objective cards), one row per card that was taken or
    drawn, objective cards first, each kind sorted so the outliers come first (largest
    |difference| against its interval). Columns ``TABLE_COLUMNS``: ``taken_share`` of all
    seats; ``times`` taken (drawn); ``done_share`` of those times fulfilled (objective) or of
    the drawing seats kept to the end (fountain); ``mean_vp`` per take (objective, -4 of a
    failed card included) or per kept card (fountain); ``games`` where some seat took it;
    the win shares and their difference with its 95% interval (``win_difference``)."""
    _check(cards)
    seats = cards.select("game", "seat", "setup", "won", "strategy").unique(["game", "seat"])
    games = seats.group_by("game").agg(pl.len().alias("seats"), pl.col("won").sum().alias("w"),
                                       pl.col("setup").first())
    appearances = seats.group_by("strategy").len().rename({"len": "all"})  # once, not per card
    rows = []
    for (kind, card), part in cards.partition_by(["kind", "card"], as_dict=True,
                                                 maintain_order=True).items():
        rows.append(_card_row(str(kind), str(card), part, seats, games, appearances))
    if not rows:
        return pl.DataFrame(schema={c: pl.Float64 for c in TABLE_COLUMNS})
    table = pl.DataFrame(rows)
    order = pl.when(pl.col("kind") == "objective").then(0).otherwise(1)
    return (table.with_columns(pl.col("strength").fill_nan(None))
            .sort([order, "strength", "card"], descending=[False, True, False],
                  nulls_last=True).select(TABLE_COLUMNS))


def _card_row(kind: str, card: str, part: pl.DataFrame, seats: pl.DataFrame,
              games: pl.DataFrame, appearances: pl.DataFrame) -> dict[str, Any]:
    """One card's row of ``card_outcomes`` (``appearances``: seats per strategy)."""
    taken = part.filter(pl.col("outcome").is_in(TAKEN.get(kind, ())))
    by_seat = taken.group_by("game", "seat").agg(pl.col("won").first(), pl.col("strategy").first())
    per_game = (by_seat.group_by("game").agg(pl.len().alias("took"),
                                              pl.col("won").sum().alias("tw"))
                .join(games, on="game").sort("game"))
    diff = win_difference(*(per_game[c].to_numpy() for c in ("took", "tw", "seats", "w",
                                                             "setup")))
    done = part.filter(pl.col("outcome") == DONE.get(kind, ""))
    if kind == "fountain":  # kept at the end, of the seats that drew it
        done_share = done.select("game", "seat").unique().height / max(by_seat.height, 1)
        mean_vp = done["vp"].mean() if done.height else None
    else:
        done_share = done.height / max(taken.height, 1)
        mean_vp = taken["vp"].mean() if taken.height else None
    by_strategy = by_seat.group_by("strategy").len().join(appearances, on="strategy")
    top = by_strategy.with_columns(share=pl.col("len") / pl.col("all")).sort(
        ["share", "strategy"], descending=[True, False])
    return {"kind": kind, "card": card, "seats": seats.height, "taken": by_seat.height,
            "taken_share": by_seat.height / max(seats.height, 1), "times": taken.height,
            "done_share": done_share, "mean_vp": mean_vp, "games": per_game.height,
            "win_takers": diff.takers, "win_others": diff.others,
            "difference": diff.difference, "low": diff.low, "high": diff.high,
            "strength": diff.strength, "top_strategy": top["strategy"][0] if top.height else ""}


def by_seat(cards: pl.DataFrame) -> pl.DataFrame:
    """Each card's taken (drawn) share per seat (seats counted from 1): card, kind, seat,
    share; "by whom" beside the per-card table."""
    _check(cards)
    seats = cards.select("game", "seat").unique().group_by("seat").len().rename({"len": "all"})
    taken = cards.filter(pl.col("outcome").is_in(["fulfilled", "failed", "drawn"]))
    took = taken.select("kind", "card", "game", "seat").unique().group_by(
        "kind", "card", "seat").len()
    return (took.join(seats, on="seat").with_columns(
        share=pl.col("len") / pl.col("all"), seat=pl.col("seat") + 1)
        .select("kind", "card", "seat", "share").sort("kind", "card", "seat"))


EXPLAIN = (
    "Which card is too strong? For each card: how often the seats took it, how often it "
    "paid, the VP it brought, and the **win difference**: the win share of the seats that "
    "took it minus the win share of the other seats of the same games (the games where "
    "some seat took it). +5 pts means the seats that took it won 5 percentage points more "
    "often. This is an **association, not a cause**: a seat that takes a card may be one "
    "that was winning anyway, and a strategy that seeks a card may win for other reasons; "
    "compare a variant of the card (a study) to learn what the card itself does. Intervals "
    "are 95%, the games of one deal counted as one cluster; the cards whose difference is "
    "largest against its interval come first. With many cards, about 1 in 20 intervals "
    "excludes 0 by chance alone.")


@dataclass(frozen=True)
class Words:
    """What the report says about one kind of card."""

    title: str
    intro: str
    header: tuple[str, ...]
    chart_title: str
    caption: str


OBJECTIVE_WORDS = Words(
    "Objective cards",
    "Taken: share of all seats that resolved the card in a scoring phase (R8.3); times: "
    "how often (a seat may take a card in more than one phase); fulfilled: share of those "
    "times it paid at least once (else -4 VP, R8.5); mean VP per time taken, the -4 "
    "included; most by: the strategy that took it most often per appearance.",
    ("card", "taken", "times", "fulfilled", "mean VP", "win share: took it / others",
     "win difference [95% CI]", "games", "most by"),
    "Objective cards: win difference of the seats that took them",
    "Per objective card, the win share of the seats that took it minus the other seats' "
    "in the same games, with its 95% interval (deals as clusters); red: the interval "
    "excludes 0. An association, not a cause. Outliers first.")
FOUNTAIN_WORDS = Words(
    "Fountain cards",
    "Drawn: share of all seats that drew the card at a fountain (R6.5); kept: share of "
    "those seats that held it at the end; mean VP per kept card (R10.4).",
    ("card", "drawn", "times", "kept", "mean VP", "win share: drew it / others",
     "win difference [95% CI]", "games", "most by"),
    "Fountain cards: win difference of the seats that drew them",
    "Per fountain card, the win share of the seats that drew it minus the other seats' in "
    "the same games, with its 95% interval (deals as clusters); red: the interval excludes "
    "0. An association, not a cause. Outliers first.")


def _pct(x: float | None) -> str:
    return "-" if x is None or math.isnan(x) else f"{100 * x:.1f}%"


def _pts(x: float) -> str:
    return f"{100 * x:+.1f}"


def rows(table: pl.DataFrame) -> list[list[object]]:
    """The report table's rows of ``card_outcomes``' rows (one kind)."""
    out: list[list[object]] = []
    for r in table.iter_rows(named=True):
        diff = ("-" if math.isnan(r["low"]) else
                f"{_pts(r['difference'])} pts [{_pts(r['low'])}, {_pts(r['high'])}]")
        out.append([r["card"], _pct(r["taken_share"]), r["times"], _pct(r["done_share"]),
                    "-" if r["mean_vp"] is None else f"{r['mean_vp']:.1f}",
                    f"{_pct(r['win_takers'])} / {_pct(r['win_others'])}", diff, r["games"],
                    r["top_strategy"]])
    return out


@dataclass(frozen=True)
class CardSection:
    """The per-card table and the seat breakdown of a run, or why there are none."""

    table: pl.DataFrame | None
    seats: pl.DataFrame | None
    missing: str = ""


def section(run: Run) -> CardSection:
    """The run's card section; a run without the card table says so in one line."""
    try:
        cards = card_rows(run)
    except NoCardTable as exc:
        return CardSection(None, None, str(exc))
    return CardSection(card_outcomes(cards), by_seat(cards))


def _float(x: Any) -> float | None:
    return None if x is None or (isinstance(x, float) and np.isnan(x)) else float(x)


def as_json(found: CardSection) -> dict[str, Any]:
    """``cdsim report --json``'s ``cards``: per card the table's figures, its interval and
    its taken share by seat (seats from 1); or ``missing``, the one line why there is none."""
    if found.table is None or found.seats is None:
        return {"missing": found.missing}
    shares: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for r in found.seats.iter_rows(named=True):
        shares.setdefault((r["kind"], r["card"]), []).append(
            {"seat": int(r["seat"]), "taken_share": float(r["share"])})
    out = []
    for r in found.table.iter_rows(named=True):
        out.append({"card": r["card"], "kind": r["kind"], "taken": int(r["taken"]),
                    "taken_share": float(r["taken_share"]), "times": int(r["times"]),
                    ("fulfilled_share" if r["kind"] == "objective" else "kept_share"):
                        _float(r["done_share"]),
                    "mean_vp": _float(r["mean_vp"]), "games": int(r["games"]),
                    "win_share_takers": _float(r["win_takers"]),
                    "win_share_others": _float(r["win_others"]),
                    "difference": _float(r["difference"]), "low": _float(r["low"]),
                    "high": _float(r["high"]), "top_strategy": r["top_strategy"],
                    "by_seat": shares.get((r["kind"], r["card"]), [])})
    return {"cards": out, "interval": "95%, games of one deal as one cluster",
            "difference": "win share of the seats that took (drew) the card minus that of "
                          "the other seats of the same games: an association, not a cause"}


# -- one card's figures with intervals, and a variant against its base -------------------------

# each figure a ratio of per-game sums (numerator, denominator) of ``card_terms``' columns
FIGURES = {"objective": {"taken_share": ("took", "seats"), "done_share": ("done", "times"),
                         "mean_vp": ("vp", "times")},
           "fountain": {"taken_share": ("took", "seats"), "done_share": ("kept", "took"),
                        "mean_vp": ("vp", "kept_cards")}}


def card_terms(cards: pl.DataFrame, kind: str, card: str) -> pl.DataFrame:
    """One row per game of a frame of card rows (every game, the card taken or not): its deal
    (``setup``), ``seats``, ``winners``, the seats that ``took`` (drew) the card and those
    of them that won (``took_won``), the ``times`` taken, the takes ``done`` (fulfilled),
    the seats that ``kept`` it and the ``kept_cards``, and the ``vp`` it brought (objective:
    every take, fountain: the kept cards); the per-game sums behind ``card_figures``."""
    _check(cards)
    games = (cards.select("game", "seat", "setup", "won").unique(["game", "seat"])
             .group_by("game").agg(pl.len().alias("seats"), pl.col("setup").first(),
                                   pl.col("won").sum().alias("winners")))
    part = cards.filter((pl.col("kind") == kind) & (pl.col("card") == card))
    taken = part.filter(pl.col("outcome").is_in(TAKEN.get(kind, ())))
    done = part.filter(pl.col("outcome") == DONE.get(kind, ""))
    paid = taken if kind == "objective" else done
    counts = [
        taken.group_by("game").agg(pl.col("seat").n_unique().alias("took"),
                                   pl.len().alias("times")),
        taken.unique(["game", "seat"]).group_by("game").agg(
            pl.col("won").sum().alias("took_won")),
        done.group_by("game").agg(pl.len().alias("done"), pl.col("seat").n_unique().alias("kept"),
                                  pl.len().alias("kept_cards")),
        paid.group_by("game").agg(pl.col("vp").sum().alias("vp"))]
    out = games
    for c in counts:
        out = out.join(c, on="game", how="left")
    return out.fill_null(0).sort("game")


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


def card_figures(terms: pl.DataFrame, kind: str) -> dict[str, tuple[float, float, float]]:
    """Each of ``FIGURES`` of one card's ``card_terms`` and its ``win_difference`` (as
    ``card_outcomes`` has them, over the games where some seat took it): (estimate, low,
    high), 95%, the games of one deal as one cluster (nan: never taken)."""
    out = {name: _interval(ratio_terms(terms[n].to_numpy(), terms[d].to_numpy()),
                           terms["setup"].to_numpy())
           for name, (n, d) in FIGURES.get(kind, {}).items()}
    some = terms.filter(pl.col("took") > 0)
    diff = win_difference(*(some[c].to_numpy() for c in ("took", "took_won", "seats",
                                                         "winners", "setup")))
    return out | {"win_difference": (diff.difference, diff.low, diff.high)}


def paired_change(base: pl.DataFrame, variant: pl.DataFrame, kind: str
                  ) -> dict[str, tuple[float, float, float]]:
    """Each of ``FIGURES``, variant minus base, on the games both played (``card_terms`` of
    the same deals under two component sets, matched by game): (change, low, high), 95%,
    deals as clusters; identical designs give exactly 0 with [0, 0]."""
    both = base.join(variant, on="game", suffix="_v").sort("game")
    setup = both["setup"].to_numpy()
    out = {}
    for name, (n, d) in FIGURES.get(kind, {}).items():
        diff = (ratio_terms(both[f"{n}_v"].to_numpy(), both[f"{d}_v"].to_numpy())
                - ratio_terms(both[n].to_numpy(), both[d].to_numpy()))
        out[name] = _interval(diff, setup)
    return out


__all__ = ["EXPLAIN", "FIGURES", "FOUNTAIN_WORDS", "OBJECTIVE_WORDS", "TABLE_COLUMNS",
           "CardSection", "Difference", "Words", "as_json", "by_seat", "card_figures",
           "card_outcomes", "card_terms", "paired_change", "ratio_terms", "rows", "section",
           "win_difference"]
