"""``cdsim whatif``'s answer in the terminal, in a designer's words: how far seat balance can
move (``paired.Comparison.bound_words``), each changed card's figures with their 95%
intervals (an undecided one said so), and one line per card and player count: too weak,
about right or too strong at the card margin (``paired.card_side`` at
``cards.CARD_MARGIN``), neutral near the value a sweep finds; a card not taken, or taken in
too few deals for its figures, says so. Each card in its kind's words (``CardKind.verbs``:
e.g. Carpe Diem's fountain cards are drawn and kept, by their drawers)."""

from __future__ import annotations

import math
from collections.abc import Sequence

from cdsim.analysis.card_intervals import MIN_DEALS
from cdsim.analysis.cards import CARD_MARGIN, Takes
from cdsim.analysis.paired import CardSide, card_side
from cdsim.study.cards import CardChange, Figure
from cdsim.study.neutral_words import where_neutral
from cdsim.study.sweep_groups import SweepGroup

SIDES: tuple[CardSide, ...] = ("too weak", "about right", "too strong")


def figure(key: str, f: Figure, sign: bool = False) -> str:
    """One figure with its 95% interval: "31.0% [28.9, 33.1]", "+17.3 pts [+5.0, +29.6]",
    "5.1 VP [4.9, 5.3]"; "-" when there is none (no seat took the card)."""
    if not math.isfinite(f[0]):
        return "-"
    if key == "mean_vp":
        scale, form, unit = 1.0, ".1f", " VP"
    elif key == "win_difference" or sign:
        scale, form, unit = 100.0, "+.1f", " pts"
    else:
        scale, form, unit = 100.0, ".1f", "%"
    mid = f"{scale * f[0]:{form}}{unit}"
    if not (math.isfinite(f[1]) and math.isfinite(f[2])):
        return f"{mid} [interval: too few games]"
    return f"{mid} [{scale * f[1]:{form}}, {scale * f[2]:{form}}]"


def win_words(f: Figure) -> str:
    """The takers' win difference with its interval, and "not decided" when the interval
    holds 0 (the data do not say which seats win more often)."""
    shown = figure("win_difference", f)
    if shown != "-" and not (f[1] > 0 or f[2] < 0):
        shown += ", not decided: its interval holds 0"
    return shown


def _side(c: CardChange, f: dict[str, Figure], takes: Takes | None) -> str:
    """One side's figures alone: not taken, too few deals for the figures on its takers, or
    all of them."""
    took, done, who = c.kind.verbs.took, c.kind.verbs.done, c.kind.verbs.takers
    if takes is not None and takes.seats == 0:
        return f"not {took} in {takes.games:,} games"
    shown = f"{took} by {figure('taken_share', f['taken_share'])} of seats"
    if takes is not None and takes.deals < MIN_DEALS:
        return (f"{shown}, {takes.seats:,} times in {takes.deals} "
                f"deal{'s' * (takes.deals != 1)}: too few deals to say more ({MIN_DEALS} "
                "needed)")
    return (f"{shown}, {done} {figure('done_share', f['done_share'])}, "
            f"{figure('mean_vp', f['mean_vp'])} on average; its {who} win share minus that of "
            f"the other seats of their strategies {win_words(f['win_difference'])}")


def card_figures(c: CardChange) -> str:
    """A changed card's figures under the change (and the base), each with its 95%
    interval: noise never reads as a finding; a card not taken, or taken in too few deals
    (``card_intervals.MIN_DEALS``), says so instead."""
    b, v = c.base, c.variant
    head = c.card + (f" {c.keys[0]}" if c.keys[0:1] and c.keys[0].startswith("at ") else
                     f" ({'; '.join(c.keys)})" if c.keys else "")
    if c.takes is not None and any(t.deals < MIN_DEALS for t in c.takes):
        return f"{head}: {_side(c, v, c.takes[1])}; base: {_side(c, b, c.takes[0])}."
    took, done, who = c.kind.verbs.took, c.kind.verbs.done, c.kind.verbs.takers
    return (f"{head}: {took} by {figure('taken_share', v['taken_share'])} of seats (base "
            f"{figure('taken_share', b['taken_share'])}), {done} "
            f"{figure('done_share', v['done_share'])} (base "
            f"{figure('done_share', b['done_share'])}), "
            f"{figure('mean_vp', v['mean_vp'])} on average (base "
            f"{figure('mean_vp', b['mean_vp'])}); its {who} win share minus that of the "
            f"other seats of their strategies {win_words(v['win_difference'])} (base "
            f"{win_words(b['win_difference'])}).")


def neutral_near(found: Sequence[SweepGroup], players: int, play: str, card: str) -> str:
    """", neutral near reward.vp = 5.2 (95% interval 4.1 to 6.3)" where a sweep of this
    player count and play finds the card (or the component: ``card`` its entry) neutral
    (``neutral_words.where_neutral``); "" where none does."""
    for group in found:
        if (group.players, group.population) != (players, play) or group.neutral is None:
            continue
        cards = [c.cards.cards[0].card for _, c in group.values if c.cards and c.cards.cards]
        if (cards[0] if cards else group.sweep.entry) != card:
            continue
        if group.neutral.at is None and not group.neutral.ends and not group.neutral.tried:
            continue  # no crossing and nothing more known: no claim
        if group.neutral.empty and group.neutral.above is None:
            continue
        return f", neutral {where_neutral(group.neutral, group.sweep.key)}"
    return ""


def card_line(c: CardChange, margin: float = CARD_MARGIN, near: str = "") -> str:
    """One line for a changed card: too weak, about right or too strong under the change
    (its takers' win difference against the card margin, ``cards.CARD_MARGIN`` unless
    --card-margin), or which of them the interval still allows; ``near``: where a sweep
    finds it neutral. A card not taken, or taken in too few deals, says so."""
    win = c.variant["win_difference"]
    side = card_side(win, margin)
    said = f"{c.card}: {side}"
    who = c.kind.verbs.takers
    takes = c.takes[1] if c.takes is not None else None
    if takes is not None and takes.deals < MIN_DEALS:
        took = c.kind.verbs.took
        why = (f"not {took} in {takes.games:,} games" if takes.seats == 0 else
               f"{took} in {takes.deals} deal{'s' * (takes.deals != 1)} only, {MIN_DEALS} "
               "needed")
        return f"{said} ({why}): its {who} win difference needs more games{near}"
    if side == "not decided":
        low, high = win[1], win[2]
        if math.isfinite(low) and math.isfinite(high):
            could = [s for s, ok in zip(SIDES, (low < -margin, low < margin and high > -margin,
                                                high > margin), strict=True) if ok]
            said += f" (could be {' or '.join(could)})"
        else:
            said += " (too few takes to say)"
    return (f"{said}: its {who} win difference {figure('win_difference', win)} against a "
            f"card margin of ±{100 * margin:.1f} pts{near}")


__all__ = ["card_figures", "card_line", "figure", "neutral_near", "win_words"]
