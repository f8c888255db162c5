"""The verdict of a changed component that is not a card, in the words the terminal prints
and the pages show (``cdsim.study.whatif_answer``): one line, too weak, about right or too
strong at the card margin from its users' win difference (what "use" means said beside it),
or, where the rows do not record its use, that they do not and what they hold; then its
figures under the change and the base; and one line per comparison with the change's effect
on each style's win share (docs/guide.md, "A verdict for any component")."""

from __future__ import annotations

import math
from collections.abc import Sequence

from cdsim.analysis.card_intervals import MIN_DEALS
from cdsim.analysis.cards import CARD_MARGIN, Takes
from cdsim.analysis.paired import card_side
from cdsim.analysis.uses import StyleEffect
from cdsim.study.uses import ComponentChange, Figure
from cdsim.study.whatif_words import SIDES, figure, win_words


def _head(c: ComponentChange) -> str:
    """"the L-bakery tile (count 5 -> 7)": the component and its changed keys."""
    return f"{c.use.noun} ({'; '.join(c.keys)})" if c.keys else c.use.noun


def _few(c: ComponentChange, takes: Takes) -> str:
    """Why a side has no figure on its users ("" where it has)."""
    if takes.seats == 0:
        return f"not used in {takes.games:,} games"
    if takes.deals < MIN_DEALS:
        return (f"used in {takes.deals} deal{'s' * (takes.deals != 1)} only, {MIN_DEALS} "
                "needed")
    return ""


def component_line(c: ComponentChange, margin: float = CARD_MARGIN, near: str = "") -> str:
    """One line for a changed component: too weak, about right or too strong under the
    change (its users' win difference against the card ``margin``), which of them the
    interval still allows, or why there is no such line (its use not recorded, never used,
    used in too few deals); ``near``: where a sweep finds it neutral."""
    use = c.use
    if use.shared:
        return (f"{use.noun}: no verdict line: every seat {use.words}, so no seat uses it "
                f"and another not; its effect on each style is below{near}")
    if not c.recorded or c.takes is None:
        below = (f"the change of the {use.source_words} it scores through and its effect on "
                 "each style are below" if c.source is not None else
                 "its effect on each style is below")
        return (f"{use.noun}: no verdict line: its use ({use.words}) is not recorded yet "
                f"({use.why}); {below}{near}")
    few = _few(c, c.takes[1])
    said = f"{use.noun}: {card_side(c.variant['win_difference'], margin)}"
    if few:
        return (f"{use.noun}: not decided ({few}): the win difference of the seats that "
                f"{use.words} needs more games{near}")
    win = c.variant["win_difference"]
    if not math.isfinite(win[0]):  # every seat used it: no others to set its users against
        return (f"{use.noun}: no verdict line: every seat {use.words} (a seat that did not "
                f"in fewer than {MIN_DEALS} deals), so there are no others to set its users "
                f"against; how much a seat used it and the effect on each style are "
                f"below{near}")
    if said.endswith("not decided"):
        low, high = win[1], win[2]
        could = [s for s, ok in zip(SIDES, (low < -margin, low < margin and high > -margin,
                                            high > margin), strict=True) if ok]
        said += f" (could be {' or '.join(could)})"
    return (f"{said}: the win share of the seats that {use.words} minus that of the other "
            f"seats of their strategies {figure('win_difference', win)} against a card margin "
            f"of ±{100 * margin:.1f} pts{near}")


def _side(c: ComponentChange, f: dict[str, Figure], takes: Takes) -> str:
    few = _few(c, takes)
    if takes.seats == 0:
        return few
    shown = f"used by {figure('use_share', f['use_share'])} of seats"
    if few:
        return f"{shown}: too few deals to say more ({few})"
    per = f["per_user"]
    each = "-" if not math.isfinite(per[0]) else (
        f"{per[0]:.2f} {c.use.unit} [{per[1]:.2f}, {per[2]:.2f}]"
        if math.isfinite(per[1]) and math.isfinite(per[2]) else
        f"{per[0]:.2f} {c.use.unit} [interval: too few games]")
    return (f"{shown}, {each} a using seat; its users' win share minus that of the other "
            f"seats of their strategies {win_words(f['win_difference'])}")


