"""make figures: every measured figure the docs quote, written by this script so that nobody
restates a number by hand.

From the study folder of the last `make run` (studies/default, or --study DIR; its study.json
is written by reports.study.as_json, its study-manifest.json the study's own record):
1. README.md, between `<!-- answer:begin -->` and `<!-- answer:end -->`: the answer table
   (rulebook vector -> decided vector per player count and population, the largest seat gap,
   the verdict, the games) with the error rates in words;
2. docs/figures.md, between `<!-- study:begin -->` and `<!-- study:end -->`: the study's
   provenance, headlines, every cell and the skill sentences.

From what runs today (skipped with --study-only):
3. the guide's 4-player example (4,000 rotated games of the scripted mix, seed 1):
   `cdsim simulate` and `cdsim report` -> docs/img/seat_win_share.png and
   docs/img/start_vp_shift.png, the seat win shares and the wall times;
4. the guide's 3-player example (3,000 rotated games of greedy, landscape and bread,
   seed 2): `cdsim simulate` and `cdsim balance --json` -> the shares at 8/9/13 and the
   most equal vector, with the wall times;
   3 and 4 go to docs/figures.md between `<!-- examples:begin -->` and `<!-- examples:end -->`;
5. the page tests' screenshots (tests/test_replay.py, a headless Chromium: `make
   browser`) -> docs/img/replay.png and docs/img/components.png.

A missing study folder, study.json or marker pair is one line on stderr and exit 2, before
anything is played or written. The example runs are made in a temporary folder.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, NoReturn

from cdsim.analysis.anytime import CONFIRM_SHARE
from cdsim.batch import cost
from cdsim.batch.folder import RunFolder
from cdsim.errors import CdsimError
from cdsim.study.machine import machine_words, seconds_words
from cdsim.study.manifest import StudyManifest
from cdsim.study.store import STUDY_MANIFEST, study_manifest_of
from cdsim.study.transcribe import box_count

ROOT = Path(__file__).resolve().parent.parent
IMG = ROOT / "docs" / "img"

PAGE_HEAD = """\
# Measured figures

Written by `make figures` (scripts/figures.py): the study part from the study folder of the
last `make run`, the examples from runs the script makes itself. Do not edit the numbers by
hand; run `make run` and `make figures` again. What the verdicts mean and why their error
rates hold: [statistics.md](statistics.md).

## The default study

<!-- study:begin -->
(not generated yet: `make run`, then `make figures`)
<!-- study:end -->

## The guide's examples

