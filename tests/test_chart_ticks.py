"""A win-share axis's tick labels (cdsim/analysis/fmt.py's ``percent_tick``, on a chart) say exactly
where their ticks are."""

from __future__ import annotations

import matplotlib.pyplot as plt
import pytest

from cdsim.analysis import fmt
from reports import charts


@pytest.mark.parametrize(("low", "high"), [(0.22, 0.31), (0.26, 0.29), (0.45, 0.56), (0.1, 0.4)])
def test_every_win_share_tick_shows_the_share_it_marks(low: float, high: float) -> None:
    assert charts.COLOURS  # reports.charts sets the Agg backend
    fig, ax = plt.subplots()
    ax.set_ylim(low, high)
    ax.yaxis.set_major_formatter(fmt.percent_tick)
    fig.canvas.draw()
    for tick, label in zip(ax.get_yticks(), ax.get_yticklabels(), strict=True):
        if low <= tick <= high:
            assert float(label.get_text().rstrip("%")) == pytest.approx(100 * tick, abs=1e-9)
    plt.close(fig)
    assert fmt.percent_tick(0.275) == "27.5%" and fmt.percent_tick(0.28) == "28%"
