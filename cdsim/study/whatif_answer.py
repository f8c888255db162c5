"""``cdsim whatif``'s answer, comparison by comparison, in the one set of words the terminal
prints and the pages show (#61 item 3): whether seat balance moves and how far it can at
most (``paired.Comparison.words`` and ``bound_words``), then each changed card's verdict line
at the card margin (``cards.CARD_MARGIN``; the terminal's at ``--card-margin``) and its
figures (``whatif_words.card_line`` and ``card_figures``). The terminal words a live
comparison (``head`` and ``card_lines``); a page and ``cdsim study report`` word the study's
record of it (``answers``), so a later change of these words reaches both."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from cdsim.analysis.cards import CARD_MARGIN
from cdsim.analysis.paired import Comparison
from cdsim.study.cards import CardChange
from cdsim.study.results import StudyResults
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
    for c in result.cells:
        change = result.changes.get(c.key)
        if c.variant is None or change is None:
            continue
        comp = change.comparison
        cards = c.cards.cards if c.cards else ()

        def near(card: str, players: int = c.players, play: str = c.population) -> str:
            return neutral_near(result.sweeps, players, play, card)

        out.append(Answer(c.players, c.population, c.variant, head(comp),
                          tuple(card_lines(cards, CARD_MARGIN, near)), change.anytime))
    return out


__all__ = ["Answer", "answers", "card_lines", "head"]
