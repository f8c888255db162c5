"""What cdsim says of each game is in words and true for that game (audit of issue 60, the
wording defects): no code name in a sentence a designer reads (``shared_win``), and the
help and report lines that count players, name a game or promise a kind of strategy hold
for every game."""

from __future__ import annotations

import re

import pytest

from cdsim.games import GAMES

CODE_WORD = re.compile(r"\b[a-z]+_[a-z_]+\b")  # a column's or a key's code name


@pytest.mark.parametrize("name", list(GAMES))
def test_each_game_s_tie_break_is_said_in_words(name: str) -> None:
    said = GAMES[name].tiebreak_rule
    assert not CODE_WORD.search(said), said
