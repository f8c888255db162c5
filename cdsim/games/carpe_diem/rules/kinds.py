"""Int codes for everything that appears on a tile, and the goods (docs/rules.md C1).

Edge kinds and feature kinds share one numbering: 1..9 are the edge kinds that
form features (villa, four landscapes, four dwelling colours); 10..12 are the
single-tile buildings, which sit in the centre of an all-meadow tile.
"""

from typing import Final

MEADOW: Final = 0
VILLA: Final = 1
POND: Final = 2
GARDEN: Final = 3
VINEYARD: Final = 4
CHICKEN_YARD: Final = 5
MERCHANT: Final = 6
BAKER: Final = 7
ADMINISTRATOR: Final = 8
ARTISAN: Final = 9
MARKET: Final = 10
BAKERY: Final = 11
FOUNTAIN: Final = 12
N_KINDS: Final = 13

EDGE_CODES: Final = {
    "G": MEADOW, "V": VILLA, "P": POND, "H": GARDEN, "W": VINEYARD, "C": CHICKEN_YARD,
    "dM": MERCHANT, "dB": BAKER, "dA": ADMINISTRATOR, "dR": ARTISAN,
}
EDGE_NAMES: Final = {v: k for k, v in EDGE_CODES.items()}
BUILDING_CODES: Final = {"market": MARKET, "bakery": BAKERY, "fountain": FOUNTAIN}

LANDSCAPES: Final = (POND, GARDEN, VINEYARD, CHICKEN_YARD)
DWELLINGS: Final = (MERCHANT, BAKER, ADMINISTRATOR, ARTISAN)
SINGLES: Final = (MARKET, BAKERY, FOUNTAIN)
MAX_LANDSCAPE_TILES: Final = 4  # R6.2: a landscape is 2-4 tiles

FEATURE_NAMES: Final = {
    VILLA: "villa", POND: "pond", GARDEN: "garden", VINEYARD: "vineyard",
    CHICKEN_YARD: "chicken_yard", MERCHANT: "merchant", BAKER: "baker",
    ADMINISTRATOR: "administrator", ARTISAN: "artisan", MARKET: "market",
    BAKERY: "bakery", FOUNTAIN: "fountain",
}
FEATURE_CODES: Final = {v: k for k, v in FEATURE_NAMES.items()}

# Goods, indexed 0..3 in a player's supply.
GRAPES: Final = 0
HERBS: Final = 1
CHICKENS: Final = 2
FISH: Final = 3
GOOD_NAMES: Final = ("grapes", "herbs", "chickens", "fish")
GOOD_CODES: Final = {n: i for i, n in enumerate(GOOD_NAMES)}

# R6.2: pond -> fish (rulebook); the other pairings are reconstructed from the names.
LANDSCAPE_GOOD: Final = {POND: FISH, GARDEN: HERBS, VINEYARD: GRAPES, CHICKEN_YARD: CHICKENS}

# Directions on the 6x6 district, clockwise; opposite(d) == d ^ 2.
NORTH: Final = 0
EAST: Final = 1
SOUTH: Final = 2
WEST: Final = 3
SIZE: Final = 6
CELLS: Final = SIZE * SIZE


def _neighbours() -> tuple[tuple[int, int, int, int], ...]:
    table = []
    for cell in range(CELLS):
        r, c = divmod(cell, SIZE)
        table.append((
            cell - SIZE if r > 0 else -1,
            cell + 1 if c < SIZE - 1 else -1,
            cell + SIZE if r < SIZE - 1 else -1,
            cell - 1 if c > 0 else -1,
        ))
    return tuple(table)


# NEIGHBOUR[cell][direction] is the adjacent cell, or -1 for the frame (R5.3).
NEIGHBOUR: Final = _neighbours()


def rotate(edges: tuple[int, int, int, int], quarter_turns: int) -> tuple[int, int, int, int]:
    """Edges after turning a tile clockwise: the north edge moves to the east.

    >>> rotate((1, 0, 0, 0), 1)
    (0, 1, 0, 0)
    """
    r = quarter_turns % 4
    return (edges[(0 - r) % 4], edges[(1 - r) % 4], edges[(2 - r) % 4], edges[(3 - r) % 4])
