"""``cdsim whatif``'s answer, comparison by comparison, in the one set of words the terminal
prints and the pages show (#61 item 3): whether seat balance moves and how far it can at
most (``paired.Comparison.words`` and ``bound_words``), then each changed card's verdict line
at the card margin (``cards.CARD_MARGIN``; the terminal's at ``--card-margin``) and its
figures (``whatif_words.card_line`` and ``card_figures``), each other changed component's
verdict line and figures (``use_words``: its use as the game's rows record it) and the
change's effect on each style's win share (``change_lines``). The terminal words a live
comparison (``head`` and ``card_lines``); a page and ``cdsim study report`` word the study's
record of it (``answers``), so a later change of these words reaches both."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from cdsim.analysis.cards import CARD_MARGIN
from cdsim.analysis.paired import Comparison
from cdsim.study.cards import CardChange, VariantCards
from cdsim.study.results import StudyResults, card_margin_of
from cdsim.study.use_words import component_figures, component_line, style_line, unrecorded_lines
from cdsim.study.uses import ComponentChange
from cdsim.study.whatif_words import card_figures, card_line, neutral_near


def head(comp: Comparison) -> str:
    """Whether seat balance moves, how far at most (95%), and on how many games."""
    return f"{comp.words()}; {comp.bound_words()} ({comp.games:,} games a side)"


def card_lines(cards: Sequence[CardChange], margin: float = CARD_MARGIN,
               near: Callable[[str], str] = lambda _: "") -> list[str]:
    """Per changed card: its verdict line at the card ``margin`` (``near``: where a sweep
    finds it neutral, by card), then its figures."""
    out = []
    for card in cards:
        out += [card_line(card, margin, near(card.card)), card_figures(card)]
    return out


def change_lines(changed: VariantCards | None, margin: float = CARD_MARGIN,
                 near: Callable[[str], str] = lambda _: "") -> list[str]:
    """What a variant's changes do to the components themselves: each changed card's lines
    (``card_lines``), each other changed component's verdict line and figures, then the
    effect on each style's win share (``near``: where a sweep finds a card or component
    neutral, by card id or entry)."""
    if changed is None:
        return []
    out = card_lines(changed.cards, margin, near)
    alike: dict[tuple[str, str, str | None], list[ComponentChange]] = {}
    for c in changed.components:
        if c.recorded:
            out.append(component_line(c, margin, near(c.entry)))
            shown = component_figures(c)
            out += [shown] if shown is not None else []
        else:  # said once for those not recorded for one reason, through one source
            alike.setdefault((c.use.why, c.use.words, c.use.source), []).append(c)
    for group in alike.values():
        out += unrecorded_lines(group, near(group[0].entry) if len(group) == 1 else "")
    styles = style_line(changed.styles)
    return out + ([styles] if styles is not None else [])


@dataclass(frozen=True)
class Answer:
    """One comparison of a study's variant against its base, in words."""

    players: int
    play: str
    variant: str
    head: str
    cards: tuple[str, ...]
    anytime: bool  # cdsim whatif's intervals, valid at every look (else fixed 95%)


def answers(result: StudyResults) -> list[Answer]:
    """Every variant cell's answer that the study's record holds (a whatif's comparisons,
    else the paired 95% intervals), in the study's order."""
    out = []
    margin = card_margin_of(result.manifest)  # the whatif's --card-margin, as recorded
    for c in result.cells:
        change = result.changes.get(c.key)
        if c.variant is None or change is None:
            continue
        comp = change.comparison

        def near(card: str, players: int = c.players, play: str = c.population) -> str:
            return neutral_near(result.sweeps, players, play, card)

        out.append(Answer(c.players, c.population, c.variant, head(comp),
                          tuple(change_lines(c.cards, margin, near)), change.anytime))
    return out


__all__ = ["Answer", "answers", "card_lines", "change_lines", "head"]
