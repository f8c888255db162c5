"""Learned weights files: their format, reading and checking one, loading it into the
core of this process, and which file a ``learned`` spelling names. ``cdsim train``
(cdsim.train) writes them; players and run folders read them here."""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from cdsim import core
from cdsim.errors import CdsimError

FORMAT = "cdsim-learned-weights"
VERSION = 1  # what cdsim train writes and the built-in weights are
# 1: the learned player's inputs; 2: the same, then the placement inputs (issue 30)
VERSIONS = (1, 2)
PHASES = 4
PLAYER_COUNTS = (2, 3, 4)
WEIGHTS_DIR = Path(__file__).resolve().parents[2] / "strategies" / "weights"
DEFAULT_WEIGHTS = WEIGHTS_DIR / "learned.json"  # cdsim train --seed 1 (issue 30)
# the same rounds without the search-label stage (--label-games 0,0,0): fitted to greedy
# playouts only, version 1; the learner of the label files docs/strength.md studies
PLAYOUT_WEIGHTS = WEIGHTS_DIR / "learned-v1.json"
MAX_WEIGHTS_BYTES = 10_000_000



# -- weights files ---------------------------------------------------------------------

@dataclass(frozen=True)
class Weights:
    """A weights file as read and checked: its path, text and what it says."""

    path: Path
    text: str
    components_digest: str
    components: str  # how the training named its component set ("default" or a path)
    features: tuple[str, ...]
    digest: str  # sha256 of the weights (inputs' names and numbers), not of the layout

    @property
    def short(self) -> str:
        return self.digest[:12]


def feature_names(version: int = VERSION) -> tuple[str, ...]:
    """The core's input names for weights of ``version`` (a weights file must list the
    same)."""
    module = core.module()
    if module is None:
        raise CdsimError("the learned player plays only on the compiled core, which is not "
                         "installed (make install builds it with a Rust toolchain)")
    return tuple(module.State.learned_feature_names(version))


def weights_digest(features: Sequence[str], table: dict[str, Any]) -> str:
    canonical = json.dumps({"features": list(features), "weights": table}, sort_keys=True,
                           separators=(",", ":"))
    return hashlib.sha256(canonical.encode()).hexdigest()


def read_weights(path: Path) -> Weights:
    """A weights file, checked: missing, unreadable or malformed is one error line."""
    shown = str(path)
    try:
        if path.stat().st_size > MAX_WEIGHTS_BYTES:
            raise CdsimError(f"{shown}: not a learned weights file (over "
                             f"{MAX_WEIGHTS_BYTES // 1_000_000} MB)")
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise CdsimError(f"{shown}: no such weights file (cdsim train writes one)") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise CdsimError(f"{shown}: cannot read the weights file "
                         f"({getattr(exc, 'strerror', None) or exc})") from None
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise CdsimError(f"{shown}: not a learned weights file (not JSON: {str(exc)[:80]})") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise CdsimError(f"{shown}: not a learned weights file (no \"format\": \"{FORMAT}\")")
    version = data.get("version")
    if version not in VERSIONS or isinstance(version, bool):
        raise CdsimError(f"{shown}: weights format version {str(version)[:20]}; this cdsim "
                         f"reads versions {VERSIONS[0]}-{VERSIONS[-1]} (train them again with "
                         "cdsim train)")
    digest, names, table = (data.get("components_digest"), data.get("features"),
                            data.get("weights"))
    if not isinstance(digest, str) or not isinstance(names, list) or not isinstance(table, dict):
        raise CdsimError(f"{shown}: not a learned weights file (components_digest, features "
                         "and weights are required)")
    if tuple(names) != feature_names(int(version)):
        raise CdsimError(f"{shown}: the weights were made for other inputs than this cdsim's "
                         "learned player: train them again with cdsim train")
    for n in PLAYER_COUNTS:
        rows = table.get(str(n))
        ok = (isinstance(rows, list) and len(rows) == PHASES and all(
            isinstance(r, list) and len(r) == 2 * len(names)
            and all(isinstance(w, int | float) and not isinstance(w, bool) and math.isfinite(w)
                    for w in r) for r in rows))
        if not ok:
            raise CdsimError(f"{shown}: corrupt weights file (weights[\"{n}\"] is not {PHASES} "
                             f"lists of {2 * len(names)} finite numbers)")
    label = data.get("training", {}).get("components", "default") \
        if isinstance(data.get("training"), dict) else "default"
    return Weights(path, text, digest, str(label), tuple(names),
                   weights_digest(names, table))


def check_components(weights: Weights, digest: str) -> None:
    """Weights are for the component set they were trained on only."""
    if weights.components_digest != digest:
        raise CdsimError(f"{weights.path}: these weights were trained on the component set "
                         f"{weights.components_digest[:12]} ({weights.components}), not this "
                         f"one ({digest[:12]}); train weights for it with cdsim train "
                         "--components PATH --out FILE and play learned@weights=FILE")


@cache
def _loaded(path: str, mtime_ns: int, size: int) -> tuple[int, Weights]:
    weights = read_weights(Path(path))
    module = core.module()
    assert module is not None  # read_weights needed it
    try:
        number = int(module.learned_weights(weights.text))
    except ValueError as exc:
        raise CdsimError(f"{path}: the core cannot load these weights ({exc})") from None
    return number, weights


def load(path: str | Path | None = None) -> tuple[int, Weights]:
    """Load a weights file (default: the built-in one) into the core of this process:
    (the number ``learned.weights`` takes, the file)."""
    p = Path(path) if path is not None else DEFAULT_WEIGHTS
    try:
        st = p.stat()
    except OSError:
        read_weights(p)  # the one-line error for a missing or unreadable file
        raise
    return _loaded(str(p), st.st_mtime_ns, st.st_size)


def weights_path(spec: str) -> str | None:
    """The weights file a ``learned`` spelling names (``learned@weights=PATH``), or None:
    the built-in weights."""
    path = None
    for item in spec.strip().partition("@")[2].split("@"):
        key, eq, value = item.partition("=")
        if eq and key.strip() == "weights":
            path = value.strip()
    return path


def weights_record(specs: Sequence[str], components_digest: str) -> dict[str, dict[str, str]]:
    """For the manifests: each learned spelling's weights file and digest, after checking
    that they were trained on this component set ({} when no learned player plays)."""
    out: dict[str, dict[str, str]] = {}
    for spec in dict.fromkeys(s.strip() for s in specs):
        if spec.partition("@")[0] != "learned":
            continue
        _, weights = load(weights_path(spec))
        check_components(weights, components_digest)
        out[spec] = {"path": str(weights.path), "digest": weights.digest}
    return out
