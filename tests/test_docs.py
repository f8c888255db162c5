"""The docs stay true to the repository: every file path named in README.md, docs/*.md and
every command's `--help` exists (Markdown links resolved from their page, with their
#anchors); the README stays short and keeps the answer table's markers; `make figures`
(scripts/figures.py) writes that table from a study folder, or stops with one line.

A page that must name a file that is gone (a history) strikes it through:
~~`strategies/value.py`~~ is not looked for."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from cdsim.cli import app
from tests.conftest import core_or_skip
from tests.test_study import TINY

ROOT = Path(__file__).resolve().parent.parent
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
README_LINES = 150

# A path as the docs write one: segments of word characters, dots, dashes, globs and
# <placeholders>, joined by "/", not preceded by a path character (so neither the host of
# a URL nor an absolute path like /tmp/x.json starts one).
PATH = re.compile(r"(?<![\w/.:<>*-])([\w.*<>-]+(?:/[\w.*<>-]*)+)")
LINK = re.compile(r"\]\(([^)\s]+)\)")
FENCE = re.compile(r"^\s*(```|~~~)")


@cache
def tracked_tops() -> frozenset[str]:
    """The repository's own top-level names (cdsim, docs, Makefile, ...): a path starting
    with another (runs/NAME, studies/default, .venv/bin/cdsim) names something a command
    makes, not a file of the repository."""
    try:
        out = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True,
                             text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("not a git checkout: which paths are the repository's is unknown")
    return frozenset(name.split("/", 1)[0] for name in out.split("\0") if name)


def named_paths(text: str) -> list[str]:
    """Every repository path a text names (its first segment is a tracked top-level name)."""
    found = []
    for match in PATH.finditer(text):
        path = match.group(1).rstrip(".-")
        struck = text[:match.start()].endswith(("~~", "~~`"))
        if path.split("/", 1)[0] in tracked_tops() and not struck:
            found.append(path)
    return found


def exists(path: str, base: Path) -> bool:
    pattern = re.sub(r"<[^>]*>", "*", path)
    if "*" in pattern:
        return any(base.glob(pattern.rstrip("/")))
    return (base / pattern).exists()


def outside_fences(text: str) -> Iterator[str]:
    inside = False
    for line in text.splitlines():
        if FENCE.match(line):
            inside = not inside
        elif not inside:
            yield line


def anchors(page: Path) -> set[str]:
    """GitHub's heading anchors of a Markdown page: lower case, punctuation dropped, spaces
    to dashes, a repeated heading numbered."""
    seen: dict[str, int] = {}
    for line in outside_fences(page.read_text(encoding="utf-8")):
        heading = re.match(r"#{1,6}\s+(.*)", line)
        if heading:
            slug = re.sub(r"[^\w\- ]", "", heading.group(1).strip().lower()).replace(" ", "-")
            count = seen.get(slug, 0)
            seen[slug] = count + 1
            if count:
                seen[f"{slug}-{count}"] = 1
    return set(seen)


def broken_links(page: Path) -> list[str]:
    broken = []
    for target in LINK.findall(page.read_text(encoding="utf-8")):
        if re.match(r"[a-z]+:", target):  # https:, mailto:
            continue
        path, _, anchor = target.partition("#")
        file = (page.parent / path).resolve() if path else page
        if not file.exists():
            broken.append(f"{target} (no such file)")
        elif anchor and file.suffix == ".md" and anchor not in anchors(file):
            broken.append(f"{target} (no such heading)")
    return broken


@pytest.mark.parametrize("page", DOCS, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_path_a_page_names_exists(page: Path) -> None:
    text = page.read_text(encoding="utf-8")
    missing = sorted({p for p in named_paths(text) if not exists(p, ROOT)})
    assert not missing, f"{page.relative_to(ROOT)} names files that do not exist: {missing}"
    assert not broken_links(page), f"{page.relative_to(ROOT)}: broken links {broken_links(page)}"


# A page may point at a README section in words ("see the README's \"Set up\""): that
# section must exist (one did not, and the pointer led nowhere).
README_SECTION = re.compile(r"README's \"([^\"]+)\"")


@pytest.mark.parametrize("page", DOCS, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_readme_section_a_page_names_in_words_exists(page: Path) -> None:
    headings = {line.lstrip("#").strip() for line in
                (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
                if line.startswith("#")}
    named = README_SECTION.findall(" ".join(page.read_text(encoding="utf-8").split()))
    missing = sorted(set(named) - headings)
    assert not missing, f"{page.relative_to(ROOT)} names README sections that do not exist: {missing}"


def commands() -> list[list[str]]:
    def walk(command: Any, path: list[str]) -> Iterator[list[str]]:
        yield path
        for name, sub in getattr(command, "commands", {}).items():
            yield from walk(sub, [*path, name])

    return list(walk(typer.main.get_command(app), []))


@pytest.mark.parametrize("command", commands(), ids=lambda c: " ".join(["cdsim", *c]))
def test_every_path_a_help_text_names_exists(command: list[str]) -> None:
    # in process, as `python -m cdsim COMMAND --help` prints it; wide, so no path is wrapped
    result = CliRunner().invoke(app, [*command, "--help"], terminal_width=400)
    assert result.exit_code == 0, result.output
    missing = sorted({p for p in named_paths(result.output) if not exists(p, ROOT)})
    assert not missing, f"cdsim {' '.join(command)} --help names files that do not exist: {missing}"


def test_the_help_walk_reaches_every_subcommand() -> None:
    names = {" ".join(c) for c in commands()}
    assert {"play", "simulate", "study run", "study report", "components show"} <= names


def test_the_readme_is_short_and_keeps_the_answer_markers() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(text.splitlines()) <= README_LINES, f"README.md is over {README_LINES} lines"
    assert text.count("<!-- answer:begin -->") == 1 and text.count("<!-- answer:end -->") == 1
    assert text.index("<!-- answer:begin -->") < text.index("<!-- answer:end -->")


def test_the_path_finder_finds_repository_paths_only() -> None:
    text = ("See `cdsim/games/carpe_diem/rules/game.py`, docs/rules.md. and [x](docs/guide.md#set-up); "
            "runs/mix4, https://github.com/cdsim/x, /tmp/quick.json and core/src/*.rs; "
            "the removed ~~`strategies/value.py`~~.")
    assert named_paths(text) == ["cdsim/games/carpe_diem/rules/game.py", "docs/rules.md", "docs/guide.md",
                                 "core/src/*.rs"]
    assert exists("core/src/*.rs", ROOT) and not exists("strategies/nowhere.py", ROOT)


# --- make figures -----------------------------------------------------------------------

# the tiny study of tests/test_study.py: a wide tolerance, so that tiny stages decide


def figures(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(ROOT / "scripts" / "figures.py"), *args],
                          capture_output=True, text=True, check=False, cwd=ROOT)


def cdsim(*args: str) -> None:
    done = subprocess.run([sys.executable, "-m", "cdsim", *args], capture_output=True,
                          text=True, check=False, cwd=ROOT)
    assert done.returncode == 0, done.stderr


@pytest.fixture(scope="module")
def study(tmp_path_factory: pytest.TempPathFactory) -> Path:
    core_or_skip()
    folder = tmp_path_factory.mktemp("docs") / "study"
    path = folder.parent / "tiny.toml"
    path.write_text(TINY)
    cdsim("study", "run", str(path), "--out", str(folder), "--jobs", "2", "--quiet")
    cdsim("study", "report", str(folder))
    return folder


def test_figures_without_a_study_folder_is_one_line_and_exit_2(tmp_path: Path) -> None:
    done = figures("--study", str(tmp_path / "nowhere"), "--study-only")
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and "nowhere" in done.stderr and "make run" in done.stderr
    (tmp_path / "half").mkdir()  # played, never reported: no study.json
    done = figures("--study", str(tmp_path / "half"), "--study-only")
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "study.json" in done.stderr


def test_figures_writes_the_answer_between_the_markers_only(study: Path, tmp_path: Path) -> None:
    readme, page = tmp_path / "README.md", tmp_path / "figures.md"
    shutil.copy(ROOT / "README.md", readme)
    before = readme.read_text(encoding="utf-8")
    head, tail = before.split("<!-- answer:begin -->")[0], before.split("<!-- answer:end -->")[1]
    done = figures("--study", str(study), "--readme", str(readme), "--page", str(page), "--study-only")
    assert done.returncode == 0, done.stderr
    after = readme.read_text(encoding="utf-8")
    assert after.startswith(head) and after.endswith(tail)  # nothing outside the markers moves
    answer = after.split("<!-- answer:begin -->")[1].split("<!-- answer:end -->")[0]
    data = json.loads((study / "study.json").read_text())
    lead = [line for line in answer.splitlines() if re.match(r"\| \d \| [\d/]+ → ", line)]
    rows = [line for line in answer.splitlines() if re.match(r"\| \d ", line) and line not in lead]
    skilled = [c for c in data["cells"] if not c["floor"] and c["variant"] is None]
    # the vector to print leads: one row per player count with a skilled population
    assert answer.index(lead[0]) < answer.index(rows[0])
    assert len(lead) == len({c["players"] for c in skilled})
    for line, (players, rec) in zip(lead, sorted(data["recommendations"].items()), strict=True):
        assert line.startswith(f"| {players} | ") and f"**{'/'.join(map(str, rec['vector']))}**" in line
    assert len(rows) == len(skilled) > 0  # one row per player count and skilled population
    for row, cell in zip(rows, sorted(skilled, key=lambda c: c["players"]), strict=True):
        rulebook, vector = "/".join(map(str, cell["rulebook"])), "/".join(map(str, cell["vector"]))
        assert row.startswith(f"| {cell['players']} | {cell['population']} (")
        assert f"{rulebook} → " in row and vector in row and f"{cell['games']:,}" in row
        assert {"confirmed": "**confirmed**", "undecided": "**undecided**",
                "no fair vector": "**no fair vector**"}[cell["decision"]] in row
    assert f"{100 * data['tolerance']:.1f} pp apart" in answer and "1 cell in 40" in answer
    assert "13 of 168 component entries are the box's, the rest reconstructed" in answer
    assert len(after.splitlines()) <= README_LINES
    # docs/figures.md: every cell, the floor included, and the study's own record
    text = page.read_text(encoding="utf-8")
    assert all(f"| {c['key']} |" in text for c in data["cells"])
    assert "<!-- examples:begin -->" in text and "wall_seconds" in text
    # written twice, the same files
    assert figures("--study", str(study), "--readme", str(readme), "--page", str(page),
                   "--study-only").returncode == 0
    assert readme.read_text(encoding="utf-8") == after and page.read_text(encoding="utf-8") == text


def test_figures_of_a_study_json_before_the_verdict_record_says_the_same(study: Path,
                                                                         tmp_path: Path) -> None:
    """A study.json an older cdsim wrote (each verdict's fields flat, no ``verdict``
    record) makes the same README table and figures page as the one written now."""
    old = tmp_path / "old"
    shutil.copytree(study, old, ignore=shutil.ignore_patterns("charts"))
    data = json.loads((old / "study.json").read_text())
    for cell in data["cells"]:
        record = cell.pop("verdict")
        cell |= record or {"fair_set": None, "games_needed": None, "games_tested": None,
                           "largest_gap": None, "gap_interval": None}
    (old / "study.json").write_text(json.dumps(data))
    pages = []
    for folder, name in ((study, "now"), (old, "old")):
        readme, page = tmp_path / f"{name}.README.md", tmp_path / f"{name}.figures.md"
        shutil.copy(ROOT / "README.md", readme)
        done = figures("--study", str(folder), "--readme", str(readme), "--page", str(page),
                       "--study-only")
        assert done.returncode == 0, done.stderr
        # the copy's manifest still names the folder it was played into (its command)
        pages.append([p.read_text(encoding="utf-8").replace(str(folder), "STUDY")
                      .replace(str(study), "STUDY") for p in (readme, page)])
    assert pages[0] == pages[1]


def test_figures_without_the_markers_is_one_line_and_writes_nothing(study: Path,
                                                                     tmp_path: Path) -> None:
    readme, page = tmp_path / "README.md", tmp_path / "figures.md"
    readme.write_text("# no markers\n")
    done = figures("--study", str(study), "--readme", str(readme), "--page", str(page), "--study-only")
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "answer:begin" in done.stderr
    assert readme.read_text() == "# no markers\n" and not page.exists()


def test_every_type_docs_strategies_names_is_re_exported_for_strategy_authors() -> None:
    """docs/strategies.md says ``strategies.base`` re-exports everything a strategy is handed:
    each type it names that a strategy reads (the rules' observation, options, component and
    district types; ``TileType`` among them) is importable from there."""
    import importlib

    import strategies.base

    text = (ROOT / "docs" / "strategies.md").read_text()
    named = set(re.findall(r"`([A-Z][a-z]\w*)[`.]", text))
    handed = {n for m in ("observation", "options", "strategy", "components", "district")
              for n in named
              if isinstance(getattr(importlib.import_module(f"cdsim.games.carpe_diem.rules.{m}"),
                                    n, None), type)}
    assert "TileType" in handed
    assert sorted(handed - set(strategies.base.__all__)) == []
    assert all(getattr(strategies.base, n) is not None for n in handed)


def test_statistics_md_says_what_a_runs_gap_interval_is() -> None:
    """A run's report prints a fixed-level gap interval (Bonferroni, Student's t on deals;
    "too few games to bound it" under ``anytime.MIN_GROUPS`` deals), not the procedure's
    confidence sequence: docs/statistics.md says so, with the tool's words and threshold."""
    import numpy as np

    from cdsim.analysis import anytime
    from cdsim.analysis.cell import Shares
    from reports.balance import gap_text

    text = " ".join((ROOT / "docs" / "statistics.md").read_text().split())
    said = text.split("print beside the verdict", 1)[1].split("The verdict itself", 1)[0]
    assert "**not** the procedure's confidence sequence" in said
    assert "Bonferroni" in said and "Student's t" in said
    assert f"under {anytime.MIN_GROUPS} deals (`anytime.MIN_GROUPS`)" in said
    unbounded = Shares((8, 9), (1, 1), np.zeros(2), np.zeros(2), np.ones(2), 0.05, (0.0, 1.0))
    phrase = gap_text(unbounded).split("(", 1)[1].rstrip(")")
    assert f'"{phrase}"' in said, phrase


