"""``cdsim whatif``: one change to the component set, answered in one command.

The change (``--set TABLE.ID.KEY=VALUE``, the entry/key vocabulary of a study's sweeps, or
an override file) becomes a study folder: a study file with the base and the change as a
variant, for each player count and each kind of play asked (scripted: the four scripted
players, every N of them in every seat rotation, and at a count with more seats than them
all of them with each in turn in a further seat; strong: the learned player in every
seat), and the change's override files beside it. Base and variant play the same deals,
stage by stage, and each comparison stops at the first look that decides whether seat
balance moves (``cdsim.analysis.paired``), at its cap (``--games``, when given) or when the
time budget is spent, the time going to the comparisons nearest to deciding
(``cdsim.study.comparisons`` plays them). The folder is an ordinary study folder:
``cdsim study report`` writes its pages, whose variants section holds the changed cards'
figures.

A list of values (``--set objective.B05.reward.vp=4,6,10``) makes one variant per value.
"""

from __future__ import annotations

import itertools
import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from cdsim.errors import CdsimError
from cdsim.games import GameSpec, game_spec
from cdsim.games.features import KeySets
from cdsim.study import sweeps
from cdsim.study.file import Sweep, Variant
from cdsim.study.model import Study, load_study

# each kind of play: its description; who plays is the game's (``lineup``)
PLAYS = {"scripted": "the four scripted players: every N of them, each in all seat "
                     "rotations, on the same deals",
         "strong": "the learned player in every seat"}
# the games a side a comparison's sequences are designed for (where its intervals are
# tightest, fixed before play; not a cap: without --games it plays on until decided or
# out of time; a usual stage is 1/12 of it): near where a single-card change decides at
# the 1 pp margin (scripted 10,644-13,972 a side, strong 7,969-15,469, docs/statistics.md);
# a game's own (GameSpec.whatif_games: Castles' cheaper scripted games) replaces it
DESIGN = {"scripted": 12_000, "strong": 12_000}
# strong play's chunk: about a second of a core at 4 players, so that a round's last chunks
# leave a core idle for about that long, not the several seconds of 2,000 learned games
STRONG_CHUNK = 250
MAX_SETS = 16
SET_FORM = re.compile(r"^\s*([A-Za-z_]+(?:\.[^.=\s]+)+)\s*=\s*(-?\d+(?:\s*,\s*-?\d+)*)\s*$")


@dataclass(frozen=True)
class Change:
    """One ``--set``: the entry (``objective.B05``, or a table without ids such as
    ``villa_table``), the key within it (``reward.vp``) and its value(s)."""

    entry: str
    key: str
    values: tuple[int, ...]

    @property
    def spelled(self) -> str:
        return f"{self.entry}.{self.key}={','.join(map(str, self.values))}"


def parse_set(text: str, game: GameSpec | None = None) -> Change:
    """``TABLE.ID.KEY=VALUE[,VALUE...]`` (``objective.B05.reward.vp=6``,
    ``villa_table.points.4=6``; another game's: ``colour_bonus.castle.first=6``); anything
    else is one line naming the flag."""
    spec = game or game_spec(None)
    sweeps = spec.sweeps  # its sweeps, else its JSON keys (checked when applied)
    m = SET_FORM.match(text)
    if m is None:
        example = _example(spec)
        raise CdsimError(f"--set {text!r}: expected TABLE.ID.KEY=VALUE with whole numbers, "
                         f"e.g. {example}=6 or {example}=4,6,10")
    parts = m.group(1).split(".")
    values = tuple(int(v) for v in m.group(2).split(","))
    if len(set(values)) != len(values):
        raise CdsimError(f"--set {text!r}: a value is given twice")
    if sweeps is None:  # checked against its set when applied
        if len(parts) < 2:
            raise CdsimError(f"--set {text!r}: name a key of the table")
        return Change(".".join(parts[:2]), ".".join(parts[2:]), values)
    entry, key = sweeps.split_set(text, parts)
    return Change(entry, key, values)


