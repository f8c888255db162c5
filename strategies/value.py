"""One shared, documented value model: what an option is worth, in victory points.

Every scripted player uses this model; they differ only by their ``Params`` profile
and by a few plan rules in ``scripted.py``. Values are estimates in VP:

- resources: a good, coin, bread or scroll step is worth ``good``/``coin``/``bread``/
  ``step`` VP (each is at least half a VP as a leftover, R10.2; more through cards);
- building: chimneys (``chimney`` per chimney in any villa), closing open edges
  (``open_edge`` per edge closed, the same penalty per edge opened), completions
  (their immediate reward, the villa's end VP, frame goals not yet met, kept
  fountain cards, and ``card_match`` x the VP of cards on the grid that count it);
- a stored tile is worth ``store`` (half a VP as a leftover).

A strategy never reads victory-point totals (``reads_scores = False``).
"""

from __future__ import annotations

from collections.abc import Sequence

from cdsim.cards import CardOutcome, Payment, payment_options, settle
from cdsim.components import ObjectiveCard, TileType
from cdsim.district import NOTHING, District, Edges, have_index, parts_of
from cdsim.kinds import (
    ADMINISTRATOR,
    ARTISAN,
    BAKER,
    BAKERY,
    DWELLINGS,
    FOUNTAIN,
    LANDSCAPES,
    MARKET,
    MERCHANT,
    VILLA,
)
from cdsim.players import PlayerView
from strategies.params import Params


def reward_value(p: Params, vp: int, coins: int, bread: int, steps: int) -> float:
    return vp + p.coin * coins + p.bread * bread + p.step * steps


def card_interest(view: PlayerView, p: Params) -> list[float]:
    """VP-equivalent per unit of each have-key, over grid cards next to a free circle."""
    state = view.state
    open_slots: set[int] = set()
    for i, (a, b) in enumerate(state.circles):
        if state.circle_owner[i] < 0:
            open_slots.update((a, b))
    interest = [0.0] * 16
    for slot in sorted(open_slots):  # a fixed float summing order (the core sums the same)
        card_id = state.grid[slot]
        if card_id is None:
            continue
        card = state.components.objectives[card_id]
        if card.pay:
            continue
        worth = reward_value(p, *card.reward)
        for key, n in card.requires:
            interest[key] += worth / n / len(card.requires)
    return interest


def good_interest(view: PlayerView, p: Params) -> float:
    """Extra value of one good from red cards still reachable on the grid."""
    state = view.state
    best = 0.0
    for i, (a, b) in enumerate(state.circles):
        if state.circle_owner[i] >= 0:
            continue
        for slot in (a, b):
            card_id = state.grid[slot]
            card = state.components.objectives[card_id] if card_id else None
            if card is not None and card.pay:
                per = sum(n for _, n in card.requires)
                best = max(best, reward_value(p, *card.reward) / per - p.good)
    return max(best, 0.0) * 0.5


