"""Output as a new user meets it (issue 25, item 5): progress only on stderr, a line at most
every few seconds when stderr is not a terminal, none with --quiet; the result alone on
stdout; `report --json`; charts that show what their captions say."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from cdsim.batch.progress import Progress, StudyProgress

CDSIM = str(Path(sys.executable).with_name("cdsim"))
RUN = ["--players", "2", "--games", "40", "--strategies", "random", "--chunk-size", "2",
       "--jobs", "1"]


def cdsim(*args: str, every: str | None = None) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    if every is not None:
        env["CDSIM_PROGRESS_SECONDS"] = every
    return subprocess.run([CDSIM, *args], capture_output=True, text=True, env=env, timeout=300,
                          check=False)


def test_simulate_keeps_stdout_for_its_result_and_progress_to_stderr(tmp_path: Path) -> None:
    out = cdsim("simulate", "--out", str(tmp_path / "a"), *RUN)
    assert out.returncode == 0, out.stderr
    assert out.stdout.count("\n") == 1 and out.stdout.startswith("40 games in ")
    assert out.stderr == ""  # a short run: no line (at most one every 5 s)
    every = cdsim("simulate", "--out", str(tmp_path / "b"), *RUN, every="0")
    assert every.stdout.count("\n") == 1
    lines = every.stderr.splitlines()
    assert len(lines) == 20 and all(" games/s" in line for line in lines), every.stderr
    quiet = cdsim("simulate", "--out", str(tmp_path / "c"), *RUN, "--quiet", every="0")
    assert quiet.returncode == 0 and quiet.stderr == "" and quiet.stdout.count("\n") == 1


def test_plain_progress_is_at_most_a_line_every_few_seconds(monkeypatch: pytest.MonkeyPatch) -> None:
    now = {"t": 0.0}
    monkeypatch.setattr("cdsim.batch.progress.time.perf_counter", lambda: now["t"])
    monkeypatch.setenv("CDSIM_PROGRESS_SECONDS", "5")
    stream = io.StringIO()
    progress = Progress("simulating", stream)
    progress.plan(100, 0)
    for _ in range(50):  # 50 chunks, one a second
        now["t"] += 1.0
        progress.advance(2)
    lines = stream.getvalue().splitlines()
    assert len(lines) == 10, lines  # one in 5 s, not one per chunk
    quiet = io.StringIO()
    q = StudyProgress("s", stream=quiet, quiet=True)
    q.plan(10, 0)
    q.chunk("x", 10)
    q.close(finished=True)
    assert quiet.getvalue() == ""


def test_study_progress_closes_with_one_line_when_finished_and_none_on_a_failure() -> None:
    stream = io.StringIO()
    with StudyProgress("tiny", stream=stream) as progress:
        progress.plan(4, 0)
        progress.chunk("cell", 4)
    assert stream.getvalue().startswith("study tiny: 4/4 games, ") and \
        stream.getvalue().count("\n") == 1
    failed = io.StringIO()
    with pytest.raises(RuntimeError), StudyProgress("tiny", stream=failed) as progress:
        progress.plan(4, 0)
        progress.chunk("cell", 2)
        raise RuntimeError
    assert failed.getvalue() == ""


def test_report_json(tmp_path: Path) -> None:
    run = tmp_path / "run"
    assert cdsim("simulate", "--out", str(run), *RUN, "--quiet").returncode == 0
    out = cdsim("report", str(run), "--json")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert [s["seat"] for s in data["seats"]] == [1, 2]
    assert sum(s["wins"] for s in data["seats"]) == data["games"] == 40
    assert data["strategies"][0]["strategy"] == "random"
    assert Path(data["files"]["html"]).is_file()
    # one engine: the report and `cdsim balance` name the same vector with the same verdict
    alone = json.loads(cdsim("balance", str(run), "--json").stdout)
    assert data["balance"]["vector"] == alone["vector"]
    assert data["balance"]["decision"] == alone["decision"]
    assert data["balance"]["most_equal"] == alone["most_equal"]
    assert [s["seat"] for s in alone["current"]["seats"]] == [1, 2]
    assert [o["seat"] for o in alone["fair_offsets"]] == [2]
    # the report's own pages say the same vector in the answer box and in its section
    md = Path(data["files"]["markdown"]).read_text()
    named = "/".join(map(str, alone["vector"]))
    assert f"**{named}**: {alone['words']}" in md


def _figure(monkeypatch: pytest.MonkeyPatch, module: Any) -> None:
    monkeypatch.setattr(module, "_png", lambda fig: fig)


def test_the_seat_chart_axis_shows_the_differences(monkeypatch: pytest.MonkeyPatch) -> None:
    from reports import charts

    _figure(monkeypatch, charts)
    share = np.array([0.22, 0.27, 0.25, 0.26])
    fig: Any = charts.share_points([f"seat {i}" for i in range(1, 5)], share, share - 0.015,
                                   share + 0.015, 4, "Win share by seat")
    low, high = fig.axes[0].get_ylim()
    assert 0.15 < low < 0.205 and 0.285 < high < 0.35  # not 0..max: 22% vs 27% shows


def test_a_negative_ladder_label_keeps_its_minus_sign(monkeypatch: pytest.MonkeyPatch) -> None:
    from reports import ladder

    _figure(monkeypatch, ladder)
    fig: Any = ladder.vp_and_failed(["random", "greedy"], np.array([-3.2, 20.5]),
                                    np.array([0.7, 0.2]), "cards")
    texts = [t.get_text() for t in fig.axes[0].texts]
    assert "\u22123.2" in texts
    label = next(t for t in fig.axes[0].texts if t.get_text() == "\u22123.2")
    assert label.get_ha() == "right"  # beyond the bar's left end, clear of the bar
    assert fig.axes[0].get_xlim()[0] < -3.2


def test_seat_charts_name_seats_from_1() -> None:
    from cdsim.analysis.fmt import seat_label

    assert [seat_label(s) for s in range(4)] == ["seat 1", "seat 2", "seat 3", "seat 4"]


def test_shell_completion_is_typers() -> None:
    """Issue 41: no shell completion. `cdsim --install-completion` installs typer's for the
    shell in use, `--show-completion` prints it; the script completes commands and flags."""
    # typer's own test hook: the shell named, not detected (make runs us under sh, which
    # typer does not complete: "Shell sh not supported")
    fixed = {**os.environ, "_TYPER_COMPLETE_TEST_DISABLE_SHELL_DETECTION": "1"}
    shown = subprocess.run([CDSIM, "--show-completion", "bash"], capture_output=True, text=True,
                           check=False, timeout=60, env=fixed)
    assert shown.returncode == 0, shown.stderr
    assert "_CDSIM_COMPLETE=complete_bash" in shown.stdout
    assert "complete -o default -F _cdsim_completion cdsim" in shown.stdout
    env = {**os.environ, "_CDSIM_COMPLETE": "complete_bash"}
    for words, index, want in (("cdsim si", "1", ["simulate"]),
                               ("cdsim study r", "2", ["run", "report"]),
                               ("cdsim play --pl", "2", ["--players"])):
        done = subprocess.run([CDSIM], capture_output=True, text=True, check=False, timeout=60,
                              env={**env, "COMP_WORDS": words, "COMP_CWORD": index})
        assert done.returncode == 0 and done.stdout.split() == want, (words, done)
    assert "--install-completion" in cdsim("--help").stdout


CHATTY = """\
print("chatty: imported")
from strategies.example import Random


