"""The learned player of the compiled core (core/src/carpe_diem/players/learned/) and its training
(cdsim train, cdsim/train.py): the weights file it reads by default or from
learned@weights=PATH, refused in one line when missing, corrupt or made for another
component set; which weights played, in run and ladder manifests; training rebuilt
from a seed. Its strength is measured by `cdsim ladder` (docs/strength.md), not here."""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from cdsim import core
from cdsim.errors import CdsimError
from cdsim.games.carpe_diem.handover import components_json
from cdsim.games.carpe_diem.players.registry import CORE_ONLY, parse_params, parse_spec
from cdsim.games.carpe_diem.players.weights import DEFAULT_WEIGHTS, read_weights
from cdsim.games.carpe_diem.rules.components import load_components
from cdsim.train import LABEL_GAMES, TrainConfig, train, widened
from tests.conftest import core_or_skip

V1_WEIGHTS = DEFAULT_WEIGHTS.with_name("learned-v1.json")  # fitted to greedy playouts only
V3_WEIGHTS = DEFAULT_WEIGHTS.with_name("learned-v3.json")  # the built-in before 3-player labels


def cdsim(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "cdsim", *args], capture_output=True,
                          text=True, check=False)


def one_line_error(out: subprocess.CompletedProcess[str], *says: str) -> None:
    assert out.returncode == 2, out.stderr
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1, out.stderr
    for text in says:
        assert text in lines[0], lines[0]


def test_the_built_in_weights_are_what_cdsim_train_seed_1_writes() -> None:
    """strategies/weights/learned.json: for the default set, made by the default training
    (the rounds, then the search-label stage at every player count: version 2)."""
    core_or_skip()
    weights = read_weights(DEFAULT_WEIGHTS)
    assert weights.components_digest == load_components(None).digest
    assert len(weights.digest) == 64
    data = json.loads(DEFAULT_WEIGHTS.read_text())
    assert data["version"] == 2 and data["training"]["seed"] == 1
    assert data["training"]["command"] == TrainConfig().command()
    assert data["training"]["labels"]["games"] == list(LABEL_GAMES) and all(LABEL_GAMES)
    assert set(data["training"]["labels"]["decisions"]) == {"2", "3", "4"}
    assert data["training"]["last_stage"] == "search labels"
    v1 = json.loads(V1_WEIGHTS.read_text())
    assert v1["version"] == 1
    assert v1["training"]["command"] == TrainConfig(label_games=(0, 0, 0)).command()
    assert data["weights"]["3"] != widened(v1["weights"], len(data["features"]))["3"]


def test_the_built_in_weights_before_are_the_same_training_without_3_player_labels() -> None:
    """strategies/weights/learned-v3.json (the built-in until issue 49 labelled 3 players):
    the default training with no 3-player label games. Its 2- and 4-player weights are the
    built-in ones number for number (3-player labels refit only the 3-player rows); its
    3-player rows had no labels: the rounds' weights, learned-v1.json, widened."""
    core_or_skip()
    assert read_weights(V3_WEIGHTS).components_digest == load_components(None).digest
    data = json.loads(DEFAULT_WEIGHTS.read_text())
    v3 = json.loads(V3_WEIGHTS.read_text())
    two, _, four = LABEL_GAMES
    assert v3["version"] == 2
    assert v3["training"]["command"] == TrainConfig(label_games=(two, 0, four)).command()
    assert v3["training"]["labels"]["decisions"] == {
        k: v for k, v in data["training"]["labels"]["decisions"].items() if k != "3"}
    assert v3["weights"]["2"] == data["weights"]["2"]
    assert v3["weights"]["4"] == data["weights"]["4"]
    v1 = json.loads(V1_WEIGHTS.read_text())
    widened_v1 = widened(v1["weights"], len(v3["features"]))
    assert v3["weights"]["3"] == widened_v1["3"] and v3["weights"]["4"] != widened_v1["4"]


