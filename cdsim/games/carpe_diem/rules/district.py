"""One player's 6x6 district: legal placements, features, completions, counts (R5, R6, R10.5).

Features are tracked incrementally with union-find over tile *parts*: a part is the
set of a tile's edges of one kind (docs/rules.md C1), so node ``cell * 16 + kind``
names it. Each root carries the feature's open-edge count, tile count and
chimneys; a feature is complete when its open-edge count reaches zero.
"""

from __future__ import annotations

from dataclasses import dataclass

from cdsim.games.carpe_diem.rules.components import Board, FramePart
from cdsim.games.carpe_diem.rules.kinds import (
    CELLS,
    DWELLINGS,
    EDGE_NAMES,
    LANDSCAPES,
    MAX_LANDSCAPE_TILES,
    MEADOW,
    N_KINDS,
    NEIGHBOUR,
    SINGLES,
    SIZE,
    VILLA,
)

Edges = tuple[int, int, int, int]
ALL_MEADOW: Edges = (MEADOW, MEADOW, MEADOW, MEADOW)

# Indices into District.have, in the order of components.HAVE_KEYS.
H_CHIMNEYS, H_VILLAS, H_LANDSCAPES, H_LANDSCAPES_3PLUS = 0, 1, 2, 3
H_DWELLINGS = 12
N_HAVE = 16


def have_index(kind: int) -> int:
    """HAVE_KEYS index of one feature kind (pond..artisan, market..fountain)."""
    return kind + 2 if kind < 10 else kind + 3


def _line_masks() -> tuple[tuple[int, ...], ...]:
    """LINE_MASK[side][line]: the cells a frame goal's line crosses (R10.5, docs/rules.md C9).

    Sides are top, right, bottom, left; lines are counted clockwise along the side.
    """
    def row(r: int) -> int:
        return sum(1 << (r * SIZE + c) for c in range(SIZE))

    def col(c: int) -> int:
        return sum(1 << (r * SIZE + c) for r in range(SIZE))

    top = tuple(col(i) for i in range(SIZE))
    right = tuple(row(i) for i in range(SIZE))
    bottom = tuple(col(SIZE - 1 - i) for i in range(SIZE))
    left = tuple(row(SIZE - 1 - i) for i in range(SIZE))
    return (top, right, bottom, left)


LINE_MASK = _line_masks()

# placements(): per tile (keyed by id(orientations)), which orientations fit a cell's
# constraint, as bit masks over the orientations: sides[d][r] has the bits of those whose
# side d is kind r; a constraint of -1 (anything) indexes the last entry, all bits.
Tables = tuple[tuple[list[int], ...], list[list[tuple[int, Edges]] | None], bool,
               tuple[Edges, ...]]
_TABLES: dict[int, Tables] = {}  # the tuple is kept in the value, so its id stays valid
TABLES_LIMIT = 2_000  # tile types (~10 kB each); components are loaded once per chunk


def _tables(orientations: tuple[Edges, ...]) -> Tables:
    """The side masks, a lazily filled (cell * 16 + fit mask) -> placements list,
    whether the tile has a landscape (R6.2 size check), and the orientations."""
    full = (1 << len(orientations)) - 1
    sides = tuple([sum(1 << i for i, e in enumerate(orientations) if e[d] == r)
                   for r in range(N_KINDS)] + [full] for d in range(4))
    land = any(k in LANDSCAPES for k in orientations[0])
    if len(_TABLES) >= TABLES_LIMIT:  # a pure cache: start afresh, bound memory
        _TABLES.clear()
    tables = _TABLES[id(orientations)] = (sides, [None] * (CELLS * 16), land, orientations)
    return tables


# parts_of(): (kind, sides of that kind) of each non-meadow part of an edge tuple, by kind.
_PARTS: dict[Edges, tuple[tuple[int, int], ...]] = {}
NOTHING = (0, 0, 0, 0, 0)  # no neighbour of that kind: (sides, open, tiles, chimneys, cells)


def parts_of(edges: Edges) -> tuple[tuple[int, int], ...]:
    """(kind, sides of that kind) of each non-meadow part of a tile, by kind (cached)."""
    parts = _PARTS.get(edges)
    if parts is None:
        parts = _PARTS[edges] = tuple((k, edges.count(k)) for k in sorted(set(edges))
                                      if k != MEADOW)
    return parts

