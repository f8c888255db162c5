"""A game's players as shared code sees them (issue 60): a player as a command names it,
parsed once (``PlayerSpec``), and the hook each game's spec declares for its players
(``Roster``, ``GameSpec.roster``): how its names and settings are parsed and checked, how
its built-in players reach the core, whether users' Python strategies sit at its tables,
and what a folder records of the players it was played with (``cdsim.games.played``). The
batch, the study, the ladder and the commands read a game's players through its roster and
never import a game's own modules.

Each game declares its own roster: Carpe Diem's (settings, learned weights, profiles files,
users' strategies) in ``cdsim/games/carpe_diem/roster.py``; a game whose players are its
core registry's names without settings shares ``cdsim.games.core_players.CoreRoster``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, Protocol

from cdsim.players.loading import did_you_mean as did_you_mean

if TYPE_CHECKING:
    from cdsim.games.played import ProfilesRecord

# strategies/ holds the data a person edits (profiles, weights, ratings); it is read as
# files, never imported: nothing in cdsim imports the strategies package.
STRATEGIES_DIR = Path(__file__).resolve().parents[2] / "strategies"

# --strategy-params as parsed: each built-in name's parameters
Overrides = dict[str, dict[str, float]]


def _number(value: float) -> str:
    """A setting's value as the canonical spelling writes it: ``1`` for 1.0, else repr."""
    return str(int(value)) if value.is_integer() and abs(value) < 1e15 else repr(value)


@dataclass(frozen=True)
class PlayerSpec:
    """A player as a command names it, parsed once by its game's roster (``Roster.parse``):
    a built-in (``kind == "builtin"``: ``base`` its name, ``settings`` its own ``@``
    settings sorted by name, ``weights`` the file of ``learned@weights=PATH``) or a user's
    strategy (``"user"``: ``base`` is ``package.module:ClassName`` or
    ``/absolute/path/file.py:ClassName``, which is then its spelling too: a relative path
    names another file in another folder). Two spellings of one player are equal
    (``villa@chimney=1``, ``villa@chimney=1.0``); ``str()`` is the canonical spelling,
    ``spelling`` the one the user wrote, which rows and manifests keep. Parsing reads no
    file and imports nothing: the values travel to the workers pickled."""

    kind: Literal["builtin", "user"]
    base: str
    settings: tuple[tuple[str, float], ...] = ()
    weights: str | None = None
    spelling: str = field(default="", compare=False)

    def __post_init__(self) -> None:
        if not self.spelling:
            object.__setattr__(self, "spelling", str(self))

    def __str__(self) -> str:
        own = [(k, _number(v)) for k, v in self.settings]
        own += [("weights", self.weights)] if self.weights is not None else []
        return "@".join([self.base, *(f"{k}={v}" for k, v in sorted(own))])

    @property
    def builtin(self) -> bool:
        return self.kind == "builtin"

    @classmethod
    def parse(cls, text: str) -> PlayerSpec:
        """A player of the default game as its roster parses it, for a command or record
        that names no game (a game's own: ``GameSpec.parse_player``)."""
        return DEFAULT_ROSTER[0].parse(text)


class PlayedGame(Protocol):
    """A game played at a table with Python seats, as its rows."""

    def rows(self) -> list[dict[str, object]]: ...

    def card_rows(self) -> list[dict[str, object]]: ...


class SeatTable(Protocol):
    """One game at a table where a user's Python strategy sits (``Roster.table``)."""

    def play(self) -> PlayedGame: ...

    def decisions(self) -> int:
        """The decisions taken so far (where a failing strategy stopped the game)."""
        ...


# the default game's roster, set by cdsim.games as it registers the games (this module is
# below them: it names no game)
DEFAULT_ROSTER: list[Roster] = []


class Roster(Protocol):
    """A game's players, as its spec declares them (``GameSpec.roster``): every method a
    game's roster has, a no-op where the game has no such thing (no settings, no profiles
    file, no learned weights)."""

    @property
    def python(self) -> bool:
        """Whether users' Python strategies may sit at its tables."""
        ...

    def parse(self, text: str) -> PlayerSpec:
        """A player as spelled (``villa@chimney=1.5``, ``mod:Class``), or one CdsimError
        line (no flag: the caller names it)."""
        ...

    def check(self, spec: PlayerSpec, flag: str) -> None:
        """``spec`` is one of its players (a name another game's roster parsed is not), or a
        CdsimError naming ``flag``."""
        ...

    def load(self, spec: PlayerSpec) -> None:
        """Make the player once now (a user's module imported, learned weights read), so
        that one that cannot be made fails before anything is written: one line."""
        ...

    def parse_params(self, text: str | None) -> Overrides:
        """``--strategy-params`` checked (``villa.chimney=1.5,...``), or one CdsimError line
        starting ``--strategy-params: ``."""
        ...

    def core(self) -> Any:
        """The compiled core ready to play its built-in players (``cdsim._core``; None: not
        installed)."""
        ...

    def overrides(self, spec: PlayerSpec, params: Overrides) -> dict[str, float]:
        """The parameters the core's player of a built-in ``spec`` is made with."""
        ...

    def table(self, components: str | None, lineup: Sequence[PlayerSpec], params: Overrides,
              seed: int, setup: int, start_vp: tuple[int, ...], *, where: str,
              decision_timeout: float | None,
              watch: Callable[[str | None], None] | None) -> SeatTable:
        """One game where a user's Python strategy sits (a run's ``table`` engine)."""
        ...

    def reads_scores(self, players: Sequence[PlayerSpec]) -> dict[str, bool]:
        """Whether each player reads VP totals, by spelling: never a built-in (by each
        game's rules: no built-in lets the starting VP change a decision)."""
        ...

    def weights(self, players: Sequence[PlayerSpec], components: str | Path | None
                ) -> dict[str, dict[str, str]]:
        """The learned players' weights files and digests a manifest records, checked to
        play this component set ({}: none plays)."""
        ...

    def profiles(self, players: Sequence[PlayerSpec]) -> ProfilesRecord | None:
        """The scripted players' tables a new folder records, when one is not the shipped
        one (None: nothing to record)."""
        ...

    def keep(self, folder: Path, record: ProfilesRecord | None) -> None:
        """A new folder's copy of the players' file it records (none: no copy kept)."""
        ...

    def changed(self, where: Path, before: ProfilesRecord | None,
                now: ProfilesRecord | None) -> None:
        """Refuse to go on with a folder whose scripted players now play otherwise."""
        ...

    def adopt(self, where: Path, record: ProfilesRecord | None) -> None:
        """Before a folder's players are read (``where``: its manifest): play the tables
        it recorded."""
        ...

    def differs(self, record: ProfilesRecord | None, other: ProfilesRecord | None
                ) -> str | None:
        """The first scripted player the two records play otherwise (None: the shipped
        tables), or None."""
        ...

    def replay_env(self, players: Sequence[PlayerSpec]) -> str | None:
        """The variable a command replaying these players in another process needs
        (``CDSIM_PROFILES=...``), or None."""
        ...

    def kept_env(self, folder: Path) -> str:
        """The variable that plays the copy a folder kept of its players' file."""
        ...


__all__ = ["STRATEGIES_DIR", "Overrides", "PlayedGame", "PlayerSpec", "Roster", "SeatTable",
           "did_you_mean"]