def variants(changes: Sequence[Change], override: Path | None, folder: Path,
             game: GameSpec | None = None) -> list[Variant | Sweep]:
    """The question's variant as the study file declares it, its override files written
    into ``folder`` (the fixed changes and the override file as one override, checked
    once as a whole: a swap that keeps a total is accepted): a
    ``[[variant]]`` of the fixed changes, or a ``[[sweep]]`` of the one change given a list
    (one variant per value, on the fixed changes; its report charts the swept card), each
    described by the changes as asked, made by the game's sweeps (``GameSpec.sweeps``; None:
    the default game). Any problem is one line naming the ``--set``."""
    spec = game or game_spec(None)
    _check_changes(changes, override, _example(spec))
    lists = [c for c in changes if len(c.values) > 1]
    folder.mkdir(parents=True, exist_ok=True)
    fixed = [c for c in changes if len(c.values) == 1]
    asked = [f"--components {override}"] if override is not None else []
    asked += [c.spelled for c in fixed]
    # the fixed changes and the override file as one override, checked once as a whole
    together = _together(fixed, override, spec) if fixed else None
    text = together if together is not None else (
        override.read_text() if override is not None else None)
    if not lists:
        name = _name(fixed, override)
        assert text is not None
        path = folder / f"{name}.toml"
        if not path.is_file() or path.read_text() != text:
            path.write_text(text)
        return [Variant(name=name, description=", ".join(asked),
                        components=str(path.resolve()))]
    listed = lists[0]
    name = safe_name(f"{listed.entry.split('.')[-1]}-{listed.key}")
    base = None
    if text:  # the fixed changes (or the override file) under the swept one
        path = folder / f"{name}-base.toml"
        path.write_text(text)
        base = str(path.resolve())
    _expand(listed, base, spec)  # every value checked now: one line naming the --set
    # checked as the study file's sweep when whatif.toml is read (a value out of its range
    # is one line naming the file then)
    return [Sweep.model_construct(name=name, description=", ".join([*asked, listed.spelled]),
                                  entry=listed.entry, key=listed.key,
                                  values=list(listed.values), base=base)]


def _together(fixed: Sequence[Change], override: Path | None, spec: GameSpec) -> str:
    """The fixed changes (and the override file) as one override, checked once as a whole;
    a refusal that a companion change could fix says so (``companion``)."""
    assert spec.sweeps is not None and spec.sweeps.combine is not None
    where = " ".join([*(f"--set {c.spelled}" for c in fixed),
                      *([f"with --components {override}"] if override is not None else [])])
    try:
        return spec.sweeps.combine(where, [(c.spelled, c.entry, c.key, c.values[0])
                                           for c in fixed], str(override.resolve())
                                   if override is not None else None)
    except CdsimError as exc:
        raise CdsimError(f"{exc}{companion(str(exc))}") from None


# a refusal of a whole set's total, as a game's component checks word it: "N things, the game
# has M", or "needs M" after the number of the rule that counts them
TOTAL = re.compile(r"(\d+) ([a-z_ ]+?)[,;] (?:the game has|[A-Z]+\d[\d.]* needs) (\d+)")


def companion(problem: str) -> str:
    """What to add to a refusal that another change made with it could fix (a total off:
    the changes are checked as one set), naming the override file route; else ""."""
    found = TOTAL.search(problem)
    if found is None:
        return ""
    got, what, want = int(found.group(1)), found.group(2).strip(), int(found.group(3))
    way = "lowers" if got > want else "raises"
    return (f"; the changes of one command are checked as one set: add the companion change "
            f"that {way} another entry's count by {abs(got - want)} (another --set), or "
            f"write them together in one override file, --components FILE "
            f"(docs/components.md), to keep {want} {what}")


