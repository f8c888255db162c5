"""Every strategy of a ladder on one rating scale (``cdsim ladder``; ``reports.ladder`` draws
the page from ``fit_ladder``'s figures).

- **2 players**: a Bradley-Terry model of who wins, P(a beats b) = pi_a / (pi_a + pi_b).
- **3 or more players**: a Plackett-Luce model of the whole finishing order (the winner chosen
  among all N with probability proportional to pi, then 2nd among the rest, ...). With two
  players it *is* Bradley-Terry (a test pins that the two likelihoods agree).

Both are maximum-likelihood fits of a concave log-likelihood by ``scipy.optimize``
(trust-exact, a Newton-type method, with the exact gradient and Hessian; plain Newton
steps polish the result to machine precision). Not the MM algorithm (Hunter 2004): when a
player sweeps another, MM crawls (100,000+ iterations for a 5-player ladder).

Ratings are on the Elo scale, 400 log10(pi): 200 points of gap is 76% wins between two
players, 400 points 91%. They are anchored so that ``random`` is 0 when it plays, else the
mean rating is 0. Every player also gets one virtual win and one virtual loss against a
virtual player of strength 1 (``PRIOR_GAMES``): a player that won (or lost) every game
still gets a finite rating; with hundreds of games it moves a gap by about a point.

95% intervals: percentile bootstrap over deals. All pairings play the same deals (the
ladder's seed), and a deal's games -- its seat rotations, in every pairing -- are
correlated, so each resample draws whole deals with replacement, all their games in
every pairing together, and refits. An interval is the rating's *relative to the anchor*
(the anchor's own is [0, 0]).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import polars as pl
from numpy.typing import ArrayLike, NDArray
from scipy import optimize

from cdsim.analysis.stats import FloatArray
from cdsim.errors import CdsimError

ELO = 400 / math.log(10)  # natural-log strength -> Elo points
PRIOR_GAMES = 2.0  # virtual games per player against strength 1: half won, half lost
RESAMPLES = 200
MAX_RESAMPLES = 10_000  # each resample refits every rating: more would run for hours
ANCHOR = "random"  # rated 0 when it plays
IntArray = NDArray[np.int64]


# -- the fits ----------------------------------------------------------------------------

LogLik = Callable[[FloatArray], tuple[float, FloatArray, FloatArray]]


def _maximise(loglik: LogLik, k: int, prior: float) -> FloatArray:
    """The log-strengths maximising ``loglik`` (which gives the log-likelihood, its gradient
    and Hessian at theta) plus the virtual games, each player's prior/2 wins and prior/2
    losses against a player of strength 1 (theta = 0). The log-likelihood is concave, so a
    Newton-type method (trust-exact) finds the maximum in a few steps. Without a prior the
    scale's origin is free: theta_0 = 0 fixes it, and the mean is returned as 0."""
    free = np.arange(k) if prior > 0 else np.arange(1, k)

    def full(x: FloatArray) -> FloatArray:
        theta = np.zeros(k)
        theta[free] = x
        return theta

    def minus(x: FloatArray) -> tuple[float, FloatArray, FloatArray]:
        theta = full(x)
        value, grad, hess = loglik(theta)
        sig = 1 / (1 + np.exp(-theta))  # a virtual game's chance of a win
        value += prior / 2 * theta.sum() - prior * np.logaddexp(0, theta).sum()
        grad = grad + prior / 2 - prior * sig
        hess = hess - np.diag(prior * sig * (1 - sig))
        return -value, -grad[free], -hess[np.ix_(free, free)]

    x = optimize.minimize(lambda x: minus(x)[0], np.zeros(len(free)), jac=lambda x: minus(x)[1],
                          hess=lambda x: minus(x)[2], method="trust-exact",
                          options={"gtol": 1e-8}).x
    for _ in range(8):  # trust-exact stops where the objective's rounding hides progress;
        _, grad, hess = minus(x)  # plain Newton steps finish the job from there
        step = np.linalg.solve(hess, grad)
        x = x - step
        if np.max(np.abs(step), initial=0.0) < 1e-12:
            break
    theta = full(x)
    return theta - theta.mean() if prior == 0 else theta


