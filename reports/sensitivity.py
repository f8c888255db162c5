"""``cdsim components sensitivity``'s answer in words: which reconstructed entries to
transcribe first. The ranking as a terminal table, and ``sensitivity.md`` and
``sensitivity.json`` in the study folder. Every figure is computed in
``cdsim.analysis.offset_shift``; this module lays them out."""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path

from cdsim.analysis.fmt import vec
from cdsim.analysis.offset_shift import FamilyEffect, PairedShift, SeatShift
from cdsim.batch import cost
from cdsim.batch.folder import atomic_write
from cdsim.errors import CdsimError
from cdsim.games.features import Family
from cdsim.study.sensitivity import STAGES, Answer, finite
from reports.report import Doc

MARKDOWN = "sensitivity.md"
JSON = "sensitivity.json"
LEADS = 3  # families named in the opening sentences


def vp(x: float) -> str:
    """A signed VP figure (``+0.62``, ``−0.40``, ``0.00``)."""
    if not math.isfinite(x):
        return "n/a"
    return "0.00" if abs(x) < 0.005 else f"{x:+.2f}".replace("-", "−")


def shift_text(s: SeatShift) -> str:
    """``+0.62 (+0.41 to +0.80)``: a seat's shift with its interval."""
    if not math.isfinite(s.low):
        return f"{vp(s.shift)} (interval n/a)"
    return f"{vp(s.shift)} ({vp(s.low)} to {vp(s.high)})"


def _largest(e: FamilyEffect) -> tuple[PairedShift, SeatShift] | None:
    for p in e.shifts:
        for s in p.seats:
            if p.players == e.players and s.seat == e.seat:
                return p, s
    return None


def _family(answer: Answer, name: str) -> Family | None:
    return next((f for f in answer.families if f.name == name), None)


def sentence(answer: Answer, e: FamilyEffect, first: bool) -> str:
    """"Transcribe the fountain cards' VP first: one VP more on each moves seat 4's fair
    offset by +0.62 VP at 4 players (+0.41 to +0.80)"."""
    fam = _family(answer, e.family)
    found = _largest(e)
    title = fam.title if fam else e.family
    if found is None:
        return f"{title}: no shift could be computed"
    p, s = found
    step = fam.step if fam else "its step"
    head = f"Transcribe {title} first" if first else f"Then {title}"
    moved = (f"; its most equal vector moves at {_counts(e.moved)}" if e.moved else "")
    return (f"{head}: {step} moves seat {s.seat}'s fair offset by {vp(s.shift)} VP at "
            f"{p.players} players ({vp(s.low)} to {vp(s.high)}){moved}.")


def _counts(players: Sequence[int]) -> str:
    return ", ".join(str(p) for p in players) + " players"


def leads(answer: Answer) -> list[str]:
    """The opening sentences: the clear families, most first; and the ones within noise."""
    clear = [e for e in answer.effects if e.clear]
    lines = [sentence(answer, e, i == 0) for i, e in enumerate(clear[:LEADS])]
    if not clear:
        first = [f"{e.family} ({_where(e)})" for e in answer.effects[:LEADS]]
        lines.append("No family moves a fair offset beyond noise at this budget; the largest "
                     f"shifts, to check first: {'; '.join(first)}. Four times the games "
                     "(--minutes) halve the intervals.")
    noise = [e for e in answer.effects if not e.clear]
    if noise:
        widest = max((max(abs(s.low), abs(s.high)) for e in noise for p in e.shifts
                      for s in p.seats if math.isfinite(s.low)), default=math.nan)
        lines.append(f"Within noise at this budget ({len(noise)} of {len(answer.effects)} "
                     f"families: no interval clear of zero, all held at once): "
                     f"{', '.join(e.family for e in noise)}"
                     + (f"; none moves a seat by more than {widest:.2f} VP (95%)."
                        if math.isfinite(widest) else "."))
    return lines


def _where(e: FamilyEffect) -> str:
    found = _largest(e)
    if found is None:
        return "n/a"
    p, s = found
    return f"seat {s.seat} at {p.players}p: {shift_text(s)}"


def ranking_rows(answer: Answer) -> list[list[str]]:
    rows = []
    for i, e in enumerate(answer.effects, 1):
        fam = _family(answer, e.family)
        rows.append([str(i), e.family, fam.title if fam else "", fam.step if fam else "",
                     str(len(fam.entries)) if fam else "", _where(e),
                     "yes" if e.clear else "within noise",
                     _counts(e.moved) if e.moved else "none"])
    return rows


RANKING = ["rank", "family", "what to transcribe", "step", "entries", "largest shift (VP, 95%)",
           "beyond noise", "vector moves at"]


def terminal(answer: Answer) -> list[str]:
    """The answer as the command prints it: the leads, then one line per family."""
    lines = [*leads(answer), ""]
    width = max(len(e.family) for e in answer.effects) if answer.effects else 8
    lines.append(f"{'rank':>4}  {'family':<{width}}  {'largest fair-offset shift (VP, 95%)':<42}"
                 f"  {'noise':<6}  vector moves at")
    for i, e in enumerate(answer.effects, 1):
        lines.append(f"{i:>4}  {e.family:<{width}}  {_where(e):<42}  "
                     f"{'clear' if e.clear else 'noise':<6}  "
                     f"{_counts(e.moved) if e.moved else '-'}")
    return lines


