"""One shared, documented value model: what an option is worth, in victory points.

Every scripted player uses this model; they differ only by their ``Params`` profile
and by a few plan rules in ``scripted.py``. Values are estimates in VP:

- resources: a good, coin, bread or scroll step is worth ``good``/``coin``/``bread``/
  ``step`` VP (each is at least half a VP as a leftover, R10.2; more through cards);
- building: chimneys (``chimney`` per chimney in any villa), closing open edges
  (``open_edge`` per edge closed, the same penalty per edge opened), completions
  (their immediate reward, the villa's end VP, frame goals not yet met, kept
  fountain cards, and ``card_match`` x the VP of cards on the grid that count it);
  a fountain is worth the expected end VP of the fountain card it keeps
  (``fountain_draw_value``);
- the card plan (``card_plan``, weight ``plan``): what the coming scoring phase's
  likely circles still need, so goods, coins, bread, features and scroll steps are
  worth more while a card would otherwise fail (R8);
- a stored tile is worth ``store`` (half a VP as a leftover).

A strategy never reads victory-point totals (``reads_scores = False``).
"""

from __future__ import annotations

from collections.abc import Sequence

from cdsim.cards import (
    BREAD_PER_MULTIPLE,
    FAILED_CARD_VP,
    CardOutcome,
    Payment,
    payment_options,
    settle,
    shortfall,
)
from cdsim.components import ObjectiveCard, TileType
from cdsim.district import (
    H_CHIMNEYS,
    H_DWELLINGS,
    H_LANDSCAPES,
    H_LANDSCAPES_3PLUS,
    H_VILLAS,
    NOTHING,
    District,
    Edges,
    have_index,
    parts_of,
)
from cdsim.kinds import (
    ADMINISTRATOR,
    ARTISAN,
    BAKER,
    BAKERY,
    DWELLINGS,
    FOUNTAIN,
    LANDSCAPE_GOOD,
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


GAP_COST = 2.0  # the card plan's price of one missing good, coin or feature, in VP
STEP_REACH = 3  # the plan values scroll steps only when this few overtake a disc ahead


class CardPlan:
    """What the coming scoring phase (R8) asks of this player, as VP per unit.

    ``card_plan`` fills it before a turn: ``good``/``coin``/``bread``/``step`` and
    ``have`` (per HAVE_KEYS index) are the extra value of one more of each towards the
    cards the player will likely get; ``keep`` is what losing one bread costs (cards
    that only bread still fulfils).
    """

    __slots__ = ("bread", "coin", "good", "have", "keep", "step")

    def __init__(self) -> None:
        self.good = [0.0, 0.0, 0.0, 0.0]
        self.coin = 0.0
        self.bread = 0.0
        self.step = 0.0
        self.keep = 0.0
        self.have = [0.0] * 16


def scoring_ahead(view: PlayerView) -> tuple[int, int]:
    """R8.2: (players who take a circle before this one, the fewest steps that put this
    disc ahead of one of them; 0 when none is ahead). A disc that lands on a shared
    space goes on top (R5.4), so reaching a space is enough."""
    me = view.me
    ahead, gap = 0, 0
    for q in view.state.players:
        if q.seat != me.seat and (q.scroll > me.scroll
                                  or (q.scroll == me.scroll and q.stamp > me.stamp)):
            ahead += 1
            steps = max(1, q.scroll - me.scroll)
            if gap == 0 or steps < gap:
                gap = steps
    return ahead, gap


def card_gap(card: ObjectiveCard, goods: list[int], coins: int, have: list[int]) -> int:
    """Goods/coins (red card) or features (green card) still missing for one multiple
    without bread (R8.4); 0 = the card is fulfilled."""
    if card.pay:
        return max(0, shortfall(card, goods, 1) - coins)
    return sum(max(0, n - have[key]) for key, n in card.requires)


def card_plan(view: PlayerView, p: Params) -> CardPlan:
    """The card plan (R8): which circles are likely still free at this player's scoring
    turn, what their cards still need, and what each unit of that is worth.

    - Each free circle's prospect is the sum of its two cards': a card worth ``w``
      (its reward in this profile's VP) that is fulfilled now counts ``w``; one that
      misses ``g`` units counts ``w - GAP_COST*g`` (``w - 3 bread`` if bread covers it),
      but never below the failure's -4 VP (R8.5).
    - The players ahead in the scoring order (R8.2) take circles first: the plan
      expects one of its ``ahead + 1`` best circles, each with weight 1/(ahead + 1).
    - A missing unit of a planned card is worth (its reward + the 4 VP a failure
      costs) / its gap, times the weight, times ``p.plan``: a missing good of that kind
      or a coin (red cards), the missing feature (green cards); bread is worth a third
      of the same while 3 bread per uncovered card are not held, and ``keep`` is the
      loss when one bread less uncovers a card.
    - A scroll step is worth (the prospect one place earlier - the prospect now) /
      the steps to overtake the next disc, when that is at most STEP_REACH steps.
    """
    plan = CardPlan()
    if p.plan <= 0:
        return plan
    state = view.state
    me = view.me
    comps = state.components
    worth = [0.0] * 12
    gaps = [0] * 12
    prospect = [0.0] * 12
    for i, (a, b) in enumerate(state.circles):
        if state.circle_owner[i] >= 0:
            continue
        for slot in (a, b):
            card_id = state.grid[slot]
            if card_id is None or worth[slot] != 0.0:
                continue
            card = comps.objectives[card_id]
            w = reward_value(p, card.vp, card.coins, card.bread, card.steps)
            g = card_gap(card, me.goods, me.coins, me.district.have)
            worth[slot], gaps[slot] = w, g
            if g == 0:
                prospect[slot] = w
            elif me.bread >= BREAD_PER_MULTIPLE:
                prospect[slot] = max(float(FAILED_CARD_VP), w - BREAD_PER_MULTIPLE * p.bread)
            else:
                prospect[slot] = max(float(FAILED_CARD_VP), w - GAP_COST * g)
    ranked = sorted(((prospect[a] + prospect[b], i) for i, (a, b) in enumerate(state.circles)
                     if state.circle_owner[i] < 0), key=lambda t: (-t[0], t[1]))
    if not ranked:
        return plan
    ahead, gap = scoring_ahead(view)
    likely = ranked[:ahead + 1]
    weight = p.plan / len(likely)
    for _, i in likely:
        # one circle's cards: a unit goes to one of them, so per circle the better use
        good = [0.0, 0.0, 0.0, 0.0]
        have = [0.0] * 16
        coin = bread = keep = 0.0
        uncovered = 0
        for slot in state.circles[i]:
            g = gaps[slot]
            card = comps.objectives[state.grid[slot] or ""]
            units = 0
            for _, n in card.requires:
                units += n
            # a unit buys a share of one more multiple; a missing one also saves the -4
            per = worth[slot] / units
            if g:
                per -= FAILED_CARD_VP / g
            if card.pay:
                for key, _ in card.requires:
                    good[key] = max(good[key], per)
                coin = max(coin, per)
            else:
                for key, _ in card.requires:
                    have[key] = max(have[key], per)
            if g == 0:
                continue
            save = worth[slot] - FAILED_CARD_VP
            uncovered += 1
            if me.bread < BREAD_PER_MULTIPLE * uncovered:
                bread = max(bread, save / BREAD_PER_MULTIPLE)
            elif me.bread - 1 < BREAD_PER_MULTIPLE * uncovered:
                keep = max(keep, save)
        for k in range(4):
            plan.good[k] += good[k] * weight
        for k in range(16):
            plan.have[k] += have[k] * weight
        plan.coin += coin * weight
        plan.bread += bread * weight
        plan.keep += keep * weight
    if ahead and gap <= STEP_REACH:
        now = sum(t[0] for t in likely) / len(likely)
        earlier = likely[:ahead]
        plan.step = (sum(t[0] for t in earlier) / len(earlier) - now) / gap * p.plan
    return plan


def fountain_draw_value(view: PlayerView, turns_left: int) -> float:
    """R6.5: the expected end VP of the fountain card a new fountain keeps.

    A fountain draws 2 cards and keeps the better. The deck's order is hidden, so the
    2 are any of the fountain cards this player does not hold. A card scores its VP per
    complete feature of its goal at the end (R10.4): the features now, plus the turns
    left at this player's rate so far with half a feature of prior, ``c + turns_left *
    (c + 0.5) / (turns_played + 7)``. With the n values ascending, the better of 2
    drawn without replacement is the j-th (from 0) in j of the n(n-1)/2 pairs.
    """
    comps = view.state.components
    kept = view.me.fountain_cards
    count = view.me.district.complete_count
    played = 28 - turns_left
    values: list[float] = []
    for fid in sorted(comps.fountains):
        if fid in kept:
            continue
        card = comps.fountains[fid]
        c = count[card.goal]
        values.append(card.vp * (c + turns_left * (c + 0.5) / (played + 7)))
    n = len(values)
    if n < 2:
        return 0.0
    values.sort()
    total = 0.0
    for j, v in enumerate(values):
        total += v * j
    return total / (n * (n - 1) / 2)


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
        self.fountain = p.fountain * fountain_draw_value(view, turns_left)
        plan = self.plan = card_plan(view, p)
        # one more coin, bread or step now: the profile's price plus the card plan's
        # a resource is worth the profile's price or what the plan would buy with it
        self.coin = max(p.coin, plan.coin)
        self.bread = max(p.bread, plan.bread)
        self.step = p.step + plan.step
        good = p.good + self.goods_bonus
        self.good = [max(good, plan.good[g]) for g in range(4)]  # by good (GOODS order)

    def completion_bonus(self, kind: int, mask: int) -> float:
        p = self.p
        key = H_VILLAS if kind == VILLA else have_index(kind)
        bonus = self.fountain_goal[kind] + p.card_match * self.interest[key] + self.plan.have[key]
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
            worth = {MARKET: self.coin, BAKERY: self.bread, FOUNTAIN: self.fountain}[b]
            for cell, _ in placements:
                if cell not in out:
                    value = self.step if cell in d.scrolls else 0.0
                    value += worth
                    out[cell] = value + self.completion_bonus(b, 1 << cell)
            return out
        progress = self.progress
        open_edge = p.open_edge
        chimney_term = p.chimney * ttype.chimneys * progress
        card_term = (self.interest[H_CHIMNEYS] * p.card_match + self.plan.have[H_CHIMNEYS]
                     ) * ttype.chimneys
        credit = p.progress_credit * progress
        villa_credit = p.progress_credit * p.villa_complete
        goods = self.good
        plan_have = self.plan.have
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
            value = self.step if cell in scrolls else 0.0
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
                    good = goods[LANDSCAPE_GOOD[k]]
                    if own_open + o == 0:
                        value += self.completion_bonus(k, bit | mk)
                        value += s * good + p.landscape_complete  # (tiles - 1) goods, R6.2
                        value += plan_have[H_LANDSCAPES]  # the card plan: landscape counts
                        if s >= 2:
                            value += plan_have[H_LANDSCAPES_3PLUS]
                    else:  # one more tile would pay about this much
                        value += credit * ((1 + s) * good + p.landscape_complete)
                elif k in DWELLINGS:
                    reward = self._dwelling_worth.get(k)
                    if reward is None:
                        reward = self._dwelling(k)
                    if own_open + o == 0:
                        value += reward + self.completion_bonus(k, bit | mk)
                        value += plan_have[H_DWELLINGS]
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
            lost = 0.0
            for g in range(4):
                lost += self.good[g] * goods[g]
            return self.coin * (sum(goods) + 1) - lost
        if kind == BAKER:
            return 2 * self.bread
        if kind == ADMINISTRATOR:
            return 2 * self.step
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
