"""Fitting the learned player's weights to search labels (``fit_labels``, Carpe Diem's label
stage, cdsim/games/carpe_diem/commands/training/labels.py; issue 30): only what separates
one decision's options is fitted, a decision's shared luck cancels, and the fit is pulled
towards the prior (the shipped weights), not towards zero."""

from __future__ import annotations

import numpy as np
import pytest

from cdsim.games.carpe_diem.commands.training import fit as F
from cdsim.games.carpe_diem.commands.training import labels as T
from cdsim.games.carpe_diem.players.weights import PHASES
from cdsim.games.fitting import demeaned

SEATS, FEATURES, OPTIONS, DECISIONS = 3, 5, 6, 400


def table(rng: np.random.Generator) -> dict[str, list[list[float]]]:
    return {str(SEATS): [list(rng.normal(0, 1, 2 * FEATURES)) for _ in range(PHASES)]}


def decisions(rng: np.random.Generator, truth: dict[str, list[list[float]]],
              leader: bool) -> T.Labels:
    """Options whose labels are the truth's margins plus one luck per decision."""
    rows = DECISIONS * OPTIONS
    seats = rng.normal(0, 1, (rows, SEATS, 1 + FEATURES))
    seats[:, :, 1] = 1.0  # the constant input: its weight cancels within a decision
    seats[:, :, 0] = rng.integers(0, 30, (rows, SEATS))  # banked VP
    group = np.repeat(np.arange(DECISIONS), OPTIONS)
    phase = np.repeat(rng.integers(0, PHASES, DECISIONS), OPTIONS)
    labels = T.Labels(np.zeros(rows), seats, phase, group, group // 10)
    luck = np.repeat(rng.normal(0, 50, DECISIONS), OPTIONS)
    labels.value = T.margins(truth, labels, leader) + luck
    return labels


@pytest.mark.parametrize("leader", [False, True])
def test_a_fit_to_search_labels_finds_the_margins_that_separate_the_options(leader: bool) -> None:
    rng = np.random.default_rng(30)
    truth, prior = table(rng), table(rng)
    labels = decisions(rng, truth, leader)
    fitted = T.fit_labels(labels, prior, ridge=1e-6, leader=leader)
    got = demeaned(T.margins(fitted, labels, leader), labels.group)
    want = demeaned(T.margins(truth, labels, leader), labels.group)
    assert np.abs(got - want).max() < 1e-3
    assert T.decision_scores(T.margins(fitted, labels, leader), labels) == pytest.approx(
        {"regret": 0.0, "top1": 1.0, "spearman": 1.0})
    # the bias cancels within a decision: it stays the prior's
    assert [w[0] for w in fitted[str(SEATS)]] == pytest.approx([w[0] for w in prior[str(SEATS)]])


def test_a_strong_pull_keeps_the_prior_and_few_rows_leave_a_phase_alone() -> None:
    rng = np.random.default_rng(31)
    truth, prior = table(rng), table(rng)
    labels = decisions(rng, truth, leader=False)
    pulled = T.fit_labels(labels, prior, ridge=1e9)
    assert np.allclose(pulled[str(SEATS)], prior[str(SEATS)], atol=1e-4)
    few = labels.select(labels.group < 3)  # under MIN_ROWS rows in every phase
    assert T.fit_labels(few, prior, ridge=1e-6) == prior


def test_new_inputs_widen_a_table_without_moving_a_margin_and_keep_holds_the_old_weights(
) -> None:
    """A later weights version's table starts as the old one with its new inputs at 0
    (``widened``); ``keep`` fits only the new inputs (issue 30, the placement inputs)."""
    rng = np.random.default_rng(32)
    truth, prior = table(rng), table(rng)
    labels = decisions(rng, truth, leader=False)
    extra = 2
    wide_seats = np.concatenate([labels.seats, rng.normal(0, 1, (*labels.seats.shape[:2], extra))],
                                axis=2)
    wide = T.Labels(labels.value, wide_seats, labels.phase, labels.group, labels.game)
    grown = F.widened(prior, FEATURES + extra)
    assert all(len(row) == 2 * (FEATURES + extra) for row in grown[str(SEATS)])
    assert np.allclose(T.margins(grown, wide), T.margins(prior, labels))
    # labels of another truth pull every weight, yet ``keep`` holds the old ones (both
    # halves) at the prior
    held = T.fit_labels(wide, grown, ridge=1e-6, keep=FEATURES)
    for got, was in zip(held[str(SEATS)], grown[str(SEATS)], strict=True):
        half = len(got) // 2
        for lo in (0, half):
            assert got[lo:lo + FEATURES] == pytest.approx(was[lo:lo + FEATURES], abs=1e-6)
    # labels of a truth that is the prior plus weights on the new inputs: a fit of the new
    # inputs alone finds them, the old ones stay the prior's
    truth = {n: [[*row] for row in rows] for n, rows in grown.items()}
    for row in truth[str(SEATS)]:
        half = len(row) // 2
        row[FEATURES:half] = list(rng.normal(0, 1, extra))
        row[half + FEATURES:] = list(rng.normal(0, 1, extra))
    luck = np.repeat(rng.normal(0, 50, DECISIONS), OPTIONS)
    wide.value = T.margins(truth, wide) + luck
    fitted = T.fit_labels(wide, grown, ridge=1e-6, keep=FEATURES)
    for got, want in zip(fitted[str(SEATS)], truth[str(SEATS)], strict=True):
        assert got[1:] == pytest.approx(want[1:], abs=1e-3)
