"""The component set as the compiled core receives it (cdsim/games/carpe_diem/handover.py)."""

import json
from pathlib import Path

from cdsim.games.carpe_diem.handover import components_dict
from cdsim.games.carpe_diem.rules.components import load_components

FIXTURE = Path(__file__).parent.parent / "core" / "tests" / "data" / "components.json"


def test_the_cores_fixture_is_the_default_set_as_handed_over() -> None:
    """`cargo test` reads this file without Python: it must be what Python hands over
    now (regenerate it with `make core-fixture` after changing cdsim/games/carpe_diem/data)."""
    assert json.loads(FIXTURE.read_text()) == components_dict(load_components())


def test_handover_keeps_the_engines_draw_order() -> None:  # R2.1-R2.4: same shuffles
    c = load_components()
    data = components_dict(c)
    assert [f["id"] for f in data["fountains"]] == sorted(c.fountains)
    assert [p["id"] for p in data["frame_parts"]] == sorted(c.frame_parts)
    objectives = [o["id"] for o in data["objectives"]]
    assert [[objectives[i] for i in deck] for deck in data["decks"]] == [
        list(c.decks[d]) for d in "ABCD"]
    assert data["light"] == list(c.light) and data["dark"] == list(c.dark)
