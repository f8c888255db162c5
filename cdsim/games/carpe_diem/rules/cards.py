"""Objective cards: how many multiples a player can fulfil and what they pay (R7, R8.4-R8.6).

A red ("pay") card is paid in goods, each good replaceable by a coin (R7.2); a
green ("have") card counts complete features (chimneys count in every villa).
On either, 3 bread fulfil one more multiple (R7.1). Paying goods before coins
is never worse for the player — a coin can stand in for any good later — so the
engine always pays that way; the player chooses how many multiples (R8.5).
"""

from __future__ import annotations

from dataclasses import dataclass

from cdsim.games.carpe_diem.rules.components import ObjectiveCard
from cdsim.games.carpe_diem.rules.options import Payment

FAILED_CARD_VP = -4  # R8.5
BREAD_PER_MULTIPLE = 3  # R7.1


def have_multiples(card: ObjectiveCard, have: list[int]) -> int:
    """Green card: multiples the district already has (R8.4)."""
    return min(have[key] // n for key, n in card.requires)


def shortfall(card: ObjectiveCard, goods: list[int], multiples: int) -> int:
    """Coins a red card needs on top of the goods for this many multiples."""
    return sum(max(0, multiples * n - goods[key]) for key, n in card.requires)


def max_paid_multiples(card: ObjectiveCard, goods: list[int], coins: int) -> int:
    """Red card: the most multiples goods plus coins can pay (R7.2, R8.4)."""
    per = sum(n for _, n in card.requires)
    bound = (sum(goods[key] for key, _ in card.requires) + coins) // per
    k = 0
    while k < bound and shortfall(card, goods, k + 1) <= coins:
        k += 1
    return k


def payment_options(card: ObjectiveCard, have: list[int], goods: list[int], coins: int,
                    bread: int) -> list[Payment]:
    """Every legal way to fulfil the card; empty when it cannot be fulfilled (R8.5: -4).

    R8.5 [decision]: a player who can fulfil the card must take at least one multiple;
    multiples from having are all taken; paid and bread multiples are the player's choice.
    """
    bread_max = bread // BREAD_PER_MULTIPLE
    if card.pay:
        top = max_paid_multiples(card, goods, coins)
        return [Payment(k, b) for k in range(top + 1) for b in range(bread_max + 1) if k + b]
    free = have_multiples(card, have)
    return [Payment(free, b) for b in range(bread_max + 1) if free + b]


def best_payment(options: list[Payment]) -> Payment | None:
    """The most multiples, spending bread only where goods and coins fall short."""
    if not options:
        return None
    return max(options, key=lambda p: (p.multiples, -p.bread))


@dataclass(frozen=True, slots=True)
class CardOutcome:
    """What fulfilling (or failing) a card moves: paid goods/coins/bread, rewards."""

    card_id: str
    multiples: int
    failed: bool
    paid_goods: tuple[int, int, int, int]
    paid_coins: int
    paid_bread: int
    vp: int
    coins: int
    bread: int
    steps: int


def settle(card: ObjectiveCard, payment: Payment | None, goods: list[int],
           coins: int) -> CardOutcome:
    """The outcome of a payment choice (None = the card fails, R8.5), without applying it."""
    if payment is None:
        return CardOutcome(card.id, 0, True, (0, 0, 0, 0), 0, 0, FAILED_CARD_VP, 0, 0, 0)
    paid = [0, 0, 0, 0]
    coins_paid = 0
    if card.pay:
        for key, n in card.requires:
            need = payment.paid * n
            from_goods = min(need, goods[key])
            paid[key] += from_goods
            coins_paid += need - from_goods
        assert coins_paid <= coins
    m = payment.multiples
    return CardOutcome(card.id, m, False, (paid[0], paid[1], paid[2], paid[3]), coins_paid,
                       payment.bread * BREAD_PER_MULTIPLE,
                       card.vp * m, card.coins * m, card.bread * m, card.steps * m)