def document(answer: Answer, command: str) -> Doc:
    """sensitivity.md: the answer first, the ranking, the shifts per player count, how it
    was played and how to read it."""
    doc = Doc()
    played = answer.played
    doc.h("Which reconstructed entries matter", 1)
    for line in leads(answer):
        doc.p(line)
    doc.h("Ranking")
    doc.table(RANKING, ranking_rows(answer))
    doc.p("A family is *beyond noise* when one of its seats' shifts is clear of zero with all "
          "of its intervals (every seat at every player count) held at once; the families "
          "beyond noise come first, each group from the largest shift down. The intervals "
          "shown are 95% for each seat alone (a paired bootstrap over the deals).")
    for players in answer.players:
        doc.h(f"{players} players")
        vector, decision = answer.base.get(players, ((), ""))
        doc.p(f"The shipped set: most equal vector {vec(vector)} ({decision}); "
              f"{answer.games.get(players, 0):,} games a side.")
        header = ["family", *(f"seat {s} shift (VP)" for s in range(2, players + 1)),
                  "vector"]
        rows = []
        for e in answer.effects:
            for p in e.shifts:
                if p.players == players:
                    moved = ("same" if p.variant_vector == p.base_vector
                             else f"{vec(p.variant_vector)} ({p.variant_decision})")
                    rows.append([e.family, *(shift_text(s) for s in p.seats), moved])
        doc.table(header, rows)
    doc.h("How it was played")
    when = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    load = ("not known" if not math.isfinite(played.load[0]) else
            f"{played.load[0]:.1f} at the start and {played.load[1]:.1f} at the end")
    stopped = " (the time ran out first)" if played.stopped else ""
    doc.p(f"Scripted play (the four scripted players, every N of them in every seat rotation, "
          f"on the same deals for the shipped set and every family), {STAGES} stages "
          f"planned (four of an eighth of the games, then two quarters), {played.stages} "
          f"played{stopped}"
          f"; {cost.duration(played.seconds)} of play by this command, written {when} on "
          f"{cost.workers()} cores, load average {load}. Command: `{command}`.")
    doc.h("How to read it")
    doc.p("A seat's fair offset is the starting VP over seat 1 at which its win share equals "
          "seat 1's (docs/statistics.md). A family's shift is its fair offset with the family's "
          "step minus the shipped set's, on the same deals: +0.5 means that seat needs half a "
          "VP more once the entries are changed by that step. A large shift says the starting-"
          "VP answer depends on those entries: transcribe them first. The steps differ in "
          "kind (a VP on a card, a copy of a tile), so compare families by what a real "
          "transcription could change, and read a family within noise as 'moves less than "
          "its interval', not as 'does not matter'.")
    return doc


def as_json(answer: Answer) -> str:
    played = answer.played
    effects = [{"family": e.family, "largest": finite(e.largest), "players": e.players,
                "seat": e.seat, "clear": e.clear, "moved": list(e.moved),
                "shifts": [{"players": p.players, "games": p.games, "deals": p.deals,
                            "base_vector": list(p.base_vector),
                            "variant_vector": list(p.variant_vector),
                            "base_decision": p.base_decision,
                            "variant_decision": p.variant_decision,
                            "seats": [{"seat": s.seat, "base": finite(s.base),
                                       "variant": finite(s.variant), "shift": finite(s.shift),
                                       "low": finite(s.low), "high": finite(s.high),
                                       "sd": finite(s.sd)} for s in p.seats]}
                           for p in e.shifts]} for e in answer.effects]
    families = [{"name": f.name, "title": f.title, "step": f.step, "entries": list(f.entries)}
                for f in answer.families]
    return json.dumps({"players": list(answer.players), "stages": played.stages,
                       "planned_stages": STAGES, "stopped_for_time": played.stopped,
                       "seconds": round(played.seconds, 1),
                       "load": [finite(x) for x in played.load],
                       "games": {str(k): v for k, v in answer.games.items()},
                       "families": families, "ranking": effects}, indent=1) + "\n"


def _writer(text: str) -> Callable[[Path], int]:
    return lambda tmp: tmp.write_text(text)


def write(root: Path, answer: Answer, command: str) -> list[Path]:
    """sensitivity.md and sensitivity.json written into the study folder."""
    out = [(root / MARKDOWN, document(answer, command).markdown()),
           (root / JSON, as_json(answer))]
    for path, text in out:
        try:
            atomic_write(path, _writer(text))
        except OSError as exc:
            raise CdsimError(f"{path}: cannot write it ({exc.strerror or exc})") from None
    return [path for path, _ in out]


__all__ = ["JSON", "MARKDOWN", "as_json", "document", "leads", "terminal", "write"]
