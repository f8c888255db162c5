"""What a game costs here: a recorded table of CPU time per seat (``make bench`` on the
2-core machine, docs/performance.md and docs/strength.md, 2026-11), used to say before play
how long a study's cells may take, to weigh the progress line's ETA by each cell's cost (a
learned game costs some 20 scripted ones) and to say how long "N more games" is.

An estimate, not a measurement: a busy machine is slower, and a user's Python strategy is
counted at the cost of one that takes the first option (about 4 ms a game: the core makes
its observations), whatever it thinks.
"""

from __future__ import annotations

import os
from collections.abc import Sequence

from cdsim.games import DEFAULT_GAME, game_spec
from cdsim.players.profiles import PROFILES

TABLE_MS = 0.12  # the core's own work per game: rules, events, Parquet rows (any seats)
# ms per seat per game, by player count (make bench, 2026-11-26 18:17, load 0.8 at the
# start): scripted 0.113 (2 players) and 0.111 (4); a Python strategy taking the first
# option 3.9 (4.28 ms a game beside three greedy, 8.7x four greedy). Learned and mcts from
# the evening's make bench (21:16, load 0.4), after the shared districts and replies:
# mcts at its default 120 playouts 446 (2 players) and 873 (4). The learned player built
# for its cost (issue 49), make bench 2026-11-28 (load 1.3 at the start): 1.30 (2 players)
# and 1.19 (4; 3 players scaled from its instructions per seat, callgrind)
SEAT_MS: dict[str, dict[int, float]] = {
    "random": {2: 0.01, 3: 0.01, 4: 0.01},
    "scripted": {2: 0.113, 3: 0.112, 4: 0.111},
    "learned": {2: 1.30, 3: 1.1, 4: 1.19},
    "mcts": {2: 446.0, 3: 660.0, 4: 873.0},
}
MCTS_PLAYOUTS = 120  # the search's default budget (core/src/carpe_diem/players/mcts/params.rs)
PYTHON_SEAT_MS = 3.9  # a user's strategy: the core makes its observations (its own code on top)


def seat_ms(name: str, players: int, game: str = DEFAULT_GAME) -> float:
    """One seat's CPU ms per game for a player as spelled (``learned``, ``mcts@400``,
    ``villa@chimney=1.5``, ``path/to/file.py:Class``) of ``game``."""
    base, *settings = name.split("@")
    if ":" in base:
        return PYTHON_SEAT_MS
    costs = game_spec(game).seat_ms
    if costs is not None:  # another game's: its random and mcts by name, the rest scripted
        kind = base if base in costs else "scripted"
        table = costs.get(kind)
    else:
        kind = "scripted" if base in PROFILES else base
        table = SEAT_MS.get(kind)
    if table is None:
        return PYTHON_SEAT_MS
    ms = table[min(max(players, min(table)), max(table))]  # the nearest recorded count
    if kind == "mcts":
        for setting in settings:  # mcts@400 or mcts@playouts=400
            key, _, value = setting.rpartition("=")
            if key in ("", "playouts") and value.replace(".", "", 1).isdigit():
                ms *= float(value) / MCTS_PLAYOUTS
    return ms


def game_ms(lineups: Sequence[Sequence[str]], pool: Sequence[str], players: int,
            game: str = DEFAULT_GAME) -> float:
    """CPU ms of one game of a cell of ``game``: its line-ups in turn (each plays the same
    games), or seats drawn from ``pool``."""
    own = game_spec(game).table_ms
    table = TABLE_MS if own is None else own
    if pool:
        return table + players * sum(seat_ms(p, players, game) for p in pool) / len(pool)
    if not lineups:
        return table
    seats = [sum(seat_ms(p, players, game) for p in lineup) * players / max(len(lineup), 1)
             for lineup in lineups]
    return table + sum(seats) / len(seats)


def workers(jobs: int = -1) -> int:
    """The cores a study's games spread over (``--jobs``; -1: every core)."""
    return max(1, os.cpu_count() or 1) if jobs < 1 else jobs


def duration(seconds: float) -> str:
    """``45 s``, ``12 min``, ``3.4 h``, ``2.1 days``: how long, to a reader."""
    if seconds < 90:
        return f"{max(1, round(seconds)) if seconds > 0 else 0} s"
    if seconds < 90 * 60:
        return f"{round(seconds / 60)} min"
    if seconds < 36 * 3600:
        return f"{seconds / 3600:.1f} h"
    return f"{seconds / 86400:.1f} days"


def games_time(games: int, ms_per_game: float, jobs: int = -1) -> str:
    """How long ``games`` of ``ms_per_game`` take here, in words."""
    return duration(games * ms_per_game / 1000 / workers(jobs))
