"""``cdsim whatif``: what does my change do? One command, the answer in the terminal."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from cdsim.batch.progress import StudyProgress, page_note
from cdsim.cli.app import (
    GameOpt,
    app,
    complete_play,
    complete_set,
    dask_backend,
    out_folder,
    resume_hint,
)
from cdsim.errors import CdsimError

if TYPE_CHECKING:  # the command line imports them when it plays
    from collections.abc import Callable, Sequence

    from cdsim.analysis.paired import Comparison
    from cdsim.games import GameSpec
    from cdsim.study.clock import Clock
    from cdsim.study.comparisons import Pair, Played
    from cdsim.study.model import Study
    from cdsim.study.results import StudyResults

PLAY_HELP = ("scripted (the four scripted players), strong (the learned player, in a game "
             "that has one), or both")
MARGIN = 0.01  # the default --precision: cdsim.analysis.paired.MARGIN (a test keeps them equal)
CARD_MARGIN = 0.04  # the default --card-margin: cdsim.analysis.cards.CARD_MARGIN (a test too)
QUICK_MINUTES = 3.0  # the quick look's time budget (a designer's "a few minutes")
PACE_SECONDS = 2.0  # play and looks measured before the whatif says how long it takes


@app.command("whatif")
def whatif(
    set_: Annotated[list[str] | None, typer.Option(
        "--set", metavar="TABLE.ID.KEY=VALUE",
        help="A change, in a sweep's entry/key words: objective.B05.reward.vp=6, "
             "fountain.F01.vp=3, tile.L-villa-end-2.chimneys=3, villa_table.points.4=6. Repeat "
             "it for several changes at once (each key once), checked together as one set "
             "with --components: a swap that keeps a total plays; a list of values "
             "(reward.vp=4,6,10) makes one variant per value.", show_default=False,
        autocompletion=complete_set)] = None,
    components: Annotated[str | None, typer.Option(
        "--components", help="An override file with the change instead of (or under) --set: "
        "docs/components.md.", show_default=False)] = None,
    game: GameOpt = None,
    players: Annotated[str | None, typer.Option(
        help="Player counts, comma-separated (default: every count the game takes).",
        show_default=False)] = None,
    play: Annotated[str | None, typer.Option(
        help=f"Who plays: {PLAY_HELP}. Default: the quick look, scripted play and (in a "
             "game with a learned player) strong play, the time going to the comparisons "
             "nearest to deciding.",
        show_default=False, autocompletion=complete_play)] = None,
    precision: Annotated[float, typer.Option(
        help="The designer's margin: a seat whose win share moves by less than this is "
             "'unchanged' (0.01 = 1 pp: a quick look decides most single-card changes at "
             "it, docs/statistics.md); the comparison stops as soon as it is decided either "
             "way. Each answer also says how far seat balance can move (95%).")] = MARGIN,
    card_margin: Annotated[float, typer.Option(
        "--card-margin",
        help="The card margin: a changed card whose takers win within this of the other "
             "seats of their strategies is 'about right', beyond it too weak or too strong "
             "(0.04 = 4 pts, the middle group of the shipped cards' own win differences, "
             "docs/statistics.md). Kept with the run: its pages judge at it too.")
    ] = CARD_MARGIN,
    games: Annotated[int | None, typer.Option(
        help="The most games of each side (base and change) per player count and play "
             "(default: none: each comparison plays until it is decided or the time budget "
             "is spent).", show_default=False)] = None,
    minutes: Annotated[float, typer.Option(
        help="The time budget: play stops at the first chunk boundary after N minutes and "
             "says what is decided and what more would take (the pages are then "
             "provisional; --resume goes on); 0: none.")] = QUICK_MINUTES,
    seed: Annotated[int, typer.Option(help="The deals' seed (stage 0).")] = 1,
    out: Annotated[str | None, typer.Option(
        help="The study folder it writes (default: studies/whatif-CHANGE).",
        show_default=False)] = None,
    force: Annotated[bool, typer.Option("--force", help="Overwrite that folder.")] = False,
    resume: Annotated[bool, typer.Option(
        "--resume", help="Go on with a whatif that was stopped (Ctrl-C) in that folder, with "
        "the same changes and settings: its finished games are kept.")] = False,
    jobs: Annotated[int, typer.Option(help="Worker processes; -1 = every core.")] = -1,
    quiet: Annotated[bool, typer.Option("--quiet", help="No progress on stderr.")] = False,
) -> None:
    """What does a change to the components do? Plays the base and the change on the same
    deals (at every player count the game takes unless told), stops each comparison as soon
    as it is decided, and prints the answer. By default a quick look within 3 minutes
    (--minutes) of scripted play and, in a game with a learned player, strong play: every
    comparison (player count x play) plays until it is decided or the
    time is spent, the time left going to those nearest to deciding; after a few seconds of
    play it says how long it will take at this machine's measured pace; out of time, it
    stops at a chunk and says what is decided, how far each answer can move and what more
    would take. The answer: whether seat balance moves (each
    seat's win share, change minus base, at the rulebook's starting VP, with intervals
    valid at every look, judged at the designer's margin --precision), how far it can move
    at most (95%), and what the changed cards do: one line each, too weak, about right or
    too strong (their takers' win difference against --card-margin; neutral near the value a
    sweep of several values finds), then their figures (taken, fulfilled, VP per take, win
    difference), each with its 95% interval; any other changed component the same line from its
    use as the game's rows record it (a tile placed, a frame part or villa-table row scored
    from, a Castles card taken, a harvest tile scored from), or that its use is not recorded
    yet; then the change's effect on each style's win share. The folder is a
    study folder: its pages lead with the change (study.html).

    Example: cdsim whatif --set objective.B05.reward.vp=6
             cdsim whatif --set objective.B05.reward.vp=6 --play strong --minutes 10
             cdsim whatif --set objective.B05.reward.vp=4,6,10,12 --play scripted
             cdsim whatif --components my-change.toml --players 4
             cdsim whatif --game castles --set colour_bonus.castle.first=6"""
    from cdsim.batch.config import check_jobs
    from cdsim.batch.folder import RunFolder, check_out
    from cdsim.games import game_spec
    from cdsim.study import comparisons
    from cdsim.study import whatif as wi
    from cdsim.study.clock import Clock, check_minutes
    from cdsim.study.play import check_players
    from cdsim.study.store import STUDY, STUDY_MANIFEST
    from reports.study import analyse, write

    check_jobs(jobs)
    spec = game_spec(game)
    changes = [wi.parse_set(s, spec) for s in set_ or []]
    counts = (_ints(players, "--players", spec.player_counts) if players is not None
              else list(spec.player_counts))
    quick = play is None  # the quick look: strong play only if time allows
    asked_plays = play if play is not None else ("scripted" if spec.strong is None else
                                                 "scripted,strong")  # "" is nothing
    plays = list(dict.fromkeys(p.strip() for p in asked_plays.split(",") if p.strip()))
    unknown = [p for p in plays if p not in wi.PLAYS]
    if unknown or not plays:
        raise CdsimError(f"--play: {', '.join(unknown) or 'nothing'}: expected {PLAY_HELP}")
    if spec.strong is None and plays != ["scripted"]:
        raise CdsimError(f"--play: {spec.name} has no strong player yet (its mcts costs "
                         "minutes a game): scripted only")
    if not 0.001 <= precision <= 0.05:
        raise CdsimError(f"--precision must be between 0.001 and 0.05 (0.005 = 0.5 pp), got "
                         f"{precision:g}")
    if not 0.001 <= card_margin <= 0.5:
        raise CdsimError(f"--card-margin must be between 0.001 and 0.5 (0.04 = 4 pts), got "
                         f"{card_margin:g}")
    check_minutes(minutes, "--minutes")
    if games is not None and not 100 <= games <= 10_000_000:
        raise CdsimError(f"--games must be between 100 and 10,000,000, got {games}")
    if not 0 <= seed < 2**62:
        raise CdsimError(f"--seed must be between 0 and 2**62 - 1, got {seed}")
    override = out_folder(components, "--components", "an override file")
    if override is not None:
        if not override.is_file():
            raise CdsimError(f"--components {components}: no such override file")
        try:  # a set that does not load is one line now, before a folder is made (with
            if not changes:  # --set: checked with them, as one set, when they are made)
                spec.components_digest(str(override))
        except CdsimError as exc:
            raise CdsimError(f"--components {exc}{wi.companion(str(exc))}") from None
    name = wi.safe_name("whatif-" + "_".join(
        [*(c.spelled.partition(".")[2] for c in changes), *([override.stem] if override else [])]))
    root = out_folder(out) or Path("studies") / name
    root = check_out(root)
    if root.exists() and not root.is_dir():
        raise CdsimError(f"--out {root}: a file is in the way (whatif writes a study folder "
                         "there): name another folder")
    if resume and force:
        raise CdsimError("--resume keeps the folder's games and --force throws them away: "
                         "give one of them")
    if resume and not (root / STUDY_MANIFEST).is_file():
        raise CdsimError(f"{root}: no whatif to resume (no {STUDY_MANIFEST}); drop --resume")
    if root.exists() and any(root.iterdir()) and not (force or resume):
        raise CdsimError(f"{root} already holds a study: --resume to go on with it after a "
                         "stop, --force to overwrite it, or name another folder with --out")
    again = " ".join(["cdsim", *(a for a in sys.argv[1:] if a not in ("--force", "--resume")),
                      *(["--out", str(root)] if out is None else []), "--resume"])
    resume_hint(root, STUDY_MANIFEST, again)
    # a population's games in the study file: the cap when given, else the games its
    # sequences are designed for (no cap: it plays until decided or out of time)
    budgets = {p: games or (spec.whatif_games or wi.DESIGN).get(p, wi.DESIGN[p])
               for p in plays}
    made = not root.exists()
    try:
        try:
            study = wi.build(name, changes, override, root, counts, plays, seed, budgets,
                             spec)
        except CdsimError as exc:
            raise _too_few(exc, games) from None
        check_players(study)  # every cell's players on its set, before a game is played
    except BaseException:
        if made:  # a refusal (or a stop) leaves nothing behind
            import shutil
            shutil.rmtree(root, ignore_errors=True)
        raise
    if _identical(study, spec):
        if made:
            import shutil
            shutil.rmtree(root, ignore_errors=True)
        asked = study.file.description.removeprefix("What the change does: ")
        print(f"whatif: {asked}: no change: the games are identical (the changed component "
              "set is the base's), so seat balance cannot move; nothing was played")
        return
    clock = Clock(minutes or None, jobs)
    print(_chosen(plays, counts, quick, clock, games), flush=True)
    if resume:
        _precision_note(root, precision)
    with dask_backend("loky", None), RunFolder(root, STUDY).lock(), \
            StudyProgress(name, label="whatif", quiet=quiet) as progress:
        progress.deadline = clock.deadline()
        on_round = _rounds(progress, clock)
        played = comparisons.run(study, root, jobs, "loky", force=not resume, resume=resume,
                                 precision=precision, on_chunk=progress.chunk, clock=clock,
                                 again=again, cap=games, on_round=on_round,
                                 card_margin=card_margin)
    note = page_note("whatif", quiet)
    try:
        result = analyse(root, note)
    except CdsimError:
        if not played.stopped or any(p.outcomes for p in played.pairs):
            raise
        # stopped by its own time budget before a stage finished: not a user error (a
        # study in the same state exits 0 too)
        print(f"whatif: play stopped ({played.stopped}) before any stage finished: nothing "
              f"to judge yet, no pages written; continue with {again}")
        return
    write(root, result=result, note=note)
    _answer(study, root, played, result, again, card_margin)


def _too_few(exc: CdsimError, games: int | None) -> CdsimError:
    """A --games too small for a cell's first look, said of the flag the user gave, not of
    the study file whatif writes; any other problem as it is."""
    import re

    found = re.search(r"cell (\d+)p\.(\w+)\S*: games \(\d+\) must hold the first stage "
                      r"\((\d+) games: at least (\d+) deals of (\d+) games\)", str(exc))
    if games is None or found is None:
        return exc
    players, play, least, deals, deal = found.groups()
    return CdsimError(f"--games {games}: too few for the first look at {players} players "
                      f"({play} play needs at least {int(least):,} games a side: {deals} deals "
                      f"of {deal} games); raise --games")


def _identical(study: Study, spec: GameSpec) -> bool:
    """An A/A change: every variant's component set is the base's (the same digest: a key
    set to its own value), so base and change would play the same games."""
    variants = study.file.variant
    if not variants or study.file.sweep:
        return False
    keys = spec.set_keys
    if keys is not None:  # a game of JSON tables: the same tables, however they are written
        import json

        base = json.loads(keys.text(study.file.components))
        return all(json.loads(keys.text(v.components)) == base for v in variants)
    digest = spec.components_digest(study.file.components)[0]
    return all(spec.components_digest(v.components)[0] == digest for v in variants)


def _precision_note(root: Path, precision: float) -> None:
    """A resume at another --precision judges the finished games again, look by look, at
    the new margin: an answer may then rest on fewer games than were played. Said."""
    from cdsim.study.store import study_manifest_of

    before = study_manifest_of(root).whatif
    if before is not None and before.precision != precision:
        print(f"whatif: --precision {precision:g}, where this whatif played at "
              f"{before.precision:g}: its finished games are judged again look by look at "
              "the new margin, so an answer may now rest on fewer games than were played "
              "(each line says its games a side)", flush=True)


def _chosen(plays: list[str], counts: list[int], quick: bool, clock: Clock,
            games: int | None) -> str:
    """One line before play: what it plays and how; its time is said once a few seconds
    of play have measured this machine's pace (``_rounds``)."""
    from cdsim.study.clock import minutes_words

    budget = (f"time budget {minutes_words(clock.minutes)} (--minutes)"
              if clock.minutes else "no time budget (--minutes 0)")
    counted = ", ".join(map(str, counts[:-1])) + (" and " if len(counts) > 1 else "") + str(
        counts[-1])
    what = (f"the quick look, {budget}: scripted and strong play at {counted} players"
            if quick and len(plays) > 1 else
            f"{' and '.join(plays)} play at {counted} players as asked, {budget}")
    until = ("until it is decided, has played its --games a side or the time is spent"
             if games else "until it is decided or the time is spent")
    return (f"whatif: {what}; each comparison {until}, the time left going to those nearest "
            "to deciding; how long it takes is said after a few seconds of play, at this "
            "machine's measured pace")


