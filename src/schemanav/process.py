"""What a schemanav process does to itself, whatever it is running: the garbage collector.

A utility with no schemanav imports, so every stage (schema parsing, the corpus store, the
structural index, bench) and the command line can pause the collector alike.
"""

from __future__ import annotations

import gc
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
