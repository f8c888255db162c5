"""Checking mode: verify every invariant after every action (used by tests).

Lives outside the hot loop (PettingZoo's wrapper idea): ``GameConfig(check=True)``
turns it on. Each check rebuilds what the engine tracks incrementally from
scratch and compares.
"""

from __future__ import annotations

from cdsim.games.carpe_diem.rules.district import District
from cdsim.games.carpe_diem.rules.game import GameState
from cdsim.games.carpe_diem.rules.kinds import CELLS, LANDSCAPES, MAX_LANDSCAPE_TILES, NEIGHBOUR


class InvariantError(AssertionError):
    """The engine broke a rule. Always a bug in cdsim."""


def _fail(message: str) -> InvariantError:
    return InvariantError(message)


def check_district(d: District) -> None:
    """R5.2-R5.3 matching; incremental features equal a replay from scratch."""
    for cell in range(CELLS):
        e = d.edges[cell]
        if e is None:
            continue
        if not d.matches(cell, e):
            raise _fail(f"tile at {divmod(cell, 6)} does not match its neighbours or the frame")
        if d.built > 1 and not any(n >= 0 and d.edges[n] is not None for n in NEIGHBOUR[cell]):
            raise _fail(f"tile at {divmod(cell, 6)} touches no other tile (R5.1)")
    fresh = District(d.board, d.frame)
    for cell, edges, chimneys, building in d.history:
        fresh.place(cell, edges, chimneys, building)
    if fresh.have != d.have or fresh.villa_chimneys != d.villa_chimneys:
        raise _fail("incremental feature counts differ from a replay")
    if sorted(fresh.features, key=repr) != sorted(d.features, key=repr):
        raise _fail("complete features differ from a replay")
    for f in d.features:
        if f.kind in LANDSCAPES and not 2 <= f.tiles <= MAX_LANDSCAPE_TILES:
            raise _fail(f"landscape of {f.tiles} tiles (R6.2)")


def check_state(state: GameState, end_of_phase: bool = False) -> None:
    c = state.components
    total = len(c.light) + len(c.dark)
    built = sum(p.district.built for p in state.players)
    stored = sum(p.stored for p in state.players)
    seal = sum(1 for t in state.seal if t is not None)
    depots = sum(len(d) for d in state.depots)
    here = len(state.light_deck) + len(state.dark_deck) + seal + depots + built + stored
    if here + state.discarded != total:
        raise _fail(f"tiles not conserved: {here + state.discarded} of {total}")
    for p in state.players:
        if min(p.goods) < 0 or p.coins < 0 or p.bread < 0:
            raise _fail(f"seat {p.seat} has a negative supply")
        if not 0 <= p.scroll <= c.last_scroll_space:
            raise _fail(f"seat {p.seat} scroll disc off the track")
        if p.taken[state.phase] > 7 or (end_of_phase and p.taken[state.phase] != 7):
            raise _fail(f"seat {p.seat} took {p.taken[state.phase]} tiles this phase (R4.6)")
        if p.district.built != p.tiles_built:
            raise _fail("built-tile count differs from the district")
        check_district(p.district)
    stamps = [p.stamp for p in state.players]
    if len(set(stamps)) != len(stamps):
        raise _fail("two scroll discs share a stack height")
    if end_of_phase and depots:
        raise _fail("tiles left on depots at the end of a phase (R4.6)")
