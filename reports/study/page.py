"""``cdsim study report``: a study folder -> study.html (self-contained), study.md, study.json.

The page opens with the answer: one box per player count, for each skilled population the
rulebook's starting VP -> the decided vector, its largest seat gap with a 95% interval, the
verdict (confirmed / no whole-VP vector is fair / undecided, with the games a decision would
need) and the games played; the floor (random play) below it, never in a headline. The
verdicts are the ones ``cdsim study run`` reached stage by stage
(``cdsim.analysis.anytime``; their error rates are in docs/statistics.md) and keeps in the
study manifest: this module recomputes nothing that decides, it reads the stages' games only
to show the seat win shares behind each verdict:

- per cell, the seats' win shares at the rulebook vector on all its games, and at the
  decided vector (confirmed: on the games played after its choice), each with 95%
  intervals simultaneous over the seats (deal groups: one deal in every line-up and rotation);
- for a variant, its own verdict beside its base's and the paired difference of each seat's
  win share at the rulebook vector, variant minus base, on the stages both played (the same
  deals), with 95% intervals simultaneous over the seats;
- for a sweep (``reports.study.sweep``), per value each seat's fair offset and paired
  difference against the base, a chart of the fair offsets against the value, and where
  the seats come out fair;
- per player count, a headline: it names a vector only if it was confirmed, says whether the
  skilled populations agree, and says plainly when no vector was confirmed (the headlines
  and the answer boxes are ``reports.study.answer``'s).

Win shares are in % and their differences and gaps in percentage points (pp); starting VP
in VP.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

from cdsim.analysis.anytime import CONFIRM_SHARE
from cdsim.analysis.cell import Shares
from cdsim.analysis.fmt import pct, pp, pts_interval, rulebook, seat_label, vec
from cdsim.analysis.offsets import FairOffset
from cdsim.analysis.rare import note
from cdsim.games.features import CardKind
from cdsim.study.cell import CellResult
from cdsim.study.machine import machine_words, run_words, seconds_words
from cdsim.study.manifest import StudyManifest
from cdsim.study.memo import MEMO, Memo
from cdsim.study.results import StudyResults, read_results
from reports import charts
from reports.charts import FloatArray
from reports.report import Doc, publish, save
from reports.study import cards as study_cards
from reports.study import recommend as study_recommend
from reports.study import sweep as study_sweep
from reports.study.answer import answer_boxes, change_boxes, gap_text, headline, headlines
from reports.study.cell import offsets_json, shown_list, unfinished, who
from reports.study.skill import as_json as skill_json
from reports.study.skill import section as skill_section


def analyse(root: Path, note: Callable[[str], None] | None = None) -> StudyResults:
    """The study in ``root`` as its report shows it, read once (``cdsim.study.results``;
    ``note`` hears each step, a progress line)."""
    return read_results(root, note)


# -- outputs ------------------------------------------------------------------------------------


def _shares_json(s: Shares | None) -> dict[str, object] | None:
    if s is None:
        return None
    return {"start_vp": list(s.vector), "games": s.games, "shares": s.share.tolist(),
            "low": s.low.tolist(), "high": s.high.tolist(), "largest_gap": s.largest_gap,
            "gap_interval": list(s.gap_interval)}


def verdict_json(c: CellResult) -> dict[str, object]:
    """One cell's verdict as ``cdsim balance --json`` writes one: its ``decision`` and
    ``vector`` beside the whole record (``verdict``: the one ``model_dump`` of
    ``anytime.Verdict``, null while no stage is judged), with the cell's games and each
    seat's fair offset."""
    d = c.decision
    return {"decision": d.decision if d else None, "vector": list(d.vector) if d else None,
            "verdict": d.model_dump(mode="json") if d else None, "games": c.games,
            **offsets_json(c)}


