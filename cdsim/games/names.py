"""How a player is shown in tables, reports and replays (issue 52): a strategy given by
file by its class's ``name``, read from the file without running it, never by the machine
path its runs record; every other player as spelled."""

from __future__ import annotations

import ast
import functools
import os
import re
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

from cdsim.players.sandbox import names_a_file

# every game's built-in player names, as the registry (cdsim.games) gives them once it has
# registered the games: this module sits below the registry and never imports it
BUILTIN: list[Callable[[], Iterable[str]]] = []


@functools.cache
def shown_name(spelling: str) -> str:
    """A player as tables, reports and replays show it: a strategy given by file
    (``/abs/path/baker.py:Baker``) by its class's ``name`` (``baker``), read from the file
    without running it (a literal ``name = "..."`` in the class body; else the class's
    own name), so that a column holds a word and no machine path; any other player as
    spelled. Its path stays in the manifests (``config.strategies``). A name a built-in
    player has, or none that is one short line, is not taken: ``Baker (baker.py)``."""
    module_name, colon, attr = spelling.rpartition(":")
    if not colon or "@" in spelling or not names_a_file(module_name):
        return spelling
    declared = _declared_name(module_name, attr)
    file = os.path.basename(module_name)
    if declared is None or _builtin(declared) or not re.fullmatch(r"[\w.+=-]{1,40}",
                                                                      declared):
        return f"{attr} ({file})"
    return declared


def _builtin(name: str) -> bool:
    """Whether ``name`` is a built-in player of some game."""
    return any(name in names() for names in BUILTIN)


def shown_names(spellings: Sequence[str]) -> dict[str, str]:
    """``shown_name`` of each of ``spellings``; two players never under one name (then
    each file's as ``name (file.py)``, else as spelled)."""
    shown = {x: shown_name(x) for x in dict.fromkeys(spellings)}
    for x, name in list(shown.items()):
        if sum(n == name for n in shown.values()) > 1 and name != x:
            module_name, _, _ = x.rpartition(":")
            shown[x] = f"{name} ({os.path.basename(module_name)})"
    for x, name in list(shown.items()):
        if sum(n == name for n in shown.values()) > 1:
            shown[x] = x
    return shown


def _declared_name(path: str, cls: str) -> str | None:
    """``name = "..."`` in class ``cls``'s body in the file ``path``, read (not run)."""
    try:
        tree = ast.parse(Path(path).read_text())
    except (OSError, UnicodeDecodeError, SyntaxError, ValueError, RecursionError):
        return None
    for node in tree.body:
        if isinstance(node, ast.ClassDef) and node.name == cls:
            for item in node.body:
                targets = (item.targets if isinstance(item, ast.Assign) else
                           [item.target] if isinstance(item, ast.AnnAssign) else [])
                value = getattr(item, "value", None)
                if any(isinstance(t, ast.Name) and t.id == "name" for t in targets) and \
                        isinstance(value, ast.Constant) and isinstance(value.value, str):
                    return value.value
    return None


__all__ = ["shown_name", "shown_names"]