def source_words(c: ComponentChange) -> str:
    """"; the frame VP it scores through: 5.21 a seat (base 5.02), +0.19 VP [+0.12, +0.26]"
    ("" without a source)."""
    s = c.source
    if s is None:
        return ""
    f = s.effect
    shown = ("-" if not math.isfinite(f[0]) else
             f"{_signed(f[0], 1, 2)} VP [interval: too few changed deals]"
             if not (math.isfinite(f[1]) and math.isfinite(f[2])) else
             f"{_signed(f[0], 1, 2)} VP [{_signed(f[1], 1, 2)}, {_signed(f[2], 1, 2)}]")
    return (f"; the {c.use.source_words} it scores through: {s.variant:.2f} a seat (base "
            f"{s.base:.2f}), {shown} (same deals, 95%)")


def component_figures(c: ComponentChange) -> str | None:
    """A changed component's figures under the change and the base, each with its 95%
    interval, and the change of the VP source it scores through; for a component whose use
    is not recorded, that change alone (None without one: its line says why)."""
    if not c.recorded or c.takes is None:
        said = source_words(c)
        return f"{_head(c)}: {said.removeprefix('; ')}." if said else None
    return (f"{_head(c)}: use: {c.use.words}; {_side(c, c.variant, c.takes[1])} (base: "
            f"{_side(c, c.base, c.takes[0])}){source_words(c)}.")


def _signed(x: float, scale: float = 100.0, places: int = 1) -> str:
    """``x * scale`` with its sign, a value that rounds to zero as "+0.0" (never "-0.0")."""
    shown = round(scale * x, places)
    return f"{shown + 0.0 if shown else 0.0:+.{places}f}"


def unrecorded_lines(group: Sequence[ComponentChange], near: str = "") -> list[str]:
    """Several changed components whose use the rows do not record for one reason and that
    score through one VP source (a tile family's villa tiles), said once: one line naming
    them all, and the change of their source (the same seat-row column, so one figure)."""
    if len(group) == 1:
        shown = component_figures(group[0])
        return [component_line(group[0], near=near), *([shown] if shown else [])]
    first = group[0]
    use = first.use
    names = ", ".join(c.use.noun for c in group[:-1]) + f" and {group[-1].use.noun}"
    if use.shared:
        return [f"{names}: no verdict line: every seat {use.words}, so no seat uses them "
                f"and another not; the effect on each style is below"]
    below = (f"the change of the {use.source_words} they score through and its effect on "
             "each style are below" if first.source is not None else
             "the effect on each style is below")
    out = [f"{names}: no verdict line: their use ({use.words}) is not recorded yet "
           f"({use.why}); {below}{near}"]
    said = source_words(first)
    if said:
        out.append(f"{names} ({len(group)} changed): {said.removeprefix('; ')}."
                   .replace(" it scores through", " they score through"))
    return out


def pp(f: Figure) -> str:
    """A change of win share with its interval: "+0.4 pp [-0.3, +1.1]"."""
    if not math.isfinite(f[0]):
        return "-"
    if not (math.isfinite(f[1]) and math.isfinite(f[2])):
        return f"{_signed(f[0])} pp [interval: too few changed deals]"
    return f"{_signed(f[0])} pp [{_signed(f[1])}, {_signed(f[2])}]"


def style_line(styles: Sequence[StyleEffect]) -> str | None:
    """The change's effect on each style's win share (None: one style, nothing to say)."""
    if not styles:
        return None
    return ("effect on each style's win share (change minus base, same deals, 95% each): "
            + ", ".join(f"{s.strategy} {pp(s.effect)} (base {100 * s.base:.1f}%)"
                        for s in styles))


__all__ = ["component_figures", "component_line", "pp", "source_words", "style_line",
           "unrecorded_lines"]
