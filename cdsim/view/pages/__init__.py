"""Self-contained HTML pages: a game's replay (Carpe Diem's, The Castles of Tuscany's) and a
component set's sheet.

Each page is one file: the template (``*.html``), the style (``style.css``) and the
scripts (``common.js``, a replay's step player ``stepper.js``, and the page's own) inlined,
the data embedded as JSON. No network, no external script or font: it opens from disk in any
browser.
"""

from __future__ import annotations

import html
import json
import re
from importlib import resources
from pathlib import Path
from typing import Any

from cdsim.errors import CdsimError


def _asset(name: str) -> str:
    return resources.files(__name__).joinpath(name).read_text(encoding="utf-8")


def _embed(data: Any) -> str:
    """JSON that is safe inside <script>: no '<' can end the element early."""
    return json.dumps(data, separators=(",", ":")).replace("<", "\\u003c")


def _page(template: str, title: str, data: Any, *scripts: str) -> str:
    script = "\n".join(_asset(name) for name in ("common.js", *scripts))
    parts = {"{{title}}": html.escape(title), "{{style}}": _asset("style.css"),
             "{{data}}": _embed(data), "{{script}}": script,
             "{{controls}}": _asset("controls.html")}  # a replay's step controls
    return re.sub(r"\{\{\w+\}\}", lambda m: parts[m[0]], _asset(template))


# Every replay page steps through one script (stepper.js: the controls, the keys, play and
# the slider); the game's own script draws a step and calls stepper() once.
REPLAY_SCRIPTS = {"replay.html": "replay.js", "castles.html": "castles.js",
                  "mediterranean.html": "mediterranean.js"}


def _replay(template: str, title: str, data: Any) -> str:
    return _page(template, title, data, "stepper.js", REPLAY_SCRIPTS[template])


def replay_page(data: dict[str, object], title: str) -> str:
    """The replay of one game played at its game's own table (``GameSpec.play``): ``data``
    is its ``PlayedGame.replay`` (Carpe Diem's ``cdsim.games.carpe_diem.view.replay.Recorder.
    finish()``), ``title`` its game's."""
    seats = data["players"]
    assert isinstance(seats, list)  # one entry per seat
    n = len(seats)
    return _replay("replay.html", f"{title} replay: seed {data['seed']}, {n} players", data)


def castles_page(data: dict[str, object]) -> str:
    """The replay of one game of The Castles of Tuscany; ``data`` is
    ``cdsim.view.castles.replay_data``. The same machinery as Carpe Diem's replay (the
    style, the step player ``stepper.js``, ``common.js``'s helpers), its own drawing
    (``castles.js``)."""
    seats = data["players"]
    assert isinstance(seats, list)  # one entry per seat
    return _replay("castles.html", f"{data['title']} replay: seed {data['seed']}, "
                   f"{len(seats)} players", data)


def mediterranean_page(data: dict[str, object]) -> str:
    """The replay of one game of the Mediterranean trading game; ``data`` is
    ``cdsim.view.mediterranean.replay_data`` (a face-down rowing card hidden until turned
    up). The same machinery as the other replays, its own drawing (``mediterranean.js``)."""
    seats = data["players"]
    assert isinstance(seats, list)  # one entry per seat
    return _replay("mediterranean.html", f"{data['title']} replay: seed {data['seed']}, "
                   f"{len(seats)} players", data)


def components_page(data: dict[str, object], title: str) -> str:
    """Every piece of a component set, drawn, for checking a transcription piece by piece;
    ``data`` is its game's ``ComponentFiles.sheet`` (Carpe Diem's:
    ``cdsim.games.carpe_diem.view.components.components_data``), ``title`` the page's."""
    return _page("components.html", title, data, "components.js")


def write_page(path: Path, page: str) -> None:
    """Write a page; an unwritable path is the user's error (one line, exit 2)."""
    try:
        path.write_text(page, encoding="utf-8")
    except OSError as exc:
        raise CdsimError(f"{path}: cannot write: {exc.strerror or exc}") from None
