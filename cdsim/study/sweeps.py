"""A study's sweeps: one component value tried over a list, each value a variant.

``[[sweep]]`` names an entry of a component set (Carpe Diem's ``objective.B05``), a dotted
key inside it (``reward.vp``) and the integers to try. Each value becomes an override of
the sweep's base (``base = "default"`` or a component folder or file; default: the study's
``components``) that changes that one key, and then plays as a ``[[variant]]`` named
``NAME=VALUE``: on the same deals as the base cells. How the values become override files
is the game's (``GameSpec.sweeps``, ``cdsim.games.features.Sweeps``; a game without it
takes no sweeps). The override files are written into the study folder
(``sweeps/NAME=VALUE.toml``) so that its run folders name files that stay. The sweep's
record is the file's ``cdsim.study.file.Sweep``, which ``expand`` resolves.
"""

from __future__ import annotations

from pathlib import Path

from cdsim.errors import CdsimError
from cdsim.games import GameSpec
from cdsim.study.file import Sweep

SWEEPS = "sweeps"  # the override files' folder inside a study folder


def expand(where: str, sweep: Sweep, base: str | None, game: GameSpec) -> Sweep:
    """The sweep resolved on ``base`` (None: the game's shipped set) by ``game``'s sweeps:
    its values as override texts, each merged on the base and validated; any problem is
    one CdsimError line starting with ``where`` (the file and the sweep)."""
    if game.sweeps is None:
        raise CdsimError(f"{where}: {game.title} takes no sweeps")
    found = game.sweeps.expand(where, sweep.entry, sweep.key, sweep.values, base)
    return sweep.model_copy(update={"base": found.base, "base_value": found.base_value,
                                    "base_digest": found.base_digest, "texts": found.texts,
                                    "digests": found.digests})


def place(root: Path, sweep: Sweep) -> dict[str, str]:
    """Write the sweep's override files into the study folder; each variant's path."""
    folder = root / SWEEPS
    paths = {}
    try:
        folder.mkdir(parents=True, exist_ok=True)
        for name, text in zip(sweep.variants, sweep.texts, strict=True):
            path = folder / f"{name}.toml"
            if not path.is_file() or path.read_text() != text:
                path.write_text(text)
            paths[name] = str(path.resolve())
    except OSError as exc:
        raise CdsimError(f"{folder}: cannot write the sweep's files ({exc.strerror or exc})"
                         ) from None
    return paths


__all__ = ["SWEEPS", "expand", "place"]
