"""What a schemanav process does to itself, whatever it is running: the garbage collector,
and how many cores it may use.

A utility with no schemanav imports, so every stage (schema parsing, the corpus store, the
structural index, bench) and the command line can pause the collector alike.
"""

from __future__ import annotations

import gc
import os
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def no_cyclic_gc() -> Iterator[None]:
    """Pause the cyclic garbage collector while a schema is built (or hits are ranked by the
    hundred thousand, as `bench` does).

    Parsing allocates hundreds of thousands of long-lived objects and no garbage cycles, so
    the collections it triggers find nothing; on GitHub's schema they were a third to a half
    of the parse time, more as schemas grow. Reference counting still frees as usual.
    """
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def available_cores() -> int:
    """The cores this process may run on: `os.process_cpu_count()` (Python 3.13), else the
    CPU affinity mask (`sched_getaffinity`: a container's or `taskset`'s share), else every
    core the machine has; at least 1."""
    counted = getattr(os, "process_cpu_count", None)
    if counted is not None:
        found: int | None = counted()
    elif hasattr(os, "sched_getaffinity"):
        found = len(os.sched_getaffinity(0))
    else:
        found = os.cpu_count()
    return max(1, found or 1)
