"""What a Carpe Diem game looks like to a person: the trace text, the HTML replay's data and
the component sheet's; its pages' own files beside them (the replay's ``replay.html`` and
``replay.js``, the sheet's ``components.html`` and ``components.js``, and what both draw
with: ``draw.js``, its kinds, tiles, boards and cards, and ``style.css``). The pages are put
together by ``cdsim.view.pages`` (the style, the step controls, the shared scripts), which
reaches this package through its spec's ``view``."""

from __future__ import annotations

from cdsim.games.views import GameView, ReplayPage, SheetPage

# its view as its spec names it: its replay page's and its sheet's files here; its games are
# told by its own table (GameSpec.play) and its sheet's data by its component files
# (ComponentFiles.sheet)
VIEW = GameView(ReplayPage(__name__, scripts=("draw.js", "replay.js"), styles=("style.css",)),
                recorded=None, components_page=None,
                sheet_page=SheetPage(__name__, scripts=("draw.js", "components.js"),
                                     styles=("style.css",)))

__all__ = ["VIEW"]
