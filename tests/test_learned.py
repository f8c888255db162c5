"""The learned player of the compiled core (core/src/carpe_diem/players/learned/) and its training
(cdsim train: cdsim.train's one pipeline running Carpe Diem's trainer,
cdsim.games.carpe_diem.commands.training): the weights file it reads by default or from
learned@weights=PATH (the one format of every game), refused in one line when missing,
corrupt, another game's, in the old format or made for another component set; which
weights played, in run and ladder manifests; training rebuilt from a seed, byte for byte
what the pipeline before the one pipeline wrote. Its strength is measured by `cdsim
ladder` (docs/strength.md), not here."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from cdsim import core
from cdsim.errors import CdsimError
from cdsim.games.carpe_diem.commands.training.fit import LABEL_GAMES, widened
from cdsim.games.carpe_diem.commands.training.rounds import CarpeDiemTrainer, TrainConfig
from cdsim.games.carpe_diem.handover import components_json
from cdsim.games.carpe_diem.players.registry import CORE_ONLY, parse_params, parse_spec
from cdsim.games.carpe_diem.players.weights import DEFAULT_WEIGHTS, feature_names, read_weights
from cdsim.games.carpe_diem.rules.components import load_components
from cdsim.train import train as pipeline
from tests.conftest import core_or_skip

V1_WEIGHTS = DEFAULT_WEIGHTS.with_name("learned-v1.json")  # fitted to greedy playouts only
V3_WEIGHTS = DEFAULT_WEIGHTS.with_name("learned-v3.json")  # the built-in before 3-player labels


def train(config: TrainConfig, jobs: int) -> list[tuple[str, str]]:
    """Each round's (line, weights file) of a training by the one pipeline."""
    done: list[tuple[str, str]] = []
    pipeline(CarpeDiemTrainer(config, load_components(config.components).digest), jobs,
             on_round=lambda index, fitted, text: done.append((fitted.line, text)))
    return done


def placement(data: dict[str, object]) -> bool:
    """Whether a weights file holds the placement inputs (input set 2)."""
    inputs = data["inputs"]
    assert isinstance(inputs, list)
    return len(inputs) == 2 * len(feature_names(2))


def width(data: dict[str, object]) -> int:
    """Its inputs, each counted once (the file lists each, then each times takes left)."""
    inputs = data["inputs"]
    assert isinstance(inputs, list)
    return len(inputs) // 2


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
    """strategies/weights/carpe_diem-learned.json: for the default set, made by the default
    training (the rounds, then the search-label stage at every player count: the placement
    inputs)."""
    core_or_skip()
    weights = read_weights(DEFAULT_WEIGHTS)
    assert weights.components_digest == load_components(None).digest
    assert len(weights.digest) == 64
    data = json.loads(DEFAULT_WEIGHTS.read_text())
    assert data["game"] == "carpe-diem" and placement(data) and data["training"]["seed"] == 1
    assert data["training"]["command"] == TrainConfig().command()
    assert data["training"]["labels"]["games"] == list(LABEL_GAMES) and all(LABEL_GAMES)
    assert set(data["training"]["labels"]["decisions"]) == {"2", "3", "4"}
    assert data["training"]["last_stage"] == "search labels"
    v1 = json.loads(V1_WEIGHTS.read_text())
    assert not placement(v1)
    assert v1["training"]["command"] == TrainConfig(label_games=(0, 0, 0)).command()
    assert data["weights"]["3"] != widened(v1["weights"], width(data))["3"]


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
    assert placement(v3)
    assert v3["training"]["command"] == TrainConfig(label_games=(two, 0, four)).command()
    assert v3["training"]["labels"]["decisions"] == {
        k: v for k, v in data["training"]["labels"]["decisions"].items() if k != "3"}
    assert v3["weights"]["2"] == data["weights"]["2"]
    assert v3["weights"]["4"] == data["weights"]["4"]
    v1 = json.loads(V1_WEIGHTS.read_text())
    widened_v1 = widened(v1["weights"], width(v3))
    assert v3["weights"]["3"] == widened_v1["3"] and v3["weights"]["4"] != widened_v1["4"]


