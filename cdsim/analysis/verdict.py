"""The verdict of a cell (``cdsim.analysis.anytime.decide``), declared once (pydantic): the
record a study manifest, study.json and ``cdsim balance --json`` hold
(``model_dump(mode="json")``: vectors as lists, ``explain`` with them) and what a manifest
read back is checked against; its looks and choices; and its sentences for a designer
(``explain``, ``name_words``), numbers written by ``cdsim.analysis.fmt``."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, computed_field, field_validator

from cdsim.analysis.candidates import Vector
from cdsim.analysis.design import CONFIRM_SHARE
from cdsim.analysis.fmt import pp, vec
from cdsim.analysis.predict import POWER

Decision = Literal["confirmed", "no fair vector", "undecided"]


Share = Annotated[float, Field(ge=0, le=1)]
Count = Annotated[int, Field(ge=0)]
Vectors = tuple[Vector, ...]


class _Record(BaseModel):
    model_config = ConfigDict(strict=True, frozen=True, extra="forbid")


class ChoiceRecord(_Record):
    """One choice: made on the games of stages ``0..stage``, tested in order on the later
    ones at level ``alpha`` (its share of the confirmation error); ``confirmed`` is the
    prefix shown fair so far."""

    stage: Count
    vectors: Vectors
    alpha: Share
    confirmed: Vectors


class Look(_Record):
    """The state after one stage: games so far, the set shown fair, how many candidates are
    shown unfair, and the vectors chosen at this look (tested from the next stage on)."""

    stage: Count
    games: Count
    fair_set: Vectors
    shown_unfair: Count
    chosen: Vectors


class Verdict(_Record):
    """A cell's verdict at its last look (or at the look that decided it).

    ``vector``: confirmed -> the named vector of ``fair_set``; otherwise the most equal
    candidate on all games. ``largest_gap`` and ``gap_interval`` (95%, simultaneous over
    the pairs, valid at any look: a confidence sequence): confirmed -> on the games the
    named vector was tested on (``games_tested``), its upper end at most ``tolerance +
    zone`` (what the confirmation showed: the interval never contradicts it); otherwise on
    all games, where the vector was picked as the most equal, so the gap is optimistic.
    ``games_needed`` (undecided
    only): the further games after which ``watch`` is confirmed with chance about ``POWER``
    (``predicted_games``); ``None`` if no number of games gets there from this evidence.
    ``decided_at``: the stage whose look decided the cell (the last stage when undecided);
    ``tested_from``: the first stage of the games behind ``largest_gap`` (those are stages
    ``tested_from..decided_at``); with ``naming``, ``decided_at`` is the look that showed
    the name (the last stage when the budget ran out first), not the confirmation's.
    ``explain`` is computed from the rest."""

    decision: Decision
    vector: Vector
    fair_set: Vectors
    largest_gap: Share
    gap_interval: tuple[Share, Share]
    games: Count
    games_tested: Count
    tested_from: Count
    # a prediction, not games to play: it may exceed what one run may hold
    games_needed: Count | None
    watch: Vector | None
    decided_at: Count
    tolerance: Share
    alpha: Share
    # a verdict recorded before the indifference zone: none (0), nothing bounded
    zone: Share = 0.0
    best_gap_low: Share = 0.0  # the most equal candidate's gap is at least this (alpha_n)
    games_to_decide: Count | None = None  # undecided, with a zone: at most this many more
    # confirmed: the named vector's gap exceeds the most equal candidate's by at most this
    # (wrong in at most alpha of cells; ``SequentialCell.within_best``); None: not bounded
    within_best: Share | None = None
    # the cell plays on after its confirmation until ``within_best`` is at most the zone
    # (a study's ``name_within_zone``); False in a verdict recorded before it
    naming: bool = False
    choices: tuple[ChoiceRecord, ...]
    looks: tuple[Look, ...]
    # a recorded verdict (a manifest read back) holds its explanation: checked to be a
    # string, then dropped (``explain`` is computed), so a verdict reads back as itself
    recorded_explain: str | None = Field(default=None, validation_alias="explain", exclude=True,
                                         repr=False)

    @property
    def settled(self) -> bool:
        """Nothing more to play for (``is_settled``)."""
        return is_settled(self.decision, self.naming, self.within_best, self.zone)

    @field_validator("recorded_explain")
    @classmethod
    def _computed(cls, _: str | None) -> None:
        return None

    @computed_field  # type: ignore[prop-decorator]
    @property
    def explain(self) -> str:
        """One paragraph for a designer (shares and gaps in percentage points)."""
        shown = vec(self.vector)
        low, high = self.gap_interval
        gap = f"largest seat gap {pp(self.largest_gap)} (95% interval {pp(low, unit=False)} to {pp(high)})"
        alpha_c, alpha_n = self.alpha * CONFIRM_SHARE, self.alpha * (1 - CONFIRM_SHARE)
        high_tol = pp(self.tolerance + self.zone)
        low_tol = pp(self.tolerance - self.zone)
        if self.decision == "confirmed":
            others = [vec(v) for v in self.fair_set if v != self.vector]
            also = f"; also shown fair: {', '.join(others)}" if others else ""
            return (f"Fair within ±{pp(self.tolerance)}{self._zone_words()}: starting VP {shown}, "
                    f"the most equal of those shown fair, shown on {self.games_tested:,} games "
                    f"({gap}){also}{self._near_words()}. The procedure calls a vector fair whose "
                    f"seats lie {high_tol} or more apart in at most {alpha_c:.1%} of cells, "
                    f"however often it looks or is extended.")
        if self.decision == "no fair vector":
            return (f"No whole-VP starting vector near the rulebook's is fair within "
                    f"±{pp(self.tolerance)}{self._zone_words()}; the most equal is {shown} ({gap}). "
                    f"The procedure says this of a cell that has a vector within {low_tol} in at "
                    f"most {alpha_n:.1%} of cells.")
        more = ("these games are too few to predict how many more would confirm one (the truth may "
                "lie beyond the tolerance)"
                if self.games_needed is None or self.watch is None else
                f"about {self.games_needed:,} more games would confirm {vec(self.watch)} "
                f"with a {POWER:.0%} chance if its gap is what it looks like now")
        either = ("" if not self.games_to_decide else
                  f"; at most about {self.games_to_decide:,} more decide the cell either way")
        return (f"Undecided after {self.games:,} games: the most equal vector so far is {shown} "
                f"({gap}); {more}{either}. Every game played so far keeps counting if the cell "
                "goes on.")

    def _zone_words(self) -> str:
        if not self.zone:
            return ""
        return f" (to {pp(self.zone)}: shown below {pp(self.tolerance + self.zone)})"

    @property
    def name_words(self) -> str:
        """How much more equal than the named vector another candidate may be
        (``within_best``, at ``1 - alpha``; within the zone, the naming promise); "" when
        not bounded."""
        room = self.within_best
        if room is None or not self.zone:
            return ""
        if room <= self.zone:
            return (f"no candidate is more than {pp(room)} more equal "
                    f"({1 - self.alpha:.0%} confidence)")
        return (f"another candidate may be up to {pp(room)} more equal (more games would "
                f"tell them apart)")

    def _near_words(self) -> str:
        return f"; {self.name_words}" if self.name_words else ""


def is_settled(decision: str, naming: bool, within_best: float | None, zone: float) -> bool:
    """A verdict with nothing more to play for: "no fair vector", or confirmed (with
    ``naming``, its name shown within the zone of the most equal). A recorded verdict's
    fields as they are (a manifest's dict) or ``Verdict.settled``."""
    if decision != "confirmed":
        return decision == "no fair vector"
    return not naming or (within_best is not None and within_best <= zone)