<!-- examples:begin -->
(not generated yet: `make figures`)
<!-- examples:end -->
"""


def fail(message: str) -> NoReturn:
    print(f"figures: {message}", file=sys.stderr)
    raise SystemExit(2)


def shown(path: Path) -> str:
    """A path as the user would type it: relative to the repository when inside it."""
    try:
        return str(path.resolve().relative_to(ROOT))
    except ValueError:
        return str(path)


# --- the study folder -------------------------------------------------------------------

def read_study(folder: Path) -> tuple[dict[str, Any], StudyManifest]:
    """study.json and the study's manifest (its model, read as ``cdsim study report`` reads
    it), or one line saying which is missing and why."""
    if not folder.is_dir():
        fail(f"no study folder {shown(folder)}: run `make run` first (or make figures STUDY=DIR)")
    for name in ("study.json", STUDY_MANIFEST):
        path = folder / name
        if not path.is_file():
            fail(f"{shown(path)} is missing: run `make run` (it plays the study and writes its report)")
    path = folder / "study.json"
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        fail(f"{shown(path)} is unreadable ({exc}): run `make run` again")
    try:
        manifest = study_manifest_of(folder)
    except CdsimError as exc:
        fail(f"{exc}: run `make run` again")
    for key in ("name", "seed", "tolerance", "alpha", "players", "cells", "headlines", "skill"):
        if key not in data:
            fail(f"{shown(folder / 'study.json')} has no {key!r}: written by another version of "
                 f"cdsim? run `cdsim study report {shown(folder)}`")
    return data, manifest


def vec(v: list[int]) -> str:
    return "/".join(str(x) for x in v)


def pp(x: float) -> str:
    return f"{100 * x:.1f} pp"


def gap(largest: float | None, interval: list[float] | None) -> str:
    """A largest seat gap with its 95% interval, or a dash when there is none yet."""
    if largest is None or not interval:
        return "—"
    low, high = interval
    return f"{pp(largest)} ({100 * low:.1f}–{100 * high:.1f})"


def rulebook_gap(c: dict[str, Any]) -> str:
    rule = c["at_rulebook"]
    return gap(rule["largest_gap"], rule["gap_interval"]) if rule else "—"


def who(c: dict[str, Any]) -> str:
    """The players of a cell, each once, in the order the study file names them."""
    names = [n for lineup in c["lineups"] for n in lineup] + list(c["pool"])
    members = list(dict.fromkeys(names))
    seats = (f"{members[0]} in every seat" if len(members) == 1 else ", ".join(members))
    return f"{c['population']} ({seats}{'; the floor' if c['floor'] else ''})"


def spoken(items: list[str]) -> str:
    """'2', '2 and 3', '2, 3 and 4'."""
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} and {items[-1]}"


def verdict(c: dict[str, Any]) -> dict[str, Any]:
    """A cell's verdict record (``anytime.Verdict``'s dump, as ``cdsim balance --json``
    writes it; empty while no stage is judged); in a study.json written before it was one
    record, the cell itself, which held its fields."""
    if "verdict" not in c:
        return c
    return c["verdict"] or {}


def outcome(c: dict[str, Any]) -> tuple[str, str]:
    """(rulebook -> decided, verdict) of one cell, in the words the study uses."""
    rule, kind, v = vec(c["rulebook"]), c["decision"], verdict(c)
    if kind is None:
        return f"{rule} → ?", "still playing"
    best = vec(c["vector"])
    if kind == "confirmed":
        others = [vec(x) for x in v["fair_set"] if x != c["vector"]]
        also = f"; also shown fair: {', '.join(others)}" if others else ""
        return f"{rule} → **{best}**", f"**confirmed** fair{also}"
    if kind == "no fair vector":
        return (f"{rule} → none (most equal {best})",
                f"**no fair vector** within ±{c['radius']} VP of the rulebook's")
    if v["games_needed"]:
        ms = cost.game_ms([tuple(x) for x in c["lineups"]], tuple(c["pool"]), int(c["players"]),
                          str(c.get("game", "carpe-diem")))
        need = (f"about {v['games_needed']:,} more games (about "
                f"{cost.games_time(int(v['games_needed']), ms)} here) might confirm it")
    else:
        need = "too few games yet to predict how many more would confirm it"
    return f"{rule} → {best}? (most equal so far)", f"**undecided**: {need}"


def by_players(item: tuple[str, Any]) -> int:
    """study.json keys its headlines and skill sentences by player count, as text."""
    return int(item[0])


def base_cells(data: dict[str, Any], floor: bool) -> list[dict[str, Any]]:
    cells = [c for c in data["cells"] if c["variant"] is None and c["floor"] == floor]
    return sorted(cells, key=lambda c: c["players"])


def error_rates(data: dict[str, Any]) -> str:
    """The stated error rates, in the words a designer reads (docs/statistics.md)."""
    alpha, tol = float(data["alpha"]), float(data["tolerance"])
    zone = float(data.get("zone") or 0.0)
    wrong_yes, wrong_no = alpha * CONFIRM_SHARE, alpha * (1 - CONFIRM_SHARE)
    if zone > 0:  # the indifference zone: two bounds, and between them either answer
        return (f"Fair means no two seats' win shares more than {pp(tol)} apart, judged "
                f"within ±{pp(zone)}: a **confirmed** vector truly leaves two seats "
                f"{pp(tol + zone)} or more apart in at most 1 cell in {round(1 / wrong_yes)} "
                f"({wrong_yes:.1%}); **no fair vector** is said while some vector is truly "
                f"within {pp(tol - zone)} in at most 1 in {round(1 / wrong_no)}; a vector "
                f"between the two may be called either; **undecided** is never wrong, only "
                "unfinished.")
    return (f"Fair means no two seats' win shares more than {pp(tol)} apart. A vector is "
            f"confirmed only on fresh games that did not choose it: a **confirmed** vector is "
            f"really unfair in at most 1 cell in {round(1 / wrong_yes)} ({wrong_yes:.1%}); "
            f"**no fair vector** is wrong in at most 1 in {round(1 / wrong_no)}; "
            f"**undecided** is never wrong, only unfinished.")


def components_of(folder: Path, data: dict[str, Any]) -> str:
    """Whether the study played the shipped (reconstructed) set: its first run says."""
    for c in data["cells"]:
        for stage in c["stages"]:
            for run in stage["runs"]:
                played = RunFolder(folder / run)
                if played.started():
                    try:
                        default = played.read().components_default
                    except CdsimError as exc:
                        fail(str(exc))
                    return ("the reconstructed default components" if default else
                            "a component set of its own (not the shipped one)")
    return "components not recorded"


def box_words(folder: Path, data: dict[str, Any]) -> str:
    """How many entries of the set it played are the box's, in a few words: its
    study.json's count, else read from its first run (a study reported before it was
    said); "" where nothing says."""
    box = data.get("box_entries")
    if isinstance(box, dict):
        return _box(box["box"], box["total"])
    for c in data["cells"]:
        for stage in c["stages"] if c.get("variant") is None else ():
            for run in stage["runs"]:
                played = RunFolder(folder / run)
                if played.started():
                    try:
                        config = played.read().config
                        count = box_count(config.spec, config.components)
                    except CdsimError as exc:
                        fail(str(exc))
                    return _box(count.printed, count.total) if count is not None else ""
    return ""


def _box(printed: int, total: int) -> str:
    return (f"; {printed} of {total} component entries are the box's, the rest "
            "reconstructed ([docs/components.md](docs/components.md#transcribe-the-box-most-"
            "influential-first))")


def when(folder: Path, manifest: StudyManifest) -> str:
    """The study's date: recorded by the study if it does so, else its manifest's file time."""
    recorded = manifest.finished or _dated(manifest)
    if recorded:
        return recorded[:10]
    stamp = (folder / STUDY_MANIFEST).stat().st_mtime
    return datetime.date.fromtimestamp(stamp).isoformat()


def _dated(manifest: StudyManifest) -> str | None:
    """The ``date`` a study manifest of an early cdsim held (a key the model keeps as is)."""
    date = getattr(manifest, "date", None)
    return str(date) if date else None


def recorded_machine(manifest: StudyManifest) -> str:
    """The machine as the study page says it (cores, CPU, the load when play began and
    ended)."""
    return machine_words(manifest.machine) if manifest.machine else "not recorded by the study"


def played_for(manifest: StudyManifest) -> str:
    """The study's wall time and the play within it (its `wall_seconds` and
    `play_seconds`, summed over resumes), as the terminal and the study page say them."""
    if "wall_seconds" not in manifest.model_fields_set:
        return "wall time not recorded"
    return (f"{seconds_words(manifest.wall_seconds)} wall, "
            f"{seconds_words(manifest.play_seconds)} of it playing")


def recommendations(data: dict[str, Any]) -> list[tuple[int, dict[str, Any]]]:
    """study.json's vector to print per player count (``reports.study.recommend``), in
    player order; none in a study.json written before it."""
    return sorted(((int(k), v) for k, v in data.get("recommendations", {}).items()),
                  key=lambda kv: kv[0])


def print_row(players: int, rec: dict[str, Any]) -> str:
    """One row of the README's lead table: the vector to print, why, its worst seat gap over
    the populations and each population's, on games that did not choose it."""
    why = ("**fair** for every population" if rec["rule"] == "fair for every population" else
           "the least unfair (none fair for every population)")
    each = "; ".join(f"{p['population']} {gap(p['largest_gap'], p['gap_interval'])}"
                     + (" fair" if p["shown_fair"] else f" (own {vec(p['vector'])})"
                        if p["vector"] else "")
                     for p in rec["populations"])
    return (f"| {players} | {vec(rec['rulebook'])} → **{vec(rec['vector'])}** | {why} | "
            f"{gap(rec['worst_gap'], rec['worst_gap_interval'])} | {each} |")


