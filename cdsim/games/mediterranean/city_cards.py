"""``cdsim whatif --set`` names a Mediterranean city card by its city: every city has several
cards (two in the built-in set, MC5), so a card is its city and its place among that city's
cards, ``city_cards.Saguntum-2.gold.grapes=4`` (a city of two words joined by ``-``:
``Carthago-Nova-1``), or its number in the table (``city_cards.2``). A city alone names one
card only where it has one; else one line lists its cards' names."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from cdsim.errors import CdsimError

TABLE = "city_cards"
SetValue = Callable[[Mapping[str, object], str, list[str], int, str], dict[str, object]]


def card_names(cards: object) -> list[str]:
    """Each city card's name, in the table's order: its city (spaces as ``-``) and its place
    among that city's cards (``Saguntum-1``); "" for an entry without a city."""
    seen: dict[str, int] = {}
    names = []
    for card in cards if isinstance(cards, list) else []:
        city = card.get("city") if isinstance(card, dict) else None
        if not isinstance(city, str):
            names.append("")
            continue
        city = city.replace(" ", "-")
        seen[city] = seen.get(city, 0) + 1
        names.append(f"{city}-{seen[city]}")
    return names


def _number(cards: object, wanted: str, spelled: str) -> str:
    """The card ``wanted`` names (its name, or its city where that has one card) as its
    number in the table; a number stays as it is; anything else one line naming the
    ``--set`` with the names it takes."""
    if wanted.isdigit():
        return wanted
    names = card_names(cards)
    if wanted in names:
        return str(names.index(wanted) + 1)
    of_city = [n for n in names if n.rpartition("-")[0] == wanted.replace(" ", "-")]
    if len(of_city) == 1:
        return str(names.index(of_city[0]) + 1)
    if of_city:
        raise CdsimError(f"--set {spelled!r}: {wanted} has {len(of_city)} city cards: name "
                         f"one, {' or '.join(f'{TABLE}.{n}' for n in of_city)}")
    example = ", ".join(n for n in names[:2] if n)
    raise CdsimError(f"--set {spelled!r}: {TABLE} has no card {wanted!r} (a card is its city "
                     f"and its place among that city's cards, e.g. {example}; or its number, "
                     f"1-{len(names)})")


def by_city(set_value: SetValue) -> SetValue:
    """``set_value`` (the JSON set's ``--set``), where a city card may be named by its city
    (``card_names``)."""
    def named(base: Mapping[str, object], table: str, address: list[str], value: int,
              spelled: str) -> dict[str, object]:
        if table == TABLE and address:
            address = [_number(base.get(TABLE), address[0], spelled), *address[1:]]
        return set_value(base, table, address, value, spelled)
    return named


__all__ = ["by_city", "card_names"]
