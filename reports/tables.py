"""Aggregations of a run's rows (Polars lazy scans); every share carries its 95% interval."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import polars as pl

from cdsim.analysis.stats import (
    EqualShares,
    FloatArray,
    design_effect,
    equal_shares_test,
    seat_design_effect,
    wilson,
)
from cdsim.batch.read import Run, SeatArrays
from cdsim.rules.records import BREAKDOWN


def seat_label(seat: int) -> str:
    """A seat as people count them (the rulebook's seat 1 is the first player, who gets 8 VP);
    the Parquet ``seat`` column and every array index stay 0-based."""
    return f"seat {seat + 1}"


CARDS_PER_GAME = 8  # R3.1, R8.3: 4 scoring phases x one disc x 2 cards
PHASES = ("vp_phase1", "vp_phase2", "vp_phase3", "vp_phase4", "final_vp")


def _with_interval(df: pl.DataFrame, wins: str, n: str, deff: float = 1.0) -> pl.DataFrame:
    """Add share, low, high; a ``deff`` column, when present, overrides the ``deff`` argument."""
    share = (df[wins] / df[n]).to_numpy()
    d = df["deff"].to_numpy() if "deff" in df.columns else deff
    low, high = wilson(share, df[n].to_numpy() / d)
    return df.with_columns(pl.Series("share", share), pl.Series("low", low),
                           pl.Series("high", high))


@dataclass(frozen=True)
class SeatBalance:
    table: pl.DataFrame  # seat, start_vp, games, wins, share, low, high, mean_vp, mean_margin, ...
    placements: pl.DataFrame  # seat x rank -> share of games
    test: EqualShares
    deff: float
    games: int
    tiebreak_games: int  # games whose winner the R10.6 tie-break decided
    tied_games: int  # games with any two seats on equal VP


def seat_balance(run: Run, arrays: SeatArrays) -> SeatBalance:
    lf = run.scan(("game", "seat", "start_vp", "final_vp", "rank", "won", "tiebreak"))
    lf = lf.with_columns((pl.col("final_vp").max().over("game") - pl.col("final_vp"))
                         .alias("margin"))
    table = (lf.group_by("seat").agg(
        pl.col("start_vp").first(), pl.len().alias("games"),
        pl.col("won").sum().alias("wins"),
        pl.col("final_vp").mean().alias("mean_vp"),
        pl.col("final_vp").std().alias("sd_vp"),
        pl.col("margin").filter(~pl.col("won")).mean().alias("mean_margin_losing"),
        pl.col("margin").mean().alias("mean_margin"),
        (pl.col("won") & pl.col("tiebreak")).sum().alias("tiebreak_wins"),
    ).sort("seat").collect())
    winner = np.argmax(arrays.won, axis=1)
    deff = seat_design_effect(winner, arrays.setup, run.players) if run.rotated else 1.0
    table = _with_interval(table, "wins", "games", deff)
    placements = (lf.group_by("seat", "rank").agg(pl.len().alias("count"))
                  .with_columns((pl.col("count") / pl.col("count").sum().over("seat")).alias("share"))
                  .sort("seat", "rank").collect())
    games = len(winner)
    test = equal_shares_test(table["wins"].to_numpy(), deff)
    per_game = lf.group_by("game").agg(
        pl.col("tiebreak").first(),
        (pl.col("final_vp").n_unique() < pl.len()).alias("tied")).collect()
    return SeatBalance(table, placements, test, deff, games, int(per_game["tiebreak"].sum()),
                       int(per_game["tied"].sum()))


@dataclass(frozen=True)
class Strategies:
    table: pl.DataFrame  # strategy, appearances, wins, share, low, high, mean_vp, failed_rate
    by_seat: pl.DataFrame  # strategy x seat: appearances, share, low, high
    sources: pl.DataFrame  # strategy x mean VP per BREAKDOWN source


def strategies(run: Run) -> Strategies:
    """Per strategy; in a rotated run a strategy plays each deal N times, so its intervals use
    the design effect of its own wins clustered by deal."""
    cols = ("seat", "strategy", "won", "final_vp", "failed_cards", "setup",
            *(f"vp_{k}" for k in BREAKDOWN))
    lf = run.scan(cols)
    table = (lf.group_by("strategy").agg(
        pl.len().alias("appearances"), pl.col("won").sum().alias("wins"),
        pl.col("final_vp").mean().alias("mean_vp"),
        (pl.col("failed_cards").sum() / (pl.len() * CARDS_PER_GAME)).alias("failed_rate"),
    ).sort("strategy").collect())
    deff = {name: 1.0 for name in table["strategy"]}
    if run.rotated:
        wins = lf.select("strategy", "won", "setup").collect()
        for name in deff:
            rows = wins.filter(pl.col("strategy") == name)
            deff[name] = design_effect(rows["won"].to_numpy(), rows["setup"].to_numpy())
    table = _with_interval(table.with_columns(pl.col("strategy").replace_strict(deff).alias("deff")),
                           "wins", "appearances")
    by_seat = (lf.group_by("strategy", "seat").agg(
        pl.len().alias("appearances"), pl.col("won").sum().alias("wins"))
        .sort("strategy", "seat").collect())
    by_seat = _with_interval(by_seat.with_columns(pl.col("strategy").replace_strict(deff)
                                                  .alias("deff")), "wins", "appearances")
    sources = (lf.group_by("strategy").agg(pl.col(f"vp_{k}").mean().alias(k) for k in BREAKDOWN)
               .sort("strategy").collect())
    return Strategies(table, by_seat, sources)


def game_shape(run: Run) -> pl.DataFrame:
    """Per seat and moment (after scoring phase 1..4, final): quartiles of VP."""
    lf = run.scan(("seat", *PHASES))
    long = lf.unpivot(index="seat", on=list(PHASES), variable_name="moment", value_name="vp")
    return (long.group_by("seat", "moment").agg(
        pl.col("vp").quantile(0.25).alias("q25"), pl.col("vp").median().alias("median"),
        pl.col("vp").quantile(0.75).alias("q75"), pl.col("vp").mean().alias("mean"))
        .sort("seat", "moment").collect())


def final_vp(run: Run) -> dict[int, FloatArray]:
    df = run.scan(("seat", "final_vp")).collect()
    return {int(s): df.filter(pl.col("seat") == s)["final_vp"].to_numpy().astype(float)
            for s in sorted(df["seat"].unique())}


def convergence(arrays: SeatArrays, deff: float) -> tuple[FloatArray, FloatArray, FloatArray,
                                                          FloatArray]:
    """Running win share per seat over games in game-id order: (games, share, low, high)."""
    won = arrays.won.astype(float)
    played = np.arange(1, won.shape[0] + 1, dtype=float)
    share = np.cumsum(won, axis=0) / played[:, None]
    low, high = wilson(share, played[:, None] / deff)
    return played, share.T, low.T, high.T
