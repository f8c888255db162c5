"""``cdsim study report``: a study folder -> study.html (self-contained), study.md, study.json.

For every cell (players x population x variant) of a study made by ``cdsim study run``:

- the seat win shares at the current starting VP, with 95% Wilson intervals (effective
  sample size when seats were rotated), and the recommended (most equal) vector;
- the recommendation's stability: a bootstrap over deals -- whole dealt setups are
  resampled, since the rotated games of one deal are correlated -- refitting the vector in
  every resample: the share of resamples choosing the same vector, and per seat an interval
  for its fair compensation relative to seat 1;
- the confirmation ``cdsim study run`` played of the recommended vector on fresh seeds: its
  seat shares, intervals and the equivalence (TOST) verdict;
- for variants, the paired difference (same deals) of each seat's win share to the base.

A population whose players read VP totals cannot be re-ranked exactly: it was fitted by
re-simulation (each proposed vector played for real on the same games), and its bootstrap
chooses among the vectors played. One headline per player count says whether one vector
keeps every seat within the tolerance for every population, or which seat depends on it.
"""

from __future__ import annotations

import json
import zlib
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from cdsim.errors import CdsimError
from cdsim.study import complete, read_study_manifest, run_folder
from reports import balance, charts
from reports.data import SeatArrays, open_run, seat_arrays
from reports.report import Doc, interval, pct, publish, save
from reports.stats import FloatArray, paired_difference
from reports.tables import seat_label

# -- fitting (used by `cdsim study run` through cdsim.study.Fitter) ---------------------------


def _opened(run: Path) -> tuple[SeatArrays, tuple[int, ...], bool]:
    opened = open_run(run)
    arrays = seat_arrays(opened)
    return arrays, tuple(int(x) for x in arrays.start_vp[0]), opened.rotated


def actual_counts(arrays: SeatArrays) -> NDArray[np.int64]:
    return np.bincount(np.argmax(arrays.won, axis=1), minlength=arrays.players)


class Fitter:
    """How ``cdsim study run`` chooses the vectors it plays next."""

    def rerank_best(self, run: Path, radius: int) -> tuple[int, ...]:
        arrays, current, _ = _opened(run)
        return balance.search(arrays, current, radius)

    def simulated_best(self, runs: Sequence[Path]) -> tuple[int, ...]:
        played = [_opened(r) for r in runs]
        vectors = np.array([v for _, v, _ in played], dtype=np.int64)
        counts = np.stack([actual_counts(a) for a, _, _ in played])
        return tuple(int(x) for x in vectors[int(balance.best_index(counts, vectors, vectors[0]))])


# -- the bootstrap over deals ---------------------------------------------------------------


def deal_weights(setup: NDArray[np.int64], resamples: int, rng: np.random.Generator
                 ) -> NDArray[np.float32]:
    """Bootstrap multiplicities of every game, shape (games, resamples): each resample draws
    the dealt setups with replacement and keeps all games of a drawn setup."""
    _, inverse = np.unique(setup, return_inverse=True)
    k = int(inverse.max()) + 1
    draws = rng.integers(k, size=(resamples, k))
    mult = np.bincount((np.arange(resamples)[:, None] * k + draws).ravel(),
                       minlength=resamples * k).reshape(resamples, k)
    return np.ascontiguousarray(mult[:, inverse].T, dtype=np.float32)


@dataclass(frozen=True)
class Stability:
    chosen: NDArray[np.int64]  # (resamples, seats): the vector each resample chose
    recommended: tuple[int, ...]

    @property
    def share(self) -> float:
        """Share of resamples that choose the recommended vector."""
        return float(np.mean(np.all(self.chosen == np.array(self.recommended), axis=1)))

    def compensation(self) -> tuple[NDArray[np.int64], FloatArray, FloatArray]:
        """Per seat: the recommended VP over seat 1, with the bootstrap's 95% interval."""
        rel = self.chosen - self.chosen[:, :1]
        low, high = np.quantile(rel, [0.025, 0.975], axis=0, method="inverted_cdf")
        rec = np.array(self.recommended)
        return rec - rec[0], np.asarray(low, dtype=float), np.asarray(high, dtype=float)


def rerank_stability(arrays: SeatArrays, current: tuple[int, ...], recommended: tuple[int, ...],
                     radius: int, resamples: int, rng: np.random.Generator) -> Stability:
    """Refit the most equal vector (same search as ``cdsim balance``) in every resample."""
    vectors = balance.candidates(current, radius)
    counts = balance.grid_counts(arrays, vectors, deal_weights(arrays.setup, resamples, rng))
    return Stability(vectors[balance.best_index(counts, vectors, current)], recommended)


