"""The roster of a game whose players are its core registry's names and nothing else
(``cdsim.games.players.Roster``): built-in players taking no settings, no parameters, no
profiles file and no learned weights, and no users' Python strategies. The Castles of
Tuscany and the Mediterranean declare it (``CoreRoster(NAME, players)``)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

from cdsim import core
from cdsim.errors import CdsimError
from cdsim.games.features import PROFILES_COPY
from cdsim.games.players import Overrides, PlayerSpec, SeatTable, did_you_mean

if TYPE_CHECKING:
    from cdsim.games.played import ProfilesRecord


@dataclass(frozen=True)
class CoreRoster:
    """Players of game ``name``: the names ``names()`` lists (its core registry's)."""

    name: str
    names: Callable[[], tuple[str, ...]]

    @property
    def python(self) -> bool:
        return False

    def _known(self) -> str:
        return ", ".join(self.names())

    def _only_builtin(self, spelled: str) -> NoReturn:
        raise CdsimError(f"{spelled!r}: {self.name} is played by its built-in players only "
                         f"(known: {self._known()})")

    def _unknown(self, name: str) -> NoReturn:
        raise CdsimError(f"{name!r} is not a {self.name} player (known: {self._known()})"
                         f"{did_you_mean(name, self.names())}")

    def _no_settings(self, spelled: str) -> NoReturn:
        raise CdsimError(f"{spelled!r}: {self.name} players take no settings")

    def parse(self, text: str) -> PlayerSpec:
        spelled = text.strip()
        name, at, _ = spelled.partition("@")
        if ":" in name:  # a user's strategy (module:Class, file.py:Class)
            self._only_builtin(spelled)
        if name not in self.names():
            self._unknown(name)
        if at:
            self._no_settings(spelled)
        return PlayerSpec("builtin", name, (), None, spelled)

    def check(self, spec: PlayerSpec, flag: str) -> None:
        """A player another roster parsed (a record that names no game is read by the
        default game's): one of these names, without settings."""
        try:
            if not spec.builtin:
                self._only_builtin(spec.spelling)
            if spec.base not in self.names():
                self._unknown(spec.base)
            if spec.settings or spec.weights:
                self._no_settings(spec.spelling)
        except CdsimError as exc:
            raise CdsimError(f"{flag}: {exc}") from None

    def load(self, spec: PlayerSpec) -> None:
        return None  # the core makes its players by name: nothing to load

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
        raise CdsimError(f"{where}: {self.name} is played by its built-in players only, on "
                         "the core")

    def reads_scores(self, players: Sequence[PlayerSpec]) -> dict[str, bool]:
        return dict.fromkeys((p.spelling for p in players), False)  # built-ins never do

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
