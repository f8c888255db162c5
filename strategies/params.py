"""A scripted strategy's profile: the weights of the shared value model (value.py).

Kept apart from the value model, which ``make install`` compiles with mypyc: a
profile stays a plain Python dataclass (frozen, picklable, ``replace``-able).
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace


@dataclass(frozen=True)
class Params:
    """A strategy's profile: the weights of the shared value model (VP per unit)."""

    good: float = 1.0
    coin: float = 1.2
    bread: float = 1.0
    step: float = 1.0
    chimney: float = 0.6
    villa_complete: float = 1.0  # x the villa's end-scoring VP
    open_edge: float = 0.35
    landscape_complete: float = 1.0  # bonus beyond the goods
    dwelling_complete: float = 1.0
    fountain: float = 1.0  # x the expected end VP of the fountain card a fountain keeps (R6.5)
    artisan: float = 2.5
    frame_goal: float = 1.0  # x the goal's VP
    fountain_card: float = 1.0  # x the fountain cards' VP
    card_match: float = 0.5  # x the VP-equivalent of a grid card counting the feature
    store: float = 0.5
    progress_credit: float = 0.4  # share of a completion's value credited to a step towards it
    bread_move_cost: float = 2.5  # a bread move must gain at least this much
    bread_for_cards: float = 0.0  # extra value per multiple bought with bread
    plan: float = 0.5  # x the card plan's values (value.card_plan); 0 = no plan

    def with_overrides(self, overrides: dict[str, float]) -> Params:
        names = {f.name for f in fields(self)}
        for key in overrides:
            if key not in names:
                raise KeyError(key)
        return replace(self, **overrides)
