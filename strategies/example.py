"""Strategies to copy: ``Random`` (uniform over the legal options) and ``Builder``
(short, readable rules of thumb), each one method: ``choose(view, options)``.

Run it against the built-in players (they play natively on the core, this one in
Python on its observation of the same game):

    cdsim play --players 3 --strategies strategies.example:Builder,greedy,mcts --trace
    cdsim simulate --players 3 --games 300 --strategies strategies.example:Builder,greedy,villa

``choose`` gets ``view``, this seat's observation (what it may know, read-only:
``view.decision`` names the decision, ``view.me`` is its own holdings and district,
``view.seats`` every seat's, ``view.depots`` the tiles on offer, ``view.components`` the
box, ``view.card`` the objective card a payment is for; ``view.rng`` its own random
stream) and the legal options, each an Action record (``Start``, ``Move``, ``Take``,
``SealBuild``, ``FountainChoice``, ``CircleChoice``, ``Payment``), and returns one of them.
docs/strategies.md says what each decision offers.
"""

from __future__ import annotations

from collections.abc import Sequence

from strategies.base import Action, Move, Observation, Payment, SealBuild, Take


class Random:
    """Chooses uniformly among the legal options, from the seat's own stream (the
    built-in ``random`` does the same on the core)."""

    name = "random"
    reads_scores = False

    def choose(self, view: Observation, options: Sequence[Action]) -> Action:
        return options[int(view.rng.integers(len(options)))]


class Builder:
    """Builds whenever it can, the tile with the most chimneys first; pays every card as
    often as it can; never reads VP totals (so `cdsim balance` can re-rank its games)."""

    name = "builder"
    reads_scores = False

    def choose(self, view: Observation, options: Sequence[Action]) -> Action:
        types = view.components.tile_types
        match view.decision:
            case "move":
                free = [m for m in options if isinstance(m, Move) and not m.bread]
                # keep bread for the cards (R8.4)
                return free[int(view.rng.integers(len(free)))] if free else options[0]
            case "take":
                built = [t for t in options if isinstance(t, Take) and not t.stores]
                if not built:
                    return options[0]  # nothing fits: store a tile (R4.5)
                return max(built, key=lambda t: types[t.tile_type].chimneys)
            case "seal":
                seals = [t for t in options if isinstance(t, SealBuild)]
                return max(seals, key=lambda t: types[t.tile_type].chimneys)
            case "payment":
                pays = [p for p in options if isinstance(p, Payment)]
                return max(pays, key=lambda p: (p.paid + p.bread, -p.bread))
            case _:  # start, fountain, circle: the first option
                return options[0]
