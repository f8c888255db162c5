"""The Castles of Tuscany as cdsim.games registers it: its rules and players are the core's
(core/src/castles/, docs/rules-castles.md); here are its component files (the core's
built-in set as JSON, an override file's top-level keys merged over it), their digest, its
tie-break for the re-ranking and its players' names."""

from __future__ import annotations

import hashlib
import json
from functools import cache
from typing import Any

import numpy as np

from cdsim import core
from cdsim.errors import CdsimError

NAME = "castles"
TITLE = "The Castles of Tuscany"
SCRIPTED = ("greedy", "castle-monastery", "trade-workers", "animal-farms")
RULES_DOC = "docs/rules-castles.md"  # where its rules are numbered
TIE_RULE = "T11.4"  # the rule that breaks a tie on VP
TIEBREAK_COLUMNS = ("empty_spaces", "green_vp")


def start_vp(n: int) -> tuple[int, ...]:
    """The rulebook gives no VP compensation (seat order only picks the bonus tokens)."""
    return (0,) * n


def builtin_text() -> str:
    """The built-in component set as the core hands it over (JSON)."""
    module = core.module()
    if module is None:
        raise CdsimError("castles needs the compiled core (make install)")
    text: str = module.builtin_components(NAME)
    return text


@cache
def components_text(path: str | None) -> str:
    """The component set as the core reads it: the built-in set's JSON, or a JSON file of
    overrides (``castles::Components``' serde JSON, its top-level keys merged over the
    built-in set)."""
    text = builtin_text()
    if path is None:
        return text
    base = json.loads(text)
    try:
        with open(path, encoding="utf-8") as f:
            override = json.load(f)
    except (OSError, json.JSONDecodeError, UnicodeDecodeError) as e:
        raise CdsimError(f"{path}: not a castles component file ({e})") from None
    if not isinstance(override, dict):
        raise CdsimError(f"{path}: a castles component file is a JSON object")
    unknown = sorted(set(override) - set(base))
    if unknown:
        raise CdsimError(f"{path}: unknown key {unknown[0]!r} (known: "
                         f"{', '.join(sorted(base))})")
    return json.dumps({**base, **override})


@cache
def load_components(path: str | None) -> Any:
    """The core's copy of the set at ``path`` (``components_text``), or one line naming the
    file."""
    text = components_text(path)
    try:
        return core.module().Components(text, game=NAME)  # type: ignore[union-attr]
    except ValueError as e:
        raise CdsimError(f"{path or 'castles built-in components'}: {e}") from None


def components_digest(path: str | None) -> tuple[str, bool]:
    """sha256 over the set's JSON (the built-in one's, or the override merged over it)."""
    load_components(path)  # a set the core refuses is one line here
    return hashlib.sha256(components_text(path).encode()).hexdigest(), path is None


def tiebreak(n: int, empty: Any, green: Any) -> Any:
    """T11.4: the most empty spaces, then the most green VP, then the later seat (lowest
    key wins)."""
    seat = np.arange(n)[None, :]
    return -((empty * 4096 + green) * 8 + seat)


def players() -> tuple[str, ...]:
    module = core.module()
    if module is None or not hasattr(module, "castles_players"):
        return ()
    return tuple(module.castles_players())
