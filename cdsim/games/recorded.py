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

from cdsim import __version__, core
from cdsim.errors import CdsimError
from cdsim.games.names import shown_names


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


def frame_changes(before: dict[str, object], after: dict[str, object]) -> dict[str, object]:
    """``after``'s entries that differ from ``before``'s; a frame's ``seats`` as
    ``{seat: changed entries}`` for the seats that changed (a replay page keeps only what
    changed each step and rebuilds the states once)."""
    out = {k: v for k, v in after.items() if k != "seats" and before.get(k) != v}
    old, new = before.get("seats", []), after.get("seats", [])
    assert isinstance(old, list) and isinstance(new, list)  # a frame's seats are a list
    seats = {}
    for i, seat in enumerate(new):
        was = old[i] if i < len(old) else {}
        diff = {k: v for k, v in seat.items() if was.get(k) != v}
        if diff:
            seats[str(i)] = diff
    if seats:
        out["seats"] = seats
    return out


def replay_steps(game: RecordedGame, step: Callable[[Decision], dict[str, object]],
                 shown: Callable[[dict[str, object]], dict[str, object]] | None = None
                 ) -> list[dict[str, object]]:
    """A replay page's steps: per decision what ``step`` says of it (the seat ``a``, the
    decision kind ``k``, the option in words ``t``, how many options ``n``, and whatever
    else the game's page reads), then the final scoring; each with ``d``, what changed in
    the frame as ``shown`` (as the table sees it) since the step before."""
    steps: list[dict[str, object]] = []
    before: dict[str, object] = {}
    frames = [d.frame for d in game.decisions] + [game.end]
    for i, frame in enumerate(frames):
        said = (step(game.decisions[i]) if i < len(game.decisions)
                else {"a": -1, "k": "final", "t": "final scoring", "n": 0})
        now = frame if shown is None else shown(frame)
        said["d"] = frame_changes(before, now)
        steps.append(said)
        before = now
    return steps


def replay_head(game: RecordedGame, title: str, digest: str, default: bool,
                breakdown: tuple[str, ...], words: Callable[[str], str]) -> dict[str, object]:
    """What every recorded game's replay page carries first: the game, title, seed, setup,
    cdsim's version, the component set (its digest's first 12 characters, whether it is
    the built-in one), each seat's player by its shown name, the VP sources (``breakdown``)
    and their ``words``, and whether the tie-break decided."""
    label = shown_names([s.strategy for s in game.seats])
    return {
        "game": game.game, "title": title, "seed": game.seed, "setup": game.setup,
        "version": __version__, "components": {"digest": digest[:12], "default": default},
        "players": [{"strategy": label[s.strategy]} for s in game.seats],
        "breakdown": list(breakdown), "words": [words(k) for k in breakdown],
        "tiebreak": game.tiebreak,
    }


__all__ = ["Decision", "Playable", "RecordedGame", "SeatResult", "frame_changes", "play_recorded",
           "replay_head", "replay_steps"]
