"""Comments and docstrings that name a file or a module name one that exists.

Files move (cdsim/games/carpe_diem/rules/, cdsim/study/) and comments that point at the old place send the
reader nowhere: ``mirrors cdsim/cards.py`` in the core outlived the move to
``cdsim/games/carpe_diem/rules/cards.py``. This reads every comment of core/src/, every comment and
docstring (any bare string statement) of cdsim/, reports/, strategies/ and scripts/, and every
comment of their pages' files (a script's ``//`` and ``/* */``, a style's ``/* */``, a
template's ``<!-- -->``: ``cdsim/view/castles.py`` outlived its move in a replay script) and
checks two kinds of mention:

- a path (``cdsim/games/carpe_diem/rules/cards.py``, ``docs/statistics.md``, ``carpe_diem/game/turn.rs``,
  ``players/uct.rs``): checked when its first folder is one of the repository's source
  folders or a folder beside the file (or, in the core, under core/src); it must exist
  there. A bare Rust file name (``value.rs``) must exist somewhere under core/. A
  placeholder in capitals (``STUDY/study.toml``, ``part-NNNNN``) and a path under a folder
  of the user's (``studies/mine/study.html``) are not files of this repository.
- a module of the package (``cdsim.study.plan``, ``cdsim.batch.read.SeatArrays``): the
  module must exist and, when a name follows it, define or import that name.
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SOURCES = ("cdsim", "reports", "strategies", "scripts")
CORE_SRC = ROOT / "core" / "src"
# the folders of the repository a path may start from (not studies/, runs/: the user's)
TOP = ("cdsim", "core", "docs", "reports", "scripts", "strategies", "tests")
PACKAGES = ("cdsim", "reports", "strategies")

EXTENSIONS = "py|pyi|rs|md|toml|json|html|css|js|txt|ya?ml|cfg|ini|sh|parquet|so"
PATH = re.compile(rf"(?<![\w./-])((?:\.{{0,2}}/)?(?:[\w.-]+/)*[\w.-]+\.(?:{EXTENSIONS}))(?![\w/-])")
MODULE = re.compile(rf"(?<![\w./-])((?:{'|'.join(PACKAGES)})(?:\.\w+)+)")
PLACEHOLDER = re.compile(r"^[A-Z][A-Z0-9_]*$")  # NAME, STUDY, NNNNN
PAGE_FILES = ("*.js", "*.css", "*.html")  # a page's script, style and template
# a page file's comments: a script's // to the end of its line (not a URL's ://) or /* */,
# a style's /* */, a template's <!-- -->
PAGE_COMMENT = {".js": re.compile(r"(?<![:\\])//[^\n]*|/\*.*?\*/", re.S),
                ".css": re.compile(r"/\*.*?\*/", re.S), ".html": re.compile(r"<!--.*?-->", re.S)}


def comments(path: Path) -> Iterator[tuple[int, str]]:
    """(line, text) of every comment of a Python, Rust or page file, and every docstring
    (or other bare string statement) of a Python file."""
    text = path.read_text()
    if path.suffix in PAGE_COMMENT:
        for match in PAGE_COMMENT[path.suffix].finditer(text):
            yield text.count("\n", 0, match.start()) + 1, match.group()
        return
    if path.suffix == ".rs":
        for number, line in enumerate(text.splitlines(), 1):
            if "//" in line:
                yield number, line[line.index("//"):]
        return
    for token in tokenize.generate_tokens(io.StringIO(text).readline):
        if token.type == tokenize.COMMENT:
            yield token.start[0], token.string
    for node in ast.walk(ast.parse(text, str(path))):
        if (isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
                and isinstance(node.value.value, str)):
            yield node.lineno, node.value.value


def files() -> list[Path]:
    found = [p for folder in SOURCES for glob in ("*.py", *PAGE_FILES)
             for p in sorted((ROOT / folder).rglob(glob))]
    return found + sorted(CORE_SRC.rglob("*.rs"))


def bases(path: Path) -> list[Path]:
    """Where a path named in ``path`` may start: beside it, and in the core under src/ or
    the crate's own folder (``tests/data/components.json``)."""
    return [path.parent, *([CORE_SRC, CORE_SRC.parent] if CORE_SRC in path.parents else [])]


def stale_path(mention: str, path: Path, root: Path = ROOT) -> bool:
    """Whether ``mention`` names a file of the repository that is not there."""
    parts = mention.split("/")
    stems = [part.split(".")[0].split("-")[-1] for part in parts]
    if any(PLACEHOLDER.match(stem) for stem in stems if stem):
        return False
    if len(parts) == 1:  # a bare name: only a Rust file is sure to be one of ours
        return mention.endswith(".rs") and not any((root / "core").rglob(mention))
    first = parts[0]
    starts = [b for b in bases(path) if first not in ("", ".", "..") and (b / first).is_dir()]
    if first in TOP:
        starts.append(root)
    if not starts:
        return False  # not under a folder of ours (path/to/file.py, runs/g4.json)
    return not any((base / mention).exists() for base in [root, *bases(path)])


