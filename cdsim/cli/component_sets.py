"""Commands about component sets: components check, show, export, diff."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from cdsim.cli.app import (
    ComponentsOpt,
    app,
)
from cdsim.errors import CdsimError
from cdsim.rules.components import FILES, compare, component_texts, load_components

components_app = typer.Typer(help="Validate, inspect, export and compare component sets.",
                             no_args_is_help=True)
app.add_typer(components_app, name="components")

SET_HELP = ('"default" (the shipped set), a component folder, a single component file or an '
            "override file (base = ... and only what changes).")


@components_app.command("check")
def components_check(
    path: Annotated[Path, typer.Argument(help=f"The set to check: {SET_HELP}")],
) -> None:
    """Validate a component set; prints what it holds and what it changes from its base
    (the default set, or an override's base), or one line naming the problem."""
    comps = load_components(path)
    print(f"ok: {len(comps.light)} light + {len(comps.dark)} dark tiles "
          f"({len(comps.tile_types)} kinds), {len(comps.objectives)} objective and "
          f"{len(comps.fountains)} fountain cards, {len(comps.frame_parts)} frame parts, "
          f"{len(comps.boards)} boards; set {comps.digest[:12]}"
          + (" (the reconstructed default)" if comps.is_default else ""))
    if comps.base:
        count = len(comps.changes)
        print(f"changes from {comps.base}: " + (f"{count} key{'s' if count != 1 else ''}"
                                                if count else "none"))
        for change in comps.changes:
            print(f"  {change.line()}")


@components_app.command("show")
def components_show(
    html_file: Annotated[Path, typer.Option(
        "--html", help="The page to write (one self-contained HTML file).", show_default=False)],
    components: ComponentsOpt = None,
) -> None:
    """Draw a component set on one HTML page: every tile type with its count, the district
    boards, the frame parts with their goals, the objective and fountain cards, each with
    its provenance, to check a transcription piece by piece. The entries the set changes
    from its base (an override's base, else the default set) are marked, with their old
    values.

    Example: cdsim components show --components my-set/ --html my-set.html"""
    from cdsim.view.pages import components_page, write_page

    comps = load_components(components)
    source = str(components) if components else "the reconstructed default set"
    write_page(html_file, components_page(comps, source))
    print(f"wrote {html_file}: {len(comps.tile_types)} tile types, {len(comps.boards)} boards, "
          f"{len(comps.frame_parts)} frame parts, {len(comps.objectives)} objective and "
          f"{len(comps.fountains)} fountain cards"
          + (f"; {len(comps.changes)} changed keys marked" if comps.changes else ""))


@components_app.command("export")
def components_export(
    folder: Annotated[Path, typer.Argument(help="The folder to write the five files into.")],
    components: ComponentsOpt = None,
    force: Annotated[bool, typer.Option(
        "--force", help="Write into a folder that is not empty (the five files are replaced, "
        "nothing else is touched).")] = False,
) -> None:
    """Write a component set as a folder of its five TOML files, to edit: the shipped set
    (with its comments), or with --components an override merged onto its base. The
    folder loads as the same set (the same digest).

    Example: cdsim components export my-set/ && cdsim components check my-set/"""
    comps = load_components(components)
    texts = component_texts(components)
    if folder.exists() and not folder.is_dir():
        raise CdsimError(f"{folder}: not a folder")
    if folder.is_dir() and any(folder.iterdir()) and not force:
        raise CdsimError(f"{folder}: not empty; give --force to write the component files "
                         "into it")
    try:
        folder.mkdir(parents=True, exist_ok=True)
        for name in FILES:
            (folder / f"{name}.toml").write_bytes(texts[name])
    except OSError as exc:
        raise CdsimError(f"{folder}: cannot write: {exc.strerror or exc}") from None
    print(f"wrote {', '.join(f'{n}.toml' for n in FILES)} to {folder} (set "
          f"{comps.digest[:12]}); edit them and pass --components {folder}")


@components_app.command("diff")
def components_diff(
    old: Annotated[str, typer.Argument(help=f"The set to compare from: {SET_HELP}")],
    new: Annotated[str, typer.Argument(help="The set to compare to (the same kinds).")],
) -> None:
    """List what changes from one component set to another: each entry's changed keys,
    old -> new (or an entry added or removed); "no differences" when the sets are the same.

    Example: cdsim components diff default variants/b05.toml"""
    changes = compare(old, new)
    for change in changes:
        print(change.line())
    if not changes:
        a, b = load_components(old).digest, load_components(new).digest
        print("no differences" + ("" if a == b else f" in any entry (the files differ only in "
                                  f"comments, layout or order: sets {a[:12]} and {b[:12]})"))