def game_variants(changes: Sequence[Change], override: Path | None, folder: Path,
                  keys: KeySets) -> list[Variant | Sweep]:
    """The question's variants on a game of JSON tables (``keys``, its spec's ``set_keys``;
    JSON override files written into ``folder``): the fixed changes together, and one
    variant per value of a change given a list (no sweep: the game has none). Any problem
    is one line naming the ``--set``."""
    _check_changes(changes, override, keys.example)
    folder.mkdir(parents=True, exist_ok=True)
    builtin = json.loads(keys.text(None))
    merged = json.loads(keys.text(str(override.resolve()) if override is not None else None))
    asked = [f"--components {override}"] if override is not None else []

    def applied(into: dict[str, object], change: Change, value: int) -> dict[str, object]:
        table, _, entry = change.entry.partition(".")
        address = [entry, *(change.key.split(".") if change.key else [])]
        return into | keys.set_value(into, table, address, value, change.spelled)

    fixed = [c for c in changes if len(c.values) == 1]
    for change in fixed:
        merged = applied(merged, change, change.values[0])
        asked.append(change.spelled)
    lists = [c for c in changes if len(c.values) > 1]
    parts = [*([override.stem] if override else []),
             *(f"{c.entry.split('.')[-1]}.{c.key}={c.values[0]}" for c in fixed)]
    written: list[Variant | Sweep] = []
    for value in (lists[0].values if lists else (None,)):
        data, said, named = merged, list(asked), list(parts)
        if lists and value is not None:
            data = applied(merged, lists[0], value)
            said.append(f"{lists[0].entry}.{lists[0].key}={value}")
            named.append(f"{lists[0].entry.split('.')[-1]}.{lists[0].key}={value}")
        problem = keys.problem(json.dumps(data))
        if problem is not None:  # the --set that made it, in the user's words
            which = [c.spelled for c in fixed] + ([said[-1]] if lists else [])
            flags = " ".join(f"--set {w!r}" for w in which) or f"--components {override}"
            raise CdsimError(f"{flags}: {problem}{companion(problem)}")
        name = safe_name("_".join(named))
        path = folder / f"{name}.json"
        # the override: the tables that differ from the built-in set
        text = json.dumps({k: v for k, v in data.items() if builtin.get(k) != v}, indent=1)
        if not path.is_file() or path.read_text() != text:
            path.write_text(text)
        written.append(Variant(name=name, description=", ".join(said),
                               components=str(path.resolve())))
    return written


def _example(spec: GameSpec) -> str:
    """A key of the game's as --set names it (``objective.B05.reward.vp``): its sweeps', else
    its JSON keys'."""
    sweeps, keys = spec.sweeps, spec.set_keys
    return (sweeps.example if sweeps is not None else keys.example if keys is not None
            else "TABLE.ID.KEY")


def _check_changes(changes: Sequence[Change], override: Path | None, example: str) -> None:
    """The changes' own rules, whatever the game: each key once, one list, at most
    ``MAX_SETS``, at least one change (``example``, a key of the game's as --set names it,
    for the words of a refusal)."""
    for i, change in enumerate(changes):
        for earlier in changes[:i]:
            if (earlier.entry, earlier.key) == (change.entry, change.key):
                raise CdsimError(f"--set {earlier.spelled} and --set {change.spelled} change "
                                 "the same key: give it once (a list of values, "
                                 f"{change.entry}.{change.key}=6,7, tries each)")
    lists = [c for c in changes if len(c.values) > 1]
    if len(lists) > 1:
        raise CdsimError("--set: only one change may list several values (each value is a "
                         f"variant); got {lists[0].spelled} and {lists[1].spelled}")
    if not changes and override is None:
        raise CdsimError(f"give a change: --set TABLE.ID.KEY=VALUE (e.g. {example}=6) or "
                         "--components OVERRIDE (a file of the changes)")
    if len(changes) > MAX_SETS:
        raise CdsimError(f"--set: at most {MAX_SETS} changes, got {len(changes)}")


def _expand(change: Change, base: str | None, game: GameSpec) -> Sweep:
    """The change as a sweep on ``base``, each value checked as an override (not a study
    file's sweep: its values need not fit the file's range)."""
    sweep = Sweep.model_construct(name="whatif", entry=change.entry, key=change.key,
                                  values=list(change.values))
    return sweeps.expand(f"--set {change.spelled}", sweep, base, game)