class Chatty(Random):
    name = "chatty"

    def __init__(self):
        print("chatty: made")

    def choose(self, view, options):
        if view.decision != "move":
            return super().choose(view, options)
        print("chatty: moving", len(options))
        return options[0]
"""


def test_a_strategys_print_stays_out_of_the_json(tmp_path: Path) -> None:
    """Issue 41: what a strategy printed landed inside `cdsim play --json`'s output. It goes
    to stderr (at import, construction and every decision); stdout is the JSON alone."""
    (tmp_path / "chatty.py").write_text(CHATTY)
    play = subprocess.run([CDSIM, "play", "--players", "2", "--strategies",
                           f"{tmp_path / 'chatty.py'}:Chatty,greedy", "--json"],
                          capture_output=True, text=True, check=False, timeout=300)
    assert play.returncode == 0, play.stderr
    assert json.loads(play.stdout)["players"] == 2
    said = play.stderr.splitlines()
    assert said[:2] == ["chatty: imported", "chatty: made"]
    assert sum(line.startswith("chatty: moving") for line in said) >= 20


def test_the_command_line_keeps_openblas_to_one_thread() -> None:
    """OpenBLAS's threads busy-wait between the win tables' small products: set before numpy
    loads, one thread took `cdsim study report` of the default study from 25 s of CPU to
    10 s (and its wall time down too). A user's own setting wins."""
    code = ("import os, cdsim.cli, numpy; print(os.environ['OPENBLAS_NUM_THREADS'])")
    env = {k: v for k, v in os.environ.items() if k != "OPENBLAS_NUM_THREADS"}
    said = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=env, timeout=120, check=True)
    assert said.stdout.strip() == "1"
    env["OPENBLAS_NUM_THREADS"] = "2"
    said = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=env, timeout=120, check=True)
    assert said.stdout.strip() == "2"
