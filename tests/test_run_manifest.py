"""A folder's manifest travels as its kind's model (issue 51 item 1): ``RunFolder.read``
returns a ``RunManifest`` (a ladder's: ``LadderManifest``) and ``write`` takes it back,
byte for byte the file it read: keys it was read without stay absent (a run made before the
card table has no ``format``), keys it does not declare are kept, and a resumed run of an
older cdsim keeps what it recorded."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from cdsim.batch.config import RunConfig
from cdsim.batch.folder import RunFolder
from cdsim.batch.manifest import RUN_FORMAT, RunManifest
from cdsim.batch.queue import run_chunks
from cdsim.errors import CdsimError
from cdsim.ladder import LADDER, Ladder, LadderManifest, open_folder
from tests.conftest import core_or_skip

CONFIG = RunConfig(players=2, games=6, seed=4, strategies=("greedy", "villa"), chunk_size=2)


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    core_or_skip()
    run = tmp_path_factory.mktemp("manifest") / "run"
    folder = RunFolder(run)
    run_chunks(folder, folder.begin(CONFIG, False, False), 1, "loky")
    return run


def test_a_run_manifest_is_written_back_as_it_was_read(played: Path, tmp_path: Path) -> None:
    text = (played / "manifest.json").read_text()
    manifest = RunFolder(played).read()
    assert isinstance(manifest, RunManifest) and manifest.config == CONFIG.model_copy(
        update={"components_digest": manifest.components_digest,
                "decision_timeout": manifest.config.decision_timeout})
    assert manifest.finished == [0, 1, 2] and manifest.complete and manifest.games_done == 6
    assert manifest.format == RUN_FORMAT and manifest.engine == "rust"
    copy = tmp_path / "copy"
    shutil.copytree(played, copy)
    RunFolder(copy).write(manifest)
    assert (copy / "manifest.json").read_text() == text
    # an older run: no format (1), no reads_scores, no engine; a key of another version kept
    old = json.loads(text)
    for key in ("format", "reads_scores", "engine", "versions"):
        del old[key]
    old["later"] = {"kept": [1, 2]}
    (copy / "manifest.json").write_text(json.dumps(old, indent=1, sort_keys=True))
    again = RunFolder(copy).read()
    assert again.format == 1 and again.reads_scores is None and again.versions == {}
    RunFolder(copy).write(again)
    assert json.loads((copy / "manifest.json").read_text()) == old


def test_a_resumed_older_run_keeps_its_format(played: Path, tmp_path: Path) -> None:
    copy = tmp_path / "old"
    shutil.copytree(played, copy)
    old = json.loads((copy / "manifest.json").read_text())
    del old["format"], old["reads_scores"]
    old["finished"] = [0, 1]
    (copy / "manifest.json").write_text(json.dumps(old, indent=1, sort_keys=True))
    folder = RunFolder(copy)
    run_chunks(folder, folder.begin(CONFIG, resume=True, force=False), 1, "loky")
    after = json.loads((copy / "manifest.json").read_text())
    assert "format" not in after and after["finished"] == [0, 1, 2]
    assert after["reads_scores"] == {"greedy": False, "villa": False}  # recorded on resuming
    assert after["config"] == old["config"]
    assert RunFolder(copy).digest() == RunFolder(played).digest()


def test_a_bad_run_manifest_is_one_line_naming_the_key(played: Path, tmp_path: Path) -> None:
    copy = tmp_path / "bad"
    shutil.copytree(played, copy)
    good = json.loads((copy / "manifest.json").read_text())
    for change, says in (({"finished": [0, 0]}, "finished: chunk 0 is listed twice"),
                         ({"chunks": [[0, 6]]}, "chunks: not the chunk plan"),
                         ({"wall_seconds": "soon"}, "wall_seconds"),
                         ({"engine": "steam"}, "engine")):
        (copy / "manifest.json").write_text(json.dumps(good | change))
        with pytest.raises(CdsimError, match=says):
            RunFolder(copy).read()


def test_a_ladder_manifest_is_its_model(tmp_path: Path) -> None:
    core_or_skip()
    ladder = Ladder(players=2, seed=1, strategies=("random", "greedy"), games=2)
    written = open_folder(tmp_path / "lad", ladder, False, False)
    text = (tmp_path / "lad" / "ladder-manifest.json").read_text()
    read = RunFolder(tmp_path / "lad", LADDER).read()
    assert isinstance(read, LadderManifest) and read.ladder == ladder == written.ladder
    assert [p.key for p in read.pairings] == ["random-vs-greedy"]
    assert json.loads(text)["ladder"] == ladder.record()
    RunFolder(tmp_path / "lad", LADDER).write(read)
    assert (tmp_path / "lad" / "ladder-manifest.json").read_text() == text
    bad = json.loads(text)
    bad["pairings"][0]["run"] = "elsewhere"
    (tmp_path / "lad" / "ladder-manifest.json").write_text(json.dumps(bad))
    with pytest.raises(CdsimError, match="pairings: bad key or run 'random-vs-greedy'"):
        RunFolder(tmp_path / "lad", LADDER).read()
