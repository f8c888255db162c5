"""Fuzz the inputs a user hands cdsim (issue 25, item 6): study files, `cdsim simulate` flag
lists (and run files), component sets (mutations of the default set in cdsim/games/carpe_diem/data) and
position files (mutations of tests/positions/*.toml, for `cdsim score`).

For every input: no traceback, no panic, no hang (a time limit per example), and either
exit 0 (valid input) or exit 2 with exactly one line on stderr; an input that is invalid by
construction (an unknown key, a non-UTF-8 file) must not exit 0. The CLI runs in-process
(``cdsim.cli.main`` with a patched argv) for speed; the playing stage of `simulate` and
`study run` is replaced by a stub, so valid input stops there, checked and not played; a
component set that passes `components check` must also load into the core and play a game.

CI runs a few hundred examples in all (the ``ci``/``dev`` profiles: at least
``EXAMPLES`` per test); ``make fuzz`` (HYPOTHESIS_PROFILE=fuzz) runs 2,500 per test, 10,000
in all. Every bug found is fixed where that input is owned, and kept here as an @example.
"""

from __future__ import annotations

import contextlib
import io
import json
import math
import os
import re
import signal
import sys
import tempfile
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from cdsim.cli import main
from cdsim.games.carpe_diem.rules.components import DATA_DIR
from cdsim.study.file import StudyFile

REPO = Path(__file__).resolve().parent.parent
POSITIONS = sorted((REPO / "tests" / "positions").glob("*.toml"))
COMPONENT_FILES = ("tiles.toml", "cards.toml", "frames.toml", "boards.toml", "scoring.toml")
STUDY = REPO / "cdsim" / "games" / "carpe_diem" / "studies" / "default.toml"

EXAMPLES = 60  # per test in CI and by default (240 in all); the fuzz profile's when larger
SECONDS = 30.0  # an example over this is a hang


def fuzz_settings() -> settings:
    return settings(max_examples=max(EXAMPLES, settings.default.max_examples), deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                           HealthCheck.filter_too_much])


# -- running the CLI in-process --------------------------------------------------------------

class Valid(Exception):  # not an error: valid input reached the playing stage
    """Raised by the stub that replaces playing: the input passed every check."""


def _reached(*args: object, **kwargs: object) -> None:
    raise Valid


@contextlib.contextmanager
def _stubbed() -> Iterator[None]:
    """simulate and study run stop where they would start playing."""
    import cdsim.cli.runs as runs
    import cdsim.study.play as study

    saved = runs.run_with_progress, study.run
    runs.run_with_progress, study.run = _reached, _reached  # type: ignore[assignment]
    try:
        yield
    finally:
        runs.run_with_progress, study.run = saved  # type: ignore[assignment]


def run_cli(args: list[str], cwd: Path) -> tuple[int, str, str]:
    """(exit code, stdout, stderr) of ``cdsim ARGS`` in-process; Valid counts as exit 0. A
    watchdog interrupts an example that runs longer than SECONDS (a hang)."""
    out, err = io.StringIO(), io.StringIO()
    fired = threading.Event()

    def interrupt() -> None:  # a real SIGINT: it also wakes a blocking call (a sleep)
        fired.set()
        signal.pthread_kill(main_thread, signal.SIGINT)

    main_thread = threading.main_thread().ident or 0

    watchdog = threading.Timer(SECONDS, interrupt)
    argv, here = sys.argv, os.getcwd()
    # a process started in the background by a shell ignores SIGINT (and Python then keeps
    # it ignored): the watchdog needs Python's own handler to interrupt a hang
    handler = signal.signal(signal.SIGINT, signal.default_int_handler)
    code = 0
    try:
        sys.argv = ["cdsim", *args]
        os.chdir(cwd)
        watchdog.start()
        with _stubbed(), contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                main()
            except SystemExit as exc:
                code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
            except Valid:
                code = 0
    finally:
        watchdog.cancel()
        signal.signal(signal.SIGINT, handler)
        sys.argv = argv
        os.chdir(here)
    if fired.is_set():
        pytest.fail(f"cdsim {' '.join(args)[:300]} ran over {SECONDS:.0f} s (a hang)")
    return code, out.getvalue(), err.getvalue()