def bradley_terry(wins: ArrayLike, prior: float = PRIOR_GAMES) -> FloatArray:
    """Bradley-Terry log-strengths from ``wins[i, j]`` = games i won against j, maximising
    sum_ij wins_ij log(pi_i / (pi_i + pi_j)) + the virtual games. ``wins`` may be a stack
    (B, k, k) of resamples: each is fitted alone, (B, k) returned."""
    w = np.asarray(wins, dtype=float)
    if w.ndim == 3:
        return np.stack([bradley_terry(one, prior) for one in w])
    games = w + w.T

    def loglik(theta: FloatArray) -> tuple[float, FloatArray, FloatArray]:
        gap = theta[:, None] - theta[None, :]
        p = 1 / (1 + np.exp(-gap))  # p[i, j]: i beats j
        value = float(np.sum(w * -np.logaddexp(0, -gap)))
        grad = w.sum(axis=1) - (games * p).sum(axis=1)
        info = games * p * p.T  # each pair's Fisher information
        return value, grad, info - np.diag(info.sum(axis=1))

    return _maximise(loglik, len(w), prior)


@dataclass(frozen=True)
class Stages:
    """A set of finishing orders as Plackett-Luce stages, identical stages merged: stage
    pattern p chose ``chosen[p]`` among the players still unplaced, ``members[p]`` (a count
    per strategy: one strategy may sit twice). ``of_game[g]``: game g's N-1 patterns."""

    members: FloatArray  # (P, k)
    chosen: IntArray  # (P,)
    of_game: IntArray  # (G, N-1)

    def counts(self, weights: ArrayLike | None = None) -> FloatArray:
        """How often each pattern occurs, each game counted with its weight."""
        g, stages = self.of_game.shape
        w = np.ones(g) if weights is None else np.asarray(weights, dtype=float)
        return np.bincount(self.of_game.ravel(), weights=np.repeat(w, stages),
                           minlength=len(self.chosen)).astype(float)


def stages(orders: ArrayLike, k: int) -> Stages:
    """``orders[g]``: game g's strategies (indices < k) from first place to last."""
    o = np.asarray(orders, dtype=np.int64)
    index: dict[tuple[tuple[int, ...], int], int] = {}
    of_game = np.empty((len(o), o.shape[1] - 1), dtype=np.int64)
    for g, order in enumerate(o.tolist()):
        for r in range(len(order) - 1):
            key = (tuple(sorted(order[r:])), order[r])
            of_game[g, r] = index.setdefault(key, len(index))
    members = np.zeros((len(index), k))
    chosen = np.empty(len(index), dtype=np.int64)
    for (rest, pick), p in index.items():
        np.add.at(members[p], list(rest), 1.0)
        chosen[p] = pick
    return Stages(members, chosen, of_game)


def fit_stages(st: Stages, counts: FloatArray, prior: float = PRIOR_GAMES) -> FloatArray:
    """Plackett-Luce log-strengths maximising
    sum_p counts_p (theta_chosen - log sum_i members_pi e^theta_i) + the virtual games."""
    k = st.members.shape[1]
    won = np.bincount(st.chosen, weights=counts, minlength=k)

    def loglik(theta: FloatArray) -> tuple[float, FloatArray, FloatArray]:
        pi = np.exp(theta)
        total = st.members @ pi
        share = st.members * pi / total[:, None]  # each stage's choice probabilities
        value = float(won @ theta - counts @ np.log(total))
        grad = won - counts @ share
        return value, grad, (share.T * counts) @ share - np.diag(counts @ share)

    return _maximise(loglik, k, prior)


def plackett_luce(orders: ArrayLike, k: int, weights: ArrayLike | None = None,
                  prior: float = PRIOR_GAMES) -> FloatArray:
    """Plackett-Luce log-strengths from finishing orders (games x N strategy indices)."""
    st = stages(orders, k)
    return fit_stages(st, st.counts(weights), prior)


def elo(theta: ArrayLike, anchor: int | None) -> FloatArray:
    """Elo-scale ratings, 0 at player ``anchor`` (or at the mean); works on stacks (B, k)."""
    t = np.asarray(theta, dtype=float)
    origin = t[..., anchor:anchor + 1] if anchor is not None else t.mean(axis=-1, keepdims=True)
    return np.asarray(ELO * (t - origin), dtype=float)


def anchor_of(names: Sequence[str]) -> int | None:
    """The strategy rated 0 (``ANCHOR`` when it plays), or None: the mean is 0."""
    return list(names).index(ANCHOR) if ANCHOR in names else None


def win_matrix(orders: IntArray, k: int, weights: ArrayLike | None = None) -> FloatArray:
    """wins[i, j] = (weighted) games i finished ahead of j, from 2-player orders."""
    w = np.ones(len(orders)) if weights is None else np.asarray(weights, dtype=float)
    return np.bincount(orders[:, 0] * k + orders[:, 1], weights=w, minlength=k * k
                       ).reshape(k, k).astype(float)


