"""The Strategy protocol and what it is handed, re-exported for strategy authors
(docs/strategies.md): the observation, the options, and the box's component types a
strategy reads (``view.components``: ``TileType``, ``ObjectiveCard``, ``FountainCard``,
``FramePart``, ``FrameGoal``, ``Board``) and its district's (``District``, ``Feature``).

They are defined in ``cdsim.games.carpe_diem.rules`` (``strategy``, ``observation``, ``options``,
``components``, ``district``) so that the engine can type against them without importing
this package (the layers: strategies import cdsim, not the reverse).

A strategy for another game (The Castles of Tuscany, the Mediterranean) is written to the
seam's protocol instead, ``GameStrategy`` (``game`` and ``choose(view) -> int``), handed a
``GameView`` (its seat, its observation as read-only JSON-like data, the options in words):
``cdsim.games.strategy``; ``strategies/examples/`` holds one to copy for each game.
"""

from cdsim.games.carpe_diem.rules.components import (
    Board,
    FountainCard,
    FrameGoal,
    FramePart,
    ObjectiveCard,
    TileType,
)
from cdsim.games.carpe_diem.rules.district import District, Feature
from cdsim.games.carpe_diem.rules.observation import DistrictView, HiddenInformation, Holdings, Observation
from cdsim.games.carpe_diem.rules.options import (
    Action,
    CircleChoice,
    FountainChoice,
    Move,
    Payment,
    SealBuild,
    Start,
    Take,
)
from cdsim.games.carpe_diem.rules.strategy import PlayerView, Strategy
from cdsim.games.strategy import GameStrategy, GameView, Json

__all__ = ["Action", "Board", "CircleChoice", "District", "DistrictView", "Feature",
           "FountainCard", "FountainChoice", "FrameGoal", "FramePart", "GameStrategy",
           "GameView", "HiddenInformation", "Holdings", "Json", "Move", "ObjectiveCard",
           "Observation", "Payment", "PlayerView", "SealBuild", "Start", "Strategy", "Take",
           "TileType"]
