"""What one finished game writes: one row per seat (the log schema)."""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass, fields

BREAKDOWN = ("start", "cards", "villas", "leftovers", "scroll", "fountains", "frame")


@dataclass(frozen=True, slots=True)
class SeatRecord:
    """One seat of one game. ``final_vp`` is the sum of the seven ``vp_*`` sources."""

    seat: int
    strategy: str
    start_vp: int
    vp_start: int
    vp_cards: int  # objective cards, including -4 for each failed card (R8.5)
    vp_villas: int  # R10.1
    vp_leftovers: int  # R10.2
    vp_scroll: int  # R10.3 plus overflow steps (R6.6)
    vp_fountains: int  # R10.4
    vp_frame: int  # R10.5
    final_vp: int
    failed_cards: int
    scroll: int  # scroll-track space at the end
    stack: int  # height in the stack on that space, 0 = bottom (R10.6 tie-break)
    rank: int  # 1 = winner; unique after the tie-break
    won: bool
    vp_phase1: int  # start + cards + overflow after each scoring phase
    vp_phase2: int
    vp_phase3: int
    vp_phase4: int
    tiles_taken: int
    tiles_built: int
    tiles_stored: int
    villas: int  # complete villas
    chimneys: int  # chimneys in all villas, complete or not
    villa_chimneys: int  # chimneys in complete villas
    landscapes: int
    merchants: int
    bakers: int
    administrators: int
    artisans: int
    markets: int
    bakeries: int
    fountains: int
    fountain_cards: int
    bread_moves: int
    artisan_lost: int
    leftover_items: int

    @property
    def breakdown(self) -> dict[str, int]:
        return {k: int(getattr(self, f"vp_{k}")) for k in BREAKDOWN}


SEAT_FIELDS = tuple(f.name for f in fields(SeatRecord))


@dataclass(frozen=True, slots=True)
class GameRecord:
    seed: int
    players: int
    seats: tuple[SeatRecord, ...]
    tiebreak: bool  # the winner was decided by the scroll-track tie-break (R10.6)

    def rows(self) -> list[dict[str, object]]:
        return [asdict(s) | {"seed": self.seed, "players": self.players,
                             "tiebreak": self.tiebreak} for s in self.seats]

    def digest(self) -> str:
        """A stable hash of the whole record: guards against unintended rule changes."""
        return digest_rows(self.rows())

    @property
    def winner(self) -> int:
        return next(s.seat for s in self.seats if s.won)


def digest_rows(rows: list[dict[str, object]]) -> str:
    text = json.dumps(rows, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()