def _name(fixed: Sequence[Change], override: Path | None) -> str:
    """The variant's name (its box's title, its cells' keys): every part of the change,
    the override file's and each --set's (F01-vp-3_F02-vp-3), not only the last."""
    parts = [*([override.stem] if override is not None else []),
             *(f"{c.entry.split('.')[-1]}.{c.key}={c.values[0]}" for c in fixed)]
    assert parts
    return safe_name("_".join(parts))


def safe_name(text: str) -> str:
    """A name for a study, a variant and their folders (a study file's names: 1-40
    letters, digits, '-' or '_'): B05.reward.vp=6 -> B05-reward-vp-6."""
    text = re.sub(r"(?<=[=,])-(?=\d)", "minus", text)  # vp=-1 -> vp-minus1, not vp-1
    return re.sub(r"-+", "-", re.sub(r"[^A-Za-z0-9_]", "-", text)).strip("-")[:40] or "change"


def lineup_of(game: GameSpec, play: str) -> list[str]:
    """Who plays ``play`` (``PLAYS``): the game's scripted players, or its strong line-up
    (one line for a game without it)."""
    if play == "scripted":
        return list(game.scripted)
    if game.strong is None:
        raise CdsimError(f"--play: {game.name} has no strong player yet: scripted only")
    return list(game.strong)


def lineups_at(names: Sequence[str], players: int) -> list[list[str]]:
    """The line-ups of ``names`` that seat ``players``: every N of them while there are
    enough (``lineup``'s own rule, ``cdsim.study.file``), else all of them with each in turn
    (each choice of the seats over, repeats allowed) in a further seat, as a game's shipped
    study seats its four scripted players at 5; a further seat sits beside its player's
    first, in the names' order."""
    if players <= len(names):
        return [list(x) for x in itertools.combinations(names, players)]
    return [sorted([*names, *extra], key=list(names).index)
            for extra in itertools.combinations_with_replacement(names, players - len(names))]


def _population_lines(play: str, lineup: Sequence[str], players: Sequence[int]) -> list[str]:
    """A population's description and who plays, as the study file says them: one
    ``lineup`` (one name fills every seat, more: every N of them), or, where some player
    count has more seats than names, ``lineups`` for each count (``lineups_at``), said so in
    its description."""
    short = [p for p in players if len(lineup) > 1 and p > len(lineup)]
    if not short:
        return [f"description = {json.dumps(PLAYS[play])}", f"lineup = {json.dumps(list(lineup))}"]
    further = "; ".join(
        f"at {p} players all of them, " + ("each in turn in a second seat" if p - len(lineup) == 1
                                           else f"each choice of {p - len(lineup)} of them "
                                                "(repeats allowed) in further seats")
        for p in short)
    return [f"description = {json.dumps(f'{PLAYS[play]}; {further}')}",
            f"lineups = {json.dumps([x for p in players for x in lineups_at(lineup, p)])}"]


