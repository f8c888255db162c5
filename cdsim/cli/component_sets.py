"""Commands about component sets: components check, components show."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from cdsim.cli.app import (
    ComponentsOpt,
    app,
)
from cdsim.rules.components import load_components

if TYPE_CHECKING:
    pass


components_app = typer.Typer(help="Validate and inspect component sets.", no_args_is_help=True)
app.add_typer(components_app, name="components")


@components_app.command("check")
def components_check(
    path: Annotated[Path, typer.Argument(help="Component folder or single TOML file.")],
) -> None:
    """Validate a component set; prints what it holds, or one line naming the problem."""
    comps = load_components(path)
    print(f"ok: {len(comps.light)} light + {len(comps.dark)} dark tiles "
          f"({len(comps.tile_types)} kinds), {len(comps.objectives)} objective and "
          f"{len(comps.fountains)} fountain cards, {len(comps.frame_parts)} frame parts, "
          f"{len(comps.boards)} boards; set {comps.digest[:12]}"
          + (" (the reconstructed default)" if comps.is_default else ""))


@components_app.command("show")
def components_show(
    html_file: Annotated[Path, typer.Option(
        "--html", help="The page to write (one self-contained HTML file).", show_default=False)],
    components: ComponentsOpt = None,
) -> None:
    """Draw a component set on one HTML page: every tile type with its count, the district
    boards, the frame parts with their goals, the objective and fountain cards, each with
    its provenance, to check a transcription piece by piece.

    Example: cdsim components show --components my-set/ --html my-set.html"""
    from cdsim.view.pages import components_page, write_page

    comps = load_components(components)
    source = str(components) if components else "the reconstructed default set"
    write_page(html_file, components_page(comps, source))
    print(f"wrote {html_file}: {len(comps.tile_types)} tile types, {len(comps.boards)} boards, "
          f"{len(comps.frame_parts)} frame parts, {len(comps.objectives)} objective and "
          f"{len(comps.fountains)} fountain cards")
