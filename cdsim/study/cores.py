"""A report's independent pieces of work (its cells, its charts) on every core: ``in_order``
computes some in this process and hands the others to loky's worker processes (the
reusable executor joblib plays on, which a stop shuts down: ``cdsim.cli.app``), one at a
time each, and gives the results in the pieces' order. This process keeps a core's worth
of the work: it has imported everything already, while a worker first imports what its
piece needs (about 0.7 s of CPU for a study's cell), so one worker on 2 cores, not two."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, wait
from typing import TypeVar

T = TypeVar("T")
R = TypeVar("R")


def workers() -> int:
    """The worker processes beside this one: every core but this process's."""
    from joblib import effective_n_jobs

    return max(0, int(effective_n_jobs(-1)) - 1)


def in_order(work: Callable[[T], R], items: Iterable[T]) -> Iterator[R]:
    """``work(item)`` for each of ``items``, in their order, as each is ready. ``work`` and
    the items are pickled for a worker (a module's function, or a partial of one); each
    piece must depend on its item alone, so where it is computed changes nothing."""
    todo = list(items)
    spare = min(workers(), len(todo) - 1)
    if spare < 1:
        yield from map(work, todo)
        return
    # joblib's own factory, not loky's: loky's reusable executor is one per process, and
    # one loky made lacks what joblib's Parallel later looks for on it (its temporary
    # folder manager), so the next Parallel in this process would fail
    from joblib.executor import get_memmapping_executor

    executor = get_memmapping_executor(spare)
    done: dict[int, R] = {}
    away: dict[int, Future[R]] = {}
    start = given = 0
    while given < len(todo):
        while len(away) < spare and start < len(todo):  # each worker one piece at a time
            away[start] = executor.submit(work, todo[start])
            start += 1
        for i in [i for i, f in away.items() if f.done()]:
            done[i] = away.pop(i).result()
        if given in done:
            yield done.pop(given)
            given += 1
        elif start < len(todo):  # this process takes the next piece
            done[start] = work(todo[start])
            start += 1
        else:  # every piece begun: wait for a worker's
            wait(list(away.values()), return_when=FIRST_COMPLETED)


__all__ = ["in_order", "workers"]
