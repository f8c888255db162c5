"""A run's configuration, declared once (``RunConfig``, a pydantic model): what determines
its rows, the chunk plan, and the limits a run must fit in. The same model reads the
flags of ``cdsim simulate``, a run file (``--config``) and a run manifest's ``config``,
and writes the manifest; a problem is one line naming the flag, the file's key or the
manifest's key (``problem_line``).

Reproducibility contract: game ``g`` of a run with seed ``S`` deals setup ``g // N``
(with --rotate-seats, N = players; else setup = g) from the core's seed ``(S, setup)``
(core/src/rng.rs); chunks are fixed ranges of game ids (``chunk_size``), independent of
``--jobs``. So the rows are the same for any --jobs, backend, completion order, or
kill-and-resume history (only the driver writes: cdsim.batch.folder).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any, Literal, Self

import numpy as np
from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    PlainSerializer,
    PlainValidator,
    SerializerFunctionWrapHandler,
    ValidationError,
    ValidationInfo,
    field_validator,
    model_serializer,
    model_validator,
)

from cdsim import core
from cdsim.errors import CdsimError, user_text
from cdsim.games import (
    DEFAULT_GAME,
    PLAYER_COUNTS,
    GameSpec,
    counts_said,
    game_spec,
    without_default_game,
)
from cdsim.games.players import PlayerSpec
from cdsim.players.sandbox import check_decision_timeout, decision_timeout
from cdsim.schema import problem

# What one run may ask for: its rows (games x players, about 300 bytes each on disk) and
# its chunk list (held in memory and in the manifest) must fit this machine.
MAX_GAMES = 100_000_000
MAX_CHUNK_SIZE = 100_000
MAX_CHUNKS = 100_000
MAX_START_VP = 1_000_000  # |starting VP| (the core holds VP as 32-bit integers)
MAX_JOBS = 256


def check_jobs(jobs: int, flag: str = "--jobs") -> int:
    """A worker count joblib takes: -1 (every core) or 1..MAX_JOBS, or one error line."""
    if jobs != -1 and not 1 <= jobs <= MAX_JOBS:
        raise CdsimError(f"{flag} must be a number of workers between 1 and {MAX_JOBS}, "
                         f"or -1 for every core, got {_cut(jobs)}")
    return jobs


def _cut(value: object) -> str:
    text = str(value)
    return text if len(text) <= 40 else text[:37] + "..."


# -- the value types a record holds -----------------------------------------------------

def integers(text: str) -> tuple[int, ...]:
    """``"8,9,10"`` -> (8, 9, 10); a blank, an empty item or a non-integer is refused."""
    items = [x.strip() for x in text.split(",")]
    try:
        if all(items):
            return tuple(int(x) for x in items)
    except ValueError:
        pass
    raise ValueError(f"must be comma-separated integers, got {user_text(text, repr, 60)}")


def _names(value: Any) -> Any:
    """Strategy names as flags and run files give them: ``"a,b"`` or a list of names."""
    if isinstance(value, str):
        items = tuple(x.strip() for x in value.split(","))
        if not all(items):
            raise ValueError(f"names an empty strategy: {user_text(value, repr, 60)}")
        return items
    return tuple(value) if isinstance(value, list) else value


# A validator's problem: a ValueError says what follows the key ("must be 2, 3 or 4, got
# 5"); a CdsimError is a sentence of its own ("unknown strategy 'x' ..."), which
# ``problem_line`` puts after the key and a colon.
sentence = CdsimError


def _player(value: Any, info: ValidationInfo) -> PlayerSpec:
    if isinstance(value, PlayerSpec):
        return value
    if not isinstance(value, str):
        raise ValueError(f"must name strategies, got {user_text(value, repr, 60)}")
    # the record's game's roster (one that names no game, a study's population: the default
    # game's, whose roster knows every game's built-in names; the study checks whose it is)
    return game_spec(info.data.get("game"), None).roster.parse(value)  # CdsimError: a sentence


# A player as records hold it: parsed once into a PlayerSpec by its game's roster, written as
# the user spelled it.
Player = Annotated[PlayerSpec, PlainValidator(_player),
                   PlainSerializer(lambda spec: spec.spelling, return_type=str)]
Players = Annotated[tuple[Player, ...], BeforeValidator(_names)]


def _vector(value: Any) -> Any:
    if isinstance(value, str):
        return integers(value)
    return tuple(value) if isinstance(value, list) else value


def _players(value: int, info: ValidationInfo) -> int:
    """One of the game's player counts (the record's ``game``, declared before it)."""
    counts = game_spec(info.data.get("game", DEFAULT_GAME), None).player_counts
    if value not in counts:
        raise ValueError(f"must be {counts_said(counts)}, got {_cut(value)}")
    return value


def _seed(value: int) -> int:
    if not 0 <= value < 2**63:  # the rows' seed column is a 64-bit integer
        raise ValueError(f"must be between 0 and 2**63 - 1, got {_cut(value)}")
    return value


def between(low: int, high: int, why: str = "") -> AfterValidator:
    def check(value: int) -> int:
        if not low <= value <= high:
            raise ValueError(f"must be between {low:,} and {high:,}{why}, got {_cut(value)}")
        return value

    return AfterValidator(check)


def _game(value: str) -> str:
    game_spec(value, None)  # a CdsimError: its own sentence
    return value


GameName = Annotated[str, AfterValidator(_game)]
PlayerCount = Annotated[int, AfterValidator(_players)]
Seed = Annotated[int, AfterValidator(_seed)]


def _params(value: str | None, info: ValidationInfo) -> str | None:
    try:  # each strategy.param=value checked, by the game's roster
        game_spec(info.data.get("game"), None).roster.parse_params(value)
    except CdsimError as exc:
        raise sentence(str(exc).removeprefix("--strategy-params: ")) from None
    return value


StrategyParams = Annotated[str | None, AfterValidator(_params)]


# -- the play settings, and the run's configuration -------------------------------------

class PlaySettings(BaseModel):
    """The settings every way of playing shares, declared once: a run (``RunConfig``), a
    ladder (``cdsim.ladder.Ladder``, each pairing a run) and, through the runs it plans, a
    study: the player count, the seed, the games per Parquet part, the strategies'
    parameters and the component set. Read from flags, files and manifests alike."""

    model_config = ConfigDict(strict=True, frozen=True, extra="forbid")

    # the game played (cdsim.games); written only when it is not the default, so that a
    # Carpe Diem run's records are what they were before there were other games
    game: GameName = DEFAULT_GAME
    players: PlayerCount
    seed: Seed
    chunk_size: Annotated[int, between(1, MAX_CHUNK_SIZE)] = 250
    strategy_params: StrategyParams = None
    components: str | None = None

    @classmethod
    def from_flags(cls, settings: dict[str, object]) -> Self:
        """The settings the flags name (or a study or ladder plans), or one line naming the
        setting as a flag."""
        try:
            return cls.model_validate(settings)
        except ValidationError as exc:
            raise CdsimError(problem_line(exc, cls, settings, flag)) from None

    @model_serializer(mode="wrap")
    def _written(self, write: SerializerFunctionWrapHandler) -> Any:
        return without_default_game(write(self))

    @property
    def spec(self) -> GameSpec:
        """The game's spec (cdsim.games)."""
        return game_spec(self.game)

    def record(self) -> dict[str, object]:
        """The manifest's record: players as spelled."""
        return self.model_dump(mode="json")