def test_the_search_labelled_weights_name_every_step_back_to_the_built_in_ones() -> None:
    """strategies/weights/learned-v2.json (issue 30, docs/strength.md): input set 2, for the
    default set, and its training names each fit and, at the end of the chain, the
    greedy-playout weights it started from (learned-v1.json)."""
    core_or_skip()
    path = DEFAULT_WEIGHTS.with_name("learned-v2.json")
    weights = read_weights(path)
    assert weights.components_digest == load_components(None).digest
    data = json.loads(path.read_text())
    assert placement(data) and len(data["inputs"]) == len(data["weights"]["4"][0])
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
    assert data["weights"]["3"] == widened(built_in, width(data))["3"]
    assert data["weights"]["4"] != widened(built_in, width(data))["4"]


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
    ('{"format": "cdsim-weights", "version": 7}', '"version" 7'),
    ('{"format": "cdsim-learned-weights", "version": 2}', "cdsim train --convert"),
    ("other-game", "\"game\": the weights are 'castles''s, not 'carpe-diem''s"),
    ("other-inputs", "\"inputs\": the weights were made for other inputs"),
    ("short-row", "corrupt weights file"),
    ("other-set", "trained on the component set 0123456789ab (my-set)"),
])
def test_bad_weights_are_one_line_and_exit_2(tmp_path: Path, content: str | None,
                                             says: str) -> None:
    core_or_skip()
    path = tmp_path / "w.json"
    data = json.loads(DEFAULT_WEIGHTS.read_text())
    if content == "other-inputs":
        data["inputs"] = data["inputs"][:-1]
        content = json.dumps(data)
    elif content == "other-game":
        data["game"] = "castles"
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
    assert [line.split(" (")[0] for line, _ in stages] == ["stage 0", "stage 1"]
    assert "8 games" in stages[-1][0]
    assert train(config, 2)[-1][1] == stages[-1][1]
    data = json.loads(stages[-1][1])
    assert not placement(data) and data["training"]["command"] == config.command()
    assert "--label-games" not in config.command()  # no label stage: the file says so
    assert data["components_digest"] == load_components(None).digest
    assert any(w != 0 for row in data["weights"]["2"] for w in row)
    other = TrainConfig(seed=5, games=(2, 0, 0), rounds=0, sample=0.2, playouts=1,
                        label_games=(0, 0, 0))
    assert json.loads(train(other, 1)[-1][1])["weights"]["2"] != data["weights"]["2"]


def test_the_label_stage_refits_what_search_labelled_the_same_for_any_jobs() -> None:
    """The search-label stage (issue 30): a file of input set 2, rebuilt byte for byte with one
    worker or two; the counts that were labelled are refitted, the others keep the last
    stage's weights (widened to the new inputs)."""
    core_or_skip()
    config = TrainConfig(seed=3, games=(4, 2, 2), rounds=0, sample=0.3, playouts=1,
                         label_games=(4, 0, 2), label_playouts=4)
    stages = train(config, 1)
    assert [line.split(":")[0] for line, _ in stages] == ["stage 0 (greedy play)",
                                                          "stage 1 (search labels)"]
    assert train(config, 2)[-1][1] == stages[-1][1]
    data = json.loads(stages[-1][1])
    assert placement(data) and data["training"]["command"] == config.command()
    assert "--label-games 4,0,2 --label-playouts 4" in config.command()
    decisions = data["training"]["labels"]["decisions"]
    assert set(decisions) == {"2", "4"} and min(decisions.values()) > 5
    before = widened(json.loads(stages[0][1])["weights"], width(data))
    assert data["weights"]["3"] == before["3"]
    assert data["weights"]["2"] != before["2"] and data["weights"]["4"] != before["4"]
    # labelling 3 players as well refits the 3-player rows alone (how the built-in weights
    # gained theirs and kept learned-v3.json's 2- and 4-player rows)
    three = json.loads(train(replace(config, label_games=(4, 2, 2)), 2)[-1][1])
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
    """Input set 2 (issue 30): the built-in list, then the placement inputs. The set-1
    weights widened with the new inputs at 0 value every option as they do; a weight on a
    new input moves each value by that weight times the input's margin."""
    core_or_skip()
    from cdsim.games.carpe_diem.players.weights import file_inputs

    module = core.module()
    assert module is not None
    v1, v2 = feature_names(1), feature_names(2)
    assert v2[:len(v1)] == v1 and "dead_features" in v2[len(v1):]
    data = json.loads(V1_WEIGHTS.read_text())
    data["inputs"] = list(file_inputs(v2))
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


