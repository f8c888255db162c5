"""The ``cdsim`` application: the typer app, the options and helpers every command group
shares, and ``main`` (every user error is one line and exit code 2; a stop is 130)."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from cdsim import __version__
from cdsim.cli.stops import SIGNALLED
from cdsim.cli.stops import STOPPED as STOPPED  # the commands read it here
from cdsim.errors import CdsimError, StrategyFailure

if TYPE_CHECKING:
    from cdsim.games import GameSpec

def game_names() -> tuple[str, ...]:
    """The registered games' names, the default first, from the compiled core's registry
    (a few ms: the help and completion read it without loading any game)."""
    try:
        from cdsim import _core  # type: ignore[attr-defined]
    except ImportError:  # no core built: the commands say so when they need it
        return ()
    return tuple(str(name) for name in _core.GAMES)


def _games_words() -> str:
    names = game_names()
    return (f"{', '.join(names)}; the first is the default" if names
            else "the compiled core is not built (make install)")


def complete_game(incomplete: str) -> list[str]:
    """Shell completion of --game: the registered games."""
    return [name for name in game_names() if name.startswith(incomplete)]


def _game_of(ctx: typer.Context) -> GameSpec | None:
    """The game a command line being completed names (--game, else the default); None
    where it names none cdsim knows."""
    from cdsim.games import game_spec

    try:
        return game_spec(ctx.params.get("game"))
    except CdsimError:
        return None


def complete_strategies(ctx: typer.Context, incomplete: str) -> list[str]:
    """Shell completion of --strategies' last comma-separated name: the game's built-in
    players (the names before it kept)."""
    spec = _game_of(ctx)
    before, comma, last = incomplete.rpartition(",")
    try:
        names = spec.player_names() if spec is not None else ()
    except CdsimError:  # a profiles file that does not read: no names to offer
        names = ()
    return [f"{before}{comma}{n}" for n in names if n.startswith(last)]


def complete_play(incomplete: str) -> list[str]:
    """Shell completion of whatif's --play."""
    return [p for p in ("scripted", "strong", "scripted,strong") if p.startswith(incomplete)]


def complete_set(ctx: typer.Context, incomplete: str) -> list[str]:
    """Shell completion of whatif's --set: the game's component entries as ``TABLE.ID.``
    (a key and its value are the user's to write)."""
    spec = _game_of(ctx)
    if spec is None or spec.entries is None:
        return []
    try:
        found = spec.entries(None)
    except CdsimError:
        return []
    return [f"{e.address}." for e in found if f"{e.address}.".startswith(incomplete)]


app = typer.Typer(
    name="cdsim",
    help="Monte Carlo seat-balance analyzer for board games: which starting VP make the "
         f"seats fair, and what a change to a component does ({_games_words()}; `cdsim "
         "games` lists them with their titles; --game picks one).\n\n"
         "Start with `cdsim play --players 3 --seed 1 --trace` to watch one game.",
    no_args_is_help=True,
    add_completion=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)

ComponentsOpt = Annotated[Path | None, typer.Option(
    "--components", help="A component set replacing parts of the game's built-in one: a "
    "folder or a TOML file for the default game, a JSON file for the others (`cdsim "
    "components export` writes one to start from). Default: the game's built-in set, "
    "reconstructed (`cdsim components show`).",
    envvar="CDSIM_COMPONENTS")]


GameOpt = Annotated[str | None, typer.Option(
    "--game", help=f"The game: {_games_words()} (`cdsim games` lists them with their "
    "titles).", autocompletion=complete_game)]


def _parse_ints(text: str, what: str) -> tuple[int, ...]:
    """``8,9,10`` given to flag ``what``; blanks and empty items are refused (``,,,`` is not
    "the default")."""
    from cdsim.batch.config import integers

    try:
        return integers(text)
    except ValueError as exc:
        raise CdsimError(f"{what} {exc}") from None


def named_path(text: str, flag: str = "--out", what: str = "a folder") -> Path:
    """A folder (or file) a command writes; a blank is refused, not taken for the current
    folder."""
    if not text.strip():
        raise CdsimError(f"{flag} must name {what}, got {text!r}")
    return Path(text)


def out_folder(text: str | None, flag: str = "--out", what: str = "a folder") -> Path | None:
    """``named_path``, or None (the command's default) when the flag is not given."""
    return None if text is None else named_path(text, flag, what)


_TIMEOUT_FLAG: dict[str, bool] = {}  # whether --decision-timeout was given on the command line


