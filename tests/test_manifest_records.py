"""The study manifest's populations, variants and sweeps read back as the study file's own
records (issue 42 item 3: declared once): ``Population``, ``Variant`` and ``Sweep`` take
their dumps back, the keys their loader set and their computed ones too, and a population
brings whether its players read the scores as recorded, making no player. A study file's
tables still refuse those keys."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from cdsim.errors import CdsimError
from cdsim.study.file import Sweep, Variant
from cdsim.study.manifest import study_manifest

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