class Evaluator:
    """Values placements for one player at one moment (cached per decision)."""

    def __init__(self, view: PlayerView, p: Params,
                 grid_values: tuple[list[float], float] | None = None) -> None:
        """``grid_values``: (card_interest, good_interest) when the caller has them already
        (they change only when a scoring disc is placed)."""
        self.view = view
        self.p = p
        self.d: District = view.me.district
        self.interest, self.goods_bonus = grid_values or (card_interest(view, p),
                                                         good_interest(view, p))
        self._dwelling_worth: dict[int, float] = {}
        comps = view.state.components
        self.comps = comps
        kept = view.me.fountain_cards
        self.fountain_goal = [0.0] * 13
        for f in kept:
            card = comps.fountains[f]
            self.fountain_goal[card.goal] += card.vp * p.fountain_card
        # incomplete features are worthless at the end: progress counts less late
        turns_left = 7 * (3 - view.state.phase) + (7 - view.state.round)
        self.progress = min(1.0, turns_left / 10)

    def completion_bonus(self, kind: int, mask: int) -> float:
        p = self.p
        bonus = self.fountain_goal[kind] + p.card_match * self.interest[
            1 if kind == VILLA else have_index(kind)]
        for gkind, vp, line in self.d.frame_goals:
            if gkind == kind and mask & line and not self.d.complete_mask[kind] & line:
                bonus += p.frame_goal * vp
        return bonus

    def placement(self, ttype: TileType, cell: int, edges: tuple[int, int, int, int]) -> float:
        return self.by_cell(ttype, [(cell, edges)])[cell]

    def by_cell(self, ttype: TileType, placements: Sequence[tuple[int, Edges]]
                ) -> dict[int, float]:
        """The value of one tile type on each cell of ``placements`` (the bots' hot path).

        A legal placement's value does not depend on its orientation: it reads the
        tile's parts (their kinds and side counts, the same in every rotation) and what
        the cell's built neighbours face it with (``District.around``), which every
        orientation that fits must match. So each cell is valued once, with its first
        placement.
        """
        p = self.p
        d = self.d
        out: dict[int, float] = {}
        if ttype.building:
            b = ttype.building
            worth = {MARKET: p.coin, BAKERY: p.bread, FOUNTAIN: p.fountain}[b]
            for cell, _ in placements:
                if cell not in out:
                    value = p.step if cell in d.scrolls else 0.0
                    value += worth
                    out[cell] = value + self.completion_bonus(b, 1 << cell)
            return out
        progress = self.progress
        open_edge = p.open_edge
        chimney_term = p.chimney * ttype.chimneys * progress
        card_term = self.interest[0] * ttype.chimneys * p.card_match
        credit = p.progress_credit * progress
        villa_credit = p.progress_credit * p.villa_complete
        good = p.good + self.goods_bonus
        villa_points = self.comps.villa_points
        scrolls = d.scrolls
        parts = parts_of(placements[0][1]) if placements else ()  # the same in every rotation
        # A cell whose built neighbours face it only with meadow (most cells): no part
        # joins or completes anything, so the value depends on the scroll alone.
        alone: dict[float, float] = {}  # scroll step (or 0) -> value
        for cell, _ in placements:
            if cell in out:
                continue
            around = d.around(cell)  # what the tile's parts would join (R6)
            value = p.step if cell in scrolls else 0.0
            if not around:
                known = alone.get(value)
                if known is not None:
                    out[cell] = known
                    continue
            start = value
            bit = 1 << cell
            for k, own in parts:
                m, o, s, c, mk = around.get(k, NOTHING)
                own_open = own - 2 * m
                value -= open_edge * own_open * progress
                if k == VILLA:
                    value += chimney_term
                    value += card_term
                    chimneys = ttype.chimneys + c
                    if own_open + o == 0 and s >= 1:  # R6.1: closed, at least 2 tiles
                        value += p.villa_complete * villa_points(chimneys)
                        value += self.completion_bonus(VILLA, bit | mk)
                    else:  # a villa counts only complete: credit what it may become
                        value += villa_credit * villa_points(chimneys) * progress
                elif k in LANDSCAPES:
                    if own_open + o == 0:
                        value += self.completion_bonus(k, bit | mk)
                        value += s * good + p.landscape_complete  # (tiles - 1) goods, R6.2
                    else:  # one more tile would pay about this much
                        value += credit * ((1 + s) * good + p.landscape_complete)
                elif k in DWELLINGS:
                    reward = self._dwelling_worth.get(k)
                    if reward is None:
                        reward = self._dwelling(k)
                    if own_open + o == 0:
                        value += reward + self.completion_bonus(k, bit | mk)
                    else:
                        value += credit * reward
            if not around:
                alone[start] = value
            out[cell] = value
        return out

    def _dwelling(self, kind: int) -> float:
        """Completing a dwelling of this kind now (cached for the evaluator's turn)."""
        worth = self._dwelling_worth[kind] = self.p.dwelling_complete + self.dwelling_reward(
            kind, self.view.me.goods)
        return worth

    def dwelling_reward(self, kind: int, goods: list[int]) -> float:
        p = self.p
        if kind == MERCHANT:
            return p.coin * (sum(goods) + 1) - (p.good + self.goods_bonus) * sum(goods)
        if kind == BAKER:
            return 2 * p.bread
        if kind == ADMINISTRATOR:
            return 2 * p.step
        if kind == ARTISAN:
            return p.artisan
        return 0.0


def payment_value(p: Params, card: ObjectiveCard, pay: Payment | None, goods: list[int],
                  coins: int, good_value: float) -> tuple[float, CardOutcome]:
    out = settle(card, pay, goods, coins)
    value = reward_value(p, out.vp, out.coins, out.bread, out.steps)
    value -= good_value * sum(out.paid_goods) + p.coin * out.paid_coins
    value -= p.bread * out.paid_bread
    if pay is not None:
        value += p.bread_for_cards * pay.bread
    return value, out


def best_card_payment(p: Params, card: ObjectiveCard, have: list[int], goods: list[int],
                      coins: int, bread: int, good_value: float
                      ) -> tuple[float, Payment | None, CardOutcome]:
    """The best way to resolve a card: (value, payment or None if it fails, outcome)."""
    best: tuple[float, Payment | None, CardOutcome] | None = None
    for pay in payment_options(card, have, goods, coins, bread):
        value, out = payment_value(p, card, pay, goods, coins, good_value)
        if best is None or value > best[0] or (value == best[0] and best[1] is not None
                                               and pay.multiples > best[1].multiples):
            best = (value, pay, out)
    if best is None:
        value, out = payment_value(p, card, None, goods, coins, good_value)
        return value, None, out
    return best
