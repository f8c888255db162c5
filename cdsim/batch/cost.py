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

# the default game's recorded costs (each game's are its spec's: ``GameSpec.seat_ms``,
# ``table_ms``)
SEAT_MS = game_spec(None).seat_ms
TABLE_MS = game_spec(None).table_ms
PYTHON_SEAT_MS = 3.9  # a user's strategy: the core makes its observations (its own code on top)


def seat_ms(name: str, players: int, game: str = DEFAULT_GAME) -> float:
    """One seat's CPU ms per game for a player as spelled (``learned``, ``mcts@400``,
    ``villa@chimney=1.5``, ``path/to/file.py:Class``) of ``game``."""
    base, *settings = name.split("@")
    if ":" in base:
        return PYTHON_SEAT_MS
    spec = game_spec(game)
    costs = spec.seat_ms
    kind = base if base in costs else "scripted"  # random, learned, mcts by name
    table = costs.get(kind)
    if not table:
        return PYTHON_SEAT_MS
    ms = table[min(table, key=lambda n: abs(n - players))]  # the nearest count recorded
    if kind == "mcts" and spec.mcts_playouts:  # recorded at its default playouts
        for setting in settings:  # mcts@400 or mcts@playouts=400
            key, _, value = setting.rpartition("=")
            if key in ("", "playouts") and value.replace(".", "", 1).isdigit():
                ms *= float(value) / spec.mcts_playouts
    return ms


def game_ms(lineups: Sequence[Sequence[str]], pool: Sequence[str], players: int,
            game: str = DEFAULT_GAME) -> float:
    """CPU ms of one game of a cell of ``game``: its line-ups in turn (each plays the same
    games), or seats drawn from ``pool``."""
    table = game_spec(game).table_ms
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
