"""The Strategy protocol and what it is handed, re-exported for strategy authors
(docs/strategies.md).

They are defined in ``cdsim.rules`` (``strategy``, ``observation``, ``options``) so that the
engine can type against them without importing this package (the layers: strategies import
cdsim, not the reverse).
"""

from cdsim.rules.cards import Payment
from cdsim.rules.components import ObjectiveCard
from cdsim.rules.observation import DistrictView, HiddenInformation, Holdings, Observation
from cdsim.rules.options import CircleChoice, FountainChoice, Move, SealBuild, Take
from cdsim.rules.strategy import PlayerView, Strategy

__all__ = ["CircleChoice", "DistrictView", "FountainChoice", "HiddenInformation", "Holdings",
           "Move", "ObjectiveCard", "Observation", "Payment", "PlayerView", "SealBuild",
           "Strategy", "Take"]