def test_the_search_labelled_weights_name_every_step_back_to_the_built_in_ones() -> None:
    """strategies/weights/learned-v2.json (issue 30, docs/strength.md): version 2, for the
    default set, and its training names each fit and, at the end of the chain, the
    greedy-playout weights it started from (learned-v1.json)."""
    core_or_skip()
    path = DEFAULT_WEIGHTS.with_name("learned-v2.json")
    weights = read_weights(path)
    assert weights.components_digest == load_components(None).digest
    data = json.loads(path.read_text())
    assert data["version"] == 2 and len(data["features"]) == len(data["weights"]["4"][0]) // 2
    step, fits = data["training"], 0
    while True:
        assert step["command"].startswith("scripts/fit_labels.py") and step["labels"]
        fits += 1
        if "prior_training" not in step:
            break
        step = step["prior_training"]
    assert fits == 2  # 4 players, then 2 players on top
    assert step["prior"] == read_weights(V1_WEIGHTS).digest
    # 3 players had no labels: the greedy-playout weights, the new inputs at 0
    built_in = json.loads(V1_WEIGHTS.read_text())["weights"]
    assert data["weights"]["3"] == widened(built_in, len(data["features"]))["3"]
    assert data["weights"]["4"] != widened(built_in, len(data["features"]))["4"]


def test_learned_spellings_load_their_weights(tmp_path: Path) -> None:
    core_or_skip()
    name, params = parse_spec("learned")
    assert name == "learned" and set(params) == {"weights"}
    copy = tmp_path / "copy.json"
    copy.write_text(DEFAULT_WEIGHTS.read_text())
    _, other = parse_spec(f"learned@weights={copy}@top_k=2")
    assert other["top_k"] == 2.0
    assert other["weights"] == params["weights"]  # the same weights: one entry in the core
    with pytest.raises(CdsimError, match="is a file: spell it learned@weights=PATH"):
        parse_params("learned.weights=1")
    with pytest.raises(CdsimError, match="learned has no parameter 'nope'"):
        parse_spec("learned@nope=1")


def test_learned_classic_is_the_player_before_issue_49() -> None:
    """learned@classic names the settings of the old search (each shortlisted move's best
    take, each copy's own prices); a later setting wins; a word that is no preset is one
    line naming the presets; pin is 0 or 1."""
    core_or_skip()
    _, classic = parse_spec("learned@classic")
    assert (classic["joint"], classic["pin"]) == (0.0, 0.0)
    _, mixed = parse_spec("learned@classic@joint=3")
    assert (mixed["joint"], mixed["pin"]) == (3.0, 0.0)
    with pytest.raises(CdsimError, match="name a preset \\(classic\\)"):
        parse_spec("learned@v7")
    with pytest.raises(CdsimError, match=r"learned\.pin must be 0 or 1"):
        parse_spec("learned@pin=2")


def test_learned_params_are_the_cores() -> None:
    """Every parameter the registry knows for learned, the core takes (weights aside: a
    file); one it does not know the core refuses too."""
    core_or_skip()
    module = core.module()
    assert module is not None
    known = [k for k in CORE_ONLY["learned"].params if k != "weights"]
    module.Bot("learned", [(k, 1.0) for k in known])
    with pytest.raises(ValueError, match="learned has no parameter"):
        module.Bot("learned", [("depth", 1.0)])


