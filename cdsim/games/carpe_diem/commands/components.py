"""``cdsim components check/show/export/diff`` of a Carpe Diem set (its TOML files and
overrides): the hook ``GameSpec.component_files``."""

from __future__ import annotations

from cdsim.games.features import ComponentFiles


def check(path: str | None) -> list[str]:
    """What the set holds, and what it changes from its base (the default set, or an
    override's base)."""
    from cdsim.games.carpe_diem.rules.components import load_components

    comps = load_components(path)
    lines = [f"ok: {len(comps.light)} light + {len(comps.dark)} dark tiles "
             f"({len(comps.tile_types)} kinds), {len(comps.objectives)} objective and "
             f"{len(comps.fountains)} fountain cards, {len(comps.frame_parts)} frame parts, "
             f"{len(comps.boards)} boards; set {comps.digest[:12]}"
             + (" (the reconstructed default)" if comps.is_default else "")]
    if comps.base:
        count = len(comps.changes)
        lines.append(f"changes from {comps.base}: " + (f"{count} key{'s' if count != 1 else ''}"
                                                       if count else "none"))
        lines += [f"  {change.line()}" for change in comps.changes]
    return lines


def sheet(path: str | None, source: str) -> tuple[dict[str, object], str]:
    """The components page's data, and what it draws in words."""
    from cdsim.games.carpe_diem.rules.components import load_components
    from cdsim.games.carpe_diem.view.components import components_data

    comps = load_components(path)
    held = (f"{len(comps.tile_types)} tile types, {len(comps.boards)} boards, "
            f"{len(comps.frame_parts)} frame parts, {len(comps.objectives)} objective and "
            f"{len(comps.fountains)} fountain cards"
            + (f"; {len(comps.changes)} changed keys marked" if comps.changes else ""))
    return components_data(comps, source), held


def export(path: str | None) -> tuple[dict[str, bytes], str]:
    """The set as its five TOML files (the shipped set with its comments, or an override
    merged onto its base), by file name, and its digest."""
    from cdsim.games.carpe_diem.rules.components import component_texts, load_components

    comps = load_components(path)
    texts = {f"{name}.toml": text for name, text in component_texts(path).items()}
    return texts, comps.digest


def diff(old: str, new: str) -> list[str]:
    """Each entry's changed keys, old -> new, a line each; or the line saying none is."""
    from cdsim.games.carpe_diem.rules.components import compare, load_components

    lines = [change.line() for change in compare(old, new)]
    if lines:
        return lines
    a, b = load_components(old).digest, load_components(new).digest
    return ["no differences" + ("" if a == b else f" in any entry (the files differ only in "
                                f"comments, layout or order: sets {a[:12]} and {b[:12]})")]


COMPONENT_FILES = ComponentFiles(check=check, sheet=sheet, export=export, diff=diff)

__all__ = ["COMPONENT_FILES", "check", "diff", "export", "sheet"]
