"""Carpe Diem's Python moved into its own package, cdsim/games/carpe_diem/ (issue 60
item 1): the mapping from each old module to its new one, applied to imports, dotted names
and file paths in text files.

    python scripts/carpe_diem_move.py --move          # once: git mv the files, then rewrite
    python scripts/carpe_diem_move.py PATH...         # rewrite these files or folders only

Rewriting is idempotent (a name already moved is not matched again), so it can be run again
on code written against the old names (another branch's, before a merge). It rewrites
``.py``, ``.md``, ``.toml``, ``.rs``, ``.js``, ``.html`` files and the Makefile.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

CD = "cdsim.games.carpe_diem"

# old module -> new module, most specific first (a module not named here stays where it is:
# cdsim.players.sandbox, cdsim.view.pages, ...)
MODULES: list[tuple[str, str]] = [
    ("cdsim.rules.file_records", "cdsim.file_records"),  # every game's file records
    ("cdsim.rules", f"{CD}.rules"),
    ("cdsim.players.names", "cdsim.games.names"),  # how any game's players are shown
    *((f"cdsim.players.{m}", f"{CD}.players.{m}")
      for m in ("registry", "profiles", "weights", "played")),
    *((f"cdsim.engine.{m}", f"{CD}.engine.{m}") for m in ("table", "oracle")),
    *((f"cdsim.view.{m}", f"{CD}.view.{m}") for m in ("trace", "replay")),
    ("cdsim.testing", f"{CD}.testing"),
    ("cdsim.handover", f"{CD}.handover"),
]
# the files moved (git mv), old path -> new path
FILES: list[tuple[str, str]] = [
    ("cdsim/rules/file_records.py", "cdsim/file_records.py"),
    *((f"cdsim/rules/{m}.py", f"cdsim/games/carpe_diem/rules/{m}.py")
      for m in ("__init__", "cards", "checking", "component_records", "components",
                "district", "game", "kinds", "observation", "options", "overrides", "play",
                "position", "records", "scoring", "snapshot", "strategy")),
    ("cdsim/players/names.py", "cdsim/games/names.py"),
    *((f"cdsim/players/{m}.py", f"cdsim/games/carpe_diem/players/{m}.py")
      for m in ("registry", "profiles", "weights", "played")),
    *((f"cdsim/engine/{m}.py", f"cdsim/games/carpe_diem/engine/{m}.py")
      for m in ("table", "oracle")),
    *((f"cdsim/view/{m}.py", f"cdsim/games/carpe_diem/view/{m}.py")
      for m in ("trace", "replay")),
    ("cdsim/testing.py", "cdsim/games/carpe_diem/testing.py"),
    ("cdsim/handover.py", "cdsim/games/carpe_diem/handover.py"),
]
NEW_PACKAGES = ["cdsim/games/carpe_diem/players", "cdsim/games/carpe_diem/engine",
                "cdsim/games/carpe_diem/view"]
SUFFIXES = {".py", ".md", ".toml", ".rs", ".js", ".html", ".cfg", ".txt"}
NOT = r"(?<![\w.])"  # not inside a longer dotted name (so that a moved one is not moved again)


def _rules() -> list[tuple[re.Pattern[str], str]]:
    rules: list[tuple[re.Pattern[str], str]] = []
    for old, new in MODULES:
        parent, _, leaf = old.rpartition(".")
        new_parent, _, new_leaf = new.rpartition(".")
        # from cdsim.view import trace  ->  from cdsim.games.carpe_diem.view import trace
        if leaf == new_leaf:
            rules.append((re.compile(rf"{NOT}from {re.escape(parent)} import {leaf}\b"),
                          f"from {new_parent} import {leaf}"))
        rules.append((re.compile(rf"{NOT}{re.escape(old)}(?![\w])"), new))
    for old_path, new_path in FILES:
        old_mod, new_mod = old_path.removesuffix(".py"), new_path.removesuffix(".py")
        if old_mod.endswith("/__init__"):
            old_mod, new_mod = old_mod.removesuffix("/__init__"), new_mod.removesuffix(
                "/__init__")
        rules.append((re.compile(rf"(?<![\w/.]){re.escape(old_mod)}(?=\.py\b)"), new_mod))
    # a folder named as a whole: cdsim/rules/ is Carpe Diem's rules now
    rules.append((re.compile(r"(?<![\w/.])cdsim/rules/(?![\w])"), "cdsim/games/carpe_diem/rules/"))
    rules.append((re.compile(r"(?<![\w/.])cdsim/rules\b(?!/)"), "cdsim/games/carpe_diem/rules"))
    return rules


RULES = _rules()
# the core's copy of Carpe Diem's component set moved from cdsim.core to its handover
CORE_COMPONENTS = re.compile(r"(?<![\w.])core\.core_components\(")


def rewrite(text: str) -> str:
    for pattern, new in RULES:
        text = pattern.sub(new, text)
    text = re.sub(r"(?<![\w.])from cdsim\.core import core_components\b",
                  f"from {CD}.handover import core_components", text)
    text = re.sub(r"(?<![\w.])_names_a_file\b", "names_a_file", text)  # now cdsim.players.sandbox's
    text = re.sub(r"(?<![\w.])from cdsim\.games\.carpe_diem\.players\.registry import names_a_file\b",
                  "from cdsim.players.sandbox import names_a_file", text)
    if CORE_COMPONENTS.search(text):
        text = CORE_COMPONENTS.sub("core_components(", text)
        text = re.sub(r"^from cdsim import core$",
                      f"from cdsim import core\nfrom {CD}.handover import core_components",
                      text, count=1, flags=re.M)
    return text


def files(paths: list[str]) -> list[Path]:
    found: list[Path] = []
    for p in map(Path, paths):
        if p.is_dir():
            found += [f for f in sorted(p.rglob("*")) if f.is_file() and
                      (f.suffix in SUFFIXES or f.name == "Makefile") and
                      not {".git", "target", "__pycache__", ".venv"} & set(f.parts)]
        elif p.is_file():
            found.append(p)
    return found


def move() -> None:
    for package in NEW_PACKAGES:
        Path(package).mkdir(parents=True, exist_ok=True)
    Path("cdsim/games/carpe_diem/rules").mkdir(parents=True, exist_ok=True)
    for old, new in FILES:
        subprocess.run(["git", "mv", old, new], check=True)
    for package in NEW_PACKAGES:
        init = Path(package) / "__init__.py"
        if not init.exists():
            init.write_text("")
            subprocess.run(["git", "add", str(init)], check=True)


def main(argv: list[str]) -> None:
    if argv[:1] == ["--move"]:
        move()
        argv = ["cdsim", "reports", "strategies", "scripts", "tests", "docs", "README.md",
                "Makefile", "pyproject.toml", "setup.py", "core"]
    for f in files(argv):
        if f.resolve() == Path(__file__).resolve():
            continue
        old = f.read_text(encoding="utf-8")
        new = rewrite(old)
        if new != old:
            f.write_text(new, encoding="utf-8")
            print(f)


if __name__ == "__main__":
    main(sys.argv[1:])