@pytest.mark.parametrize(("content", "says"), [
    (None, "no such weights file"),
    ("{not json", "not a learned weights file"),
    ('{"format": "cdsim-learned-weights", "version": 7}', "version 7"),
    ("other-inputs", "made for other inputs"),
    ("short-row", "corrupt weights file"),
    ("other-set", "trained on the component set 0123456789ab (my-set)"),
])
def test_bad_weights_are_one_line_and_exit_2(tmp_path: Path, content: str | None,
                                             says: str) -> None:
    core_or_skip()
    path = tmp_path / "w.json"
    data = json.loads(DEFAULT_WEIGHTS.read_text())
    if content == "other-inputs":
        data["features"] = data["features"][:-1]
        content = json.dumps(data)
    elif content == "short-row":
        data["weights"]["4"][2] = data["weights"]["4"][2][:-1]
        content = json.dumps(data)
    elif content == "other-set":
        data["components_digest"] = "0123456789abcdef"
        data["training"]["components"] = "my-set"
        content = json.dumps(data)
    if content is not None:
        path.write_text(content)
    out = cdsim("simulate", "--players", "2", "--games", "2", "--out", str(tmp_path / "run"),
                "--strategies", f"learned@weights={path},greedy")
    one_line_error(out, str(path), says)
    assert not (tmp_path / "run" / "manifest.json").exists()
    # cdsim play checks the same before the game
    one_line_error(cdsim("play", "--players", "2", "--strategies", f"learned@weights={path},greedy"),
                   str(path), says)


def test_runs_and_ladders_record_which_weights_played(tmp_path: Path) -> None:
    core_or_skip()
    digest = read_weights(DEFAULT_WEIGHTS).digest
    out = cdsim("simulate", "--players", "2", "--games", "2", "--strategies", "learned,greedy",
                "--out", str(tmp_path / "run"), "--seed", "3")
    assert out.returncode == 0, out.stderr
    manifest = json.loads((tmp_path / "run" / "manifest.json").read_text())
    assert manifest["weights"] == {"learned": {"path": str(DEFAULT_WEIGHTS), "digest": digest}}
    out = cdsim("ladder", "--players", "2", "--strategies", "greedy,learned", "--games", "2",
                "--out", str(tmp_path / "ladder"), "--jobs", "1")
    assert out.returncode == 0, out.stderr
    assert f"weights of learned: {DEFAULT_WEIGHTS} (digest {digest[:12]})" in out.stdout
    ladder = json.loads((tmp_path / "ladder" / "ladder.json").read_text())
    assert ladder["weights"]["learned"]["digest"] == digest
    assert digest[:12] in (tmp_path / "ladder" / "ladder.md").read_text()
    assert "cards failed" in (tmp_path / "ladder" / "ladder.md").read_text()


def test_training_is_rebuilt_from_its_seed() -> None:
    """A tiny training with one worker and with two: the same weights file; another seed,
    other weights."""
    core_or_skip()
    config = TrainConfig(seed=4, games=(2, 1, 1), rounds=1, sample=0.2, playouts=1,
                         label_games=(0, 0, 0))
    stages = train(config, 1)
    assert [s.stage for s in stages] == [0, 1] and stages[-1].games == 8
    assert train(config, 2)[-1].text == stages[-1].text
    data = json.loads(stages[-1].text)
    assert data["version"] == 1 and data["training"]["command"] == config.command()
    assert "--label-games" not in config.command()  # no label stage: the file says so
    assert data["components_digest"] == load_components(None).digest
    assert any(w != 0 for row in data["weights"]["2"] for w in row)
    other = TrainConfig(seed=5, games=(2, 0, 0), rounds=0, sample=0.2, playouts=1,
                        label_games=(0, 0, 0))
    assert json.loads(train(other, 1)[-1].text)["weights"]["2"] != data["weights"]["2"]


