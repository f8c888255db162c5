"""The scripted players: one shared value model (value.py), four plans.

- greedy: the best immediate value under the default profile.
- villa: grows few large, high-chimney villas and completes them; favours chimney
  and villa cards (C) and villa frame goals.
- landscape: completes landscapes early for goods, turns them into coins with
  merchant dwellings, favours goods cards (A/B) and landscape cards (D).
- bread: collects bread (baker dwellings, bakeries), spends 1 bread on moves that
  reach a clearly better depot, and pays rich cards with sets of 3 bread.

None reads victory-point totals (reads_scores = False).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import ClassVar

from cdsim.cards import Payment
from cdsim.components import ObjectiveCard
from cdsim.game import SPACES
from cdsim.kinds import FEATURE_CODES
from cdsim.players import CircleChoice, FountainChoice, Move, PlayerView, SealBuild, Take
from strategies.params import Params
from strategies.value import (
    Evaluator,
    best_card_payment,
    card_interest,
    good_interest,
)

# Per tile type this turn: (best value, the value on each cell it can go to).
TurnCache = dict[int, tuple[float, dict[int, float]]]


def blind_start_key(view: PlayerView, space: int) -> tuple[int, int]:
    """(reach shared with the placed pawns, minus the distance to the nearest one)."""
    reach = {(space + 1) % SPACES, (space - 1) % SPACES}  # R4.2
    overlap, nearest = 0, SPACES
    for p in view.state.players:
        if p.pawn >= 0 and p.seat != view.seat:
            overlap += len(reach & {(p.pawn + 1) % SPACES, (p.pawn - 1) % SPACES})
            gap = abs(space - p.pawn)
            nearest = min(nearest, gap, SPACES - gap)
    return overlap, -nearest


class ScriptedPlayer:
    """The shared decision logic; subclasses set ``profile`` and ``favoured`` kinds."""

    name = "greedy"
    description = "best immediate value under the shared value model"
    reads_scores = False
    profile: ClassVar[Params] = Params()
    favoured: ClassVar[tuple[str, ...]] = ()

    def __init__(self, params: Params | None = None) -> None:
        self.params = params or self.profile
        self._cache_key: tuple[int, ...] = ()
        self._cache: TurnCache = {}
        self._ev: Evaluator | None = None  # the turn's evaluator
        # card_interest and good_interest, until a scoring disc changes the free circles
        self._grid_key: tuple[object, ...] = ()
        self._grid_values: tuple[list[float], float] = ([], 0.0)

    # -- helpers -------------------------------------------------------------
    def _evaluator(self, view: PlayerView) -> tuple[Evaluator, TurnCache]:
        """The turn's evaluator and value cache: what they read (cards on the grid, free
        circles, kept fountain cards, phase and round, the district) is fixed within one
        turn."""
        cache = self._turn_cache(view)
        if self._ev is None:
            state = view.state
            key = (state, tuple(state.circle_owner))
            if key != self._grid_key:
                self._grid_key = key
                self._grid_values = (card_interest(view, self.params),
                                     good_interest(view, self.params))
            self._ev = Evaluator(view, self.params, self._grid_values)
        return self._ev, cache

    def _turn_cache(self, view: PlayerView) -> TurnCache:
        """Values computed this turn, until what they read changes: a bread move spends
        bread, which the card plan reads, so the take after it is valued afresh."""
        me = view.me
        key = (id(view.state), view.state.phase, view.state.round, me.district.built, me.coins,
               sum(me.goods), me.bread, len(me.fountain_cards))
        if key != self._cache_key:
            self._cache_key, self._cache, self._ev = key, {}, None
        return self._cache

    def _tile_value(self, view: PlayerView, ev: Evaluator, tile_type: int,
                    cache: TurnCache) -> float:
        """Best value of a tile type for this player now (cached within one turn)."""
        hit = cache.get(tile_type)
        if hit is None:
            t = view.state.components.tile_types[tile_type]
            by_cell = ev.by_cell(t, view.me.district.placements(t.orientations))
            value = self.params.store
            for v in by_cell.values():
                if v > value:
                    value = v
            hit = cache[tile_type] = (value, by_cell)
        return hit[0]

    def _depot_value(self, view: PlayerView, ev: Evaluator, space: int,
                     cache: TurnCache) -> float:
        best = 0.0  # an empty depot
        for i, t in enumerate(view.state.depots[space]):
            value = self._tile_value(view, ev, t, cache)
            if i == 0 or value > best:
                best = value
        return best

    # -- decisions -----------------------------------------------------------
    def choose_start(self, view: PlayerView, options: Sequence[int]) -> int:
        """R2.5: the pawn is placed blind (no tile is dealt yet), so the only thing to go
        by is the other pawns: start where the two spaces within reach are shared with
        the fewest earlier pawns' reach (they move first and would take those tiles),
        then as far from them as possible; the lowest space of equals."""
        return min(options, key=lambda space: blind_start_key(view, space))

    def choose_move(self, view: PlayerView, options: Sequence[Move]) -> Move:
        ev, cache = self._evaluator(view)
        # a bread move spends a bread the card plan may need (R4.4, R7.1)
        cost = self.params.bread_move_cost + ev.plan.bread + ev.plan.keep
        depots: dict[int, float] = {}  # a space is offered with and without bread

        def value(m: Move) -> float:
            v = depots.get(m.dest)
            if v is None:
                v = depots[m.dest] = self._depot_value(view, ev, m.dest, cache)
            return v - cost if m.bread else v
        return max(options, key=value)

    def choose_take(self, view: PlayerView, options: Sequence[Take]) -> Take:
        """The best option (the first of equals, as max() would pick): one loop, since a
        turn offers dozens of options, grouped by tile."""
        ev, cache = self._evaluator(view)
        store = self.params.store
        best, best_value = options[0], 0.0
        last, cells = -1, {}
        for i, o in enumerate(options):
            _, tile_type, cell, edges = o
            if edges is None:
                value = store
            else:
                if tile_type != last:
                    self._tile_value(view, ev, tile_type, cache)  # every cell of the tile
                    last, cells = tile_type, cache[tile_type][1]
                got = cells.get(cell)
                if got is None:  # not a placement the district offers now (not expected)
                    got = ev.placement(view.state.components.tile_types[tile_type], cell, edges)
                value = got
            if i == 0 or value > best_value:
                best, best_value = o, value
        return best

    def choose_seal(self, view: PlayerView, options: Sequence[SealBuild]) -> SealBuild:
        ev, _ = self._evaluator(view)
        types = view.state.components.tile_types
        return max(options, key=lambda o: ev.placement(types[o.tile_type], o.cell, o.edges))

    def _fountain_card_value(self, view: PlayerView, card_id: str) -> float:
        card = view.state.components.fountains[card_id]
        have = view.me.district.complete_count[card.goal]
        favoured = 1.5 if card.goal in {FEATURE_CODES[k] for k in self.favoured} else 0.5
        return card.vp * (have + favoured)

    def choose_fountain(self, view: PlayerView,
                        options: Sequence[FountainChoice]) -> FountainChoice:
        def value(o: FountainChoice) -> float:
            kept = sum(self._fountain_card_value(view, c) for c in o.keep)
            if o.give_back is not None and o.give_back in view.me.fountain_cards:
                kept -= self._fountain_card_value(view, o.give_back)
            return kept
        return max(options, key=value)

    def _scoring_params(self, view: PlayerView) -> Params:
        if view.state.phase == 3:  # after the last scoring, resources are leftovers only
            return replace(self.params, good=0.5, coin=0.5, bread=0.5, step=1.0)
        return self.params

    def choose_circle(self, view: PlayerView, options: Sequence[CircleChoice]) -> CircleChoice:
        p = self._scoring_params(view)
        me = view.me
        objectives = view.state.components.objectives

        seen: dict[tuple[object, ...], tuple[float, list[int], int, int, int]] = {}

        def card(slot: int, goods: list[int], coins: int, bread: int
                 ) -> tuple[float, list[int], int, int, int]:
            """(value, goods, coins, bread after it, 1 if it fails) of one card; many
            circles share cards."""
            key = (slot, *goods, coins, bread)
            hit = seen.get(key)
            if hit is None:
                c = objectives[view.state.grid[slot] or ""]
                v, _, out = best_card_payment(p, c, me.district.have, goods, coins, bread, p.good)
                hit = seen[key] = (v, [g - x for g, x in zip(goods, out.paid_goods, strict=True)],
                                   coins + out.coins - out.paid_coins,
                                   bread + out.bread - out.paid_bread, int(out.failed))
            return hit

        def value(o: CircleChoice) -> tuple[int, float]:
            """(cards it fails, value): never -4 when another circle avoids it (R8.5)."""
            total, failed = 0.0, 0
            goods, coins, bread = list(me.goods), me.coins, me.bread
            for slot in (o.first, o.second):
                v, goods, coins, bread, fails = card(slot, goods, coins, bread)
                total += v
                failed += fails
            return -failed, total
        return max(options, key=value)

    def choose_payment(self, view: PlayerView, card: ObjectiveCard,
                       options: Sequence[Payment]) -> Payment:
        p = self._scoring_params(view)
        me = view.me
        _, best, _ = best_card_payment(p, card, me.district.have, me.goods, me.coins, me.bread,
                                       p.good)
        return next((o for o in options if o == best), options[0])


class GreedyPlayer(ScriptedPlayer):
    name = "greedy"
    description = "best immediate value under the shared value model"


class VillaPlayer(ScriptedPlayer):
    name = "villa"
    description = "grows few large high-chimney villas and completes them; C cards, villa goals"
    profile = Params(chimney=1.2, villa_complete=1.5, open_edge=0.25, landscape_complete=0.3,
                     dwelling_complete=0.5, card_match=0.6)
    favoured = ("villa",)


class LandscapePlayer(ScriptedPlayer):
    name = "landscape"
    description = "completes landscapes for goods, merchants turn them into coins; A/B cards"
    profile = Params(good=1.3, coin=1.6, landscape_complete=2.0, chimney=0.3,
                     villa_complete=0.7, card_match=0.7)
    favoured = ("pond", "garden", "vineyard", "chicken_yard")


class BreadPlayer(ScriptedPlayer):
    name = "bread"
    description = "hoards bread (bakers, bakeries), bread moves to the best depot, pays cards in bread"
    profile = Params(bread=1.6, bread_move_cost=1.2, bread_for_cards=0.8, dwelling_complete=1.2)
    favoured = ("baker", "bakery")