def answer_table(folder: Path, data: dict[str, Any], manifest: StudyManifest) -> str:
    """The README's answer: the vector to print per player count first, then one row per
    player count and skilled population."""
    games = sum(c["games"] for c in data["cells"])
    lead = recommendations(data)
    rows = ["<!-- written by `make figures` from the last `make run`: do not edit by hand -->",
            f"From `{shown(folder)}` (study `{data['name']}`, seed {data['seed']}, "
            f"{components_of(folder, data)}; {games:,} games, {played_for(manifest)}, "
            f"{when(folder, manifest)}{box_words(folder, data)}):", ""]
    if lead:
        rows += ["| players | print | why | worst seat gap over the populations (95% interval) "
                 "| each population's largest seat gap at it |", "|---|---|---|---|---|",
                 *(print_row(p, rec) for p, rec in lead), ""]
    rows += ["| players | who plays | rulebook → decided | verdict | largest seat gap (95% interval) "
            "| at the rulebook vector | games |", "|---|---|---|---|---|---|---|"]
    for c in base_cells(data, floor=False):
        change, says = outcome(c)
        rows.append(f"| {c['players']} | {who(c)} | {change} | {says} | "
                    f"{gap(verdict(c).get('largest_gap'), verdict(c).get('gap_interval'))} | "
                    f"{rulebook_gap(c)} | "
                    f"{c['games']:,} |")
    said_print = (" The vector to print is chosen on each population's first stage and every "
                  "other later deal, and its gaps are measured on the other deals, games that "
                  "did not choose it ([the rule](docs/figures.md#the-vector-to-print))."
                  if lead else "")
    rows += ["", error_rates(data) + said_print]
    by_kind: dict[str, list[str]] = {}
    for players, skill in sorted(data["skill"].items(), key=by_players):
        by_kind.setdefault(skill["verdict"], []).append(players)
    if by_kind:
        said = {"moves": "they **move**", "does not move": "they **do not move**",
                "not decided": "**not decided**", "one population": "one population only"}
        rows[-1] += (" Do the fair starting VP move with skill? " + "; ".join(
            f"{said.get(kind, kind)} at {spoken(counts)} players"
            for kind, counts in by_kind.items()) + " ([why](docs/figures.md#fair-starting-vp-by-skill)).")
    if data.get("unfinished_cells"):
        rows.append(f"Unfinished cells: {', '.join(data['unfinished_cells'])} (`make run` resumes them).")
    return "\n".join(rows)