def test_the_label_stage_refits_what_search_labelled_the_same_for_any_jobs() -> None:
    """The search-label stage (issue 30): a version-2 file, rebuilt byte for byte with one
    worker or two; the counts that were labelled are refitted, the others keep the last
    stage's weights (widened to the new inputs)."""
    core_or_skip()
    config = TrainConfig(seed=3, games=(4, 2, 2), rounds=0, sample=0.3, playouts=1,
                         label_games=(4, 0, 2), label_playouts=4)
    stages = train(config, 1)
    assert [s.label for s in stages] == ["greedy play", "search labels"]
    assert train(config, 2)[-1].text == stages[-1].text
    data = json.loads(stages[-1].text)
    assert data["version"] == 2 and data["training"]["command"] == config.command()
    assert "--label-games 4,0,2 --label-playouts 4" in config.command()
    decisions = data["training"]["labels"]["decisions"]
    assert set(decisions) == {"2", "4"} and min(decisions.values()) > 5
    before = widened(json.loads(stages[0].text)["weights"], len(data["features"]))
    assert data["weights"]["3"] == before["3"]
    assert data["weights"]["2"] != before["2"] and data["weights"]["4"] != before["4"]
    # labelling 3 players as well refits the 3-player rows alone (how the built-in weights
    # gained theirs and kept learned-v3.json's 2- and 4-player rows)
    three = json.loads(train(replace(config, label_games=(4, 2, 2)), 2)[-1].text)
    assert three["weights"]["3"] != before["3"]
    assert three["weights"]["2"] == data["weights"]["2"]
    assert three["weights"]["4"] == data["weights"]["4"]


@pytest.mark.parametrize(("args", "says"), [
    (["--label-games", "1,2"], "--label-games takes three counts"),
    (["--label-games", "0,0,-1"], "--label-games takes three counts"),
    (["--label-playouts", "0"], "--label-playouts must be between 1 and 1000"),
    (["--games", "1,2"], "--games takes three counts"),
    (["--sample", "0"], "--sample must be above 0"),
    (["--playouts", "0"], "--playouts must be between 1 and 1000"),
    (["--rounds", "-1"], "--rounds must be between 0 and 50"),
])
def test_train_refuses_bad_settings_in_one_line(args: list[str], says: str) -> None:
    one_line_error(cdsim("train", "--out", "/nonexistent/never.json", *args), says)


def test_version_2_weights_read_the_placement_inputs_after_the_others(tmp_path: Path) -> None:
    """Weights format version 2 (issue 30): the built-in list, then the placement inputs.
    The version-1 weights widened with the new inputs at 0 value every option as they do;
    a weight on a new input moves each value by that weight times the input's margin."""
    core_or_skip()
    from cdsim import core
    from cdsim.games.carpe_diem.players.weights import feature_names

    module = core.module()
    assert module is not None
    from cdsim.train import widened

    v1, v2 = feature_names(1), feature_names(2)
    assert v2[:len(v1)] == v1 and "dead_features" in v2[len(v1):]
    data = json.loads(V1_WEIGHTS.read_text())
    data["version"], data["features"] = 2, list(v2)
    data["weights"] = widened(data["weights"], len(v2))
    path = tmp_path / "v2.json"
    path.write_text(json.dumps(data))
    assert read_weights(path).features == v2
    same = module.learned_weights(path.read_text())
    as_v1 = module.learned_weights(V1_WEIGHTS.read_text())
    k = v2.index("dead_features")
    moved = json.loads(path.read_text())
    for rows in moved["weights"].values():
        for row in rows:
            row[k] = 3.0
    other = module.learned_weights(json.dumps(moved))
    comps = module.Components(components_json(load_components(None)))
    state = module.State(comps, 4, [0] * 4, 5, 9)
    bots = [module.Bot("greedy") for _ in range(4)]
    checked = 0
    while not state.is_over() and checked < 12:
        if state.decision() == "move":
            base = state.search_labels(1, [("playouts", 1.0)], as_v1)
            for (_, _, want, x, *_), (_, _, got, *_), (_, _, shifted, *_) in zip(
                    base, state.search_labels(1, [("playouts", 1.0)], same),
                    state.search_labels(1, [("playouts", 1.0)], other), strict=True):
                assert got == pytest.approx(want, abs=1e-9)
                seats = np.reshape(x[1:], (4, 1 + len(v2)))[:, 1 + k]
                assert shifted - want == pytest.approx(3.0 * (seats[0] - seats[1:].mean()))
            checked += 1
        state.apply(bots[state.current_seat()].choose(state))
    assert checked == 12


