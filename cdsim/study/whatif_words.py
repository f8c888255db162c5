"""``cdsim whatif``'s answer in the terminal, in a designer's words: how far seat balance can
move (``paired.Comparison.bound_words``), each changed card's figures with their 95%
intervals (an undecided one said so), and one line per card and player count: too weak,
about right or too strong at the designer's margin (``paired.card_side``), neutral near
the value a sweep finds."""

from __future__ import annotations

import math
from collections.abc import Sequence

from cdsim.analysis.paired import CardSide, card_side
from cdsim.study.cards import CardChange, Figure
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


def card_figures(c: CardChange) -> str:
    """A changed card's figures under the change (and the base), each with its 95%
    interval: noise never reads as a finding."""
    b, v = c.base, c.variant
    head = c.card + (f" {c.keys[0]}" if c.keys[0:1] and c.keys[0].startswith("at ") else
                     f" ({'; '.join(c.keys)})" if c.keys else "")
    took, done = ("taken", "fulfilled") if c.kind == "objective" else ("drawn", "kept")
    who = "takers'" if c.kind == "objective" else "drawers'"
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
    player count and play finds the card neutral; "" where none does."""
    for group in found:
        if (group.players, group.population) != (players, play) or group.neutral is None:
            continue
        cards = [c.cards.cards[0].card for _, c in group.values if c.cards and c.cards.cards]
        at, ends = group.neutral.at, group.neutral.ends
        if at is None or not cards or cards[0] != card:
            continue
        span = (f" (95% interval {ends[0]:.1f} to {ends[1]:.1f})" if len(ends) == 2 else
                " (its interval reaches beyond the values tried)")
        return f", neutral near {group.sweep.key} = {at:.1f}{span}"
    return ""


def card_line(c: CardChange, margin: float, near: str = "") -> str:
    """One line for a changed card: too weak, about right or too strong under the change
    (its takers' win difference against the designer's ``margin``), or which of them the
    interval still allows; ``near``: where a sweep finds it neutral."""
    win = c.variant["win_difference"]
    side = card_side(win, margin)
    said = f"{c.card}: {side}"
    if side == "not decided":
        low, high = win[1], win[2]
        if math.isfinite(low) and math.isfinite(high):
            could = [s for s, ok in zip(SIDES, (low < -margin, low < margin and high > -margin,
                                                high > margin), strict=True) if ok]
            said += f" (could be {' or '.join(could)})"
        else:
            said += " (too few takes to say)"
    who = "takers'" if c.kind == "objective" else "drawers'"
    return (f"{said}: its {who} win difference {figure('win_difference', win)} against a "
            f"margin of ±{100 * margin:.1f} pts{near}")


__all__ = ["card_figures", "card_line", "figure", "neutral_near", "win_words"]
