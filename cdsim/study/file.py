"""A study file's schema (Carpe Diem's shipped study,
``cdsim/games/carpe_diem/studies/default.toml``, explains every key), declared once: the keys
of each table, their types (strict: a TOML string is not a number, nor a bool an integer) and
ranges, and the checks across tables (names unique, cells naming the study's
player counts and populations). ``cdsim.study.model.load_study`` then loads what the file names
(strategies, parameters, component sets) and plans the cells. The checked tables are the
records a study plays with: a ``Population`` is the one record of a population (its
defaults resolved, what it derives as properties), a ``Variant`` and a ``Sweep`` the ones
of a variant and a sweep (what the loader resolves set on them) and a ``Study`` holds its
``StudyFile`` for its settings. Also where a study file is found (``resolve``: a path or a
shipped study's name, every game's ``GameSpec.studies``) and the file ``cdsim study init``
writes (``GameSpec.templates``).
"""

from __future__ import annotations

import itertools
import re
import tomllib
from collections.abc import Sequence
from functools import cached_property
from pathlib import Path
from typing import Annotated, Any

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    Field,
    ValidationError,
    ValidationInfo,
    computed_field,
    field_validator,
    model_validator,
)

from cdsim.analysis.anytime import ZONE, tolerance_problem, worst_case_games, zone_problem
from cdsim.batch.config import MAX_CHUNK_SIZE, MAX_GAMES, Player
from cdsim.errors import CdsimError, user_text
from cdsim.games import DEFAULT_GAME, GAMES, PLAYER_COUNTS, counts_said, game_spec
from cdsim.games.players import PlayerSpec
from cdsim.schema import Table, problem, reads_back

NAME = re.compile(r"[A-Za-z0-9_-]{1,40}\Z")
# games per cell, all stages together, when a study leaves games out and has no zone (with
# one, a cell's budget is the games that decide it whatever its truth: worst_case_games)
DEFAULT_BUDGET = 100_000
GONE = {key: f"no longer a study key: {why}" for key, why in {
    "confirm_games": "every stage after the first confirms on its own fresh games",
    "confirm_seed": "each stage's seed is derived from seed",
    "resamples": "the bootstrap stability is gone (docs/statistics.md)"}.items()}


def _name(value: str, info: ValidationInfo) -> str:
    # read back, a sweep's value is a variant named NAME=VALUE (made, not a file's)
    if not NAME.match(value) and not reads_back(info):
        raise ValueError(f"{value!r} must be 1-40 letters, digits, '-' or '_' (it names folders)")
    return value


def _tuple(value: Any) -> Any:
    """A TOML array as the tuple a frozen record holds."""
    return tuple(value) if isinstance(value, list) else value


def _split(value: Any) -> Any:
    """``"greedy, villa"`` is ``("greedy", "villa")``; blank names are dropped."""
    value = value.split(",") if isinstance(value, str) else value
    if isinstance(value, list):
        return tuple(x for x in value if not isinstance(x, str) or x.strip())
    return value


def _named(value: Any) -> Any:
    if isinstance(value, list) and any(isinstance(x, str) and not x.strip() for x in value):
        raise ValueError(f"{user_text(value, repr, 60)} names an empty strategy")
    return _tuple(value)


def _lineups(value: tuple[tuple[PlayerSpec, ...], ...]) -> tuple[tuple[PlayerSpec, ...], ...]:
    for x in value:
        if len(x) not in PLAYER_COUNTS:
            raise ValueError(f"{[s.spelling for s in x]} is not a line-up of "
                             f"{counts_said()} players")
    if len({tuple(x) for x in value}) != len(value):
        raise ValueError("lists a line-up twice")
    return value


def _tolerance(value: float) -> float:
    problem = tolerance_problem(value)
    if problem:
        raise ValueError(problem)
    return value


# below it the levels alpha is split into (over the candidate vectors, the seat pairs, the
# tested choices and the looks) underflow: the tests' boundaries are nan from about 1e-17
MIN_ALPHA = 1e-10


def _alpha(value: float) -> float:
    if value < MIN_ALPHA:
        raise ValueError(f"must be at least {MIN_ALPHA:g} (smaller error levels underflow when "
                         "split over the candidate vectors, seat pairs and looks: no test can "
                         f"be sized), got {value:g}")
    return value


