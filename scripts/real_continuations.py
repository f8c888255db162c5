"""``games_needed`` on real games (docs/statistics.md, "The zone measured"): by hand.

    .venv/bin/cdsim simulate --players 2 --games 100000 --strategies greedy,villa \\
        --rotate-seats --seed 40 --out /tmp/pool2
    .venv/bin/cdsim simulate --players 4 --games 200000 \\
        --strategies greedy,villa,landscape,bread --rotate-seats --seed 41 --out /tmp/pool4
    .venv/bin/python -m scripts.real_continuations /tmp/pool2 BUDGET [CELLS]
    .venv/bin/python -m scripts.real_continuations naming /tmp/pool4 CELLS BUDGET
    .venv/bin/python -m scripts.real_continuations within "studies/s3/cells/3p.strong+s*" \
        64000,80000,100000 [CELLS]
    .venv/bin/python -m scripts.real_continuations naming-cost POOL
    .venv/bin/python -m scripts.real_continuations naming-play POOL BUDGET [CELLS]

``within``: how often a replicate cell decides within each budget, its deals drawn from the
pool (every run folder the pattern names, e.g. a study cell's stages), the budget also its
design (docs/statistics.md: how the default study's 3-player strong budget was sized).

A pool of real games is taken as the truth (issue 40's audit): a replicate cell draws its
deals with replacement from the pool, in the study's doubling stages up to ``BUDGET``
(tolerance 2 pp, zone 0.5 pp, alpha 5%, radius 4); an undecided cell with a number is
continued by one fresh stage of exactly ``games_needed`` deals' games, drawn the same way,
and judged again. Each deal's wins under every candidate are counted once (``per_deal``),
so a replicate costs a few sums.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from cdsim.analysis import anytime as at
from cdsim.analysis.boundary import Mixture
from cdsim.analysis.candidates import WinTable, _winners, candidates
from cdsim.games import DEFAULT_GAME, game_spec
from cdsim.study.games import read_games

TOL, ZONE, ALPHA, RADIUS = 0.02, 0.005, 0.05, 4


def rulebook(run: Path, players: int) -> tuple[int, ...]:
    """The rulebook's starting VP of the game ``run`` played (its manifest's)."""
    game = json.loads((run / "manifest.json").read_text())["config"].get("game", DEFAULT_GAME)
    return tuple(game_spec(str(game)).start_vp(players))


def per_deal(run: Path) -> tuple[NDArray[np.int8], NDArray[np.int64], int]:
    """(wins per candidate, deal and seat (V, K, n); the candidates, around the rulebook
    vector of the run's game; games per deal)."""
    games = read_games(run)
    n = games.players
    vectors = candidates(rulebook(run, n), RADIUS)
    _, inverse = np.unique(games.group, return_inverse=True)
    k = int(inverse.max()) + 1
    per = games.games // k
    keys = (games.gained * n + (n - 1 - games.tiebreak)).astype(np.int32)
    wins = np.zeros((len(vectors), k, n), dtype=np.int8)
    group = inverse.reshape(-1)
    for start in range(0, len(vectors), 16):
        winner = _winners(keys, (vectors[start:start + 16] * n).astype(np.int32))  # (b, games)
        b = winner.shape[0]
        cell = (np.arange(b)[:, None] * k + group[None, :]) * n + winner
        wins[start:start + b] = np.bincount(cell.reshape(-1), minlength=b * k * n).reshape(b, k, n)
    return wins, vectors, per


def table(wins: NDArray[np.int8], vectors: NDArray[np.int64], deals: NDArray[np.int64],
          per: int) -> WinTable:
    w = wins[:, deals, :].astype(np.float64)
    return WinTable(vectors, w.sum(axis=1).astype(np.int64), np.einsum("vkn,vkm->vnm", w, w),
                    w.sum(axis=1) * per, len(deals) * per, len(deals), float(len(deals) * per**2))


def pooled(pattern: str) -> tuple[NDArray[np.int8], NDArray[np.int64], int, tuple[int, ...]]:
    """``per_deal`` of every run folder ``pattern`` names, the deals concatenated, and the
    rulebook vector of their game."""
    where = Path(pattern)
    runs = sorted(where.parent.glob(where.name))
    parts = [per_deal(f) for f in runs]
    if not parts:
        raise SystemExit(f"no run folder matches {pattern}")
    return (np.concatenate([p[0] for p in parts], axis=1), parts[0][1], parts[0][2],
            rulebook(runs[0], int(parts[0][1].shape[1])))


@dataclass(frozen=True)
class Pool:
    """A pool of real games taken as the truth: each deal's wins under every candidate."""

    wins: NDArray[np.int8]  # (V, K, n)
    vectors: NDArray[np.int64]
    per: int  # games per deal
    rule: tuple[int, ...]  # the rulebook vector the candidates lie around

    @classmethod
    def of(cls, pattern: str) -> Pool:
        return cls(*pooled(pattern))

    @property
    def deals(self) -> int:
        return int(self.wins.shape[1])

    @property
    def players(self) -> int:
        return int(self.vectors.shape[1])

    @property
    def truth(self) -> NDArray[np.float64]:
        """Every candidate's largest gap on the whole pool."""
        return table(self.wins, self.vectors, np.arange(self.deals), self.per).gaps

    def draw(self, rng: np.random.Generator, games: int) -> WinTable:
        """``games`` games' worth of deals drawn with replacement (whole deals, rounded up)."""
        return table(self.wins, self.vectors, rng.integers(0, self.deals, -(-games // self.per)),
                     self.per)

    def sizes(self, budget: int) -> tuple[int, ...]:
        """The study's stages for ``budget``."""
        return at.stage_sizes(budget, max(budget // 64, 30 * self.per), self.per)

    def replicates(self, budget: int, cells: int, rng: np.random.Generator
                   ) -> Iterator[list[WinTable]]:
        """``cells`` replicate cells' stages, drawn from ``rng`` in order."""
        sizes = self.sizes(budget)
        for _ in range(cells):
            yield [self.draw(rng, s) for s in sizes]

    def decide(self, tables: list[WinTable], budget: int, predict: bool = False,
               naming: bool = False) -> at.Verdict:
        return at.decide(tables, self.rule, TOL, ALPHA, 3, design_games=budget, predict=predict,
                         zone=ZONE, naming=naming)

    def row(self, vector: tuple[int, ...]) -> int:
        return int(np.flatnonzero((self.vectors == np.asarray(vector)).all(axis=1))[0])


def within(pattern: str, budgets: list[int], cells: int) -> None:
    """Replicate cells drawn from the pool: decided within each budget, and their games."""
    pool = Pool.of(pattern)
    truth = pool.truth
    best = np.argsort(truth)[:3]
    print(f"pool of {pool.deals * pool.per:,} games; most equal: " + ", ".join(
        f"{'/'.join(str(int(x)) for x in pool.vectors[i])} {100 * truth[i]:.2f} pp" for i in best))
    for budget in budgets:
        played = [v.games for v in (pool.decide(t, budget)
                                    for t in pool.replicates(budget, cells, np.random.default_rng(budget)))
                  if v.decision != "undecided"]
        print(f"budget {budget:,}: {len(played)} of {cells} decided, mean games when decided "
              f"{np.mean(played) if played else 0:,.0f}", flush=True)


def measure(run: str, budget: int, cells: int) -> None:
    pool = Pool.of(run)
    rng = np.random.default_rng(0)
    undecided = numbered = passed = 0
    needed: list[int] = []
    for tables in pool.replicates(budget, cells, rng):
        v = pool.decide(tables, budget, predict=True)
        if v.decision != "undecided":
            continue
        undecided += 1
        if v.games_needed is None:
            continue
        numbered += 1
        needed.append(v.games_needed)
        more = pool.draw(rng, v.games_needed)
        passed += pool.decide([*tables, more], budget).decision == "confirmed"
    print(f"{pool.players} players, {run}: budget {budget:,}, {cells} cells: {undecided} undecided, "
          f"{numbered} with a number (median {int(np.median(needed)) if needed else 0:,}), "
          f"{passed} confirmed by one stage of that many "
          f"({passed / max(numbered, 1):.0%})", flush=True)


def naming(run: str, budget: int, cells: int) -> None:
    """How far the named vector's true gap (on the whole pool) lies from the most equal
    candidate's, in replicate cells that confirm one."""
    pool = Pool.of(run)
    truth = pool.truth
    behind = [float(truth[pool.row(v.vector)] - truth.min())
              for v in (pool.decide(t, budget)
                        for t in pool.replicates(budget, cells, np.random.default_rng(1)))
              if v.decision == "confirmed"]
    gaps = np.asarray(behind)
    print(f"{pool.players} players, {run}: budget {budget:,}, {cells} cells, "
          f"{len(gaps)} confirmed; the named vector's true gap within 0.25 pp of the most "
          f"equal's in {np.mean(gaps <= 0.0025):.0%}, within the zone in "
          f"{np.mean(gaps <= ZONE):.0%} (most equal {100 * truth.min():.2f} pp)", flush=True)


def naming_cost(run: str) -> None:
    """Games after which a cell could *show* its named vector within the zone of the most
    equal candidate (the verdict's ``within_best`` at most the zone), were the named vector
    the most equal one and every estimate at its truth on the pool: its gap's upper bound
    (at ``SequentialCell.named_level``: ``alpha_c`` over every candidate at 2 players, the first
    choice's share over its 3 vectors at 3 and 4) less the least lower bound of the other
    candidates (each pair at ``alpha_n / (2 pairs)``), the anytime boundary tightest at
    that many games (the cheapest case)."""
    wins, vectors, per, _ = pooled(run)
    n, k = vectors.shape[1], wins.shape[1]
    total = table(wins, vectors, np.arange(k), per)
    diff, se = total.pair_stats()
    sd = se * np.sqrt(total.groups)  # per deal group
    gaps = np.abs(diff).max(axis=1)
    best = int(np.argmin(gaps))
    npairs = diff.shape[1]
    alpha_c = ALPHA * at.CONFIRM_SHARE
    named_level = alpha_c / len(vectors) if n == 2 else alpha_c * at.FIRST_CHOICE / 3

    def room(groups: float) -> float:
        mixture = Mixture.design(groups, alpha_c / 2)
        t = np.asarray(groups)
        z_up = float(mixture.z_at(t, named_level))
        z_low = float(mixture.z_at(t, (ALPHA - alpha_c) / (2 * npairs)))
        upper = float((np.abs(diff[best]) + z_up * sd[best] / np.sqrt(groups)).max())
        lows = np.maximum(np.abs(diff) - z_low * sd / np.sqrt(groups), 0).max(axis=1)
        return upper - float(np.delete(lows, best).min())

    groups = 64.0
    while room(groups) > ZONE and groups < 1e9:
        groups *= 1.05
    order = np.argsort(gaps)[:3]
    print(f"{n} players, {run}: most equal " + ", ".join(
        f"{'/'.join(str(int(x)) for x in vectors[i])} {100 * gaps[i]:.2f} pp" for i in order)
        + f"; its name shown within the zone after about {groups * per:,.0f} games", flush=True)


def naming_play(run: str, budget: int, cells: int) -> None:
    """Replicate cells that play on for their name (``decide``'s ``naming``, a study's
    ``name_within_zone``): how many show it within their budget, their games against the
    same cells without it, and how far the name's true gap lies from the most equal's."""
    pool = Pool.of(run)
    truth = pool.truth
    shown = confirmed = within = 0
    games: list[int] = []
    plain: list[int] = []
    for tables in pool.replicates(budget, cells, np.random.default_rng(2)):
        v = pool.decide(tables, budget, naming=True)
        p = pool.decide(tables, budget)
        if v.decision != "confirmed":
            continue
        confirmed += 1
        shown += v.settled
        within += truth[pool.row(v.vector)] - truth.min() <= ZONE
        games.append(v.games)
        plain.append(p.games)
    print(f"{pool.players} players, {run}: budget {budget:,}, {cells} cells, {confirmed} "
          f"confirmed, {shown} with the name shown within the zone; mean games "
          f"{np.mean(games) if games else 0:,.0f} (without naming {np.mean(plain) if plain else 0:,.0f}); "
          f"the name truly within the zone in {within} of {confirmed}", flush=True)


if __name__ == "__main__":
    # the third argument is a count only where the mode takes one (within's is the budgets)
    count = int(sys.argv[3]) if len(sys.argv) > 3 and sys.argv[1] not in ("within",) else 200
    if sys.argv[1] == "within":
        within(sys.argv[2], [int(b) for b in sys.argv[3].split(",")],
               int(sys.argv[4]) if len(sys.argv) > 4 else 100)
    elif sys.argv[1] == "naming-play":
        naming_play(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]) if len(sys.argv) > 4 else 100)
    elif sys.argv[1] == "naming-cost":
        naming_cost(sys.argv[2])
    elif sys.argv[1] == "naming":
        naming(sys.argv[2], int(sys.argv[4]) if len(sys.argv) > 4 else 100_000, count)
    else:
        measure(sys.argv[1], int(sys.argv[2]), count)
