"""The answer a study page opens with (``reports.study.page``): a change's boxes first
(``change_boxes``: whether seat balance moves and what the changed cards do), then one box
per player count (``answer_boxes``: each skilled population's verdict, the floor below it),
and a headline per player count (``headline``): it names a vector only if it was
confirmed, says whether the skilled populations agree, and says plainly when no vector
was confirmed. The verdicts are the study's own; this module words them."""

from __future__ import annotations

from collections.abc import Sequence

from cdsim.analysis.anytime import CONFIRM_SHARE, MIN_GROUPS, Verdict
from cdsim.analysis.cell import Shares
from cdsim.analysis.fmt import pp, rulebook, vec
from cdsim.analysis.rare import note
from cdsim.batch import cost
from cdsim.study.cell import CellResult
from cdsim.study.manifest import PlayRate
from cdsim.study.results import StudyResults
from cdsim.study.whatif_answer import answers
from reports.report import Doc
from reports.study import recommend as study_recommend
from reports.study import sweep as study_sweep
from reports.study.cell import offsets_text, pointed_words, unfinished, who

# an undecided cell whose prediction finds no size that confirms with 80% chance: its
# estimate is too uncertain (the truth may be unfair), not shown unconfirmable
TOO_FEW = ("too few games to predict how many more would confirm one, as the truth may lie "
           "beyond the tolerance")


def headlines(result: StudyResults) -> dict[int, str]:
    """One headline per player count that has a finished cell, led by the vector to print
    (``reports.study.recommend``) where a skilled population played."""
    out = {}
    for p in result.manifest.players:
        if not any(c.players == p for c in result.cells):
            continue
        text = headline(p, [c for c in result.cells if c.players == p], result.tolerance,
                        result.manifest.rate, result.manifest.stopped)
        rec = result.recommendations.get(p)
        changed = [a for a in answers(result) if a.players == p]
        if result.manifest.whatif is not None and changed:  # the change's answer leads
            head, rest = text.split(": ", 1)
            text = (f"{head}: what the change does: "
                    + "; ".join(f"{a.play}: {a.head}" for a in changed)
                    + f". The base's own starting VP: {rest}")
        elif rec is not None:
            head, rest = text.split(": ", 1)
            notes = "".join(f" {n}" for n in result.rare_notes(p))
            text = (f"{head}: {study_recommend.sentence(rec, result.tolerance)}{notes} "
                    f"{rest[:1].upper()}{rest[1:]}")
        out[p] = text
    return out


def gap_text(s: Shares | Verdict) -> str:
    """A largest seat gap with its 95% interval, as the answer and the tables say it."""
    low, high = s.gap_interval
    return f"{pp(s.largest_gap)} (95% interval {100 * low:.1f}–{pp(high)})"


def _shown(d: Verdict) -> str:
    """What a confirmation shows when the study has a precision (zone): every seat pair
    within the tolerance plus it (a gap between the two may be called either way)."""
    if not d.zone:
        return ""
    return f": every seat pair shown within {pp(d.tolerance + d.zone)}"


def _needed(c: CellResult) -> str:
    """``games_needed`` as the procedure labels it: "about N" when it was predicted from the
    watched vector's own test games (calibrated: about an 80% chance), "at least about N"
    when from the games it was picked on as the most equal (then optimistic)."""
    d = c.decision
    assert d is not None and d.games_needed is not None
    own = c.players == 2 or any(
        d.watch in choice.vectors and choice.stage < d.decided_at
        and _games_after(d, choice.stage) >= MIN_GROUPS * c.deal
        for choice in d.choices)
    return ("about " if own else "at least about ") + f"{d.games_needed:,}"