def as_json(result: StudyResults) -> dict[str, object]:
    m = result.manifest

    def cell(c: CellResult) -> dict[str, object]:
        out: dict[str, object] = {
            "key": c.key, "players": c.players, "population": c.population,
            "variant": c.variant, "floor": c.floor, "method": c.state.method,
            "lineups": [list(x) for x in c.lineups], "pool": list(c.state.pool),
            "rotate_seats": c.state.rotate_seats, "rulebook": list(c.rulebook),
            "radius": c.radius,
            "budget": c.budget,
            "stages": [{"stage": k, "games": g.games, "runs": [str(Path("cells") / r)
                                                               for r in runs]}
                       for k, (g, runs) in enumerate(zip(c.stages, c.stage_runs, strict=True))],
            **verdict_json(c),
            "at_rulebook": _shares_json(c.figures.at_rulebook),
            "at_vector": _shares_json(c.figures.at_decided),
            "difference": None, **study_cards.as_json(c),
            "rare_winners": [{"strategy": r.strategy, "wins": r.wins, "seats": r.seats,
                              "share": r.share} for r in result.rare.get(c.key, ())],
            "note": note(result.rare.get(c.key, ()))}
        if c.difference is not None:
            mean, low, high = c.difference
            out["difference"] = {"start_vp": list(c.rulebook), "games": c.paired_games,
                                 "shares": mean.tolist(), "low": low.tolist(),
                                 "high": high.tolist()}
        return out

    verdicts: dict[str, dict[str, object]] = {}
    for c in result.cells:
        if c.variant is None:
            verdicts.setdefault(str(c.players), {})[c.population] = verdict_json(c) | {
                "floor": c.floor}
    return {"name": m.name, "seed": m.seed, "tolerance": result.tolerance,
            "alpha": m.alpha, "zone": m.zone, "radius": m.radius, "players": list(m.players),
            "recommendations": {str(k): study_recommend.as_json(v, result.tolerance,
                                                                result.rare_notes(k))
                                for k, v in result.recommendations.items()},
            "verdicts": verdicts, "cells": [cell(c) for c in result.cells],
            "unfinished_cells": list(result.missing),
            # how many entries of the base's component set are the box's
            **({"box_entries": {"box": result.box.printed, "total": result.box.total,
                                "said": result.box.line()}} if result.box else {}),
            # only when play stopped before its end: what it shows is not yet the answer
            **({"provisional": result.stopped_words()} if result.provisional else {}),
            # when and where it was played (scripts/figures.py reads them when present)
            **{k: getattr(m, k) for k in ("finished", "machine", "wall_seconds",
                                          "play_seconds", "games_played")
               if k in m.model_fields_set},
            "headlines": {str(k): v for k, v in headlines(result).items()},
            "skill": {str(k): skill_json(v) for k, v in result.by_skill.items()},
            "sweeps": study_sweep.as_json(m, result.sweeps)}


def _part(offsets: Sequence[FairOffset], k: int) -> FloatArray:
    """One field of every seat's fair offset (0: the offset, 1: low, 2: high)."""
    return np.array([o[k] for o in offsets], dtype=np.float64)


def build(result: StudyResults, memo: Memo | None = None) -> Doc:
    """The page of ``result``; its charts drawn, or taken from ``memo`` where it kept them
    for the same figures."""
    m = result.manifest
    doc = Doc(memo=memo or Memo(None))
    game = result.game
    doc.h(f"cdsim study: {m.name}" + game.said(" ({title})"), 1)
    if m.description:  # what the study asks, above its answer
        doc.p(m.description)
    if result.provisional:
        doc.p(f"**Provisional**: {result.stopped_words()}.")
    change_boxes(doc, result)  # a change asked: its effect leads
    if m.whatif is not None:  # below the change's answer: its base's own question
        doc.p("The base's own starting-VP verdicts follow (the question of `cdsim study run`, "
              "played here only as the base the change is paired with): they are not the "
              "change's answer.")
    answer_boxes(doc, result)
    if result.box is not None:  # how far the answer rests on the real box
        doc.p(f"Components: {result.box.line()}.")
    doc.h("Headlines", 2)
    for text in headlines(result).values():
        doc.p(text)
    skill_section(doc, result.by_skill, result.tolerance)
    if result.missing:
        doc.p(f"**Partial study**: {len(result.missing)} cells have not finished a stage "
              f"({', '.join(result.missing)}); continue with `{result.resume}`.")
    _settings(doc, result)
    for players in m.players:
        _players_section(doc, result, players)
    if m.variants:
        _variants_section(doc, result)
    study_sweep.section(doc, result.sweeps, _card_kinds(result))
    _method_section(doc, result)
    doc.drawn()
    return doc