def check_outcome(code: int, err: str, args: list[str], invalid: bool = False) -> None:
    """Exit 0, or exit 2 with one line; never a traceback or a panic."""
    shown = f"cdsim {' '.join(args)[:300]}"
    assert "Traceback" not in err and "panicked" not in err, f"{shown}\n{err}"
    if invalid:
        assert code != 0, f"{shown}: invalid input accepted"
    if code == 0:
        return
    assert code == 2, f"{shown}: exit {code}\n{err}"
    assert err.startswith("cdsim: error: ") and err.count("\n") == 1, f"{shown}\n{err}"


@contextlib.contextmanager
def folder() -> Iterator[Path]:
    with tempfile.TemporaryDirectory(prefix="cdsim-fuzz-") as name:
        yield Path(name)
    from cdsim.games.carpe_diem.rules.components import _load

    _load.cache_clear()  # each example's set is in a new folder: don't keep them all


# -- TOML: values a user might write, and a writer -------------------------------------------

def _toml_key(key: str) -> str:
    return key if re.fullmatch(r"[A-Za-z0-9_-]+", key) else json.dumps(key)


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if math.isnan(value):
            return "nan"
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value)  # a TOML basic string (\\uXXXX escapes are TOML too)
    if isinstance(value, list):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{_toml_key(k)} = {_toml_value(v)}" for k, v in value.items()) + "}"
    raise TypeError(type(value))


def to_toml(data: dict[str, Any]) -> str:
    """TOML text of ``data``: scalars and inline values first, then tables and arrays of
    tables (one level: what cdsim's files hold)."""
    lines: list[str] = []
    later: list[str] = []
    for key, value in data.items():
        if isinstance(value, dict) and value and all(not isinstance(v, dict) for v in value.values()):
            later.append(f"\n[{_toml_key(key)}]")
            later += [f"{_toml_key(k)} = {_toml_value(v)}" for k, v in value.items()]
        elif isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
            for table in value:
                later.append(f"\n[[{_toml_key(key)}]]")
                later += [f"{_toml_key(k)} = {_toml_value(v)}" for k, v in table.items()]
        else:
            lines.append(f"{_toml_key(key)} = {_toml_value(value)}")
    return "\n".join(lines + later) + "\n"


NASTY_INTS = [0, 1, -1, 2, 3, 4, 5, 9, 10, 84, 99, 100, 255, 256, 1000, 10_000, 2**31 - 1, 2**31,
              -(2**31) - 1, 2**32, 2**53 + 1, 2**62, 2**63 - 1, 2**63, 2**64, -(2**63), 10**20,
              -(10**15)]
scalars = st.one_of(
    st.sampled_from(NASTY_INTS),
    st.integers(-(2**70), 2**70),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([0.0, -0.0, 0.5, 1e-300, 5e-324, 1e308, 2.5]),
    st.booleans(),
    st.sampled_from(["", " ", "x" * 300, "../../etc", "random", "greedy", "villa", "mcts",
                     "mcts@0", "villa@chimney=nan", ":", "os:system", "nope:X", "A06", "F05",
                     "market", "bakery", "fountain", "G V G G", "V G G G", "dM dB dA dR",
                     "G G G", "Z Z Z Z", "\u00e9t\u00e9", "\\", "\"", "\n", "default", "1,2",
                     "8,9,10,11", "name", "population"]),
    st.text(max_size=20),
)
values = st.recursive(scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=5), st.dictionaries(st.text(max_size=8), inner, max_size=4)),
    max_leaves=12)


