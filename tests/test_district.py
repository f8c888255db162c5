"""Building, matching and completion on a district (R5, R6, R10.5)."""

from cdsim.games.carpe_diem.rules.components import load_components
from cdsim.games.carpe_diem.rules.district import District
from cdsim.games.carpe_diem.rules.kinds import (
    ARTISAN,
    GARDEN,
    MEADOW,
    POND,
    VILLA,
)

G, V, P, H = MEADOW, VILLA, POND, GARDEN
C = load_components()
EVERYWHERE = (1 << 36) - 1


def open_district(frame=()):  # type: ignore[no-untyped-def]
    d = District(None, frame)
    d.frontier = EVERYWHERE
    return d


def test_first_tile_only_on_the_spade_space() -> None:  # R5.1
    board = C.boards[0]
    d = District(board)
    assert d.frontier_cells() == [board.spade]
    d.place(board.spade, (G, G, G, G), building=10)
    assert sorted(d.frontier_cells()) == sorted(
        n for n in (board.spade - 6, board.spade + 1, board.spade + 6, board.spade - 1))


def test_later_tiles_must_touch_a_built_tile() -> None:  # R5.1
    board = C.boards[0]
    d = District(board)
    d.place(board.spade, (G, G, G, G), building=10)
    far = 0 if board.spade != 0 else 35
    assert not d.can_place(far, (G, G, G, G))


def test_edges_must_match_their_neighbours() -> None:  # R5.2
    d = open_district()
    d.place(14, (G, V, G, G), chimneys=1)
    assert d.can_place(15, (G, G, G, V))
    assert not d.can_place(15, (G, G, G, G))  # meadow against villa
    assert not d.can_place(15, (G, G, G, P))  # pond against villa


def test_frame_counts_as_meadow() -> None:  # R5.3
    d = open_district()
    assert d.can_place(0, (G, V, V, G))
    assert not d.can_place(0, (V, G, G, G))  # villa side against the top frame
    assert not d.can_place(5, (G, V, G, G))  # villa side against the right frame


def test_villa_needs_two_tiles_and_no_opening() -> None:  # R6.1
    d = open_district()
    assert d.place(14, (G, V, G, G), chimneys=1) == []
    assert d.place(15, (G, V, G, V), chimneys=2) == []  # straight: still open to the east
    (villa,) = d.place(16, (G, G, G, V), chimneys=2)
    assert (villa.kind, villa.tiles, villa.chimneys) == (VILLA, 3, 5)
    assert d.villa_chimneys == [5]
    assert d.have[1] == 1


def test_villa_with_an_opening_is_incomplete() -> None:  # R6.1
    d = open_district()
    d.place(14, (G, V, G, G), chimneys=1)
    assert d.place(15, (G, V, V, V), chimneys=3) == []  # T: openings east and south
    assert d.villa_chimneys == []
    assert d.have[0] == 4  # chimneys count in incomplete villas for green cards


def test_villa_loop_of_four_corners() -> None:  # R6.1: union-find closes a loop
    d = open_district()
    d.place(7, (G, V, V, G), chimneys=1)
    d.place(8, (G, G, V, V), chimneys=1)
    d.place(13, (V, V, G, G), chimneys=1)
    (villa,) = d.place(14, (V, G, G, V), chimneys=1)
    assert (villa.tiles, villa.chimneys) == (4, 4)


def test_landscape_completion_and_size_limit() -> None:  # R6.2
    d = open_district()
    d.place(6, (G, P, G, G))
    d.place(7, (G, P, G, P))  # not a legal landscape part, but shows the size limit
    d.place(8, (G, P, G, P))
    d.place(9, (G, P, G, P))
    assert d.oversized_landscape(10, (G, G, G, P))  # a fifth tile
    assert not d.can_place(10, (G, G, G, P))
    e = open_district()
    e.place(0, (G, H, G, G))
    (garden,) = e.place(1, (G, G, G, H))
    assert (garden.kind, garden.tiles) == (GARDEN, 2)