def _how_long(c: CellResult, rate: PlayRate | None) -> str:
    """How long a cell's ``games_needed`` takes here: at the rate its run measured, else on
    this machine's cores at the recorded costs; saying which."""
    d = c.decision
    assert d is not None and d.games_needed is not None
    ms = cost.game_ms(c.lineups, c.state.pool, c.players, c.state.game)
    if rate is not None:
        took = cost.duration(rate.seconds_for(d.games_needed, ms))
        return f" (about {took} here at the run's measured rate)"
    return f" (about {cost.games_time(d.games_needed, ms)} here at recorded costs)"


def _games_after(d: Verdict, stage: int) -> int:
    """Games played after the look at ``stage`` (a choice's test games so far)."""
    looks = {look.stage: look.games for look in d.looks}
    return d.games - looks.get(stage, d.games)


def _why_not(c: CellResult, tolerance: float, rate: PlayRate | None = None,
             stopped: str | None = None) -> str:
    """Why a skilled cell names no vector, in one clause."""
    d = c.decision
    if d is None:
        return f"{c.label}: {unfinished(c, stopped)}"
    if d.decision == "no fair vector":
        return (f"{c.label}: no whole-VP vector within ±{c.radius} VP of the rulebook's keeps "
                f"every seat within ±{pp(tolerance)} (shown on {d.games:,} games)")
    more = (f"{_needed(c)} more games{_how_long(c, rate)} would likely confirm its most promising "
            "vector"
            if d.games_needed is not None and d.watch is not None else
            TOO_FEW)
    return f"{c.label}: undecided after {d.games:,} games ({more})"


def _at_rulebook(c: CellResult) -> str:
    """The rulebook vector's largest seat gap for one population, on that population's own
    games (each number beside the population it comes from)."""
    s = c.figures.at_rulebook
    low, high = s.gap_interval
    return (f"{pp(s.largest_gap)} for {c.population} (95% interval {100 * low:.1f}–{pp(high)}, "
            f"{s.games:,} games)")


def _confirmed_text(c: CellResult, tolerance: float) -> str:
    """One population's confirmation: the set shown fair first when it holds several (with
    the fair offsets that explain it), then the vector named by the stated rule."""
    d = c.decision
    assert d is not None
    evidence = (f"largest seat gap {gap_text(d)} on the {d.games_tested:,} {c.population} "
                "games played since it was chosen")
    if len(d.fair_set) == 1:
        return (f"{vec(d.vector)} is confirmed fair within ±{pp(tolerance)}{_shown(d)} for "
                f"{c.population}, {evidence}")
    offsets = c.figures.offsets
    why = ("" if offsets is None else
           f" (its fair offsets lie between whole VP: {offsets_text(offsets)})")
    return (f"{len(d.fair_set)} vectors are shown fair within ±{pp(tolerance)}{_shown(d)} for "
            f"{c.population}: {', '.join(vec(v) for v in d.fair_set)}{why}; the stated rule "
            f"(the smallest gap, then the fewest VP changed from the rulebook) names "
            f"{vec(d.vector)}, {evidence}")


