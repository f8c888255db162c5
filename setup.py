"""Build: the Python package and the Rust core (core/, built into cdsim._core with PyO3
by setuptools-rust, in release mode). The core is the one engine that plays games:
without cargo the install stops with one line saying so."""

from __future__ import annotations

import shutil
import sys

from setuptools import setup


def rust_extensions() -> list[object]:
    if shutil.which("cargo") is None:
        sys.exit("cdsim: the Rust toolchain (cargo) is needed to build the compiled core "
                 "cdsim._core, the engine that plays every game; install Rust, then retry")
    from setuptools_rust import Binding, RustExtension

    return [RustExtension("cdsim._core", path="core/Cargo.toml", binding=Binding.PyO3,
                          features=["python"], debug=False)]


setup(rust_extensions=rust_extensions())