def cell_row(c: dict[str, Any]) -> str:
    change, said = outcome(c)
    rule, v = c["at_rulebook"], verdict(c)
    shares = " / ".join(f"{100 * s:.1f}" for s in rule["shares"]) if rule else "—"
    split = f"{v['games_tested']:,}" if v.get("games_tested") is not None else "—"
    return (f"| {c['key']} | {who(c)} | {change} | {said} "
            f"| {gap(v.get('largest_gap'), v.get('gap_interval'))} | {rulebook_gap(c)} | {shares} "
            f"| {c['games']:,} of {c['budget']:,} | {split} |")


def study_page(folder: Path, data: dict[str, Any], manifest: StudyManifest) -> str:
    """docs/figures.md's study part: where the figures came from, then every figure."""
    games = sum(c["games"] for c in data["cells"])
    versions = ", ".join(f"{k} {v}" for k, v in manifest.versions.items())
    lines = [f"From `{shown(folder)}` (study.json and study-manifest.json):", "",
             f"- study `{data['name']}`: seed {data['seed']}, tolerance ±{pp(data['tolerance'])}, "
             f"alpha {data['alpha']}, radius ±{data['radius']} VP; {components_of(folder, data)}",
             f"- command: `{manifest.command or 'not recorded'}`",
             f"- {games:,} games, {played_for(manifest)} (the study's `wall_seconds` and "
             f"`play_seconds`, summed over resumes; the report is not included)",
             f"- date: {when(folder, manifest)}"
             + ("" if manifest.finished or _dated(manifest) else
                " (the study manifest's file time: the study does not record its date)"),
             f"- machine: {recorded_machine(manifest)}",
             f"- versions: {versions or 'not recorded'}", "", "### Headlines", ""]
    lines += [f"- {text}" for _, text in sorted(data["headlines"].items(), key=by_players)]
    lead = recommendations(data)
    if lead:
        lines += ["", "### The vector to print", "",
                  "Each population's verdict names its own vector; a rulebook prints one. Per "
                  "player count: a vector shown fair for every skilled population if there is "
                  "one (among several, the smallest worst gap over the populations on the "
                  "choosing games, then the fewest VP changed from the rulebook's), else the "
                  "least unfair of the vectors lying seat by seat between each population's "
                  "three most equal, chosen the same way. The choosing games are each "
                  "population's first stage and every other deal after it; the gaps below are "
                  "on the other deals, which did not choose it (cdsim/analysis/recommend.py; "
                  "the worst gap's interval is 95% for the worst of the populations, checked by "
                  "simulation in tests/test_recommend.py).", ""]
        lines += [f"- {players} players: {rec['sentence']}" for players, rec in lead]
        lines += ["", "#### Why the seats get what they get", "",
                  "Read from the fair offsets (each seat's starting VP over seat 1 at which it "
                  "wins as often as seat 1, on all of a population's games):", ""]
        lines += [f"- {text}" for text in shapes(data, lead)]
    lines += ["", "### Every cell", "",
              "Largest seat gaps with their 95% intervals, simultaneous over the seat pairs; the "
              "seat win shares (%) are at the rulebook vector; games: played of the budget, and "
              "the games the named vector was tested on.", "",
              "| cell | who plays | rulebook → decided | verdict | largest seat gap | at the "
              "rulebook | seat win shares at the rulebook | games | tested on |",
              "|---|---|---|---|---|---|---|---|---|"]
    lines += [cell_row(c) for c in sorted(data["cells"], key=lambda c: (c["players"], c["key"]))]
    lines += ["", "### Fair starting VP by skill", ""]
    lines += [f"- {v['sentence']}" for _, v in sorted(data["skill"].items(), key=by_players)]
    return "\n".join(lines)