def _settings(doc: Doc, result: StudyResults) -> None:
    m = result.manifest
    pops = "; ".join(f"**{p.name}**: "
                     + (shown_list(p.lineup) or "; ".join(map(shown_list, p.lineups))
                        or "pool " + shown_list(p.pool))
                     + (" (seats rotated)" if p.rotate_seats else "")
                     + (" (the floor)" if p.floor else "")
                     + (" (reads scores)" if p.reads_scores else "")
                     + (f" — {p.description}" if p.description else "")
                     for p in m.populations)
    variants = study_sweep.played(m)  # a sweep's values too: they were played
    sweeps = "; ".join(f"**{w.name}**: {w.entry} {w.key} = "
                       + ", ".join(map(str, w.values)) + f" (base `{w.base}`)"
                       for w in m.sweeps) or "none"
    versions = ", ".join(f"{k} {v}" for k, v in sorted(m.versions.items()))
    budgets = sorted({c.budget for c in result.cells})
    doc.h("Settings", 2)
    doc.table(["setting", "value"], [
        ["study file", f"`{m.source}`"], ["player counts", ", ".join(map(str, m.players))],
        ["populations", pops], ["variants", variants], ["sweeps", sweeps],
        ["seed", f"{m.seed} (stage 0; later stages deal from seeds derived from it)"],
        ["tolerance", f"±{pp(result.tolerance)} (largest gap between two seats' win shares)"],
        ["indifference zone", _zone_setting(result.tolerance, m.zone)],
        *([["name within the zone", "a confirmed cell played on until the vector it names "
            "was shown within the zone of the most equal candidate (wrong in at most "
            f"{m.alpha:.0%} of cells) or its budget ran out"]] if m.name_within_zone else []),
        ["error rate", f"at most {m.alpha:.0%} per cell: half for a wrong "
                       "confirmation, half for a wrong 'no fair vector'"],
        ["budget", ", ".join(f"{b:,}" for b in budgets) + " games per cell, at most"],
        ["search", f"each seat within ±{m.radius} VP of the rulebook's (seat 1 fixed)"],
        ["versions", versions], ["wall time", _played(m)
                                 + (f" (finished {m.finished})" if m.finished else "")],
        ["machine", machine_words(m.machine)],
        ["command", f"`{m.command}`"]])


def _played(m: StudyManifest) -> str:
    """The run's games, wall time and play time as the terminal said them (a folder from
    before they were recorded: its wall time)."""
    if "games_played" in m.model_fields_set:
        return run_words(m.games_played, m.wall_seconds, m.play_seconds)
    return seconds_words(m.wall_seconds)


def _interval(s: Shares, seat: int) -> str:
    return f"{pct(s.share[seat])} [{100 * s.low[seat]:.1f}, {100 * s.high[seat]:.1f}]"


def _players_section(doc: Doc, result: StudyResults, players: int) -> None:
    cells = [c for c in result.cells if c.players == players]
    if not cells:
        return
    seats = range(players)
    doc.h(f"{players} players", 2)
    rule = cells[0].rulebook
    doc.p("Who sat at the table: " + "; ".join(f"**{c.population}**"
                                                + (" (floor)" if c.floor else "") + f": {who(c, True)}"
                                                for c in cells if c.variant is None) + ".")
    doc.p(f"Win share by seat {_at_rule(rule, ' starting VP')} on every game the cell "
          f"played (fair: 1/{players} = {pct(1 / players)}), with 95% intervals simultaneous "
          "over the seats (deal groups).")
    doc.table(["population", "games", *(seat_label(s) for s in seats), "largest seat gap"],
              [[c.label, f"{c.games:,}", *(_interval(c.figures.at_rulebook, s) for s in seats),
                gap_text(c.figures.at_rulebook)] for c in cells])
    doc.draw(f"shares_{players}p", charts.grouped, (
        [seat_label(s) for s in seats],
        [(c.label, 100 * s.share, 100 * s.low, 100 * s.high)
         for c in cells for s in [c.figures.at_rulebook]],
        "win share (%), 95% interval", f"{players} players: win share by seat at {vec(rule)}",
        100 / players, f"fair 1/{players}"),
        f"{players} players: each population's seat win shares (%) {_at_rule(rule)}, with "
        "95% intervals simultaneous over the seats; dashed: fair.")
    rows = []
    for c in cells:
        d, s = c.decision, c.figures.at_decided
        if d is None or s is None:
            rows.append([c.label, unfinished(c, result.manifest.stopped), "-",
                         *("-" for _ in seats), "-", f"{c.games:,}"])
            continue
        where = "games since its choice" if d.decision == "confirmed" else "all games"
        rows.append([c.label, d.decision, f"**{vec(d.vector)}**",
                     *(_interval(s, k) for k in seats), f"{gap_text(d)} ({where})",
                     f"{d.games:,}" + (f" (+{d.games_needed:,} needed)"
                                          if d.games_needed else "")])
    doc.p("Each cell's verdict and its vector's seat win shares: for a confirmed vector on the "
          "games played after it was chosen (the games that confirmed it), otherwise on all "
          "games (where it was picked as the most equal, so its gap looks smaller than it is).")
    doc.table(["population", "decision", "vector", *(seat_label(s) for s in seats),
               "largest seat gap", "games"], rows)
    series = []
    for c in cells:
        if c.decision is None or c.floor:
            continue
        v = np.array(c.decision.vector)
        fair = np.array(c.decision.fair_set or [c.decision.vector])
        comp = fair - fair[:, :1]
        series.append((c.label + f" ({c.decision.decision})", (v - v[0])[1:].astype(float),
                       comp.min(axis=0)[1:].astype(float), comp.max(axis=0)[1:].astype(float)))
    if series:
        r = np.array(rule)
        series.append((rulebook(rule), (r - r[0])[1:].astype(float),
                       (r - r[0])[1:].astype(float), (r - r[0])[1:].astype(float)))
        doc.draw(f"compensation_{players}p", charts.grouped, (
            [seat_label(s) for s in seats[1:]], series, "starting VP over seat 1 (VP)",
            f"{players} players: starting VP over seat 1", 0.0, "no compensation"),
            f"{players} players: each skilled population's decided starting VP over seat 1 (VP); "
            "bars span the vectors shown fair, if several; the last series marks "
            f"{_rule_named(rule)}.")
    _fair_offset_chart(doc, cells, players)
    doc.p("Looks (one after each stage of fresh deals; every game so far counts): the games "
          "so far, the vectors shown fair, the candidates shown unfair, and the vectors chosen "
          "there to be tested on the games after it:")
    doc.table(["cell", "look", "games so far", "shown fair", "shown unfair", "chosen"],
              [[c.label, look.stage, f"{look.games:,}",
                ", ".join(vec(v) for v in look.fair_set) or "-", look.shown_unfair,
                ", ".join(vec(v) for v in look.chosen) or "-"]
               for c in cells if c.decision for look in c.decision.looks])