def test_dwelling_is_two_matching_halves() -> None:  # R6.3
    d = open_district()
    assert d.place(0, (G, ARTISAN, G, G)) == []
    (dwelling,) = d.place(1, (G, G, G, ARTISAN))
    assert (dwelling.kind, dwelling.tiles) == (ARTISAN, 2)
    assert d.have[11] == 1 and d.have[12] == 1  # artisan dwellings, dwellings of any colour
    f = open_district()
    f.place(0, (G, ARTISAN, G, G))
    assert not f.can_place(1, (G, G, G, 8))  # another colour does not match (R5.2)


def test_single_building_completes_at_once() -> None:  # R6.4
    d = open_district()
    (market,) = d.place(0, (G, G, G, G), building=10)
    assert market.kind == 10 and d.complete_count[10] == 1


def test_two_features_on_one_tile_complete_together() -> None:  # R5.5
    d = open_district()
    d.place(1, (G, G, V, G), chimneys=1)  # (0,1): villa end pointing south
    d.place(13, (P, G, G, G))  # (2,1): pond end pointing north
    assert d.can_place(7, (V, G, P, G))
    done = d.place(7, (V, G, P, G), chimneys=1)  # (1,1): villa north, pond south
    assert sorted(f.kind for f in done) == [VILLA, POND]


def test_frame_goal_counts_along_its_own_line() -> None:  # R10.5, C9
    # parts: top 1 (villa col 1, pond col 4), right 5 (baker row 1, merchant row 4),
    # bottom 9 (pond: line 2 -> column 3, merchant: line 5 -> column 0),
    # left 13 (pond: line 5 -> row 0, market: line 2 -> row 3)
    frame = tuple(C.frame_parts[i] for i in (1, 5, 9, 13))
    d = open_district(frame)
    d.place(21, (G, G, P, G))  # (3,3)
    d.place(27, (P, G, G, G))  # (4,3): a complete pond in column 3 only
    assert d.frame_points() == 3  # the bottom part's pond goal, counted clockwise
    e = open_district(frame)
    e.place(6, (G, G, V, G), chimneys=1)  # (1,0)
    e.place(12, (V, G, G, G), chimneys=1)  # (2,0): a villa in column 0 only
    assert e.frame_points() == 0
    f = open_district(frame)
    f.place(1, (G, G, V, G), chimneys=1)  # (0,1)
    assert f.frame_points() == 0  # incomplete villas do not count
    f.place(7, (V, G, G, G), chimneys=1)
    assert f.frame_points() == 3  # top part's villa goal, column 1


def test_placements_never_offer_illegal_cells() -> None:  # R5.1-R5.3
    board = C.boards[1]
    d = District(board)
    t = next(t for t in C.tile_types if t.id == "L-villa-T-2")
    for cell, edges in d.placements(t.orientations):
        assert cell == board.spade and d.matches(cell, edges)


def test_placements_are_exactly_the_legal_ones_in_order() -> None:  # R5.1-R5.3, R6.2
    """The mask tables give what a brute force over every cell and orientation with
    can_place gives (frontier, matching sides, landscape size), in the same order."""
    state_d = _played_district()
    checked = 0
    for step in range(len(state_d.history)):
        d = _replay(state_d, step)
        for t in C.tile_types:
            brute = [(cell, e) for cell in range(36) for e in t.orientations
                     if d.can_place(cell, e)]
            assert d.placements(t.orientations) == brute
            checked += len(brute)
    assert checked > 1000


def test_placements_leave_out_a_fifth_pond_tile() -> None:  # R6.2 [decision]
    d = open_district()
    d.place(0, (G, P, G, G))  # (0,0) east
    d.place(1, (G, G, P, P))  # (0,1) west and south
    d.place(7, (P, P, G, G))  # (1,1) north and east
    d.place(8, (G, G, P, P))  # (1,2): four pond tiles, open to the south
    d.place(30, (G, P, G, G))  # (5,0): a one-tile pond, open to the east
    end = next(t for t in C.tile_types if t.id == "L-P-end")
    got = d.placements(end.orientations)
    assert (14, (P, G, G, G)) not in got  # would make a five-tile pond
    assert d.matches(14, (P, G, G, G)) and not d.can_place(14, (P, G, G, G))
    assert (31, (G, G, G, P)) in got  # closes the small pond
    assert (20, (G, G, G, P)) in got  # a new pond, facing nothing
    assert got == [(cell, e) for cell in range(36) for e in end.orientations
                   if d.can_place(cell, e)]


