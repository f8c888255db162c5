"""The study manifest's populations, variants and sweeps read back as the study file's own
records (issue 42 item 3: declared once): ``Population``, ``Variant`` and ``Sweep`` take
their dumps back, the keys their loader set and their computed ones too, and a population
brings whether its players read the scores as recorded, making no player. A study file's
tables still refuse those keys."""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path
from typing import Any

import pytest

from cdsim.batch.folder import CELLS
from cdsim.errors import CdsimError
from cdsim.study.file import StudyFile, Sweep, Variant
from cdsim.study.manifest import study_manifest
from cdsim.study.store import STUDY_MANIFEST, study_manifest_of, write_study_manifest

POPULATION = {"name": "mine", "description": "a strategy file gone since", "floor": False,
              "lineup": ["/nowhere/gone.py:Bot", "greedy"], "lineups": [], "pool": [],
              "reads_scores": True, "rotate_seats": True}
VARIANT = {"components": "/tmp/x.toml", "description": "B05", "digest": "ab", "name": "B05-6"}
SWEEP = {"base": "default", "base_value": 8, "description": "", "entry": "objective.B05",
         "key": "reward.vp", "name": "B05-reward", "values": [4, 6],
         "variants": ["B05-reward=4", "B05-reward=6"]}
VALUE = {"components": "/tmp/s/B05-reward=4.toml", "description": "", "digest": "cd",
         "name": "B05-reward=4", "sweep": "B05-reward", "value": 4}


def manifest(**given: Any) -> dict[str, Any]:
    return {"name": "old", "identity": {}, "cells": [], "populations": [POPULATION],
            "variants": [VARIANT, VALUE], "sweeps": [SWEEP]} | given


def test_a_manifest_s_study_records_read_back_typed() -> None:
    m = study_manifest(Path("study-manifest.json"), manifest())
    (population,) = m.populations
    assert population.reads_scores  # as recorded: the gone file is never loaded
    assert [p.spelling for p in population.lineup] == POPULATION["lineup"]
    assert population.rotate_seats and not population.floor
    assert [(v.name, v.digest, v.sweep, v.value) for v in m.variants] == [
        ("B05-6", "ab", None, None), ("B05-reward=4", "cd", "B05-reward", 4)]
    (sweep,) = m.sweeps
    assert isinstance(sweep, Sweep) and sweep.base_value == 8
    assert sweep.variants == SWEEP["variants"]
    assert sweep.model_dump() == SWEEP  # what the study wrote, read back


def test_a_key_no_record_declares_is_still_named() -> None:
    with pytest.raises(CdsimError, match="unknown key 'colour'"):
        study_manifest(Path("m.json"), manifest(variants=[VARIANT | {"colour": 1}]))


def test_a_study_file_s_tables_refuse_what_their_loader_sets() -> None:
    with pytest.raises(ValueError, match="unknown key 'digest'"):
        Variant.model_validate(VARIANT)
    with pytest.raises(ValueError, match="unknown key 'base_value'"):
        Sweep.model_validate({k: v for k, v in SWEEP.items() if k != "variants"})
    with pytest.raises(ValueError, match="letters, digits"):
        Variant.model_validate({"name": "B05-reward=4", "components": "x.toml"})


def test_an_older_study_folder_s_manifest_loads_and_keeps_its_keys(tmp_path: Path) -> None:
    """A manifest an older cdsim wrote (no zone, no naming, a ``date``, a population without
    its budgets) reads as the model, its missing keys at their defaults, and is written back
    with the keys it had: nothing added, nothing lost."""
    old = manifest(seed=3, tolerance=0.03, wall_seconds=12.5, date="2025-01-02",
                   variants=[VARIANT])
    root = tmp_path / "old"
    (root / CELLS).mkdir(parents=True)
    (root / STUDY_MANIFEST).write_text(json.dumps(old))
    read = study_manifest_of(root)
    assert (read.zone, read.name_within_zone, read.stopped, read.tolerance) == (0.0, False, None,
                                                                              0.03)
    assert read.model_extra == {"date": "2025-01-02"}  # no longer declared, kept as it is
    write_study_manifest(root, read)
    assert json.loads((root / STUDY_MANIFEST).read_text()) == old


def test_a_study_that_ends_drops_its_stop_mark() -> None:
    m = study_manifest(Path("m.json"), manifest())
    m.stopped = "interrupted"
    assert m.record()["stopped"] == "interrupted"
    m.stopped = None
    assert "stopped" not in m.record()


@pytest.mark.parametrize("key, value, says", [
    ("tolerance", 0.0005, "tolerance: must be between 0.001"),
    ("alpha", 1e-12, "alpha: must be at least 1e-10"),
    ("zone", 0.05, "zone: must be at least 0 and below the tolerance (0.02)")])
def test_a_manifest_s_settings_are_checked_as_the_study_file_s(key: str, value: float,
                                                               says: str) -> None:
    """The settings are declared once (``StudySettings``): a manifest's are held to the
    study file's ranges, with the file's words."""
    with pytest.raises(CdsimError, match=re.escape(says)):
        study_manifest(Path("m.json"), manifest(**{key: value}))
    text = f'name = "x"\n{key} = {value}\n[[population]]\nname = "p"\nlineup = ["random"]\n'
    with pytest.raises(ValueError, match=re.escape(says.split(": ", 1)[1])):
        StudyFile.model_validate(tomllib.loads(text))