def shapes(data: dict[str, Any], lead: list[tuple[int, dict[str, Any]]]) -> list[str]:
    """Per player count, why each seat of the printed vector gets more or fewer starting VP
    than seat 1, in words read off the skilled populations' fair offsets: an offset whose
    95% interval lies below 0 for every population means the seat wins more often than seat
    1 at equal starting VP, so it starts lower (above 0: higher); otherwise nothing is
    claimed."""
    out = []
    for players, rec in lead:
        verdicts = data["verdicts"].get(str(players), {})
        pops = [(name, v) for name, v in verdicts.items()
                if not v.get("floor") and v.get("fair_offset")]
        if not pops:
            continue
        printed = rec["vector"]
        parts = []
        for seat in range(2, players + 1):
            given = printed[seat - 1] - printed[0]
            offsets = [(name, v["fair_offset"][str(seat)], v["fair_offset_interval"][str(seat)])
                       for name, v in pops]
            known = all(o is not None and lo is not None and hi is not None
                        for _, o, (lo, hi) in offsets)  # None: beyond the VP searched
            fewer = known and all(hi < 0 for _, _, (_, hi) in offsets)
            more = known and all(lo > 0 for _, _, (lo, _) in offsets)
            how = ("wins more often than seat 1 at equal starting VP (every population's "
                   "interval below 0), so it starts with fewer" if fewer else
                   "wins less often than seat 1 at equal starting VP (every population's "
                   "interval above 0), so it starts with more" if more else
                   "is not shown to win more or less often than seat 1 at equal starting VP "
                   "for every population (an interval holds 0)")
            numbers = ", ".join(f"{name} {o:+.1f} VP ({lo:+.1f} to {hi:+.1f})"
                                if o is not None and lo is not None and hi is not None else
                                f"{name} beyond the VP searched"
                                for name, o, (lo, hi) in offsets)
            parts.append(f"seat {seat} gets {given:+d} VP over seat 1: it {how} (fair offset "
                         f"{numbers})")
        out.append(f"{players} players, printing {vec(printed)}: " + "; ".join(parts) + ".")
    return out


