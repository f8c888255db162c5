"""A Carpe Diem component set as its sheet draws it (components.html and components.js here):
every entry with its provenance, and what the set changes from its base."""

from __future__ import annotations

from cdsim.games.carpe_diem.rules.components import Components
from cdsim.games.carpe_diem.rules.kinds import EDGE_NAMES
from cdsim.games.carpe_diem.rules.overrides import shown


def components_data(c: Components, source: str) -> dict[str, object]:
    """A component set as the sheet draws it: every entry with its provenance."""
    counts = {i: 0 for i in range(len(c.tile_types))}
    for t in (*c.light, *c.dark):
        counts[t] += 1
    return {
        "source": source,
        "digest": c.digest[:12],
        "default": c.is_default,
        "tiles": [[t.id, list(t.edges), t.chimneys, t.building, int(t.dark), counts[i],
                   t.provenance, " ".join(EDGE_NAMES[e] for e in t.edges)]
                  for i, t in enumerate(c.tile_types)],
        "boards": [[b.id, b.spade, sorted(b.scrolls), b.provenance] for b in c.boards],
        "parts": [[p.id, [[g.kind, g.vp, g.line] for g in p.goals], p.provenance]
                  for p in (c.frame_parts[k] for k in sorted(c.frame_parts))],
        "cards": {o.id: {"deck": o.deck, "pay": o.pay, "text": o.describe(),
                         "provenance": o.provenance} for o in c.objectives.values()},
        "fountains": [[f.id, f.goal, f.vp, f.provenance] for f in c.fountains.values()],
        "scroll": list(c.scroll_points),
        "villa": list(c.villa_points_table),
        "villa_extra": c.villa_points_per_extra,
        "base": c.base,
        # what the set changes from its base: table, entry id (null: a scoring table), key
        # ("": the whole entry added or removed), old and new as a component file spells them
        "changes": [[x.table, x.entry, x.key, shown(x.old), shown(x.new)] for x in c.changes],
    }


__all__ = ["components_data"]
