"""Build: the pure-Python package, its three hottest modules compiled with mypyc, and
the Rust core (core/, built into cdsim._core with PyO3 by setuptools-rust).

The compiled modules are an optional speed-up (docs/performance.md): with
CDSIM_PURE=1, or without a C compiler, cdsim installs and runs as plain Python,
game for game the same. The sources' hashes go into cdsim/_native.json: cdsim
imports the compiled modules only while every source still has its hash
(cdsim/native.py), so an edited module never runs stale compiled code.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import sys
from pathlib import Path

from setuptools import Extension, setup

ROOT = Path(__file__).resolve().parent
sys.path.insert(0, str(ROOT))
from cdsim.native import COMPILED as MODULES  # noqa: E402  (the one list of them)
from cdsim.native import RECORD as RECORD_PATH  # noqa: E402

RECORD = ROOT / RECORD_PATH
COMPILED = list(MODULES.values())


def ext_modules() -> list[Extension]:
    # No compiled module from an earlier build may outlive this one (pure, or failed).
    for path in [RECORD, *ROOT.glob("cdsim_native__mypyc.*"),
                 *(p for source in COMPILED for p in ROOT.glob(source[:-3] + ".*.so"))]:
        path.unlink(missing_ok=True)
    if os.environ.get("CDSIM_PURE"):
        return []
    try:
        from mypyc.build import mypycify

        # The build environment has none of the run-time packages: their types are Any.
        extensions: list[Extension] = mypycify(["--ignore-missing-imports", *COMPILED],
                                               opt_level="3", group_name="cdsim_native")
    except (Exception, SystemExit) as exc:  # mypyc missing, or its type check failed
        print(f"cdsim: mypyc could not compile ({exc!r}); installing pure Python", file=sys.stderr)
        return []
    RECORD.write_text(json.dumps(
        {path: hashlib.sha256((ROOT / path).read_bytes()).hexdigest() for path in COMPILED},
        indent=1) + "\n")
    for ext in extensions:
        ext.optional = True  # no compiler: the pure-Python package still installs
    return extensions


def rust_extensions() -> list[object]:
    """The compiled core, cdsim._core (core/, PyO3), in release mode. Optional: without
    cargo, or if it fails to build, cdsim installs and runs on the Python engine (the
    run manifest says which engine played)."""
    if os.environ.get("CDSIM_NO_CORE"):
        return []
    if shutil.which("cargo") is None:
        print("cdsim: no Rust toolchain (cargo): installing without the compiled core; "
              "batches run on the Python engine", file=sys.stderr)
        return []
    try:
        from setuptools_rust import Binding, RustExtension
    except ImportError:
        print("cdsim: setuptools-rust missing: installing without the compiled core",
              file=sys.stderr)
        return []
    return [RustExtension("cdsim._core", path="core/Cargo.toml", binding=Binding.PyO3,
                          features=["python"], debug=False, optional=True)]


setup(ext_modules=ext_modules(), rust_extensions=rust_extensions())
