"""``cdsim games``: the games cdsim plays, with what ``--game`` takes for each."""

from __future__ import annotations

from cdsim.cli.app import app


@app.command("games")
def games() -> None:
    """List the games cdsim plays: the name --game takes (and a study file's game = "..."),
    the player counts, the rulebook's starting VP, the players and where the rules are.

    Example: cdsim games
             cdsim simulate --game castles -n 4 --strategies greedy --games 1000"""
    from cdsim.games import DEFAULT_GAME, GAMES

    for spec in GAMES.values():
        default = " (the default)" if spec.name == DEFAULT_GAME else ""
        counts = ", ".join(map(str, spec.player_counts))
        vectors = {n: spec.start_vp(n) for n in spec.player_counts}
        start = ("every seat starts at 0 (the rulebook compensates no seat)"
                 if not any(any(v) for v in vectors.values()) else "(the rulebook's) " +
                 "; ".join(f"{n}p {'/'.join(map(str, v))}" for n, v in vectors.items()))
        print(f"{spec.name}{default}: {spec.title}, {counts} players")
        print(f"  starting VP: {start}")
        print(f"  players: {', '.join(spec.player_names())}")
        print(f"  scripted (a study's population): {', '.join(spec.scripted)}")
        print(f"  rules: {spec.rules_doc}")
