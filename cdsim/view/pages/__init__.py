"""Self-contained HTML pages: any game's replay and a component set's sheet, put together
from what every page shares and the page's own files in its game's package
(``GameSpec.view``'s ``replay`` and ``sheet_page``).

Each page is one file: the page's template, the shared style (``style.css``, then the page's
own styles) and the scripts (``common.js``, a replay's step player ``stepper.js``, then the
page's own) inlined, the data embedded as JSON. No network, no external script or font: it
opens from disk in any browser. Nothing here names a game.
"""

from __future__ import annotations

import html
import json
import re
from importlib import resources
from pathlib import Path
from typing import Any

from cdsim.errors import CdsimError
from cdsim.games.views import PageFiles, ReplayPage, SheetPage


def _asset(name: str) -> str:
    return resources.files(__name__).joinpath(name).read_text(encoding="utf-8")


def _embed(data: Any) -> str:
    """JSON that is safe inside <script>: no '<' can end the element early."""
    return json.dumps(data, separators=(",", ":")).replace("<", "\\u003c")


def _page(page: PageFiles, title: str, data: Any, *shared: str) -> str:
    """``page``'s template with the shared parts and its own filled in: the style
    (``style.css``, then ``page``'s styles), the scripts (``common.js``, the ``shared`` ones
    named, then ``page``'s), ``data`` embedded."""
    script = "\n".join((*map(_asset, ("common.js", *shared)), *map(page.text, page.scripts)))
    style = "\n".join((_asset("style.css"), *map(page.text, page.styles)))
    parts = {"{{title}}": html.escape(title), "{{style}}": style,
             "{{data}}": _embed(data), "{{script}}": script,
             "{{controls}}": _asset("controls.html")}  # a replay's step controls
    return re.sub(r"\{\{\w+\}\}", lambda m: parts[m[0]], page.text(page.template))


def replay_page(page: ReplayPage, data: dict[str, object], title: str) -> str:
    """The replay of one game: ``page`` its game's own files (``GameSpec.view``'s
    ``replay``), ``data`` its replay's data (its view's ``recorded.replay_data``, or its own
    table's ``PlayedGame.replay``), ``title`` its game's. Every replay page steps through one
    script (``stepper.js``: the controls, the keys, play and the slider); the game's own last
    script draws a step and calls ``stepper()`` once."""
    seats = data["players"]
    assert isinstance(seats, list)  # one entry per seat
    return _page(page, f"{title} replay: seed {data['seed']}, {len(seats)} players", data,
                 "stepper.js")


def components_page(page: SheetPage, data: dict[str, object], title: str) -> str:
    """Every piece of a component set, drawn, for checking a transcription piece by piece:
    ``page`` its game's sheet's own files (``GameSpec.view``'s ``sheet_page``), ``data`` the
    set as its game's ``ComponentFiles.sheet`` gives it, ``title`` the page's."""
    return _page(page, title, data)


def write_page(path: Path, page: str) -> None:
    """Write a page; an unwritable path is the user's error (one line, exit 2)."""
    try:
        path.write_text(page, encoding="utf-8")
    except OSError as exc:
        raise CdsimError(f"{path}: cannot write: {exc.strerror or exc}") from None