def _strong_study(folder: Path, games: int, reward: int = 6) -> Path:
    """A small study: the learned player in both seats of a 2-player cell, and a variant
    paying ``reward`` VP for B05 on the same deals."""
    (folder / "b05.toml").write_text(f'base = "default"\n[[objective]]\nid = "B05"\n'
                                     f"reward = {{ vp = {reward} }}\n")
    study = folder / "study.toml"
    study.write_text(f'name = "strong-b05"\nseed = 5\ngames = {games}\nplayers = [2]\n'
                     "radius = 1\nchunk_size = 20\n\n"
                     '[[population]]\nname = "strong"\nlineup = ["learned"]\n\n'
                     f'[[variant]]\nname = "B05-at-{reward}"\ncomponents = "{folder / "b05.toml"}"\n')
    return study


def test_the_built_in_weights_play_a_changed_card_on_the_bases_deals(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """A variant's cells play the same learned player as their base (the built-in weights,
    recorded in both manifests), so the study pairs them and reports the difference."""
    core_or_skip()
    from tests.commands import run_main

    study, out = _strong_study(tmp_path, 40), tmp_path / "out"
    code, err = run_main(["study", "run", str(study), "--out", str(out), "--quiet"],
                         monkeypatch, capsys)
    assert code == 0, err
    digest = read_weights(DEFAULT_WEIGHTS).digest
    base = json.loads((out / "cells" / "2p.strong+s0" / "manifest.json").read_text())
    variant = json.loads((out / "cells" / "2p.strong.B05-at-6+s0" / "manifest.json").read_text())
    assert base["weights"] == variant["weights"] == {
        "learned": {"path": str(DEFAULT_WEIGHTS), "digest": digest}}
    assert base["components_digest"] != variant["components_digest"]
    code, err = run_main(["study", "report", str(out)], monkeypatch, capsys)
    assert code == 0, err
    page = (out / "study.md").read_text()
    assert "| strong | B05-at-6 |" in page  # the paired difference of each seat
    assert "objective card 'B05': reward.vp: 8 -> 6" in page


def test_a_change_the_learned_player_cannot_read_is_refused_before_play(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """A change outside what the inputs read (here: as if they did not read card rewards)
    is one line naming the cell, the entry and the command that trains for it, before a
    folder, a lock or a game; what they read (everything today) plays."""
    core_or_skip()
    from cdsim.games.carpe_diem.players import weights
    from cdsim.study.model import load_study
    from cdsim.study.play import check_players
    from tests.commands import run_main

    study, out = _strong_study(tmp_path, 40), tmp_path / "out"
    check_players(load_study(study))  # every key a component set has today is read
    monkeypatch.setitem(weights.READS, "objective",
                        weights.READS["objective"] - {"reward"})
    code, err = run_main(["study", "run", str(study), "--out", str(out)], monkeypatch, capsys)
    assert code == 2
    assert err.count("\n") == 1
    for says in ("cell 2p.strong.B05-at-6", "cannot see objective card 'B05': reward.vp",
                 "its inputs do not read reward", f"cdsim train --components {tmp_path}"):
        assert says in err, err
    assert not out.exists()
    # a kind of requirement its card values do not know
    monkeypatch.setitem(weights.READ_KINDS, "reward", frozenset({"coins"}))
    monkeypatch.setitem(weights.READS, "objective", weights.READS["objective"] | {"reward"})
    with pytest.raises(CdsimError, match="its card values know no reward kind 'vp'"):
        check_players(load_study(study))
    code, err = run_main(["simulate", "--players", "2", "--games", "2", "--strategies",
                          "learned,greedy", "--components", str(tmp_path / "b05.toml"),
                          "--out", str(tmp_path / "run")], monkeypatch, capsys)
    assert code == 2 and "know no reward kind 'vp'" in err
    assert not (tmp_path / "run").exists()
