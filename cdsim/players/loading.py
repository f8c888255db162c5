"""Finding a user's strategy class, for every game: its spelling parsed
(``package.module:ClassName`` from the current folder or PYTHONPATH, or
``path/to/file.py:ClassName`` from anywhere, recorded as its absolute path) and its module
imported in the sandbox (``cdsim.players.sandbox``), whatever fails said in one line naming
the strategy. Each game's roster makes the instance and checks it against its own protocol
(Carpe Diem's ``choose(view, options)``, the seam games' ``choose(view)``)."""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import inspect
import os
import sys
from collections.abc import Callable, Sequence
from types import ModuleType
from typing import Any

from cdsim.errors import CdsimError, StrategyFailure, user_text
from cdsim.players.sandbox import decision_timeout, names_a_file, user_code, user_failure


def did_you_mean(word: str, known: Sequence[str]) -> str:
    """`` (did you mean 'villa'?)`` for a name not among ``known`` close to one, or ""."""
    import difflib

    close = difflib.get_close_matches(word, list(known), n=1, cutoff=0.6)
    if not close:  # a case slip: Villa, BAKER
        close = [k for k in known if k.lower() == word.lower()][:1]
    return f" (did you mean {close[0]!r}?)" if close else ""


def strategy_file(spelled: str, path: str) -> str:
    """A strategy file as runs record it: absolute and normalised (``~`` expanded), so that
    a manifest, a resume, a replay command and every worker name the same file whatever
    folder they start in. Reads nothing: a missing file is found when it is loaded."""
    if not path.endswith(".py"):
        raise CdsimError(f"strategy {spelled!r}: a strategy file is a .py file "
                         "(path/to/file.py:ClassName)")
    return os.path.abspath(os.path.expanduser(path))


def class_name(spelled: str, attr: str) -> str:
    if not attr.isidentifier():
        raise CdsimError(f"strategy {spelled!r}: name the class after the file, "
                         "path/to/file.py:ClassName")
    return attr


def user_base(spelled: str, builtin: Sequence[str]) -> str:
    """The user's strategy ``spelled`` (``mod:Class`` or ``file.py:Class``) as runs record
    it: ``mod:Class``, or the file's absolute path and its class; ``builtin`` names the
    game's built-in players in the error line of anything else."""
    module_name, _, attr = spelled.rpartition(":")
    if names_a_file(module_name):
        return f"{strategy_file(spelled, module_name)}:{class_name(spelled, attr)}"
    if not all(part.isidentifier() for part in module_name.split(".")) or \
            not attr.isidentifier():
        raise CdsimError(f"unknown strategy {spelled!r}: give a built-in name "
                         f"({', '.join(builtin)}), package.module:ClassName or "
                         "path/to/file.py:ClassName")
    return spelled


def file_module(path: str) -> ModuleType:
    """The module of a strategy file, run once per process under a name of its own (so a
    file called ``random.py`` shadows nothing); its folder is searched last for what it
    imports beside it, as it would be if it were run as a script."""
    key = "cdsim_strategy_" + hashlib.sha256(path.encode()).hexdigest()[:12]
    if key in sys.modules:
        return sys.modules[key]
    spec = importlib.util.spec_from_file_location(key, path)
    if spec is None or spec.loader is None:
        raise ImportError(f"{path} cannot be loaded as a Python module")
    folder = os.path.dirname(path)
    if folder not in sys.path:
        sys.path.append(folder)
    module = importlib.util.module_from_spec(spec)
    sys.modules[key] = module  # before it runs: dataclasses and pickle look it up there
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[key]
        raise
    return module


def _import_hint(module_name: str, attr: str, exc: ImportError) -> str:
    """What to do when the strategy's own module is not found (not one it imports)."""
    missing = getattr(exc, "name", None) or ""
    if not missing or not (module_name == missing or module_name.startswith(missing + ".")):
        return ""
    path = module_name.replace(".", "/") + ".py"
    return (f" (searched from {os.getcwd()}); give its file instead, path/to/{path}:{attr}, "
            "or add its folder to PYTHONPATH")


def _importable_here() -> None:
    """A strategy in the folder a command runs in (``--strategies mine:Class`` beside
    mine.py) imports without PYTHONPATH, in the command and in its workers (which start
    in the same folder). The folder is searched last: ``python -m`` puts it first, the
    ``cdsim`` script not at all, and cdsim's own modules must not be shadowed."""
    here = os.getcwd()
    if here not in sys.path and "" not in sys.path:
        sys.path.append(here)


def load_class(name: str, base: str) -> type:
    """The class ``base`` names (``mod:Class`` or ``/abs/file.py:Class``), its module
    imported in the sandbox (its import runs the user's code); whatever fails is one line
    naming the strategy as spelled, ``name``."""
    module_name, _, attr = base.rpartition(":")
    from_file = names_a_file(module_name)
    if from_file and not os.path.isfile(module_name):
        raise CdsimError(f"strategy {name!r}: no such file {module_name}")
    if not from_file:
        _importable_here()
    try:
        with user_code(decision_timeout()):  # its import runs the user's code
            module = (file_module(module_name) if from_file
                      else importlib.import_module(module_name))
    except ImportError as exc:
        hint = "" if from_file else _import_hint(module_name, attr, exc)
        raise CdsimError(f"strategy {name!r}: cannot import {module_name!r}: "
                         f"{user_text(exc, str)}{hint}") from None
    except KeyboardInterrupt:
        raise
    except BaseException as exc:  # anything else the module does is a bug in it
        problem, detail = user_failure(exc, decision_timeout())
        raise StrategyFailure(name, -1, f"while importing {module_name}", problem,
                              detail=detail) from None
    factory = getattr(module, attr, None)
    if factory is None:
        classes = [n for n, v in vars(module).items() if inspect.isclass(v)]
        raise CdsimError(f"strategy {name!r}: {module_name} has no class {attr!r}"
                         f"{did_you_mean(attr, classes)}")
    if not inspect.isclass(factory):
        raise CdsimError(f"strategy {name!r}: {module_name}.{attr} is a "
                         f"{type(factory).__name__}, not a strategy class")
    return factory


__all__ = ["class_name", "did_you_mean", "file_module", "load_class", "strategy_file",
           "user_base"]


def made_by_user(name: str, base: str, refusal: Callable[[Any], str | None]) -> Any:
    """A fresh instance of the user's class ``base`` (spelled ``name``): its import and
    construction run its code in the sandbox, and so does ``refusal``, which returns why
    the instance cannot play here (None: it can). Whatever fails is one line naming it:
    a bug in its code a StrategyFailure, a refusal a CdsimError."""
    factory = load_class(name, base)
    attr = base.rpartition(":")[2]
    try:
        with user_code(decision_timeout()):
            strategy: Any = factory()
            refused = refusal(strategy)
    except KeyboardInterrupt:
        raise
    except BaseException as exc:
        problem, detail = user_failure(exc, decision_timeout())
        raise StrategyFailure(name, -1, f"while being made ({attr}())", problem,
                              detail=detail) from None
    if refused is not None:
        raise CdsimError(f"strategy {name!r} {refused}")
    return strategy