def _rule_named(rule: Sequence[int], noun: str = "") -> str:
    """The rulebook's start as a sentence names it: "the rulebook's starting VP 8/9/13", or
    for a rulebook that starts every seat alike "no compensation (every seat 0)", as the
    answer lines say it (``rulebook``: never "the rulebook's 0/0/0")."""
    named = rulebook(rule)
    return f"the rulebook's{noun} {vec(rule)}" if named.startswith("rulebook") else named


def _at_rule(rule: Sequence[int], noun: str = "") -> str:
    """Seat win shares "at the rulebook's starting VP 8/9/13", or "with no compensation
    (every seat 0)"."""
    named = _rule_named(rule, noun)
    return f"at {named}" if named.startswith("the rulebook's") else f"with {named}"


def _fair_offset_chart(doc: Doc, cells: Sequence[CellResult], players: int) -> None:
    """Each base population's fair offset per seat with its interval (none for players
    who read the scores)."""
    located = [(c.label, _part(o, 0), _part(o, 1), _part(o, 2))
               for c in cells for o in [c.figures.offsets] if o is not None and c.variant is None]
    if located:
        doc.draw(f"fair_offsets_{players}p", charts.fair_offsets, (players, located),
                  f"{players} players: each population's fair offset per seat (the starting VP "
                  "over seat 1, to a fraction of a VP, at which that seat wins as often as seat "
                  "1, all seats at once) with its 95% interval (a bootstrap over deals); dotted: "
                  "whole VP. Whole-VP vectors near the point are the ones that can be fair.")


def _variants_section(doc: Doc, result: StudyResults) -> None:
    doc.h("Variants", 2)
    doc.p("Each variant plays its base cell's deals (same seeds, same line-ups) and is decided on "
          "its own. Paired difference of each seat's win share at the rulebook's vector, variant "
          "minus base, in pp, on the stages both played, with 95% intervals simultaneous over "
          "the seats (clustered by deal).")
    bases = {(c.players, c.population): c for c in result.cells if c.variant is None}
    for players in result.manifest.players:
        rows: list[list[object]] = []
        for c in result.cells:
            if c.players != players or c.variant is None:
                continue
            base = bases.get((c.players, c.population))
            cols: list[object] = ["-"] * players
            if c.difference is not None:
                mean, low, high = c.difference
                cols = [pts_interval(mean[s], low[s], high[s]) for s in range(players)]
            rows.append([c.population, c.variant, *cols, f"{c.paired_games:,}",
                         _short(base, result.manifest.stopped),
                         _short(c, result.manifest.stopped)])
        if rows:
            doc.p(f"{players} players, at {vec(_rule(result, players))}:")
            doc.table(["population", "variant", *(f"{seat_label(s)} (pp)" for s in range(players)),
                       "paired games", "base verdict", "variant verdict"], rows)
    study_cards.section(doc, result.cells, {v.name for v in result.manifest.variants if v.sweep},
                        _card_kinds(result))


