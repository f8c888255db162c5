"""Synthetic games at the sparsity of real ones, for the card figures' and the card line's
simulations (tests/test_card_figures.py, tests/test_card_line.py): per deal, the card is on
the grid or not (``grid``: B05 was taken in 13.5% of 2-player deals and 20% of 4-player
ones, in 12 and 4 games a deal, measured on 40,000 scripted games a side); on the grid, one
seat of each of its games takes it, fulfils it with a probability that moves from deal to
deal and wins with one that does too. Every truth is known: taken share ``grid / players``,
fulfilled share ``fulfil``, VP per take ``fulfil * reward - 4 (1 - fulfil)``, and the takers'
win difference ``taker_wins - (1 - taker_wins) / (players - 1)``."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import polars as pl

from cdsim.analysis.cards import BY_STRATEGY


@dataclass(frozen=True)
class Sparsity:
    players: int
    per_deal: int  # games a deal (line-ups and seat rotations)
    grid: float  # the share of deals that put the card on the grid
    taker_wins: float
    fulfil: float = 0.7
    reward: int = 6
    spread: float = 0.15  # a deal moves the taker's chance to win by up to this
    fulfil_spread: float = 0.25  # and its chance to fulfil it

    def truth(self) -> dict[str, float]:
        return {"taken_share": self.grid / self.players, "done_share": self.fulfil,
                "mean_vp": self.fulfil * self.reward - 4 * (1 - self.fulfil),
                "win_difference": self.taker_wins - (1 - self.taker_wins) / (self.players - 1)}


TWO = Sparsity(2, 12, 0.135, 0.5)
FOUR = Sparsity(4, 4, 0.2, 0.25)


def terms(rng: np.random.Generator, s: Sparsity, deals: int) -> pl.DataFrame:
    """``cards.card_terms``' frame of ``deals`` synthetic deals (one strategy)."""
    g = deals * s.per_deal
    setup = np.repeat(np.arange(deals), s.per_deal)
    on = np.repeat(rng.random(deals) < s.grid, s.per_deal)
    wins = np.repeat(s.taker_wins + rng.uniform(-s.spread, s.spread, deals), s.per_deal)
    fulfil = np.repeat(s.fulfil + rng.uniform(-s.fulfil_spread, s.fulfil_spread, deals),
                       s.per_deal)
    took = on.astype(np.int64)
    took_won = took * (rng.random(g) < wins)
    done = took * (rng.random(g) < fulfil)
    vp = done * s.reward - 4 * (took - done)
    seats = np.full(g, s.players)
    winners = np.ones(g, dtype=np.int64)
    frame = pl.DataFrame({"game": np.arange(g), "setup": setup, "seats": seats,
                          "winners": winners, "took": took, "took_won": took_won,
                          "times": took, "done": done, "kept": done, "kept_cards": done,
                          "vp": vp, "vp_low": vp, "vp_high": vp})
    return frame.with_columns(
        pl.Series(name, np.asarray(v, dtype=np.float64).reshape(g, 1))
        for name, v in zip(BY_STRATEGY, (took, took_won, seats, winners), strict=True))
