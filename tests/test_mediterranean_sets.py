"""``cdsim whatif --set`` names a Mediterranean city card by its city (audit of issue 60: the
set's entry names promised city names and ``city_cards.Saguntum`` was "no entry"): a card is
its city and its place among that city's cards (``Saguntum-2``), a city of several cards
alone is one line naming them, and an unknown name lists how cards are named."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cdsim.errors import CdsimError
from cdsim.games import game_spec
from cdsim.games.mediterranean.city_cards import card_names
from cdsim.study.whatif import build, parse_set
from tests.conftest import core_or_skip


def _cards() -> list[dict[str, object]]:
    keys = game_spec("mediterranean").set_keys
    assert keys is not None
    cards = json.loads(keys.text(None))["city_cards"]
    assert isinstance(cards, list)
    return cards


def _changed(tmp_path: Path, change: str) -> list[dict[str, object]]:
    spec = game_spec("mediterranean")
    study = build("c", [parse_set(change, spec)], None, tmp_path, [3], ["scripted"], 1,
                  {"scripted": 1000}, spec)
    (variant,) = study.variants
    assert variant.components is not None
    cards = json.loads(Path(variant.components).read_text())["city_cards"]
    assert isinstance(cards, list)
    return cards


def test_every_city_card_has_a_name_of_its_own() -> None:
    core_or_skip()
    names = card_names(_cards())
    assert all(names) and len(set(names)) == len(names), names
    assert names[:2] == ["Saguntum-1", "Saguntum-2"]


def test_a_city_card_named_by_its_city_is_the_card_changed(tmp_path: Path) -> None:
    core_or_skip()
    base = _cards()
    cards = _changed(tmp_path / "a", "city_cards.Saguntum-2.gold.grapes=4")
    assert cards[1]["gold"] == {**base[1]["gold"], "grapes": 4}  # type: ignore[dict-item]
    assert cards[0] == base[0] and cards[2:] == base[2:]
    # a city of two words, its words joined by "-": the same card as its number
    at = card_names(base).index("Carthago-Nova-1")
    by_name = _changed(tmp_path / "b", "city_cards.Carthago-Nova-1.gold.grapes=9")
    by_number = _changed(tmp_path / "c", f"city_cards.{at + 1}.gold.grapes=9")
    assert by_name == by_number and by_name[at] != base[at]


@pytest.mark.parametrize(("change", "said"), [
    ("city_cards.Saguntum.gold.grapes=4",
     "Saguntum has 2 city cards: name one, city_cards.Saguntum-1 or city_cards.Saguntum-2"),
    ("city_cards.Rome-1.gold.grapes=4",
     "city_cards has no card 'Rome-1' (a card is its city and its place among that city's "
     "cards, e.g. Saguntum-1, Saguntum-2; or its number, 1-30)"),
])
def test_a_city_card_that_names_no_one_card_is_one_line(
        change: str, said: str, tmp_path: Path) -> None:
    core_or_skip()
    with pytest.raises(CdsimError) as refused:
        _changed(tmp_path, change)
    line = str(refused.value)
    assert line == f"--set {change!r}: {said}", line