def _timeout_source(ctx: typer.Context, param: typer.CallbackParam,
                    value: float | None) -> float | None:
    """Note whether the command line gave --decision-timeout (CDSIM_DECISION_TIMEOUT, set
    for Python strategies, is not a flag given to a game without them)."""
    source = ctx.get_parameter_source(param.name or "")
    _TIMEOUT_FLAG["given"] = source is not None and source.name == "COMMANDLINE"
    return value


DecisionTimeoutOpt = Annotated[float | None, typer.Option(
    "--decision-timeout", metavar="SECONDS", envvar="CDSIM_DECISION_TIMEOUT",
    callback=_timeout_source,
    help="Time limit for each decision of a Python strategy (module:Class), also for its "
         "import and construction: one over it stops the command with one line naming the "
         "strategy, the game and the decision (exit 1). 0: no limit. Built-in players have "
         "none. [default: 10]", show_default=False)]


def use_decision_timeout(seconds: float | None) -> None:
    """A command's --decision-timeout: this process's limit (runs record it)."""
    from cdsim.players.sandbox import set_decision_timeout

    set_decision_timeout(seconds)


def decision_timeout_given() -> bool:
    """Whether the command line gave --decision-timeout (not CDSIM_DECISION_TIMEOUT)."""
    return bool(_TIMEOUT_FLAG.get("given"))


def refuse_decision_timeout(spec: GameSpec) -> None:
    """A game whose players are all built in has no time limit to set: --decision-timeout
    given for it on the command line is one line, the same for every command (play,
    simulate, ladder, study run)."""
    if not spec.python_players and _TIMEOUT_FLAG.get("given"):
        raise CdsimError(f"--decision-timeout: {spec.name} is played by its built-in "
                         "players, which take no time limit; drop the flag")


RunArg = Annotated[Path, typer.Argument(help="Run folder made by `cdsim simulate` (e.g. runs/NAME).",
                                         show_default=False)]
ToleranceOpt = Annotated[float, typer.Option(
    help="Largest seat win-share gap that counts as fair, as a share (0.02 = 2 points).")]
ZoneOpt = Annotated[float, typer.Option(
    help="Indifference zone around the tolerance, as a share (0.005 = 0.5 points): fair is "
         "shown against gaps of tolerance + zone, unfair against tolerance - zone, so every "
         "verdict can end; 0: both against the tolerance.")]


class dask_backend:
    """Context: register and connect the dask backend when asked for."""

    def __init__(self, name: str, scheduler: str | None) -> None:
        self.name = name
        self.scheduler = scheduler
        self.client: Any = None

    def __enter__(self) -> None:
        if self.name != "dask":
            return
        try:
            from dask.distributed import Client
        except ImportError:
            raise CdsimError("--backend dask needs the dask extra: pip install 'cdsim[dask]'") from None
        try:
            self.client = Client(self.scheduler) if self.scheduler else Client(processes=True)
        except Exception as exc:
            where = f"--scheduler {self.scheduler!r}" if self.scheduler else "a local dask cluster"
            raise CdsimError(f"cannot connect to {where} ({type(exc).__name__}: {exc})") from None

    def __exit__(self, *exc: object) -> None:
        if self.client is not None:
            self.client.close()


def version_callback(value: bool) -> None:
    if value:
        print(f"cdsim {__version__}")
        raise typer.Exit()


DEBUG = {"on": False}  # set by `cdsim --debug ...`


@app.callback()
def _root(version: Annotated[bool, typer.Option(
        "--version", callback=version_callback, is_eager=True, help="Show the version.")]
        = False,
        debug: Annotated[bool, typer.Option(
            "--debug", help="On a failing strategy, also print its traceback.")] = False) -> None:
    DEBUG["on"] = debug


# Ctrl-C, SIGTERM and SIGHUP stop every command the same way: finished chunks are kept,
# the workers are stopped, one line on stderr (with the --resume command when a run, study
# or ladder folder was being written) and exit code 130 (STOPPED), whichever the signal
# (cdsim.cli.stops: what each raises).
RESUME: dict[str, Any] = {}  # set by the commands that write a folder


def resume_hint(folder: Path, manifest: str, command: str) -> None:
    """The folder this command writes, its manifest's name and the command that continues
    it (printed on a stop once the manifest exists)."""
    RESUME.update(folder=folder, manifest=manifest, command=command)