def simulated_stability(played: Sequence[SeatArrays], recommended: tuple[int, ...],
                        resamples: int, rng: np.random.Generator) -> Stability:
    """Re-simulated populations: choose among the vectors actually played (same games)."""
    weights = deal_weights(played[0].setup, resamples, rng)
    vectors = np.array([a.start_vp[0] for a in played], dtype=np.int64)
    counts = np.stack([np.rint(weights.T @ a.won.astype(np.float32)).astype(np.int64)
                       for a in played])  # (vectors, resamples, seats)
    return Stability(vectors[balance.best_index(counts, vectors, vectors[0])], recommended)


# -- one cell --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Confirm:
    key: str
    seed: int
    games: int
    result: balance.VectorResult


@dataclass(frozen=True)
class CellResult:
    key: str
    players: int
    population: str
    variant: str | None
    method: str  # re-ranking | re-simulation
    games: int
    planned: int
    current: balance.VectorResult  # the fitting games at the current vector
    recommended: balance.VectorResult | None  # on the fitting games (re-ranked or played)
    stability: Stability | None
    simulated: tuple[tuple[int, ...], ...]  # re-simulation: the vectors played
    confirm: Confirm | None
    arrays: SeatArrays
    rotated: bool
    difference: tuple[FloatArray, FloatArray, FloatArray] | None = None  # variant - base

    @property
    def label(self) -> str:
        return self.population + (f" · {self.variant}" if self.variant else "")


def _rng(seed: int, key: str) -> np.random.Generator:
    return np.random.default_rng([seed, zlib.crc32(key.encode())])


def analyse_cell(root: Path, state: dict[str, Any], seed: int, tolerance: float, radius: int,
                 resamples: int) -> CellResult | None:
    """A finished cell (None while its fitting games are unfinished)."""
    fit = run_folder(root, state["fit"])
    if not complete(fit):
        return None
    arrays, current, rotated = _opened(fit)
    now = balance.evaluate(arrays, current, tolerance, rotated)
    rec_vec = tuple(state["recommended"]) if state.get("recommended") else None
    recommended = stability = None
    simulated: tuple[tuple[int, ...], ...] = ()
    if rec_vec is not None and state["method"] == "re-ranking":
        recommended = balance.evaluate(arrays, rec_vec, tolerance, rotated)
        stability = rerank_stability(arrays, current, rec_vec, radius, resamples,
                                     _rng(seed, state["key"]))
    elif rec_vec is not None:
        played = [arrays, *(_opened(run_folder(root, k))[0] for k in state["resim"])]
        for other in played[1:]:
            if not np.array_equal(other.setup, arrays.setup):
                raise CdsimError(f"{root}: the re-simulation runs of {state['key']} are not "
                                 "the same games as its fitting run")
        simulated = tuple(tuple(int(x) for x in a.start_vp[0]) for a in played)
        chosen = played[simulated.index(rec_vec)]
        recommended = balance.evaluate(chosen, rec_vec, tolerance, rotated)
        stability = simulated_stability(played, rec_vec, resamples, _rng(seed, state["key"]))
    confirm = None
    if state.get("confirm") and complete(run_folder(root, state["confirm"])):
        folder = run_folder(root, state["confirm"])
        c_arrays, c_vec, c_rot = _opened(folder)
        confirm = Confirm(state["confirm"], int(open_run(folder).manifest["seed"]),
                          len(c_arrays.base), balance.evaluate(c_arrays, c_vec, tolerance, c_rot))
    return CellResult(state["key"], int(state["players"]), state["population"],
                      state["variant"], state["method"], len(arrays.base), int(state["games"]),
                      now, recommended, stability, simulated, confirm, arrays, rotated)


def _with_difference(cell: CellResult, base: CellResult | None) -> CellResult:
    """A variant's paired difference of each seat's win share (same games) to its base."""
    if base is None or cell.variant is None or len(base.arrays.base) != len(cell.arrays.base):
        return cell
    if not np.array_equal(base.arrays.setup, cell.arrays.setup):
        return cell
    diff = cell.arrays.won.astype(float) - base.arrays.won.astype(float)
    return replace(cell, difference=paired_difference(diff, cell.arrays.setup))


