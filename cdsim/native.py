"""Which implementation runs: the mypyc-compiled hot modules, or their Python sources.

``make install`` compiles ``COMPILED`` with mypyc (setup.py) and records each
source's hash in ``cdsim/_native.json``. ``guard()`` runs when cdsim is first
imported: if ``CDSIM_PURE`` is set, or any of those sources has changed since it was
compiled (an edited checkout), all of them are imported from source. Compiled
modules call each other natively, so they are used all together or not at all.
Both implementations play the same games (tests/test_native.py).
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

COMPILED = {"cdsim.kinds": "cdsim/kinds.py", "cdsim.district": "cdsim/district.py",
            "strategies.value": "strategies/value.py"}  # setup.py compiles these
ROOT = Path(__file__).resolve().parent.parent  # holds the cdsim and strategies packages
RECORD = "cdsim/_native.json"


def _binaries(root: Path, source: str) -> list[Path]:
    py = root / source
    return [py.with_suffix(suffix) for suffix in importlib.machinery.EXTENSION_SUFFIXES
            if py.with_suffix(suffix).exists()]


def stale_sources(root: Path = ROOT) -> list[str] | None:
    """None if nothing is compiled; else the compiled sources changed since the build."""
    if not any(_binaries(root, source) for source in COMPILED.values()):
        return None
    try:
        record = json.loads((root / RECORD).read_text())
    except (OSError, ValueError):
        record = {}
    return [source for source in COMPILED.values()
            if record.get(source) != hashlib.sha256((root / source).read_bytes()).hexdigest()]


class _FromSource(importlib.abc.MetaPathFinder):
    """Imports the compiled modules from their .py files instead."""

    def __init__(self, root: Path) -> None:
        self.root = root

    def find_spec(self, fullname: str, path: Sequence[str] | None,
                  target: ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
        source = COMPILED.get(fullname)
        if source is None:
            return None
        return importlib.util.spec_from_file_location(fullname, self.root / source)


def guard(root: Path = ROOT, note: bool | None = None) -> None:
    """Called by cdsim/__init__.py before any compiled module can be imported. The note
    on stale sources goes to a terminal only (``note``): piped stderr keeps its one
    line per error, and the run manifest records the build anyway."""
    stale = stale_sources(root)
    if stale is None:
        return
    if note is None:
        note = sys.stderr.isatty()
    if stale and note and not os.environ.get("CDSIM_PURE"):
        print(f"cdsim: note: {', '.join(stale)} changed since compiled; running the Python "
              "sources (make install recompiles)", file=sys.stderr)
    if stale or os.environ.get("CDSIM_PURE"):
        sys.meta_path.insert(0, _FromSource(root))


def active() -> bool:
    """True if the compiled modules are the ones running."""
    import cdsim.district

    return not (cdsim.district.__file__ or "").endswith(".py")