def study_text(name: str, variant_list: Sequence[Variant | Sweep],
               players: Sequence[int], plays: Sequence[str], seed: int,
               budgets: dict[str, int], chunk_size: int = 2000,
               game: GameSpec | None = None, watch: Sequence[str] = ()) -> str:
    """The study file of the question (what ``cdsim study report`` and a resume read);
    ``watch``: the entries whose use its runs record (``cdsim.study.whatif.watched``)."""
    asked = "; ".join(v.description for v in variant_list)
    lines = [
        "# Written by cdsim whatif: the base and the change on the same deals.",
        f"name = {json.dumps(name)}",
        *([f"game = {json.dumps(game.name)}"] if game is not None and not game.default else []),
        f"description = {json.dumps('What the change does: ' + asked)}",
        f"seed = {seed}",
        f"players = {json.dumps(list(players))}",
        "radius = 2",
        f"chunk_size = {chunk_size}",
        *([f"watch = {json.dumps(list(watch))}"] if watch else []),
        "",
    ]
    for play_name in plays:
        lineup = lineup_of(game or game_spec(None), play_name)
        lines += ["[[population]]", f"name = {json.dumps(play_name)}",
                  *_population_lines(play_name, lineup, players), f"games = {budgets[play_name]}",
                  *([f"chunk_size = {STRONG_CHUNK}"] if play_name == "strong" else []), ""]
    for v in variant_list:
        if isinstance(v, Sweep):
            lines += ["[[sweep]]", f"name = {json.dumps(v.name)}",
                      f"description = {json.dumps(v.description)}",
                      f"entry = {json.dumps(v.entry)}", f"key = {json.dumps(v.key)}",
                      f"values = {json.dumps(list(v.values))}"]
            if v.base is not None:
                lines.append(f"base = {json.dumps(v.base)}")
            lines.append("")
            continue
        lines += ["[[variant]]", f"name = {json.dumps(v.name)}",
                  f"description = {json.dumps(v.description)}",
                  f"components = {json.dumps(v.components)}", ""]
    return "\n".join(lines)


def watched(found: Sequence[Variant | Sweep], spec: GameSpec,
            changes: Sequence[Change] = ()) -> tuple[str, ...]:
    """The use rows the runs record (``cdsim.batch.uses``: a frame part, the villa table, a
    tile's shape, a Castles card): those the game's ``component_use`` counts a use by,
    among the ``changes`` (the --sets), each sweep's entry and what each variant's set
    changes against the shipped one (an override file's entries too), in that order."""
    read = spec.component_use
    if read is None:
        return ()
    entries = [c.entry for c in changes]
    for v in found:
        if isinstance(v, Sweep):
            entries.append(v.entry)
            continue
        try:
            if spec.card_changes is not None:
                entries += [c.entry for c in spec.card_changes(None, v.components)]
            elif spec.diff is not None:
                entries += [e for e, _ in spec.diff(None, v.components)]
        except CdsimError:  # the set's own check says it, when the study is loaded
            continue
    uses = (read(e).uses for e in dict.fromkeys(entries))  # a tile: its shape's rows
    return tuple(dict.fromkeys(u for u in uses if u is not None))


def build(name: str, changes: Sequence[Change], override: Path | None, root: Path,
          players: Sequence[int], plays: Sequence[str], seed: int,
          budgets: dict[str, int], game: GameSpec | None = None) -> Study:
    """The question's study: its override files and study file written into ``root``
    (``changes/``), then read as any study file is (every problem one line)."""
    folder = root / "changes"
    spec = game or game_spec(None)
    if spec.sweeps is not None:
        found = variants(changes, override, folder, spec)
    elif spec.set_keys is not None:
        found = game_variants(changes, override, folder, spec.set_keys)
        for variant in found:  # each set checked once as a whole, named by its --sets
            assert isinstance(variant, Variant) and variant.components is not None
            try:
                spec.components_digest(variant.components)
            except CdsimError as exc:
                said = str(exc).replace(f"{variant.components}: ", "")
                sets = " ".join(x if x.startswith("--") else f"--set {x}"
                                for x in variant.description.split(", "))
                raise CdsimError(f"{sets}: {said}{companion(said)}") from None
    else:
        raise CdsimError(f"--set: {spec.title} takes no changes to its components")
    text = study_text(name, found, players, plays, seed, budgets, game=game,
                      watch=watched(found, spec, changes))
    path = folder / "whatif.toml"
    path.write_text(text)
    try:
        return load_study(path)
    except CdsimError as exc:  # said of the command's own flags, never of the file it wrote
        asked = " ".join([*(f"--set {c.spelled}" for c in changes),
                          *([f"--components {override}"] if override is not None else [])])
        raise CdsimError(str(exc).replace(f"{path}: ", f"{asked}: ")
                         .replace(str(path), "the whatif's study")) from None


__all__ = ["DESIGN", "PLAYS", "Change", "build", "game_variants", "lineup_of", "parse_set",
           "safe_name", "study_text", "variants", "watched"]
