"""Fair serving: costly requests take turns, so small ones keep answering.

A request that `serve` answers itself costs what it asks for: the standard introspection query
resolves every type and field, ten `__definitions` of 150 coordinates render 1,500 definitions,
while `__search(first: 5)` or `{ __typename }` take milliseconds. Four clients looping costly
requests once took the small requests' p95 from 0.09 s to 6.9 s on two cores: each costly one
held a worker thread, and together they held the interpreter.

`request_weight` prices a request before it runs, from its document (and variables): the
`first` of each `__search`, the coordinates of each `__definitions`, `COSTLY_WEIGHT` for
`__schema`. One at or over `COSTLY_WEIGHT` is costly and goes to `CostlyTurns`:

- per client (its address), one costly request at a time; its others wait without a thread;
- in all, `workers` costly requests at once (the cores less one, at least one), on a pool of
  their own, so the small requests' threads are never taken;
- at most `MAX_COSTLY_WAITING` costly requests wait; more are refused with one GraphQL error.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    from graphql import DocumentNode, OperationDefinitionNode

COSTLY_WEIGHT = 100
"""A request asking for this many search results or definitions (or for `__schema`) is
costly; `__search(first: 10)` weighs 10."""
DEFAULT_FIRST = 10
TYPE_WEIGHT = 10
MAX_COSTLY_WAITING = 64

T = TypeVar("T")


class Busy(Exception):
    """More costly requests wait than `MAX_COSTLY_WAITING`."""


def request_weight(
    document: DocumentNode, operation: OperationDefinitionNode, variables: Mapping[str, Any] | None
) -> int:
    """What the operation's root fields ask for (through fragments): see the module."""
    given = dict(variables or {})
    return sum(_field_weight(field, given) for field in root_field_nodes(document, operation))


def root_field_nodes(document: DocumentNode, operation: OperationDefinitionNode) -> list[Any]:
    """The root fields the operation selects (`FieldNode`s), through inline fragments and
    fragment spreads, each fragment followed once."""
    from graphql import FieldNode, FragmentDefinitionNode, FragmentSpreadNode, InlineFragmentNode

    fragments = {
        d.name.value: d for d in document.definitions if isinstance(d, FragmentDefinitionNode)
    }
    found: list[Any] = []
    pending = [operation.selection_set]
    seen: set[str] = set()
    while pending:
        for selection in pending.pop().selections:
            if isinstance(selection, FieldNode):
                found.append(selection)
            elif isinstance(selection, InlineFragmentNode):
                pending.append(selection.selection_set)
            elif isinstance(selection, FragmentSpreadNode):
                fragment = fragments.get(selection.name.value)
                if fragment is not None and fragment.name.value not in seen:
                    seen.add(fragment.name.value)
                    pending.append(fragment.selection_set)
    return found


def _field_weight(field: Any, variables: dict[str, Any]) -> int:
    from graphql import IntValueNode, ListValueNode, VariableNode

    name = field.name.value
    if name == "__schema":
        return COSTLY_WEIGHT
    if name == "__type":
        return TYPE_WEIGHT
    argument = {"__search": "first", "__definitions": "coordinates"}.get(name)
    if argument is None:
        return 0
    value = next((a.value for a in field.arguments or () if a.name.value == argument), None)
    if isinstance(value, VariableNode):
        given = variables.get(value.name.value)
        if isinstance(given, list):
            return len(given)
        return given if isinstance(given, int) and not isinstance(given, bool) else DEFAULT_FIRST
    if isinstance(value, ListValueNode):
        return len(value.values)
    if isinstance(value, IntValueNode):
        return max(int(value.value), 0)
    return DEFAULT_FIRST if name == "__search" else 1


class CostlyTurns:
    """Runs costly work on a pool of `workers` threads, one request per client at a time."""

    def __init__(self, workers: int | None = None) -> None:
        self.workers = workers or max(1, (os.cpu_count() or 1) - 1)
        self._pool = ThreadPoolExecutor(max_workers=self.workers, thread_name_prefix="costly")
        self._clients: dict[str, tuple[asyncio.Lock, int]] = {}
        self._waiting = 0

    async def run(self, client: str, work: Callable[[], T]) -> T:
        """`work()` on the pool once `client`'s earlier costly request is done; `Busy` when
        too many wait."""
        if self._waiting >= MAX_COSTLY_WAITING:
            raise Busy
        self._waiting += 1
        lock, count = self._clients.get(client) or (asyncio.Lock(), 0)
        self._clients[client] = (lock, count + 1)
        try:
            async with lock:
                return await asyncio.get_running_loop().run_in_executor(self._pool, work)
        finally:
            self._waiting -= 1
            lock, count = self._clients[client]
            if count == 1:
                del self._clients[client]
            else:
                self._clients[client] = (lock, count - 1)