# -- the study ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class StudyResult:
    root: Path
    manifest: dict[str, Any]
    tolerance: float
    resamples: int
    cells: tuple[CellResult, ...]
    missing: tuple[str, ...]  # cells whose fitting games are not finished
    headlines: dict[int, str]
    common: dict[int, tuple[tuple[int, ...], float, str, tuple[int, int]] | None]


def analyse(root: Path, tolerance: float | None = None, resamples: int | None = None) -> StudyResult:
    manifest = read_study_manifest(root)
    tol = float(manifest["tolerance"] if tolerance is None else tolerance)
    balance.check_tolerance(tol)
    boots = int(manifest["resamples"] if resamples is None else resamples)
    if boots < 200:
        raise CdsimError(f"--resamples must be at least 200, got {boots}")
    radius, seed = int(manifest["radius"]), int(manifest["seed"])
    cells: list[CellResult] = []
    missing: list[str] = []
    for state in manifest["cells"]:
        cell = analyse_cell(root, state, seed, tol, radius, boots)
        if cell is None:
            missing.append(state["key"])
        else:
            cells.append(cell)
    if not cells:
        raise CdsimError(f"{root}: no cell has finished its games yet; continue with "
                         f"cdsim study run {manifest.get('source', 'STUDY.toml')} --out {root} --resume")
    bases = {(c.players, c.population): c for c in cells if c.variant is None}
    cells = [_with_difference(c, bases.get((c.players, c.population))) for c in cells]
    headlines: dict[int, str] = {}
    common: dict[int, tuple[tuple[int, ...], float, str, tuple[int, int]] | None] = {}
    for players in manifest["players"]:
        mine = [c for c in cells if c.players == players and c.variant is None]
        if mine:
            common[players] = common_vector(mine, radius)
            headlines[players] = headline(players, mine, common[players], tol)
    return StudyResult(root, manifest, tol, boots, tuple(cells), tuple(missing), headlines, common)


def common_vector(cells: Sequence[CellResult], radius: int
                  ) -> tuple[tuple[int, ...], float, str, tuple[int, int]] | None:
    """The vector whose worst largest seat gap over the (re-rankable) populations is least:
    (vector, that gap, the population where it is reached, the seat pair)."""
    exact = [c for c in cells if c.method == "re-ranking"]
    if not exact:
        return None
    current = exact[0].current.vector
    vectors = balance.candidates(current, radius)
    gaps = []
    for c in exact:
        counts = balance.grid_counts(c.arrays, vectors)
        gaps.append((counts.max(axis=1) - counts.min(axis=1)) / len(c.arrays.base))
    gap = np.stack(gaps)  # (populations, vectors)
    worst, total = gap.max(axis=0), gap.sum(axis=0)
    near = np.abs(vectors - np.array(current)).sum(axis=1)
    best = int(np.lexsort((np.arange(len(vectors)), near, total, worst))[0])
    at = int(np.argmax(gap[:, best]))
    counts = balance.win_counts(exact[at].arrays, vectors[best])
    pair = (int(np.argmax(counts)), int(np.argmin(counts)))
    return tuple(int(x) for x in vectors[best]), float(worst[best]), exact[at].population, pair


def _vec(v: Sequence[int]) -> str:
    return "/".join(str(int(x)) for x in v)


def _points(x: float) -> str:
    return f"{100 * x:.1f}"