def zone_reach_problem(zone: float, alpha: float, players: Sequence[int]) -> str | None:
    """Why the indifference zone ``zone`` cannot end a cell of each of ``players`` at level
    ``alpha`` ("is too small ..."), or None: its worst case (``worst_case_games``, about
    1/zone**2 games) past the games a cell may play (``MAX_GAMES``), or past any number.
    0 (no zone) ends nothing and promises nothing: allowed."""
    if zone <= 0:
        return None
    for p in players:
        try:
            worst: float | None = worst_case_games(p, 0.02, zone, alpha)
        except (ArithmeticError, ValueError):
            worst = None
        if worst is not None and worst <= MAX_GAMES:
            continue
        # the worst case goes as 1/zone**2: the least zone from the default's
        at_default = worst_case_games(p, 0.02, ZONE, alpha) or 1
        least = ZONE * (at_default / MAX_GAMES) ** 0.5
        least = float(f"{least * 1.05:.1e}")  # rounded up
        beyond = f"{worst:,.0f} games" if worst is not None else "more games than a float holds"
        return (f"is too small to end a {p}-player cell: its worst case is {beyond}, past the "
                f"{MAX_GAMES:,} a cell may play; use a zone of at least {least:g}, or 0 (no "
                "zone: a cell may then never end)")
    return None


def _players(value: tuple[int, ...]) -> tuple[int, ...]:
    if not value:
        raise ValueError(f"list the player counts to study ({', '.join(map(str, PLAYER_COUNTS))})")
    for p in value:
        if p not in PLAYER_COUNTS:
            raise ValueError(f"{p} is not a player count (every game cdsim plays takes "
                             f"{counts_said()})")
    if len(set(value)) != len(value):
        raise ValueError(f"lists a player count twice: {list(value)}")
    return value


Name = Annotated[str, AfterValidator(_name)]
# players (one for each seat), each parsed once: two spellings of one player are equal
Names = Annotated[tuple[Player, ...], BeforeValidator(_split)]
LineUp = Annotated[tuple[Player, ...], BeforeValidator(_named)]
Games = Annotated[int, Field(ge=1, le=MAX_GAMES)]
Folder = Annotated[str, Field(min_length=1)]  # a component folder or file


def _mixed(lineup: Sequence[PlayerSpec], lineups: Sequence[Sequence[PlayerSpec]],
           pool: Sequence[PlayerSpec]) -> bool:
    """Not the same player in every seat."""
    return any(len(set(x)) > 1 for x in lineups) or len(lineup) > 1 or len(pool) > 1


def _strategies(lineup: Sequence[PlayerSpec], lineups: Sequence[Sequence[PlayerSpec]],
                pool: Sequence[PlayerSpec]) -> tuple[PlayerSpec, ...]:
    return tuple(dict.fromkeys((*lineup, *pool, *itertools.chain(*lineups))))


# Any: the fields validated so far (pydantic's default_factory input)
def _seats(given: dict[str, Any]) -> tuple[Any, Any, Any]:
    """The seats a population's table gives, as validated so far (a default's input)."""
    return given.get("lineup", ()), given.get("lineups", ()), given.get("pool", ())


