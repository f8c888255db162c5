"""The Mediterranean game's component set on one self-contained page (``cdsim components
show --game mediterranean``): every table with each entry's provenance (``rulebook`` or
``reconstructed``, docs/rules-mediterranean.md MC1-MC9), the entries an override changes
outlined with their old values. Its tables are drawn as every JSON set's are
(``cdsim.games.json_sheet``: one table per list); a table of named lists
(``distance_tiles``) is one table per list, a table of named entries (``rules``) one row
each."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from cdsim.games.json_sheet import head, page, table


def _rows(value: object) -> list[tuple[str, list[Mapping[str, object]]]]:
    """A top-level value as (suffix, entries) tables."""
    if isinstance(value, list):
        return [("", [e for e in value if isinstance(e, dict)])]
    if isinstance(value, dict):
        if all(isinstance(v, list) for v in value.values()):
            return [(f".{k}", [e for e in v if isinstance(e, dict)]) for k, v in value.items()]
        return [("", [{"key": k, **v} if isinstance(v, dict) else {"key": k, "value": v}
                      for k, v in value.items()])]
    return []


def components_page(data: Mapping[str, object], builtin: Mapping[str, object], source: str,
                    digest: str) -> str:
    """The page of the set ``data`` (every table), its entries that differ from ``builtin``
    outlined with their old values."""
    parts, changed = head("Mediterranean (Dirk Henn) <span>the component set, entry by entry</span>",
                          source, digest, "print", "docs/rules-mediterranean.md", data, builtin)
    for name, value in data.items():
        base = dict(_rows(builtin.get(name))) if name in changed else {}
        for suffix, entries in _rows(value):
            old: Sequence[Mapping[str, object]] | None = base.get(suffix)
            parts.append(table(name + suffix, entries, old))
    return page("Mediterranean", source, parts)


__all__ = ["components_page"]
