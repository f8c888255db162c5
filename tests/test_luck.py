"""Luck adjustment (AIVAT, core/src/carpe_diem/luck.rs; scripts/luck.py): measuring a game plays the
same game, and the luck it measures has mean zero, so the adjusted win shares keep the
raw ones' mean. The check is a simulation: a scripted line-up where one seat is far
stronger, so a term that is not a true zero-mean difference (a baseline taken before the
step, a set-up term without its baseline) moves the mean well outside the interval."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from cdsim import core
from cdsim.games.carpe_diem.handover import core_components
from tests.conftest import core_or_skip

_SPEC = importlib.util.spec_from_file_location(
    "luck", Path(__file__).resolve().parents[1] / "scripts" / "luck.py")
assert _SPEC is not None and _SPEC.loader is not None
luck = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(luck)

Z = 3.0  # a wide interval: a sound measurement never fails it on these fixed seeds


def _measure(lineup: list[str], setups: list[int], start_vp: list[int] | None = None,
             copies: int = 2, betas: list[float] | None = None,
             lookahead: bool = False) -> dict[str, Any]:
    players = len(lineup)
    out: dict[str, Any] = luck.play(players, start_vp or [8, 9, 10, 11][:players], lineup, 17,
                                    setups, copies, betas or [0.2], lookahead)
    return out


@pytest.mark.parametrize("lineup", [["greedy", "random"], ["villa", "bread", "greedy"]])
def test_measuring_a_game_plays_the_same_game(lineup: list[str]) -> None:
    core_or_skip()
    module = core.module()
    assert module is not None
    players, setups = len(lineup), [2, 5, 11, 40]
    start_vp = [8, 9, 10, 11][:players]
    played = module.play_chunk(core_components(None), players, start_vp, 17,
                               np.array(setups, dtype=np.int64), np.array(setups, dtype=np.int64),
                               np.tile(np.arange(players, dtype=np.uint8), len(setups)),
                               [(name, []) for name in lineup])
    measured = _measure(lineup, setups)
    assert measured["final_vp"].ravel().tolist() == played["final_vp"].tolist()
    assert measured["won"].ravel().tolist() == played["won"].astype(float).tolist()


@pytest.mark.parametrize("lookahead", [False, True])
def test_luck_has_mean_zero_and_keeps_the_win_shares(lookahead: bool) -> None:
    core_or_skip()
    data = _measure(["greedy", "random"], list(range(300)), lookahead=lookahead)
    won, total = data["won"], data["luck"][:, :, 0, :].sum(axis=2)
    games = len(won)
    for seat in range(2):
        half = Z * total[:, seat].std(ddof=1) / np.sqrt(games)
        mean = total[:, seat].mean()
        assert abs(mean) < half, f"seat {seat + 1}: mean luck {mean:.4f} (interval ±{half:.4f})"
        adjusted = won[:, seat] - total[:, seat]
        assert abs(adjusted.mean() - won[:, seat].mean()) < half
    # the line-up is lopsided: the strong seat's luck is not all there is to its wins
    assert won[:, 0].mean() > 0.8


def test_every_kind_of_chance_step_is_measured_and_luck_sums_to_zero_over_seats() -> None:
    core_or_skip()
    data = _measure(["greedy", "villa", "bread"], list(range(20)), betas=[0.1, 0.5])
    kinds = [str(k) for k in data["kinds"]]
    assert kinds == ["setup", "deal", "fountain"]
    by_kind = data["luck"]
    assert np.all(np.abs(by_kind).sum(axis=(0, 1)) > 0), "every kind has a term at each beta"
    assert np.allclose(by_kind.sum(axis=1), 0.0), "the seats' chances sum to 1"
    assert np.all(data["chance_steps"] >= 5)  # the set-up and four deals at least


def test_the_script_refuses_bad_input_in_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as e:
        luck.main(["--players", "2", "--lineup", "greedy,greedy,greedy"])
    assert e.value.code == 2
    assert "--lineup" in capsys.readouterr().err
    with pytest.raises(SystemExit) as e:
        luck.main(["--start-vp", "8,x"])
    assert e.value.code == 2
    assert "--start-vp" in capsys.readouterr().err
    core_or_skip()
    assert luck.main(["--lineup", "nobody", "--beta", "0.2", "--games", "1"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("luck.py: --lineup") and len(err.strip().splitlines()) == 1