class Population(Table):
    """A population (``[[population]]``): who sits at the table, as the file gives it and as
    the study plays it, declared once. ``lineup``: one player fills every seat, more: every
    N-subset plays; ``lineups``: exactly these line-ups (any lengths); ``pool``: each seat
    draws from it per game. The defaults are resolved here: ``rotate_seats`` when the seats
    differ, ``floor`` (reported as the floor, never in a headline) for random players only."""

    gone = GONE
    name: Name
    description: str = ""
    lineup: Names = ()
    lineups: Annotated[tuple[LineUp, ...], BeforeValidator(_tuple),
                       AfterValidator(_lineups)] = ()
    pool: Names = ()
    rotate_seats: bool = Field(default_factory=lambda given: _mixed(*_seats(given)))
    floor: bool = Field(default_factory=lambda given: all(
        x.base == "random" for x in _strategies(*_seats(given))))
    games: Games | None = None  # default: the study's
    first_stage: Games | None = None
    strategy_params: str | None = None
    # games per Parquet part of this population's runs (default: the study's): a few for a
    # slow player, so that a stage's games spread over the workers
    chunk_size: Annotated[int, Field(ge=1, le=MAX_CHUNK_SIZE)] | None = None

    @property
    def mixed(self) -> bool:
        """Not the same player in every seat."""
        return _mixed(self.lineup, self.lineups, self.pool)

    def lineups_for(self, players: int) -> tuple[tuple[PlayerSpec, ...], ...]:
        """The line-ups a cell of ``players`` plays (each in all seat rotations when the
        population rotates); () for a pool."""
        if self.pool:
            return ()
        if self.lineups:
            return tuple(x for x in self.lineups if len(x) == players)
        if len(self.lineup) == 1:
            return (self.lineup * players,)
        return tuple(itertools.combinations(self.lineup, players))

    def strategies(self) -> tuple[PlayerSpec, ...]:
        return _strategies(self.lineup, self.lineups, self.pool)

    def reads_scores_in(self, game: str | None) -> bool:
        """Some player reads VP totals: only the rulebook vector is judged. Makes each player
        (a user's module imported, learned weights read), which may fail: ``load_study``
        asks first, naming the population. Its players are the study's game's roster's (a
        population names no game, so it is parsed as the default game's,
        ``cdsim.batch.config.Player``; the study's game refuses any that is not its own, a
        user's strategy of another game included, and no game's built-in player reads VP
        totals)."""
        if game not in self.scores_asked:
            roster, players = game_spec(game).roster, self.strategies()
            for player in players:
                if player.builtin:
                    roster.load(player)
            self.scores_asked[game] = any(roster.reads_scores(players).values())
        return self.scores_asked[game]

    @cached_property
    def scores_asked(self) -> dict[str | None, bool]:
        """``reads_scores_in``'s answers by game, each worked out once."""
        return {}

    @model_validator(mode="after")
    def _seats(self) -> Population:
        given = sum(map(bool, (self.lineup, self.lineups, self.pool)))
        if given != 1:
            raise ValueError("give one of lineup = [...] (one name fills every seat; more names: "
                             "every N of them play, in every seat rotation), lineups = [[...], "
                             "...] (exactly these line-ups) or pool = [...]" if not given else
                             "give one of lineup, lineups or pool, not several")
        if len(set(self.lineup)) != len(self.lineup):
            raise ValueError("lineup names a strategy twice (give each once; lineups = [[...]] "
                             "plays exact line-ups)")
        if self.rotate_seats and not self.mixed:
            raise ValueError("rotate_seats with the same player in every seat would replay each "
                             "deal identically (a seat's choices come from the seat's own "
                             "stream): drop it")
        return self


class Variant(Table):
    """A variant (``[[variant]]``): the cells played again on other components, declared
    once. The file gives its name and its component folder or file (relative to the study
    file); ``load_study`` resolves the path (absolute) and records its set's digest. A
    sweep's values are variants too (``Sweep.value_variants``: named NAME=VALUE, with the
    sweep and the value), whose ``components`` is "" until the study folder holds their
    override files (``Study.placed``)."""

    loaded = frozenset({"digest", "sweep", "value"})
    name: Name
    description: str = ""
    components: Folder
    digest: str = ""  # the component set's (loaded)
    sweep: str | None = None  # the sweep it is a value of (loaded)
    value: int | None = None


def _values(value: list[int]) -> list[int]:
    for i, v in enumerate(value):
        if v in value[:i]:
            raise ValueError(f"lists {v} twice")
    return value