# -- a ladder's games --------------------------------------------------------------------


@dataclass(frozen=True)
class Games:
    """Every game of a ladder, pairing after pairing."""

    orders: IntArray  # (G, N) strategy indices from first place to last
    deal: IntArray  # (G,) the dealt setup: the same deal in every pairing
    pairing: IntArray  # (G,)
    rows: pl.DataFrame  # one per game x seat: strategy, final_vp, failed_cards, won, ...

    @classmethod
    def of_rows(cls, rows: pl.DataFrame, names: Sequence[str], players: int) -> Games:
        """The games of a ladder's seat rows (``game``, ``setup``, ``strategy``, ``rank`` and
        ``pairing``: the pairing's index), strategies numbered in the order of ``names``."""
        index = {name: i for i, name in enumerate(names)}
        rows = rows.sort("pairing", "game", "rank")
        strat = np.array([index[s] for s in rows["strategy"]], dtype=np.int64).reshape(-1, players)
        first = rows["setup"].to_numpy()[::players]
        return cls(strat, first.astype(np.int64),
                   rows["pairing"].to_numpy()[::players].astype(np.int64), rows)


def check_resamples(resamples: int) -> int:
    """A bootstrap this machine finishes: 10 to MAX_RESAMPLES resamples, or one line."""
    if not 10 <= resamples <= MAX_RESAMPLES:
        raise CdsimError(f"--resamples must be between 10 and {MAX_RESAMPLES:,}, got "
                         f"{str(resamples)[:40]}")
    return resamples


def bootstrap_fits(games: Games, k: int, resamples: int, seed: int
                   ) -> tuple[FloatArray, FloatArray]:
    """The point fit and ``resamples`` bootstrap refits (rows) over whole deals."""
    deals, of_deal = np.unique(games.deal, return_inverse=True)
    rng = np.random.default_rng(np.random.SeedSequence([seed, 0x1ADDE2]))
    draws = np.stack([np.bincount(rng.integers(len(deals), size=len(deals)), minlength=len(deals))
                      for _ in range(resamples)]).astype(float)  # (B, deals): times drawn
    if games.orders.shape[1] == 2:
        per_deal = np.zeros((len(deals), k * k))
        np.add.at(per_deal, (of_deal, games.orders[:, 0] * k + games.orders[:, 1]), 1.0)
        fit = bradley_terry(win_matrix(games.orders, k))
        return fit, bradley_terry((draws @ per_deal).reshape(-1, k, k))
    st = stages(games.orders, k)
    per_deal = np.zeros((len(deals), len(st.chosen)))
    for r in range(st.of_game.shape[1]):
        np.add.at(per_deal, (of_deal, st.of_game[:, r]), 1.0)
    fit = fit_stages(st, st.counts())
    return fit, np.stack([fit_stages(st, counts) for counts in draws @ per_deal])


def head_to_head(orders: IntArray, k: int) -> tuple[FloatArray, FloatArray]:
    """(ahead, meetings): for every two seats of a game held by different strategies i, j,
    a meeting of i and j, won by whoever finished ahead (with 2 players: the winner)."""
    ahead = np.zeros((k, k))
    meetings = np.zeros((k, k))
    n = orders.shape[1]
    for p in range(n):
        for q in range(p + 1, n):
            i, j = orders[:, p], orders[:, q]
            other = i != j
            np.add.at(ahead, (i[other], j[other]), 1.0)
            np.add.at(meetings, (i[other], j[other]), 1.0)
            np.add.at(meetings, (j[other], i[other]), 1.0)
    return ahead, meetings


def meeting_deals(orders: IntArray, deal: IntArray, k: int) -> FloatArray:
    """How many distinct deals each two strategies met in."""
    met: set[tuple[int, int, int]] = set()
    n = orders.shape[1]
    for p in range(n):
        for q in range(n):
            met.update((i, j, d) for i, j, d in zip(orders[:, p].tolist(), orders[:, q].tolist(),
                                                     deal.tolist(), strict=True) if i != j)
    seen = np.zeros((k, k))
    for i, j, _ in met:
        seen[i, j] += 1
    return seen


# -- a ladder's figures ------------------------------------------------------------------


