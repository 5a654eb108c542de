"""Score questions in worker processes: `bench --jobs N`.

The workers are forked from the process that has loaded the schema, the corpus, the index and
the backend, so they share those pages with it (copy-on-write: read-only data is never
copied) and load nothing themselves. Each worker scores whole questions (its ranking, its
dispositions and every output's observation) and sends back only the small per-question
records; the parent puts them back in question order, so the report is the same for any
number of workers (timings aside).

Where `fork` is not available (Windows, macOS's default spawn would reload everything), or
when there are too few questions to share, the questions are scored in this process.
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable, Iterator
from typing import Generic, TypeVar, cast

from schemanav.events import Events

_R = TypeVar("_R")

MIN_QUESTIONS_PER_WORKER = 16
"""A worker is worth its start (a fork, and the lazy tables it fills again) only with this many
questions or more to score: the bundled Movie DB's 26 questions run in one process."""

_work: Callable[[int], object] | None = None
"""The function the forked workers run: set before the fork, inherited, never pickled."""


def _run(index: int) -> object:
    assert _work is not None
    return _work(index)


def worker_count(jobs: int, questions: int) -> int:
    """How many processes score `questions` questions when `jobs` are allowed: never more
    than one per MIN_QUESTIONS_PER_WORKER questions, at least one, and one without `fork`."""
    if "fork" not in multiprocessing.get_all_start_methods():
        return 1
    return max(1, min(jobs, questions // MIN_QUESTIONS_PER_WORKER))


class QuestionPool(Generic[_R]):
    """Runs `work(i)` for every question index i, in order of i, in `workers` processes."""

    def __init__(self, work: Callable[[int], _R], workers: int) -> None:
        self._work = work
        self._workers = workers

    def map(self, count: int, label: str, events: Events) -> list[_R]:
        """Every `work(i)` for i in range(count), in order, with a progress bar."""
        events.progress(label, 0, count)
        found: list[_R] = []
        for done, result in enumerate(self._results(count), start=1):
            found.append(result)
            events.progress(label, done, count)
        return found

    def _results(self, count: int) -> Iterator[_R]:
        if self._workers <= 1 or count <= 1:
            yield from map(self._work, range(count))
            return
        global _work
        # The first question in this process: whatever the work fills lazily on first use
        # (the slicer's tables, a list's filter values) is then filled once, before the
        # fork, and shared by every worker instead of rebuilt in each.
        yield self._work(0)
        _work = self._work
        try:
            context = multiprocessing.get_context("fork")
            with context.Pool(self._workers) as pool:
                chunk = _chunk_size(count - 1, self._workers)
                yield from cast(Iterator[_R], pool.imap(_run, range(1, count), chunk))
        finally:
            _work = None


def _chunk_size(count: int, workers: int) -> int:
    """Questions per task: a few tasks per worker, so a worker that drew costly questions
    does not keep the others waiting at the end, and few enough to keep the hand-offs cheap."""
    return max(1, count // (workers * 8))