def _card_kinds(result: StudyResults) -> tuple[CardKind, ...]:
    """The study's game's kinds of card (none: a game without a card table)."""
    return result.game.cards.kinds if result.game.cards is not None else ()


def _rule(result: StudyResults, players: int) -> tuple[int, ...]:
    return next(c.rulebook for c in result.cells if c.players == players)


def _short(c: CellResult | None, stopped: str | None = None) -> str:
    if c is None or c.decision is None:
        return "-" if c is None else ("stopped" if stopped else "still playing")
    d = c.decision
    if d.decision == "confirmed":
        return f"confirmed {vec(d.vector)}"
    if d.decision == "no fair vector":
        return f"no fair vector (most equal {vec(d.vector)})"
    return f"undecided (most equal {vec(d.vector)})"


def _zone_setting(tolerance: float, zone: float) -> str:
    if not zone:
        return "none: fair and unfair both against the tolerance (a study made before the zone)"
    return (f"±{pp(zone)}: shown fair below {pp(tolerance + zone)}, 'no fair vector' above "
            f"{pp(tolerance - zone)}, so every cell ends")


def _method_section(doc: Doc, result: StudyResults) -> None:
    alpha = result.manifest.alpha
    zone = result.manifest.zone
    over = f"of {pp(result.tolerance + zone)} or more" if zone else "over the tolerance"
    within = f" when a vector within {pp(result.tolerance - zone)} exists" if zone else ""
    doc.h("How this was computed", 2)
    doc.p("Each cell plays in stages of fresh deals, each about twice the one before, and "
          "looks after every stage at all its games so far (an anytime-valid test: "
          "cdsim.analysis.anytime; docs/statistics.md in the cdsim repository). "
          "Re-ranking: no built-in player reads VP totals, so every logged game is re-scored "
          "exactly under each starting-VP vector within the radius (ties by the logged "
          f"{result.game.tie_rule} order). At 3 and 4 players up to "
          f"{result.manifest.tested} near-tied vectors are chosen on the first stage "
          "(and again when another becomes the most equal) and tested on every game after "
          "their choice; at 2 players every vector is tested on every game. "
          f"**Confirmed** is wrong (the vector truly leaves a gap {over}) in at most "
          f"{alpha * CONFIRM_SHARE:.1%} of cells, **no whole-VP vector is fair**{within} in at "
          f"most {alpha * (1 - CONFIRM_SHARE):.1%}, whatever the true win shares, at whatever look "
          "the cell stops, and however often its budget is raised. **Undecided** is never "
          "wrong; its 'games needed' is a prediction from the games so far (about an 80% "
          "chance of confirming the vector it names), and every game played keeps counting "
          "if the cell goes on (`cdsim study run --resume --games N`). A population whose players read "
          "scores is judged at the rulebook vector only. Rule numbers refer to "
          f"{result.game.rules_doc} in the cdsim repository.")
    doc.p("Intervals: win shares and seat gaps are computed from deal groups (one deal in every "
          "line-up and rotation), 95% and simultaneous over the seats (or seat pairs). There is "
          "no 'stability' figure: the old bootstrap share of resamples choosing the same vector "
          "did not predict whether a vector was right; the verdict's error rate and the gap "
          "interval say how sure the answer is.")
    doc.p("Each stage of a cell is an ordinary run folder per line-up: `cdsim report` or "
          "`cdsim balance` works on each (several at once: `cdsim balance` pools them).")
    doc.table(["cell", "run folders"],
              [[c.label + f" ({c.players}p)",
                "; ".join(f"`cells/{r}`" for runs in c.stage_runs for r in runs)]
               for c in result.cells])


def write(root: Path, out: Path | None = None, result: StudyResults | None = None,
          note: Callable[[str], None] | None = None) -> Path:
    """Analyse the study in ``root`` (or take ``result``, its analysis); write study.html,
    study.md, study.json, charts/ into ``out`` (default: the study folder). Returns the
    HTML's path. ``note`` hears what it is doing, step by step (a progress line, so a
    study never goes quiet while its pages are written)."""
    tell = note or (lambda _: None)
    if result is None:
        result = read_results(root, tell)
    target = out or root
    tell("drawing the charts (those not kept in the study's report-cache/) and laying out "
         "the page")
    kept = Memo(root / MEMO)
    doc = build(result, kept)
    kept.prune(["chart"])  # charts of figures no longer shown
    page = publish(doc, target, "study", f"cdsim study: {result.manifest.name}", tell)
    tell("writing study.json")
    save(target / "study.json", json.dumps(as_json(result), indent=1).encode())
    return page


__all__ = ["CellResult", "Shares", "StudyResults", "analyse", "as_json", "build",
           "headline", "write"]
