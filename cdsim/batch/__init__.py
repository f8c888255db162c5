"""Batches of games: a run's configuration (``config``), the folders commands write
(``folder.RunFolder``: manifest, lock, resume, atomic parts), the one work queue that
plays every chunk of runs, studies and ladders (``queue``), and the one progress display
of long commands (``progress``, on stderr)."""
