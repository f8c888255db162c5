"""What a study's variant changes, and what that does to the changed cards themselves.

Per variant cell: the entries its component set changes against its base cell's (the lines
``cdsim components diff`` prints) and, for each changed card, its figures under the base and
under the variant on the same deals (the stages both played): how often the seats took it,
how often it was done, the mean VP it brought, and the win share of the seats that took it
minus the others' (``reports.cards``), each kind of card in its words (``CardKind.verbs``:
e.g. Carpe Diem's objective cards taken and fulfilled, its fountain cards drawn and kept).
Each with a 95% interval, the games of one deal as one cluster; the change of the first three
is paired game by game (the same deals, so its interval is narrower than the two sides').
The win difference is an association, as in the run report; its change is not paired.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from cdsim.analysis.card_intervals import MIN_DEALS
from cdsim.analysis.cards import Takes
from cdsim.analysis.fmt import number, pct, pts
from cdsim.games.features import CardKind
from cdsim.study.cards import OLD_RUNS, CardChange, Figure, VariantCards
from cdsim.study.cell import CellResult
from cdsim.study.uses import ComponentChange
from reports.report import Doc

# the figures in the order the table shows them (their words: each kind's
# ``CardKind.verbs.figures``)
KEYS = ("taken_share", "done_share", "mean_vp", "win_difference")


# -- study.json --------------------------------------------------------------------------------

def _figures(figures: dict[str, Figure]) -> dict[str, object]:
    return {k: {"value": number(v[0], 5), "interval": [number(v[1], 5), number(v[2], 5)]}
            for k, v in figures.items()}


def as_json(cell: CellResult) -> dict[str, object]:
    """A variant cell's ``changed`` and ``cards`` (``cards_missing``: why there are none;
    ``changed`` null when a component set could not be read); where it has them, its other
    changed ``components`` (what use means, whether the rows record it, the figures) and
    each style's effect (``styles``)."""
    found = cell.cards
    if found is None:
        return {}
    return {"changed": list(found.changed) if found.known else None,
            "changes": list(found.lines) if found.known else None,
            "cards": [{"kind": c.kind.kind, "card": c.card, "changed_keys": list(c.keys),
                       "base": _figures(c.base), "variant": _figures(c.variant),
                       "change": _figures(c.change)} for c in found.cards],
            "cards_missing": found.missing or None} | _uses(found)


def _source(c: ComponentChange) -> dict[str, object]:
    """The VP source a component scores through, per seat under base and change, and the
    change's effect on it (none without one)."""
    s = c.source
    if s is None:
        return {}
    return {"source": {"column": c.use.source, "base": number(s.base, 5),
                       "variant": number(s.variant, 5),
                       "effect": _figures({"vp": s.effect})["vp"]}}


def _uses(found: VariantCards) -> dict[str, object]:
    out: dict[str, object] = {}
    if found.components:
        out["components"] = [{"entry": c.entry, "changed_keys": list(c.keys),
                              "use": c.use.words, "recorded": c.recorded,
                              "not_recorded": None if c.recorded else c.use.why or None,
                              "base": _figures(c.base), "variant": _figures(c.variant)}
                             | _source(c) for c in found.components]
    if found.styles:
        out["styles"] = [{"strategy": s.strategy, "base_share": number(s.base, 5),
                          "effect": _figures({"win_share": s.effect})["win_share"]}
                         for s in found.styles]
    return out


# -- study.md / study.html ---------------------------------------------------------------------

def _shown(key: str, x: float) -> str:
    if not math.isfinite(x):
        return "-"
    return f"{x:.1f}" if key == "mean_vp" else pct(x)


def _span(key: str, f: Figure, sign: bool = False) -> str:
    if not math.isfinite(f[0]):
        return "-"
    scale = 1 if key == "mean_vp" else 100
    form = "+.1f" if sign or key == "win_difference" else ".1f"
    share = key in ("taken_share", "done_share")
    mid = f"{scale * f[0]:{form}}" + (" pts" if share and sign else "%" if share else "")
    if not (math.isfinite(f[1]) and math.isfinite(f[2])):
        return mid
    return f"{mid} [{scale * f[1]:{form}}, {scale * f[2]:{form}}]"


def _few(f: Figure, takes: Takes | None, took: str) -> str | None:
    """A figure that is no number because its card was not taken (``took``: the kind's verb,
    "drawn" for a card drawn), or taken in too few deals (``card_intervals.MIN_DEALS``), in
    words; None otherwise."""
    if takes is None or math.isfinite(f[0]):
        return None
    return f"not {took}" if takes.seats == 0 else f"too few deals ({takes.deals})"