@cache
def modules() -> dict[str, Path | None]:
    found: dict[str, Path | None] = {"cdsim._core": None}  # compiled: any name
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            parts = path.relative_to(ROOT).with_suffix("").parts
            found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


@cache
def top_level(module: str) -> frozenset[str] | None:
    """The names ``module`` defines or imports at its top level (None: any)."""
    path = modules()[module]
    if path is None:
        return None
    names: set[str] = set()
    for node in ast.parse(path.read_text()).body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.Import | ast.ImportFrom):
            names |= {(alias.asname or alias.name).split(".")[0] for alias in node.names}
        elif isinstance(node, ast.Assign | ast.AnnAssign | ast.AugAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names |= {n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)}
    return frozenset(names)


def stale_module(mention: str) -> str | None:
    """What is wrong with a dotted mention of a module (None: nothing)."""
    parts = mention.split(".")
    known = modules()
    cut = next((i for i in range(len(parts), 0, -1) if ".".join(parts[:i]) in known), 0)
    if cut == len(parts):
        return None
    module = ".".join(parts[:cut])
    if cut <= 1 and parts[1] in ("md", "py", "toml", "json"):  # docs/strategies.md
        return None
    names = top_level(module)
    if names is None or parts[cut] in names:
        return None
    return f"{module} has no {parts[cut]!r}" if cut > 1 else "no such module"


def mentions() -> Iterator[tuple[str, str, str]]:
    """(where, mention, problem) of every stale mention."""
    for path in files():
        where = path.relative_to(ROOT)
        for line, text in comments(path):
            for match in PATH.finditer(text):
                if stale_path(match.group(1), path):
                    yield f"{where}:{line}", match.group(1), "no such file"
            for match in MODULE.finditer(text):
                problem = stale_module(match.group(1).rstrip("."))
                if problem:
                    yield f"{where}:{line}", match.group(1), problem


def test_comments_name_files_and_modules_that_exist() -> None:
    stale = [f"{where}: {mention} ({problem})" for where, mention, problem in mentions()]
    assert not stale, "comments naming what is not there:\n" + "\n".join(stale)


@pytest.mark.parametrize(("mention", "stale"), [
    ("cdsim/games/carpe_diem/rules/cards.py", False), ("cdsim/cards.py", True), ("docs/statistics.md", False),
    ("docs/nothing.md", True), ("carpe_diem/players/value.rs", False),
    ("carpe_diem/players/values.rs", True), ("players/uct.rs", False), ("players/value.rs", True),
    ("value.rs", False), ("values.rs", True), ("core/src/carpe_diem/game/turn.rs", False),
    ("carpe_diem/game/turn.rs", False), ("carpe_diem/game/turns.rs", True),
    ("STUDY/study.toml", False), ("games/part-NNNNN.parquet", False),
    ("studies/mine/study.html", False), ("path/to/file.py", False), ("mine.py", False),
    ("strategies/profiles.toml", False), ("strategies/value.py", True),
])
def test_a_path_is_checked_when_it_is_ours(mention: str, stale: bool) -> None:
    assert stale_path(mention, CORE_SRC / "lib.rs") is stale


@pytest.mark.parametrize(("mention", "stale"), [
    ("cdsim.study.plan", False), ("cdsim.study.cells", True), ("cdsim.batch.read.SeatArrays", False),
    ("cdsim.batch.read.Nothing", True), ("cdsim._core.Stop", False), ("reports.study", False),
    ("cdsim.nothing.at_all", True),
])
def test_a_module_is_checked(mention: str, stale: bool) -> None:
    assert (stale_module(mention) is not None) is stale


def test_a_page_files_comments_are_read(tmp_path: Path) -> None:
    """A script's, a style's and a template's comments are read, with their lines; a URL's
    ``//`` in a script is no comment."""
    script = tmp_path / "page.js"
    script.write_text('const NS = "http://www.w3.org/2000/svg";\n// see cdsim/a.py\n'
                      "/* and\n   cdsim/b.py */ draw(); // cdsim/c.py\n")
    style = tmp_path / "style.css"
    style.write_text("a { color: red; }\n/* cdsim/d.css */\n")
    template = tmp_path / "page.html"
    template.write_text("<p>cdsim/e.html</p>\n<!-- cdsim/f.html -->\n")
    assert list(comments(script)) == [(2, "// see cdsim/a.py"), (3, "/* and\n   cdsim/b.py */"),
                                      (4, "// cdsim/c.py")]
    assert list(comments(style)) == [(2, "/* cdsim/d.css */")]
    assert list(comments(template)) == [(2, "<!-- cdsim/f.html -->")]
