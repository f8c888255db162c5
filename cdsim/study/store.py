"""A study's folder: its manifest (``study-manifest.json``, checked when read), the study
file as played (``study.toml``), its run folders (``cells/KEY``, a ladder's too), and
opening it to start, resume or extend a study (the identity check that lets only budgets
change)."""

from __future__ import annotations

import sys
from pathlib import Path

from cdsim.batch.folder import (
    CELLS,
    Kind,
    RunFolder,
    atomic_write,
    settings_changed,
    versions,
)
from cdsim.batch.folder import (
    STUDY_MANIFEST as STUDY_MANIFEST,  # re-exported: the commands find a study folder by it
)
from cdsim.errors import CdsimError
from cdsim.games import game_spec
from cdsim.games.played import ProfilesRecord
from cdsim.study.file import StudySettings
from cdsim.study.manifest import Identity, PlayedPopulation, StudyManifest, study_manifest
from cdsim.study.model import Study

STUDY_FILE = "study.toml"


def run_folder(root: Path, key: str) -> Path:
    """The run folder ``key`` of a study (or a ladder) in ``root``: one stage of a cell's
    line-up (a ladder's pairing)."""
    return root / CELLS / key


def open_folder(root: Path, study: Study, resume: bool, force: bool, games: int | None = None
                ) -> tuple[StudyManifest, Study]:
    """Create or reopen a study folder; returns its manifest and the study as it continues
    (budgets raised to ``games`` and never below what the folder recorded). Never
    overwrites a study without --force, and --resume refuses a study that would play other
    games (anything but a budget changed)."""

    folder = RunFolder(root, STUDY)
    if folder.claim(resume, force):
        manifest = folder.read()
        recorded = manifest.identity
        firsts = {c["key"]: c["first"] for c in recorded.get("cells", [])
                  if isinstance(c, dict) and isinstance(c.get("first"), int)}
        study = study.raised(games, {c.key: c for c in manifest.cells}, firsts)
        _same_study(root, recorded, study.identity())
        game_spec(study.file.game).roster.changed(root, manifest.profiles, _profiles(study))
        study = study.placed(root)  # only once it is the same study: a refusal writes nothing
        # what only the report reads may change between runs: the latest file's (and the
        # identity, grown by a sweep's new values)
        _describe(manifest, study)
        manifest.command, manifest.identity = " ".join(sys.argv), study.identity()
        _write_text(root / STUDY_FILE, study.text)
        write_study_manifest(root, manifest)
        return manifest, study
    study = study.raised(games, {}).placed(root)
    _write_text(root / STUDY_FILE, study.text)
    file = study.file
    manifest = StudyManifest(
        **{key: getattr(file, key) for key in StudySettings.model_fields},  # its settings
        name=file.name, identity=study.identity(), players=list(file.players), cells=[],
        versions=versions(), wall_seconds=0.0, command=" ".join(sys.argv))
    profiles = _profiles(study)
    if profiles is not None:  # the profiles file it plays, kept beside the manifest
        manifest.profiles = profiles
    game_spec(file.game).roster.keep(root, profiles)
    _describe(manifest, study)
    write_study_manifest(root, manifest)
    return manifest, study


def _profiles(study: Study) -> ProfilesRecord | None:
    """Its scripted players' tables when one is not the shipped one (none for a game whose
    players are the core's alone: its roster's)."""
    return game_spec(study.file.game).roster.profiles(
        [s for p in study.file.population for s in p.strategies()])


def _same_study(root: Path, recorded: Identity, identity: Identity) -> None:
    """Refuse to resume a study that would play other games. A sweep's new values (or a new
    sweep) only add cells, which play on their own: the cells played stay as they are."""
    if recorded == identity:
        return
    again = "start it in another folder with --out"
    before = {s["name"]: s for s in recorded.get("sweeps", [])}
    for sweep in identity.get("sweeps", []):
        was = before.get(sweep["name"], sweep)
        changed = [k for k in ("entry", "key", "base") if was.get(k) != sweep[k]]
        if changed:
            verb = "differs" if len(changed) == 1 else "differ"
            raise CdsimError(f"{root}: sweep {sweep['name']!r}: its {' and '.join(changed)} "
                             f"{verb} from the sweep this folder played (only values may be "
                             f"added to it): {again}")

    def rest(x: Identity) -> Identity:
        return {k: v for k, v in x.items() if k not in ("cells", "sweeps")}

    cells = {c["key"]: c for c in identity["cells"]}
    kept = {c["key"] for c in recorded.get("cells", [])}
    grown = (rest(recorded) == rest(identity)
             and before.keys() <= {s["name"] for s in identity.get("sweeps", [])}
             and all(cells.get(c["key"]) == c for c in recorded.get("cells", []))
             and all("sweep" in c for k, c in cells.items() if k not in kept))
    if not grown:
        differ = settings_changed(*_settings(recorded, identity))
        raise CdsimError(f"{root}: this study folder was made with another study file "
                         f"({differ}; only the budgets and a sweep's added values may "
                         "change): " + again)


def _settings(recorded: Identity, identity: Identity) -> tuple[Identity, Identity]:
    """Both identities as flat settings, for naming what differs: the study's own, the cells
    played (``cells``, a new sweep's left out: it may be added), each kept cell's own
    (``2p.random.lineups``) and the sweeps played (``sweeps``)."""
    played = {c["key"]: c for c in recorded.get("cells", [])}
    cells = {c["key"]: c for c in identity.get("cells", [])
             if c["key"] in played or "sweep" not in c}
    swept = [s["name"] for s in recorded.get("sweeps", [])]
    kept = played.keys() & cells.keys()

    def flat(top: Identity, cells: dict[str, Identity], sweeps: list[str]) -> Identity:
        rest = {k: v for k, v in top.items() if k not in ("cells", "sweeps")}
        own = {f"{key}.{k}": v for key, cell in cells.items() if key in kept
               for k, v in cell.items() if k != "key"}
        return rest | {"cells": sorted(cells)} | own | ({"sweeps": sweeps} if swept else {})

    return (flat(recorded, played, swept),
            flat(identity, cells, [s["name"] for s in identity.get("sweeps", [])
                                   if s["name"] in swept]))


def _describe(manifest: StudyManifest, study: Study) -> None:
    """The manifest's account of a study for the report (not part of its identity): the
    latest file's."""
    manifest.description, manifest.source = study.file.description, study.source
    manifest.populations = [PlayedPopulation.played(p, study.file.game)
                            for p in study.file.population]
    manifest.variants, manifest.sweeps = list(study.variants), list(study.sweeps)


def _write_text(path: Path, text: str) -> None:
    try:
        atomic_write(path, lambda tmp: tmp.write_text(text))
    except OSError as exc:
        raise CdsimError(f"{path}: cannot write it ({exc.strerror or exc})") from None


def write_study_manifest(root: Path, manifest: StudyManifest) -> None:
    RunFolder(root, STUDY).write(manifest)


STUDY = Kind("study", STUDY_MANIFEST, CELLS, "cdsim study run", ("identity", "cells"),
             study_manifest)


def study_manifest_of(root: Path) -> StudyManifest:
    """A study folder's manifest as its model, checked (one line when it is not one)."""
    return RunFolder(root, STUDY).read()