# The weights the training before the one pipeline (Carpe Diem's own `cdsim train`, main at
# 601876b) wrote for `cdsim train --seed 2 --games 4,2,2 --rounds 1 --sample 0.2 --playouts 1
# --label-games 2,0,1 --label-playouts 4`, converted (`cdsim train --convert`): sha256
BEFORE_ONE_PIPELINE = "9709637370b91cb8acf8760777a1fd14046b222c6743462d680c1187882cd61f"


def test_the_one_pipeline_writes_what_carpe_diems_own_pipeline_wrote(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """Its rounds (greedy playouts) and its label stage (mcts labels) through the one
    pipeline: byte for byte the converted file of the pipeline before, on a small budget
    (the same code makes `make train`'s weights from seed 1)."""
    core_or_skip()
    from tests.commands import run_cli

    out = tmp_path / "w.json"
    code, _, err = run_cli(["train", "--seed", "2", "--games", "4,2,2", "--rounds", "1",
                            "--sample", "0.2", "--playouts", "1", "--label-games", "2,0,1",
                            "--label-playouts", "4", "--jobs", "1", "--quiet", "--out",
                            str(out)], monkeypatch, capsys)
    assert code == 0, err
    assert hashlib.sha256(out.read_bytes()).hexdigest() == BEFORE_ONE_PIPELINE


def test_old_weights_are_refused_in_one_line_and_convert_with_the_same_numbers(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """A weights file of the format before (cdsim-learned-weights: its features once, the
    weights of each and each times takes left) is one line naming the file and the
    conversion; `cdsim train --convert` rewrites it: the built-in file, byte for byte."""
    core_or_skip()
    from tests.commands import run_cli

    data = json.loads(DEFAULT_WEIGHTS.read_text())
    old = tmp_path / "old.json"
    old.write_text(json.dumps({
        "format": "cdsim-learned-weights", "version": 2,
        "components_digest": data["components_digest"], "features": data["inputs"][:width(data)],
        "inputs": "each feature, then each feature times takes_left; one list per phase",
        "value": "VP gained if the game ended now + weights . inputs",
        "weights": data["weights"], "training": data["training"]}, indent=1) + "\n")
    one_line_error(cdsim("play", "--players", "2", "--strategies", f"learned@weights={old},greedy"),
                   str(old), "old Carpe Diem weights file", f"cdsim train --convert {old}")
    new = tmp_path / "new.json"
    code, _, err = run_cli(["train", "--convert", str(old), "--out", str(new)], monkeypatch,
                              capsys)
    assert code == 0, err
    assert new.read_text() == DEFAULT_WEIGHTS.read_text()
    assert read_weights(new).digest == read_weights(DEFAULT_WEIGHTS).digest
    code, _, err = run_cli(["train", "--convert", str(new), "--out", str(tmp_path / "x.json")],
                           monkeypatch, capsys)
    assert code == 2 and "is not one" in err and err.count("\n") == 1, err
    code, _, err = run_cli(["train", "--game", "castles", "--convert", str(old), "--out",
                            str(tmp_path / "x.json")], monkeypatch, capsys)
    assert code == 2 and "castles's weights have had one format only" in err, err