def sentence(c: CardChange) -> str:
    """The designer's words: "B05 (reward.vp 8 -> 6): taken by 31.0% of seats (base 38.0%),
    ..."; a card not taken, or taken in too few deals, says so."""
    b, v = c.base, c.variant
    took, done = c.kind.verbs.took, c.kind.verbs.done
    head = c.card + (f" {c.keys[0]}" if c.keys[0:1] and c.keys[0].startswith("at ") else
                     f" ({'; '.join(c.keys)})" if c.keys else "")
    if c.takes is not None and any(t.deals < MIN_DEALS for t in c.takes):
        sides = [f"not {took} in {t.games:,} games" if t.seats == 0 else
                f"{took} by {_shown('taken_share', f['taken_share'][0])} of seats, {t.seats:,} "
                f"times in {t.deals:,} deals" + (f": too few deals to say more ({MIN_DEALS} "
                                                 "needed)" if t.deals < MIN_DEALS else "")
                for t, f in zip(c.takes, (b, v), strict=True)]
        return f"{head}: {sides[1]} (base: {sides[0]})."
    win = v["win_difference"][0]
    said = (f"its {c.kind.verbs.takers} win share minus that of the other seats of their "
            "strategies ")
    return (f"{head}: {took} by {_shown('taken_share', v['taken_share'][0])} of seats (base "
            f"{_shown('taken_share', b['taken_share'][0])}), {done} "
            f"{_shown('done_share', v['done_share'][0])} (base "
            f"{_shown('done_share', b['done_share'][0])}), "
            f"{_shown('mean_vp', v['mean_vp'][0])} VP on average (base "
            f"{_shown('mean_vp', b['mean_vp'][0])}); {said}"
            + ("-" if not math.isfinite(win) else f"{pts(win)} pts")
            + f" (base {_span('win_difference', b['win_difference']).split(' [')[0]} pts).")


def table_rows(label: str, c: CardChange) -> list[list[object]]:
    """One row per figure: base, variant, the paired change, each [95% CI]."""
    base, variant = c.takes if c.takes is not None else (None, None)
    took = c.kind.verbs.took
    return [[label, c.card, name, _few(c.base[k], base, took) or _span(k, c.base[k]),
             _few(c.variant[k], variant, took) or _span(k, c.variant[k]),
             _span(k, c.change[k], sign=True)]
            for name, k in zip(c.kind.verbs.figures, KEYS, strict=True)]


def figure_cells(c: CardChange, figures: dict[str, Figure]) -> list[object]:
    """One side's figures as a row: the card, then each of ``KEYS`` [95% CI]."""
    return [c.card, *(_span(k, figures[k]) for k in KEYS)]


HEADER = ("variant", "card", "figure", "base [95% CI]", "variant [95% CI]",
          "variant − base [95% CI]")


def _each(said: Sequence[str]) -> str:
    """The first kind's words, the others' in brackets: "taken (drawn)"."""
    return f"{said[0]} ({', '.join(said[1:])})" if len(said) > 1 else "".join(said)


def words(kinds: Sequence[CardKind]) -> str:
    """The changed cards' figures in words, each of the game's ``kinds`` in its own after the
    first's in brackets (e.g. Carpe Diem's: "taken (drawn) as a share of all seats, fulfilled
    (kept) as a share of the takes (drawing seats), ...")."""
    verbs = [k.verbs for k in kinds]
    return (f"{_each([v.took for v in verbs])} as a share of all seats, "
            f"{_each([v.done for v in verbs])} as a share of "
            f"{_each([v.done_of for v in verbs])}, mean VP, and the win difference: the win "
            "share of the seats that took the card minus the other seats of their strategies' "
            "(pts; an association, not a cause); 95% intervals, the games of one deal as one "
            "cluster")


def explain(kinds: Sequence[CardKind]) -> str:
    """The changed cards' table in words (``words``)."""
    return ("Changed cards, base against variant on the same deals: " + words(kinds) + ". The "
            "change is paired game by game (the win difference's is not, and has no interval); "
            "shares in %, their changes in pts.")


def label(c: CellResult) -> str:
    return f"{c.variant} ({c.players}p, {c.population})"


def section(doc: Doc, cells: Sequence[CellResult], sweeps: set[str],
            kinds: Sequence[CardKind]) -> None:
    """Per variant (not ``sweeps``' values: the sweep section has them): what it changes,
    the changed cards' table and their sentences, in the words of the game's ``kinds`` of
    card; runs made before the card table, one line."""
    found = [(c, c.cards) for c in cells
             if c.cards is not None and str(c.variant) not in sweeps]
    if not found:
        return
    doc.p("What each variant changes against its base's component set "
          "(`cdsim components diff`): " + "; ".join(
              f"**{label(c)}**: " + (", ".join(f.lines) or "nothing" if f.known else "not known")
              for c, f in found) + ".")
    missing = sorted({f.missing for _, f in found if f.missing})
    for line in missing:
        doc.p(f"Not shown: {line}.")
    rows = [r for c, f in found for card in f.cards for r in table_rows(label(c), card)]
    if rows:
        doc.p(explain(kinds))
        doc.table(HEADER, rows)
        for c, f in found:
            for card in f.cards:
                doc.p(f"**{label(c)}**: " + sentence(card))


__all__ = ["HEADER", "KEYS", "OLD_RUNS", "CardChange", "VariantCards", "as_json", "explain",
           "figure_cells", "label", "section", "sentence", "table_rows", "words"]