class RunConfig(PlaySettings):
    """Everything that determines a run's rows (written whole into the manifest)."""

    games: Annotated[int, between(1, MAX_GAMES, " (a run's rows must fit this machine's "
                                                 "memory and disk)")]
    strategies: Players = ()  # one per seat
    strategy_pool: Players = ()  # or a pool sampled per game
    start_vp: Annotated[tuple[int, ...], BeforeValidator(_vector)] = ()
    rotate_seats: bool = False
    components_digest: str = ""
    # a user strategy's time limit per decision (s; 0: none): recorded, not the run's
    # identity (--resume may change it); the process's --decision-timeout by default
    decision_timeout: float = Field(default_factory=decision_timeout)
    # the components whose use the run records (its uses/ parts: cdsim.batch.uses), as a
    # change names them ("part.3", "villa_table", "cards.farm"): the entries a whatif's
    # variants change, in its base's runs and theirs; written only when some are, so that
    # every other run's manifest is what it was
    watched: Annotated[tuple[str, ...], BeforeValidator(_vector)] = ()

    @model_serializer(mode="wrap")
    def _written(self, write: SerializerFunctionWrapHandler) -> Any:
        record = without_default_game(write(self))
        if isinstance(record, dict) and not record.get("watched", True):
            del record["watched"]
        return record

    @model_validator(mode="before")
    @classmethod
    def _fill_seats(cls, data: Any, info: ValidationInfo) -> Any:
        """From flags and run files, one strategy name fills every seat (as in `cdsim
        play`); a manifest holds one per seat."""
        if info.context and info.context.get("fill_seats") and isinstance(data, dict):
            try:
                names, players = _names(data.get("strategies", ())), data.get("players")
            except ValueError:  # said by the field's own check
                return data
            if isinstance(names, tuple) and len(names) == 1 and isinstance(players, int) \
                    and not isinstance(players, bool) and 0 < players <= max(PLAYER_COUNTS):
                data = {**data, "strategies": names * players}
        return data

    @field_validator("strategies")
    @classmethod
    def _one_per_seat(cls, value: tuple[PlayerSpec, ...], info: ValidationInfo
                      ) -> tuple[PlayerSpec, ...]:
        players = info.data.get("players")
        if value and players is not None and len(value) != players:
            raise ValueError(f"names {len(value)} strategies for {players} players (one per "
                             "seat)")
        return value

    @field_validator("start_vp")
    @classmethod
    def _start_vp(cls, value: tuple[int, ...], info: ValidationInfo) -> tuple[int, ...]:
        players = info.data.get("players")
        if value and players is not None and len(value) != players:
            raise ValueError(f"needs {players} values (one per seat), got {len(value)}")
        for vp in value:
            if abs(vp) > MAX_START_VP:
                raise ValueError(f"values must be integers between -{MAX_START_VP:,} and "
                                 f"{MAX_START_VP:,}, got {_cut(vp)}")
        return value

    @model_validator(mode="after")
    def _whole(self) -> RunConfig:
        if not self.strategies and not self.strategy_pool:
            raise sentence("give the players: --strategies (one per seat, or one name for "
                           "all) or --strategy-pool")
        if self.strategies and self.strategy_pool:
            raise sentence("give --strategies (one per seat) or --strategy-pool, not both")
        chunks = -(-self.games // self.chunk_size)
        if chunks > MAX_CHUNKS:
            raise sentence(f"--games {self.games} in chunks of {self.chunk_size} makes "
                           f"{chunks:,} chunks, at most {MAX_CHUNKS:,}: raise --chunk-size")
        if self.rotate_seats and self.games % self.players:
            raise sentence(f"--rotate-seats plays every setup in all {self.players} seat "
                           f"rotations: --games must be a multiple of {self.players}")
        check_decision_timeout(self.decision_timeout)
        spec = self.spec
        spec.check_players(self.players)
        for player in self.lineup:
            spec.check_player(player, "--strategy-pool" if self.strategy_pool else "--strategies")
        return self

    @classmethod
    def checked(cls, **values: Any) -> RunConfig:
        """A run a study or ladder plans, or one line naming the setting as a flag."""
        return cls.from_flags(values)

    @property
    def lineup(self) -> tuple[PlayerSpec, ...]:
        """Every player of the run: the seats' or the pool's."""
        return self.strategies or self.strategy_pool

    @property
    def starting_vp(self) -> tuple[int, ...]:
        """Each seat's starting VP: the run's, or its game's rulebook's."""
        return self.start_vp or self.spec.start_vp(self.players)

    def identity(self) -> dict[str, object]:
        """What must match for --resume to continue a run."""
        # the path may move (the digest is what matters); the time limit is how long a
        # strategy may think, not what it plays
        return self.model_dump(mode="json", exclude={"components", "decision_timeout"})


# What a run file (``cdsim simulate --config``) may hold: the settings a user gives.
RUN_FILE_KEYS = frozenset(RunConfig.model_fields) - {"components_digest", "decision_timeout",
                                                     "watched"} \
    | {"out"}


# -- one line per problem -----------------------------------------------------------------

def problem_line(exc: ValidationError, model: type[BaseModel], data: Any,
                 name: Callable[[str], str] = str) -> str:
    """The first problem of a record's validation on one line, the key named by ``name``
    (the flag, the file's key, the manifest's): ``--games must be between ...``, ``--strategies:
    unknown strategy ...``; a problem of the whole record as it is said."""
    err = exc.errors()[0]
    key = ".".join(str(x) for x in err["loc"] if isinstance(x, str))
    if err["type"] == "value_error":
        said = err["ctx"]["error"]
        if isinstance(said, CdsimError):
            return f"{name(key)}: {said}" if key else str(said)
        return f"{name(key)} {said}"
    line = problem(exc, model, data)  # "key must be ...": pydantic's own checks, in words
    return name(key) + line[len(key):] if key and line.startswith(key) else line


def flag(key: str) -> str:
    return "--" + key.replace("_", "-")


def lineup_for(config: RunConfig, game: int) -> tuple[int, list[PlayerSpec]]:
    """(setup id, players by seat) of one game of the run."""
    n = config.players
    setup = game // n if config.rotate_seats else game
    if config.strategy_pool:
        pool_rng = np.random.default_rng(np.random.SeedSequence(config.seed,
                                                                spawn_key=(setup, 1)))
        names = [config.strategy_pool[int(i)]
                 for i in pool_rng.integers(len(config.strategy_pool), size=n)]
    else:
        names = list(config.strategies)
    if config.rotate_seats:
        r = game % n
        names = names[r:] + names[:r]
    return setup, names


def replay_command(config: RunConfig, game: int) -> str:
    """The `cdsim play` command that replays one game of a run (``--game`` named when it is
    not Carpe Diem, whose commands read as they did before there were other games)."""
    setup, names = lineup_for(config, game)
    parts = ["cdsim play", *config.spec.game_flag(), f"--players {config.players}",
             f"--seed {config.seed}", f"--setup {setup}",
             f"--strategies {','.join(s.spelling for s in names)}"]
    if config.start_vp:
        parts.append(f"--start-vp {','.join(map(str, config.start_vp))}")
    if config.strategy_params:
        parts.append(f"--strategy-params {config.strategy_params}")
    if config.components:
        parts.append(f"--components {config.components}")
    # what its players need in another process (Carpe Diem: a profiles file of one's own)
    env = config.spec.roster.replay_env(names)
    return " ".join([env, *parts] if env is not None else parts)


def chunk_plan(config: RunConfig) -> list[tuple[int, int]]:
    k = config.chunk_size
    return [(i, min(i + k, config.games)) for i in range(0, config.games, k)]


# How a run plays on the core (``engine_for``), recorded in its manifest.
Engine = Literal["rust", "table"]


def engine_for(config: RunConfig) -> Engine:
    """How a run plays on the core: ``rust`` (the core alone, a chunk at a time) when every
    seat is a built-in player; ``table`` (a game at a time, the Python rules beside the
    core for the Python strategies' view: the game's ``Roster.table``) when a seat is a user's
    strategy. Without the core nothing plays: one line."""

    if not core.available():
        raise CdsimError("the compiled core (cdsim._core) is not installed: run `make "
                         "install` (it builds it with the Rust toolchain)")
    return "rust" if all(spec.builtin for spec in config.lineup) else "table"


__all__ = [
    "MAX_CHUNKS",
    "MAX_CHUNK_SIZE",
    "MAX_GAMES",
    "MAX_JOBS",
    "MAX_START_VP",
    "RUN_FILE_KEYS",
    "Engine",
    "PlaySettings",
    "Player",
    "Players",
    "RunConfig",
    "check_jobs",
    "chunk_plan",
    "engine_for",
    "flag",
    "integers",
    "lineup_for",
    "problem_line",
    "replay_command",
    "sentence",
]