def _a_stop(exc: BaseException) -> bool:
    """Whether ``exc`` is a stop signal in another library's wrapping: a signal landing in
    a pydantic serializer comes out as its PydanticSerializationError, not as the
    KeyboardInterrupt raised, so the flag set when it arrived is read, then the chain."""
    seen: BaseException | None = exc
    while seen is not None:
        if isinstance(seen, KeyboardInterrupt):
            return True
        seen = seen.__cause__ or seen.__context__
    return SIGNALLED["on"]


def _stop_workers() -> None:
    """Shut the loky workers down now rather than when they next fall idle."""
    module = sys.modules.get("joblib.externals.loky.reusable_executor")
    executor = getattr(module, "_executor", None)
    if executor is not None:
        import contextlib

        with contextlib.suppress(Exception):  # already broken or shut down: nothing to stop
            executor.shutdown(wait=False, kill_workers=True)


def _stopped() -> None:
    _stop_workers()
    hint = ""
    if RESUME:
        folder = RESUME["folder"]
        hint = (f"; finished chunks are saved in {folder}: continue with {RESUME['command']}"
                if (folder / RESUME["manifest"]).is_file() else
                f"; nothing was saved in {folder}: run the command again")
    print(f"cdsim: interrupted{hint}", file=sys.stderr)
    sys.exit(STOPPED)


def _clear_worker_notes() -> None:
    queue = sys.modules.get("cdsim.batch.queue")
    if queue is not None:
        queue.clear_notes()


def _mark_driver() -> None:
    """The workers this process starts keep a note of where they are for it (read if one
    dies: cdsim.batch.queue.dead_worker_note); the notes go when it ends."""
    if os.environ.get("CDSIM_DRIVER") != str(os.getpid()):
        import atexit

        os.environ["CDSIM_DRIVER"] = str(os.getpid())
        atexit.register(_clear_worker_notes)


def _worker_died(exc: BaseException) -> None:
    """A worker process ended without a word (killed, crashed, exited): one line naming
    what it was doing when a user strategy was deciding, the folder's resume hint, exit 1."""
    import re

    _stop_workers()
    queue = sys.modules.get("cdsim.batch.queue")
    note = queue.dead_worker_note() if queue is not None else None
    codes = re.search(r"exit codes of the workers are \{([^}]*)\}", str(exc))
    how = f" (exit code {codes.group(1)})" if codes else ""
    doing = f": {note}" if note else ""
    hint = ""
    if RESUME:
        folder = RESUME["folder"]
        hint = (f"; finished chunks are kept in {folder}: continue with {RESUME['command']}"
                if (folder / RESUME["manifest"]).is_file() else "")
    print(f"cdsim: error: a worker process died{how}{doing}{hint}", file=sys.stderr)
    sys.exit(1)


def main() -> None:
    """Entry point: user errors become one line on stderr and exit code 2; a failing
    strategy or a worker that died, exit code 1; a stop (Ctrl-C, SIGTERM, SIGHUP), 130.
    The stop signals' handlers are in place (``cdsim.cli.main``: ``catch_stops``)."""
    try:
        _mark_driver()
        code = app(standalone_mode=False)
    except SystemExit as exc:  # a command's own stop message (simulate, study run, ladder)
        if exc.code == STOPPED:
            _stop_workers()
        raise
    except CdsimError as exc:
        print(f"cdsim: error: {exc}", file=sys.stderr)
        sys.exit(2)
    except StrategyFailure as exc:  # a bug in a strategy: not bad input, but no traceback
        if DEBUG["on"] and exc.detail:
            print(exc.detail.rstrip(), file=sys.stderr)
        print(f"cdsim: error: {exc}", file=sys.stderr)
        sys.exit(1)
    except typer.Exit as exc:
        sys.exit(exc.exit_code)
    except typer.TyperException as exc:  # bad flags: typer's usage errors
        if type(exc).__name__ == "NoArgsIsHelpError":  # bare `cdsim`: show the help
            print(exc.format_message())
            sys.exit(0)
        print(f"cdsim: error: {exc.format_message()} (see --help)", file=sys.stderr)
        sys.exit(2)
    except (typer.Abort, KeyboardInterrupt):
        _stopped()
    except Exception as exc:
        if _a_stop(exc):
            _stopped()
        if type(exc).__name__ in ("TerminatedWorkerError", "BrokenProcessPool"):
            _worker_died(exc)
        raise
    # typer returns what would be the exit code (Ctrl-C inside a command is its Exit(130))
    if code == STOPPED:
        _stopped()
    if isinstance(code, int) and code:
        sys.exit(code)
