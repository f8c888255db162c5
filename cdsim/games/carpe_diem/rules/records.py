"""What one finished game writes: one row per seat (the log schema), and one row per
card a seat took, drew or kept (the card table).

The seat row and the card row are declared once, in the core (core/src/carpe_diem/records.rs
``seat_row!`` and ``card_row!``), which hands them over as ``cdsim._core.SEAT_COLUMNS`` and
``CARD_COLUMNS``. The oracle keeps its own ``SeatRecord`` and ``CardRow`` so that the rules
import without the compiled core; tests/test_core.py holds their ``SEAT_COLUMNS`` and
``CARD_COLUMNS`` (and ``GAME_COLUMNS``, ``CARD_OUTCOMES``) equal to the core's, name, order
and type."""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, Literal, get_args, get_origin, get_type_hints

from cdsim.digest import digest_rows as digest_rows  # game-free: re-exported for the rules

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


def _python_type(hint: Any) -> str:
    """The Python type of a field's column: its type's name, or that of a Literal's words."""
    if get_origin(hint) is Literal:
        (kind,) = {type(word) for word in get_args(hint)}
        return kind.__name__
    return str(hint.__name__)


def _columns(record: type) -> tuple[tuple[str, str], ...]:
    hints = get_type_hints(record)
    return tuple((f.name, _python_type(hints[f.name])) for f in fields(record))


# (name, Python type) of each column, in the order of the run's Parquet: int is Int64,
# str String, bool Boolean.
SEAT_COLUMNS = _columns(SeatRecord)
SEAT_FIELDS = tuple(name for name, _ in SEAT_COLUMNS)


CardKind = Literal["objective", "fountain"]
CARD_KINDS: tuple[CardKind, ...] = get_args(CardKind)  # in the core's CardKind order
# An objective card a seat took is fulfilled or failed (R8.4-R8.5); a fountain card is
# drawn (R6.5) and, if held at the end, kept (R10.4).
CardOutcome = Literal["fulfilled", "failed", "drawn", "kept"]
CARD_OUTCOMES: tuple[CardOutcome, ...] = ("fulfilled", "failed", "drawn", "kept")


@dataclass(frozen=True, slots=True, order=True)
class CardRow:
    """What happened to one card of one seat (core/src/carpe_diem/records.rs ``CardRecord``). A seat's
    rows sum to its ``vp_cards + vp_fountains``."""

    seat: int  # counted from 0, as in the seat rows
    kind: CardKind
    card: str  # its id (cdsim/games/carpe_diem/data/cards.toml)
    outcome: CardOutcome
    phase: int  # 1-4: the scoring phase (objective) or the phase drawn in; 0: final scoring
    multiples: int  # times fulfilled (R8.4); 0 for fountain cards
    vp: int  # the VP it brought: -4 for a failed card (R8.5), R10.4 for a kept one


# (name, Python type) of each column, in the order of the run's card Parquet (after the
# runner's game: cdsim.batch.queue): int is Int64, str String.
CARD_COLUMNS = _columns(CardRow)
CARD_FIELDS = tuple(name for name, _ in CARD_COLUMNS)


# What a game adds to each of its seat rows: GameRecord's fields of these names.
GAME_COLUMNS: tuple[tuple[str, str], ...] = (("seed", "int"), ("players", "int"),
                                             ("tiebreak", "bool"))
# What a run adds to each row (core/src/batch.rs RUN_COLUMNS): the game's id in the run and
# its deal group.
RUN_COLUMNS: tuple[tuple[str, str], ...] = (("game", "int"), ("setup", "int"))
# A run's seat row, column by column, in the order of its Parquet parts.
ROW_FIELDS = tuple(name for name, _ in (*SEAT_COLUMNS, *GAME_COLUMNS, *RUN_COLUMNS))


@dataclass(frozen=True, slots=True)
class GameRecord:
    seed: int
    players: int
    seats: tuple[SeatRecord, ...]
    tiebreak: bool  # the winner was decided by the scroll-track tie-break (R10.6)
    cards: tuple[CardRow, ...] = ()  # the card table's rows (not part of the digest)

    def card_rows(self) -> list[dict[str, object]]:
        return [{f: getattr(c, f) for f in CARD_FIELDS} for c in self.cards]

    def rows(self) -> list[dict[str, object]]:
        game = {name: getattr(self, name) for name, _ in GAME_COLUMNS}
        return [{f: getattr(s, f) for f in SEAT_FIELDS} | game for s in self.seats]

    def digest(self) -> str:
        """A stable hash of the whole record: guards against unintended rule changes."""
        return digest_rows(self.rows())

    @property
    def winner(self) -> int:
        return next(s.seat for s in self.seats if s.won)
