"""A study's sweeps in its report (``[[sweep]]``: one component value tried over a list).

Per swept value, per player count and population: each seat's fair offset (the starting VP
over seat 1 that equalises its win share with seat 1's) with its 95% interval, and each
seat's win-share difference against the base cell (the same deals, paired) with 95%
intervals simultaneous over the seats. The seats *come out fair* at a value when every
seat's fair-offset interval covers the offset the study's starting VP gives that seat (0
when all seats start equal): the intervals do not exclude it. That is all the sentence
claims; a verdict within the tolerance is each variant cell's own (the Variants table).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from cdsim.analysis.fmt import number, pp, pts_interval, seat_label, vec
from cdsim.games.features import CardKind
from cdsim.study.cell import CellResult
from cdsim.study.manifest import StudyManifest
from cdsim.study.neutral_words import neutral_sentence
from cdsim.study.sweep_groups import SweepGroup, groups
from reports import charts
from reports.charts import FloatArray
from reports.report import Doc
from reports.study import cards as study_cards
from reports.study.cell import offsets_json


def _row(group: SweepGroup, value: int | None, cell: CellResult) -> dict[str, object]:
    seats = range(1, group.players + 1)
    difference, interval = None, None
    if cell.difference is not None:
        mean, low, high = cell.difference
        difference = {str(s): number(mean[s - 1], 5) for s in seats}
        interval = {str(s): [number(low[s - 1], 5), number(high[s - 1], 5)] for s in seats}
    return {"value": value, "variant": cell.variant, "key": cell.key,
            "players": group.players, "population": group.population, "floor": cell.floor,
            "games": cell.games, "start_vp": list(cell.rulebook),
            "start_vp_offset": {str(s): group.played[s - 1] for s in seats},
            **offsets_json(cell), "difference": difference, "difference_interval": interval,
            "paired_games": cell.paired_games, "fair_at_start_vp": group.fair(cell),
            **study_cards.as_json(cell)}


def seat_sentence(group: SweepGroup, head: bool = True) -> str:
    """Whether seat balance moves with the value, in plain words: each value's paired
    change of every seat's win share against the base, judged at the run's precision
    (``CellResult.change``: ``cdsim.analysis.paired.judge``, on the 95% intervals
    simultaneous over the seats; ``cdsim whatif``'s ``--precision``, else
    ``paired.PRECISION``)."""
    lead = f"{group.players} players, {group.population}: " if head else ""
    judged = group.changes
    if not judged:
        return lead + "no value has paired games against the base yet."
    eps = f"±{pp(judged[0][1].precision)}"
    still = [v for v, j in judged if j.outcome == "unchanged"]
    moved = [(v, j) for v, j in judged if j.outcome == "changed"]
    if len(still) == len(judged):
        return (lead + f"**seat balance does not move** at any value tried (every seat's win "
                f"share within {eps} of the base's, on the same deals).")
    parts = []
    if still:
        parts.append(f"seat balance does not move at {', '.join(map(str, still))} (within {eps})")
    for v, j in moved:
        parts.append(f"at {v}: {j.words()}")
    open_ = [v for v, j in judged if j.outcome in ("undecided", "measured")]
    if open_:
        parts.append(f"at {', '.join(map(str, open_))} these games cannot tell a move of "
                     f"{eps} from none")
    return lead + "; ".join(parts) + "."


def card_sentence(group: SweepGroup, head: bool = True) -> str | None:
    """Where the swept card (or component, its use recorded) is neutral: its takers (users)
    win as often as the other seats of their strategies, near the value where its win
    difference crosses 0 with the 95% range of values where it may (``Neutral``; "somewhere
    between" where that range is wider than a step between the values tried, "outside the
    values tried" where none can be); None when the sweep has neither's figures."""
    found, swept = group.neutral, group.swept
    if found is None or swept is None or (found.empty and found.above is None):
        return None
    name, who, _ = swept
    lead = f"{group.players} players, {group.population}: " if head else ""
    return lead + neutral_sentence(found, name, who, group.sweep.key)


def sentence(group: SweepGroup) -> str:
    """Where the seats come out fair, claiming no more than the intervals say."""
    key = f"{group.sweep.entry} {group.sweep.key}"
    head = f"{group.players} players, {group.population}: "
    tried = [v for v, _ in group.values]
    if all(group.fair(c) is None for _, c in group.values):
        return head + ("its players read the scores, so it is judged at the rulebook vector "
                       "only and has no fair offset: see the Variants table.")
    at = f"the starting VP played ({vec(group.rulebook)})"
    good = group.fair_values
    if not good:
        return (head + f"none of the values tried ({', '.join(map(str, tried))}) makes the seats "
                f"come out fair at {at}: at each, some seat's 95% interval for its fair offset "
                "excludes that seat's offset there (or was not located).")
    rest = [v for v in tried if v not in good]
    text = (head + f"the seats come out fair at {at} with {key} = {', '.join(map(str, good))}: "
            "there every seat's 95% interval for its fair offset covers that seat's offset")
    if rest:
        return text + f"; at {', '.join(map(str, rest))} some seat's interval excludes it."
    return text + " (at every value tried: these games cannot tell the values apart)."


def as_json(manifest: StudyManifest, found: Sequence[SweepGroup]) -> list[dict[str, object]]:
    """study.json's ``sweeps``: per sweep, one row per value (per player count and
    population), the base cells' rows beside them, and the sentences; seats from 1."""
    out = []
    for sweep in manifest.sweeps:
        mine = [g for g in found if g.sweep.name == sweep.name]
        out.append({**{k: getattr(sweep, k) for k in ("name", "description", "entry", "key",
                                                      "base", "base_value", "values")},
                    "rows": [_row(g, v, c) for g in mine for v, c in g.values],
                    "base_rows": [_row(g, None, g.base) for g in mine if g.base is not None],
                    "fair": [{"players": g.players, "population": g.population,
                              "values": g.fair_values, "sentence": sentence(g),
                              "seat_balance": seat_sentence(g), "card": card_sentence(g)}
                             for g in mine]})
    return out


def _span(x: float, low: float, high: float) -> str:
    if not np.isfinite(x):
        return "not located"
    if not (np.isfinite(low) and np.isfinite(high)):
        return f"{x:+.1f} (interval not located)"
    return f"{x:+.1f} [{low:+.1f}, {high:+.1f}]"


def _cells(group: SweepGroup, label: str, cell: CellResult
           ) -> tuple[list[object], list[object]]:
    """A value's row of each of the two tables: its fair offsets, its change against the
    base."""
    n = group.players
    offsets = (["-"] * (n - 1) if cell.figures.offsets is None else
               [_span(o.offset, o.low, o.high) for o in cell.figures.offsets])
    diff: list[object] = ["-"] * n
    if cell.difference is not None:
        mean, low, high = cell.difference
        diff = [pts_interval(mean[s], low[s], high[s]) for s in range(n)]
    covered = group.fair(cell)
    return ([label, f"{cell.games:,}", *offsets,
             "-" if covered is None else ("yes" if covered else "no")], [label, *diff])


def section(doc: Doc, found: Sequence[SweepGroup], kinds: Sequence[CardKind]) -> None:
    """The sweeps: per sweep, player count and population, the sentence, a chart of each
    seat's fair offset against the value and a table, one row per value (a swept card's
    figures in the words of the game's ``kinds`` of card)."""
    if not found:
        return
    doc.h("Sweeps", 2)
    doc.p("Each value of a sweep is a variant: the base's component set with that one key "
          "changed, played on the base cell's deals. Per value: each seat's fair offset (the "
          "starting VP over seat 1 that makes the seat win as often as seat 1, all seats at "
          "once; 95% interval from a bootstrap over deals, per seat) and each seat's win-share "
          "difference against the base at the starting VP played (variant minus base, pp, "
          "paired on the same deals, 95% intervals simultaneous over the seats). The seats "
          "*come out fair* at a value when every seat's fair-offset interval covers its offset "
          "at the starting VP played: the intervals do not exclude it there.")
    for group in found:
        sweep, n = group.sweep, group.players
        doc.p(f"**{sweep.name}** ({sweep.entry} {sweep.key}; the base has "
              f"{sweep.base_value}). " + seat_sentence(group))
        said = card_sentence(group)
        if said is not None:
            doc.p(said)
            if group.swept is not None and group.swept[2]:  # a card: its figures' chart
                _card_chart(doc, group)
            elif group.swept is not None:
                _use_chart(doc, group, group.swept[0])
        doc.p("Starting VP: " + sentence(group))
        _chart(doc, group)
        header, base_card, card_cells = _cards(doc, group, kinds)
        rows = ([(*_cells(group, f"base ({sweep.base_value})", group.base), base_card)]
                if group.base is not None else [])
        rows += [(*_cells(group, str(v), c), more)
                 for (v, c), more in zip(group.values, card_cells, strict=True)]
        # two tables, each narrower than a page (at 4 players one was 1,700 px wide)
        doc.table([sweep.key, "games",
                   *(f"{seat_label(s)} fair offset (VP)" for s in range(1, n)),
                   "every interval covers the played offset"], [a for a, _, _ in rows],
                  wide=True)
        doc.table([sweep.key, *(f"{seat_label(s)} vs base (pp)" for s in range(n)), *header],
                  [b + more for _, b, more in rows], wide=True)


def _cards(doc: Doc, group: SweepGroup, kinds: Sequence[CardKind]
           ) -> tuple[list[str], list[object], list[list[object]]]:
    """The swept card's columns (header, the base's cells, each value's cells: its figures
    on the base's deals), none when the entry is not a card; runs made before the card
    table: one line, and no columns."""
    found = [c.cards.cards[0] if c.cards is not None and c.cards.cards else None
             for _, c in group.values]
    missing = sorted({c.cards.missing for _, c in group.values
                      if c.cards is not None and c.cards.missing})
    if missing:
        doc.p(f"Not shown: {missing[0]}.")
    first = next((card for card in found if card is not None), None)
    if first is None:
        return [], [], [[] for _ in group.values]
    doc.p(f"The second table's last columns: the swept card {first.card} under each value, "
          f"on the base's deals: {study_cards.words(kinds)}.")
    header = [f"{first.card} {name} [95% CI]" for name in first.kind.verbs.figures]
    return (header, study_cards.figure_cells(first, first.base)[1:],
            [study_cards.figure_cells(card, card.variant)[1:] if card else ["-"] * 4
             for card in found])


def _card_chart(doc: Doc, group: SweepGroup) -> None:
    card = next(c.cards.cards[0] for _, c in group.values if c.cards and c.cards.cards)
    names = card.kind.verbs.figures
    _figures_chart(doc, group, "_card", card.card, [
        (k, f"{card.card} {names[i]}", k != "mean_vp")
        for i, k in enumerate(("done_share", "mean_vp", "win_difference"), start=1)],
        "the swept card's own figures", f"{card.kind.verbs.done} share, VP per "
        f"{card.kind.counted}, and its {card.kind.verbs.takers} win share minus the other seats "
        "of their strategies'")


def _use_chart(doc: Doc, group: SweepGroup, noun: str) -> None:
    """A swept component's use figures against the value, as a card's chart draws its own:
    the share of seats that used it, its uses a using seat and its users' win difference."""
    _figures_chart(doc, group, "_use", noun, [
        ("use_share", "used by (share of seats)", True),
        ("per_user", "uses a using seat", False),
        ("win_difference", "win difference (pts)", True)],
        "the swept component's use", "the share of seats that used it, its uses a using "
        "seat, and its users' win share minus the other seats of their strategies'")


def _figures_chart(doc: Doc, group: SweepGroup, suffix: str, noun: str,
                   series: list[tuple[str, str, bool]], what: str, which: str) -> None:
    """One chart of a swept card's or component's figures (``series``: the key of
    ``group.card_points``, its label, whether it is a share) against the value."""
    points = group.card_points
    figures: list[tuple[str, FloatArray, FloatArray, FloatArray, bool]] = []
    for k, label, share in series:
        est, low, high = (np.array([f[k][j] for _, f in points], dtype=np.float64)
                          for j in range(3))
        figures.append((label, est, low, high, share))
    sweep = group.sweep
    doc.draw(chart_name(group) + suffix, charts.card_sweep, (
        [v for v, _ in points], figures, f"{sweep.entry} {sweep.key}",
        f"{group.players} players, {group.population}: {noun} by {sweep.name}",
        group.base_value),
        f"{group.players} players, {group.population}: {what} against "
        f"{sweep.entry} {sweep.key} (the base's value dotted), with 95% intervals: "
        f"{which} (dashed: 0, where it is neutral).")


def chart_name(group: SweepGroup) -> str:
    return f"sweep_{group.sweep.name}_{group.players}p_{group.population}"


def chart_points(group: SweepGroup) -> list[tuple[int, CellResult]]:
    """The fair-offset chart's points: each value with located offsets and, as the table
    has it, the base at its own value (when no value tried is the base's)."""
    located = [(v, c) for v, c in group.values if c.figures.offsets is not None]
    base, at = group.base, group.base_value
    if base is not None and base.figures.offsets is not None and \
            at not in (v for v, _ in located):
        located = sorted([*located, (at, base)], key=lambda vc: vc[0])
    return located


def _chart(doc: Doc, group: SweepGroup) -> None:
    located = chart_points(group)
    if not located:
        return
    values = [v for v, _ in located]
    seats = []
    for s in range(1, group.players):
        o = [c.figures.offsets[s - 1] for _, c in located if c.figures.offsets is not None]
        seats.append((seat_label(s), np.array([x.offset for x in o]),
                      np.array([x.low for x in o]), np.array([x.high for x in o]),
                      float(group.played[s])))
    sweep = group.sweep
    doc.draw(chart_name(group), charts.sweep_offsets, (
        values, seats, f"{sweep.entry} {sweep.key}",
        f"{group.players} players, {group.population}: fair offset by {sweep.name}",
        group.base_value),
        f"{group.players} players, {group.population}: each seat's fair offset over seat 1 "
        f"(VP) against {sweep.entry} {sweep.key}, with 95% intervals; dashed: each "
        f"seat's offset at the starting VP played ({vec(group.rulebook)}), where an interval "
        "covering it does not exclude fair; dotted: the base's value.")



def played(m: StudyManifest) -> str:
    """The variants a study played, for its settings: its own, then each sweep's values."""
    return "; ".join([*(f"**{v.name}**: `{v.components}`"
                        + (f" — {v.description}" if v.description else "")
                        for v in m.variants if not v.sweep),
                      *(", ".join(f"**{n}**" for n in w.variants)
                        + f" (the values of sweep {w.name})" for w in m.sweeps)]) or "none"


__all__ = ["SweepGroup", "as_json", "card_sentence", "chart_name", "chart_points", "groups",
           "played", "seat_sentence", "section", "sentence"]
