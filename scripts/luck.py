"""Luck adjustment measured (issue 33 item 3; docs/statistics.md "Luck adjustment (AIVAT):
measured"). Prints the figures as JSON and writes them to --out.

1. Fit: on --fit-games games (their own seed), the win predictor's scale (beta, per VP)
   that leaves the least variance in a seat's adjusted win, from a fixed grid.
2. Freeze it and measure on --games fresh games: each seat's mean luck with a 95%
   interval (it must cover 0), the variance of its win against its adjusted win
   (won - luck), the saving (their ratio: games saved) with a bootstrap interval, the
   share of the luck's variance by kind of chance step, and the cost in positions valued.

Long runs: ``nice -n 15 python scripts/luck.py ...``.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

import numpy as np
from joblib import Parallel, delayed
from numpy.typing import NDArray

from cdsim import core
from cdsim.games.carpe_diem.handover import core_components
from cdsim.games.carpe_diem.players import weights as W

BETAS = (0.01, 0.02, 0.03, 0.05, 0.1, 0.15, 0.2, 0.3, 0.45, 0.7, 1.0)
CHUNK = 50
Z95 = 1.959963984540054
Arrays = dict[str, NDArray[Any]]


def play(players: int, start_vp: list[int], lineup: list[str], seed: int, setups: list[int],
         copies: int, betas: list[float], lookahead: bool = False) -> Arrays:
    """The core's measurement of these deals, as arrays by game."""
    module = core.module()
    assert module is not None
    # V is the greedy-playout evaluator the figures of docs/statistics.md were measured
    # with, whichever weights the learned player ships with
    weights = module.learned_weights(W.PLAYOUT_WEIGHTS.read_text())
    out = module.measure_luck(core_components(None), players, start_vp, seed, setups,
                              [(name, []) for name in lineup], copies, betas, seed + 7919,
                              lookahead, weights)
    games = len(setups)
    return {
        "won": out["won"].reshape(games, players).astype(float),
        "final_vp": out["final_vp"].reshape(games, players),
        "luck": out["luck"].reshape(games, players, len(betas), len(out["kinds"])),
        "valuations": out["valuations"], "chance_steps": out["chance_steps"],
        "kinds": np.array(out["kinds"]),
    }


def measure(args: argparse.Namespace, seed: int, games: int, betas: list[float]) -> Arrays:
    """``games`` deals of the run ``seed``, in chunks over ``args.jobs`` processes."""
    starts = range(0, games, CHUNK)
    parts = Parallel(n_jobs=args.jobs)(
        delayed(play)(args.players, args.start_vp, args.lineup, seed,
                      list(range(s, min(s + CHUNK, games))), args.copies, betas,
                      args.lookahead)
        for s in starts)
    out = {key: np.concatenate([p[key] for p in parts]) for key in parts[0] if key != "kinds"}
    out["kinds"] = parts[0]["kinds"]
    return out


def fit_beta(data: Arrays) -> tuple[float, list[float]]:
    """The grid's beta whose adjusted wins vary least (mean over seats), and each one's
    variance."""
    won, luck = data["won"], data["luck"].sum(axis=3)
    spread = [float(np.mean(np.var(won - luck[:, :, b], axis=0, ddof=1)))
              for b in range(luck.shape[2])]
    return BETAS[int(np.argmin(spread))], spread


def saving_interval(won: NDArray[Any], luck: NDArray[Any], rng: np.random.Generator,
                    draws: int = 1000) -> tuple[float, float, float]:
    """var(won) / var(won - luck) and its 95% bootstrap interval (games resampled)."""
    def ratio(index: NDArray[Any]) -> float:
        return float(np.var(won[index], ddof=1) / np.var(won[index] - luck[index], ddof=1))
    games = len(won)
    every = np.arange(games)
    boot = [ratio(rng.integers(0, games, games)) for _ in range(draws)]
    low, high = np.percentile(boot, [2.5, 97.5])
    return ratio(every), float(low), float(high)


