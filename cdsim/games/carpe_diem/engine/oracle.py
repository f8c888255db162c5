"""The Python rules as the core's oracle: both states as plain data, compared after every
decision, so a disagreement names the game, the decision and the field where the two
engines split (a perft that points at the bug).

The core's side is ``State.snapshot()`` (core/src/carpe_diem/game/snapshot.rs); this module makes
the same object from a ``cdsim.games.carpe_diem.rules.game.GameState``. Components are named by their ids;
seats, spaces and cells count from 0.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from cdsim.games.carpe_diem.rules.snapshot import DistrictSnapshot, PlayerSnapshot, Snapshot

if TYPE_CHECKING:
    from collections.abc import Sequence

    from cdsim.games.carpe_diem.rules.district import District
    from cdsim.games.carpe_diem.rules.game import GameState, PlayerState
    from cdsim.games.carpe_diem.rules.records import CardRow


class EngineMismatch(AssertionError):
    """The core and the Python rules disagree: a bug in one of them, never a user error."""


def _district(d: District) -> DistrictSnapshot:
    return DistrictSnapshot(
        edges=[list(e) if e is not None else None for e in d.edges],
        chimneys_at=list(d.chimneys_at), scrolls=sorted(d.scrolls), frontier=d.frontier,
        have=list(d.have), complete_count=list(d.complete_count),
        complete_mask=list(d.complete_mask))


def _player(p: PlayerState) -> PlayerSnapshot:
    return PlayerSnapshot(
        goods=list(p.goods), coins=p.coins, bread=p.bread, stored=p.stored,
        fountain_cards=list(p.fountain_cards), pawn=p.pawn, scroll=p.scroll, stamp=p.stamp,
        tiles_built=p.tiles_built, bread_moves=p.bread_moves, failed_cards=p.failed_cards,
        artisan_lost=p.artisan_lost, taken=list(p.taken),
        vp_after_phase=list(p.vp_after_phase), vp=p.current_vp,
        district=_district(p.district))


def _raw(state: GameState) -> Snapshot:
    return Snapshot(
        phase=state.phase, round=state.round, start_player=state.start_player,
        grid=list(state.grid), circle_owner=list(state.circle_owner),
        fountain_deck=list(state.fountain_deck), light_deck=list(state.light_deck),
        dark_deck=list(state.dark_deck), seal=list(state.seal),
        depots=[list(d) for d in state.depots], depot_taken=list(state.depot_taken),
        discarded=state.discarded, players=[_player(p) for p in state.players])


def snapshot(state: GameState) -> Snapshot:
    """Everything a rule can change, as the core's ``State.snapshot()`` gives it."""
    snap: Snapshot = json.loads(json.dumps(_raw(state)))  # tuples -> lists, as the core's JSON
    return snap


def snapshot_text(state: GameState) -> str:
    """The snapshot as the core writes it (compact JSON, keys sorted): equal text, equal
    state, so the oracle compares strings and walks the fields only on a difference."""
    return json.dumps(_raw(state), sort_keys=True, separators=(",", ":"))


def first_difference(core: Any, python: Any, path: str = "") -> str | None:
    """The first field where two snapshots differ, as ``path: core X, python Y``."""
    if isinstance(core, dict) and isinstance(python, dict):
        for key in [*core, *(k for k in python if k not in core)]:
            found = first_difference(core.get(key), python.get(key), f"{path}.{key}" if path
                                     else str(key))
            if found:
                return found
        return None
    if isinstance(core, list) and isinstance(python, list) and len(core) == len(python):
        for i, (a, b) in enumerate(zip(core, python, strict=True)):
            found = first_difference(a, b, f"{path}[{i}]")
            if found:
                return found
        return None
    return None if core == python else f"{path}: core {core!r}, python {python!r}"


def compare(core_snapshot: str, state: GameState, where: str) -> None:
    """Raise EngineMismatch naming ``where`` (game and decision) and the first field that
    differs between the core's snapshot (JSON) and the Python rules' state."""
    if core_snapshot == snapshot_text(state):
        return
    found = first_difference(json.loads(core_snapshot), snapshot(state))
    if found:
        raise EngineMismatch(f"{where}: the core and the Python rules differ at {found}")


def compare_cards(core: Sequence[CardRow], python: Sequence[CardRow], where: str) -> None:
    """Raise EngineMismatch naming ``where`` and the first card row one engine has and the
    other has not. Compared as sorted lists: the engines list a seat's fountain draws of
    one phase in their own deck orders."""
    mine, theirs = sorted(core), sorted(python)
    if mine == theirs:
        return
    first = next((a, b) for a, b in zip([*mine, None], [*theirs, None], strict=False)
                 if a != b)
    raise EngineMismatch(f"{where}: the card rows differ: core {first[0]}, python {first[1]}")
