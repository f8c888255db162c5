"""The Makefile's CORE list names every file the core compiles in: a source, and any file an
``include_str!`` reads (the profiles files, the learned weights, the built-in component
sets), so that changing one rebuilds the core (``make install``) instead of leaving the old
one to play."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
INCLUDE = re.compile(r'include_str!\((?:concat!\(env!\("CARGO_MANIFEST_DIR"\),\s*)?"([^"]+)"',
                     re.S)


def core_inputs() -> set[Path]:
    """The files the Makefile's CORE variable names, its wildcards expanded."""
    text = (ROOT / "Makefile").read_text()
    block = re.search(r"^CORE :=((?:.*\\\n)*.*)$", text, re.M)
    assert block, "the Makefile has no CORE := list"
    words = block.group(1).replace("\\\n", " ")
    files = set()
    for pattern in re.findall(r"\$\(wildcard ([^)]*)\)", words):
        for glob in pattern.split():
            files |= set(ROOT.glob(glob))
    for word in re.sub(r"\$\(wildcard [^)]*\)", " ", words).split():
        files.add(ROOT / word)
    return {f.resolve() for f in files}


def compiled_in() -> set[Path]:
    """Every file an include_str! of the crate's library reads, beside its sources (not the
    unit tests' fixtures under core/tests/, which no built core holds)."""
    found = set()
    for source in (ROOT / "core" / "src").rglob("*.rs"):
        for name in INCLUDE.findall(source.read_text()):
            base = ROOT / "core" if name.startswith("/") else source.parent
            found.add((base / name.lstrip("/")).resolve())
    return {f for f in found if not f.is_relative_to(ROOT / "core" / "tests")}


def test_every_file_the_core_compiles_in_rebuilds_it() -> None:
    inputs = core_inputs()
    assert (ROOT / "strategies" / "mediterranean-profiles.toml").resolve() in compiled_in()
    missing = sorted(str(f.relative_to(ROOT)) for f in compiled_in() - inputs)
    assert not missing, f"the Makefile's CORE list lacks {', '.join(missing)}"
