"""Where a swept card or component is neutral, in the words the sweep page, ``cdsim whatif``
and ``cdsim study report`` share (``cdsim.analysis.sweep.Neutral``; docs/guide.md, "Where
a swept component is neutral"): near a value with its 95% range where the range is
narrower than a step between the values tried, "somewhere between X and Y" where it is
wider, the range's open side where it reaches past the values tried, and "outside the
values tried, if anywhere" where no value tried or between can be neutral."""

from __future__ import annotations

from cdsim.analysis.sweep import Neutral


def _tried(found: Neutral) -> str:
    return ", ".join(f"{v:g}" for v in found.tried)


def where_neutral(found: Neutral, key: str, lead: str = "near") -> str:
    """"near reward.vp = 5.2 (95% interval 4.1 to 6.3)", "somewhere between count = 3.1
    and 8.4 (95%; these games place it no closer)", ...: what follows "neutral" (``lead``:
    the word before a crossing's value, "at about" on the sweep page)."""
    ends, at = found.ends, found.at
    if found.empty:
        return f"outside the values tried ({_tried(found)}), if anywhere"
    if not ends:  # the range reaches past both ends
        return (f"anywhere from below the first value tried to past the last ({_tried(found)}) "
                "(95%): these games cannot place it")
    if len(ends) == 1:
        if at is not None:
            return f"{lead} {key} = {at:.1f} (its interval reaches beyond the values tried)"
        side = (f"or below, perhaps below the first value tried ({found.tried[0]:g})"
                if found.past[0] else
                f"or above, perhaps past the last value tried ({found.tried[-1]:g})")
        return (f"at {key} = {ends[0]:.1f} {side} (95%; its interval reaches beyond the "
                "values tried)")
    if at is not None and not found.wide:
        return f"{lead} {key} = {at:.1f} (95% interval {ends[0]:.1f} to {ends[1]:.1f})"
    return (f"somewhere between {key} = {ends[0]:.1f} and {ends[1]:.1f} (95%; these games "
            "place it no closer)")


def neutral_sentence(found: Neutral, name: str, who: str, key: str) -> str:
    """One sentence on where ``name`` (a card's id, a component's noun) is neutral: its
    ``who`` ("takers", "users") win as often as the other seats of their strategies (the
    sweep page's words, "at about" a crossing)."""
    if found.empty:
        way = "more" if found.above else "less"
        side = "above" if found.above else "below"
        return (f"{name}'s {who} win {way} often than the other seats of their strategies at "
                f"every value tried (each 95% interval {side} 0): it is neutral "
                f"{where_neutral(found, key)}.")
    return (f"**{name} is neutral** (its {who} win as often as the other seats of their "
            f"strategies) {where_neutral(found, key, 'at about')}.")


__all__ = ["neutral_sentence", "where_neutral"]
