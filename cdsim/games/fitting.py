"""What every game's training fit shares (cdsim train: the seam's, cdsim.train.seam, and a
game's own, ``GameSpec.training``): a decision's options compared among themselves."""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

FloatArray = NDArray[np.float64]
IntArray = NDArray[np.int64]


def demeaned(values: FloatArray, group: IntArray) -> FloatArray:
    """Each row less the mean of its group."""
    _, inverse, counts = np.unique(group, return_inverse=True, return_counts=True)
    sums = np.zeros((len(counts), *values.shape[1:]))
    np.add.at(sums, inverse, values)
    return values - (sums / counts.reshape(-1, *[1] * (values.ndim - 1)))[inverse]


__all__ = ["FloatArray", "IntArray", "demeaned"]