# --- writing between markers ------------------------------------------------------------

def check_markers(path: Path, names: tuple[str, ...]) -> None:
    """One line and exit 2 unless PATH holds exactly one begin ... end pair of each name."""
    text = path.read_text(encoding="utf-8")
    for name in names:
        begin, end = f"<!-- {name}:begin -->", f"<!-- {name}:end -->"
        if text.count(begin) != 1 or text.count(end) != 1 or text.index(begin) > text.index(end):
            fail(f"{shown(path)} needs exactly one {begin} ... {end} pair (the generated part)")


def replace_between(path: Path, name: str, body: str) -> None:
    """Rewrite what lies between `<!-- NAME:begin -->` and `<!-- NAME:end -->` in PATH."""
    check_markers(path, (name,))
    text = path.read_text(encoding="utf-8")
    begin, end = f"<!-- {name}:begin -->", f"<!-- {name}:end -->"
    pattern = re.compile(re.escape(begin) + r".*?" + re.escape(end), re.S)
    new = pattern.sub(lambda _: f"{begin}\n{body.strip()}\n{end}", text)
    if new != text:
        path.write_text(new, encoding="utf-8")


# --- the examples that run today --------------------------------------------------------

def machine() -> str:
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    return (f"{datetime.date.today().isoformat()}, {platform.machine()} (uname -m), "
            f"{os.cpu_count()} cores, load average {load} (1, 5, 15 min), Python "
            f"{platform.python_version()}")


def cdsim(*args: str) -> tuple[float, str]:
    """Run `cdsim ARGS` (progress off); (wall seconds, stdout)."""
    t0 = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "cdsim", *args], capture_output=True,
                          text=True, check=False, cwd=ROOT)
    wall = time.perf_counter() - t0
    if done.returncode:
        sys.exit(f"figures: cdsim {' '.join(args)} failed:\n{done.stderr}")
    return wall, done.stdout


def four_players(tmp: Path, say: Callable[[str], None]) -> None:
    run = tmp / "mix4"
    wall, _ = cdsim("simulate", "--players", "4", "--games", "4000", "--strategies",
                    "greedy,villa,landscape,bread", "--rotate-seats", "--seed", "1", "--out",
                    str(run), "--quiet")
    say(f"4 players, 4,000 rotated games of the scripted mix (seed 1): simulate {wall:.1f} s")
    wall, out = cdsim("report", str(run), "--json")
    data = json.loads(out)
    shares = " / ".join(f"{100 * s['share']:.1f}" for s in data["seats"])
    say(f"  report {wall:.1f} s; seat win shares {shares}% at "
        f"{'/'.join(str(s['start_vp']) for s in data['seats'])} (design effect "
        f"{data['design_effect']:.2f}, chi-square p = {data['equal_shares_test']['p_value']:.3g})")
    for name in ("seat_win_share", "start_vp_shift"):
        shutil.copy(run / "charts" / f"{name}.png", IMG / f"{name}.png")
        say(f"  wrote {IMG.relative_to(ROOT) / name}.png")