def headline(players: int, cells: Sequence[CellResult], tolerance: float,
             rate: PlayRate | None = None, stopped: str | None = None) -> str:
    """One paragraph per player count, about the skilled populations' base cells only: it
    names a vector only if it was confirmed, says whether the populations agree, and every
    number in it stands beside the population whose games gave it."""
    head = f"{players} players: "
    skilled = [c for c in cells if not c.floor and c.variant is None]
    if not skilled:
        return head + "no skilled population in this study (only the floor), so no answer."
    named = rulebook(skilled[0].rulebook)
    rule = (f"The rulebook's {vec(skilled[0].rulebook)}" if named.startswith("rulebook")
            else named[0].upper() + named[1:])
    tail = (f" {rule} leaves a largest seat gap of "
            + " and ".join(_at_rulebook(c) for c in skilled) + ".")
    confirmed = [c for c in skilled if c.decision and c.decision.decision == "confirmed"]
    others = [c for c in skilled if c not in confirmed]
    if not confirmed:
        return (head + f"no vector was confirmed fair within ±{pp(tolerance)}: "
                + "; ".join(_why_not(c, tolerance, rate, stopped) for c in others) + "." + tail)
    sets = [{tuple(v) for v in c.decision.fair_set} for c in confirmed if c.decision]
    shared = set.intersection(*sets)
    named = ", ".join(f"{c.population} {vec(c.decision.vector)}" for c in confirmed
                      if c.decision)
    if len(confirmed) == 1:
        text = _confirmed_text(confirmed[0], tolerance)
    elif shared and all(c.decision and tuple(c.decision.vector) in shared for c in confirmed):
        common = sorted(shared)[0]
        text = (f"the skilled populations agree: {vec(common)} is confirmed fair within "
                f"±{pp(tolerance)} for each of them ({named}); "
                + "; ".join(_confirmed_text(c, tolerance) for c in confirmed))
    elif shared:
        text = (f"the skilled populations agree on a fair vector: {vec(sorted(shared)[0])} was "
                f"shown fair within ±{pp(tolerance)} for each, though each names its own ({named})")
    else:
        text = (f"the skilled populations disagree: each confirmed its own vector ({named}), "
                "and none was shown fair for all of them")
    if others:
        text += "; no vector confirmed for " + "; ".join(_why_not(c, tolerance, rate, stopped)
                                                         for c in others)
    return head + text + "." + tail


def _box_lines(c: CellResult, tolerance: float, alpha: float,
               rate: PlayRate | None = None, provisional: bool = False,
               stopped: str | None = None) -> list[str]:
    d = c.decision
    rule, rule_bold = rulebook(c.rulebook), rulebook(c.rulebook, bold=True)
    if d is None:
        return [f"{rule_bold} → {unfinished(c, stopped)}",
                f"{rule}: largest seat gap {gap_text(c.figures.at_rulebook)}"]
    if d.decision == "confirmed" and len(d.fair_set) > 1:
        # the answer is the set: say so first, then the one the stated rule names
        lines = [f"{rule_bold} → **{len(d.fair_set)} vectors shown fair**: "
                 + ", ".join(vec(v) for v in d.fair_set),
                 f"**confirmed** fair within ±{pp(tolerance)}{_shown(d)} (a wrong confirmation "
                 f"happens in at most {alpha * CONFIRM_SHARE:.1%} of cells)"]
        if c.figures.offsets is not None:
            lines.append(f"why several: the fair point lies between whole VP "
                         f"({offsets_text(c.figures.offsets)})")
        lines.append(f"named by the stated rule (the smallest gap, then the fewest VP changed "
                     f"from the rulebook): decided **{vec(d.vector)}**, largest seat gap "
                     f"{gap_text(d)} on the {d.games_tested:,} games played since it was chosen")
    elif d.decision == "confirmed":
        lines = [f"{rule_bold} → decided **{vec(d.vector)}**",
                 f"**confirmed** fair within ±{pp(tolerance)}{_shown(d)} (a wrong confirmation "
                 f"happens in at most {alpha * CONFIRM_SHARE:.1%} of cells)",
                 f"largest seat gap {gap_text(d)} on the {d.games_tested:,} games played "
                 "since it was chosen"]
    elif d.decision == "no fair vector":
        lines = [f"{rule_bold} → **no whole-VP vector is fair** within ±{pp(tolerance)} "
                 f"(±{c.radius} VP searched)",
                 f"most equal: {vec(d.vector)}, largest seat gap {gap_text(d)}"]
    else:
        need = (f"**{_needed(c)}** more games{_how_long(c, rate)} would confirm {vec(d.watch)} "
                "with about an "
                "80% chance (a prediction from the games so far)"
                if d.games_needed is not None and d.watch is not None else
                TOO_FEW)
        spent = (f"{c.games:,} games so far: play stopped" if provisional else
                 f"budget of {c.budget:,} games spent")
        lines = [f"{rule_bold} → **undecided** ({spent})",
                 f"most equal so far: {vec(d.vector)} (not confirmed), largest seat gap "
                 f"{gap_text(d)}; {need}"]
    if d.decision == "confirmed" and d.name_words:
        lines.append(f"how close the name is: {d.name_words}")
    lines.append(f"games played: {d.games:,} (the named vector judged on "
                 f"{d.games_tested:,} of them)")
    lines.append(f"{rule}: largest seat gap {gap_text(c.figures.at_rulebook)}")
    if c.figures.offsets is not None:
        lines.append(f"fair offsets on all {c.games:,} games: {offsets_text(c.figures.offsets)}"
                     + pointed_words(c.rulebook, d.vector, c.figures.offsets, c.state.radius))
    return lines


