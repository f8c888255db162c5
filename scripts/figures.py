"""make figures: regenerate docs/img/* from what runs today, and print the figures the
README quotes with them, and the machine they came from.

1. the README's 4-player example (4,000 rotated games of the scripted mix, seed 1):
   `cdsim simulate`, then `cdsim report` -> docs/img/seat_win_share.png and
   docs/img/start_vp_shift.png, with the seat win shares and the wall times;
2. the README's 3-player example (3,000 rotated games of greedy, landscape and bread,
   seed 2): `cdsim simulate` and `cdsim balance --json` -> the shares at 8/9/13 and the
   most equal vector, with the wall times;
3. the page tests' screenshots (tests/test_replay.py, a headless Chromium: `make
   browser`) -> docs/img/replay.png and docs/img/components.png.

The runs are made in a temporary folder; nothing else in the repository changes.
"""

from __future__ import annotations

import datetime
import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
IMG = ROOT / "docs" / "img"


def machine() -> str:
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    return (f"{datetime.date.today().isoformat()}, {platform.machine()} (uname -m), "
            f"{os.cpu_count()} cores, load average {load} (1, 5, 15 min), Python "
            f"{platform.python_version()}")


def cdsim(*args: str) -> tuple[float, str]:
    """Run `cdsim ARGS` (progress off); (wall seconds, stdout)."""
    t0 = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "cdsim", *args], capture_output=True,
                          text=True, check=False, cwd=ROOT)
    wall = time.perf_counter() - t0
    if done.returncode:
        sys.exit(f"figures: cdsim {' '.join(args)} failed:\n{done.stderr}")
    return wall, done.stdout


def four_players(tmp: Path) -> None:
    run = tmp / "mix4"
    wall, _ = cdsim("simulate", "--players", "4", "--games", "4000", "--strategies",
                    "greedy,villa,landscape,bread", "--rotate-seats", "--seed", "1", "--out",
                    str(run), "--quiet")
    print(f"4 players, 4,000 rotated games of the scripted mix: simulate {wall:.1f} s", flush=True)
    wall, out = cdsim("report", str(run), "--json")
    data = json.loads(out)
    shares = " / ".join(f"{100 * s['share']:.1f}" for s in data["seats"])
    print(f"  report {wall:.1f} s; seat win shares {shares}% at "
          f"{'/'.join(str(s['start_vp']) for s in data['seats'])} (design effect "
          f"{data['design_effect']:.2f}, chi-square p = {data['equal_shares_test']['p_value']:.3g})",
          flush=True)
    for name in ("seat_win_share", "start_vp_shift"):
        shutil.copy(run / "charts" / f"{name}.png", IMG / f"{name}.png")
        print(f"  wrote {IMG.relative_to(ROOT) / name}.png", flush=True)


def three_players(tmp: Path) -> None:
    run = tmp / "mix3"
    wall, _ = cdsim("simulate", "--players", "3", "--games", "3000", "--strategies",
                    "greedy,landscape,bread", "--rotate-seats", "--seed", "2", "--out", str(run),
                    "--quiet")
    print(f"3 players, 3,000 rotated games of greedy, landscape and bread: simulate {wall:.1f} s",
          flush=True)
    wall, out = cdsim("balance", str(run), "--json", "--out", str(tmp / "balance"))
    data = json.loads(out)
    now, best = data["current"], data["recommended"]

    def shares(v: dict[str, object]) -> str:
        return " / ".join(f"{100 * x:.1f}" for x in v["share"])  # type: ignore[attr-defined]

    print(f"  balance {wall:.1f} s; at {'/'.join(map(str, now['start_vp']))}: {shares(now)}%, "
          f"shown within ±{100 * data['tolerance']:.0f} points: {now['within_tolerance']}; "
          f"most equal {'/'.join(map(str, best['start_vp']))}: {shares(best)}%, shown within: "
          f"{best['within_tolerance']}", flush=True)


def screenshots() -> None:
    if not (shutil.which("chromedriver") or Path("/usr/bin/chromedriver").exists()):
        print("page screenshots: not taken (no chromedriver: make browser installs it)",
              flush=True)
        return
    t0 = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                           "tests/test_replay.py", "-k", "in_the_browser"], cwd=ROOT,
                          capture_output=True, text=True, check=False)
    if done.returncode:
        sys.exit(f"figures: the page tests failed:\n{done.stdout[-2000:]}")
    print(f"page tests {time.perf_counter() - t0:.1f} s: wrote docs/img/replay.png and "
          "docs/img/components.png", flush=True)


def main() -> None:
    print(f"machine: {machine()}", flush=True)
    IMG.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="cdsim-figures-") as name:
        four_players(Path(name))
        three_players(Path(name))
    screenshots()


if __name__ == "__main__":
    main()