def headline(players: int, cells: Sequence[CellResult],
             common: tuple[tuple[int, ...], float, str, tuple[int, int]] | None,
             tolerance: float) -> str:
    """One sentence: robust (one vector is fair for every population) or population-dependent
    (which seat, by how much), plus what the fresh-seed confirmations showed."""
    tol = _points(tolerance)
    fitted = [(c.population, c.recommended.vector) for c in cells if c.recommended is not None]
    recs = ", ".join(f"{name} {_vec(v)}" for name, v in fitted)
    head = f"{players} players: "
    if common is not None and common[1] <= tolerance:
        vector, gap, where, _ = common
        text = (f"robust: {_vec(vector)} keeps every seat within ±{tol} points for every "
                f"population (largest seat gap {_points(gap)} points, {where}; re-ranked on the "
                "fitting games)")
    else:
        spread = _compensation_spread(fitted)
        if spread is not None:
            seat, lo, hi, lo_pop, hi_pop = spread
            text = (f"population-dependent: {seat_label(seat)}'s fair compensation over seat 1 "
                    f"is {lo:+d} VP with {lo_pop} but {hi:+d} VP with {hi_pop} "
                    f"(recommended: {recs})")
        elif fitted:
            text = (f"every population recommends {_vec(fitted[0][1])}" if len(fitted) > 1
                    else f"{fitted[0][0]} recommends {_vec(fitted[0][1])}")
        else:
            text = "no recommendation yet"
        if common is not None:
            vector, gap, where, (a, b) = common
            text += (f"; no single vector keeps every seat within ±{tol} points for every "
                     f"population: the closest, {_vec(vector)}, leaves {_points(gap)} points "
                     f"between seats {a + 1} and {b + 1} with {where}")
    confirmed = [c.confirm.result.test.equivalent for c in cells if c.confirm is not None]
    shown = sum(confirmed)
    if confirmed:
        text += (f". Fresh-seed confirmation of each population's own vector: every seat within "
                 f"±{tol} points shown (TOST) for {shown} of {len(confirmed)}"
                 + ("" if shown == len(confirmed) else " (more games would firm this up)"))
    readers = [c.population for c in cells if c.method == "re-simulation"]
    if readers:
        text += (f" ({', '.join(readers)} read{'s' if len(readers) == 1 else ''} scores: "
                 "fitted by re-simulation, left out of the common vector)")
    return head + text + "."


def _compensation_spread(fitted: Sequence[tuple[str, tuple[int, ...]]]
                         ) -> tuple[int, int, int, str, str] | None:
    """The seat whose recommended VP over seat 1 differs most between populations."""
    if len(fitted) < 2:
        return None
    comp = np.array([np.array(v) - v[0] for _, v in fitted])
    ranges = comp.max(axis=0) - comp.min(axis=0)
    seat = int(np.argmax(ranges))
    if ranges[seat] == 0:
        return None
    lo, hi = int(np.argmin(comp[:, seat])), int(np.argmax(comp[:, seat]))
    return seat, int(comp[lo, seat]), int(comp[hi, seat]), fitted[lo][0], fitted[hi][0]


# -- outputs ------------------------------------------------------------------------------------


def as_json(result: StudyResult) -> dict[str, Any]:
    m = result.manifest

    def cell(c: CellResult) -> dict[str, Any]:
        comp = c.stability.compensation() if c.stability else None
        out: dict[str, Any] = {
            "players": c.players, "population": c.population, "variant": c.variant,
            "run": str(Path("cells") / c.key), "method": c.method, "games": c.games,
            "planned_games": c.planned, "current": list(c.current.vector),
            "shares": [float(x) for x in c.current.shares],
            "low": [float(x) for x in c.current.low], "high": [float(x) for x in c.current.high],
            "design_effect": c.current.deff,
            "recommended": list(c.recommended.vector) if c.recommended else None,
            "recommended_shares_fitted": [float(x) for x in c.recommended.shares]
            if c.recommended else None,
            "stability": c.stability.share if c.stability else None,
            "compensation": [int(x) for x in comp[0]] if comp else None,
            "compensation_low": [float(x) for x in comp[1]] if comp else None,
            "compensation_high": [float(x) for x in comp[2]] if comp else None,
            "simulated_vectors": [list(v) for v in c.simulated] or None,
            "confirm": None, "difference": None}
        if c.confirm is not None:
            r = c.confirm.result
            out["confirm"] = {"run": str(Path("cells") / c.confirm.key), "seed": c.confirm.seed,
                              "games": c.confirm.games, "start_vp": list(r.vector),
                              "shares": [float(x) for x in r.shares],
                              "low": [float(x) for x in r.low], "high": [float(x) for x in r.high],
                              "largest_gap": r.test.largest_gap, "gap_upper_90": r.test.gap_upper,
                              "within_tolerance": r.test.equivalent}
        if c.difference is not None:
            mean, low, high = c.difference
            out["difference"] = {"shares": mean.tolist(), "low": low.tolist(), "high": high.tolist()}
        return out

    return {"name": m["name"], "seed": int(m["seed"]), "confirm_seed": int(m["confirm_seed"]),
            "tolerance": result.tolerance, "resamples": result.resamples,
            "radius": int(m["radius"]), "players": list(m["players"]),
            "cells": [cell(c) for c in result.cells], "unfinished_cells": list(result.missing),
            "headlines": {str(k): v for k, v in result.headlines.items()}}


def _shares(r: balance.VectorResult, seat: int) -> str:
    return interval(float(r.shares[seat]), float(r.low[seat]), float(r.high[seat]))


