"""Batches of games: a run's configuration (``config``), the folders commands write
(``folder.RunFolder``: manifest, lock, resume, atomic parts), and the one work queue that
plays every chunk of runs, studies and ladders (``queue``)."""