def answer_boxes(doc: Doc, result: StudyResults) -> None:
    """The answer first: one box per player count, each skilled population's verdict, then
    the floor (muted: shown, never part of the answer)."""
    alpha = result.manifest.alpha
    boxes = []
    for players in result.manifest.players:
        mine = [c for c in result.cells if c.players == players and c.variant is None]
        if not mine:
            continue
        groups = []
        rec = result.recommendations.get(players)
        if rec is not None:  # the vector to print leads, each population's own below it
            groups.append((f"**the vector to print: {vec(rec.vector)}**",
                           study_recommend.box_lines(rec, result.tolerance)
                           + result.rare_notes(players), False))
        for c in [x for x in mine if not x.floor] + [x for x in mine if x.floor]:
            head = ("floor: " if c.floor else "") + f"**{c.population}** ({who(c)})"
            lines = _box_lines(c, result.tolerance, alpha, result.manifest.rate,
                               result.provisional, result.manifest.stopped)
            if result.rare.get(c.key):  # beside the verdict: what its fairness is about
                lines.insert(2, note(result.rare[c.key]))
            groups.append((head, lines, c.floor))
        kinds = [c.verdict for c in mine if not c.floor]
        kind = ("confirmed" if kinds and all(k == "confirmed" for k in kinds) else
                "unfair" if "no fair vector" in kinds else "open")
        boxes.append((f"{players} players", groups, kind))
    doc.boxes(boxes)


def change_boxes(doc: Doc, result: StudyResults) -> None:
    """A study with variants answers "what does my change do?" first: per variant, for
    each player count and population, whether seat balance moves (each seat's paired
    change at the rulebook's vector: ``cdsim whatif``'s anytime intervals when it played
    the study, else the variants section's 95% intervals) and what the changed cards do."""
    m = result.manifest
    boxes = []
    said = {(a.players, a.play, a.variant): a for a in answers(result)}
    for variant in [v.name for v in m.variants if not v.sweep]:
        groups = []
        kinds = set()
        for c in result.cells:
            change = result.changes.get(c.key) if c.variant == variant else None
            answer = said.get((c.players, c.population, variant))
            if change is None or answer is None:
                continue
            kinds.add(change.comparison.outcome)
            # the terminal's words (cdsim.study.whatif_answer), then how the intervals hold
            lines = [answer.head, "intervals valid at every look" if answer.anytime else
                     "paired games, 95% intervals", *answer.cards]
            groups.append((f"**{c.players} players, {c.population}**", lines, False))
        if groups:
            kind = ("confirmed" if kinds == {"unchanged"} else
                    "unfair" if "changed" in kinds else "open")
            boxes.append((f"What {variant} does", groups, kind))
    for sweep in m.sweeps:
        found = [g for g in result.sweeps if g.sweep.name == sweep.name]
        groups = []
        for g in found:
            lines = [study_sweep.seat_sentence(g, head=False)]
            card = study_sweep.card_sentence(g, head=False)
            lines += [card] if card is not None else []
            groups.append((f"**{g.players} players, {g.population}**", lines, False))
        if groups:
            values = ", ".join(map(str, sweep.values))
            boxes.append((f"What {sweep.entry} {sweep.key} = {values} does", groups, "open"))
    if boxes:
        doc.boxes(boxes)
