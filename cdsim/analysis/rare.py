"""A strategy that (almost) never wins at a table (#61 item 7). Seat fairness asks whether
the seats win equally often; when one strategy at the table wins below ``FLOOR`` of the
seats it plays, the seats' win shares are decided among the other strategies, and a vector
"fair" for the seats says little about the seats that strategy sits in. Reports then say so
beside the verdict, and the proposed vector carries the note (``note``).

A strategy's win share here is its wins over the seats it played (a game with it in two
seats counts twice), at the starting VP the games were played with: the chance that a seat
it sits in wins. No interval is claimed: the note is a warning about what the verdict
means, not a verdict (a strategy that truly wins 2% has 0 wins in 900 seats with chance
about 1 in 80 million)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from cdsim.games.names import shown_names

FLOOR = 0.02  # below this win share a strategy "never wins" at its table


@dataclass(frozen=True)
class RareWinner:
    """A strategy below the floor: its wins over the seats it played."""

    strategy: str
    wins: int
    seats: int

    @property
    def share(self) -> float:
        return self.wins / self.seats if self.seats else 0.0


def rare_winners(played: Mapping[str, tuple[int, int]], floor: float = FLOOR
                 ) -> tuple[RareWinner, ...]:
    """The strategies of ``played`` (name as spelled -> (wins, seats played)) whose win
    share is below ``floor``, each by the name pages show it by (a user's file:Class as its
    class's name, ``cdsim.games.names``)."""
    shown = shown_names(list(played))
    return tuple(RareWinner(shown[name], wins, seats)
                 for name, (wins, seats) in sorted(played.items())
                 if seats and wins / seats < floor)


def note(rare: tuple[RareWinner, ...], floor: float = FLOOR) -> str:
    """The warning, one sentence; "" when every strategy wins at least ``floor``."""
    if not rare:
        return ""
    who = "; ".join(f"{r.strategy} won {r.wins:,} of the {r.seats:,} seats it played "
                    f"({100 * r.share:.1f}%)" for r in rare)
    them = "it" if len(rare) == 1 else "them"
    return (f"Note: {who}, below {100 * floor:.0f}%: seat fairness here is about the other "
            f"strategies' seats; a vector fair for the seats balances those, not {them}.")


__all__ = ["FLOOR", "RareWinner", "note", "rare_winners"]