class Sweep(Table):
    """A sweep (``[[sweep]]``): one component value tried over a list, each value a variant,
    declared once. ``cdsim.study.sweeps.expand`` resolves it: ``base`` as written to the
    override files ("default" or the base set's absolute path), the key's value in the base,
    the base's digest and each value's override text and merged digest. Dumped
    (``model_dump``) it is the manifest's account of the sweep, with its variants' names.
    ``cdsim whatif`` makes one without a file (``model_construct``: its values are checked
    as overrides)."""

    loaded = frozenset({"base_value", "base_digest", "texts", "digests"})
    name: Name
    description: str = ""
    entry: Annotated[str, Field(min_length=1)]  # table.id: objective.B05
    key: Annotated[str, Field(min_length=1)]  # dotted, inside the entry: reward.vp
    values: Annotated[list[Annotated[int, Field(ge=-10_000, le=10_000)]],
                      Field(min_length=1, max_length=50), AfterValidator(_values)]
    base: Folder | None = None  # default: the study's components
    base_value: int | None = None  # the key's value in the base (loaded)
    base_digest: str = Field(default="", exclude=True)
    texts: tuple[str, ...] = Field(default=(), exclude=True)  # each value's override file
    digests: tuple[str, ...] = Field(default=(), exclude=True)  # each value's merged set's

    @computed_field  # type: ignore[prop-decorator]
    @property
    def variants(self) -> list[str]:
        """Its variants' names: NAME=VALUE."""
        return [f"{self.name}={value}" for value in self.values]

    def value_variants(self) -> tuple[Variant, ...]:
        """Each value as the variant cells hold (NAME=VALUE: not a file's name, so made
        without the file's checks), its components "" until placed."""
        return tuple(Variant.model_construct(name=name, description=self.description,
                                             components="", digest=digest, sweep=self.name,
                                             value=value)
                     for name, value, digest in zip(self.variants, self.values, self.digests,
                                                    strict=True))

    def identity(self) -> dict[str, str]:
        """What --resume checks (the values are the cells': one may be added)."""
        return {"name": self.name, "entry": self.entry, "key": self.key,
                "base": self.base_digest}


class CellFile(Table):
    players: Annotated[int, Field(ge=min(PLAYER_COUNTS), le=max(PLAYER_COUNTS))]
    population: str
    games: Games | None = None  # default: the population's
    first_stage: Games | None = None


class StudySettings(BaseModel):
    """A study's statistical settings, declared once: the study file's keys (``StudyFile``)
    and the manifest's record of them (``StudyManifest``), each with its range, flat in
    both files. ``Study.identity`` and the manifest read them from here."""

    seed: Annotated[int, Field(ge=0, le=2**62)] = 0
    radius: Annotated[int, Field(ge=0, le=10)] = 6
    tolerance: Annotated[float, AfterValidator(_tolerance)] = 0.02
    zone: float = ZONE  # the indifference zone around the tolerance (anytime)
    # a confirmed cell plays on until its name is shown within the zone of the most equal
    # candidate (anytime.decide's naming; dear where two vectors are near-tied)
    name_within_zone: bool = False
    alpha: Annotated[float, Field(gt=0, lt=0.5), AfterValidator(_alpha)] = 0.05
    tested: Annotated[int, Field(ge=1, le=20)] = 3

    @field_validator("zone")
    @classmethod
    def _zone(cls, value: float, info: ValidationInfo) -> float:
        why = zone_problem(value, info.data.get("tolerance", 0.02))
        if why:
            raise ValueError(why)
        return value

    @field_validator("name_within_zone")
    @classmethod
    def _naming(cls, value: bool, info: ValidationInfo) -> bool:
        if value and not info.data.get("zone", ZONE):
            raise ValueError("name_within_zone needs a zone above 0 (without one a near-tied "
                             "name may never be shown)")
        return value

    def settings_identity(self) -> dict[str, object]:
        """The settings a study's identity holds: the zone and the naming only when set
        (a study made before either keeps its identity; zone = 0 in its file resumes it
        under its rule, a folder made before the zone is refused naming it)."""
        return self.model_dump(include=set(StudySettings.model_fields) - {
            *(() if self.zone else ("zone",)),
            *(() if self.name_within_zone else ("name_within_zone",))})


def _study_game(value: str) -> str:
    game_spec(value, None)  # an unknown game: its own sentence, did-you-mean
    return value


