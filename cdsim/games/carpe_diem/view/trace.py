"""The text trace of a game, rendered from the core's typed events (``State.events()``,
core/src/carpe_diem/game/events.rs): one line per rule step. People count from 1, as the rulebook
does: seats, patrician spaces, district rows and columns, scoring circles.
"""

from __future__ import annotations

from collections.abc import Sequence

from cdsim.games.carpe_diem.rules.kinds import (
    ADMINISTRATOR,
    ARTISAN,
    BAKER,
    BAKERY,
    EDGE_NAMES,
    FEATURE_NAMES,
    FOUNTAIN,
    LANDSCAPES,
    MARKET,
    MERCHANT,
    VILLA,
)
from cdsim.games.carpe_diem.rules.records import GameRecord
from cdsim.games.carpe_diem.rules.snapshot import Event

_REWARDS = {MERCHANT: "goods exchanged for coins", BAKER: "+2 bread", MARKET: "+1 coin",
            BAKERY: "+1 bread", ADMINISTRATOR: "+2 scroll steps",
            ARTISAN: "builds a seal tile", FOUNTAIN: "draws fountain cards"}


def _cell(cell: int | None) -> str:
    assert cell is not None  # a tile built (a take that stores one says so apart)
    row, column = divmod(cell, 6)
    return f"row {row + 1}, column {column + 1}"


def _edges(edges: Sequence[int]) -> str:
    return " ".join(EDGE_NAMES[e] for e in edges)


def _reward(event: Event) -> str:
    kind, tiles = event["kind"], event["tiles"]
    size = f"{tiles} tile{'s' if tiles > 1 else ''}"
    if kind in LANDSCAPES:
        note = f"+{tiles - 1} goods"
    elif kind == VILLA:
        note = f"{event['chimneys']} chimneys"
    else:
        note = _REWARDS.get(kind, "")
    return f"    completes {FEATURE_NAMES[kind]} ({size}) {note}".rstrip()


def line(event: Event, players: int, grid: Sequence[str | None],
         circles: Sequence[Sequence[int]]) -> str:
    """One event as a trace line (the scoring circles and card grid name the circles)."""
    kind = event["type"]
    seat = f"seat {event['seat'] + 1}" if "seat" in event else ""
    if kind == "pawn":
        return f"  {seat} puts its pawn on space {event['space'] + 1} (R2.5)"
    if kind == "deal":
        start = event["phase"] % players + 1
        return f"== phase {event['phase'] + 1}: tiles dealt, starting player seat {start}"
    if kind == "move":
        how = "pays 1 bread to move" if event["bread"] else "moves"
        return f"  {seat} {how} to space {event['dest'] + 1}"
    if kind == "take":
        if event["cell"] is None:
            return f"    takes {event['tile']} and stores it"
        return (f"    takes {event['tile']}, builds it at {_cell(event['cell'])} as "
                f"{_edges(event['edges'] or ())}")
    if kind == "scroll":
        over = f", {event['overflow']} VP past the end (R6.6)" if event["overflow"] else ""
        return f"    scroll disc +{event['steps']} to space {event['space']}{over}"
    if kind == "complete":
        return _reward(event)
    if kind == "artisan_lost":
        return "    artisan: no seal tile can be built, reward lost (R6.3)"
    if kind == "seal":
        return (f"    artisan: builds seal tile {event['tile']} at {_cell(event['cell'])} "
                f"as {_edges(event['edges'] or ())}")
    if kind == "fountain":
        back = event["give_back"] or "nothing"
        return (f"    fountain: draws {', '.join(event['drawn'])}, keeps "
                f"{', '.join(event['keep'])}, puts {back} under the deck")
    if kind == "scoring_phase":
        order = ", ".join(str(s + 1) for s in event["order"])
        return f"== scoring phase {event['phase'] + 1}, seats in order {order} (R8.2)"
    if kind == "circle":
        a, b = circles[event["circle"]]
        return (f"  {seat} takes the circle between {grid[a]} and {grid[b]}, "
                f"{grid[event['first']]} first")
    if kind == "card":
        if event["failed"]:
            return f"    {event['card']}: failed, {event['vp']} VP (R8.5)"
        return f"    {event['card']}: fulfilled {event['multiples']}x, {event['vp']:+d} VP"
    if kind == "phase_end":
        every = event["vp"]
        assert isinstance(every, list)  # phase_end: every seat's VP
        vp = ", ".join(f"seat {s + 1} {v}" for s, v in enumerate(every))
        return f"  VP after scoring phase {event['phase'] + 1}: {vp}"
    raise ValueError(f"unknown event type {kind!r}")


def trace(events: Sequence[Event], players: int, grid: Sequence[str | None],
          circles: Sequence[Sequence[int]], record: GameRecord | None = None) -> list[str]:
    """The whole game as text lines, ending with final scoring when ``record`` is given."""
    lines = ["setup: pawns are placed before any tile is dealt (R2.5)"]
    lines += [line(e, players, grid, circles) for e in events]
    if record is not None:
        won = record.seats[record.winner]
        lines.append(f"== final scoring: seat {record.winner + 1} wins with {won.final_vp} VP"
                     + (" (scroll-track tie-break, R10.6)" if record.tiebreak else ""))
    return lines
