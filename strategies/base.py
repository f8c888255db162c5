"""The Strategy protocol and what it is handed, re-exported for strategy authors.

They are defined in ``cdsim.rules.strategy`` so that the engine can type against them
without importing this package (the layers: strategies import cdsim, not the reverse).
"""

from cdsim.rules.cards import Payment
from cdsim.rules.strategy import CircleChoice, FountainChoice, Move, PlayerView, SealBuild, Strategy, Take

__all__ = ["CircleChoice", "FountainChoice", "Move", "Payment", "PlayerView", "SealBuild",
           "Strategy", "Take"]