def test_the_readme_says_what_the_numbers_are_about_before_the_answer() -> None:
    """Issue 41 item 7: a designer in a hurry reads the reconstructed-components note (with
    the count the shipped files hold) and the path to run on the real box (export, fill in,
    check, run) before the answer table's numbers."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    table = text.index("<!-- answer:begin -->")
    tags = [m.group(1) for f in sorted((ROOT / "cdsim" / "games" / "carpe_diem" / "data").glob("*.toml"))
            for m in re.finditer(r'^provenance = "(\w+)"', f.read_text(), flags=re.M)]
    said = f"{tags.count('reconstructed')} of its {len(tags)} entries are reconstructed"
    assert " ".join(text.split()).count(said) == 1, said
    steps = ["**Reconstructed components.**", said.split()[0], "cdsim components export",
             '"reconstructed"', "cdsim components check", "cdsim study run"]
    at = [text.find(s) for s in steps]
    assert all(0 <= a < table for a in at) and at == sorted(at), dict(zip(steps, at, strict=True))


def test_the_guide_states_the_first_stage_rule_the_code_plays() -> None:
    """docs/guide.md's stage rule (the budget's 1/N, at least K deals) is the code's
    (cdsim.study.model.FIRST_SHARE, cdsim.analysis.anytime.MIN_GROUPS): it said 1/16 while
    the tool played 1/64."""
    from cdsim.analysis.anytime import MIN_GROUPS
    from cdsim.study.model import FIRST_SHARE

    guide = (ROOT / "docs" / "guide.md").read_text()
    shares = {int(n) for n in re.findall(r"budget's 1/(\d+)", guide)}
    shares |= {int(n) for n in re.findall(r"`first_stage` \(games/(\d+)", guide)}
    assert shares == {FIRST_SHARE}
    deals = {int(n) for n in re.findall(r"at least (\d+) deals", guide)}
    assert deals and deals <= {MIN_GROUPS}


def test_study_help_names_the_default_studys_populations() -> None:
    """`cdsim study --help` says what `cdsim study run default` plays: every population of
    cdsim/games/carpe_diem/studies/default.toml (it once named random and scripted only)."""
    import tomllib

    default = tomllib.loads((ROOT / "cdsim" / "games" / "carpe_diem" / "studies" /
                             "default.toml").read_text())
    names = [p["name"] for p in default["population"]]
    from cdsim.cli.studies import study_app

    text = str(study_app.info.help)
    start = text.index("cdsim study run default")
    said = text[start:start + 200]
    assert all(name in said for name in names), (names, said)