# What each side of an empty cell must match before anything is built: meadow on the
# frame (R5.3), anything (-1) towards another cell.
_EMPTY_REQ: tuple[Edges, ...] = tuple(
    (MEADOW if a < 0 else -1, MEADOW if b < 0 else -1, MEADOW if c < 0 else -1,
     MEADOW if d < 0 else -1) for a, b, c, d in NEIGHBOUR)


@dataclass(frozen=True, slots=True)
class Feature:
    """A complete villa, landscape, dwelling or single building."""

    kind: int
    tiles: int
    chimneys: int
    cells: tuple[int, ...]


class District:
    """A player's district board. Mutated only through ``place``."""

    __slots__ = (
        "_chimneys",
        "_facing_land",
        "_mask",
        "_near",
        "_open",
        "_parent",
        "_placed",
        "_req",
        "_size",
        "board",
        "chimneys_at",
        "complete_count",
        "complete_mask",
        "edges",
        "features",
        "frame",
        "frame_goals",
        "frontier",
        "have",
        "history",
        "scrolls",
        "villa_chimneys",
    )

    def __init__(self, board: Board | None, frame: tuple[FramePart, ...] = ()) -> None:
        self.board = board
        self.frame = frame
        self.edges: list[Edges | None] = [None] * CELLS
        self.chimneys_at = [0] * CELLS
        self.scrolls = set(board.scrolls) if board else set()
        self.frontier = 1 << board.spade if board else (1 << CELLS) - 1  # R5.1
        self._req: list[Edges] = list(_EMPTY_REQ)  # what each cell's sides must match
        self._facing_land = 0  # cells with a side facing a built landscape edge (R6.2)
        self._near: dict[int, dict[int, tuple[int, int, int, int, int]]] = {}  # see around()
        self._placed: dict[int, list[tuple[int, Edges]]] = {}  # placements() until next place
        self.features: list[Feature] = []
        self.have = [0] * N_HAVE
        self.complete_count = [0] * 13
        self.complete_mask = [0] * 13
        self.villa_chimneys: list[int] = []
        self.history: list[tuple[int, Edges, int, int]] = []
        self.frame_goals = [
            (goal.kind, goal.vp, LINE_MASK[side][goal.line])
            for side, part in enumerate(frame) for goal in part.goals
        ]
        n = CELLS * 16
        self._parent = list(range(n))
        self._open = [0] * n
        self._size = [0] * n
        self._chimneys = [0] * n
        self._mask = [0] * n  # bit mask of a root's cells

    # -- queries -------------------------------------------------------------
    @property
    def built(self) -> int:
        return len(self.history)

    def frontier_cells(self) -> list[int]:
        mask = self.frontier
        return [c for c in range(CELLS) if mask >> c & 1]

    def _find(self, node: int) -> int:
        parent = self._parent
        while parent[node] != node:
            parent[node] = parent[parent[node]]
            node = parent[node]
        return node

    def matches(self, cell: int, edges: Edges) -> bool:
        """R5.2, R5.3: every side matches its built neighbour; sides on the frame are meadow."""
        nbrs = NEIGHBOUR[cell]
        built = self.edges
        for d in range(4):
            n = nbrs[d]
            if n < 0:
                if edges[d]:
                    return False
            else:
                ne = built[n]
                if ne is not None and ne[d ^ 2] != edges[d]:
                    return False
        return True

    def can_place(self, cell: int, edges: Edges) -> bool:
        """Legal placement: on the frontier (R5.1), matching (R5.2-5.3), landscapes <= 4 (R6.2)."""
        return bool(self.frontier >> cell & 1) and self.matches(cell, edges) and not (
            self.oversized_landscape(cell, edges))

    def oversized_landscape(self, cell: int, edges: Edges) -> bool:
        """R6.2 [decision]: a landscape is 2-4 tiles, so no tile may grow one past 4.

        ``edges`` must match the neighbours (``matches``): then ``around`` gives what
        each landscape part would join.
        """
        around = self.around(cell)
        for kind in LANDSCAPES:
            if kind in edges and 1 + around.get(kind, NOTHING)[2] > MAX_LANDSCAPE_TILES:
                return True
        return False

    def placements(self, orientations: tuple[Edges, ...]) -> list[tuple[int, Edges]]:
        """Every legal (cell, oriented edges) for a tile with these distinct orientations.

        Which orientations fit a cell depends only on what its four sides face (the
        cell's constraint, kept up to date by ``place``): one AND of four precomputed
        masks. The landscape size (R6.2) is the only check left, and only where a
        landscape edge faces the cell; like the value of a placement, it is the same for
        every orientation that fits (each side facing a built tile must match it).
        The list is kept until the next ``place``: callers must not change it.
        """
        oid = id(orientations)
        done = self._placed.get(oid)
        if done is not None:  # asked already since the last placement (bot, then engine)
            return done
        out: list[tuple[int, Edges]] = []
        self._placed[oid] = out
        tables = _TABLES.get(oid)
        if tables is None or tables[3] is not orientations:
            tables = _tables(orientations)
        (s0, s1, s2, s3), pairs, land, _ = tables
        check = self._facing_land if land else 0
        mask = self.frontier
        reqs = self._req
        while mask:
            low = mask & -mask
            mask ^= low
            cell = low.bit_length() - 1
            r0, r1, r2, r3 = reqs[cell]
            fit = s0[r0] & s1[r1] & s2[r2] & s3[r3]
            if not fit:
                continue
            key = cell * 16 + fit
            got = pairs[key]
            if got is None:
                got = pairs[key] = [(cell, e) for i, e in enumerate(orientations) if fit >> i & 1]
            if check >> cell & 1 and self.oversized_landscape(cell, got[0][1]):
                continue
            out += got
        return out

    def around(self, cell: int) -> dict[int, tuple[int, int, int, int, int]]:
        """Per kind, what a tile on ``cell`` would join through its built neighbours:
        (sides facing that kind, open edges, tiles, chimneys, cell mask) summed over the
        distinct features; cached until the next ``place``.

        For a legal placement (``can_place``) a part of kind k with ``own`` sides joins
        exactly these: the merged feature has ``own - 2 * sides + open`` open edges,
        ``1 + tiles`` tiles and ``cell's bit | mask`` cells (the value model prices with them:
        core/src/carpe_diem/players/position.rs).
        """
        agg = self._near.get(cell)
        if agg is not None:
            return agg
        agg = {}
        seen: list[int] = []
        built = self.edges
        nbrs = NEIGHBOUR[cell]
        for d in range(4):
            n = nbrs[d]
            if n < 0:
                continue
            ne = built[n]
            if ne is None:
                continue
            kind = ne[d ^ 2]
            if kind == MEADOW:
                continue
            root = self._find(n * 16 + kind)
            m, o, s, c, mk = agg.get(kind, (0, 0, 0, 0, 0))
            if root in seen:
                agg[kind] = (m + 1, o, s, c, mk)
            else:
                seen.append(root)
                agg[kind] = (m + 1, o + self._open[root], s + self._size[root],
                             c + self._chimneys[root], mk | self._mask[root])
        self._near[cell] = agg
        return agg

    def open_features(self, kind: int) -> list[tuple[int, int, int]]:
        """(open edges, tiles, chimneys) of each incomplete feature of one kind."""
        seen: set[int] = set()
        out = []
        for cell, edges, _, _ in self.history:
            if kind in edges:
                root = self._find(cell * 16 + kind)
                if root not in seen and self._open[root] > 0:
                    seen.add(root)
                    out.append((self._open[root], self._size[root], self._chimneys[root]))
        return out

    # -- the one mutation ----------------------------------------------------
    def place(self, cell: int, edges: Edges, chimneys: int = 0, building: int = 0) -> list[Feature]:
        """Build a tile (legality is the caller's job: see can_place). Returns completions."""
        self.edges[cell] = edges
        self.chimneys_at[cell] = chimneys
        self.history.append((cell, edges, chimneys, building))
        self.frontier &= ~(1 << cell)
        self._near = {}
        self._placed = {}
        for d, n in enumerate(NEIGHBOUR[cell]):
            if n >= 0 and self.edges[n] is None:
                self.frontier |= 1 << n
                r = list(self._req[n])
                r[d ^ 2] = edges[d]  # n's side facing this cell must now match it
                self._req[n] = (r[0], r[1], r[2], r[3])
                if edges[d] in LANDSCAPES:
                    self._facing_land |= 1 << n
        self.scrolls.discard(cell)
        completed: list[Feature] = []
        if building:
            completed.append(self._complete(building, 1, 0, 1 << cell))
            return completed
        for kind in sorted(set(edges)):
            if kind == MEADOW:
                continue
            root = self._join(cell, edges, kind, chimneys if kind == VILLA else 0)
            if kind == VILLA:
                self.have[H_CHIMNEYS] += chimneys
            if self._open[root] == 0 and (kind != VILLA or self._size[root] >= 2):
                completed.append(self._complete(kind, self._size[root], self._chimneys[root],
                                                self._mask[root]))
        return completed

    def _join(self, cell: int, edges: Edges, kind: int, chimneys: int) -> int:
        node = cell * 16 + kind
        self._open[node] = sum(1 for e in edges if e == kind)
        self._size[node] = 1
        self._chimneys[node] = chimneys
        self._mask[node] = 1 << cell
        root = node
        nbrs = NEIGHBOUR[cell]
        for d in range(4):
            n = nbrs[d]
            if edges[d] != kind or n < 0 or self.edges[n] is None or n == cell:
                continue
            other = self._find(n * 16 + kind)
            if other == root:  # closing a loop
                self._open[root] -= 2
                continue
            if self._size[other] > self._size[root]:
                root, other = other, root
            self._parent[other] = root
            self._open[root] += self._open[other] - 2
            self._size[root] += self._size[other]
            self._chimneys[root] += self._chimneys[other]
            self._mask[root] |= self._mask[other]
        return root

    def _complete(self, kind: int, tiles: int, chimneys: int, mask: int) -> Feature:
        """Record a completion; ``mask`` holds the feature's cells (a bit per cell)."""
        feature = Feature(kind, tiles, chimneys, tuple(c for c in range(CELLS) if mask >> c & 1))
        self.features.append(feature)
        self.complete_count[kind] += 1
        self.complete_mask[kind] |= mask
        have = self.have
        if kind == VILLA:
            have[H_VILLAS] += 1
            self.villa_chimneys.append(chimneys)
        else:
            have[have_index(kind)] += 1
            if kind in LANDSCAPES:
                have[H_LANDSCAPES] += 1
                if tiles >= 3:
                    have[H_LANDSCAPES_3PLUS] += 1
            elif kind in DWELLINGS:
                have[H_DWELLINGS] += 1
        return feature

    # -- final scoring helpers ----------------------------------------------
    def frame_points(self) -> int:
        """R10.5: each goal whose line crosses a complete feature of its kind scores."""
        return sum(vp for kind, vp, mask in self.frame_goals if self.complete_mask[kind] & mask)

    def render(self) -> list[str]:
        """The district as text: 3x3 characters a cell (edges around, centre inside).

        Centre: villa chimney count, $ market, B bakery, F fountain; empty cells show
        s (scroll token) or x (spade space).
        """
        short = {"G": ".", "dM": "m", "dB": "b", "dA": "a", "dR": "r"}

        def ch(code: int) -> str:
            name = EDGE_NAMES[code]
            return short.get(name, name)

        center = {SINGLES[0]: "$", SINGLES[1]: "B", SINGLES[2]: "F"}
        buildings = {c: b for c, _, _, b in self.history}
        lines = []
        for r in range(SIZE):
            top, mid, bot = [], [], []
            for c in range(SIZE):
                cell = r * SIZE + c
                e = self.edges[cell]
                if e is None:
                    mark = "s" if cell in self.scrolls else (
                        "x" if self.board and cell == self.board.spade else " ")
                    top.append("   ")
                    mid.append(f" {mark} ")
                    bot.append("   ")
                    continue
                mid_ch = center.get(buildings.get(cell, 0), str(self.chimneys_at[cell] or "+"))
                top.append(f" {ch(e[0])} ")
                mid.append(f"{ch(e[3])}{mid_ch}{ch(e[1])}")
                bot.append(f" {ch(e[2])} ")
            lines += ["|" + "|".join(x) + "|" for x in (top, mid, bot)]
            lines.append("+" + "+".join(["---"] * SIZE) + "+")
        return ["+" + "+".join(["---"] * SIZE) + "+", *lines]