class StudyFile(Table, StudySettings):
    gone = GONE
    name: Name
    description: str = ""
    # the game studied (cdsim.games); its players name that game's players
    game: Annotated[str, AfterValidator(_study_game)] = DEFAULT_GAME
    games: Games | None = None  # default: each cell's worst case (anytime.worst_case_games)
    first_stage: Games | None = None  # default: about games / 64
    # a time budget: cdsim study run stops at the first chunk boundary after it (--minutes)
    minutes: Annotated[float, Field(ge=0, le=7 * 24 * 60, allow_inf_nan=False)] | None = None
    players: Annotated[tuple[int, ...], BeforeValidator(lambda v: (v,) if isinstance(v, int)
                                                         else _tuple(v)),
                       AfterValidator(_players)] = PLAYER_COUNTS
    # by player count; default: the rulebook's (the game's GameSpec.start_vp)
    start_vp: dict[str, list[int]] = Field(default_factory=dict)
    chunk_size: Annotated[int, Field(ge=1, le=MAX_CHUNK_SIZE)] = 1000
    strategy_params: str | None = None
    components: Folder | None = None
    population: Annotated[tuple[Population, ...], BeforeValidator(_tuple)] = ()
    variant: list[Variant] = Field(default_factory=list)
    sweep: list[Sweep] = Field(default_factory=list)
    cell: list[CellFile] = Field(default_factory=list)
    # the components whose use every run of the study records (`cdsim whatif` writes the
    # entries its changes name: "part.3", "villa_table", "cards.farm"; cdsim.batch.uses)
    watch: list[str] = Field(default_factory=list)

    @model_validator(mode="before")
    @classmethod
    def _game_counts(cls, data: Any) -> Any:
        """``players`` left out: every count of the study's game, not of every game."""
        if not isinstance(data, dict) or "players" in data or not isinstance(
                data.get("game", DEFAULT_GAME), str):
            return data
        try:
            counts = game_spec(data.get("game", DEFAULT_GAME), None).player_counts
        except CdsimError:
            return data  # an unknown game: its own sentence, from its own key
        return {**data, "players": list(counts)}

    @field_validator("start_vp")
    @classmethod
    def _start_vp(cls, value: dict[str, list[int]], info: ValidationInfo
                  ) -> dict[str, list[int]]:
        players = info.data.get("players", [])
        for key, vector in value.items():
            if key not in {str(p) for p in players}:
                raise ValueError(f"{key!r} is not one of the studied player counts {list(players)}")
            if len(vector) != int(key):
                raise ValueError(f"{key} players need {key} integers, got {vector!r}")
        return value

    @model_validator(mode="after")
    def _across(self) -> StudyFile:
        if not self.population:
            raise ValueError("a study needs at least one [[population]] (name, lineup)")
        self._settings()
        for kind, names in (("population", [p.name for p in self.population]),
                            ("variant", [v.name for v in self.variant]),
                            ("sweep", [w.name for w in self.sweep])):
            for i, name in enumerate(names):
                if name in names[:i]:
                    raise ValueError(f"{kind} {name!r}: a {kind} of this name comes twice")
        game = game_spec(self.game)
        for pop in self.population:
            for player in pop.strategies():
                game.check_player(player, f"population {pop.name!r}")
            # a count the game does not take is said by load_study (GameSpec.check_players)
            for p in (p for p in self.players if p in game.player_counts):
                if 1 < len(pop.lineup) < p:
                    raise ValueError(f"population {pop.name!r}: lineup names {len(pop.lineup)} "
                                     f"strategies, fewer than the {p} seats of a {p}-player game "
                                     f"(give one name for every seat, at least {p}, or lineups = "
                                     "[[...]])")
                if pop.lineups and not any(len(x) == p for x in pop.lineups):
                    raise ValueError(f"population {pop.name!r}: lineups has no line-up of {p} "
                                     "players")
        populations = [p.name for p in self.population]
        for i, cell in enumerate(self.cell):
            if cell.players not in self.players:
                raise ValueError(f"cell {i + 1}: players = {cell.players} is not one of the "
                                 f"studied player counts {list(self.players)}")
            if cell.population not in populations:
                raise ValueError(f"cell {i + 1}: population {cell.population!r} is not one of "
                                 f"the study's ({', '.join(populations)})")
        return self


    def _settings(self) -> None:
        """The statistical settings together (each key's own range is checked on its own):
        a tolerance that leaves room for the zone, even the default one, and a zone that
        can end a cell of each player count at this alpha."""
        given = "zone" in self.model_fields_set
        if zone_problem(self.zone, self.tolerance):
            raise ValueError(
                f"tolerance = {self.tolerance:g} leaves no room for the zone ({self.zone:g}"
                f"{'' if given else ', the default'}): give a zone below the tolerance (e.g. "
                f"zone = {self.tolerance / 4:g}), or zone = 0")
        reach = zone_reach_problem(self.zone, self.alpha, self.players)
        if reach:
            raise ValueError(f"zone = {self.zone:g} {reach}")


def shipped() -> dict[str, Path]:
    """Every game's shipped studies by the name `cdsim study run NAME` takes
    (``GameSpec.studies``: ``default``, ``castles``, ...)."""
    return {name: path for spec in GAMES.values() for name, path in spec.studies.items()}


