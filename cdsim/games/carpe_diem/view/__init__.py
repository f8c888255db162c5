"""What a Carpe Diem game looks like to a person: the trace text, the HTML replay's data and
the component sheet's; its replay page's own files beside them (``replay.html``,
``replay.js``). The pages are put together by ``cdsim.view.pages`` (the style, the step
controls, the shared scripts), which reaches this package through its spec's ``view``."""

from __future__ import annotations

from cdsim.games.views import GameView, ReplayPage

# its view as its spec names it: its replay page's files here; its games are told by its own
# table (GameSpec.play) and its sheet's data by its component files (ComponentFiles.sheet)
VIEW = GameView(ReplayPage(__name__), recorded=None, components_page=None)

__all__ = ["VIEW"]
