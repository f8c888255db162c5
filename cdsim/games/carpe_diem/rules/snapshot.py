"""The core's game as plain data, declared once: the deal (``State.deal()``: every chance
outcome of a game, drawn at setup, R2), the snapshot (``State.snapshot()``: everything a
rule can change), as core/src/carpe_diem/game/snapshot.rs writes them in JSON, and the
events (``State.events()``, core/src/carpe_diem/game/events.rs) the trace and the replay
are told from. The Python rules draw the same deal (``cdsim.games.carpe_diem.rules.game.draw_deal``) and
make the same snapshot of their state (``cdsim.games.carpe_diem.engine.oracle``); the replay page draws
from the core's (``cdsim.games.carpe_diem.view.replay``).
Components are named by their ids; seats, spaces and cells count from 0."""

from __future__ import annotations

from typing import Literal, TypedDict


class Deal(TypedDict):
    """Every chance outcome of a game (R2), drawn at setup in a fixed order."""

    boards: list[int]  # each seat's board, by id (R2.1)
    frames: list[list[int]]  # each seat's four frame parts, by id (R2.1)
    grid: list[str | None]  # the objective card grid's slots (R2.2)
    fountain_deck: list[str]  # R2.3
    light_deck: list[int]  # tile indices (R2.4)
    dark_deck: list[int]
    seal: list[int | None]  # the seal row's tiles


class DistrictSnapshot(TypedDict):
    """One seat's district: each cell's edges (None: not built) and what it holds."""

    edges: list[list[int] | None]
    chimneys_at: list[int]
    scrolls: list[int]  # cells with a scroll, sorted
    frontier: int  # the cells one may build on, as bits (R5.1)
    have: list[int]
    complete_count: list[int]  # completed features, by kind
    complete_mask: list[int]


class PlayerSnapshot(TypedDict):
    """One seat's holdings, track places and VP."""

    goods: list[int]
    coins: int
    bread: int
    stored: int
    fountain_cards: list[str]
    pawn: int
    scroll: int
    stamp: int
    tiles_built: int
    bread_moves: int
    failed_cards: int
    artisan_lost: int
    taken: list[int]
    vp_after_phase: list[int]
    vp: int
    district: DistrictSnapshot


class Snapshot(TypedDict):
    """Everything a rule can change: the table and each seat."""

    phase: int
    round: int
    start_player: int
    grid: list[str | None]
    circle_owner: list[int]
    fountain_deck: list[str]
    light_deck: list[int]
    dark_deck: list[int]
    seal: list[int | None]
    depots: list[list[int]]
    depot_taken: list[int]
    discarded: int
    players: list[PlayerSnapshot]


EventType = Literal["pawn", "deal", "move", "take", "scroll", "complete", "artisan_lost", "seal",
                   "fountain", "scoring_phase", "circle", "card", "phase_end"]


class Event(TypedDict, total=False):
    """One event of the game: its ``type`` and the fields that type has (events.rs)."""

    type: EventType
    seat: int
    phase: int
    space: int  # pawn: where it is put; scroll: where the disc ends
    dest: int  # move
    bread: bool  # move: paid with bread
    tile: str  # take, seal
    cell: int | None  # take: None when stored; seal
    edges: list[int] | None  # take (None when stored), seal
    depots: list[list[str]]  # deal
    steps: int  # scroll
    overflow: int  # scroll: VP past the end (R6.6)
    kind: int  # complete: the feature kind
    tiles: int
    chimneys: int
    drawn: list[str]  # fountain
    keep: list[str]
    give_back: str | None
    order: list[int]  # scoring_phase
    circle: int  # circle
    first: int
    second: int
    slot: int
    card: str  # card
    failed: bool
    multiples: int
    vp: int | list[int]  # card: its VP; phase_end: every seat's


__all__ = ["Deal", "DistrictSnapshot", "Event", "EventType", "PlayerSnapshot", "Snapshot"]