def _rounds(progress: StudyProgress,
            clock: Clock) -> Callable[[Sequence[Pair], int, float], None]:
    """After each round: the progress bar's plan to the likely end (each comparison to
    where its last look says it decides, every side, weighed by cost; the time budget cuts
    its ETA), and once this machine's pace is measured, one line saying how long the
    whatif will take."""
    from cdsim.batch.progress import Work
    from cdsim.study import comparisons
    from cdsim.study.budget import cell_game_ms

    said = [False]

    def after(pairs: Sequence[Pair], done: int, done_ms: float) -> None:
        games, ms = comparisons.likely(pairs, clock)
        per_game = {c.key: cell_game_ms(c) for p in pairs for c in p.cells}
        progress.plan_work(done + games, done, Work(done_ms + ms, done_ms, per_game))
        if (said[0] or games == 0 or not clock.measured()
                or clock.spent() < PACE_SECONDS):
            return
        said[0] = True
        print(_pace_line(clock, games, ms), flush=True)
    return after


def _pace_line(clock: Clock, games: int, ms: float) -> str:
    """``whatif: measured here: ... (2 cores, load average 1.3); the comparisons left, to
    where their looks say they decide: about N games, T: about T' in all``, or that the
    time budget ends it first."""
    return "whatif: " + clock.ahead(
        ms, f"the comparisons left, to where their looks say they decide: about {games:,} "
        "games, {time}", "about", " and how far each answer can move")


