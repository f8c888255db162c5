"""Carpe Diem's learned weights files (the one format of every game,
cdsim.games.weights_file, ``"game": "carpe-diem"``): reading and checking one, converting
one of the format before, loading it into the core of this process, and which file a
``learned`` spelling names. ``cdsim train`` (cdsim.train) writes them; players and run
folders read them here."""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from cdsim import core
from cdsim.errors import CdsimError
from cdsim.games.carpe_diem.rules.components import HAVE_KEYS, REWARD_KEYS, compare, load_components
from cdsim.games.carpe_diem.rules.kinds import GOOD_NAMES
from cdsim.games.carpe_diem.rules.overrides import Change
from cdsim.games.weights_file import FORMAT, OLD_FORMAT, VERSION, Table, weights_text

GAME = "carpe-diem"  # the game's name in its weights files (core: learned::model::GAME)
# the input sets the core reads: 1, the learned player's inputs; 2, the same, then the
# placement inputs (issue 30). A file names its inputs; they say which set it holds.
INPUT_SETS = (1, 2)
INPUT_SET = 1  # what cdsim train's rounds fit (its search-label stage: 2)
TIMES_TAKES_LEFT = "*takes_left"  # a file's name of an input times takes left
PHASES = 4
PLAYER_COUNTS = (2, 3, 4)
WEIGHTS_DIR = Path(__file__).resolve().parents[4] / "strategies" / "weights"
DEFAULT_WEIGHTS = WEIGHTS_DIR / "carpe_diem-learned.json"  # cdsim train --seed 1 (issue 30)
# the same rounds without the search-label stage (--label-games 0,0,0): fitted to greedy
# playouts only, input set 1; the learner of the label files docs/strength.md studies
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
    features: tuple[str, ...]  # the inputs (each also times takes left: file_inputs)
    digest: str  # sha256 of the weights (inputs' names and numbers), not of the layout

    @property
    def short(self) -> str:
        return self.digest[:12]

    @property
    def input_set(self) -> int:
        return next(v for v in INPUT_SETS if feature_names(v) == self.features)


def feature_names(input_set: int = INPUT_SET) -> tuple[str, ...]:
    """The core's names of the learned player's inputs of ``input_set`` (a weights file
    lists them, then each times takes left: ``file_inputs``)."""
    module = core.module()
    if module is None:
        raise CdsimError("the learned player plays only on the compiled core, which is not "
                         "installed (make install builds it with a Rust toolchain)")
    return tuple(module.State.learned_feature_names(input_set))


def file_inputs(features: Sequence[str]) -> tuple[str, ...]:
    """A weights file's ``inputs``: each input, then each times takes left."""
    return (*features, *(f"{name}{TIMES_TAKES_LEFT}" for name in features))


def text_of(table: Table, components_digest: str, training: Mapping[str, object] | None,
            input_set: int = INPUT_SET) -> str:
    """The weights file of Carpe Diem's ``table`` (one format for every game)."""
    return weights_text(GAME, components_digest, file_inputs(feature_names(input_set)),
                        PHASES, table, training)


# Any: a weights file's table as JSON holds it: hashed, not read
def weights_digest(features: Sequence[str], table: dict[str, Any]) -> str:
    canonical = json.dumps({"features": list(features), "weights": table}, sort_keys=True,
                           separators=(",", ":"))
    return hashlib.sha256(canonical.encode()).hexdigest()


def _json(path: Path) -> tuple[str, Any]:
    """A weights file's text and JSON; missing, unreadable or not JSON is one line."""
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
        return text, json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise CdsimError(f"{shown}: not a learned weights file (not JSON: {str(exc)[:80]})") from None


def read_weights(path: Path) -> Weights:
    """A weights file, checked: missing, unreadable or malformed is one error line naming
    the file and the key."""
    return _checked(path, *_json(path))


# Any: the file's JSON, checked here
def _checked(path: Path, text: str, data: Any) -> Weights:
    shown = str(path)
    if isinstance(data, dict) and data.get("format") == OLD_FORMAT:
        raise CdsimError(f"{shown}: an old Carpe Diem weights file (\"format\": "
                         f"\"{OLD_FORMAT}\"); convert it: cdsim train --convert {shown} "
                         "--out NEW.json")
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise CdsimError(f"{shown}: not a learned weights file (no \"format\": \"{FORMAT}\")")
    version = data.get("version")
    if version != VERSION or isinstance(version, bool):
        raise CdsimError(f"{shown}: \"version\" {str(version)[:20]}; this cdsim reads version "
                         f"{VERSION} (train them again with cdsim train)")
    if data.get("game") != GAME:
        raise CdsimError(f"{shown}: \"game\": the weights are {str(data.get('game'))[:40]!r}'s, "
                         f"not {GAME!r}'s (learned@weights plays {GAME} weights)")
    if data.get("phases") != PHASES:
        raise CdsimError(f"{shown}: \"phases\" is not {PHASES}")
    digest, names, table = (data.get("components_digest"), data.get("inputs"),
                            data.get("weights"))
    if not isinstance(digest, str) or not isinstance(names, list) or not isinstance(table, dict):
        raise CdsimError(f"{shown}: not a learned weights file (components_digest, inputs "
                         "and weights are required)")
    features = next((feature_names(v) for v in INPUT_SETS
                     if tuple(names) == file_inputs(feature_names(v))), None)
    if features is None:
        raise CdsimError(f"{shown}: \"inputs\": the weights were made for other inputs than "
                         "this cdsim's learned player: train them again with cdsim train")
    for n in PLAYER_COUNTS:
        rows = table.get(str(n))
        ok = (isinstance(rows, list) and len(rows) == PHASES and all(
            isinstance(r, list) and len(r) == len(names)
            and all(isinstance(w, int | float) and not isinstance(w, bool) and math.isfinite(w)
                    for w in r) for r in rows))
        if not ok:
            raise CdsimError(f"{shown}: corrupt weights file (weights[\"{n}\"] is not {PHASES} "
                             f"lists of {len(names)} finite numbers)")
    label = data.get("training", {}).get("components", "default") \
        if isinstance(data.get("training"), dict) else "default"
    return Weights(path, text, digest, str(label), features, weights_digest(features, table))