def build(result: StudyResult) -> Doc:
    m = result.manifest
    doc = Doc()
    doc.h(f"cdsim study: {m['name']}", 1)
    if m.get("description"):
        doc.p(str(m["description"]))
    pops = "; ".join(f"**{p['name']}**: " + (", ".join(p["lineup"]) or "pool " + ", ".join(p["pool"]))
                     + (" (seats rotated)" if p["rotate_seats"] else "")
                     + (" (reads scores)" if p["reads_scores"] else "")
                     + (f" — {p['description']}" if p.get("description") else "")
                     for p in m["populations"])
    variants = "; ".join(f"**{v['name']}**: `{v['components']}`"
                         + (f" — {v['description']}" if v.get("description") else "")
                         for v in m["variants"]) or "none"
    versions = ", ".join(f"{k} {v}" for k, v in sorted(m.get("versions", {}).items()))
    doc.table(["setting", "value"], [
        ["study file", f"`{m.get('source', '')}`"], ["player counts", ", ".join(map(str, m["players"]))],
        ["populations", pops], ["variants", variants],
        ["seed (fitting games)", m["seed"]], ["seed (confirmations)", m["confirm_seed"]],
        ["tolerance", f"±{pct(result.tolerance)} (largest gap between two seats' win shares)"],
        ["bootstrap", f"{result.resamples} resamples of whole deals"],
        ["search", f"each seat within ±{m['radius']} VP of the current vector (seat 1 fixed)"],
        ["versions", versions], ["wall time", f"{m.get('wall_seconds', 0):.0f} s"],
        ["command", f"`{m.get('command', '')}`"]])
    if result.missing:
        doc.p(f"**Partial study**: {len(result.missing)} cells have not finished their games "
              f"({', '.join(result.missing)}); continue with `cdsim study run ... --resume`.")
    doc.h("Headlines", 2)
    for text in result.headlines.values():
        doc.p(text)
    for players in m["players"]:
        _players_section(doc, result, int(players))
    if m["variants"]:
        _variants_section(doc, result)
    _method_section(doc, result)
    return doc


def _players_section(doc: Doc, result: StudyResult, players: int) -> None:
    cells = [c for c in result.cells if c.players == players]
    if not cells:
        return
    seats = range(players)
    doc.h(f"{players} players", 2)
    current = cells[0].current.vector
    doc.p(f"Win share by seat at the current starting VP {_vec(current)} (fair: 1/{players} = "
          f"{pct(1 / players)}), 95% Wilson intervals (effective sample size where seats were "
          "rotated).")
    doc.table(["population", "games", *(seat_label(s) for s in seats), "largest gap"],
              [[c.label, c.games, *(_shares(c.current, s) for s in seats),
                pct(c.current.test.largest_gap)] for c in cells])
    doc.chart(f"shares_{players}p", charts.grouped(
        [seat_label(s) for s in seats],
        [(c.label, c.current.shares, c.current.low, c.current.high) for c in cells],
        "win share (95% interval)", f"{players} players: win share by seat at {_vec(current)}",
        1 / players, f"fair 1/{players}"),
        f"{players} players: each population's seat win shares at {_vec(current)}, with 95% "
        "intervals; dashed: fair.")
    rows = []
    for c in cells:
        if c.recommended is None or c.stability is None:
            rows.append([c.label, "-", "-", *("-" for _ in seats[1:]), c.method])
            continue
        comp, low, high = c.stability.compensation()
        rows.append([c.label, f"**{_vec(c.recommended.vector)}**", pct(c.stability.share),
                     *(f"{int(comp[s]):+d} [{low[s]:+.0f}, {high[s]:+.0f}]" for s in seats[1:]),
                     c.method + (f" ({len(c.simulated)} vectors played)" if c.simulated else "")])
    doc.p("Recommended starting VP (the most equal seat win shares), how often the bootstrap "
          "over deals chooses the same vector, and each seat's fair compensation over seat 1 "
          "(VP) with its 95% bootstrap interval.")
    doc.table(["population", "recommended", "stability",
               *(f"{seat_label(s)} over seat 1" for s in seats[1:]), "fitted by"], rows)
    series = []
    for c in cells:
        if c.stability is None:
            continue
        comp, low, high = c.stability.compensation()
        series.append((c.label, comp[1:].astype(float), low[1:], high[1:]))
    if series:
        doc.chart(f"compensation_{players}p", charts.grouped(
            [seat_label(s) for s in seats[1:]], series, "VP over seat 1",
            f"{players} players: fair compensation by seat", 0.0, "no compensation"),
            f"{players} players: the recommended starting VP of each seat over seat 1, with the "
            "95% interval of the bootstrap over deals (now, at "
            f"{_vec(current)}: {', '.join(f'{v - current[0]:+d}' for v in current[1:])}).")
    rows = []
    for c in cells:
        if c.confirm is None:
            rows.append([c.label, _vec(c.recommended.vector) if c.recommended else "-",
                         "not played yet", *("-" for _ in seats), "-", "-"])
            continue
        r = c.confirm.result
        verdict = (f"within ±{pct(result.tolerance)} shown" if r.test.equivalent else
                   f"not shown (90% bound {pct(r.test.gap_upper)}, seats {r.test.pair[0] + 1} "
                   f"and {r.test.pair[1] + 1})")
        rows.append([c.label, f"**{_vec(r.vector)}**", f"{c.confirm.games} (seed {c.confirm.seed})",
                     *(_shares(r, s) for s in seats), pct(r.test.largest_gap), verdict])
    doc.p("Confirmation: the recommended vector played on fresh seeds (never the fitting "
          "games); equivalence by two one-sided tests on every pair of seats.")
    doc.table(["population", "vector", "games", *(seat_label(s) for s in seats), "largest gap",
               "equivalence"], rows)


