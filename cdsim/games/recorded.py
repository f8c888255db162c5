"""One whole game of a game without a table of its own (``GameSpec.play`` None), played on
the core and recorded for its view (``cdsim play --game NAME``; ``GameSpec.view``): the
core's ``play_game`` plays it from the seed (and the setup of a run, as ``cdsim simulate
--game`` deals it) and returns every decision with the state it was taken in, the state at
the end and each seat's final row (the game's own columns, ``GameSpec.columns``). It sits
in the games ring so that each game's view, in its own package, reads these records; a game
with a table of its own plays there instead (its ``GameSpec.play``), which also seats
Python strategies."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from cdsim import core
from cdsim.errors import CdsimError


class Playable(Protocol):
    """What playing a recorded game needs of its game (a ``GameSpec`` is one): named here,
    not imported, since the spec's view hook reads these records (no import cycle)."""

    @property
    def name(self) -> str: ...

    @property
    def load_components(self) -> Callable[[str | None], Any]: ...

    def breakdown(self) -> tuple[str, ...]: ...


@dataclass(frozen=True)
class Decision:
    """One decision: the seat (from 0), the decision kind, the option chosen in words,
    how many options there were, and the state it was taken in (the game's own frame)."""

    seat: int
    decision: str
    option: str
    options: int
    frame: dict[str, object]


@dataclass(frozen=True)
class SeatResult:
    """A seat's final row, ``row`` holding every column of the game's seat row."""

    seat: int
    strategy: str
    final_vp: int
    rank: int
    won: bool
    breakdown: dict[str, int]
    row: dict[str, object]


@dataclass(frozen=True)
class RecordedGame:
    game: str
    seed: int
    setup: int | None
    decisions: tuple[Decision, ...]
    end: dict[str, object]
    seats: tuple[SeatResult, ...]

    @property
    def players(self) -> int:
        return len(self.seats)

    @property
    def tiebreak(self) -> bool:
        """Whether the winner's VP were shared, so the game's tie-break decided."""
        return bool(self.seats[0].row.get("tiebreak", False))


def play_recorded(spec: Playable, components: str | None, seed: int, setup: int | None,
                  lineup: Sequence[tuple[str, tuple[tuple[str, float], ...]]],
                  start_vp: Sequence[int]) -> RecordedGame:
    """Play one game of ``spec`` on the core, ``lineup`` (name, settings) by seat, and
    record it; a set or a player the core refuses is one CdsimError line."""
    comps = spec.load_components(components)  # a set the core refuses: one line
    module = core.module()
    if module is None or not hasattr(module, "play_game"):
        raise CdsimError(f"{spec.name} needs the compiled core (make install)")
    try:
        text = module.play_game(comps, len(lineup), list(start_vp), seed, setup,
                              [(name, list(settings)) for name, settings in lineup])
    except ValueError as exc:
        raise CdsimError(f"{spec.name}: {exc}") from None
    data = json.loads(text)
    columns: list[str] = data["columns"]
    sources = spec.breakdown()
    seats = []
    for values in data["rows"]:
        row = dict(zip(columns, values, strict=True))
        seats.append(SeatResult(int(row["seat"]), str(row["strategy"]), int(row["final_vp"]),
                                int(row["rank"]), bool(row["won"]),
                                {s: int(row[f"vp_{s}"]) for s in sources}, row))
    decisions = tuple(Decision(int(d["seat"]), str(d["decision"]), str(d["option"]),
                               int(d["options"]), d["frame"]) for d in data["steps"])
    return RecordedGame(spec.name, seed, setup, decisions, data["end"], tuple(seats))


__all__ = ["Decision", "Playable", "RecordedGame", "SeatResult", "play_recorded"]