def test_around_predicts_what_each_part_joins() -> None:  # R6: the bots' preview
    """For legal placements, District.around + parts_of give the merged feature that
    place() then builds: open edges, tiles, chimneys and cells (checked on a replayed
    district of a real game, at every step, for a sample of tile types)."""
    from cdsim.games.carpe_diem.rules.district import NOTHING, parts_of

    state_d = _played_district()
    types = C.tile_types[::7]
    checked = 0
    for step in range(1, len(state_d.history)):
        d = _replay(state_d, step)
        for t in types:
            for cell, edges in d.placements(t.orientations):
                after = _replay(state_d, step)
                after.place(cell, edges, t.chimneys, t.building)
                if t.building:
                    continue
                around = d.around(cell)
                for k, own in parts_of(edges):
                    m, o, s, c, mk = around.get(k, NOTHING)
                    root = after._find(cell * 16 + k)
                    assert after._open[root] == own - 2 * m + o
                    assert after._size[root] == 1 + s
                    assert after._chimneys[root] == (t.chimneys if k == VILLA else 0) + c
                    assert after._mask[root] == (1 << cell) | mk
                    checked += 1
    assert checked > 200


def _played_district() -> District:
    """A district the Python rules built in step with a game of greedy on the core."""
    from cdsim.games.carpe_diem.engine.table import Table
    from cdsim.games.carpe_diem.players.registry import make_lineup

    table = Table(None, make_lineup(["greedy"], 2), 5, mirror=True)
    table.play()
    assert table.python is not None
    return table.python.players[0].district


def _replay(d: District, steps: int) -> District:
    r = District(d.board, d.frame)
    for cell, edges, chimneys, building in d.history[:steps]:
        r.place(cell, edges, chimneys, building)
    return r


def test_around_counts_a_feature_met_on_two_sides_once() -> None:  # R6.1: closing a ring
    from cdsim.games.carpe_diem.rules.district import parts_of

    d = open_district()
    d.place(0, (G, V, V, G), chimneys=1)  # (0,0)
    d.place(1, (G, V, G, V), chimneys=1)  # (0,1)
    d.place(2, (G, G, V, V), chimneys=1)  # (0,2)
    d.place(6, (V, V, G, G), chimneys=1)  # (1,0)
    d.place(8, (V, G, G, V), chimneys=1)  # (1,2)
    edges = (G, V, G, V)  # (1,1) meets the same villa to its west and its east
    assert d.can_place(7, edges)
    assert dict(parts_of(edges)) == {V: 2}
    sides, open_edges, tiles, chimneys, cells = d.around(7)[V]
    assert (sides, tiles, chimneys) == (2, 5, 5)  # two sides, one feature counted once
    assert cells == sum(1 << c for c in (0, 1, 2, 6, 8))
    d.place(7, edges, chimneys=2)
    root = d._find(7 * 16 + V)
    assert d._open[root] == 2 - 2 * sides + open_edges
    assert (d._size[root], d._chimneys[root]) == (6, 7)


def test_clearing_the_fit_tables_changes_no_game(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from cdsim.games.carpe_diem.engine.table import Table
    from cdsim.games.carpe_diem.players.registry import make_lineup
    from cdsim.games.carpe_diem.rules import district

    def digest() -> str:  # checking: the Python rules agree with the core at every decision
        lineup = make_lineup(["greedy", "random", "bread"], 3)
        return Table(None, lineup, 9, check=True).play().digest()

    normal = digest()
    monkeypatch.setattr(district, "TABLES_LIMIT", 5)
    district._TABLES.clear()
    assert digest() == normal
    assert len(district._TABLES) <= 5