def three_players(tmp: Path, say: Callable[[str], None]) -> None:
    run = tmp / "mix3"
    wall, _ = cdsim("simulate", "--players", "3", "--games", "3000", "--strategies",
                    "greedy,landscape,bread", "--rotate-seats", "--seed", "2", "--out", str(run),
                    "--quiet")
    say(f"3 players, 3,000 rotated games of greedy, landscape and bread (seed 2): simulate {wall:.1f} s")
    wall, out = cdsim("balance", str(run), "--json", "--out", str(tmp / "balance"))
    data = json.loads(out)
    now, best = data["current"], data["most_equal"]

    def shares(v: dict[str, Any]) -> str:
        return " / ".join(f"{100 * s['share']:.1f}" for s in v["seats"])

    say(f"  balance {wall:.1f} s; at {'/'.join(map(str, now['start_vp']))}: {shares(now)}%; "
        f"{'/'.join(map(str, best['start_vp']))}: {shares(best)}%, {data['words']} "
        f"(tolerance ±{100 * data['tolerance']:.0f} pp)")


def screenshots() -> None:
    if not (shutil.which("chromedriver") or Path("/usr/bin/chromedriver").exists()):
        print("page screenshots: not taken (no chromedriver: make browser installs it)",
              flush=True)
        return
    t0 = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                           "tests/test_replay.py", "-k", "in_the_browser"], cwd=ROOT,
                          capture_output=True, text=True, check=False)
    if done.returncode:
        sys.exit(f"figures: the page tests failed:\n{done.stdout[-2000:]}")
    print(f"page tests {time.perf_counter() - t0:.1f} s: wrote docs/img/replay.png and "
          "docs/img/components.png", flush=True)


def examples() -> str:
    """Run the guide's examples; their figures as lines (also printed as they come)."""
    lines = [f"Machine: {machine()}.", ""]

    def say(line: str) -> None:
        print(line, flush=True)
        lines.append(f"    {line}")

    IMG.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="cdsim-figures-") as name:
        four_players(Path(name), say)
        three_players(Path(name), say)
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="scripts/figures.py", description=__doc__.split("\n")[0])
    parser.add_argument("--study", type=Path, default=ROOT / "studies" / "default",
                        help="the study folder of the last `make run` (default: studies/default)")
    parser.add_argument("--readme", type=Path, default=ROOT / "README.md")
    parser.add_argument("--page", type=Path, default=ROOT / "docs" / "figures.md")
    parser.add_argument("--study-only", action="store_true",
                        help="only the answer table and the study part (no runs, no screenshots)")
    args = parser.parse_args(argv)
    data, manifest = read_study(args.study)
    if not args.readme.is_file():
        fail(f"no {shown(args.readme)} to write the answer table into")
    check_markers(args.readme, ("answer",))
    if not args.page.is_file():
        args.page.write_text(PAGE_HEAD, encoding="utf-8")
    check_markers(args.page, ("study", "examples"))
    try:
        answer, study = answer_table(args.study, data, manifest), study_page(args.study, data, manifest)
    except (AttributeError, KeyError, TypeError, ValueError) as exc:
        fail(f"{shown(args.study / 'study.json')}: unexpected content ({type(exc).__name__}: "
             f"{exc}): run `cdsim study report {shown(args.study)}` again")
    replace_between(args.readme, "answer", answer)
    replace_between(args.page, "study", study)
    print(f"wrote the answer table in {shown(args.readme)} and the study in {shown(args.page)}",
          flush=True)
    if args.study_only:
        return
    replace_between(args.page, "examples", examples())
    screenshots()


if __name__ == "__main__":
    main()
