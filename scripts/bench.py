"""Benchmark: median milliseconds per 4-player game. Prints figures; never fails on them."""

from __future__ import annotations

import statistics
import time

from cdsim.game import GameConfig, play_game
from strategies.registry import make_lineup


def median_ms(lineup_names: list[str], games: int, players: int = 4) -> float:
    config = GameConfig(players)
    times = []
    for seed in range(games):
        lineup = make_lineup(lineup_names, players)
        t0 = time.perf_counter()
        play_game(config, lineup, seed)
        times.append((time.perf_counter() - t0) * 1000)
    return statistics.median(times)


def main() -> None:
    for label, lineup, games in (("random", ["random"], 200),
                                 ("scripted mix (greedy, villa, landscape, bread)",
                                  ["greedy", "villa", "landscape", "bread"], 100)):
        ms = median_ms(lineup, games)
        print(f"{label}, 4 players, single process: median {ms:.1f} ms/game "
              f"({1000 / ms:.0f} games/s) over {games} games")


if __name__ == "__main__":
    main()