@dataclass(frozen=True)
class LadderFit:
    """A ladder's figures, per strategy in the order of its names: the rating with its 95%
    bootstrap interval, what it played and how it fared, and every two strategies' meetings."""

    rating: FloatArray
    low: FloatArray
    high: FloatArray
    games: IntArray  # games the strategy sat in
    appearances: IntArray  # seats it took (twice in one game counts twice)
    wins: IntArray
    win_share: FloatArray  # wins per appearance
    mean_vp: FloatArray
    failed_rate: FloatArray  # share of its cards that failed (GameSpec.failed_cost)
    ahead: FloatArray  # ahead[i, j]: meetings of i and j in which i finished ahead
    meetings: FloatArray
    share: FloatArray  # ahead / meetings (nan where they never met)
    met_deals: FloatArray  # deals in which i and j met
    pairing_games: IntArray
    deals: int
    resamples: int

    def order(self) -> list[int]:
        """Strategy indices, strongest first (ties: the ladder's order)."""
        return sorted(range(len(self.rating)), key=lambda i: (-self.rating[i], i))


def fit_ladder(games: Games, names: Sequence[str], seed: int, resamples: int = RESAMPLES,
               pairings: int = 0, cards_per_game: int | None = None) -> LadderFit:
    """Ratings anchored at ``anchor_of(names)``, their bootstrap intervals (``resamples``
    refits over whole deals, seeded by the ladder's ``seed``), per-strategy totals, meetings
    and games per pairing (at least ``pairings`` of them); ``cards_per_game``: the cards a
    seat scores a game (the game's ``GameSpec.failed_cards``; None: it has no such cards,
    and the failed rate is nan)."""
    check_resamples(resamples)
    k = len(names)
    anchor = anchor_of(names)
    fit, resampled = bootstrap_fits(games, k, resamples, seed)
    boot = elo(resampled, anchor)
    totals = (games.rows.with_columns(pl.col("strategy").replace_strict(
        {n: i for i, n in enumerate(names)}, return_dtype=pl.Int64).alias("i"))
        .group_by("i").agg(pl.len().alias("appearances"),
                           pl.struct("pairing", "game").n_unique().alias("games"),
                           pl.col("won").sum().alias("wins"),
                           pl.col("final_vp").mean().alias("mean_vp"),
                           pl.col("failed_cards").sum().alias("failed")).sort("i"))
    ahead, meetings = head_to_head(games.orders, k)
    appearances = totals["appearances"].to_numpy().astype(np.int64)
    wins = totals["wins"].to_numpy().astype(np.int64)
    with np.errstate(invalid="ignore", divide="ignore"):
        share = ahead / meetings
    return LadderFit(
        rating=elo(fit, anchor), low=np.percentile(boot, 2.5, axis=0),
        high=np.percentile(boot, 97.5, axis=0),
        games=totals["games"].to_numpy().astype(np.int64), appearances=appearances, wins=wins,
        win_share=wins / appearances, mean_vp=totals["mean_vp"].to_numpy().astype(float),
        failed_rate=(totals["failed"].to_numpy() / (appearances * cards_per_game)
                     if cards_per_game else np.full(k, np.nan)),
        ahead=ahead, meetings=meetings, share=share,
        met_deals=meeting_deals(games.orders, games.deal, k),
        pairing_games=np.bincount(games.pairing, minlength=pairings),
        deals=len(np.unique(games.deal)), resamples=resamples)


@dataclass(frozen=True)
class Sweep:
    """Player ``winner`` finished ahead of ``loser`` in every one of their meetings."""

    winner: int
    loser: int
    meetings: int
    deals: int  # distinct deals they met in (a deal's games are correlated)

    @property
    def gap_at_least(self) -> float:
        """A one-sided 95% lower bound for the gap in Elo, counting each deal once: the
        share of meetings won is at least 0.05^(1/deals)."""
        p = 0.05 ** (1 / self.deals)
        return ELO * math.log(p / (1 - p))


def sweeps(fit: LadderFit) -> list[Sweep]:
    """The pairs one of which finished ahead in every meeting, strongest first: the games
    bound their gap below only; the fitted size comes from the virtual games."""
    order = fit.order()
    return [Sweep(i, j, int(fit.meetings[i, j]), int(fit.met_deals[i, j]))
            for i in order for j in order
            if fit.meetings[i, j] > 0 and fit.ahead[i, j] == fit.meetings[i, j]]


__all__ = ["ANCHOR", "ELO", "MAX_RESAMPLES", "PRIOR_GAMES", "RESAMPLES",
           "Games", "LadderFit", "Stages", "Sweep", "anchor_of", "bootstrap_fits",
           "bradley_terry", "check_resamples", "elo", "fit_ladder", "fit_stages", "head_to_head",
           "meeting_deals", "plackett_luce", "stages", "sweeps", "win_matrix"]
