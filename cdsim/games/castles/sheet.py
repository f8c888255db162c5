"""The Castles of Tuscany's component set on one self-contained page (``cdsim components
show --game castles``): every table of the set with each entry's provenance (as printed in
the rulebook, or reconstructed), the territory pieces drawn as their two rows of five hexes,
and what an override changes from the built-in set, marked (its tables drawn as every JSON
set's are, ``cdsim.games.json_sheet``)."""

from __future__ import annotations

import html
from collections.abc import Mapping

from cdsim.games.json_sheet import head, page, table

# the pieces' letters (core/src/castles/components.rs): the colour each space takes
# (Colour::CODES: K castle, R city, T estate, F farm, Q quarry, V village, M monastery, W cart)
SPACE = {"K": ("castle", "#7a5aa6"), "R": ("city", "#c0504d"), "T": ("estate", "#4e8f4a"),
         "F": ("farm", "#c9b458"), "Q": ("quarry", "#8c8c8c"), "V": ("village", "#d9893b"),
         "M": ("monastery", "#3f6fb0"), "W": ("cart", "#b5653b")}


def _hex(cx: float, cy: float, r: float, fill: str, label: str) -> str:
    points = " ".join(f"{cx + r * dx:.1f},{cy + r * dy:.1f}" for dx, dy in
                      ((0, -1), (0.866, -0.5), (0.866, 0.5), (0, 1), (-0.866, 0.5),
                       (-0.866, -0.5)))
    return (f'<polygon points="{points}" fill="{fill}" stroke="#333"><title>'
            f"{html.escape(label)}</title></polygon>")


def _piece(entry: Mapping[str, object]) -> str:
    """A territory piece: its left and right rows of five spaces, as hexes."""
    r, shapes = 14.0, []
    for row, key in enumerate(("left", "right")):
        for i, letter in enumerate(str(entry.get(key, ""))):
            name, fill = SPACE.get(letter, (letter, "#fff"))
            shapes.append(_hex(20 + i * 2 * 0.866 * r + row * 0.866 * r, 20 + row * 1.5 * r, r,
                               fill, f"{key} {i + 1}: {name}"))
    return (f'<div class="piece" data-piece="{html.escape(str(entry.get("name")))}"><b>'
            f'{html.escape(str(entry.get("name")))}</b> <span class="tag '
            f'{html.escape(str(entry.get("source")))}">{html.escape(str(entry.get("source")))}'
            f'</span><br><svg width="180" height="62">{"".join(shapes)}</svg></div>')


def components_page(data: Mapping[str, object], builtin: Mapping[str, object], source: str,
                    digest: str) -> str:
    """The page of the set ``data`` (every table), its entries that differ from ``builtin``
    outlined with their old values."""
    parts, changed = head("The Castles of Tuscany <span>the component set, piece by piece</span>",
                          source, digest, "list", "docs/rules-castles.md", data, builtin)
    for name, value in data.items():
        base = builtin.get(name) if name in changed else None
        if name == "pieces" and isinstance(value, list):
            parts.append('<h2 id="pieces">territory pieces</h2><div class="pieces">'
                         + "".join(_piece(e) for e in value) + "</div>")
        elif isinstance(value, list):
            parts.append(table(name, value, base if isinstance(base, list) else None))
        elif isinstance(value, dict):
            parts.append(table(name, [value], [base] if isinstance(base, dict) else None))
    return page("The Castles of Tuscany", source, parts)


__all__ = ["components_page"]
