"""Carpe Diem's players as its spec declares them (``cdsim.games.players.Roster``): its
registry's names and settings (``players/registry.py``), its scripted players' profiles
file and what a folder records of it (``players/profiles.py``, ``players/played.py``), the
learned player's weights, and users' Python strategies at a table on the core
(``engine/table.py``). Shared code reaches them here, through ``GameSpec.roster``."""

from __future__ import annotations

import shlex
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cdsim.errors import CdsimError
from cdsim.games.carpe_diem.players import profiles, registry
from cdsim.games.features import PROFILES_COPY
from cdsim.games.players import Overrides, PlayedGame, PlayerSpec, did_you_mean

if TYPE_CHECKING:
    from cdsim.games.played import ProfilesRecord



@dataclass
class _Seated:
    """A game at a table on the core with a user's Python strategy seated
    (``engine.table.Table``)."""

    table: Any  # cdsim.games.carpe_diem.engine.table.Table (imported when a table is made)

    def play(self) -> PlayedGame:
        record: PlayedGame = self.table.play()
        return record

    def decisions(self) -> int:
        return int(self.table.core.decisions)


@dataclass(frozen=True)
class CarpeDiemRoster:
    """Carpe Diem's players: built-in names with settings (``villa@chimney=1.5``,
    ``mcts@1000``, ``learned@weights=PATH``), and users' strategies (``mod:Class``)."""

    name: str  # the game's

    @property
    def python(self) -> bool:
        return True

    def parse(self, text: str) -> PlayerSpec:
        return registry.parse(text)

    def check(self, spec: PlayerSpec, flag: str) -> None:
        # its registry also parses another game's built-in names (that game's run checks
        # them): here such a name is not a Carpe Diem player
        if spec.base in registry.other_games_players():
            known = registry.known_names()
            raise CdsimError(f"{flag}: {spec.base!r} is not a {self.name} player (known: "
                             f"{', '.join(known)}){did_you_mean(spec.base, known)}")

    def load(self, spec: PlayerSpec) -> None:
        registry.make_strategy(spec)

    def parse_params(self, text: str | None) -> Overrides:
        return registry.parse_params(text)

    def core(self) -> Any:
        return profiles.core_profiles()  # its scripted players are the profiles file's

    def overrides(self, spec: PlayerSpec, params: Overrides) -> dict[str, float]:
        return registry.player_overrides(spec, params)

    def table(self, components: str | None, lineup: Sequence[PlayerSpec], params: Overrides,
              seed: int, setup: int, start_vp: tuple[int, ...], *, where: str,
              decision_timeout: float | None,
              watch: Callable[[str | None], None] | None) -> _Seated:
        from cdsim.games.carpe_diem.engine.table import Table

        made = registry.make_lineup(lineup, len(lineup), params)
        return _Seated(Table(components, made, seed, setup, start_vp, where=where,
                             decision_timeout=decision_timeout, watch=watch))

    def reads_scores(self, players: Sequence[PlayerSpec]) -> dict[str, bool]:
        return registry.reads_scores(players)

    def weights(self, players: Sequence[PlayerSpec], components: str | Path | None
                ) -> dict[str, dict[str, str]]:
        return registry.weights_record(players, components)

    def profiles(self, players: Sequence[PlayerSpec]) -> ProfilesRecord | None:
        from cdsim.games.carpe_diem.players import played  # pydantic: a folder's commands only

        return played.profiles_record(players)

    def keep(self, folder: Path, record: ProfilesRecord | None) -> None:
        from cdsim.games.carpe_diem.players import played  # pydantic: a folder's commands only

        played.keep(folder, record)

    def changed(self, where: Path, before: ProfilesRecord | None,
                now: ProfilesRecord | None) -> None:
        from cdsim.games.carpe_diem.players import played  # pydantic: a folder's commands only

        played.changed(where, before, now)

    def adopt(self, where: Path, record: ProfilesRecord | None) -> None:
        from cdsim.games.carpe_diem.players import played  # pydantic: a folder's commands only

        played.adopt(where, record)

    def differs(self, record: ProfilesRecord | None, other: ProfilesRecord | None
                ) -> str | None:
        from cdsim.games.carpe_diem.players import played  # pydantic: a folder's commands only

        return (played.differs(record, other) if record is not None else
                played.differs(other, None) if other is not None else None)

    def replay_env(self, players: Sequence[PlayerSpec]) -> str | None:
        # a scripted player of a profiles file of one's own: the file this process plays (a
        # run folder's own copy once the run has begun: players/played.py)
        own = profiles.PROFILES_FILE != profiles.STRATEGIES_DIR / "profiles.toml"
        if own and any(s.builtin and s.base in profiles.PROFILES for s in players):
            return f"CDSIM_PROFILES={shlex.quote(str(profiles.PROFILES_FILE))}"
        return None

    def kept_env(self, folder: Path) -> str:
        return f"CDSIM_PROFILES={shlex.quote(str(folder / PROFILES_COPY))}"


__all__ = ["CarpeDiemRoster"]
