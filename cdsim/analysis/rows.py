"""A run's figures from its rows, as ``cdsim report`` shows them: per seat and per strategy
the win share with its 95% interval, mean VP and margins, placements, ties, where the VP come
from, the VP over the game, the running win shares, and the games a seat gap needs.

The rows come from a lazy scan of the run's Parquet parts (``Rows``: what
``cdsim.batch.read.Run`` offers) and the per-game arrays (``Winners``: its ``SeatArrays``);
every share carries its 95% Wilson interval (``stats.wilson``), on the effective sample size
when the seats were rotated (``stats.design_effect``: the games of one deal are correlated).
The columns a game has of its own (its VP sources, the VP after each scoring phase, the
failed cards) are read from its spec (``cdsim.games.GameSpec``, the run's ``spec``); a
figure the game has no column for is None.
``reports.report`` formats what this returns.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple, Protocol

import numpy as np
import polars as pl
from numpy.typing import NDArray

from cdsim.analysis.stats import (
    EqualShares,
    FloatArray,
    Power,
    design_effect,
    equal_shares_test,
    power_analysis,
    seat_design_effect,
    wilson,
)
from cdsim.games import GameSpec

FINAL = "final_vp"  # the last moment of the game shape, after the game's scoring phases


class Rows(Protocol):
    """A run's rows (``cdsim.batch.read.Run``)."""

    @property
    def players(self) -> int: ...

    @property
    def rotated(self) -> bool: ...

    @property
    def spec(self) -> GameSpec: ...

    def scan(self, columns: tuple[str, ...] | None = None) -> pl.LazyFrame: ...


class Winners(Protocol):
    """Per game (rows in game-id order) who won and the deal (``cdsim.batch.read.SeatArrays``)."""

    @property
    def won(self) -> NDArray[np.bool_]: ...

    @property
    def setup(self) -> NDArray[np.int64]: ...


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
    tiebreak_games: int  # games whose winner the game's tie-break decided
    tied_games: int  # games with any two seats on equal VP
    widest: float  # half the widest seat interval

    @property
    def effective_games(self) -> float:
        """The games' worth as independent ones (games / design effect)."""
        return self.games / self.deff

    @property
    def tied_share(self) -> float:
        return self.tied_games / self.games

    @property
    def tiebreak_share(self) -> float:
        return self.tiebreak_games / self.games


def seat_balance(run: Rows, arrays: Winners) -> SeatBalance:
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
    widest = float(np.max((table["high"] - table["low"]).to_numpy()) / 2)
    return SeatBalance(table, placements, test, deff, games, int(per_game["tiebreak"].sum()),
                       int(per_game["tied"].sum()), widest)


@dataclass(frozen=True)
class Strategies:
    # strategy, appearances, wins, share, low, high, mean_vp, and failed_rate where the game
    # has failed cards (``has_failed``)
    table: pl.DataFrame
    by_seat: pl.DataFrame  # strategy x seat: appearances, share, low, high, half (of the interval)
    sources: pl.DataFrame  # strategy x mean VP per source of the game's breakdown, in its order
    net: FloatArray  # per strategy (the sources' order): the sum of its sources' means

    @property
    def has_failed(self) -> bool:
        return "failed_rate" in self.table.columns


def strategies(run: Rows) -> Strategies:
    """Per strategy; in a rotated run a strategy plays each deal N times, so its intervals use
    the design effect of its own wins clustered by deal; the sources are the game's
    (``GameSpec.breakdown``), the failed cards' rate only where it has them."""
    breakdown, failed = run.spec.breakdown(), run.spec.failed_cards
    cols = ("seat", "strategy", "won", "final_vp", *(failed[:1] if failed else ()), "setup",
            *(f"vp_{k}" for k in breakdown))
    lf = run.scan(cols)
    rate = [] if failed is None else [
        (pl.col(failed[0]).sum() / (pl.len() * failed[1])).alias("failed_rate")]
    table = (lf.group_by("strategy").agg(
        pl.len().alias("appearances"), pl.col("won").sum().alias("wins"),
        pl.col("final_vp").mean().alias("mean_vp"), *rate,
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
    by_seat = by_seat.with_columns(((pl.col("high") - pl.col("low")) / 2).alias("half"))
    sources = (lf.group_by("strategy").agg(pl.col(f"vp_{k}").mean().alias(k) for k in breakdown)
               .sort("strategy").collect())
    net = sources.select(list(breakdown)).sum_horizontal().to_numpy()
    return Strategies(table, by_seat, sources, net)


@dataclass(frozen=True)
class GameShape:
    """Per seat and moment (after each scoring phase, then final): quartiles of VP."""

    moments: tuple[str, ...]  # the row's columns, in the game's order: its phases, final_vp
    table: pl.DataFrame  # seat, moment, q25, median, q75, mean


def game_shape(run: Rows) -> GameShape | None:
    """The VP over the game, or None when the game logs no VP after its scoring phases."""
    if not run.spec.phases:
        return None
    moments = (*run.spec.phases, FINAL)
    lf = run.scan(("seat", *moments))
    long = lf.unpivot(index="seat", on=list(moments), variable_name="moment", value_name="vp")
    return GameShape(moments, long.group_by("seat", "moment").agg(
        pl.col("vp").quantile(0.25).alias("q25"), pl.col("vp").median().alias("median"),
        pl.col("vp").quantile(0.75).alias("q75"), pl.col("vp").mean().alias("mean"))
        .sort("seat", "moment").collect())


@dataclass(frozen=True)
class FinalVP:
    values: dict[int, FloatArray]  # per seat, every game's final VP
    means: dict[int, float]


def final_vp(run: Rows) -> FinalVP:
    df = run.scan(("seat", "final_vp")).collect()
    values = {int(s): df.filter(pl.col("seat") == s)["final_vp"].to_numpy().astype(float)
              for s in sorted(df["seat"].unique())}
    return FinalVP(values, {s: float(v.mean()) for s, v in values.items()})


class Convergence(NamedTuple):
    """Running win share per seat over games in game-id order, with its 95% band."""

    played: FloatArray  # (G,) games so far
    share: FloatArray  # (seats, G)
    low: FloatArray
    high: FloatArray


def convergence(arrays: Winners, deff: float) -> Convergence:
    won = arrays.won.astype(float)
    played = np.arange(1, won.shape[0] + 1, dtype=float)
    share = np.cumsum(won, axis=0) / played[:, None]
    low, high = wilson(share, played[:, None] / deff)
    return Convergence(played, share.T, low.T, high.T)


def power_table(players: int, effects: Sequence[float]) -> tuple[Power, ...]:
    """``stats.power_analysis`` of each seat gap in ``effects`` that ``players`` can have."""
    found = []
    for effect in effects:
        try:
            found.append(power_analysis(players, effect))
        except ValueError:
            continue
    return tuple(found)


__all__ = ["FINAL", "Convergence", "FinalVP", "GameShape", "Rows", "SeatBalance",
           "Strategies", "Winners", "convergence", "final_vp", "game_shape", "power_table",
           "seat_balance", "strategies"]
