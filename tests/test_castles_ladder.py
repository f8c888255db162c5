"""A ladder of another game's players (``cdsim ladder --game castles``): its pairings play
that game, its page and text leave out what the game lacks (objective cards) and name its
rules, and a Carpe Diem name given to it is one line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cdsim import core
from cdsim.ladder import read_results
from reports.ladder import format_text
from tests.commands import run_main

pytestmark = pytest.mark.skipif(not core.available(), reason="needs the compiled core")


def test_a_castles_ladder_rates_its_players(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "l"
    code, err = run_main(["ladder", "--game", "castles", "--strategies",
                          "random,greedy,castle-monastery", "--games", "60", "--out", str(out),
                          "-q"], monkeypatch, capsys)
    assert code == 0, err
    runs = list((out / "cells").glob("*/manifest.json"))
    assert len(runs) == 3 and all(
        json.loads(r.read_text())["config"]["game"] == "castles" for r in runs)
    text = format_text(read_results(out))
    assert "castle-monastery" in text and "cards failed" not in text and "nan" not in text
    page = (out / "ladder.md").read_text()
    assert "cards failed" not in page and "docs/rules-castles.md" in page
    # its built-in set in its spec's words (it said Carpe Diem's "reconstructed default set")
    assert "| component set | the built-in set, digest" in page
    assert "castle-monastery" in page
    ratings = json.loads((out / "ladder.json").read_text())  # strict JSON: no NaN
    assert {r["failed_card_rate"] for r in ratings["ratings"]} == {None}


def test_a_carpe_diem_player_in_a_castles_ladder_is_one_line(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    code, err = run_main(["ladder", "--game", "castles", "--strategies", "greedy,villa",
                          "--games", "20", "--out", str(tmp_path / "l")], monkeypatch, capsys)
    assert code == 2 and "'villa' is not a castles player" in err, err
    assert len(err.strip().splitlines()) == 1
