"""Scoring phases (R8) and final scoring (R10). A scoring phase waits for decisions (the
circle, each card's payment): like the rules of a turn it yields them (``Steps``,
``cdsim/games/carpe_diem/rules/game.py``)."""

from __future__ import annotations

from collections.abc import Sequence

from cdsim.games.carpe_diem.rules.cards import payment_options, settle
from cdsim.games.carpe_diem.rules.district import have_index
from cdsim.games.carpe_diem.rules.game import GameState, Pending, PlayerState, Steps
from cdsim.games.carpe_diem.rules.kinds import (
    ADMINISTRATOR,
    ARTISAN,
    BAKER,
    BAKERY,
    FOUNTAIN,
    MARKET,
    MERCHANT,
)
from cdsim.games.carpe_diem.rules.options import CircleChoice
from cdsim.games.carpe_diem.rules.records import CardRow, GameRecord, SeatRecord


def scoring_order(state: GameState) -> list[int]:
    """R8.2: furthest on the scroll track first; on a shared space, the disc on top first.

    [decision] The order is fixed when the scoring phase begins; steps gained during it
    do not reorder it.
    """
    return sorted(range(state.config.players),
                  key=lambda s: (-state.players[s].scroll, -state.players[s].stamp))


def circle_options(state: GameState) -> list[CircleChoice]:
    out = []
    for i, (a, b) in enumerate(state.circles):
        if state.circle_owner[i] < 0:
            out += [CircleChoice(i, a, b), CircleChoice(i, b, a)]
    return out


def resolve_card(state: GameState, seat: int, slot: int) -> Steps:
    """R8.4-R8.6: fulfil one card as often as the player chooses, or lose 4 VP."""
    p = state.players[seat]
    card_id = state.grid[slot]
    assert card_id is not None
    card = state.components.objectives[card_id]
    options = payment_options(card, p.district.have, p.goods, p.coins, p.bread)
    payment = (yield Pending(seat, "payment", options, card)) if options else None
    out = settle(card, payment, p.goods, p.coins)
    for g in range(4):
        p.goods[g] -= out.paid_goods[g]
    p.coins += out.coins - out.paid_coins
    p.bread += out.bread - out.paid_bread
    p._card_vp += out.vp
    if out.failed:
        p.failed_cards += 1
    p.cards_taken.append(CardRow(seat, "objective", card_id, "failed" if out.failed else
                                 "fulfilled", state.phase + 1, out.multiples, out.vp))
    state.advance_scroll(seat, out.steps)
    result = "fails: -4 VP" if out.failed else (
        f"x{out.multiples}: {out.vp} VP, {out.coins} coins, {out.bread} bread, {out.steps} steps")
    state.log(f"    card {card_id} ({card.describe()}) {result}")


def scoring_phase(state: GameState) -> Steps:
    """R8.3: each player in turn takes a free circle and resolves its two cards."""
    state.log(f"== scoring phase {state.phase + 1}")
    for seat in scoring_order(state):
        choice: CircleChoice = yield Pending(seat, "circle", circle_options(state))
        state.circle_owner[choice.circle] = seat
        state.log(f"  seat {seat + 1} takes circle {choice.circle}")
        yield from resolve_card(state, seat, choice.first)
        yield from resolve_card(state, seat, choice.second)  # R8.6: after the first card's rewards
    for p in state.players:
        p.vp_after_phase.append(p.current_vp)


def fountain_points(state: GameState, p: PlayerState) -> int:
    """R10.4: each kept fountain card scores its goal; duplicates both score."""
    cards = state.components.fountains
    return sum(cards[f].vp * p.district.complete_count[cards[f].goal] for f in p.fountain_cards)


def final_scoring(state: GameState, seed: int, names: Sequence[str]) -> GameRecord:
    """R10: villas, leftovers, scroll, fountains, frame; rank with the R10.6 tie-break.
    ``names``: each seat's player as the record names it (the driver's line-up)."""
    c = state.components
    totals = []
    parts = []
    for p in state.players:
        d = p.district
        part = {
            "start": p._start_vp,
            "cards": p._card_vp,
            "villas": sum(c.villa_points(ch) for ch in d.villa_chimneys),
            "leftovers": p.leftover_items // 2,
            "scroll": c.scroll_points[p.scroll] + p._overflow_vp,
            "fountains": fountain_points(state, p),
            "frame": d.frame_points(),
        }
        parts.append(part)
        totals.append(sum(part.values()))
    # R10.6: most VP; tied: the disc furthest behind, then lower in the stack, wins.
    order = sorted(range(len(totals)), key=lambda s: (
        -totals[s], state.players[s].scroll, state.players[s].stamp))
    rank = {seat: i + 1 for i, seat in enumerate(order)}
    tiebreak = len(order) > 1 and totals[order[0]] == totals[order[1]]
    seats = []
    for s, p in enumerate(state.players):
        d = p.district
        h = d.have
        stack = sum(1 for q in state.players
                    if q.scroll == p.scroll and q.stamp < p.stamp)
        vp = parts[s]
        seats.append(SeatRecord(
            seat=s, strategy=names[s], start_vp=p._start_vp,
            vp_start=vp["start"], vp_cards=vp["cards"], vp_villas=vp["villas"],
            vp_leftovers=vp["leftovers"], vp_scroll=vp["scroll"],
            vp_fountains=vp["fountains"], vp_frame=vp["frame"], final_vp=totals[s],
            failed_cards=p.failed_cards, scroll=p.scroll, stack=stack, rank=rank[s],
            won=rank[s] == 1, vp_phase1=p.vp_after_phase[0], vp_phase2=p.vp_after_phase[1],
            vp_phase3=p.vp_after_phase[2], vp_phase4=p.vp_after_phase[3],
            tiles_taken=sum(p.taken), tiles_built=p.tiles_built, tiles_stored=p.stored,
            villas=h[1], chimneys=h[0], villa_chimneys=sum(d.villa_chimneys),
            landscapes=h[2], merchants=h[have_index(MERCHANT)], bakers=h[have_index(BAKER)],
            administrators=h[have_index(ADMINISTRATOR)], artisans=h[have_index(ARTISAN)],
            markets=h[have_index(MARKET)], bakeries=h[have_index(BAKERY)],
            fountains=h[have_index(FOUNTAIN)], fountain_cards=len(p.fountain_cards),
            bread_moves=p.bread_moves, artisan_lost=p.artisan_lost,
            leftover_items=p.leftover_items,
        ))
    cards = tuple(row for p in state.players for row in p.card_rows(c))
    return GameRecord(seed, state.config.players, tuple(seats), tiebreak, cards)
