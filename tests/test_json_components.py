"""The JSON component sets of Castles and the Mediterranean read through one module
(cdsim/games/json_components.py): an override that changes nothing is the built-in set (its
digest and its text), whatif's ``--set`` short of a whole number names one or says there is
none, a game whose numbers are all counts refuses a negative one, and a game with signed
numbers leaves them to the core."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cdsim import core
from cdsim.errors import CdsimError
from cdsim.games.castles.components import COMPONENTS as CASTLES
from cdsim.games.json_components import JsonSet
from cdsim.games.mediterranean.components import COMPONENTS as MEDITERRANEAN

pytestmark = pytest.mark.skipif(not core.available(), reason="needs the compiled core")


@pytest.mark.parametrize("components", [CASTLES, MEDITERRANEAN], ids=lambda c: c.name)
def test_an_override_that_changes_nothing_is_the_built_in_set(components: JsonSet,
                                                              tmp_path: Path) -> None:
    base = json.loads(components.components_text(None))
    table = components.tables(base)[0]
    same = tmp_path / "same.json"
    same.write_text(json.dumps({table: base[table]}))
    assert components.components_text(str(same)) == components.components_text(None)
    digest, builtin = components.components_digest(str(same))
    assert digest == components.components_digest(None)[0] and not builtin


@pytest.mark.parametrize(("components", "spelled", "says"), [
    (CASTLES, "colour_bonus.castle", "name a key of the entry, e.g. colour_bonus.castle.first=5"),
    (CASTLES, "colour_bonus", "name a key of colour_bonus, e.g. colour_bonus.castle.first=5"),
    (CASTLES, "pieces", "name a key of pieces; it holds no whole number --set can change"),
    (MEDITERRANEAN, "bonus_tiles.1", "e.g. bonus_tiles.1.points=5"),
    (MEDITERRANEAN, "rules", "e.g. rules.coins.value=5"),
    (MEDITERRANEAN, "cities.Nope.x", "cities has no entry 'Nope' (its entries: Crete,"),
])
def test_a_set_short_of_a_whole_number_names_one(components: JsonSet, spelled: str,
                                                 says: str) -> None:
    base = json.loads(components.components_text(None))
    table, *address = spelled.split(".")
    with pytest.raises(CdsimError, match=r"^--set ") as e:
        components.set_value(base, table, address, 3, f"{spelled}=3")
    assert says in str(e.value) and "\n" not in str(e.value), str(e.value)


def test_counts_are_refused_below_zero_and_a_signed_number_goes_to_the_core() -> None:
    base = json.loads(CASTLES.components_text(None))
    with pytest.raises(CdsimError, match="first is a count or VP, 0 or more, got -1"):
        CASTLES.set_value(base, "colour_bonus", ["castle", "first"], -1, "x")
    base = json.loads(MEDITERRANEAN.components_text(None))
    wind = MEDITERRANEAN.set_value(base, "rowing_cards", ["1", "wind"], -2, "x")
    assert wind["rowing_cards"][0]["wind"] == -2  # type: ignore[index]
    assert MEDITERRANEAN.set_problem(json.dumps({**base, **wind})) is None
