"""What every game's pages inline (cdsim/view/pages/common.js and style.css) holds only what
more than one game's pages use: a game's own drawing and style sit in its package, named by
its view's page files (``PageFiles.scripts`` and ``styles``), where Carpe Diem's kinds,
tiles, boards and cards were inlined in every other game's pages."""

from __future__ import annotations

import re
from pathlib import Path

from cdsim.games import GAMES

PAGES = Path(__file__).resolve().parents[1] / "cdsim" / "view" / "pages"


def _own_files(name: str) -> str:
    """Every file of game ``name``'s own pages (its replay's and its sheet's), as one text."""
    view = GAMES[name].view
    assert view is not None, name
    pages = [page for page in (view.replay, view.sheet_page) if page is not None]
    return "\n".join(page.text(file) for page in pages for file in page.files())


def _users(word: str) -> list[str]:
    """The games whose own page files name ``word`` (not as a part of a longer name)."""
    named = re.compile(r"(?<![\w-])" + re.escape(word) + r"(?![\w-])")
    return [name for name, spec in GAMES.items() if spec.view and named.search(_own_files(name))]


def test_the_shared_script_declares_only_what_games_share() -> None:
    script = (PAGES / "common.js").read_text()
    declared = re.findall(r"^(?:const|let|function)\s+(\w+)", script, re.M)
    assert {"esc", "SEAT_COLORS"} <= set(declared)
    alone = {name: _users(name) for name in declared if len(_users(name)) < 2}
    assert alone == {}, alone  # a name one game's pages use belongs in that game's package


def test_the_shared_style_styles_only_what_games_share() -> None:
    """Each class a shared rule names is the step controls' (controls.html, stepper.js) or is
    used by more than one game's own page files."""
    style = re.sub(r"/\*.*?\*/", "", (PAGES / "style.css").read_text(), flags=re.S)
    classes = set(re.findall(r"\.([\w-]+)", " ".join(re.findall(r"([^{}]+)\{", style))))
    assert {"player", "final", "seat-chip"} <= classes
    controls = (PAGES / "controls.html").read_text() + (PAGES / "stepper.js").read_text()
    alone = {name: _users(name) for name in sorted(classes)
             if not re.search(r"(?<![\w-])" + re.escape(name) + r"(?![\w-])", controls)
             and len(_users(name)) < 2}
    assert alone == {}, alone  # a class one game's pages use belongs in that game's style
