"""The machine a study or whatif played on, as its manifest records it and its pages and
terminal say it: its cores, architecture and CPU name (read from /proc/cpuinfo where there
is one: cheap, no library), and the load average (``os.getloadavg``, the last minute) when
play began and when it ended, so a reader can tell a quiet machine's times from a busy one's."""

from __future__ import annotations

import os
import platform
from collections.abc import Mapping
from pathlib import Path

Machine = dict[str, int | float | str | None]


def load_average() -> float | None:
    """The machine's load average over the last minute (None where the system has none)."""
    try:
        return round(os.getloadavg()[0], 2)
    except (AttributeError, OSError):
        return None


def cpu_name() -> str | None:
    """The CPU's model name (Linux's /proc/cpuinfo; else what ``platform`` says; None)."""
    try:
        for line in Path("/proc/cpuinfo").read_text(errors="replace").splitlines():
            key, _, value = line.partition(":")
            if key.strip() in ("model name", "Model", "cpu model") and value.strip():
                return " ".join(value.split())[:80]
    except OSError:
        pass
    return platform.processor() or None


def machine_now(load_start: float | None) -> Machine:
    """The machine as a manifest records it: cores, architecture, CPU name, the load when
    play began (``load_start``) and now."""
    return {"cpus": os.cpu_count(), "architecture": platform.machine(), "cpu": cpu_name(),
            "load_start": load_start, "load_end": load_average()}


def machine_words(machine: Mapping[str, object] | None) -> str:
    """``2 cores, x86_64, AMD EPYC 7B13; load average 1.2 when play began, 1.9 when it
    ended``; a folder from before the load was recorded says what it has."""
    if not machine:
        return "not recorded"
    cpus = machine.get("cpus")
    parts = [f"{cpus} core{'s' if cpus != 1 else ''}" if cpus else None,
             machine.get("architecture"), machine.get("cpu")]
    said = ", ".join(str(p) for p in parts if p)
    loads = [(machine.get(k), when) for k, when in (("load_start", "when play began"),
                                                   ("load_end", "when it ended"))]
    known = [f"{float(v):.1f} {when}" for v, when in loads if isinstance(v, int | float)]
    if known:
        said += "; load average " + ", ".join(known)
    return said or "not recorded"


__all__ = ["Machine", "cpu_name", "load_average", "machine_now", "machine_words"]