def _answer(study: Study, root: Path, played: Played, result: StudyResults,
            again: str, card_margin: float = CARD_MARGIN) -> None:
    """The answer in the terminal: the run's games, wall time and play time (its manifest's,
    as its pages say them), each comparison in a designer's words (not decided yet: the
    games and time more would take at this machine's measured pace), the changed cards,
    and, if play stopped early, that the pages are provisional and how to go on."""
    from cdsim.study import whatif_answer
    from cdsim.study.machine import machine_words, run_words
    from cdsim.study.sweep_groups import groups
    from cdsim.study.whatif_words import neutral_near
    from reports.study.sweep import card_sentence

    clock = played.clock
    cells = {c.key: c for c in result.cells}
    found = groups(result.manifest, result.cells)
    asked = study.file.description.removeprefix("What the change does: ")
    m = result.manifest
    print(f"whatif: {asked} ({run_words(m.games_played, m.wall_seconds, m.play_seconds)}; "
          f"{root})")
    for pair in played.pairs:
        for v in pair.variants:
            assert v.variant is not None
            comp = (pair.outcomes or {}).get(v.variant.name)
            head = f"  {pair.base.players}p {pair.play}" + (
                f" [{v.variant.name}]" if len(pair.variants) > 1 else "")
            if comp is None:
                why = ("no look yet (stopped before its first stage finished)"
                       if pair.sizes else _not_begun(pair, clock))
                print(f"{head}: {why}")
                continue
            print(f"{head}: {whatif_answer.head(comp)}{_more(pair, comp, clock)}")
            cell = cells.get(v.key)

            def near(card: str, p: Pair = pair) -> str:
                return neutral_near(found, p.base.players, p.play, card)

            for line in whatif_answer.change_lines(
                    cell.cards if cell is not None else None, card_margin, near):
                print(f"      {line}")
    for group in found:
        said = card_sentence(group)
        if said is not None:
            print(f"  {said.replace('**', '')}")
    if played.stopped:
        print(f"play stopped ({played.stopped}): the pages are provisional; times at "
              f"{clock.basis()}; continue with {again}")
    elif any(c is not None and c.games_to_decide()
             for p in played.pairs for c in (p.outcomes or {}).values()):
        print(f"(times at {clock.basis()})")
    print(f"whatif: played on {machine_words(m.machine)}")  # as its pages say
    print(f"pages: cdsim study report {root} (written: {root / 'study.html'})")


def _not_begun(pair: Pair, clock: Clock) -> str:
    """A comparison not begun (the time went to those nearer to deciding): its first
    stage's time and how to have it played."""
    size = pair.next_size()
    return (f"not begun: the time budget went to the comparisons nearer to deciding (its "
            f"first {size:,} games a side take {clock.games_time(size, pair.ms())}); the "
            "--resume command below, or a larger --minutes, plays it")


def _more(pair: Pair, comp: Comparison, clock: Clock) -> str:
    """For a comparison left undecided: about how many more games a side would decide it,
    and how long that is at this machine's measured pace (base and variant both play
    them)."""
    more = comp.games_to_decide()
    if not more:
        return ""
    return (f"; about {more:,} more games a side ({clock.games_time(more, pair.ms())}) "
            "would decide it if the differences stay as they look")


def _ints(text: str, flag: str, allowed: tuple[int, ...]) -> list[int]:
    try:
        values = [int(x) for x in text.split(",") if x.strip()]
    except ValueError:
        raise CdsimError(f"{flag}: expected numbers among {allowed}, got {text!r}") from None
    if not values or any(v not in allowed for v in values):
        raise CdsimError(f"{flag}: expected numbers among {allowed}, got {text!r}")
    return sorted(set(values))