def convert(path: Path) -> str:
    """An old Carpe Diem weights file (``cdsim-learned-weights``, version 1 or 2) as the
    one format, with the same numbers: its features become the inputs (each, then each
    times takes left), its weights, digest and training record are kept."""
    shown = str(path)
    _, data = _json(path)
    if not isinstance(data, dict) or data.get("format") != OLD_FORMAT:
        raise CdsimError(f"{shown}: --convert reads an old Carpe Diem weights file "
                         f"(\"format\": \"{OLD_FORMAT}\"), and this is not one")
    names, table, digest = data.get("features"), data.get("weights"), data.get("components_digest")
    if not isinstance(names, list) or not isinstance(table, dict) or not isinstance(digest, str):
        raise CdsimError(f"{shown}: not a learned weights file (components_digest, features "
                         "and weights are required)")
    training = data.get("training")
    out = weights_text(GAME, digest, file_inputs([str(n) for n in names]), PHASES, table,
                       training if isinstance(training, dict) else None)
    _checked(path, out, json.loads(out))  # as any weights file is
    return out


# What the learned player's inputs read of a component set (core/src/carpe_diem/players/features/):
# each table's keys (a dotted key by its first part), and for card requirements and
# rewards, the kinds its card values know (core/src/carpe_diem/players/value.rs). Weights play a set
# that differs from the one they were trained on only in these: the inputs are computed
# from the components, not from ids, so a changed reward, requirement, tile count, frame
# goal, board, scroll track or villa table is one the weights see (docs/strength.md
# measures how well they play it). Any other change (a key a later component schema adds
# before the player learns to read it) is refused when a run is loaded.
READS: dict[str, frozenset[str]] = {
    # every tile type's edges, chimneys and building (open features, placement values);
    # the counts and decks: what is dealt, read as the depots' tiles
    "tile": frozenset({"edges", "chimneys", "building", "count", "deck"}),
    # card values (value.rs best_card_payment, card_gap) read every requirement and reward
    "objective": frozenset({"deck", "type", "requires", "reward"}),
    "fountain": frozenset({"goal", "vp"}),  # fountain_goal, fountain_open
    "part": frozenset({"goals"}),  # frame_left, frame_reach, frame_touch
    "board": frozenset({"rows"}),  # the district: scroll spaces, the spade
    "scroll_track": frozenset({"points"}),  # banked VP (final scoring, R10)
    "villa_table": frozenset({"points", "per_extra_chimney"}),  # open_villas' points
}
READ_KINDS: dict[str, frozenset[str]] = {
    "requires": frozenset(HAVE_KEYS) | frozenset(GOOD_NAMES),
    "reward": frozenset(REWARD_KEYS),
}
METADATA = frozenset({"provenance", "id"})  # what no rule reads


def unread(change: Change) -> str | None:
    """What the learned player's inputs cannot see of one change, or None."""
    if change.table not in READS:
        return f"its inputs read nothing of the {change.table} table"
    if not change.key:
        added = change.new if change.old is None else change.old
        keys = {str(k) for k in added} - METADATA if isinstance(added, dict) else set()
        unknown = sorted(keys - READS[change.table])
        return f"its inputs do not read {', '.join(unknown)}" if unknown else None
    head, _, rest = change.key.partition(".")
    if head in METADATA:
        return None
    if head not in READS[change.table]:
        return f"its inputs do not read {head}"
    kind = rest.partition(".")[0]
    if head in READ_KINDS and kind and kind not in READ_KINDS[head]:
        return f"its card values know no {head} kind {kind!r}"
    return None


def check_components(weights: Weights, components: str | Path | None) -> None:
    """Weights play the component set they were trained on, and any set that differs from
    it only in what the learned player's inputs read (READS); any other set is refused,
    naming the entry and what the player cannot see, with the command that trains for it."""
    comps = load_components(components)
    if weights.components_digest == comps.digest:
        return
    train = (f"train weights for it with cdsim train --components "
             f"{components if components is not None else 'PATH'} --out FILE and play "
             "learned@weights=FILE")
    try:
        trained = load_components(weights.components)
        changes = compare(weights.components, components) \
            if trained.digest == weights.components_digest else None
    except CdsimError:
        changes = None
    if changes is None:
        raise CdsimError(f"{weights.path}: these weights were trained on the component set "
                         f"{weights.components_digest[:12]} ({weights.components}), which is "
                         f"not here to compare this one ({comps.digest[:12]}) with; {train}")
    for change in changes:
        reason = unread(change)
        if reason is not None:
            raise CdsimError(f"{weights.path}: the learned player cannot see "
                             f"{change.where}: {change.key or 'the entry'} ({reason}); {train}")


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