def resolve(arg: str | Path) -> Path:
    """A study file: a path, or the name of a shipped study (``default``)."""
    path = Path(arg)
    if path.exists() or path.suffix:
        return path
    studies = shipped()
    if path.name in studies:
        return studies[path.name]
    raise CdsimError(f"{arg}: no such study file (shipped studies: {', '.join(sorted(studies))})")


def templates() -> dict[str, Path]:
    """`cdsim study init FILE --template NAME`'s study files by name: every game's templates
    (``GameSpec.templates``: ``default``, ``card``, ``castles-change``, ...) and each game's
    shipped study by the game's name (``GameSpec.study``: ``castles``; the default game's is
    the default study), each with the override files its variants name (relative to it)."""
    offered = {name: path for spec in GAMES.values() for name, path in spec.templates.items()}
    return {**offered, **{spec.name: spec.study for spec in GAMES.values()
                          if spec.study is not None}}


def write_template(path: Path, template: str = "default") -> None:
    """``cdsim study init``: a study file to edit, named after the file (its folder is then
    studies/NAME, not the template's): ``default``, the shipped default study with a
    commented sweep; ``card``, a one-card test, written with its variant's override file
    (beside it, where the study names it); ``sweep``, a one-key sweep; ``castles-change``,
    a one-component test of The Castles of Tuscany, with its JSON override; a game's name,
    that game's shipped study (the default game's: ``default``). A game's shipped study
    gets the game's commented ``[[sweep]]`` (``Sweeps.study_example``), where it has sweeps.
    Nothing is written when a file is in the way."""
    known = templates()
    source = known.get(template)
    if source is None:
        raise CdsimError(f"unknown template {user_text(template, repr, 40)} (templates: "
                         f"{', '.join(sorted(known))})")
    if path.exists():
        raise CdsimError(f"{path} exists: choose another file name")
    name = re.sub(r"[^A-Za-z0-9_-]", "-", path.stem)[:40].strip("-") or "study"
    text = re.sub(r'^name = "[^"\n]*"', f'name = "{name}"', source.read_text(), count=1,
                  flags=re.M)
    example = next((spec.sweeps.study_example for spec in GAMES.values()
                    if spec.study == source and spec.sweeps is not None), None)
    if example is not None:  # shown beside the variant example (the study has no sweep)
        variant = re.search(r'^# components = "variants/.*\n', text, flags=re.M)
        at = variant.end() if variant else len(text)
        text = text[:at] + example + text[at:]
    extra = {}
    for variant in tomllib.loads(text).get("variant", []):
        rel = str(variant["components"])
        extra[path.parent / rel] = (source.parent / rel).read_text()
    for file, body in extra.items():
        if file.exists() and _text(file) != body:
            raise CdsimError(f"{file} exists (the {template} template's variant writes it): "
                             "move it, or write the study file in another folder")
    try:
        for file, body in extra.items():
            file.parent.mkdir(parents=True, exist_ok=True)
            file.write_text(body)
        path.write_text(text)
    except OSError as exc:
        raise CdsimError(f"{path}: cannot write it ({exc.strerror or exc})") from None


def _text(file: Path) -> str | None:
    """A file's text; None when it is not a UTF-8 text file (a folder, bytes, unreadable)."""
    try:
        return file.read_text()
    except (OSError, UnicodeDecodeError):
        return None


def parse(path: Path, raw: dict[str, Any]) -> StudyFile:  # a TOML document: StudyFile checks it here
    """The study file's tables, checked; else one line naming the file, the entry and the
    key."""
    if "base" in raw:  # `base` starts a component override, never a study file
        raise CdsimError(f"{path}: a component override (base = {user_text(raw['base'], repr, 40)}), "
                         "not a study file: give it to a study as a [[variant]]'s components "
                         f"= \"{path.name}\", or to a command as --components {path} "
                         "(cdsim study init FILE --template card writes such a study)")
    try:
        return StudyFile.model_validate(raw)
    except ValidationError as exc:
        entries = {"population": "population", "variant": "variant", "cell": "cell",
                   "sweep": "sweep"}
        raise CdsimError(f"{path}: {problem(exc, StudyFile, raw, entries)}") from None
