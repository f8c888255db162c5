"""``cdsim ladder``'s report: every strategy of a ladder on one rating scale.

- **2 players**: a Bradley-Terry model of who wins, P(a beats b) = pi_a / (pi_a + pi_b).
- **3-4 players**: a Plackett-Luce model of the whole finishing order (the winner chosen
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

import json
import math
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
import polars as pl
from numpy.typing import ArrayLike, NDArray
from scipy import optimize

from cdsim.analysis.stats import FloatArray
from cdsim.batch.folder import RunFolder
from cdsim.batch.read import open_run
from cdsim.errors import CdsimError
from cdsim.ladder import from_manifest, read_ladder_manifest
from cdsim.study.cells import run_folder
from reports.charts import COLOURS, _png
from reports.report import Doc, pct, publish, save
from reports.tables import CARDS_PER_GAME

ELO = 400 / math.log(10)  # natural-log strength -> Elo points
PRIOR_GAMES = 2.0  # virtual games per player against strength 1: half won, half lost
RESAMPLES = 200
MAX_RESAMPLES = 10_000  # each resample refits every rating: more would run for hours
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


def win_matrix(orders: IntArray, k: int, weights: ArrayLike | None = None) -> FloatArray:
    """wins[i, j] = (weighted) games i finished ahead of j, from 2-player orders."""
    w = np.ones(len(orders)) if weights is None else np.asarray(weights, dtype=float)
    return np.bincount(orders[:, 0] * k + orders[:, 1], weights=w, minlength=k * k
                       ).reshape(k, k).astype(float)


# -- reading a ladder --------------------------------------------------------------------


@dataclass(frozen=True)
class Games:
    """Every game of a ladder, pairing after pairing."""

    orders: IntArray  # (G, N) strategy indices from first place to last
    deal: IntArray  # (G,) the dealt setup: the same deal in every pairing
    pairing: IntArray  # (G,)
    rows: pl.DataFrame  # one per game x seat: strategy, final_vp, failed_cards, won, ...


def load(root: Path, names: tuple[str, ...], pairings: list[dict[str, Any]]) -> Games:
    index = {name: i for i, name in enumerate(names)}
    frames = []
    for p, pairing in enumerate(pairings):
        run = open_run(run_folder(root, pairing["key"]))
        frames.append(run.scan(("game", "setup", "seat", "strategy", "rank", "won", "final_vp",
                                "failed_cards")).collect().with_columns(pl.lit(p).alias("pairing")))
    rows = pl.concat(frames).sort("pairing", "game", "rank")
    n = len(pairings[0]["lineup"])  # players
    strat = np.array([index[s] for s in rows["strategy"]], dtype=np.int64).reshape(-1, n)
    first = rows["setup"].to_numpy()[::n]
    return Games(strat, first.astype(np.int64), rows["pairing"].to_numpy()[::n].astype(np.int64),
                 rows)


# -- the analysis ------------------------------------------------------------------------

@dataclass(frozen=True)
class LadderResult:
    root: Path
    manifest: dict[str, Any]
    players: int
    names: tuple[str, ...]  # in the ladder's order
    anchor: str | None  # "random", or None: the mean is 0
    rating: FloatArray
    low: FloatArray
    high: FloatArray
    games: IntArray  # games the strategy sat in
    appearances: IntArray  # seats it took (twice in one game counts twice)
    wins: IntArray
    mean_vp: FloatArray
    failed_rate: FloatArray  # share of its objective cards that cost 4 VP (R8.5)
    ahead: FloatArray  # ahead[i, j]: meetings of i and j in which i finished ahead
    meetings: FloatArray
    met_deals: FloatArray  # deals in which i and j met
    pairing_games: IntArray
    deals: int
    resamples: int

    @property
    def method(self) -> str:
        return "Bradley-Terry" if self.players == 2 else "Plackett-Luce"

    def order(self) -> list[int]:
        """Strategy indices, strongest first (ties: the ladder's order)."""
        return sorted(range(len(self.names)), key=lambda i: (-self.rating[i], i))


def check_resamples(resamples: int) -> int:
    """A bootstrap this machine finishes: 10 to MAX_RESAMPLES resamples, or one line."""
    if not 10 <= resamples <= MAX_RESAMPLES:
        raise CdsimError(f"--resamples must be between 10 and {MAX_RESAMPLES:,}, got "
                         f"{str(resamples)[:40]}")
    return resamples


def analyse(root: Path, resamples: int = RESAMPLES) -> LadderResult:
    check_resamples(resamples)
    manifest = read_ladder_manifest(root)
    ladder = from_manifest(manifest)
    missing = [p["key"] for p in manifest["pairings"] if not RunFolder(run_folder(root, p["key"])).complete()]
    if missing:
        raise CdsimError(f"{root}: {len(missing)} pairings are unfinished ({', '.join(missing[:3])}"
                         f"{', ...' if len(missing) > 3 else ''}); continue with cdsim ladder "
                         f"--out {root} --resume")
    names = ladder.names
    k = len(names)
    games = load(root, names, manifest["pairings"])
    anchor = names.index("random") if "random" in names else None
    fit, resampled = bootstrap_fits(games, k, resamples, ladder.seed)
    boot = elo(resampled, anchor)
    stats = (games.rows.with_columns(pl.col("strategy").replace_strict(
        {n: i for i, n in enumerate(names)}, return_dtype=pl.Int64).alias("i"))
        .group_by("i").agg(pl.len().alias("appearances"),
                           pl.struct("pairing", "game").n_unique().alias("games"),
                           pl.col("won").sum().alias("wins"),
                           pl.col("final_vp").mean().alias("mean_vp"),
                           pl.col("failed_cards").sum().alias("failed")).sort("i"))
    ahead, meetings = head_to_head(games.orders, k)
    appearances = stats["appearances"].to_numpy().astype(np.int64)
    return LadderResult(
        root=root, manifest=manifest, players=ladder.players, names=names,
        anchor="random" if anchor is not None else None, rating=elo(fit, anchor),
        low=np.percentile(boot, 2.5, axis=0), high=np.percentile(boot, 97.5, axis=0),
        games=stats["games"].to_numpy().astype(np.int64), appearances=appearances,
        wins=stats["wins"].to_numpy().astype(np.int64),
        mean_vp=stats["mean_vp"].to_numpy().astype(float),
        failed_rate=stats["failed"].to_numpy() / (appearances * CARDS_PER_GAME),
        ahead=ahead, meetings=meetings, met_deals=meeting_deals(games.orders, games.deal, k),
        pairing_games=np.bincount(games.pairing, minlength=len(manifest["pairings"])),
        deals=len(np.unique(games.deal)), resamples=resamples)


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


# -- output ------------------------------------------------------------------------------

def as_json(result: LadderResult) -> dict[str, Any]:
    m = result.manifest
    ladder = m["ladder"]
    order = result.order()
    with np.errstate(invalid="ignore", divide="ignore"):
        share = result.ahead / result.meetings
    return {
        "players": result.players, "ladder": str(result.root), "seed": int(ladder["seed"]),
        "games_per_pairing": int(ladder["games"]), "strategies": list(result.names),
        "method": result.method, "scale": "Elo: 400 log10(strength)",
        "anchor": result.anchor or "mean", "prior_games": PRIOR_GAMES,
        "weights": m.get("weights", {}),
        "interval": f"95% percentile bootstrap over {result.deals} deals "
                    f"({result.resamples} resamples)",
        "ratings": [{"strategy": result.names[i], "rating": float(result.rating[i]),
                     "low": float(result.low[i]), "high": float(result.high[i]),
                     "games": int(result.games[i]), "appearances": int(result.appearances[i]),
                     "wins": int(result.wins[i]),
                     "win_share": float(result.wins[i] / result.appearances[i]),
                     "mean_vp": float(result.mean_vp[i]),
                     "failed_card_rate": float(result.failed_rate[i])} for i in order],
        "mean_vp": {result.names[i]: float(result.mean_vp[i]) for i in order},
        "sweeps": [{"strategy": result.names[w.winner], "over": result.names[w.loser],
                    "meetings": w.meetings, "deals": w.deals, "gap_at_least": w.gap_at_least}
                   for w in sweeps(result)],
        "head_to_head": [{"strategy": result.names[i], "against": result.names[j],
                          "share": float(share[i, j]), "meetings": int(result.meetings[i, j])}
                         for i in order for j in order if result.meetings[i, j] > 0],
        "pairings": [{"key": p["key"], "lineup": p["lineup"], "run": p["run"],
                      "games": int(result.pairing_games[n])}
                     for n, p in enumerate(m["pairings"])],
    }


def _signed(x: float) -> str:
    return f"{x:+.0f}" if round(x) else "0"


def rating_text(result: LadderResult, i: int) -> str:
    return f"{_signed(result.rating[i])} [{_signed(result.low[i])}, {_signed(result.high[i])}]"


def explain(result: LadderResult) -> str:
    model = ("Bradley-Terry (who wins each game)" if result.players == 2 else
             "Plackett-Luce (the whole finishing order, not only who won: a player often "
             "second can rate above one that wins a little more often)")
    anchor = ("`random` = 0" if result.anchor else "the mean rating = 0")
    return (f"Model: {model}, fitted by maximum likelihood (scipy), on the Elo scale "
            f"(400·log10 of the fitted strength: +200 points ≈ 76% wins between two players, "
            f"+400 ≈ 91%), anchored so that {anchor}. "
            f"95% intervals: percentile bootstrap over the {result.deals} deals (each resample "
            f"draws whole deals, with all their games in every pairing; {result.resamples} "
            "resamples); they are relative to the anchor"
            + (f" and rough: {result.deals} deals are few" if result.deals < 30 else "")
            + ". Each player also counts one virtual "
            "win and one virtual loss against a player of strength 1, so that a clean sweep "
            "still has a finite rating.")


def build(result: LadderResult) -> Doc:
    m = result.manifest
    ladder = m["ladder"]
    order = result.order()
    doc = Doc()
    doc.h(f"cdsim ladder: {result.root.name}", 1)
    comps = ("the reconstructed default set" if m.get("components_default") else
             f"a user set from `{ladder.get('components')}`")
    versions = ", ".join(f"{k} {v}" for k, v in sorted(m.get("versions", {}).items()))
    doc.table(["setting", "value"], [
        ["players", result.players], ["strategies", ", ".join(result.names)],
        ["pairings", f"{len(m['pairings'])} × {ladder['games']} games (each deal in all "
                     f"{result.players} seat rotations), {int(result.pairing_games.sum())} games"],
        ["seed", f"{ladder['seed']} (every pairing plays the same {result.deals} deals)"],
        ["strategy params", ladder.get("strategy_params") or "defaults"],
        *([["learned weights", "; ".join(f"{spec}: `{w['path']}`, digest `{w['digest'][:12]}`"
                                         for spec, w in m["weights"].items())]]
          if m.get("weights") else []),
        ["component set", f"{comps}, digest `{str(m.get('components_digest', ''))[:12]}`"],
        ["versions", versions], ["simulation wall time", f"{m.get('wall_seconds', 0):.1f} s"],
        ["command", f"`{m.get('command', '')}`"],
        ["rules", "rule numbers such as R8.5 refer to docs/rules.md in the cdsim repository"]])

    doc.h("Ratings", 2)
    doc.p(explain(result))
    doc.table(["", "strategy", "rating [95% CI]", "games", "win share", "mean final VP",
               "cards failed"],
              [[rank + 1, result.names[i], rating_text(result, i), result.games[i],
                pct(result.wins[i] / result.appearances[i]), f"{result.mean_vp[i]:.1f}",
                pct(result.failed_rate[i])] for rank, i in enumerate(order)])
    labels = [result.names[i] for i in order]
    doc.chart("ladder_ratings", rating_chart(labels, result.rating[order], result.low[order],
                                             result.high[order], result.anchor, result.method),
              f"{result.method} rating with its 95% bootstrap interval, strongest on top.")

    sweeps = sweep_text(result)
    if sweeps:
        doc.p(sweeps)

    _head_to_head_section(doc, result)

    doc.h("Final VP and failed cards", 2)
    doc.chart("ladder_vp_failed", vp_and_failed(labels, result.mean_vp[order],
                                                result.failed_rate[order]),
              "Mean final VP per game, and the share of its objective cards a player failed "
              "(each costs 4 VP, R8.5), per strategy.")

    doc.h("Pairings", 2)
    doc.p("Each pairing is an ordinary run folder: `cdsim report LADDER/cells/KEY` reports it "
          "in full (seat balance, VP sources, convergence).")
    rows = [[f"`{p['run']}`", " · ".join(p["lineup"]), int(result.pairing_games[n])]
            for n, p in enumerate(m["pairings"])]
    doc.table(["run folder", "line-up (seat 1 first; rotated)", "games"], rows)
    return doc


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


def sweeps(result: LadderResult) -> list[Sweep]:
    order = result.order()
    return [Sweep(i, j, int(result.meetings[i, j]), int(result.met_deals[i, j]))
            for i in order for j in order
            if result.meetings[i, j] > 0 and result.ahead[i, j] == result.meetings[i, j]]


def _head_to_head_section(doc: Doc, result: LadderResult) -> None:
    order = result.order()
    labels = [result.names[i] for i in order]
    doc.h("Head to head", 2)
    with np.errstate(invalid="ignore", divide="ignore"):
        share = result.ahead / result.meetings
    doc.p("Row player's share of its meetings with the column player: "
          + ("games between the two, won by the row player." if result.players == 2 else
             "two seats of one game held by the two, in which the row player finished ahead "
             "(a game with both seats of a pair counts once per pair of seats)."))
    grid = [[result.names[i], *("-" if result.meetings[i, j] == 0 else
                                f"{pct(share[i, j])} (n={int(result.meetings[i, j])})"
                                for j in order)] for i in order]
    doc.table(["", *labels], grid)
    doc.chart("ladder_head_to_head", heatmap(labels, share[np.ix_(order, order)],
                                             result.meetings[np.ix_(order, order)]),
              "Head-to-head win share of the row player against the column player (n: meetings).")


def sweep_text(result: LadderResult) -> str:
    """The pairs one of which finished ahead in every meeting: the games bound their gap
    below only; the fitted size comes from the virtual games."""
    found = sweeps(result)
    if not found:
        return ""
    listed = "; ".join(f"{result.names[s.winner]} over {result.names[s.loser]} "
                       f"({s.meetings} of {s.meetings} in {s.deals} deals): at least "
                       f"{_signed(s.gap_at_least)}" for s in found)
    return (f"**Clean sweeps**: {listed} (one-sided 95% bounds, each deal counted once). The "
            "games cannot measure such a gap: its fitted size and its interval come from the "
            "virtual games. More games, or players of strength in between, measure it.")


def rating_chart(labels: list[str], rating: FloatArray, low: FloatArray, high: FloatArray,
                 anchor: str | None, method: str) -> bytes:
    """Dot and whisker: each player's rating with its interval, the strongest on top."""
    fig, ax = plt.subplots(figsize=(6.8, 1.2 + 0.45 * len(labels)))
    y = np.arange(len(labels))[::-1]
    xerr = [np.clip(rating - low, 0, None), np.clip(high - rating, 0, None)]
    ax.errorbar(rating, y, xerr=xerr, fmt="o", color=COLOURS[0], ecolor="black", capsize=5,
                label="rating, 95% bootstrap interval")
    for yi, r in zip(y, rating, strict=True):
        ax.annotate(f"{r:+.0f}", (r, yi), textcoords="offset points", xytext=(0, 7), ha="center",
                    fontsize=8)
    ax.axvline(0, color="grey", lw=1, ls="--", label=f"{anchor or 'mean'} = 0")
    ax.set_yticks(y, labels)
    ax.set_ylim(-0.7, len(labels) - 0.3)
    ax.set_xlabel(f"{method} rating (Elo scale: +200 ≈ 76% wins)")
    ax.set_title("Ratings")
    ax.legend(fontsize=8, loc="best")
    return _png(fig)


def heatmap(labels: list[str], share: FloatArray, meetings: FloatArray) -> bytes:
    """The row player's win share against the column player, with the meetings' count."""
    k = len(labels)
    fig, ax = plt.subplots(figsize=(1.6 + 1.1 * k, 1.2 + 0.9 * k))
    shown = np.where(meetings > 0, share, np.nan)
    image = ax.imshow(shown, cmap="RdBu", vmin=0, vmax=1)
    for i in range(k):
        for j in range(k):
            if meetings[i, j] > 0:
                dark = abs(share[i, j] - 0.5) > 0.3
                ax.text(j, i, f"{100 * share[i, j]:.0f}%\nn={int(meetings[i, j])}", ha="center",
                        va="center", fontsize=8, color="white" if dark else "black")
            else:
                ax.text(j, i, "–", ha="center", va="center", color="grey")
    ax.set_xticks(range(k), labels, rotation=30, ha="right")
    ax.set_yticks(range(k), labels)
    ax.set_xlabel("against")
    ax.set_title("Head to head: row player's win share")
    fig.colorbar(image, ax=ax, fraction=0.046, pad=0.04, format=lambda v, _: f"{100 * v:.0f}%")
    return _png(fig)


def vp_and_failed(labels: list[str], mean_vp: FloatArray, failed: FloatArray) -> bytes:
    fig, (left, right) = plt.subplots(1, 2, figsize=(7.6, 1.4 + 0.4 * len(labels)))
    y = np.arange(len(labels))[::-1]
    colours = [COLOURS[i % len(COLOURS)] for i in range(len(labels))]
    for ax, values, title, text in ((left, mean_vp, "mean final VP", "{:.1f}"),
                                    (right, 100 * failed, "objective cards failed (%)", "{:.1f}%")):
        ax.barh(y, values, color=colours, alpha=0.8)
        for yi, v in zip(y, values, strict=True):
            # beyond the bar's end on its own side, so a negative value keeps its minus sign
            # clear of the bar and of the zero line (a typographic minus, as on the axis)
            ax.annotate(text.format(v).replace("-", "\u2212"), (v, yi),
                        textcoords="offset points", xytext=(3 if v >= 0 else -3, 0),
                        ha="left" if v >= 0 else "right", va="center", fontsize=8)
        ax.set_yticks(y, labels if ax is left else [""] * len(labels))
        ax.set_title(title, fontsize=10)
        ax.axvline(0, color="black", lw=0.8)
        low, high = float(np.min(values)), float(np.max(values))
        span = max(high, 1.0) - min(low, 0.0)
        ax.set_xlim(min(low - 0.25 * span, 0.0) if low < 0 else 0.0, max(high * 1.25, 1.0))
    return _png(fig)


def format_text(result: LadderResult) -> str:
    lines = [f"{result.method} ratings, Elo scale, {result.anchor or 'mean'} = 0, "
             f"95% bootstrap over {result.deals} deals:"]
    width = max(len(n) for n in result.names)
    for rank, i in enumerate(result.order()):
        lines.append(f"  {rank + 1:>2}. {result.names[i]:<{width}}  {rating_text(result, i):<18} "
                     f"{result.games[i]:>6} games  win share {pct(result.wins[i] / result.appearances[i]):>6}"
                     f"  mean VP {result.mean_vp[i]:5.1f}  cards failed {pct(result.failed_rate[i])}")
    sweeps = sweep_text(result)
    if sweeps:
        lines.append("note: " + sweeps.replace("**", ""))
    for spec, w in result.manifest.get("weights", {}).items():
        lines.append(f"weights of {spec}: {w['path']} (digest {w['digest'][:12]})")
    return "\n".join(lines)


def write(root: Path, out: Path | None = None, resamples: int = RESAMPLES
          ) -> tuple[Path, LadderResult]:
    """Analyse the ladder in ``root``; write ladder.html, ladder.md, ladder.json and charts/
    into ``out`` (default: the ladder folder). Returns the HTML's path and the result."""
    result = analyse(root, resamples)
    target = out or root
    page = publish(build(result), target, "ladder", f"cdsim ladder: {root.name}")
    save(target / "ladder.json", json.dumps(as_json(result), indent=1).encode())
    return page, result


__all__ = ["ELO", "MAX_RESAMPLES", "PRIOR_GAMES", "LadderResult", "analyse", "as_json",
           "bootstrap_fits", "bradley_terry", "check_resamples", "elo", "fit_stages",
           "format_text", "head_to_head", "plackett_luce", "stages", "sweeps", "win_matrix",
           "write"]