def summary(data: Arrays, beta: float, seed: int) -> dict[str, Any]:
    """The fresh games' figures at the frozen beta."""
    rng = np.random.default_rng(seed)
    won, by_kind = data["won"], data["luck"][:, :, 0, :]
    luck = by_kind.sum(axis=2)
    games, players = won.shape
    seats = []
    for s in range(players):
        mean, sd = float(luck[:, s].mean()), float(luck[:, s].std(ddof=1))
        half = Z95 * sd / np.sqrt(games)
        ratio, low, high = saving_interval(won[:, s], luck[:, s], rng)
        kind_var = np.var(by_kind[:, s, :], axis=0, ddof=1)
        seats.append({
            "seat": s + 1, "win_share": float(won[:, s].mean()),
            "adjusted_share": float((won[:, s] - luck[:, s]).mean()),
            "luck_mean": mean, "luck_interval": [mean - half, mean + half],
            "var_won": float(np.var(won[:, s], ddof=1)),
            "var_adjusted": float(np.var(won[:, s] - luck[:, s], ddof=1)),
            "saving": ratio, "saving_interval": [low, high],
            "luck_share_by_kind": dict(zip([str(k) for k in data["kinds"]],
                                           (kind_var / kind_var.sum()).round(4).tolist(),
                                           strict=True)),
        })
    out: dict[str, Any] = {"games": games, "beta": beta, "seats": seats,
                           "valuations_per_game": float(data["valuations"].mean()),
                           "chance_steps_per_game": float(data["chance_steps"].mean())}
    if players == 2:
        diff, adjusted = won[:, 0] - won[:, 1], (won[:, 0] - luck[:, 0]) - (won[:, 1] - luck[:, 1])
        ratio, low, high = saving_interval(diff, diff - adjusted, rng)
        out["difference"] = {"var_won": float(np.var(diff, ddof=1)),
                             "var_adjusted": float(np.var(adjusted, ddof=1)),
                             "saving": ratio, "saving_interval": [low, high]}
    return out


def parse(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="luck.py", description=__doc__.split("\n\n")[0])
    p.add_argument("--players", type=int, choices=(2, 3, 4), default=2)
    p.add_argument("--lineup", default="learned", help="one built-in per seat, or one for all")
    p.add_argument("--start-vp", default="", help="e.g. 8,8 (default: the rulebook's)")
    p.add_argument("--fit-games", type=int, default=1000)
    p.add_argument("--games", type=int, default=10000)
    p.add_argument("--copies", type=int, default=4)
    p.add_argument("--lookahead", action="store_true",
                   help="value positions after their phase played out by greedy")
    p.add_argument("--beta", type=float, default=0.0, help="skip the fit and use this scale")
    p.add_argument("--seed", type=int, default=2026)
    p.add_argument("--jobs", type=int, default=1)
    p.add_argument("--out", type=Path, default=None)
    args = p.parse_args(argv)
    names = args.lineup.split(",")
    args.lineup = names * args.players if len(names) == 1 else names
    if len(args.lineup) != args.players:
        p.error(f"--lineup: {args.players} players need {args.players} names, got {len(names)}")
    try:
        args.start_vp = ([int(v) for v in args.start_vp.split(",")] if args.start_vp
                         else [8, 9, 10, 11][:args.players])
    except ValueError:
        p.error(f"--start-vp: not whole numbers: {args.start_vp!r}")
    if len(args.start_vp) != args.players:
        p.error(f"--start-vp: one per seat ({args.players}), got {len(args.start_vp)}")
    if min(args.games, args.copies, args.jobs) < 1 or args.fit_games < 0 or args.beta < 0:
        p.error("--games, --copies and --jobs must be >= 1, --fit-games and --beta >= 0")
    if args.beta == 0 and args.fit_games < 2:
        p.error("--fit-games: at least 2 to fit the scale (or give --beta)")
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse(argv)
    if not core.available():
        print("luck.py: the compiled core is missing (make install)", file=sys.stderr)
        return 2
    result: dict[str, Any] = {"players": args.players, "lineup": args.lineup,
                              "start_vp": args.start_vp, "copies": args.copies,
                              "lookahead": args.lookahead}
    beta = args.beta
    try:
        if not beta:
            fit = measure(args, args.seed + 1, args.fit_games, list(BETAS))
            beta, spread = fit_beta(fit)
            result["fit"] = {"games": args.fit_games, "betas": list(BETAS),
                             "var_adjusted": spread}
        fresh = measure(args, args.seed, args.games, [beta])
    except ValueError as e:
        print(f"luck.py: --lineup: {e}", file=sys.stderr)
        return 2
    result["fresh"] = summary(fresh, beta, args.seed)
    text = json.dumps(result, indent=1)
    print(text)
    if args.out:
        args.out.write_text(text + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