def _variants_section(doc: Doc, result: StudyResult) -> None:
    doc.h("Variants", 2)
    doc.p("Each variant played exactly its base cell's games (same seeds, same deals, same "
          "line-ups). Paired difference of each seat's win share, variant minus base, in points, "
          "with a 95% interval clustered by deal; and both recommendations.")
    bases = {(c.players, c.population): c for c in result.cells if c.variant is None}
    for players in result.manifest["players"]:
        rows: list[list[object]] = []
        for c in result.cells:
            if c.players != players or c.difference is None:
                continue
            mean, low, high = c.difference
            base = bases[(c.players, c.population)]
            rows.append([c.population, c.variant, *(f"{100 * mean[s]:+.1f} [{100 * low[s]:+.1f}, "
                                                    f"{100 * high[s]:+.1f}]" for s in range(players)),
                         _vec(base.recommended.vector) if base.recommended else "-",
                         _vec(c.recommended.vector) if c.recommended else "-"])
        if rows:
            doc.p(f"{players} players, at {_vec(bases_vector(result, players))}:")
            doc.table(["population", "variant", *(seat_label(s) for s in range(players)),
                       "recommended (base)", "recommended (variant)"], rows)


def bases_vector(result: StudyResult, players: int) -> tuple[int, ...]:
    return next(c.current.vector for c in result.cells if c.players == players)


def _method_section(doc: Doc, result: StudyResult) -> None:
    doc.h("How this was computed", 2)
    doc.p("Re-ranking (populations whose players never read VP totals): every logged game is "
          "re-scored under each candidate vector, which is exact (the starting VP change nothing "
          "during play; ties by the logged R10.6 order). The recommendation is fitted to the "
          "fitting games, hence the confirmation on fresh seeds. Rule numbers refer to "
          "docs/rules.md in the cdsim repository.")
    doc.p(f"Stability: {result.resamples} bootstrap resamples of whole deals (rotated games of "
          "one deal stay together); in each, the most equal vector is searched again. "
          "Re-simulation (populations that read scores): each proposed vector was played for real "
          "on the same games, and the bootstrap chooses among those played vectors only, so its "
          "stability is an upper bound.")
    doc.p("Each cell is an ordinary run folder: `cdsim report` or `cdsim balance` on it gives the "
          "full single-run report.")
    doc.table(["cell", "run folder", "confirmation run"],
              [[c.label + f" ({c.players}p)", f"`cells/{c.key}`",
                f"`cells/{c.confirm.key}`" if c.confirm else "-"] for c in result.cells])


def write(root: Path, out: Path | None = None, tolerance: float | None = None,
          resamples: int | None = None) -> Path:
    """Analyse the study in ``root``; write study.html, study.md, study.json, charts/ into
    ``out`` (default: the study folder). Returns the HTML's path."""
    result = analyse(root, tolerance, resamples)
    target = out or root
    page = publish(build(result), target, "study", f"cdsim study: {result.manifest['name']}")
    save(target / "study.json", json.dumps(as_json(result), indent=1).encode())
    return page
