"""The component set as the compiled core receives it: plain JSON from the validated
``Components`` (the core has no TOML parser of its own, so one set of checks rules).

Every list is in the order the Python engine draws from it, so the core's shuffles
pick the same things: tile types by index, objective cards in file order with the
decks as indices into them, fountain cards and frame parts sorted by id (as
``GameState`` sorts them), boards in file order.
"""

from __future__ import annotations

import json
from functools import cache
from typing import Any

from cdsim import core
from cdsim.games.carpe_diem.rules.components import Components, load_components

DECKS = "ABCD"


def components_dict(c: Components) -> dict[str, Any]:  # JSON for the page's script: values of every shape
    objective_ids = list(c.objectives)
    index = {cid: i for i, cid in enumerate(objective_ids)}
    return {
        "digest": c.digest,
        "tile_types": [{"id": t.id, "dark": t.dark, "edges": list(t.edges), "chimneys": t.chimneys,
                        "building": t.building, "orientations": [list(o) for o in t.orientations]}
                       for t in c.tile_types],
        "light": list(c.light),
        "dark": list(c.dark),
        "objectives": [{"id": o.id, "deck": o.deck, "pay": o.pay,
                        "requires": [list(r) for r in o.requires],
                        "vp": o.vp, "coins": o.coins, "bread": o.bread, "steps": o.steps}
                       for o in c.objectives.values()],
        "decks": [[index[cid] for cid in c.decks[d]] for d in DECKS],
        "fountains": [{"id": f.id, "goal": f.goal, "vp": f.vp}
                      for f in (c.fountains[k] for k in sorted(c.fountains))],
        "frame_parts": [{"id": p.id, "goals": [[g.kind, g.vp, g.line] for g in p.goals]}
                        for p in (c.frame_parts[k] for k in sorted(c.frame_parts))],
        "boards": [{"id": b.id, "spade": b.spade, "scrolls": sorted(b.scrolls)} for b in c.boards],
        "scroll_points": list(c.scroll_points),
        "villa_points_table": list(c.villa_points_table),
        "villa_points_per_extra": c.villa_points_per_extra,
    }


def components_json(c: Components) -> str:
    return json.dumps(components_dict(c), separators=(",", ":"))


@cache
def core_components(path: str | None) -> Any:
    """The core's copy of a component set (made once per process and path)."""
    module = core.module()
    assert module is not None
    comps: Components = load_components(path)
    return module.Components(components_json(comps))
