"""A component set of JSON tables on its page (``cdsim components show --game NAME`` of a
game whose set is JSON tables, ``GameView.components_page``): the page's style and one table
of entries, each with its provenance (``rulebook`` or ``reconstructed``), the entries an
override changes outlined with their old values. Each game's sheet (in its package) puts its
tables on its page with these, and draws what a table cannot show (a board's pieces)."""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence
from typing import Any

# the page's style: the tables, the provenance tags, a changed entry, drawn pieces
STYLE = """
body{font:15px/1.45 system-ui,sans-serif;margin:2rem auto;max-width:72rem;padding:0 1rem;color:#222}
h1 span{font-weight:400;color:#666;font-size:.7em;margin-left:.5em}
table{border-collapse:collapse;margin:.5rem 0 1.5rem}td,th{border:1px solid #ccc;padding:.25rem .6rem}
th{background:#f3f3f3;text-align:left}.tag{font-size:.8em;border-radius:3px;padding:0 .35em}
.rulebook{background:#dfeedd}.reconstructed{background:#f6e3c6}tr.changed td{outline:2px solid #c0504d}
.pieces{display:flex;flex-wrap:wrap;gap:1rem}.piece{border:1px solid #ddd;padding:.4rem}
.meta{color:#555}
"""


def _cell(value: Any) -> str:
    if isinstance(value, list):
        return html.escape(", ".join(map(str, value)) or "-")
    return html.escape(str(value))


def table(name: str, entries: Sequence[Mapping[str, object]],
          base: Sequence[Mapping[str, object]] | None) -> str:
    """The table ``name``: an entry a row, its keys as columns and its provenance last; given
    ``base`` (the built-in set's entries), each entry that differs outlined, its old values
    in its title."""
    keys = [k for k in dict.fromkeys(k for e in entries for k in e) if k != "source"]
    head = "".join(f"<th>{html.escape(k)}</th>" for k in keys) + "<th>source</th>"
    rows = []
    for i, e in enumerate(entries):
        old = base[i] if base is not None and i < len(base) else None
        changed = base is not None and old != e
        was = ""
        if changed and old is not None:
            said = ", ".join(f"{k}={old.get(k)}" for k in keys if old.get(k) != e.get(k))
            was = f' title="was: {html.escape(said)}"'
        source = str(e.get("source", ""))
        rows.append(f'<tr{" class=changed" if changed else ""}{was}>'
                    + "".join(f"<td>{_cell(e.get(k))}</td>" for k in keys)
                    + f'<td><span class="tag {html.escape(source)}">{html.escape(source)}'
                    "</span></td></tr>")
    return (f'<h2 id="{html.escape(name)}">{html.escape(name.replace("_", " "))}</h2>'
            f"<table><tr>{head}</tr>{''.join(rows)}</table>")


def head(heading: str, source: str, digest: str, unlisted: str, rules_doc: str,
         data: Mapping[str, object], builtin: Mapping[str, object]) -> tuple[list[str], list[str]]:
    """A sheet's first parts (its ``heading`` as html, the set's source and digest, what the
    two tags mean: ``unlisted`` the verb of a reconstructed entry, the rulebook its
    ``rules_doc`` names) and the names of the tables ``data`` changes from ``builtin``, the
    changes named on the page when there are some."""
    parts = [f"<h1>{heading}</h1>",
             f'<p class="meta">{html.escape(source)}; set {html.escape(digest[:12])}. '
             '<span class="tag rulebook">rulebook</span>: as the rulebook prints it; '
             '<span class="tag reconstructed">reconstructed</span>: the rulebook does not '
             f"{unlisted} it ({rules_doc}).</p>"]
    changed = [k for k in data if builtin.get(k) != data[k]]
    if changed:
        parts.append(f'<p id="changes">Changed from the built-in set: '
                     f'{html.escape(", ".join(changed))} (outlined; hover for the old values).</p>')
    return parts, changed


def page(title: str, source: str, parts: Sequence[str]) -> str:
    """The sheet's whole page: titled ``title`` and the set's ``source``, the style, ``parts``."""
    return ("<!DOCTYPE html><html lang=en><head><meta charset=utf-8><title>"
            f"{title} components: {html.escape(source)}</title><style>{STYLE}</style></head>"
            f'<body data-ready="1">{"".join(parts)}</body></html>')


__all__ = ["STYLE", "head", "page", "table"]
