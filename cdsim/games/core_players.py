"""The roster of a game whose players are its core registry's names
(``cdsim.games.players.Roster``): built-in players taking no settings, no parameters, no
profiles file and no learned weights, beside users' Python strategies for the game
(``cdsim.games.strategy``: ``module:Class`` or ``path/to/file.py:Class``, played at a table
on the core, ``cdsim.games.seam_table``). The Castles of Tuscany and the Mediterranean
declare it (``CoreRoster(NAME, players, load_components)``)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

from cdsim import core
from cdsim.errors import CdsimError
from cdsim.games.features import PROFILES_COPY
from cdsim.games.players import Overrides, PlayerSpec, SeatTable, did_you_mean
from cdsim.games.strategy import GameStrategy, refusal
from cdsim.players.loading import made_by_user, user_base

if TYPE_CHECKING:
    from cdsim.games.played import ProfilesRecord


# the component sets the core holds for this process's tables, by (game, path)
_SETS: dict[tuple[str, str | None], Any] = {}


@dataclass(frozen=True)
class CoreRoster:
    """Players of game ``name``: the names ``names()`` lists (its core registry's), and
    users' strategies for it; ``components`` loads its component set for the core."""

    name: str
    names: Callable[[], tuple[str, ...]]
    components: Callable[[str | None], Any]

    @property
    def python(self) -> bool:
        return True

    def _known(self) -> str:
        return ", ".join(self.names())

    def _unknown(self, name: str) -> NoReturn:
        raise CdsimError(f"{name!r} is not a {self.name} player (known: {self._known()})"
                         f"{did_you_mean(name, self.names())}")

    def _no_settings(self, spelled: str) -> NoReturn:
        raise CdsimError(f"{spelled!r}: {self.name} players take no settings")

    def parse(self, text: str) -> PlayerSpec:
        spelled = text.strip()
        name, at, _ = spelled.partition("@")
        if ":" in name:  # a user's strategy (module:Class, file.py:Class)
            if at:
                raise CdsimError(f"strategy {spelled!r}: name@setting works for built-in "
                                 f"players only (known: {self._known()})")
            base = user_base(spelled, self.names())
            return PlayerSpec("user", base, (), None, base)
        if name not in self.names():
            self._unknown(name)
        if at:
            self._no_settings(spelled)
        return PlayerSpec("builtin", name, (), None, spelled)

    def check(self, spec: PlayerSpec, flag: str) -> None:
        """A player another roster parsed (a record that names no game is read by the
        default game's): one of these names, without settings."""
        if not spec.builtin:
            return  # a user's strategy: which game it is for is read when it is made (load)
        try:
            if spec.base not in self.names():
                self._unknown(spec.base)
            if spec.settings or spec.weights:
                self._no_settings(spec.spelling)
        except CdsimError as exc:
            raise CdsimError(f"{flag}: {exc}") from None

    def load(self, spec: PlayerSpec) -> None:
        if not spec.builtin:  # the core makes its players by name: only a user's to load
            self.make(spec)

    def make(self, spec: PlayerSpec) -> GameStrategy:
        """A fresh instance of a user's strategy for this game: its import and construction
        run its code, in the sandbox; whatever fails, and a strategy of another game or
        form, is one line naming it as spelled."""
        made: GameStrategy = made_by_user(spec.spelling, spec.base,
                                          lambda strategy: refusal(strategy, self.name))
        return made  # checked by refusal

    def parse_params(self, text: str | None) -> Overrides:
        if text:
            raise CdsimError(f"--strategy-params: {self.name} players take no parameters")
        return {}

    def core(self) -> Any:
        return core.module()

    def overrides(self, spec: PlayerSpec, params: Overrides) -> dict[str, float]:
        return {}

    def table(self, components: str | None, lineup: Sequence[PlayerSpec], params: Overrides,
              seed: int, setup: int, start_vp: tuple[int, ...], *, where: str,
              decision_timeout: float | None,
              watch: Callable[[str | None], None] | None) -> SeatTable:
        from cdsim.games.seam_table import SeamTable

        strategies = [None if spec.builtin else self.make(spec) for spec in lineup]
        key = (self.name, components)
        if key not in _SETS:  # a run's games are of one set: loaded once a process
            _SETS[key] = self.components(components)
        return SeamTable(self.name, _SETS[key], lineup, strategies, seed,
                         setup, start_vp, lambda spec: {}, where=where,
                         decision_timeout=decision_timeout, watch=watch)

    def reads_scores(self, players: Sequence[PlayerSpec]) -> dict[str, bool]:
        # built-ins never do, and a user's cannot read the starting VP: no observation holds
        # them (the core's Game::observe; tests/test_seam_strategies.py)
        return dict.fromkeys((p.spelling for p in players), False)

    def weights(self, players: Sequence[PlayerSpec], components: str | Path | None
                ) -> dict[str, dict[str, str]]:
        return {}

    def profiles(self, players: Sequence[PlayerSpec]) -> ProfilesRecord | None:
        return None

    def keep(self, folder: Path, record: ProfilesRecord | None) -> None:
        # a folder started over keeps no copy of another run's players' file
        (folder / PROFILES_COPY).unlink(missing_ok=True)

    def changed(self, where: Path, before: ProfilesRecord | None,
                now: ProfilesRecord | None) -> None:
        return None

    def adopt(self, where: Path, record: ProfilesRecord | None) -> None:
        return None

    def differs(self, record: ProfilesRecord | None, other: ProfilesRecord | None
                ) -> str | None:
        return None

    def replay_env(self, players: Sequence[PlayerSpec]) -> str | None:
        return None

    def kept_env(self, folder: Path) -> str:
        raise CdsimError(f"{folder}: {self.name} keeps no players' file")


__all__ = ["CoreRoster"]
