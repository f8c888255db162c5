"""Where and how long a study or whatif played, as its manifest records it and its pages and
terminal say it: the machine (its cores, architecture and CPU name, read from /proc/cpuinfo
where there is one: cheap, no library; the load average, ``os.getloadavg`` over the last
minute, when play began and when it ended, so a reader can tell a quiet machine's times
from a busy one's), and the run's one game count, wall time and play time (``run_words``:
the terminal and the pages say them in the same words)."""

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


def load_words(cores: int) -> str:
    """``2 cores, load average 1.3``: what a pace measured here was measured on."""
    load = load_average()
    return f"{cores} core{'' if cores == 1 else 's'}" + (
        f", load average {load:.1f}" if load is not None else "")


def seconds_words(seconds: float) -> str:
    """``45 s``, ``2 min 22 s``, ``1 h 4 min``: a wall time to the second under an hour."""
    whole = round(seconds)
    if whole < 90:
        return f"{whole} s"
    if whole < 3600:
        return f"{whole // 60} min {whole % 60} s"
    return f"{whole // 3600} h {whole % 3600 // 60} min"


def run_words(games: int, wall_seconds: float, play_seconds: float) -> str:
    """``67,814 games, 2 min 22 s wall, 2 min 10 s of it playing``: a run's figures (summed
    over the commands that played it), as its manifest holds them."""
    return (f"{games:,} games, {seconds_words(wall_seconds)} wall, "
            f"{seconds_words(play_seconds)} of it playing")


__all__ = ["Machine", "cpu_name", "load_average", "load_words", "machine_now", "machine_words", "run_words",
           "seconds_words"]