def _paths(data: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place in ``data`` a mutation can touch."""
    found = [prefix] if prefix else []
    if isinstance(data, dict):
        for k, v in data.items():
            found += _paths(v, (*prefix, k))
    elif isinstance(data, list):
        for i, v in enumerate(data):
            found += _paths(v, (*prefix, i))
    return found


def _parent(data: Any, path: tuple[Any, ...]) -> Any:
    for step in path[:-1]:
        data = data[step]
    return data


@st.composite
def mutated(draw: st.DrawFn, base: dict[str, Any], known: tuple[str, ...] = ()
            ) -> tuple[dict[str, Any], bool]:
    """``base`` with a few mutations: a value replaced by another (often of the wrong kind or
    out of range), a key deleted, an element duplicated, a key added (``invalid``: an unknown
    top-level key, which every cdsim file refuses)."""
    data = json.loads(json.dumps(base))
    invalid = False
    for _ in range(draw(st.integers(1, 4))):
        places = _paths(data)
        kind = draw(st.sampled_from(["replace", "replace", "replace", "delete", "duplicate",
                                     "unknown", "wrap", "nudge"]))
        if kind == "unknown":
            key = draw(st.text(min_size=1, max_size=10))
            if key not in data and key not in known:
                data[key] = draw(values)
                invalid = True
            continue
        if not places:
            continue
        path = draw(st.sampled_from(places))
        parent = _parent(data, path)
        last = path[-1]
        if kind == "replace":
            parent[last] = draw(values)
        elif kind == "delete":
            del parent[last]
        elif kind == "duplicate" and isinstance(parent, list):
            parent.append(json.loads(json.dumps(parent[last])))
        elif kind == "wrap":
            parent[last] = [parent[last]]
        elif kind == "nudge" and isinstance(parent[last], int) and not isinstance(parent[last], bool):
            parent[last] += draw(st.sampled_from([-1, 1, -1000, 1000, 2**31, -(2**31)]))
    # a later mutation may have deleted the unknown key again
    invalid = invalid and any(k not in base and k not in known for k in data)
    return data, invalid


@st.composite
def file_bytes(draw: st.DrawFn, data: dict[str, Any]) -> tuple[bytes, bool]:
    """TOML text of ``data``, now and then corrupted (a byte flipped, cut short, not UTF-8);
    True when the corruption surely makes it invalid."""
    text = to_toml(data).encode()
    how = draw(st.sampled_from(["as is"] * 8 + ["latin1", "cut", "flip", "nul"]))
    if how == "latin1":
        return text + b'\nzz = "\xff\xfe"\n', True
    if how == "cut" and len(text) > 2:
        return text[:draw(st.integers(1, len(text) - 1))], False
    if how == "flip" and text:
        i = draw(st.integers(0, len(text) - 1))
        return text[:i] + bytes([draw(st.integers(0, 255))]) + text[i + 1:], False
    if how == "nul":
        return text + b"\x00", True
    return text, False


def _load_toml(path: Path) -> dict[str, Any]:
    import tomllib

    return tomllib.loads(path.read_text())


# -- study files -----------------------------------------------------------------------------

STUDY_KEYS = tuple(StudyFile.model_fields)


@fuzz_settings()
@given(mutated(_load_toml(STUDY), STUDY_KEYS).flatmap(
    lambda m: st.tuples(st.just(m[1]), file_bytes(m[0]))))
@example((False, (b'name = "x"\npopulation = 1\n', False)))  # was: TypeError in load_study
def test_study_files(case: tuple[bool, tuple[bytes, bool]]) -> None:
    unknown, (body, corrupt) = case
    with folder() as tmp:
        path = tmp / "study.toml"
        path.write_bytes(body)
        args = ["study", "run", str(path), "--out", str(tmp / "out"), "--jobs", "1"]
        code, _, err = run_cli(args, tmp)
        check_outcome(code, err, args, invalid=unknown or corrupt)


# -- simulate flags and run files ------------------------------------------------------------

FLAG_VALUES: dict[str, st.SearchStrategy[str]] = {
    "--players": st.sampled_from(["2", "3", "4", "1", "5", "0", "-2", "1" * 30, "x", ""]),
    "--games": st.sampled_from(["1", "8", "12", "0", "-1", "100000000", "100000001",
                                str(10**12), "1e3", "x"]),
    "--strategies": st.sampled_from(["random", "greedy,villa", "random,random,random,random",
                                     "mcts@4", "mcts@0", "villa@chimney=1.5", "villa@x=1",
                                     "bogus", ":", "os:system", "nope:X", ",", "random,,greedy",
                                     "greedy,villa,landscape,bread", "random@1"]),
    "--strategy-pool": st.sampled_from(["random,greedy", "bogus", ":", "", "mcts@3,random"]),
    "--seed": st.sampled_from(["0", "1", "-1", str(2**63 - 1), str(2**63), str(2**64), "x"]),
    "--jobs": st.sampled_from(["1", "2", "-1", "0", "-2", "257", "100000", "x"]),
    "--start-vp": st.sampled_from(["8,9", "8,9,10", "8,9,10,11", "1,2", "2147483648,0,0,0",
                                   "-1000001,0", "a,b", ",", "", "0,0,0,0,0"]),
    "--chunk-size": st.sampled_from(["1", "250", "0", "-5", "100000", "100001", "x"]),
    "--strategy-params": st.sampled_from(["villa.chimney=1.5", "villa.x=1", "x", "villa.chimney=nan",
                                          "mcts.playouts=0", "mcts.playouts=10", "=", ""]),
    "--backend": st.sampled_from(["loky", "bogus", ""]),
    "--decision-timeout": st.sampled_from(["10", "0", "0.5", "-1", "nan", "inf", "1e9", "x"]),
    "--components": st.sampled_from(["{data}", "{tmp}/missing", "{tmp}/run.toml", "{data}/tiles.toml"]),
}
FLAGS = tuple(FLAG_VALUES)
SWITCHES = ("--rotate-seats", "--no-rotate-seats", "--resume", "--force", "--quiet")
RUN_KEYS = {"out": st.sampled_from(["{tmp}/from-file", "", "x" * 300]),
            "players": st.one_of(st.sampled_from([2, 3, 4, 5, "4", True, 2.5, [2]]), scalars),
            "games": st.one_of(st.sampled_from([8, 0, -1, 10**12, "8", 8.0]), scalars),
            "strategies": st.one_of(st.sampled_from([["random"], ["random", "greedy"], "random",
                                                     [1, 2], [["random"]], []]), scalars),
            "seed": scalars, "start_vp": st.one_of(st.sampled_from([[8, 9], "8,9", [8.5, 9]]),
                                                   scalars),
            "rotate_seats": st.one_of(st.booleans(), scalars), "chunk_size": scalars,
            "strategy_params": scalars, "components": scalars, "bogus": scalars}


@st.composite
def simulate_case(draw: st.DrawFn) -> tuple[list[str], dict[str, Any] | None]:
    args: list[str] = ["simulate"]
    if draw(st.integers(0, 9)):
        args += ["--out", draw(st.sampled_from(["{tmp}/run", "{tmp}/run", "{tmp}", "{tmp}/a/b/c",
                                                "{tmp}/run.toml", "{tmp}/" + "y" * 300]))]
    for flag in draw(st.lists(st.sampled_from(FLAGS), max_size=6, unique=True)):
        args += [flag, draw(FLAG_VALUES[flag])]
    args += draw(st.lists(st.sampled_from(SWITCHES), max_size=2, unique=True))
    if draw(st.integers(0, 19)) == 0:
        args += [draw(st.sampled_from(["--bogus", "extra", "--games"]))]
    run_file = None
    if draw(st.integers(0, 3)) == 0:
        keys = draw(st.lists(st.sampled_from(sorted(RUN_KEYS)), max_size=5, unique=True))
        run_file = {k: draw(RUN_KEYS[k]) for k in keys}
        args += ["--config", "{tmp}/run.toml"]
    return args, run_file


def _filled(args: list[str], tmp: Path) -> list[str]:
    return [a.replace("{tmp}", str(tmp)).replace("{data}", str(DATA_DIR)) for a in args]


@fuzz_settings()
@given(simulate_case())
@example((["simulate", "--out", "{tmp}/run", "--players", "2", "--games", "8", "--strategies",
           "random", "--decision-timeout", "nan"], None))
@example((["simulate", "--out", "{tmp}/run", "--config", "{tmp}/run.toml"],
          {"strategy_params": 1}))  # was: AttributeError (a run file's value of another type)
def test_simulate_flags(case: tuple[list[str], dict[str, Any] | None]) -> None:
    raw, run_file = case
    with folder() as tmp:
        if run_file is not None:
            body = {k: (v.replace("{tmp}", str(tmp)) if isinstance(v, str) else v)
                    for k, v in run_file.items()}
            (tmp / "run.toml").write_text(to_toml(body))
        args = _filled(raw, tmp)
        code, _, err = run_cli(args, tmp)
        check_outcome(code, err, args, invalid=run_file is not None and "bogus" in run_file)


# -- component sets --------------------------------------------------------------------------

COMPONENT_BASES = {name: _load_toml(DATA_DIR / name) for name in COMPONENT_FILES}


@st.composite
def component_case(draw: st.DrawFn) -> tuple[str, bytes, bool]:
    name = draw(st.sampled_from(COMPONENT_FILES))
    data, unknown = draw(mutated(COMPONENT_BASES[name]))
    body, corrupt = draw(file_bytes(data))
    return name, body, unknown or corrupt


def _plays(tmp: Path, components: Path) -> None:
    """A set that `components check` accepts loads into the core and plays a game."""
    args = ["play", "--players", "2", "--strategies", "random", "--components", str(components),
            "--json"]
    code, out, err = run_cli(args, tmp)
    assert code == 0, f"components check accepted {components}, play refused it:\n{err}"
    assert json.loads(out)["players"] == 2


@fuzz_settings()
@given(component_case())
def test_component_sets(case: tuple[str, bytes, bool]) -> None:
    name, body, invalid = case  # invalid: an unknown key, or corrupt
    with folder() as tmp:
        components = tmp / "set"
        components.mkdir()
        (components / name).write_bytes(body)
        args = ["components", "check", str(components)]
        code, _, err = run_cli(args, tmp)
        check_outcome(code, err, args, invalid=invalid)
        if code == 0:
            _plays(tmp, components)


# -- position files --------------------------------------------------------------------------

POSITION_BASES = [_load_toml(p) for p in POSITIONS]


@st.composite
def position_case(draw: st.DrawFn) -> tuple[bytes, bool, bool]:
    base = draw(st.sampled_from(POSITION_BASES))
    data, unknown = draw(mutated(base, ("scroll", "fountain_cards", "frame", "cards", "supply",
                                        "tile")))
    body, corrupt = draw(file_bytes(data))
    return body, unknown or corrupt, draw(st.booleans())


@fuzz_settings()
@given(position_case())
@example((b'cards = ["A06"]\n\n[supply]\nherbs = 2\n', False, False))  # the harness's own
def test_position_files(case: tuple[bytes, bool, bool]) -> None:
    body, invalid, as_json = case
    with folder() as tmp:
        path = tmp / "position.toml"
        path.write_bytes(body)
        args = ["score", str(path), *(["--json"] if as_json else [])]
        code, out, err = run_cli(args, tmp)
        check_outcome(code, err, args, invalid=invalid)
        if code == 0 and as_json:
            json.loads(out)


def test_the_harness_sees_a_hang(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    import time

    import cdsim.games.carpe_diem.rules.components as components

    def slow(*args: object, **kwargs: object) -> Callable[..., Any]:
        time.sleep(20)
        raise AssertionError("not interrupted")

    monkeypatch.setattr(components, "load_components", slow)  # `cards` reads the set
    monkeypatch.setattr(sys.modules[__name__], "SECONDS", 0.5)
    with pytest.raises(pytest.fail.Exception, match="a hang"):
        run_cli(["cards"], tmp_path)
